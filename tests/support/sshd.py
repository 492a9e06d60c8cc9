"""A real OpenSSH server (Debian's openssh-server) on 127.0.0.1, for doctor's ssh tests.

Everything it needs lives in one temporary folder: host keys, a client key pair, the
server config (AcceptEnv as given), the known_hosts file. The server runs in a private
mount namespace whose /root is a fresh tmpfs (with the real /root/.pyenv bound back in,
so the interpreters stay where they are): a session's HOME is then a throw-away folder,
never the real home, and root's own ~/.bashrc (which bash reads for an ssh command) does
not run. Loopback only, a free port, and stopped by stop() (the fixture calls it in a
finally), its whole process group killed.

The real place, for tests of what reaches a session (tests/test_places_ssh.py):

- `use_pam=True` runs sshd with `UsePAM yes` and the system's own, unchanged
  /etc/pam.d/sshd (Debian: pam_env with envfile=/etc/default/locale). Nothing in it is
  adjusted: in this sandbox (a VM with no systemd) pam_loginuid succeeds (sshd is root
  with CAP_AUDIT_CONTROL; it writes the session process's own /proc/self/loginuid, no
  file) and the one module that fails, pam_systemd (no systemd-logind to register the
  session with), is `optional` in common-session: PAM ignores it. pam_env's
  `user_readenv=1` would read ~/.pam_environment: the session home is the tmpfs, empty
  unless a test puts one there.
- `default_locale=TEXT` binds a file of this folder over /etc/default/locale inside the
  server's namespace only (None: the system's own file); set_default_locale() rewrites
  it in place (same inode, so the bind mount shows it) between sessions. The real /etc is
  never written.
- `home_files={".bashrc": text, ...}` are written into the session home (the tmpfs) at
  start; put_home_files() changes them between sessions (a None value removes a file).
  They are written through /proc/<sshd>/root, that is, into the namespace's /root.
- ssh_as_user() runs the client as a user would: no -F, so ssh reads the SYSTEM
  /etc/ssh/ssh_config (Debian: `Host *` / `SendEnv LANG LC_*`) and ~/.ssh/config of the
  passwd home (/root). The client runs in its own private mount namespace with a tmpfs
  over /root holding .ssh/config (the test's text), .ssh/id_ed25519 and
  .ssh/known_hosts; the real /root is never seen or written.
"""
import errno
import os
import shutil
import signal
import socket
import subprocess
import time

from . import sshd_sessions

SSHD = "/usr/sbin/sshd"
KEYGEN = "/usr/bin/ssh-keygen"
SSH = "/usr/bin/ssh"
PAM_SSHD = "/etc/pam.d/sshd"
DEFAULT_LOCALE = "/etc/default/locale"
SSH_CONFIG = "/etc/ssh/ssh_config"


def available():
    """(True, "") or (False, why not)."""
    for tool in (SSHD, KEYGEN, SSH):
        if not os.access(tool, os.X_OK):
            return False, "%s not installed (tests/setup.sh installs openssh-server)" % tool
    if os.geteuid() != 0:
        return False, "the ssh tests run sshd as root (a private mount namespace)"
    if subprocess.run(["unshare", "--mount", "true"], stderr=subprocess.DEVNULL).returncode:
        return False, "unshare --mount is not allowed here"
    return True, ""


def pam_available():
    """(True, "") or (False, why not): what use_pam=True and default_locale= need."""
    ok, why = available()
    if not ok:
        return ok, why
    if not os.path.isfile(PAM_SSHD):
        return False, "no %s (sshd's PAM service; openssh-server installs it)" % PAM_SSHD
    if not os.path.isfile(DEFAULT_LOCALE):
        return False, ("no %s to bind a test's file over (Debian's locales package makes it)"
                       % DEFAULT_LOCALE)
    return True, ""


def _tool(name):
    return shutil.which(name, path=os.defpath + ":/usr/sbin:/sbin") or name


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server(object):
    def __init__(self, folder, accept_env="LANG LC_*", extra=(), use_pam=False,
                 default_locale=None, home_files=None):
        self.folder = str(folder)
        self.port = _free_port()
        self.key = os.path.join(self.folder, "client_key")
        self.config = os.path.join(self.folder, "sshd_config")
        self.known_hosts = os.path.join(self.folder, "known_hosts")
        self.use_pam = use_pam
        self.default_locale = None      # the file bound over /etc/default/locale, if any
        if default_locale is not None:
            self.default_locale = os.path.join(self.folder, "default-locale")
            with open(self.default_locale, "w") as f:
                f.write(default_locale)
            os.chmod(self.default_locale, 0o644)
        self.home_files = dict(home_files or {})
        self.process = None
        self._clients = 0
        self._write(accept_env, extra)

    def _write(self, accept_env, extra):
        host_key = os.path.join(self.folder, "host_ed25519")
        for path in (host_key, self.key):
            subprocess.run([KEYGEN, "-q", "-t", "ed25519", "-N", "", "-f", path], check=True,
                           stdout=subprocess.DEVNULL)
        with open(self.key + ".pub") as f:
            public = f.read()
        self.authorized = os.path.join(self.folder, "authorized_keys")
        with open(self.authorized, "w") as f:
            f.write(public)
        os.chmod(self.authorized, 0o600)
        lines = ["Port %d" % self.port, "ListenAddress 127.0.0.1", "HostKey %s" % host_key,
                 "AuthorizedKeysFile %s" % self.authorized, "PasswordAuthentication no",
                 "KbdInteractiveAuthentication no", "PermitRootLogin prohibit-password",
                 "UsePAM %s" % ("yes" if self.use_pam else "no"), "StrictModes no",
                 "PidFile %s/sshd.pid" % self.folder, "LogLevel ERROR"]
        if accept_env:
            lines.append("AcceptEnv %s" % accept_env)
        lines += list(extra)
        with open(self.config, "w") as f:
            f.write("\n".join(lines) + "\n")
        with open(self.known_hosts, "w") as f:
            with open(host_key + ".pub") as key:
                f.write("[127.0.0.1]:%d %s" % (self.port, key.read()))

    def start(self):
        os.makedirs("/run/sshd", exist_ok=True)     # sshd's privilege separation folder
        real = os.path.join(self.folder, "real-root")
        os.mkdir(real)
        script = ('mount --make-rprivate / && mount --bind /root "$1" && '
                  'mount -t tmpfs -o mode=700 none /root && mkdir /root/.pyenv && '
                  '{ [ ! -d "$1/.pyenv" ] || mount --bind "$1/.pyenv" /root/.pyenv; } && '
                  '{ [ -z "$4" ] || mount --bind "$4" %s; } && '
                  'exec "$2" -D -e -f "$3"' % DEFAULT_LOCALE)
        self.log = open(os.path.join(self.folder, "sshd.log"), "wb")
        self.process = subprocess.Popen(
            ["unshare", "--mount", "sh", "-c", script, "sh", real, SSHD, self.config,
             self.default_locale or ""],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("sshd exited %s: %s" % (self.process.returncode, self.read_log()))
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    if self.home_files:
                        self.put_home_files(self.home_files)
                    return self
            time.sleep(0.05)
        raise RuntimeError("sshd did not listen on port %d: %s" % (self.port, self.read_log()))

    def _session_root(self):
        """The server namespace's / seen from here (the sshd process is that namespace's)."""
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError("the server is not running")
        # Never the real /root: the process must be in its own mount namespace by now.
        if os.readlink("/proc/%d/ns/mnt" % self.process.pid) == os.readlink("/proc/self/ns/mnt"):
            raise RuntimeError("sshd is not in its private mount namespace")
        return "/proc/%d/root" % self.process.pid

    def home_path(self, name):
        """Where file `name` of the session home (the namespace's /root) is, from here."""
        return os.path.join(self._session_root(), "root", name)

    def put_home_files(self, files):
        """Write {name: text} into the session home (None removes that file)."""
        for name, text in files.items():
            path = self.home_path(name)
            if text is None:
                try:
                    os.remove(path)
                except OSError as e:
                    if e.errno != errno.ENOENT:
                        raise
                continue
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
            os.chmod(path, 0o644)

    def set_default_locale(self, text):
        """The /etc/default/locale of the next sessions (rewritten in place: the bind
        mount follows the inode). Only for a server made with default_locale=TEXT."""
        if self.default_locale is None:
            raise ValueError("made without default_locale=: the system's file is in use")
        with open(self.default_locale, "r+") as f:
            f.truncate(0)
            f.write(text)

    def read_log(self):
        with open(os.path.join(self.folder, "sshd.log"), "rb") as f:
            return f.read().decode("utf-8", "replace")

    def stop(self):
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.log.close()
        self.process = None

    def ssh(self, remote_command, env, options=(), config="/dev/null", timeout=60):
        """Run `remote_command` (a shell command line) in a session: (status, stdout, stderr)."""
        argv = [SSH, "-F", config, "-i", self.key, "-p", str(self.port),
                "-o", "UserKnownHostsFile=%s" % self.known_hosts, "-o", "BatchMode=yes",
                "-o", "StrictHostKeyChecking=yes", "-o", "LogLevel=ERROR"]
        argv += list(options) + ["root@127.0.0.1", remote_command]
        result = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, timeout=timeout)
        sshd_sessions.ended(self)       # the session's sshd process ends just after
        return result.returncode, result.stdout, result.stderr

    def ssh_as_user(self, remote_command, env, user_config_text="", options=(), input=None,
                    timeout=60):
        """Run `ssh root@127.0.0.1 [remote_command]` as a user would: (status, stdout,
        stderr). No -F: ssh reads the system /etc/ssh/ssh_config and ~/.ssh/config, which
        is `user_config_text` in a tmpfs over /root of the client's own mount namespace
        (with the client key as ~/.ssh/id_ed25519 and known_hosts beside it). `env` is the
        client's whole environment; `remote_command` None opens the login shell (give
        `options` ("-tt",) and its commands as `input`, bytes)."""
        self._clients += 1
        home = os.path.join(self.folder, "client-%d" % self._clients)
        os.mkdir(home, 0o700)
        for name, source in (("id_ed25519", self.key), ("id_ed25519.pub", self.key + ".pub"),
                             ("known_hosts", self.known_hosts)):
            shutil.copyfile(source, os.path.join(home, name))
        with open(os.path.join(home, "config"), "w") as f:
            f.write(user_config_text)
        for name in os.listdir(home):
            os.chmod(os.path.join(home, name), 0o600)
        # Tools by their full path: `env` (PATH included) is the client's, untouched.
        script = ('"$1" --make-rprivate / && "$1" -t tmpfs -o mode=700 none /root && '
                  '"$2" -a "$3" /root/.ssh && shift 3 && exec "$@"')
        # BatchMode and StrictHostKeyChecking neither send nor set any variable.
        argv = [SSH, "-p", str(self.port), "-o", "BatchMode=yes",
                "-o", "StrictHostKeyChecking=yes"]
        argv += list(options) + ["root@127.0.0.1"]
        if remote_command is not None:
            argv.append(remote_command)
        result = subprocess.run(
            [_tool("unshare"), "--mount", "/bin/sh", "-c", script, "sh", _tool("mount"),
             _tool("cp"), home] + argv, env=env,
            input=input, stdin=None if input is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        sshd_sessions.ended(self)
        return result.returncode, result.stdout, result.stderr


def remove(folder):
    shutil.rmtree(str(folder), ignore_errors=True)
