"""Find out which Python an interpreter command is, by running it once: the one
identification of utf8env (explain, run, env and the matrix all use it).

The prediction never runs the target; only this question does, and only for a command
the caller knows to be an interpreter. On the launcher's path this module imports
nothing but the built-in posix module (environment.system): os and subprocess load only
when an interpreter is really asked, once per interpreter thanks to the cache.
"""
from .environment import fsdecode, fsencode, system
from .errors import InterpreterError
from .profiles import VERSIONS, platform_name
from .records import Record, field

# -E -S: the answer must not depend on the user's PYTHON* variables or site packages.
# Python 2 syntax too: the matrix runs 2.7, and explain refuses it with a clear message.
_QUESTION = ("import sys; sys.stdout.write('%d.%d %s' % (sys.version_info[0], "
             "sys.version_info[1], sys.platform))")
_DEFAULT_PATH = "/bin:/usr/bin"     # os.defpath


class Identity(Record):
    version = field()           # "3.9", "2.7"
    platform = field()          # a policy platform name ("linux")


def identify(python, environ=None):
    """The version and platform of the interpreter command `python` (a name or path):
    any CPython that answers, 2.7 included. `environ` gives PATH and LOCPATH (default:
    this process's)."""
    import subprocess
    try:
        output = subprocess.check_output([python, "-E", "-S", "-c", _QUESTION],
                                         stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                         env=_minimal_environment(environ), timeout=30)
    except FileNotFoundError:
        raise InterpreterError("interpreter %r: not found (give a path, a name on PATH, "
                               "or --version X.Y to predict without running it)" % python)
    except PermissionError:
        raise InterpreterError("interpreter %r: not executable" % python)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
        raise InterpreterError("interpreter %r: could not be run (%s); give --version X.Y "
                               "to predict without running it" % (python, _short(error)))
    version, _, platform = output.decode("ascii", "replace").partition(" ")
    if not _is_version(version):
        raise InterpreterError("interpreter %r: not a Python (it answered %r)" % (python, version))
    return Identity(version, platform_name(platform))


def identify_modelled(python, environ=None):
    """identify(), refusing a Python that utf8env has no policy for (2.7, 3.5, 3.16...)."""
    return _modelled(python, identify(python, environ))


def _modelled(python, identity):
    if identity.version not in VERSIONS:
        raise InterpreterError("interpreter %r is Python %s: utf8env models CPython %s to %s"
                               % (python, identity.version, VERSIONS[0], VERSIONS[-1]))
    return identity


def _is_version(text):
    major, dot, minor = text.partition(".")
    return bool(dot) and major.isdigit() and minor.isdigit()


def _minimal_environment(environ):
    # A C-locale child could fail on a strange locale; the identity does not depend on it.
    if environ is None:
        import os
        environ = os.environ
    env = {"PATH": environ.get("PATH", _DEFAULT_PATH)}
    if "LOCPATH" in environ:
        env["LOCPATH"] = environ["LOCPATH"]
    return env


def _short(error):
    import subprocess
    if isinstance(error, subprocess.CalledProcessError):
        lines = (error.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        return "exit status %d%s" % (error.returncode, ": " + lines[-1] if lines else "")
    return str(error)


def identify_cached(path, environ):
    """identify_modelled(), remembered per file (device, inode, mtime and size), so that a
    launcher pays the interpreter's start-up once per interpreter rather than once per
    launch. The file is named by what stat() follows to, so every symlink and spelling
    of one interpreter shares an entry without resolving paths."""
    try:
        stat = system.stat(path)
    except (OSError, ValueError):
        return identify_modelled(path, environ)
    key = "%d:%d" % (stat.st_dev, stat.st_ino)
    stamp = (str(stat.st_mtime_ns), str(stat.st_size))
    store = _cache_file(environ)
    cache = _read_cache(store) if store else {}
    entry = cache.get(key)
    if entry and entry[:2] == stamp and entry[2] in VERSIONS:
        return Identity(*entry[2:])
    identity = identify_modelled(path, environ)
    if store:
        cache[key] = stamp + tuple(identity)
        _write_cache(store, cache)
    return identity


# The cache is "key NUL mtime NUL size NUL version NUL platform NUL" per interpreter:
# read without importing json or os (each costs the launcher more than the rest of its work).
_ENTRY_FIELDS = 5


def _cache_file(environ):
    """$XDG_CACHE_HOME/utf8env/interpreters, else ~/.cache/...; None (no cache) without an
    absolute folder to put it in: a relative or empty HOME would put it wherever we are."""
    base = environ.get("XDG_CACHE_HOME") or ""
    if not base.startswith("/"):
        home = environ.get("HOME") or ""
        if not home.startswith("/"):
            return None
        base = home.rstrip("/") + "/.cache"
    return base + "/utf8env/interpreters"


def _read_cache(store):
    try:
        with open(store, "rb") as f:
            fields = [fsdecode(item) for item in f.read().split(b"\0")[:-1]]
    except OSError:
        return {}
    if len(fields) % _ENTRY_FIELDS:
        return {}       # not ours, or cut short: start again
    return {fields[i]: tuple(fields[i + 1:i + _ENTRY_FIELDS])
            for i in range(0, len(fields), _ENTRY_FIELDS)}


def _write_cache(store, cache):
    """Best effort and atomic: a cache that cannot be written only costs time."""
    import os
    data = b"".join(fsencode(item) + b"\0"
                    for key, entry in cache.items() for item in (key,) + tuple(entry))
    try:
        os.makedirs(os.path.dirname(store), exist_ok=True)
        temporary = "%s.%d" % (store, os.getpid())
        with open(temporary, "wb") as f:
            f.write(data)
        os.replace(temporary, store)
    except OSError:
        pass
