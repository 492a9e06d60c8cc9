"""The launcher: plan (pure) what PEP 538's C-level main() and PEP 540 would do for a
command, then exec it.

For any command the plan coerces the legacy C locale (the exported variables reach the
command and all its children). For a CPython child it adds only what that interpreter
lacks: a 3.7+ interpreter coerces and picks UTF-8 mode itself, so the plan leaves it
alone unless asked for more (--utf8, a draft policy); 3.6 gets the coercion from the
launcher and UTF-8 mode from a bootstrap (utf8env/_child/bootstrap/sitecustomize.py); the
strict mode, which no release has, always comes from the bootstrap. What a CPython child
gets is python_child.py's, loaded only for one.
"""
from ._environment import DIRECTORY, REGULAR, SYMLINK, TYPE_MASK, final_name, system
from ._engine.records import Record, field
# Not here: _errors (imported where raised) and the engine's policy.py, which a program
# that is not Python does not need (plan_any_program): both cost every launch.

# The rules of the coercion the launcher applies itself: CPython 3.7+ as shipped (every
# 3.7-3.15 coerces alike), or the PEP 538 draft.
_COERCION_VERSION = "3.7"


class Switches(Record):
    """What the user asked of `run` or `env` beyond the defaults."""
    utf8 = field(None)          # "0", "1", "strict": the child's UTF-8 mode; None: its own choice
    policy = field(None)        # "pep538-draft" for the draft's coercion; None: 3.7+ as shipped
    coercion = field(None)      # False: --no-coercion
    warning = field(None)       # False: --no-warning


class Plan(Record):
    path = field()              # the file to exec
    argv = field()              # its argv, argv[0] as the user gave it
    environ = field()           # its complete environment
    messages = field()          # lines the launcher prints on stderr before exec
    python = field()            # "3.6" when the command is a CPython, else None
    utf8_mode = field()         # the mode the Python child runs in (0, 1, "strict"); None: not Python, or not asked (run of a 3.7+ with nothing to add)
    bootstrap = field()         # the bootstrap is injected
    set_environ = field()       # what the plan sets in the environment (for `utf8env env`)
    notes = field()             # what cannot be applied, in words
    refusal = field(None)       # exit status when, as 3.7 would, the launch is refused
    why = field("")             # why the coercion happened or not, in words


def plan(environ, path, argv, locales, python=None, policy=None, utf8=None,
         coercion_switch=None, warning_switch=None, script=None):
    """The launch of `argv` (the file `path`) under `environ`; `python` is the version of
    the CPython the command starts, if it starts one: the command itself, or for a script
    (`script`, an interpreter.PythonCommand) the interpreter of its #! line. Pure:
    nothing is read from the process."""
    if python is None:
        return plan_any_program(environ, path, argv, locales.codesets, policy, coercion_switch,
                                warning_switch)
    from ._engine.policy import Inputs, decide
    argv = list(argv)
    messages, notes, changes = [], [], {}
    # The command line the interpreter itself receives after its own name.
    args = (tuple(script.options) + (path,) + tuple(argv[1:])) if script else tuple(argv[1:])
    from . import _python_child as python_child      # a CPython's part: no other program needs it
    child = python_child.child(environ, args, python, locales, utf8)
    if child.refusal:
        # 3.6 would start regardless; 3.7 refuses, with its own words and status.
        return Plan(path=path, argv=tuple(argv), environ=dict(environ),
                    messages=tuple(child.refusal.message.split("\n")), python=python,
                    utf8_mode=0, bootstrap=False, set_environ={}, notes=tuple(notes),
                    refusal=child.refusal.exit_code)

    why = ""
    if python == "3.6" or policy == "pep538-draft":
        # The launcher coerces for what cannot (3.6), and for the draft, which no release
        # implements, as for any other program; with this interpreter's command line.
        coercion = decide(Inputs(environ=dict(environ), args=args, version=_COERCION_VERSION,
                                 locales=locales, policy=policy if policy == "pep538-draft" else None,
                                 coercion_switch=coercion_switch, warning_switch=warning_switch))
        if coercion.startup_error is None:
            messages += [line for line in (coercion.coercion_warning, coercion.c_locale_warning) if line]
            if coercion.coercion:
                changes.update(coercion.coercion.environ)
            why = coercion.reasons["coercion"].detail
    env = dict(environ, **changes)
    path, argv, bootstrap = python_child.apply(
        child, environ, env, changes, notes, path, argv, args, python, locales, script,
        coercion_switch, warning_switch)
    return Plan(path=path, argv=tuple(argv), environ=env, messages=tuple(messages),
                python=python, utf8_mode=child.mode, bootstrap=bootstrap, set_environ=changes,
                notes=tuple(notes), why=why)


def plan_any_program(environ, path, argv, codesets, policy=None, coercion_switch=None,
                     warning_switch=None):
    """plan() for a program that is not Python: the coercion alone, as CPython 3.7+
    applies it (or the PEP 538 draft: `policy`), from preconfig.py's rules without the
    rest of the engine. `codesets`: {locale name setlocale accepts: its codeset}."""
    from ._engine.preconfig import for_any_program
    changes, messages, why = for_any_program(environ, codesets, policy == "pep538-draft",
                                             coercion_switch, warning_switch)
    return Plan(path=path, argv=tuple(argv), environ=dict(environ, **changes),
                messages=tuple(messages), python=None, utf8_mode=None, bootstrap=False,
                set_environ=changes, notes=(), why=why)


def what_run_adds(inputs, policy=None):
    """For `utf8env explain`: the Plan `utf8env run` makes for the interpreter `inputs`
    describe, where the launcher adds something to it (3.6, which has neither PEP), else
    None. `policy` is explain's --policy: only the PEP 538 draft changes the coercion."""
    if inputs.version != "3.6" or inputs.platform == "win32":
        return None
    return plan(inputs.environ, inputs.argv0, [inputs.argv0] + list(inputs.args), inputs.locales,
                python="3.6", policy="pep538-draft" if policy == "pep538-draft" else None)


# -- The impure half: find, identify, exec ------------------------------------------------

def plan_command(command, switches, about_to_exec=False):
    """The Plan for `command` in the environment this process was started with (run, env).
    about_to_exec: this process is replaced by the command next, so the locale facts may
    be asked in it rather than in a fork (the compiled launcher has asked already)."""
    from ._environment import codesets as locale_codesets, inherited
    environ = inherited()
    path = find_command(command[0], environ)
    python, script, notes = python_behind(path, environ)
    if python not in (None, "3.6") and switches == Switches():
        # A CPython 3.7+ with nothing asked: it coerces and chooses its UTF-8 mode itself,
        # so plan() would leave the command as it is (tests/test_launch.py holds the two
        # together); nor does the launch wait for the engine to say so.
        return Plan(path=path, argv=tuple(command), environ=environ, messages=(),
                    python=python, utf8_mode=None, bootstrap=False, set_environ={},
                    notes=notes, why="")
    codesets, c_codeset = locale_codesets(environ, here=about_to_exec)
    if python is None:
        launched = plan_any_program(environ, path, command, codesets, switches.policy,
                                    switches.coercion, switches.warning)
    else:
        from ._engine.policy import LocaleFacts
        launched = plan(environ, path, command, LocaleFacts(codesets, c_codeset), python=python,
                        policy=switches.policy, utf8=switches.utf8,
                        coercion_switch=switches.coercion, warning_switch=switches.warning,
                        script=script)
    # utf8env's own interpreter (3.7+) has already printed its locale warnings, from the
    # same environment: the launcher does not print the same line a second time. (Asked
    # only when the plan prints something: it is one more decide().)
    printed = (set(_own_startup_messages(environ, codesets, c_codeset)) if launched.messages
               else set())
    return launched._replace(messages=tuple(m for m in launched.messages if m not in printed),
                             notes=notes + launched.notes)


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


# The descriptor of the pipe the compiled launcher reads the plan from (scripts/launcher.c
# runs `run` in a child and execs the command itself); None: this process execs it.
plan_fd = None


def execute(launch):
    """Replace this process by the planned command: same pid, same file descriptors; or,
    under the compiled launcher, hand it the plan and end. Returns only for a refused
    launch: the exit status."""
    for line in launch.messages:
        try:
            system.write(2, (line + "\n").encode("utf-8", "surrogateescape"))
        except OSError:
            pass        # no stderr (closed): the command runs all the same
    if launch.refusal is not None:
        return launch.refusal
    if plan_fd is not None:
        _hand_over(launch, plan_fd)
    _restore_signals()
    try:
        _exec(launch.path, list(launch.argv), launch.environ)
    except OSError as error:
        raise _exec_error(error, launch.argv[0])


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


def _hand_over(launch, fd):
    """Write the plan for scripts/launcher.c (read_plan there) and end this process: what
    to exec, and the variables to set and unset in the launcher's own environment, which
    it kept byte for byte. Every str here was decoded reversibly (_cli.start), so fsencode
    gives the bytes back."""
    from ._environment import fsencode, inherited
    before = inherited()
    sets = [fsencode(name) + b"=" + fsencode(value) for name, value in launch.environ.items()
            if before.get(name) != value]
    unsets = [fsencode(name) for name in before if name not in launch.environ]
    fields = ([b"exec", fsencode(launch.path), str(len(launch.argv)).encode()]
              + [fsencode(word) for word in launch.argv]
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
    code = ("import posix, sys; sys.path.insert(0, sys.argv[1]); "
            "sys.dont_write_bytecode = bool(posix.environ.get(b'PYTHONDONTWRITEBYTECODE')); "
            "from utf8env._cli import start; start()")
    executable = sys.executable
    printed = " ".join(["python"] + _own_options())
    argv = ([executable, "-I", "-S", "-c", code, folder, "", "", printed, str(len(kept))]
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
    return execute(plan_command(command, switches(args), about_to_exec=True))


def switches(args):
    """The Switches that run's (or env's) parsed options give."""
    if args is None:        # no option given: every switch as declared by default
        return Switches()
    return Switches(utf8=args.utf8, policy=None if args.policy == "default" else args.policy,
                    coercion=args.coercion, warning=args.warning)
