"""`utf8env run`: find the command, identify a CPython behind it, have it planned
(_plan.py, pure; for a program that is not Python, PEP 538's coercion alone, from
_engine/preconfig.py), and exec it: the impure half of the launcher. Every module this
imports costs each launch (benchmarks/bench_launch.py, tests/test_startup_imports.py):
_errors, the engine and the plan's records load only where needed.
"""
from ._engine.preconfig import C_LOCALE_NAMES
from ._environment import DIRECTORY, REGULAR, SYMLINK, TYPE_MASK, final_name, system


def _what_to_exec(command, asked):
    """(the file to exec, its argv, its environment, the lines to print first, the exit
    status of a refused launch or None) for `command` in the environment this process was
    started with. `asked`: the Switches of run's options, None where none was given. The
    locale facts are asked in this process, which is replaced by the command next (the
    compiled launcher has asked already)."""
    from ._environment import codesets as locale_codesets, inherited
    environ = inherited()
    path = find_command(command[0], environ)
    python, script, _ = python_behind(path, environ)
    # A CPython 3.7+ with nothing asked: it coerces and chooses its UTF-8 mode itself, so
    # plan() leaves the command as it is unless a locale variable names a locale the libc
    # lacks (tests/test_launch.py holds the two together); nor does the launch wait for
    # the engine to say so.
    native = python not in (None, "3.6") and asked is None
    if native and not _may_name_a_locale(environ):
        return path, tuple(command), environ, (), None
    codesets, c_codeset = locale_codesets(environ, None, True, _ask_libc)
    if native and not _names_a_missing_locale(environ, codesets):
        return path, tuple(command), environ, (), None
    if asked is not None:
        from ._plan import without_c_lc_all
        # The launcher unsets it then (_hand_over: what the plan's environment lacks).
        environ, _ = without_c_lc_all(environ, asked, codesets.__contains__)
    if python is None:
        # The coercion alone: plan_any_program's rules, without its record.
        from ._engine.preconfig import for_any_program
        draft, coercion, warning = ((False, None, None) if asked is None else
                                    (asked.policy == "pep538-draft", asked.coercion, asked.warning))
        changes, messages, _ = for_any_program(environ, codesets, draft, coercion, warning)
        launch = path, tuple(command), dict(environ, **changes), tuple(messages), None
    else:
        from ._engine.policy import LocaleFacts
        from ._plan import Switches, plan
        asked = asked or Switches()
        planned = plan(environ, path, command, LocaleFacts(codesets, c_codeset), python=python,
                       policy=asked.policy, utf8=asked.utf8, coercion_switch=asked.coercion,
                       warning_switch=asked.warning, script=script)
        launch = (planned.path, planned.argv, planned.environ, planned.messages,
                  planned.refusal)
    if not launch[3]:
        return launch
    # utf8env's own interpreter (3.7+) has already printed its locale warnings, from the
    # same environment: the launcher does not print the same line a second time. (Asked
    # only when the plan prints something: it is one more decide().)
    printed = set(_own_startup_messages(environ, codesets, c_codeset))
    return launch[:3] + (tuple(m for m in launch[3] if m not in printed),) + launch[4:]


def _ask_libc(environ, names, here):
    """_locales.ask: imported only where the compiled launcher has not asked already."""
    from ._locales import ask
    return ask(environ, names, here)


def _locale_values(environ):
    """The values of LANG and the LC_* variables that name a locale other than C, where
    LC_ALL is empty (a non-empty LC_ALL is never overridden unasked: nothing to do)."""
    if environ.get("LC_ALL"):
        return ()
    return tuple(value for name, value in environ.items()
                 if (name == "LANG" or name.startswith("LC_")) and value
                 and value not in C_LOCALE_NAMES)


def _may_name_a_locale(environ):
    """Whether a locale variable names a locale other than C, known before libc is asked
    (False: none can name a missing one)."""
    return bool(_locale_values(environ))


def _names_a_missing_locale(environ, codesets):
    """Whether a locale variable names a locale the libc lacks (`codesets`: the names
    setlocale accepts): the one start where plan() may change a CPython 3.7+ with nothing
    asked (_plan._for_missing_locales decides what)."""
    return any(value not in codesets for value in _locale_values(environ))


def python_behind(path, environ):
    """(the version of the CPython `path` starts, or None; the PythonCommand when it is a
    script; notes). Whatever cannot be identified as a CPython 3.6+ (a Python 2, a
    program named python that does not answer) runs as any other program: with the
    coercion, which is harmless to it, and nothing else. A Python newer than the newest
    policy is planned by that policy (3.15): it coerces and chooses UTF-8 mode itself."""
    if not _may_start_python(path):
        return None, None, ()
    from . import _errors as errors
    from ._interpreter import identify_cached, python_command
    found = python_command(path)
    if found is None:
        return None, None, ()
    interpreter, cacheable = found.interpreter, found.cacheable
    if found.head:
        try:
            if "/" not in interpreter:          # #!/usr/bin/env python3
                interpreter = find_command(interpreter, environ)
        except (errors.CommandNotFound, errors.NotExecutable):
            return None, None, ()
        behind = python_command(interpreter)
        cacheable = bool(behind and behind.cacheable)
    try:
        version = identify_cached(interpreter, environ, cacheable).version
    except errors.InterpreterError:
        return None, None, ()
    from ._engine.profiles import VERSIONS
    if version in VERSIONS:
        return version, (found if found.head else None), ()
    major, _, minor = version.partition(".")
    if (int(major), int(minor)) > tuple(int(part) for part in VERSIONS[-1].split(".")):
        return VERSIONS[-1], (found if found.head else None), (
            "Python %s is newer than utf8env's newest policy: planned as %s" % (version, VERSIONS[-1]),)
    return None, None, ()


def _may_start_python(path):
    """False where interpreter.python_command cannot find a Python, known without loading
    interpreter.py: it looks only at a name starting with "python" (a symlink's: its
    target's) and a #! line. So an ordinary program (/bin/true, /bin/sh -> dash, any
    binary) costs the launcher neither that module nor its records
    (tests/test_startup_imports.py). tests/test_launch.py holds this to python_command."""
    name = path.rpartition("/")[2]
    try:
        if not name.startswith("python") and system.lstat(path).st_mode & TYPE_MASK == SYMLINK:
            name = final_name(path)
        if name.startswith("python"):
            return True
        if system.stat(path).st_mode & TYPE_MASK != REGULAR:
            return False        # execve runs no FIFO or device; opening one may wait, or act
        fd = system.open(path, system.O_RDONLY)
    except (OSError, ValueError):
        return True                 # python_command decides
    try:
        start = system.read(fd, 2)
    except OSError:
        return True
    finally:
        system.close(fd)
    return start == b"#!" or len(start) < 2        # a short read proves nothing


def _own_startup_messages(environ, codesets, c_codeset):
    """The lines this very interpreter printed at start-up, by decide() on its own inputs.
    Started by utf8env's own start (LC_ALL=C, the variables kept aside), it printed none:
    the first start of `python -m utf8env run` may have (restart_safely)."""
    import sys
    from ._environment import first_start_options, launched
    from ._engine.policy import Inputs, LocaleFacts, decide
    from ._engine.profiles import VERSIONS
    version = "%d.%d" % sys.version_info[:2]
    options = first_start_options if launched() else _own_options()
    if version not in VERSIONS or options is None:
        return ()
    own = decide(Inputs(environ=environ, args=tuple(options), version=version,
                        locales=LocaleFacts(codesets, c_codeset)))
    return own.stderr_messages


def _own_options():
    """The options of this interpreter's command line that decide its start-up warnings."""
    import sys
    options = ["-I"] if sys.flags.isolated else ["-E"] if sys.flags.ignore_environment else []
    utf8 = getattr(sys, "_xoptions", {}).get("utf8")
    if utf8 is not None:
        options += ["-X", "utf8" if utf8 is True else "utf8=%s" % utf8]
    return options


def find_command(name, environ):
    """The file `name` names, searched on the target's PATH as a shell would."""
    if "/" in name:
        candidates = [name]
    else:
        search = environ.get("PATH", _DEFAULT_PATH).split(":")
        candidates = [_join(folder or ".", name) for folder in search]
    seen_not_executable = None
    for candidate in candidates:
        if _file_type(candidate) not in (None, DIRECTORY):     # a device too, as a shell does
            if system.access(candidate, system.X_OK):
                return candidate
            seen_not_executable = seen_not_executable or candidate
    from . import _errors as errors
    if seen_not_executable:
        raise errors.NotExecutable("command %r: %s is not executable"
                                   % (name, seen_not_executable))
    if "/" in name and _file_type(name) == DIRECTORY:
        raise errors.NotExecutable("command %r: is a directory" % name)
    raise errors.CommandNotFound("command %r: not found%s" % (
        name, "" if "/" in name else " on PATH"))


_DEFAULT_PATH = "/bin:/usr/bin"     # os.defpath


def _file_type(path):
    try:
        mode = system.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return mode & TYPE_MASK


def _join(folder, name):
    return folder + name if folder.endswith("/") else folder + "/" + name


def execute(path, argv, environ, messages=(), refusal=None):
    """Replace this process by the command (the file `path`, `argv`, `environ`), after
    printing `messages`: same pid, same file descriptors; or, under the compiled launcher,
    hand it the plan and end. Returns only for a refused launch (`refusal`): the exit
    status."""
    for line in messages:
        try:
            system.write(2, (line + "\n").encode("utf-8", "surrogateescape"))
        except OSError:
            pass        # no stderr (closed): the command runs all the same
    if refusal is not None:
        return refusal
    from . import _environment as environment
    if environment.plan_fd is not None:
        _hand_over(path, argv, environ, environment.plan_fd)
    _restore_signals()
    try:
        _exec(path, list(argv), environ)
    except OSError as error:
        raise _exec_error(error, argv[0])


def _exec_error(error, name):
    """The utf8env error for an exec of the command `name` that failed with `error`."""
    from . import _errors as errors
    if isinstance(error, FileNotFoundError):
        # The file was found: what is missing is its #! interpreter (env(1) says 127 too).
        return errors.CommandNotFound("command %r: No such file or directory" % name)
    if isinstance(error, PermissionError):
        return errors.NotExecutable("command %r: permission denied" % name)
    return errors.NotExecutable("command %r: cannot be executed (%s)" % (name, error.strerror))


def _exec(path, argv, environ):
    """execve, and for a file the kernel cannot run (no #!, no binary format) /bin/sh with
    it, as execvp(3) and env(1) do."""
    try:
        system.execve(path, argv, environ)
    except OSError as error:
        import errno
        if error.errno != errno.ENOEXEC:
            raise
    system.execve("/bin/sh", ["/bin/sh", path] + argv[1:], environ)


def _hand_over(path, argv, environ, fd):
    """Write the plan for scripts/launcher.c (read_plan there) and end this process: what
    to exec, and the variables to set and unset in the launcher's own environment, which
    it kept byte for byte. Every str here was decoded reversibly (_cli.start), so fsencode
    gives the bytes back."""
    from ._environment import fsencode, inherited
    before = inherited()
    sets = [fsencode(name) + b"=" + fsencode(value) for name, value in environ.items()
            if before.get(name) != value]
    unsets = [fsencode(name) for name in before if name not in environ]
    fields = ([b"exec", fsencode(path), str(len(argv)).encode()]
              + [fsencode(word) for word in argv]
              + [str(len(sets)).encode()] + sets + [str(len(unsets)).encode()] + unsets)
    data = b"\0".join(fields) + b"\0"
    try:
        while data:
            data = data[system.write(fd, data):]
    except OSError:
        system._exit(125)       # the launcher is gone
    system._exit(0)


def restart_safely(args):
    """For `python -m utf8env run ...`: start utf8env again as the launcher starts it
    (_cli.start), so that the command's bytes are never decoded in the user's locale and
    encoded back. Returns where that cannot be done (no /proc to read the bytes from, no
    sys.executable): the run goes on here, with the text as decoded."""
    import sys
    from ._environment import KEPT_ASIDE, own_arguments, raw_environment
    raw_args, pairs = own_arguments(args), raw_environment()
    if raw_args is None or pairs is None or not sys.executable:
        return
    kept_names = {name.encode() for name in KEPT_ASIDE}
    environ = {name: value for name, value in pairs if name not in kept_names}
    environ[b"LC_ALL"] = b"C"
    kept = [name + b"=" + value for name, value in pairs if name in kept_names]
    folder = __file__.rpartition("/")[0].rpartition("/")[0]
    code = ("import posix, sys; sys.path.insert(0, sys.argv[2]); "
            "sys.dont_write_bytecode = bool(posix.environ.get(b'PYTHONDONTWRITEBYTECODE')); "
            "from utf8env._cli import start; start()")
    executable = sys.executable
    printed = " ".join(["python"] + _own_options())
    argv = ([executable, "-I", "-S", "-c", code, "", folder, "", "", printed, str(len(kept))]
            + kept + ["0"] + raw_args)
    try:
        system.execve(executable, argv, environ)
    except OSError:
        pass        # no room for it (near ARG_MAX), say: the run goes on here


def _restore_signals():
    """CPython ignores SIGPIPE and SIGXFSZ for itself at start-up (Python/pylifecycle.c
    signal_install_handlers), and an exec keeps an ignored signal ignored: without this,
    `utf8env run -- yes | head -1` would print "Broken pipe". Each gets back the
    disposition this process received, as the stub read it, else the default that a
    shell's command has. Handlers need nothing: exec resets them to the default itself;
    the signal mask CPython leaves alone. (The compiled launcher execs the command itself,
    with what it received: this is the stub's and `python -m utf8env`'s way.)"""
    import signal
    from ._environment import was_ignored_at_start
    for name in ("SIGPIPE", "SIGXFSZ"):
        number = getattr(signal, name, None)
        if number is not None:
            ignored = was_ignored_at_start(number)
            signal.signal(number, signal.SIG_IGN if ignored else signal.SIG_DFL)


def run(args, command):
    """`utf8env run`'s handler: plan COMMAND and exec it. args None: no option was given
    (_cli._run_operands); command is not empty (_commands._run says so where it is)."""
    return execute(*_what_to_exec(command, None if args is None else switches(args)))


def switches(args):
    """The Switches that run's (or env's) parsed options give."""
    from ._plan import Switches
    if args is None:        # no option given: every switch as declared by default
        return Switches()
    return Switches(utf8=args.utf8, policy=None if args.policy == "default" else args.policy,
                    coercion=args.coercion, warning=args.warning,
                    override_lc_all=args.override_lc_all)
