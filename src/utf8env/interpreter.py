"""Find out which CPython an interpreter command is, by running it once.

The prediction never runs the target; only this question does, and only when the user
names an interpreter without --version.
"""
import os

from .errors import InterpreterError
from .profiles import VERSIONS, platform_name

# -E -S: the answer must not depend on the user's PYTHON* variables or site packages.
# Python 2 syntax too, so that a Python 2 gets a clear "not supported" rather than a crash.
_QUESTION = "import sys; sys.stdout.write('%d.%d %s' % (sys.version_info[0], sys.version_info[1], sys.platform))"


class Identity(tuple):
    """(version "3.9", platform "linux")."""
    @property
    def version(self):
        return self[0]

    @property
    def platform(self):
        return self[1]


def identify(python):
    """The version and platform of the interpreter command `python` (a name or path)."""
    import subprocess
    try:
        output = subprocess.check_output([python, "-E", "-S", "-c", _QUESTION],
                                          stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                          env=_minimal_environment(), timeout=30)
    except FileNotFoundError:
        raise InterpreterError("interpreter %r: not found (give a path, a name on PATH, "
                               "or --version X.Y to predict without running it)" % python)
    except PermissionError:
        raise InterpreterError("interpreter %r: not executable" % python)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
        raise InterpreterError("interpreter %r: could not be run (%s); give --version X.Y "
                               "to predict without running it" % (python, _short(error)))
    version, _, platform = output.decode("ascii", "replace").partition(" ")
    if version not in VERSIONS:
        raise InterpreterError("interpreter %r is Python %s: utf8env models CPython %s to %s"
                               % (python, version, VERSIONS[0], VERSIONS[-1]))
    return Identity((version, platform_name(platform)))


def _minimal_environment():
    # A C-locale child could fail on a strange locale; the identity does not depend on it.
    env = {"PATH": os.environ.get("PATH", os.defpath)}
    if "LOCPATH" in os.environ:
        env["LOCPATH"] = os.environ["LOCPATH"]
    return env


def _short(error):
    import subprocess
    if isinstance(error, subprocess.CalledProcessError):
        lines = (error.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        return "exit status %d%s" % (error.returncode, ": " + lines[-1] if lines else "")
    return str(error)


def identify_cached(path):
    """identify(), remembered by real path, mtime and size, so that a launcher pays the
    interpreter start-up once per interpreter rather than once per launch."""
    real = os.path.realpath(path)
    try:
        stat = os.stat(real)
    except OSError:
        return identify(path)
    stamp = (str(stat.st_mtime_ns), str(stat.st_size))
    store = _cache_file()
    cache = _read_cache(store)
    entry = cache.get(real)
    if entry and entry[:2] == stamp:
        return Identity(entry[2:])
    identity = identify(path)
    cache[real] = stamp + tuple(identity)
    _write_cache(store, cache)
    return identity


# The cache is "path NUL mtime NUL size NUL version NUL platform NUL" per interpreter:
# bytes-exact for any path, and read without importing json (whose import costs the
# launcher more than the rest of its work).
_ENTRY_FIELDS = 5


def _cache_file():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "utf8env", "interpreters")


def _read_cache(store):
    try:
        with open(store, "rb") as f:
            fields = [os.fsdecode(field) for field in f.read().split(b"\0")[:-1]]
    except OSError:
        return {}
    if len(fields) % _ENTRY_FIELDS:
        return {}       # not ours, or cut short: start again
    return {fields[i]: tuple(fields[i + 1:i + _ENTRY_FIELDS])
            for i in range(0, len(fields), _ENTRY_FIELDS)}


def _write_cache(store, cache):
    """Best effort and atomic: a cache that cannot be written only costs time."""
    data = b"".join(os.fsencode(field) + b"\0"
                    for path, entry in cache.items() for field in (path,) + tuple(entry))
    try:
        os.makedirs(os.path.dirname(store), exist_ok=True)
        temporary = "%s.%d" % (store, os.getpid())
        with open(temporary, "wb") as f:
            f.write(data)
        os.replace(temporary, store)
    except OSError:
        pass
