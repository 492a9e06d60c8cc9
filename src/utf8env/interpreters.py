"""Find the real CPython interpreters (used by the matrix and the ground-truth tests).

3.6-3.13 (and 2.7) come from pyenv; 3.14 and 3.15 from the Debian sid chroot built by
build_debian_pythons.sh (pyenv is tried first for every version, so a pyenv 3.14 wins).
"""
import os
import re
import shutil
import subprocess
from functools import lru_cache
from typing import List, Optional, Tuple

__all__ = ["VERSIONS", "Interpreter", "debian_root", "debian_ready", "pyenv_root",
           "interpreters", "missing", "python27", "roots"]

from .profiles import VERSIONS
from .records import Record, field


class Interpreter(Record):
    version = field()   # "3.6"
    argv = field()      # command prefix, e.g. [".../bin/python3.6"] or ["/usr/sbin/chroot", ROOT, "/usr/bin/python3.14"]
    root = field()      # "/" or the chroot path


def debian_root() -> str:
    return os.environ.get("UTF8ENV_DEBIAN_ROOT", "/var/cache/utf8env/debian-sid")


def debian_ready() -> bool:
    return os.path.isfile(os.path.join(debian_root(), ".utf8env-ready"))


@lru_cache(maxsize=None)
def pyenv_root() -> str:
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


def _pyenv(version: str) -> Optional[Interpreter]:
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


def _debian(version: str) -> Optional[Interpreter]:
    root = debian_root()
    if debian_ready() and os.access(os.path.join(root, "usr/bin/python" + version), os.X_OK):
        # Absolute chroot path: jobs run with exactly their env, often without PATH.
        chroot = shutil.which("chroot") or "/usr/sbin/chroot"
        return Interpreter(version, [chroot, root, "/usr/bin/python" + version], root)
    return None


@lru_cache(maxsize=None)
def _scan() -> Tuple[Tuple[Interpreter, ...], Tuple[Tuple[str, str], ...]]:
    found, missing = [], []
    for v in VERSIONS:
        interp = _pyenv(v) or _debian(v)
        if interp:
            found.append(interp)
        else:
            why = "not in pyenv ({}/versions)".format(pyenv_root())
            if not debian_ready():
                why += " and Debian chroot {} not built (tests/support/build_debian_pythons.sh)".format(debian_root())
            else:
                why += " nor in the Debian chroot {}".format(debian_root())
            missing.append((v, why))
    return tuple(found), tuple(missing)


def interpreters() -> List[Interpreter]:
    """The available interpreters 3.6..3.15, in version order."""
    return list(_scan()[0])


def missing() -> List[Tuple[str, str]]:
    """(version, reason) for each of 3.6..3.15 not found."""
    return list(_scan()[1])


def python27() -> Optional[Interpreter]:
    return _pyenv("2.7")


def roots() -> List[str]:
    """The distinct roots of the available interpreters ("/" first)."""
    return sorted({i.root for i in interpreters()}, key=lambda r: (r != "/", r))
