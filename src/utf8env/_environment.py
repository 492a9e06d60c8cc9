"""The environment this process was started with, and the few calls on the operating
system that the launcher makes, without importing os.

os.environ is not it: a CPython 3.7+ running utf8env in the C locale has already
coerced itself and exported LC_CTYPE=C.UTF-8 into its own environment before any of our
code runs. Predicting or launching from that would describe a coerced world, and a
Python child would lose the UTF-8 mode it would have had. On Linux the kernel keeps
the environment as it was passed to execve() in /proc/self/environ; setenv() never
writes there.

Why not os: importing it costs about 1.5 ms (its os.environ needs collections.abc), a
seventh of an interpreter's start-up, which `utf8env run` would pay at every launch for
functions that the built-in posix module, already loaded, provides itself.
"""
import sys

try:
    import posix as system          # what os re-exports on POSIX
except ImportError:                 # pragma: no cover - Windows
    import nt as system

from ._engine.preconfig import C_LOCALE_NAMES, DRAFT_TARGETS, LOCALE_VARIABLES, SHIPPED_TARGETS

_FS_CODEC = (sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())

# The mask of ignored signals (decimal, the sigignore field of /proc/self/stat) this
# process had before CPython ignored SIGPIPE and SIGXFSZ for itself, where the stub read
# it. None: not known.
ignored_at_start = None

# The environment this process was started for, when utf8env's own start (_cli.start) gave
# it: the user's, rebuilt from what the launcher passed. None: read it (inherited()).
_launched = None

# The variables the launcher and the stub keep aside from utf8env's own interpreter (it
# gets them as arguments; LC_ALL=C in their place): scripts/launcher.c says why.
KEPT_ASIDE = ("LC_ALL", "LC_CTYPE", "LANG", "PYTHONCOERCECLOCALE", "PYTHONMALLOC",
              "PYTHONMALLOCSTATS", "PYTHONHASHSEED")


# The descriptor of the pipe the compiled launcher reads the plan from (scripts/launcher.c
# runs `run` in a child and execs the command itself); None: this process execs it (set
# by _cli.start, read by _run.execute and by _interpreter, whose child stays in the
# launcher's process group then).
plan_fd = None


# The options of the interpreter that started utf8env first and printed its own locale
# warnings (`python -m utf8env run`, started again by launch.restart_safely); None: none.
first_start_options = None


# The locale question as the compiled launcher answered it under the same environment:
# {name asked: codeset, or "" where setlocale refused it}; None: not asked.
_locale_answers = None


def start_launched(kept, ignored, printed, answers):
    """Take this process's environment as the launcher passed it: every variable but the
    LC_ALL=C it added, and `kept` (NAME=value entries) back in."""
    global _launched, ignored_at_start, first_start_options, _locale_answers
    first_start_options = printed
    _locale_answers = answers or None
    environ = {fsdecode(name): fsdecode(value) for name, value in system.environ.items()
               if name not in (b"LC_ALL", "LC_ALL")}
    for entry in kept:
        name, _, value = entry.partition("=")
        environ[name] = value
    _launched = environ
    ignored_at_start = ignored


# Every name a profile may try as a coercion target (shipped and drafts), in order.
_TARGET_NAMES = tuple(dict.fromkeys(name for name, _, _ in SHIPPED_TARGETS + DRAFT_TARGETS))


def candidate_names(environ):
    """The names worth asking about: the coercion targets and the locale variables' values."""
    names = ["C"]
    # Every LC_* too: 3.6 decodes its command line only if all categories can be set.
    others = tuple(environ[v] for v in sorted(environ) if v.startswith("LC_"))
    for name in _TARGET_NAMES + tuple(environ.get(v) for v in LOCALE_VARIABLES) + others:
        if name and name not in names and name not in C_LOCALE_NAMES:
            names.append(name)
    return names


def codesets(environ, names, here, ask):
    """_locales.facts()' answer as plain values, for `run` of a program that is not
    Python (it needs no engine): ({name setlocale accepts: its codeset}, the C locale's codeset or
    None). `ask`: _locales.ask, or a function that calls it, for where the launcher has
    not asked (the caller's: this module is below _locales)."""
    names = candidate_names(environ) if names is None else list(names)
    if sys.platform == "win32":
        return {}, None
    answer = locale_answers(environ, names)     # the compiled launcher asked already
    if answer is None:
        answer = ask(environ, names, here)
    c_codeset = answer.pop("C", None)
    return answer, c_codeset


def locale_answers(environ, names):
    """{name: codeset} of the names setlocale accepts, as the launcher found them, where it
    asked every one of `names` under `environ`'s LOCPATH; else None."""
    if _locale_answers is None or _launched.get("LOCPATH") != environ.get("LOCPATH"):
        return None
    if any(name not in _locale_answers for name in names):
        return None
    return {name: _locale_answers[name] for name in names if _locale_answers[name]}


def launched():
    """Whether utf8env's own start rebuilt the environment (this process runs in LC_ALL=C,
    with every byte decoded reversibly)."""
    return _launched is not None


def was_ignored_at_start(number):
    """Whether signal `number` was ignored when this process started; None if not known."""
    if ignored_at_start is None:
        return None
    try:
        return bool(int(ignored_at_start.strip()) >> (number - 1) & 1)
    except ValueError:
        return None


def fsencode(text):
    """os.fsencode() of a str: the bytes it stands for (surrogate escapes undone)."""
    return text.encode(*_FS_CODEC)


def fsdecode(data):
    """os.fsdecode() of bytes: undecodable bytes become surrogate escapes."""
    return data.decode(*_FS_CODEC)


def final_name(path):
    """The name of the file the symlink `path` leads to, as os.path.basename(
    os.path.realpath(path)) gives it (/bin/sh: "dash"). Each link is read in turn, a
    relative target from the link's own folder (the kernel resolves any folder link and
    ".." in it), to the first file that is not a link, or that cannot be read (a dangling
    link: the name it points to)."""
    for _ in range(40):                 # the links Linux follows at most (MAXSYMLINKS)
        try:
            if system.lstat(path).st_mode & TYPE_MASK != SYMLINK:
                break
            target = system.readlink(path)
        except (OSError, ValueError):
            break
        folder, slash, _ = path.rpartition("/")
        path = target if target.startswith("/") else folder + slash + target
    return path.rstrip("/").rpartition("/")[2]


# The file type bits of st_mode, as Lib/stat.py defines them for every platform (stat
# itself is not imported: the launcher's path stays on posix).
TYPE_MASK, REGULAR, DIRECTORY, SYMLINK = 0o170000, 0o100000, 0o040000, 0o120000


def _read_all(path):
    """The bytes of the file `path`, read with the calls alone (open() would build a
    buffered file object for one read)."""
    fd = system.open(path, system.O_RDONLY | getattr(system, "O_CLOEXEC", 0))
    try:
        chunks = []
        while True:
            chunk = system.read(fd, 1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        system.close(fd)


def inherited():
    """The environment as passed to this process, as a dict of str (surrogate escapes
    for undecodable bytes); the process's environment where /proc is not available."""
    if _launched is not None:
        return dict(_launched)
    try:
        data = _read_all("/proc/self/environ")
    except OSError:
        import os
        return dict(os.environ)
    environ = {}
    for entry in data.split(b"\0"):
        name, sep, value = entry.partition(b"=")
        if sep and name:
            environ.setdefault(fsdecode(name), fsdecode(value))
    return environ


def user_environ():
    """The environment the user started utf8env with, as a dict to hand on to the programs
    utf8env runs for them (readiness's and fix --prove's suites): under the installed
    command the launcher's, rebuilt (os.environ lacks what it kept aside: PYTHONHASHSEED,
    PYTHONMALLOC, ...); else os.environ as it is now."""
    if _launched is not None:
        return dict(_launched)
    import os
    return dict(os.environ)


def own_arguments(args):
    """The bytes of this process's last len(args) arguments (utf8env's own, `args` as
    decoded): from /proc/self/cmdline, as they came; None where that cannot be read."""
    try:
        words = _read_all("/proc/self/cmdline").split(b"\0")[:-1]
    except OSError:
        return None
    if len(words) < len(args):
        return None
    return words[len(words) - len(args):]


def raw_environment():
    """This process's environment as passed to it, as (name, value) byte pairs, the first
    entry of each name; None where /proc cannot be read."""
    try:
        data = _read_all("/proc/self/environ")
    except OSError:
        return None
    pairs, seen = [], set()
    for entry in data.split(b"\0"):
        name, sep, value = entry.partition(b"=")
        if sep and name and name not in seen:
            seen.add(name)
            pairs.append((name, value))
    return pairs


def described(args):
    """The environment explain and env describe: this process's own (inherited()), or an
    empty one with --empty-env, with each --env NAME=VALUE set in it."""
    environ = {} if args.empty_env else inherited()
    for item in args.env:
        name, sep, value = item.partition("=")
        if not sep or not name:
            from ._errors import UsageError
            raise UsageError("--env %r: expected NAME=VALUE" % item)
        environ[name] = value
    return environ
