"""Every Python doctor can find here, identified without running anything that is not
an interpreter, and what the engine predicts for each in this environment.

Found where a user's command would find one: each folder of PATH (in order: the first
`python3` there is the one a shell runs), the venv in effect (VIRTUAL_ENV), pyenv's
versions, uv's managed Pythons (utf8env._discovery's place: where uv installs them),
/usr/local/bin and /usr/bin. PATH and pyenv are read here, not through _discovery:
doctor runs nothing but interpreters (a pyenv shim is resolved by reading pyenv's files;
_discovery asks `pyenv root`, a script), and it reports which commands PATH gives. One
entry per file (device and inode: python3, python3.11 and a symlink to them are one
interpreter).

Identification, cheapest truthful way first:
- a name or symlink target python2[.N] is Python 2 by its name: never run (utf8env models
  3.6-3.15 only);
- a script (`#!`) is never run: a pyenv shim (a bash script in PYENV_ROOT/shims) is
  resolved by reading what pyenv itself reads (PYENV_VERSION, .python-version from the
  working folder up, PYENV_ROOT/version; pyenv(1) "Choosing the Python Version") to the
  interpreter it would exec; any other script is reported, not identified;
- an executable named like a CPython (launch.looks_like_python) is asked once through
  interpreter.identify_cached (cached per file), the one identification of utf8env.
"""
import os
import stat
import sys

from .._engine.records import Record, field
from ._outcome import SAMPLE_NAME, Outcome, outcome  # noqa: F401 (what a Python does here)
from .. import _interpreter as interpreter
from .._discovery import uv_pythons
from .._engine.policy import Inputs, decide
from .._engine.profiles import VERSIONS
from .._errors import InterpreterError
from .._interpreter import identify_cached, python_command


_SYSTEM_DIRS = ("/usr/local/bin", "/usr/bin")
_HEAD = 256


class Found(Record):
    path = field()              # the first path it was found under
    sources = field()           # ("PATH", "pyenv", "uv", "/usr/bin", "venv")
    commands = field()          # the commands that run it from PATH: ("python3", "python")
    version = field()           # "3.11", "2.7", or None (not identified)
    how = field()               # how it was identified, in words
    error = field(None)         # why it was not, or why it is not modelled


def _python_name(name):
    # launch.looks_like_python's test on a name: python, python3, python3.11, python3.11m
    return name == "python" or (name.startswith("python")
                                and name[6:].replace(".", "").rstrip("mdu").isdigit())


def pyenv_root(environ):
    if environ.get("PYENV_ROOT"):
        return environ["PYENV_ROOT"].rstrip("/")
    for folder in environ.get("PATH", "").split(":"):
        if folder.rstrip("/").endswith("/shims") and os.path.isdir(folder.rstrip("/")[:-6] + "/versions"):
            return folder.rstrip("/")[:-6]
    home = environ.get("HOME") or ""
    return home.rstrip("/") + "/.pyenv" if home.startswith("/") else None


def find(environ, reader=None):
    """Found interpreters, in discovery order (see the module docstring)."""
    folders = []
    path_folders = [f for f in environ.get("PATH", "").split(":") if f.startswith("/")]
    folders += [(f, "PATH") for f in path_folders]
    if environ.get("VIRTUAL_ENV", "").startswith("/"):
        folders.append((environ["VIRTUAL_ENV"].rstrip("/") + "/bin", "venv"))
    root = pyenv_root(environ)
    if root:
        for version in _listdir(root + "/versions"):
            folders.append((root + "/versions/" + version + "/bin", "pyenv"))
    folders += [(os.path.dirname(path), "uv") for path in uv_pythons(environ)]
    folders += [(f, f) for f in _SYSTEM_DIRS]
    # The interpreter doctor itself runs on, wherever it is (a venv on no PATH, pipx).
    own = os.path.abspath(sys.executable) if sys.executable else ""
    if own.startswith("/"):
        folders.append((os.path.dirname(own), "utf8env's own"))
    by_file, order = {}, []
    commands = {}
    for folder, source in folders:
        for name in _listdir(folder):
            if not _python_name(name) or (source == "utf8env's own"
                                          and folder + "/" + name != own):
                continue
            path = folder.rstrip("/") + "/" + name
            how = None
            if root and folder.rstrip("/") == root + "/shims":
                # A shim is a way to start another file: it counts as that file's command.
                path, how = _shim(path, environ, root)
                if path is None:
                    continue        # pyenv would answer "command not found" for it
            key = _file_key(path)
            if key is None:
                continue
            if source == "PATH" and name in ("python", "python3") and name not in commands:
                commands[name] = key
            if key not in by_file:
                by_file[key] = [path, [source], how]
                order.append(key)
            else:
                known = by_file[key]
                if source not in known[1]:
                    known[1].append(source)
                if os.path.dirname(known[0]) == folder.rstrip("/") and len(path) > len(known[0]) \
                        and name[-1].isdigit():
                    known[0] = path     # python3.11 says more than python in the same folder
    answers = _identify_all([by_file[key][0] for key in order], environ)
    out = []
    for key, (version, how, error) in zip(order, answers):
        path, sources, shim = by_file[key]
        names = tuple(sorted((n for n, k in commands.items() if k == key), reverse=True))
        out.append(Found(path=path, sources=tuple(sources), commands=names, version=version,
                         how=how + ("; %s" % shim if shim else ""), error=error))
    return out


def _identify_all(paths, environ):
    """identify() of every path: the remembered answers first; the others asked at the
    same time (an interpreter that hangs costs one timeout, _interpreter.TIMEOUT, however
    many there are, never one each), then remembered in one write."""
    known = [_classify(path) for path in paths]
    answers = {}
    for path, answer in zip(paths, known):
        if answer is None:
            answers[path] = interpreter.cached(path, environ)
            silent = interpreter.silent_since(path, environ) if answers[path] is None else None
            if silent is not None:
                import time
                answers[path] = InterpreterError(
                    "interpreter %r: gave no answer within %g seconds at %s (not asked again "
                    "for %d minutes)" % (path, interpreter.TIMEOUT,
                                         time.strftime("%H:%M", time.localtime(silent)),
                                         interpreter.SILENCE_KEPT // 60))
    missing = sorted(set(path for path, identity in answers.items() if identity is None))
    if missing:
        import threading

        def ask(path):
            try:
                answers[path] = interpreter.identify(path, environ)
            except InterpreterError as error:
                answers[path] = error
        threads = [threading.Thread(target=ask, args=(path,)) for path in missing]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        interpreter.remember(
            dict((path, answers[path]) for path in missing
                 if not isinstance(answers[path], InterpreterError)), environ,
            [path for path in missing if isinstance(answers[path], InterpreterError)
             and "no answer within" in str(answers[path])])
    return [_identified(answer, path, environ, answers.get(path))
            for path, answer in zip(paths, known)]


def _listdir(folder):
    try:
        return sorted(os.listdir(folder))
    except (OSError, ValueError):
        return []


def _file_key(path):
    """(device, inode) of an executable regular file, else None."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or not os.access(path, os.X_OK):
            return None
        return (st.st_dev, st.st_ino)
    except (OSError, ValueError):
        return None


def _head(path):
    try:
        with open(path, "rb") as f:
            return f.read(_HEAD)
    except (OSError, ValueError):
        return b""


def identify(path, environ):
    """(version or None, how, error or None) for the interpreter file `path`."""
    return _identified(_classify(path), path, environ)


def _classify(path):
    """(version, how, error) for a file known without running it, or None: ask it."""
    real = os.path.realpath(path)
    for name in (os.path.basename(real), os.path.basename(path)):
        if name.startswith("python2"):
            version = name[6:] if "." in name else "2"
            return version, "by its name (%s)" % name, "Python 2: utf8env models CPython 3.6-3.15"
    head = _head(path)
    if head.startswith(b"#!"):
        line = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").strip()
        return None, "a script (#!%s): not run" % line, "not identified: only interpreters are run"
    command = python_command(path)
    if command is None or command.head or not head.startswith(b"\x7fELF"):
        return None, "not a compiled interpreter: not run", "not identified"
    return None


def _identified(known, path, environ, identity=None):
    """(version, how, error) from _classify()'s answer, else from the interpreter's
    Identity (asked now when not given), or the error of asking it."""
    if known is not None:
        return known
    if identity is None:
        try:
            identity = identify_cached(path, environ)
        except InterpreterError as error:
            return None, "ran it once", str(error)
    if isinstance(identity, InterpreterError):
        return None, "ran it once", str(identity)
    how = "asked once (python -E -S -c ...; cached per file)"
    if identity.version not in VERSIONS:
        return identity.version, how, "Python %s: utf8env models CPython %s-%s" % (
            identity.version, VERSIONS[0], VERSIONS[-1])
    return identity.version, how, None


def _shim(path, environ, root):
    """(the file a pyenv shim would exec, how that was found), or (None, why not).
    Nothing is run: the version comes from where pyenv(1) reads it."""
    version, origin = _pyenv_version(environ, root)
    name = os.path.basename(path)
    if version is None or version == "system":
        return None, "pyenv's system version: the next %s on PATH" % name
    target = "%s/versions/%s/bin/%s" % (root, version, name)
    if _file_key(target) is None or _head(target).startswith(b"#!"):
        return None, "%s does not exist" % target
    return target, "also started by the pyenv shim %s (version %s from %s)" % (path, version, origin)


def _pyenv_version(environ, root):
    if environ.get("PYENV_VERSION"):
        return environ["PYENV_VERSION"].split(":")[0], "PYENV_VERSION"
    folder = environ.get("PWD") or ""
    while folder.startswith("/"):
        found = _first_word(folder.rstrip("/") + "/.python-version")
        if found:
            return found, folder.rstrip("/") + "/.python-version"
        if folder == "/":
            break
        folder = os.path.dirname(folder.rstrip("/")) or "/"
    found = _first_word(root + "/version")
    return (found or "system"), root + "/version"


def _first_word(path):
    try:
        with open(path, "rb") as f:
            words = f.read(4096).decode("utf-8", "replace").split()
    except (OSError, ValueError):
        return None
    return words[0] if words else None


# -- the predictions ------------------------------------------------------------------

def decision(found, environ, facts, platform, version=None):
    """The engine's Decision for `found` started plainly (`PYTHON script.py`) here."""
    return decide(Inputs(environ=environ, args=(), version=version or found.version,
                         platform=platform, locales=facts, argv0=found.path))
