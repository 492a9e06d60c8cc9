"""Find the real CPython interpreters where users have them: one discovery for every
command that looks for Pythons (matrix's interpreters, readiness's default 3.15, the
ground-truth tests').

The places, in this order: pyenv's versions, every python3.N (and python3) on PATH (not
pyenv's shims, which are pyenv's place again), uv's managed Pythons, the distribution's
/usr/bin/python3.N, then the chroot UTF8ENV_DEBIAN_ROOT names (the test suite's Debian
chroot with python3.14 and python3.15), searched only where named. A file reached twice
(links, or two places) is one interpreter (its device and inode). Each is asked its
version (utf8env._interpreter.identify, the one question), never guessed from its name;
one that does not answer is kept with why, for the report to say. The first found of
each version runs; the chroot's, whose version is its path's (asking needs chroot, which
needs root), only for a version found nowhere else. `--python PATH` names any other
interpreter. Each interpreter carries where it came from (PYENV, PATH, UV, DISTRIBUTION,
"chroot ROOT", NAMED).
"""
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

from ._environment import user_environ
from ._errors import InterpreterError, UsageError
from ._interpreter import identify
from ._engine.profiles import VERSIONS
from ._engine.records import Record, field

__all__ = ["VERSIONS", "Interpreter", "Unusable", "NAMED", "debian_root", "pyenv_root",
           "interpreters", "every", "unusable", "looked", "nothing_found", "found_as",
           "missing",
           "python27", "roots", "named"]

NAMED = "--python"
DISTRIBUTION = "/usr/bin"
# The places' words, as the reports say where an interpreter came from.
PYENV, PATH, UV = "pyenv", "PATH", "uv"
_PATH_NAME = re.compile(r"python3(?:\.\d+)?\Z")
_VERSIONED = re.compile(r"python3\.(\d+)\Z")


class Interpreter(Record):
    version = field()   # "3.6"
    argv = field()      # command prefix, e.g. [".../bin/python3.6"] or ["/usr/sbin/chroot", ROOT, "/usr/bin/python3.14"]
    root = field()      # "/" or the chroot path
    # Where it was found: "pyenv", "PATH", "uv", "/usr/bin", "chroot ROOT", "--python".
    origin = field(NAMED)


class Unusable(Record):
    """A file found that runs nowhere: it did not answer the version question, or it is a
    version no command runs."""
    path = field()
    origin = field()
    why = field()


def debian_root(environ=None):
    """The chroot UTF8ENV_DEBIAN_ROOT names, or "" (none: no chroot is searched)."""
    return (user_environ() if environ is None else environ).get("UTF8ENV_DEBIAN_ROOT", "")


def _debian_ready(root):
    return bool(root) and os.path.isfile(os.path.join(root, ".utf8env-ready"))


def pyenv_root(environ=None):
    """PYENV_ROOT, else what `pyenv root` says where pyenv is on PATH, else ~/.pyenv (None
    without a HOME)."""
    environ = user_environ() if environ is None else environ
    return _pyenv_root(environ.get("PYENV_ROOT", ""), environ.get("PATH", os.defpath),
                       environ.get("HOME", ""))


@lru_cache(maxsize=None)
def _pyenv_root(named, path, home):
    if named:
        return named
    pyenv = shutil.which("pyenv", path=path)
    if pyenv:
        try:
            out = subprocess.run([pyenv, "root"], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, timeout=30,
                                 env={"PATH": path, "HOME": home}).stdout
            if out.strip():
                return os.fsdecode(out.strip())
        except (OSError, subprocess.SubprocessError):
            pass
    return os.path.join(home, ".pyenv") if home else None


pyenv_root.cache_clear = _pyenv_root.cache_clear


def _uv_folder(environ):
    """Where uv installs its Pythons: UV_PYTHON_INSTALL_DIR, else $XDG_DATA_HOME/uv/python,
    else ~/.local/share/uv/python (None without a HOME)."""
    if environ.get("UV_PYTHON_INSTALL_DIR"):
        return environ["UV_PYTHON_INSTALL_DIR"]
    data = environ.get("XDG_DATA_HOME") or (
        os.path.join(environ["HOME"], ".local", "share") if environ.get("HOME") else None)
    return os.path.join(data, "uv", "python") if data else None


def _listdir(folder):
    try:
        return os.listdir(folder)
    except OSError:
        return []


def _executable(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _newest_first(found):
    """The paths of [(version numbers, path)], newest first."""
    return [path for _, path in sorted(found, key=lambda f: f[0], reverse=True)]


# pyenv's X.Y.Z (plain releases only: no -dev, no 't' builds); uv's cpython-X.Y.Z-PLATFORM.
_PYENV_FOLDER = re.compile(r"(\d+)\.(\d+)\.(\d+)\Z")
_UV_FOLDER = re.compile(r"cpython-(\d+)\.(\d+)\.(\d+)[^-]*-")


def _installs(base, folder_name):
    """FOLDER/bin/pythonX.Y of each folder of `base` whose name `folder_name` matches (X,
    Y, Z), newest first."""
    found = []
    for name in _listdir(base):
        m = folder_name.match(name)
        exe = os.path.join(base, name, "bin", "python%s.%s" % m.group(1, 2)) if m else None
        if exe and _executable(exe):
            found.append((tuple(int(n) for n in m.groups()), exe))
    return _newest_first(found)


def _pyenv_shims(folder):
    """Whether `folder` is a pyenv's shims (ROOT/shims beside ROOT/versions): each shim
    asks pyenv again, whose versions are a place of their own."""
    real = os.path.realpath(folder)
    return (os.path.basename(real) == "shims"
            and os.path.isdir(os.path.join(os.path.dirname(real), "versions")))


def _path_files(environ):
    """python3.N and python3 on PATH, each name where the shell finds it; not pyenv's
    shims."""
    found, names = [], set()
    for folder in environ.get("PATH", os.defpath).split(os.pathsep):
        if not folder or _pyenv_shims(folder):
            continue
        # python3.N before python3, which is mostly a link to one of them.
        for name in sorted(_listdir(folder), key=lambda n: (n == "python3", n)):
            # Absolute: the cells run in folders of their own.
            path = os.path.abspath(os.path.join(folder, name))
            if _PATH_NAME.match(name) and name not in names and _executable(path):
                names.add(name)
                found.append(path)
    return found


def _distribution_files():
    found = []
    for name in _listdir(DISTRIBUTION):
        m = _VERSIONED.match(name)
        path = os.path.join(DISTRIBUTION, name)
        if m and _executable(path):
            found.append(((int(m.group(1)),), path))
    return _newest_first(found)


def uv_pythons(environ):
    """uv's managed Pythons (FOLDER/bin/pythonX.Y), newest first: doctor lists them too."""
    uv = _uv_folder(environ)
    return _installs(uv, _UV_FOLDER) if uv else []


def _places(environ):
    """[(origin, what was looked in, [paths])] in the places' order."""
    out = []
    root = pyenv_root(environ)
    if root:
        versions = os.path.join(root, "versions")
        out.append((PYENV, "pyenv (%s)" % versions, _installs(versions, _PYENV_FOLDER)))
    out.append((PATH, "python3.N on PATH", _path_files(environ)))
    uv = _uv_folder(environ)
    if uv:
        out.append((UV, "uv (%s)" % uv, _installs(uv, _UV_FOLDER)))
    out.append((DISTRIBUTION, os.path.join(DISTRIBUTION, "python3.N"), _distribution_files()))
    return out


# (path, (device, inode), mtime, size) -> _ask()'s answer: a file is asked once.
_ANSWERS = {}


def _ask(path, environ):
    """(version, None) or (None, why it did not answer)."""
    try:
        return identify(path, environ).version, None
    except InterpreterError as error:
        # What the file did, without identify()'s hint (--version is not for here).
        cause = error.__context__
        if isinstance(cause, InterpreterError):
            return None, "did not start (%s)" % cause
        if isinstance(cause, OSError):
            return None, "did not start (%s)" % (cause.strerror or cause)
        return None, str(error).replace("interpreter %r: " % path, "")


def _in_chroot(version, root):
    return _debian_ready(root) and os.access(os.path.join(root, "usr/bin/python" + version),
                                             os.X_OK)


def _debian(version, root):
    # Only root can start it: chroot(2) fails for anyone else.
    if _in_chroot(version, root) and os.geteuid() == 0:
        # Absolute chroot path: jobs run with exactly their env, often without PATH.
        chroot = shutil.which("chroot") or "/usr/sbin/chroot"
        return Interpreter(version, [chroot, root, "/usr/bin/python" + version], root,
                           "chroot " + root)
    return None


def _scan(root=None, environ=None):
    environ = user_environ() if environ is None else environ
    if root is None:
        root = debian_root(environ)
    # The user too: what is found in a chroot depends on it (the tests pretend not to be root).
    # The environment whole: it decides the places, and how each interpreter answers;
    # the places' folders as they are now: a scan is asked again once one changes.
    return _scan_in(root, os.geteuid(), tuple(sorted(environ.items())), _folders_now(environ))


def _folders_now(environ):
    """(folder, its modification time) of every place's folder: an interpreter added or
    removed changes its folder's."""
    root = pyenv_root(environ)
    folders = environ.get("PATH", os.defpath).split(os.pathsep) + [
        os.path.join(root, "versions") if root else "", _uv_folder(environ) or "", DISTRIBUTION]
    out = []
    for folder in folders:
        try:
            out.append((folder, os.stat(folder).st_mtime_ns))
        except (OSError, ValueError):
            out.append((folder, None))
    return tuple(out)


class _Scan(Record):
    every = field()     # every Interpreter answering, in the places' order
    chosen = field()    # the first of each version 3.6..3.15, in version order
    python27 = field()
    unusable = field()  # [Unusable]
    looked = field()    # the places looked in, in words
    missing = field()   # [(version, why)]
    answered = field()  # [(path, origin, version, why)]: every path found, links too


@lru_cache(maxsize=32)      # a test suite's environments come and go
def _scan_in(root, euid, items, _folders):
    environ = dict(items)
    places = _places(environ)
    looked = [words for _, words, _ in places]
    files, first, reached = [], {}, []
    for origin, _, paths in places:
        for path in paths:
            try:
                st = os.stat(path)
            except OSError:
                continue
            key = (st.st_dev, st.st_ino)
            if key not in first:
                first[key] = len(files)
                files.append((path, origin, (path, key, st.st_mtime_ns, st.st_size)))
            reached.append((path, origin, first[key]))
    # Asked side by side, each file once per process (until it changes): each answer is a
    # process start, and a scan is made again whenever the environment changes (a test's
    # own HOME or TMPDIR).
    unknown = [f for f in files if f[2] not in _ANSWERS]
    with ThreadPoolExecutor(max_workers=max(1, min(8, len(unknown)))) as pool:
        for f, answer in zip(unknown, pool.map(lambda f: _ask(f[0], environ), unknown)):
            _ANSWERS[f[2]] = answer
    answers = [_ANSWERS[f[2]] for f in files]
    every, unusable, by = [], [], {}
    for (path, origin, _), (version, why) in zip(files, answers):
        if why is None and version not in VERSIONS and version != "2.7":
            why = "is Python %s: utf8env models CPython %s to %s" % (version, VERSIONS[0],
                                                                     VERSIONS[-1])
        if why is not None:
            unusable.append(Unusable(path, origin, why))
            continue
        interp = Interpreter(version, [path], "/", origin)
        every.append(interp)
        by.setdefault(version, interp)
    # Every path found, a second way to a file too, with that file's answer.
    answered = tuple((path, origin) + answers[at] for path, origin, at in reached)
    if _debian_ready(root):
        looked.append("the chroot " + root)
    missing = []
    for v in VERSIONS:
        if v not in by:
            interp = _debian(v, root)
            if interp:
                every.append(interp)
                by[v] = interp
                continue
            # Said to users of an installed utf8env: what they can do.
            why = "not in " + ", ".join(looked)
            if _in_chroot(v, root):
                why += " (the chroot has it, but chroot needs root)"
            missing.append((v, why + "; give --python PATH to run another interpreter"))
    chosen = tuple(by[v] for v in VERSIONS if v in by)
    return _Scan(tuple(every), chosen, by.get("2.7"), tuple(unusable), tuple(looked),
                 tuple(missing), answered)


# One name for forgetting every scan (the tests change PYENV_ROOT and UTF8ENV_DEBIAN_ROOT).
def _forget():
    _scan_in.cache_clear()
    _ANSWERS.clear()


_scan.cache_clear = _forget


def interpreters(chroot=None, environ=None):
    """The interpreters 3.6..3.15 to run, the first found of each version, in version
    order; `chroot`: a chroot to search too (None: the one UTF8ENV_DEBIAN_ROOT names, if
    any); `environ`: whose PATH, HOME... (default: this process's)."""
    return list(_scan(chroot, environ).chosen)


def every(chroot=None, environ=None):
    """Every interpreter found that answered (2.7 and the versions a first one shadows
    too), in the places' order."""
    return list(_scan(chroot, environ).every)


def unusable(chroot=None, environ=None):
    """[Unusable]: the files found that run nowhere, each with why."""
    return list(_scan(chroot, environ).unusable)


def looked(chroot=None, environ=None):
    """The places looked in, in words and in order."""
    return list(_scan(chroot, environ).looked)


def nothing_found(command, chroot=None, environ=None):
    """The one line when no interpreter is found: every place looked in, and --python."""
    return "%s: no interpreter found (looked in %s); give --python PATH" % (
        command, ", ".join(looked(chroot, environ)))


def found_as(name, chroot=None, environ=None):
    """[(path, origin, version, why)] of every path found named `name` (python3.15), a
    second way to a file found first elsewhere too: version None where it did not
    answer, with why."""
    return [a for a in _scan(chroot, environ).answered if os.path.basename(a[0]) == name]


def missing(chroot=None, environ=None):
    """(version, reason) for each of 3.6..3.15 not found."""
    return list(_scan(chroot, environ).missing)


def python27(environ=None):
    return _scan(None, environ).python27


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
