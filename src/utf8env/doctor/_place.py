"""Gather the facts of the place doctor runs in: the only impure part of doctor.

Everything is read defensively, because doctor runs inside the broken place it
diagnoses: a file that is missing, unreadable, a directory, a FIFO or not text is simply
absent from the facts (never an exception); no /proc means no process facts and the
environment as os.environ holds it (utf8env._environment.inherited); undecodable bytes stay
surrogate escapes. Nothing that is not an interpreter is ever run (pythons.py).
"""
import os
import sys

from .._engine.records import Record, field
from . import _locale_state as locale_state, _pythons as python_search, _sshd as sshd
from ._embedding import read_embedding
from .. import _locales as locales
from .._engine.policy import LocaleFacts
from .._engine.preconfig import SHIPPED_TARGETS
from .._engine.profiles import platform_name
from .._environment import inherited

# The files whose contents say where this is and what the system would give a locale.
_FILES = (
    "/etc/os-release",          # os-release(5): the distribution, for install commands
    "/etc/default/locale",      # Debian/Ubuntu: pam_env reads it for ssh and cron sessions
    "/etc/locale.conf",         # locale.conf(5): systemd and RHEL/Fedora/Arch
    "/etc/locale.gen",          # Debian: the locales locale-gen compiles
    "/proc/self/cgroup",        # cgroups(7): a systemd unit, a container runtime
    "/proc/1/cgroup",
    "/proc/1/comm",             # PID 1: systemd, init, or a container's own program
    "/proc/self/status",        # proc(5) SigIgn: SIGHUP ignored, as nohup leaves it
    "/etc/pam.d/su",            # Debian: pam_env reads /etc/default/locale for su
)
# The shell start-up files that may set a locale variable, for saying where one came
# from: the user's (under $HOME, shown as ~/...) and the system's.
RC_FILES = ("~/.bashrc", "~/.profile", "~/.bash_profile", "~/.bash_login", "~/.zshenv",
            "~/.zshrc", "~/.config/fish/config.fish", "/etc/environment", "/etc/profile",
            "/etc/bash.bashrc", "/etc/zsh/zshenv")
_MARKERS = ("/.dockerenv",          # written by Docker into every container's root
            "/run/.containerenv")   # written by Podman (containers-common)
_SSHD_CONFIG = "/etc/ssh/sshd_config"
_MAX_BYTES = 1 << 20                # an /etc file bigger than this is not a config file
_MAX_ANCESTORS = 64                 # a loop in a forged /proc cannot keep us walking


class Process(Record):
    pid = field()
    name = field()              # /proc/PID/comm: what ps shows ("cron", "sshd")
    argv = field()              # /proc/PID/cmdline split at NUL (sshd rewrites it: its title)
    exe = field(None)           # /proc/PID/exe: the program's path, or None (not readable)


class Place(Record):
    environ = field()           # {name: value} as this process got it
    files = field()             # {path: text} of the _FILES (and sshd configs) that could be read
    markers = field()           # the _MARKERS that exist
    ancestors = field()         # Processes from the parent upwards; () without /proc
    ttys = field()              # (stdin, stdout, stderr) is a terminal
    proc = field()              # /proc could be read
    sshd_configs = field()      # ((path, text), ...): the sshd_config in effect and its Includes
    facts = field()             # LocaleFacts of the real libc for the names in play
    pythons = field()           # pythons.Found, in discovery order
    embedding = field(None)     # _embedding.Embedding: what a uWSGI or Apache ancestor embeds
    apache_envvars = field(None)    # (path, text) of the envvars an Apache ancestor's
                                    # apache2ctl read (Debian), or None
    libc = field(None)          # (name, evidence): ("musl", "/lib/ld-musl-x86_64.so.1 ..."),
                                # ("glibc", ...), or None: not known
    parent_locale = field(None)     # {name: value} of the locale variables the parent was
                                    # started with (/proc/PPID/environ), or None: not readable


def gather(environ=None, root="/", pythons=True):
    """The Place this process is in. `environ`: the environment to diagnose (default:
    the one this process was started with); `root`: where /etc and /proc are (tests);
    `pythons`: look for interpreters (False: skip the search)."""
    if environ is None:
        environ = inherited()
    reader = Reader(root)
    files = {}
    for path in _FILES:
        text = reader.text(path)
        if text is not None:
            files[path] = text
    home = environ.get("HOME", "")
    for path in RC_FILES:
        real = home + path[1:] if path.startswith("~/") else path
        if real.startswith("/"):
            text = reader.text(real)
            if text is not None:
                files[path] = text
    ancestors = reader.ancestors()
    configs = sshd.read_configs(sshd.config_path(ancestors) or _SSHD_CONFIG, reader)
    parent_locale = _parent_locale(ancestors, reader)
    # The names of the parent's start and the coercion targets too: a parent Python's
    # coercion is recognised and undone (_coercion.py).
    names = locale_state.names_to_ask(environ)
    names += [n for n in locale_state.names_to_ask(parent_locale or {}) +
              [t for t, _, _ in SHIPPED_TARGETS] if n not in names]
    facts = _probe(environ, names)
    found = python_search.find(environ, reader) if pythons else ()
    return Place(environ=environ, files=files,
                 markers=tuple(m for m in _MARKERS if reader.exists(m)),
                 ancestors=ancestors, ttys=_ttys(), proc=reader.exists("/proc/self/stat"),
                 sshd_configs=configs, facts=facts, pythons=tuple(found),
                 embedding=read_embedding(ancestors, reader),
                 apache_envvars=_apache_envvars(ancestors, environ, reader),
                 libc=libc(reader, root == "/"), parent_locale=parent_locale)


def _parent_locale(ancestors, reader):
    """The locale variables the parent was started with: /proc/PID/environ is the
    environment a process was given at exec (proc(5)), not what it set since, as a
    Python's coercion does (its setenv() makes a new copy)."""
    if not ancestors:
        return None
    data = reader.bytes("/proc/%d/environ" % ancestors[0].pid)
    if data is None:
        return None
    out = {}
    for entry in data.split(b"\0"):
        name, equals, value = entry.partition(b"=")
        if equals and name in (b"LC_ALL", b"LC_CTYPE", b"LANG"):
            out[name.decode("ascii")] = value.decode("utf-8", "surrogateescape")
    return out


def _apache_envvars(ancestors, environ, reader):
    """(path, text) of Debian's envvars where an apache2 ancestor was started by
    apache2ctl: the variables that file exports (APACHE_RUN_DIR, ...) are here, and the
    file is $APACHE_CONFDIR/envvars, apache2ctl passing `-d $APACHE_CONFDIR` to apache2
    where it is not /etc/apache2."""
    apache = [p for p in ancestors if p.name == "apache2"]
    if not apache or not any(environ.get(n) for n in ("APACHE_RUN_DIR", "APACHE_RUN_USER",
                                                      "APACHE_LOG_DIR")):
        return None
    folder = "/etc/apache2"
    for process in apache:
        argv = list(process.argv)
        if "-d" in argv[:-1]:
            folder = argv[argv.index("-d") + 1].rstrip("/") or "/"
    path = folder + "/envvars"
    text = reader.text(path)
    return (path, text) if text is not None else None


# The dynamic loaders (PT_INTERP) each C library installs: glibc's per architecture
# (ld.so(8)), musl's /lib/ld-musl-ARCH.so.1 (musl's INSTALL). Debian with musl-tools has
# both: its programs are glibc's. Alpine with gcompat has a glibc-named loader that is
# musl's: the interpreter running doctor says which it is linked with first.
_GLIBC_LOADERS = ("/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1",
                  "/lib/ld-linux-armhf.so.3", "/lib/ld-linux.so.2", "/lib64/ld64.so.2",
                  "/lib/ld64.so.1", "/lib64/ld-linux-riscv64-lp64d.so.1")


def libc(reader, own=True):
    """("glibc" or "musl", the evidence) of this system's C library, or None. `own`: the
    interpreter running doctor is this system's (platform.libc_ver() reads its binary)."""
    if own:
        import platform
        try:
            name, version = platform.libc_ver(sys.executable)
        except (OSError, ValueError):
            name, version = "", ""
        if name == "glibc":
            return "glibc", "platform.libc_ver(): glibc %s" % version
    musl = [name for name in reader.listdir("/lib") if name.startswith("ld-musl-")]
    glibc = [path for path in _GLIBC_LOADERS if reader.exists(path)]
    if musl and not (glibc and own is False):
        return "musl", "the dynamic loader /lib/%s%s" % (
            musl[0], " (the interpreter running doctor is not linked with glibc)" if own else "")
    if glibc:
        return "glibc", "the dynamic loader %s" % glibc[0]
    return None


def _probe(environ, names):
    """The libc's answer for `names`, asked in a child (utf8env._locales.facts). Only
    LOCPATH of the environment matters: the question names each locale explicitly. So the
    child gets this process's own environment with the diagnosed LOCPATH: the fork then
    changes one variable at most, where turning 100k variables into one would unsetenv()
    them one by one (each a scan of the whole environment: measured, half a minute)."""
    target = dict(os.environ)      # this process's own, on purpose (see above)
    target.pop("LOCPATH", None)
    if "LOCPATH" in environ:
        target["LOCPATH"] = environ["LOCPATH"]
    try:
        return locales.facts(target, names)
    except (OSError, ValueError):
        return LocaleFacts({})


def _ttys():
    out = []
    for fd in (0, 1, 2):
        try:
            out.append(os.isatty(fd))
        except (OSError, ValueError):
            out.append(False)
    return tuple(out)


class Reader(object):
    """Reads files under `root`, never raising: None (or False) for anything unreadable."""

    def __init__(self, root="/"):
        self.root = root.rstrip("/")

    def path(self, path):
        return self.root + path

    def text(self, path):
        data = self.bytes(path)
        if data is None:
            return None
        return data.decode("utf-8", "surrogateescape")

    def bytes(self, path):
        full = self.path(path)
        try:
            import stat
            if not stat.S_ISREG(os.stat(full).st_mode):
                return None     # a FIFO would block, a directory cannot be read
            with open(full, "rb") as f:
                return f.read(_MAX_BYTES)
        except (OSError, ValueError, OverflowError):
            return None

    def exists(self, path):
        try:
            os.stat(self.path(path))
            return True
        except (OSError, ValueError):
            return False

    def readlink(self, path):
        try:
            # bytes in, bytes out: decoded as every other /proc text here, whatever
            # the file system encoding of the interpreter running doctor
            link = os.readlink(self.path(path).encode("utf-8", "surrogateescape"))
            return link.decode("utf-8", "surrogateescape")
        except (OSError, ValueError):
            return None

    def listdir(self, path):
        try:
            return sorted(os.listdir(self.path(path)))
        except (OSError, ValueError):
            return []

    def ancestors(self):
        """The parent, its parent, ... as /proc shows them (proc(5): the 4th field of
        /proc/PID/stat is the parent's pid; the name, in parentheses, may hold spaces)."""
        out = []
        try:
            pid = os.getppid()
        except OSError:
            return ()
        seen = set()
        while pid > 0 and pid not in seen and len(out) < _MAX_ANCESTORS:
            seen.add(pid)
            stat = self.bytes("/proc/%d/stat" % pid)
            if not stat:
                break
            head, _, tail = stat.rpartition(b")")
            name = head.partition(b"(")[2].decode("utf-8", "surrogateescape")
            argv = (self.bytes("/proc/%d/cmdline" % pid) or b"").split(b"\0")
            out.append(Process(pid, name, tuple(a.decode("utf-8", "surrogateescape")
                                                for a in argv if a),
                               self.readlink("/proc/%d/exe" % pid)))
            try:
                pid = int(tail.split()[1])
            except (IndexError, ValueError):
                break
        return tuple(out)


def this_platform():
    return platform_name(sys.platform)
