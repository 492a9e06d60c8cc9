"""Find the real CPython interpreters the matrix runs (and the ground-truth tests check).

2.7 and 3.6-3.15 come from pyenv. A chroot holding interpreters of its own (the test
suite's Debian chroot with python3.14 and python3.15) is searched only where
UTF8ENV_DEBIAN_ROOT names it: pyenv is tried first for every version. `--python PATH`
names any other interpreter; it is identified by utf8env._interpreter.identify, the one
question.
"""
import os
import re
import shutil
import subprocess
from functools import lru_cache

from .._errors import UsageError
from .._interpreter import identify
from .._engine.profiles import VERSIONS
from .._engine.records import Record, field

__all__ = ["VERSIONS", "Interpreter", "debian_root", "pyenv_root",
           "interpreters", "missing", "python27", "roots", "named"]


class Interpreter(Record):
    version = field()   # "3.6"
    argv = field()      # command prefix, e.g. [".../bin/python3.6"] or ["/usr/sbin/chroot", ROOT, "/usr/bin/python3.14"]
    root = field()      # "/" or the chroot path


def debian_root():
    """The chroot UTF8ENV_DEBIAN_ROOT names, or "" (none: nothing is searched but pyenv)."""
    return os.environ.get("UTF8ENV_DEBIAN_ROOT", "")


def _debian_ready(root):
    return bool(root) and os.path.isfile(os.path.join(root, ".utf8env-ready"))


@lru_cache(maxsize=None)
def pyenv_root():
    if os.environ.get("PYENV_ROOT"):
        return os.environ["PYENV_ROOT"]
    try:
        out = subprocess.run(["pyenv", "root"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, timeout=10, check=True).stdout
        if out.strip():
            return out.decode().strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return os.path.expanduser("~/.pyenv")


def _pyenv(version):
    """The newest pyenv X.Y.Z for X.Y (plain releases only: no -dev, no 't' builds)."""
    base = os.path.join(pyenv_root(), "versions")
    try:
        names = os.listdir(base)
    except OSError:
        return None
    found = []
    for name in names:
        m = re.fullmatch(re.escape(version) + r"\.(\d+)", name)
        exe = os.path.join(base, name, "bin", "python" + version)
        if m and os.access(exe, os.X_OK):
            found.append((int(m.group(1)), exe))
    if not found:
        return None
    return Interpreter(version, [max(found)[1]], "/")


def _in_chroot(version, root):
    return _debian_ready(root) and os.access(os.path.join(root, "usr/bin/python" + version),
                                             os.X_OK)


def _debian(version, root):
    # Only root can start it: chroot(2) fails for anyone else.
    if _in_chroot(version, root) and os.geteuid() == 0:
        # Absolute chroot path: jobs run with exactly their env, often without PATH.
        chroot = shutil.which("chroot") or "/usr/sbin/chroot"
        return Interpreter(version, [chroot, root, "/usr/bin/python" + version], root)
    return None


def _scan(root=None):
    # The user too: what is found in a chroot depends on it (the tests pretend not to be root).
    return _scan_in(debian_root() if root is None else root, os.geteuid())


@lru_cache(maxsize=None)
def _scan_in(root, euid):
    found, missing = [], []
    for v in VERSIONS:
        interp = _pyenv(v) or _debian(v, root)
        if interp:
            found.append(interp)
        else:
            # Said to users of an installed utf8env: what they can do.
            why = "not in pyenv ({}/versions)".format(pyenv_root())
            if _in_chroot(v, root):
                why += " nor usable in the chroot {} (chroot needs root)".format(root)
            elif _debian_ready(root):
                why += " nor in the chroot {}".format(root)
            missing.append((v, why + "; give --python PATH to run another interpreter"))
    return tuple(found), tuple(missing)


# One name for forgetting every scan (the tests change PYENV_ROOT and UTF8ENV_DEBIAN_ROOT).
_scan.cache_clear = _scan_in.cache_clear


def interpreters(chroot=None):
    """The available interpreters 3.6..3.15, in version order; `chroot`: a chroot to
    search too (None: the one UTF8ENV_DEBIAN_ROOT names, if any)."""
    return list(_scan(chroot)[0])


def missing(chroot=None):
    """(version, reason) for each of 3.6..3.15 not found."""
    return list(_scan(chroot)[1])


def python27():
    return _pyenv("2.7")


def roots(chroot=None):
    """The distinct roots of the available interpreters ("/" first)."""
    return sorted({i.root for i in interpreters(chroot)}, key=lambda r: (r != "/", r))


def named(paths):
    """The Interpreter of each `--python PATH` (a path, or a name on PATH), identified by
    running it once; UsageError for what is not an executable file."""
    found = []
    for path in paths:
        if os.sep not in path:
            path = shutil.which(path) or path
        if not os.access(path, os.X_OK) or os.path.isdir(path):
            raise UsageError("--python %r: not an executable file" % path)
        found.append(Interpreter(identify(path).version, [os.path.abspath(path)], "/"))
    return found
