"""The launcher: plan (pure) what PEP 538's C-level main() and PEP 540 would do for a
command, then exec it.

For any command the plan coerces the legacy C locale (the exported variables reach the
command and all its children). For a CPython child it adds only what that interpreter
lacks: a 3.7+ interpreter coerces and picks UTF-8 mode itself, so the plan leaves it
alone unless asked for more (--utf8, a draft policy); 3.6 gets the coercion from the
launcher and UTF-8 mode from a bootstrap (utf8env/_child/bootstrap/sitecustomize.py); the
strict mode, which no release has, always comes from the bootstrap.
"""
from . import cmdline, errors      # errors.X where raised: most are made on first use
from .environment import final_name, fsencode, system
from .policy import Inputs, decide
from .records import Record, field

# Paths are POSIX paths here: the launcher is the exec() half of PEP 538's main().
_HERE = __file__.rpartition("/")[0]
BOOTSTRAP_DIR = (_HERE if _HERE.startswith("/") else system.getcwd() + "/" + _HERE) + "/_child/bootstrap"
_BOOTSTRAP_VARIABLE = "UTF8ENV_BOOTSTRAP"
_BOOTSTRAP_PYTHONPATH = "UTF8ENV_PYTHONPATH"
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
    utf8_mode = field()         # the mode the Python child runs in (0, 1, "strict"), None if not Python
    bootstrap = field()         # the bootstrap is injected
    set_environ = field()       # what the plan sets in the environment (for `utf8env env`)
    notes = field()             # what cannot be applied, in words
    refusal = field(None)       # exit status when, as 3.7 would, the launch is refused
    why = field("")             # why the coercion happened or not, in words


class _Child(Record):
    """What a CPython child needs from the launcher."""
    mode = field()                  # its UTF-8 mode
    options = field()               # to insert after argv[0]
    bootstrap = field()             # the bootstrap's request ("mode=1 ..."), or None
    refusal = field()               # a StartupError 3.7 would stop with, for 3.6
    wanted = field(None)            # for 3.6: the Decision 3.7 makes for the same start


def plan(environ, path, argv, locales, python=None, policy=None, utf8=None,
         coercion_switch=None, warning_switch=None, script=None):
    """The launch of `argv` (the file `path`) under `environ`; `python` is the version of
    the CPython the command starts, if it starts one: the command itself, or for a script
    (`script`, an interpreter.PythonCommand) the interpreter of its #! line. Pure:
    nothing is read from the process."""
    argv = list(argv)
    messages, notes, changes = [], [], {}
    # The command line the interpreter itself receives after its own name.
    args = ((tuple(script.options) + (path,) + tuple(argv[1:])) if script else tuple(argv[1:])) \
        if python else ()
    child = _python_child(environ, args, python, locales, utf8) if python else None
    if child and child.refusal:
        # 3.6 would start regardless; 3.7 refuses, with its own words and status.
        return Plan(path=path, argv=tuple(argv), environ=dict(environ),
                    messages=tuple(child.refusal.message.split("\n")), python=python,
                    utf8_mode=0, bootstrap=False, set_environ={}, notes=tuple(notes),
                    refusal=child.refusal.exit_code)

    why = ""
    native = python is not None and python != "3.6"
    if not native or policy == "pep538-draft":
        # The launcher coerces for what cannot (3.6, any other program), and for the draft,
        # which no release implements.
        coercion = decide(Inputs(environ=dict(environ), args=args, version=_COERCION_VERSION,
                                 locales=locales, policy=policy if policy == "pep538-draft" else None,
                                 coercion_switch=coercion_switch, warning_switch=warning_switch))
        if coercion.startup_error is None:
            messages += [line for line in (coercion.coercion_warning, coercion.c_locale_warning) if line]
            if coercion.coercion:
                changes.update(coercion.coercion.environ)
            why = coercion.reasons["coercion"].detail
    env = dict(environ, **changes)
    if child is None:
        return Plan(path=path, argv=tuple(argv), environ=env, messages=tuple(messages),
                    python=None, utf8_mode=None, bootstrap=False, set_environ=changes, notes=(),
                    why=why)
    options = list(child.options)
    request, filesystem = child.bootstrap, None
    if native:
        controls, extra = _native_controls(env, args, python, locales, child, coercion_switch,
                                           warning_switch, notes, bool(changes))
        env.update(controls)
        changes.update(controls)
        options += extra
    else:
        request, filesystem = _bootstrap_for_36(env, args, locales, child, notes)
    if request and ":" in BOOTSTRAP_DIR:
        # PYTHONPATH splits at colons: such a folder cannot be put on it, and a part of
        # it would be a folder the child imports from.
        notes.append("utf8env is installed in %r, whose colon PYTHONPATH cannot carry: the "
                     "bootstrap is not injected, the child runs without %s"
                     % (BOOTSTRAP_DIR, "UTF-8 mode" if child.mode else "the surrogateescape of PEP 538"))
        request = None
    if request:
        env.update(bootstrap_environment(environ, request))
    path, argv = _with_options(path, argv, script, options)
    if (request and script is None and _wants_utf8_argv(child, locales)
            and not _decodes_argv_as_utf8(env, locales)):
        # 3.7 decodes a -c command as UTF-8 here (UTF-8 mode, or its LC_CTYPE); this 3.6
        # would refuse it.
        argv, passed = _code_through_bootstrap(argv)
        env.update(passed)
    return Plan(path=path, argv=tuple(argv), environ=env, messages=tuple(messages),
                python=python, utf8_mode=child.mode, bootstrap=bool(request), set_environ=changes,
                notes=tuple(notes), why=why)


def _with_options(path, argv, script, options):
    """(the file to exec, its argv) with the interpreter options `options` put first, where
    CPython lets the first -X utf8 win. A script's interpreter is started as the kernel
    starts it for a #! line (interpreter, its #! argument, the script's path, the
    arguments), with the options added: nothing else changes."""
    if not options:
        return path, argv
    if script is None:
        return path, argv[:1] + list(options) + argv[1:]
    head = list(script.head)
    return head[0], head + list(options) + list(script.options) + [path] + argv[1:]


def _python_child(environ, args, python, locales, utf8):
    """The child's UTF-8 mode by the 3.7+ rules (for 3.6 too: the point of the launcher),
    from the environment before coercion (PEP 540: the POSIX locale turns it on).
    The request --utf8 counts as the first -X utf8 option: CPython lets the first win."""
    request = () if utf8 is None else ("-X", "utf8" if utf8 == "strict" else "utf8=" + utf8)
    version = "3.7" if python == "3.6" else python
    d = decide(Inputs(environ=dict(environ), args=request + tuple(args), version=version,
                      locales=locales))
    if d.startup_error is not None:
        # A 3.7+ child refuses to start by itself; a 3.6 one is refused for it.
        return _Child(0, (), None, d.startup_error if python == "3.6" else None)
    mode = "strict" if utf8 == "strict" else d.utf8_mode
    if python == "3.6":
        return _Child(mode, (), None, None, wanted=d)
    return _Child(mode, tuple(request), "mode=strict" if mode == "strict" else None, None)


def _native_controls(env, args, python, locales, child, coercion_switch, warning_switch, notes,
                     launcher_set):
    """(variables, interpreter options) that make a 3.7+ child do what --no-coercion,
    --no-warning and the draft's coercion mean, through its own controls
    (PYTHONCOERCECLOCALE, -X utf8), since it coerces and warns by itself: PEP 538
    "Implementation" (Python/preconfig.c). A pair, not a record: a class costs the
    launcher's start-up more than this whole function. `launcher_set`: the launcher set
    variables in `env` (the draft's coercion)."""
    if coercion_switch is not False and warning_switch is not False and not launcher_set:
        # Nothing asked and nothing set: the child starts from the very inputs
        # _python_child decided on, so each decide() below would give its decision
        # again (no variable to set, the same UTF-8 mode): not asked, two fewer.
        return {}, ()
    line = cmdline.parse(list(args), tuple(int(part) for part in python.split(".")))
    environ, options = {}, []
    own = decide(Inputs(environ=env, args=tuple(args), version=python, locales=locales))
    if own.startup_error is None:
        wants_off = coercion_switch is False and own.coercion is not None
        wants_quiet = warning_switch is False and own.stderr_messages
        if (wants_off or wants_quiet) and line.ignore_environment:
            notes.append("-E/-I: this Python reads no PYTHONCOERCECLOCALE, so %s cannot be "
                         "passed on" % ("--no-coercion" if wants_off else "--no-warning"))
        elif wants_off:
            environ["PYTHONCOERCECLOCALE"] = "0"        # "0": no coercion, no warning
        elif wants_quiet:
            environ["PYTHONCOERCECLOCALE"] = "1"        # coercion as usual, never "warn"
        # Variables the launcher set (the draft's coercion) change the locale the child
        # starts in: the UTF-8 mode it would have chosen is given as the first -X utf8.
        after = decide(Inputs(environ=dict(env, **environ), args=child.options + tuple(args),
                              version=python, locales=locales))
        if after.startup_error is None and child.mode in (0, 1) and after.utf8_mode != child.mode:
            options += ["-X", "utf8=%d" % child.mode]
    return environ, tuple(options)


def _bootstrap_for_36(env, options, locales, child, notes):
    """(the bootstrap's request that makes this 3.6 start as 3.7 would, or None when 3.6
    already does; the filesystem encoding this 3.6 will have)."""
    wanted = child.wanted
    actual = decide(Inputs(environ=env, args=tuple(options), version="3.6", locales=locales))
    filesystem = actual.filesystem.encoding if actual.filesystem else None
    if child.mode:
        request = "mode=%s" % child.mode
    elif actual.stdout and actual.stdout.errors != wanted.stdout.errors:
        # PEP 538: 3.7 gives the C locale's surrogateescape to the coercion targets too.
        request = "mode=0 stdio_errors=%s" % wanted.stdout.errors
    else:
        return None, filesystem
    line = cmdline.parse(list(options), (3, 6))
    if line.ignore_environment or line.no_site:
        notes.append("%s: Python 3.6 then reads no PYTHONPATH or sitecustomize, so the "
                     "bootstrap cannot be injected; the child runs without %s"
                     % ("-E/-I" if line.ignore_environment else "-S",
                        "UTF-8 mode" if child.mode else "the surrogateescape of PEP 538"))
        return None, filesystem
    if child.mode and filesystem != "utf-8":
        notes.append("sys.getfilesystemencoding() stays %s: Python 3.6 fixes it at start-up "
                     "from the locale (LC_CTYPE %s), and no UTF-8 locale could be set"
                     % (filesystem, actual.lc_ctype))
    return request, filesystem


# The -c command a rewritten 3.6 command line runs: it binds no name in __main__.
_RUN_COMMAND = "__import__('_utf8env_bootstrap').run_command()"
_BOOTSTRAP_CODE = "UTF8ENV_CODE"


# The categories setlocale(LC_ALL, "") sets besides LC_CTYPE, each from LC_ALL, its own
# variable or LANG (glibc locale/setlocale.c): one missing locale and the call fails whole.
_OTHER_CATEGORIES = ("LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY", "LC_MESSAGES",
                     "LC_PAPER", "LC_NAME", "LC_ADDRESS", "LC_TELEPHONE", "LC_MEASUREMENT",
                     "LC_IDENTIFICATION")


def _decodes_argv_as_utf8(env, locales):
    """Whether 3.6 decodes its command line as UTF-8 in `env`. Its main() decodes argv after
    setlocale(LC_ALL, "") (Programs/python.c, 3.6), which fails, leaving the C locale and
    ASCII, when any category names a locale the libc lacks: LC_CTYPE=C.UTF-8 from the
    coercion is not enough while LANG=en_US.UTF-8 is missing. (Python itself later sets
    LC_CTYPE alone, so its stdio and filesystem encodings are UTF-8 all the same.)"""
    def usable(value):
        return value in ("C", "POSIX") or locales.accepts(value)
    lc_all = env.get("LC_ALL")
    if lc_all:
        return usable(lc_all) and _is_utf8(locales.codesets.get(lc_all, ""))
    lang = env.get("LANG")
    for category in _OTHER_CATEGORIES:
        value = env.get(category) or lang
        if value and not usable(value):
            return False
    lc_ctype = env.get("LC_CTYPE") or lang
    return bool(lc_ctype) and usable(lc_ctype) and _is_utf8(locales.codesets.get(lc_ctype, ""))


def _wants_utf8_argv(child, locales):
    """Whether the 3.7 that a 3.6 child follows decodes its command line as UTF-8."""
    if child.mode:
        return True
    lc_ctype = child.wanted.lc_ctype if child.wanted else None
    return bool(lc_ctype) and _is_utf8(locales.codesets.get(lc_ctype, ""))


def _is_utf8(codeset):
    return codeset.upper().replace("-", "") == "UTF8"


def _code_through_bootstrap(argv):
    """3.6 decodes `-c CODE` with the locale's ASCII before any bootstrap runs, and refuses
    non-ASCII code ("Unable to decode the command from the command line"), where UTF-8
    mode decodes it as UTF-8 (PEP 540). So such code travels as bytes in the environment
    and the bootstrap runs it in __main__. Nothing else is rewritten: the arguments, a
    script or a -m module stay as 3.6 decodes them, consistent with the filesystem
    encoding it keeps (os.fsencode(sys.argv[1]) gives back the bytes given)."""
    line = cmdline.parse(argv[1:], (3, 6))
    if line.command_at is None or line.rest[0] != "-c" or _is_ascii(line.rest[1]):
        return argv, {}
    index, position = line.command_at
    index += 1                                  # argv[0] was not parsed
    word = argv[index]
    bundled = [word[:position]] if position > 1 else []     # -Oc: -O stays
    after = argv[index + (1 if position + 1 < len(word) else 2):]   # -cCODE or -c CODE
    return (argv[:index] + bundled + ["-c", _RUN_COMMAND] + after,
            {_BOOTSTRAP_CODE: fsencode(line.rest[1]).hex()})


def _is_ascii(text):
    return all(ord(letter) < 128 for letter in text)


def bootstrap_environment(environ, request):
    """The variables that make a Python child run utf8env/_child/bootstrap/sitecustomize.py
    with `request` ("mode=1", "mode=strict", "mode=0 stdio_errors=surrogateescape"; its
    docstring is the other half of this protocol)."""
    original = environ.get("PYTHONPATH")
    changes = {
        "PYTHONPATH": BOOTSTRAP_DIR + (":" + original if original else ""),
        _BOOTSTRAP_VARIABLE: request,
    }
    if original is not None:
        changes[_BOOTSTRAP_PYTHONPATH] = original
    return changes


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
    be asked in it rather than in a fork (the cheapest truthful way: about 2 ms less)."""
    from . import locales
    from .environment import inherited
    environ = inherited()
    path = find_command(command[0], environ)
    python, script, notes = python_behind(path, environ)
    facts = locales.probe(environ, here=about_to_exec)
    launched = plan(environ, path, command, facts, python=python, policy=switches.policy,
                    utf8=switches.utf8, coercion_switch=switches.coercion,
                    warning_switch=switches.warning, script=script)
    # utf8env's own interpreter (3.7+) has already printed its locale warnings, from the
    # same environment: the launcher does not print the same line a second time. (Asked
    # only when the plan prints something: it is one more decide().)
    printed = set(_own_startup_messages(environ, facts)) if launched.messages else set()
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
    from .interpreter import identify_cached, python_command
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
    from .profiles import VERSIONS
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
    binary) costs the launcher neither that module nor its records (0.8M instructions,
    3.11). tests/test_launch.py holds this to python_command."""
    name = path.rpartition("/")[2]
    try:
        if not name.startswith("python") and system.lstat(path).st_mode & _TYPE_MASK == _SYMLINK:
            name = final_name(path)
        if name.startswith("python"):
            return True
        if system.stat(path).st_mode & _TYPE_MASK != _REGULAR:
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


def _own_startup_messages(environ, facts):
    """The lines this very interpreter printed at start-up, by decide() on its own inputs."""
    import sys
    from .profiles import VERSIONS
    version = "%d.%d" % sys.version_info[:2]
    if version not in VERSIONS:
        return ()
    options = ["-I"] if sys.flags.isolated else ["-E"] if sys.flags.ignore_environment else []
    utf8 = getattr(sys, "_xoptions", {}).get("utf8")
    if utf8 is not None:
        options += ["-X", "utf8" if utf8 is True else "utf8=%s" % utf8]
    own = decide(Inputs(environ=environ, args=tuple(options), version=version, locales=facts))
    return own.stderr_messages



def find_command(name, environ):
    """The file `name` names, searched on the target's PATH as a shell would."""
    if "/" in name:
        candidates = [name]
    else:
        search = environ.get("PATH", _DEFAULT_PATH).split(":")
        candidates = [_join(folder or ".", name) for folder in search]
    seen_not_executable = None
    for candidate in candidates:
        if _file_type(candidate) not in (None, _DIRECTORY):     # a device too, as a shell does
            if system.access(candidate, system.X_OK):
                return candidate
            seen_not_executable = seen_not_executable or candidate
    if seen_not_executable:
        raise errors.NotExecutable("command %r: %s is not executable"
                                   % (name, seen_not_executable))
    if "/" in name and _file_type(name) == _DIRECTORY:
        raise errors.NotExecutable("command %r: is a directory" % name)
    raise errors.CommandNotFound("command %r: not found%s" % (
        name, "" if "/" in name else " on PATH"))


_DEFAULT_PATH = "/bin:/usr/bin"     # os.defpath
# The file type bits of st_mode, as Lib/stat.py defines them for every platform.
_TYPE_MASK, _REGULAR, _DIRECTORY, _SYMLINK = 0o170000, 0o100000, 0o040000, 0o120000


def _file_type(path):
    try:
        mode = system.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return mode & _TYPE_MASK


def _join(folder, name):
    return folder + name if folder.endswith("/") else folder + "/" + name


def execute(launch):
    """Replace this process by the planned command: same pid, same file descriptors.
    Returns only for a refused launch: the exit status."""
    for line in launch.messages:
        try:
            system.write(2, (line + "\n").encode("utf-8", "surrogateescape"))
        except OSError:
            pass        # no stderr (closed): the command runs all the same
    if launch.refusal is not None:
        return launch.refusal
    _restore_signals()
    try:
        system.execve(launch.path, list(launch.argv), launch.environ)
    except PermissionError:
        raise errors.NotExecutable("command %r: permission denied" % launch.argv[0])
    except OSError as error:
        raise errors.NotExecutable("command %r: cannot be executed (%s)"
                                   % (launch.argv[0], error.strerror))


def _restore_signals():
    """CPython ignores SIGPIPE and SIGXFSZ for itself at start-up (Python/pylifecycle.c
    signal_install_handlers), and an exec keeps an ignored signal ignored: without this,
    `utf8env run -- yes | head -1` would print "Broken pipe". Each gets back the
    disposition this process received, as the stub read it, else the default that a
    shell's command has. Handlers need nothing: exec resets them to the default itself;
    the signal mask CPython leaves alone."""
    import _signal
    from .environment import was_ignored_at_start
    for name in ("SIGPIPE", "SIGXFSZ"):
        number = getattr(_signal, name, None)
        if number is not None:
            ignored = was_ignored_at_start(number)
            _signal.signal(number, _signal.SIG_IGN if ignored else _signal.SIG_DFL)
