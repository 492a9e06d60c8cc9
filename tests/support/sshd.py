"""A real OpenSSH server (Debian's openssh-server) on 127.0.0.1, for doctor's ssh tests.

Everything it needs lives in one temporary folder: host keys, a client key pair, the
server config (AcceptEnv as given), the known_hosts file. The server runs in a private
mount namespace whose /root is a fresh tmpfs (with the real /root/.pyenv bound back in,
so the interpreters stay where they are): a session's HOME is then a throw-away folder,
never the real home, and root's own ~/.bashrc (which bash reads for an ssh command) does
not run. Loopback only, a free port, and stopped by stop() (the fixture calls it in a
finally), its whole process group killed.
"""
import os
import shutil
import signal
import socket
import subprocess
import time

SSHD = "/usr/sbin/sshd"
KEYGEN = "/usr/bin/ssh-keygen"
SSH = "/usr/bin/ssh"


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


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server(object):
    def __init__(self, folder, accept_env="LANG LC_*", extra=()):
        self.folder = str(folder)
        self.port = _free_port()
        self.key = os.path.join(self.folder, "client_key")
        self.config = os.path.join(self.folder, "sshd_config")
        self.known_hosts = os.path.join(self.folder, "known_hosts")
        self.process = None
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
                 "UsePAM no", "StrictModes no", "PidFile %s/sshd.pid" % self.folder,
                 "LogLevel ERROR"]
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
                  'exec "$2" -D -e -f "$3"')
        self.log = open(os.path.join(self.folder, "sshd.log"), "wb")
        self.process = subprocess.Popen(
            ["unshare", "--mount", "sh", "-c", script, "sh", real, SSHD, self.config],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("sshd exited %s: %s" % (self.process.returncode, self.read_log()))
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return self
            time.sleep(0.05)
        raise RuntimeError("sshd did not listen on port %d: %s" % (self.port, self.read_log()))

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
        return result.returncode, result.stdout, result.stderr


def remove(folder):
    shutil.rmtree(str(folder), ignore_errors=True)
