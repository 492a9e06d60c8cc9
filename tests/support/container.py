"""A Debian root file system entered the way a container runtime enters an image, for the
tests of the container fixes doctor prints (tests/test_places_container.py). There is no
Docker engine on this machine kind; this is the part of `docker build` / `docker run`
that those fixes rest on.

The image: tests/support/build_debian_image.sh builds, once, a root file system made like
Docker's debian:bookworm-slim (IMAGE). `Image(IMAGE).copy(folder)` copies it with `cp -a`
(never shutil.copytree: it would read the device nodes of dev/ as files) into a test's
folder; its config starts as debian:bookworm-slim's: Env PATH=DEFAULT_PATH, Cmd ["bash"],
no Entrypoint.

- build(lines) applies Dockerfile instructions as `docker build` does, for the subset
  doctor prints: ENV (NAME=VALUE pairs, quoted as the Dockerfile parser quotes, `$VAR`
  and `${VAR}` substituted from the ENVs so far, `ENV NAME=` sets NAME empty; the legacy
  `ENV NAME VALUE` too), RUN (shell form: /bin/sh -c LINE; exec form: JSON), ENTRYPOINT
  and CMD (exec form: JSON; shell form: /bin/sh -c). A RUN runs in the container, in
  the environment run() gives (PATH, HOSTNAME, the ENVs so far, HOME=/root), and a
  non-zero status fails the build: BuildError carries the status and the output.
  ENTRYPOINT resets a CMD not set by the same build() (the base image's), as Docker does.
  RUNs change this image's root in place (Docker would stack a layer): copy() first to
  keep a parent. derive() is a second config over the SAME root, for Dockerfiles of ENV,
  ENTRYPOINT and CMD only.
- run(argv=None, env_extra=None, binds=()) enters it as `docker run IMAGE [argv]` does:
  `unshare --mount --pid --fork --uts --ipc` (a private mount propagation; the network is
  the host's, as with --network=host), a hostname of 12 hex digits, /proc mounted fresh,
  a tmpfs /dev holding null, zero, full, random, urandom and tty bound from the host (plus
  fd, stdin, stdout, stderr links, a new devpts instance at pts/ with ptmx, a tmpfs
  shm/), the host's /etc/resolv.conf and generated /etc/hostname and /etc/hosts bound
  in, then `chroot` into the root, cwd /, the environment exactly Docker's (PATH,
  HOSTNAME, the image's Env, `-e` = env_extra, HOME=/root; no TERM, no -t) and
  ENTRYPOINT + (argv or CMD) exec'd as PID 1, the program looked up on the container's
  PATH. stdin is /dev/null (no -i). Returns (status, stdout bytes, stderr bytes);
  last_hostname is the run's HOSTNAME. A program not found exits 127 as under Docker
  (whose message differs: chroot(8) prints "chroot: failed to run command 'X': No such
  file or directory").
- Host folders: `Image(..., binds=[...])`, bind(), or run(binds=) mount a host folder
  READ-ONLY into the container, at the same path (a str) or at another ((host, inside)),
  for RUNs and runs alike (a RUN sees it as `RUN --mount=type=bind` would): so the host's
  /root/.pyenv/versions/3.6.15 runs inside, and /work/main is /src for `pip install /src`.
  The mount points are made in the root for the run and removed afterwards if they were
  made then (empty folders only).

Everything the runtime mounts lives in the run's own mount namespace: it goes when the
run's PID 1 exits, and nothing is mounted on the host.
"""
import json
import os
import re
import secrets
import shlex
import shutil
import subprocess
import tempfile

IMAGE = os.environ.get("UTF8ENV_DEBIAN_IMAGE") or "/var/cache/utf8env/debian-bookworm-slim"
STAMP = ".utf8env-image-ready"
BUILD = "bash tests/support/build_debian_image.sh"
DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
CHROOT = shutil.which("chroot") or "/usr/sbin/chroot"
ENV = shutil.which("env") or "/usr/bin/env"
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")


class BuildError(Exception):
    def __init__(self, line, status, output):
        Exception.__init__(self, "%s: exit status %d\n%s" % (
            line, status, output.decode("utf-8", "replace")))
        self.line, self.status, self.output = line, status, output


def unavailable(image=IMAGE):
    """'' when images can be built and run here, else the one-line reason (for a skip)."""
    if not os.path.isfile(os.path.join(image, STAMP)):
        return "no Debian image at %s: as root, %s (or UTF8ENV_DEBIAN_IMAGE=DIR)" % (image, BUILD)
    if os.geteuid() != 0:
        return "not root: entering a container (unshare, chroot, mount) needs root"
    for tool in ("unshare", "chroot", "mount", "cp"):
        if not shutil.which(tool):
            return "%s not installed (util-linux / coreutils)" % tool
    done = subprocess.run(["unshare", "--mount", "--pid", "--fork", "--uts", "--ipc", "true"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if done.returncode:
        return ("unshare --mount --pid --uts --ipc is not allowed here (a container without "
                "CAP_SYS_ADMIN?): %s" % done.stdout.decode("utf-8", "replace").strip())
    return ""


def _bind_pair(bind):
    host, inside = (bind, bind) if isinstance(bind, str) else bind
    if not os.path.isabs(inside) or not os.path.exists(host):
        raise ValueError("bind %r: the host path must exist and the inside one be absolute"
                         % (bind,))
    return os.path.realpath(host), os.path.normpath(inside)


def _exec_or_shell(rest):
    """The argv of an ENTRYPOINT / CMD / RUN: JSON (exec form) or /bin/sh -c (shell)."""
    rest = rest.strip()
    if rest.startswith("["):
        try:
            argv = json.loads(rest)
        except ValueError:
            argv = None     # Docker too takes a line that is not valid JSON as shell form
        if isinstance(argv, list) and all(isinstance(a, str) for a in argv):
            return argv
    return ["/bin/sh", "-c", rest]


_VAR = re.compile(r"\\\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def _substitute(word, env):
    """Docker's $VAR / ${VAR} in an ENV value, from the ENVs so far (unset: empty)."""
    return _VAR.sub(lambda m: "$" if m.group(0) == "\\$"
                    else env.get(m.group(1) or m.group(2), ""), word)


def _env_pairs(rest, env):
    rest = rest.strip()
    first = rest.split(None, 1)[0] if rest else ""
    if "=" not in first:                    # legacy `ENV NAME VALUE`: the rest of the line
        parts = rest.split(None, 1)
        if len(parts) != 2:
            raise ValueError("ENV %s: needs NAME=VALUE" % rest)
        return [(parts[0], _substitute(parts[1], env))]
    pairs = []
    raw = re.findall(r"""(?:[^\s"']+|"(?:\\.|[^"\\])*"|'[^']*')+""", rest)
    for word in raw:
        name, sep, value = word.partition("=")
        if not sep or not name:
            raise ValueError("ENV %s: %r is not NAME=VALUE" % (rest, word))
        # quotes as the Dockerfile parser takes them; $ substituted outside single quotes
        out = []
        for m in re.finditer(r'"((?:\\.|[^"\\])*)"|\'([^\']*)\'|([^"\']+)', value):
            if m.group(1) is not None:
                out.append(_substitute(re.sub(r'\\(.)', r'\1', m.group(1)), env))
            elif m.group(2) is not None:
                out.append(m.group(2))
            else:
                out.append(_substitute(m.group(3), env))
        pairs.append((name, "".join(out)))
    return pairs


class Image:
    def __init__(self, root=IMAGE, env=None, entrypoint=None, cmd=("bash",), binds=()):
        self.root = os.path.abspath(root)
        self.env = dict(env) if env is not None else {"PATH": DEFAULT_PATH}
        self.entrypoint = list(entrypoint) if entrypoint else None
        self.cmd = list(cmd) if cmd else None
        self.binds = [_bind_pair(b) for b in binds]
        self.last_hostname = None   # the HOSTNAME of the last run (or RUN)
        self.log = b""              # the output of the last build()'s RUNs

    # -- images -----------------------------------------------------------------------
    def copy(self, folder):
        """A copy of this image (root and config) at `folder` (which must not exist)."""
        folder = os.path.abspath(str(folder))
        subprocess.run(["cp", "-a", "--", self.root, folder], check=True)
        for stamp in (STAMP,):
            try:
                os.remove(os.path.join(folder, stamp))
            except OSError:
                pass
        return Image(folder, self.env, self.entrypoint, self.cmd, self.binds)

    def derive(self):
        """A second config over this same root (for ENV / ENTRYPOINT / CMD only)."""
        return Image(self.root, self.env, self.entrypoint, self.cmd, self.binds)

    def bind(self, host, inside=None):
        """Mount host folder `host` read-only at `inside` (default: the same path)."""
        self.binds.append(_bind_pair((host, inside or host)))
        return self

    # -- docker build -----------------------------------------------------------------
    def build(self, lines, timeout=600):
        """Apply Dockerfile instructions (a list of lines); returns self. RUN output is
        kept in self.log (bytes, the last build's)."""
        cmd_set = False
        self.log = b""
        for line in lines:
            keyword, _, rest = line.strip().partition(" ")
            keyword = keyword.upper()
            if keyword == "ENV":
                for name, value in _env_pairs(rest, self.env):
                    self.env[name] = value
            elif keyword == "RUN":
                status, out, err = self._enter(_exec_or_shell(rest), None, (), timeout,
                                               stderr_to_stdout=True)
                self.log += out
                if status:
                    raise BuildError(line, status, out)
            elif keyword == "ENTRYPOINT":
                self.entrypoint = _exec_or_shell(rest)
                if not cmd_set:
                    self.cmd = None
            elif keyword == "CMD":
                self.cmd = _exec_or_shell(rest)
                cmd_set = True
            else:
                raise ValueError("%s: not an instruction this harness applies" % keyword)
        return self

    # -- docker run -------------------------------------------------------------------
    def environment(self, hostname, env_extra=None):
        """The environment `docker run` gives, in Docker's order."""
        env = {"PATH": DEFAULT_PATH, "HOSTNAME": hostname}
        env.update(self.env)
        env.update(env_extra or {})
        env.setdefault("HOME", "/root")
        return env

    def run(self, argv=None, env_extra=None, binds=(), timeout=120):
        """(status, stdout, stderr) of `docker run [-e ...] IMAGE [argv]`."""
        command = (self.entrypoint or []) + (list(argv) if argv is not None else (self.cmd or []))
        if not command:
            raise ValueError("no command specified (no ENTRYPOINT, CMD or argv)")
        return self._enter(command, env_extra, binds, timeout)

    def _enter(self, command, env_extra, binds, timeout, stderr_to_stdout=False):
        hostname = self.last_hostname = secrets.token_hex(6)
        env = self.environment(hostname, env_extra)
        binds = self.binds + [_bind_pair(b) for b in binds]
        root = self.root
        made = []
        for _, inside in binds:
            target = root + inside
            missing = []
            while not os.path.lexists(target):
                missing.append(target)
                target = os.path.dirname(target)
            for folder in reversed(missing):
                os.mkdir(folder)
                made.append(folder)
        work = tempfile.mkdtemp(prefix="utf8env-container-")
        try:
            with open(os.path.join(work, "hostname"), "w") as f:
                f.write(hostname + "\n")
            with open(os.path.join(work, "hosts"), "w") as f:
                f.write("127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n"
                        "172.17.0.2\t%s\n" % hostname)
            q = shlex.quote
            script = ["set -e", "hostname %s" % q(hostname),
                      "mount -t proc -o nosuid,nodev,noexec proc %s" % q(root + "/proc"),
                      "mount -t tmpfs -o nosuid,mode=755,size=65536k tmpfs %s" % q(root + "/dev")]
            for device in DEVICES:
                if os.path.exists("/dev/" + device):
                    script.append(": > %s && mount --bind /dev/%s %s" % (
                        q(root + "/dev/" + device), device, q(root + "/dev/" + device)))
            script += ["ln -s /proc/self/fd %s" % q(root + "/dev/fd")]
            for number, name in enumerate(("stdin", "stdout", "stderr")):
                script.append("ln -s /proc/self/fd/%d %s" % (number, q(root + "/dev/" + name)))
            script += ["mkdir %s %s" % (q(root + "/dev/pts"), q(root + "/dev/shm")),
                       "mount -t devpts -o newinstance,nosuid,noexec,gid=5,mode=620,"
                       "ptmxmode=0666 devpts %s" % q(root + "/dev/pts"),
                       "ln -s pts/ptmx %s" % q(root + "/dev/ptmx"),
                       "mount -t tmpfs -o nosuid,nodev,noexec,size=65536k shm %s"
                       % q(root + "/dev/shm")]
            for name, source in (("resolv.conf", "/etc/resolv.conf"),
                                 ("hostname", os.path.join(work, "hostname")),
                                 ("hosts", os.path.join(work, "hosts"))):
                if os.path.exists(source):
                    target = root + "/etc/" + name
                    script.append("[ -e %s ] || : > %s; mount --bind %s %s" % (
                        q(target), q(target), q(os.path.realpath(source)), q(target)))
            for host, inside in binds:
                target = root + inside
                script.append("mount --bind %s %s && mount -o remount,bind,ro %s" % (
                    q(host), q(target), q(target)))
            script.append("exec %s -i %s %s %s %s" % (
                q(ENV), " ".join(q("%s=%s" % item) for item in env.items()),
                q(CHROOT), q(root),
                " ".join(q(a) for a in command)))
            done = subprocess.run(
                ["unshare", "--mount", "--propagation", "private", "--pid", "--fork",
                 "--kill-child", "--uts", "--ipc", "/bin/sh", "-c", "\n".join(script)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT if stderr_to_stdout else subprocess.PIPE,
                timeout=timeout, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
            return done.returncode, done.stdout, done.stderr or b""
        finally:
            shutil.rmtree(work, ignore_errors=True)
            for folder in reversed(made):
                try:
                    os.rmdir(folder)
                except OSError:
                    pass
