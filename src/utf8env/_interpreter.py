"""Which Python a command is: the one identification of utf8env (explain, run, env and
the matrix all use it).

Two steps. python_command() decides from the file alone, running nothing, whether a
command starts a Python: its name (python, python3, python3.11; the file a symlink leads
to), or its `#!` line (a console script's `#!/venv/bin/python`, `#!/usr/bin/env python3`,
or pip's /bin/sh trampoline for long paths). Only then does identify() run that
interpreter once, with the command's own environment (a pyenv shim answers for the
PYENV_VERSION the command will see), under a timeout that holds even when it leaves a
child behind. Running an arbitrary program with -c to find out would be unsafe.

Only the locale is not the command's: the interpreter is asked in the C locale
(LC_ALL=C), which every libc has and whose codeset every CPython has a codec for. In the
command's own locale it may never start (a codeset without a codec: hy_AM.ARMSCII-8,
ja_JP.WINDOWS-31J before 3.13, tests/test_codesets_places.py), and what is asked
(version_info, sys.platform: the build's) does not depend on the locale, so the answer,
and the cache keyed by the file alone, hold in any locale.

On the launcher's path this module imports nothing but the built-in posix module
(environment.system): subprocess loads only when an interpreter is really asked, once
per interpreter file thanks to the cache.
"""
from ._environment import (DIRECTORY, REGULAR, SYMLINK, TYPE_MASK, final_name, fsdecode, fsencode,
                           system, user_environ)
from . import _errors as errors      # errors.X where raised: most are made on first use
from ._engine.profiles import VERSIONS, platform_name
from ._engine.records import Record, field

# -E -S: the answer must not depend on the user's PYTHON* variables or site packages;
# LC_ALL=C (identify), nor on the locale.
# Python 2 syntax too: the matrix runs 2.7, and explain refuses it with a clear message.
_QUESTION = ("import sys; sys.stdout.write('%d.%d %s' % (sys.version_info[0], "
             "sys.version_info[1], sys.platform))")
_DEFAULT_PATH = "/bin:/usr/bin"     # os.defpath


class Identity(Record):
    version = field()           # "3.9", "2.7"
    platform = field()          # a policy platform name ("linux")


class PythonCommand(Record):
    """How a command starts a Python."""
    interpreter = field()       # the interpreter to ask (a path, or a name to find on PATH)
    head = field()              # for a script: the words that start its interpreter
                                # ("/venv/bin/python",) or ("/usr/bin/env", "python3"); () if
                                # the command is the interpreter itself
    options = field()           # the script's own interpreter options from its #! line
    cacheable = field()         # a compiled interpreter: its answer depends on the file alone


_SHEBANG_LENGTH = 256           # Linux reads at most this much of a #! line (BINPRM_BUF_SIZE)


def python_command(path):
    """The PythonCommand that `path` (an existing file) starts, or None when nothing in its
    name or first lines says it is a Python. Reads at most the file's first 512 bytes."""
    named = _is_python_name(path.rpartition("/")[2])
    try:
        if (system.lstat(path).st_mode & TYPE_MASK) == SYMLINK and not named:
            named = _is_python_name(final_name(path))      # a symlink: its target counts
    except (OSError, ValueError):
        return None
    start = _start_of(path)
    if named:
        # A shim or wrapper script named python3 answers for its environment, not its file.
        return PythonCommand(path, (), (), start.startswith(b"\x7fELF"))
    return _from_shebang(start)


def _is_python_name(name):
    if name == "python":
        return True
    return name.startswith("python") and name[6:].replace(".", "").rstrip("mdu").isdigit()


def _start_of(path):
    # Only a regular file is read: execve runs no FIFO or device, and opening one may wait
    # for a writer (a FIFO: the launcher would hang) or act (a tape rewinds).
    try:
        if system.stat(path).st_mode & TYPE_MASK != REGULAR:
            return b""
        with open(path, "rb") as f:
            return f.read(2 * _SHEBANG_LENGTH)
    except (OSError, ValueError):
        return b""


def _from_shebang(start):
    # As Linux's binfmt_script reads it: the interpreter ends at the first blank, the rest
    # of the line (trimmed) is one optional argument.
    if not start.startswith(b"#!"):
        return None
    first, _, rest = start[2:].partition(b"\n")
    words = first[:_SHEBANG_LENGTH].strip().replace(b"\t", b" ").split(b" ", 1)
    interpreter = fsdecode(words[0])
    argument = fsdecode(words[1].strip()) if len(words) > 1 else ""
    name = interpreter.rpartition("/")[2]
    if _is_python_name(name):
        return PythonCommand(interpreter, (interpreter,), (argument,) if argument else (), False)
    if name == "env" and _is_python_name(argument):
        return PythonCommand(argument, (interpreter, argument), (), False)
    if interpreter == "/bin/sh" and rest.startswith(b"\'\'\'exec\' "):
        # pip's trampoline for an interpreter path too long for #! (distlib's launcher):
        #   #!/bin/sh
        #   \'\'\'exec\' "/very/long/venv/bin/python" "$0" "$@"
        quoted = rest.split(b"\n", 1)[0][len(b"\'\'\'exec\' "):]
        if quoted.startswith(b'"') and b'"' in quoted[1:]:
            python = fsdecode(quoted[1:quoted.index(b'"', 1)])
            if _is_python_name(python.rpartition("/")[2]):
                return PythonCommand(python, (python,), (), False)
    return None


TIMEOUT = 10.0         # a real interpreter answers in milliseconds; a shim in a second


# explain's way around an interpreter that cannot be run; the other commands run it.
PREDICT = "--version X.Y to predict without running it"


def identify(python, environ=None, predict=False):
    """The version and platform of the interpreter command `python` (a name or path):
    any CPython that answers, 2.7 included, asked with `environ` (default: the
    user's) as the command itself will run, in the C locale. `predict`: the errors
    name explain's --version X.Y (only explain takes it)."""
    if environ is None:
        environ = user_environ()
    # PATH, PYENV_VERSION, LD_LIBRARY_PATH ... stay: they choose the interpreter.
    environ = dict(environ, LC_ALL="C")
    try:
        output = _ask([python, "-E", "-S", "-c", _QUESTION], environ)
    except FileNotFoundError:
        raise errors.InterpreterError("interpreter %r: not found (give a path%s)" % (
            python, ", a name on PATH, or " + PREDICT if predict else " or a name on PATH"))
    except PermissionError:
        raise errors.InterpreterError("interpreter %r: not executable" % python)
    except (errors.InterpreterError, OSError) as error:     # no answer (_ask)
        raise errors.InterpreterError("interpreter %r: could not be run (%s)%s" % (
            python, _short(error), "; give " + PREDICT if predict else ""))
    version, _, platform = output.decode("ascii", "replace").partition(" ")
    if not _is_version(version):
        raise errors.InterpreterError("interpreter %r: not a Python (it answered %r)"
                                      % (python, version))
    return Identity(version, platform_name(platform))


def identify_modelled(python, environ=None):
    """identify(), refusing a Python that utf8env has no policy for (2.7, 3.5, 3.16...)."""
    return _modelled(python, identify(python, environ, predict=True))


def identify_file(path, python, environ=None):
    """identify_modelled() of the file `path` (the command `python` found), run only when
    its name or #! line says it starts a Python: never run an unknown program to ask."""
    found = python_command(path)
    if found is None:
        raise errors.InterpreterError("interpreter %r: neither its name nor a #! line says it "
                                      "is a Python, so it is not run to ask; give --version X.Y"
                                      % python)
    return _modelled(python, identify(found.interpreter, environ, predict=True))


def _modelled(python, identity):
    if identity.version not in VERSIONS:
        raise errors.InterpreterError("interpreter %r is Python %s: utf8env models CPython %s "
                                      "to %s" % (python, identity.version, VERSIONS[0], VERSIONS[-1]))
    return identity


def _is_version(text):
    major, dot, minor = text.partition(".")
    return bool(dot) and major.isdigit() and minor.isdigit()


def _ask(argv, environ):
    """The stdout of argv. The child gets a session of its own, so that a timeout kills
    whatever it started too: a grandchild holding the pipe open cannot make us wait.
    An interpreter that does not answer (it failed, or outlived the timeout) raises
    InterpreterError itself, which identify() raises again with the command's name: no
    class of its own, as each class costs the launcher's start-up."""
    import subprocess
    # Under the compiled launcher, `run` decides in a process group of its own, which the
    # launcher kills whole when a signal ends the start-up (scripts/launcher.c): the
    # interpreter asked stays in it, to go with it.
    from . import _environment as environment
    in_launchers_group = environment.plan_fd is not None
    from ._processes import kill_group, kill_process, read_until_exit
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=environ,
                               start_new_session=not in_launchers_group)
    # Read until it exits: a process it started may hold the pipes after it. What it
    # left in its group ends with it (a daemon in a session of its own is not ours; the
    # group's number stays its own while a member lives: _processes.run_in_session).
    output, stderr, finished = read_until_exit(process, TIMEOUT)
    if in_launchers_group:
        if not finished:
            kill_process(process)
    else:
        kill_group(process.pid)
    if not finished:
        process.wait()
        raise errors.InterpreterError("no answer within %g seconds" % TIMEOUT)
    if process.returncode:
        lines = stderr.decode("utf-8", "replace").strip().splitlines()
        raise errors.InterpreterError("exit status %d%s" % (process.returncode,
                                                            ": " + lines[-1] if lines else ""))
    return output


def _short(error):
    return str(error)


def identify_cached(path, environ, cacheable=True):
    """identify(), remembered per file (device, inode, mtime and size), so that a launcher
    pays the interpreter's start-up once per interpreter rather than once per launch. The
    file is named by what stat() follows to, so every symlink and spelling of one
    interpreter shares an entry without resolving paths. Not cacheable: a script (a pyenv
    shim) whose answer depends on the environment: asked every time."""
    if not cacheable:
        return identify(path, environ)
    identity = cached(path, environ)
    if identity is None:
        identity = identify(path, environ)
        remember({path: identity}, environ)
    return identity


def _cache_key(path):
    """(key, stamp) of the file `path` names, or None where it cannot be stat()ed."""
    try:
        stat = system.stat(path)
    except (OSError, ValueError):
        return None
    return "%d:%d" % (stat.st_dev, stat.st_ino), (str(stat.st_mtime_ns), str(stat.st_size))


def cached(path, environ):
    """The remembered Identity of the interpreter file `path`, or None."""
    key = _cache_key(path)
    store = _cache_file(environ) if key else None   # None: no cache folder yet, or not ours
    if store is None:
        return None
    entry = _read_cache(store).get(key[0])
    if entry and entry[:2] == key[1] and entry[2].partition(".")[0] in ("2", "3") \
            and _is_version(entry[2]) and entry[3]:     # anything else: not ours, ask again
        return Identity(*entry[2:])
    return None


# An interpreter that gave no answer within TIMEOUT is remembered so for an hour (its
# entry's version field says so, which every reader of versions takes for "ask again"):
# doctor then does not wait for it on every run.
_SILENT = "no-answer"
SILENCE_KEPT = 3600


def silent_since(path, environ):
    """When (time.time()) the file `path` last gave no answer, within SILENCE_KEPT
    seconds and unchanged since; else None."""
    key = _cache_key(path)
    store = _cache_file(environ) if key else None
    if store is None:
        return None
    entry = _read_cache(store).get(key[0])
    if not entry or entry[:2] != key[1] or entry[2] != _SILENT:
        return None
    import time
    try:
        when = float(entry[3])
    except ValueError:
        return None
    return when if 0 <= time.time() - when < SILENCE_KEPT else None


def remember(identities, environ, silent=()):
    """Add {path: Identity} to the cache, and the paths `silent` (no answer within
    TIMEOUT, now), in one write (answers asked at the same time would otherwise each
    overwrite the others')."""
    import time
    now = "%d" % int(time.time())       # floor: a check right after must not see the future
    keys = [(_cache_key(path), identity) for path, identity in identities.items()]
    keys += [(_cache_key(path), (_SILENT, now)) for path in silent]
    keys = [(key, identity) for key, identity in keys if key is not None]
    if not keys:
        return
    store = _cache_file(environ) or _cache_file(environ, create=True)
    if store:
        cache = _read_cache(store)
        for (key, stamp), identity in keys:
            cache[key] = stamp + tuple(identity)
        _write_cache(store, cache)


# The cache is "key NUL mtime NUL size NUL version NUL platform NUL" per interpreter:
# read without importing json or os (each costs the launcher more than the rest of its work).
_ENTRY_FIELDS = 5


def _cache_file(environ, create=False):
    """$XDG_CACHE_HOME/utf8env/interpreters, else ~/.cache/...; None (no cache) without an
    absolute folder to put it in (a relative or empty HOME would put it wherever we are),
    or without a folder of this user's there (_own_folder; made when `create`)."""
    xdg = environ.get("XDG_CACHE_HOME") or ""
    if xdg.startswith("/"):
        folder = _own_folder(xdg, ("utf8env",), create, True)
    else:
        home = environ.get("HOME") or ""
        if not home.startswith("/"):
            return None
        folder = _own_folder(home, (".cache", "utf8env"), create, False)
    return None if folder is None else folder + "/interpreters"


def _own_folder(named, below, create, make_named):
    """The folder `named`/`below`..., or None where any of it is not this (effective)
    user's: root running with another user's HOME (sudo, su without -, a service) must
    leave no root-owned file there, nor follow a ~/.cache symlink that user planted. The
    named folder (HOME, XDG_CACHE_HOME) is found as the environment names it, and must be
    ours; below it every folder, and every symlink followed, must be ours. What is missing
    is made, mode 0700 (XDG's), when `create`: XDG_CACHE_HOME too (`make_named`), in the
    nearest folder of its path that exists and is ours, but never a missing HOME (as
    Debian's /nonexistent: the account has none)."""
    euid = system.geteuid()
    path, missing = named.rstrip("/") or "/", []
    while True:
        try:
            stat = system.stat(path)
            break
        except FileNotFoundError:
            if path == "/" or not make_named:
                return None
            path, _, name = path.rpartition("/")
            path = path or "/"
            missing.insert(0, name)
        except (OSError, ValueError):
            return None
    if stat.st_mode & TYPE_MASK != DIRECTORY or stat.st_uid != euid:
        return None
    for name in missing + list(below):
        path = path.rstrip("/") + "/" + name
        try:
            try:
                stat = system.lstat(path)
            except FileNotFoundError:
                if not create:
                    return None
                try:
                    system.mkdir(path, 0o700)
                    system.chmod(path, 0o700)       # whatever the umask
                except FileExistsError:
                    pass                            # made meanwhile: checked as found
                stat = system.lstat(path)
            if stat.st_mode & TYPE_MASK == SYMLINK:
                if stat.st_uid != euid:
                    return None
                stat = system.stat(path)
        except (OSError, ValueError):
            return None
        if stat.st_mode & TYPE_MASK != DIRECTORY or stat.st_uid != euid:
            return None
    return path


def _read_cache(store):
    """The entries of the cache file, or {} for a cache that is not safe to believe: not a
    regular file (a symlink is not followed), not this user's, or writable by others
    (another user could fake versions), or not in the format."""
    folder = store.rpartition("/")[0]
    if not _private(folder, DIRECTORY):
        return {}
    try:
        fd = system.open(store, system.O_RDONLY | _O_NOFOLLOW)
    except (OSError, ValueError):
        return {}
    try:
        if not _private_fd(fd, REGULAR):
            return {}
        chunks = []
        while True:
            chunk = system.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError:
        return {}
    finally:
        system.close(fd)
    fields = [fsdecode(item) for item in b"".join(chunks).split(b"\0")[:-1]]
    if len(fields) % _ENTRY_FIELDS:
        return {}       # not ours, or cut short: start again
    return {fields[i]: tuple(fields[i + 1:i + _ENTRY_FIELDS])
            for i in range(0, len(fields), _ENTRY_FIELDS)}


_O_NOFOLLOW = getattr(system, "O_NOFOLLOW", 0)


def _private(path, kind):
    """`path` is a `kind` (not through a symlink), owned by this user, writable by no one else."""
    try:
        stat = system.lstat(path)
    except (OSError, ValueError):
        return False
    return _is_private(stat, kind)


def _private_fd(fd, kind):
    return _is_private(system.fstat(fd), kind)


def _is_private(stat, kind):
    return (stat.st_mode & TYPE_MASK == kind and stat.st_uid == system.geteuid()
            and not stat.st_mode & 0o022)


def _write_cache(store, cache):
    """Best effort and atomic: a cache that cannot be written only costs time. The file
    is written to a new file of a random name, created exclusively (a planted symlink or
    file is never written through), in a folder that only this user can change (made by
    _own_folder), and then renamed over the old one."""
    import os
    data = b"".join(fsencode(item) + b"\0"
                    for key, entry in cache.items() for item in (key,) + tuple(entry))
    folder = os.path.dirname(store)
    try:
        if not _private(folder, DIRECTORY):
            return
        temporary = "%s/.interpreters.%s" % (folder, os.urandom(8).hex())
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW, 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(temporary, store)
        except OSError:
            os.unlink(temporary)
            raise
    except OSError:
        pass
