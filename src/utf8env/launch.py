"""The launcher: plan (pure) what PEP 538's C-level main() and PEP 540 would do for a
command, then exec it.

For any command the plan coerces the legacy C locale (the exported variables reach the
command and all its children). For a CPython child it adds only what that interpreter
lacks: a 3.7+ interpreter coerces and picks UTF-8 mode itself, so the plan leaves it
alone unless asked for more (--utf8, a draft policy); 3.6 gets the coercion from the
launcher and UTF-8 mode from a bootstrap (utf8env/_child/bootstrap/sitecustomize.py); the
strict mode, which no release has, always comes from the bootstrap.
"""
from . import cmdline
from .environment import fsencode, system
from .errors import CommandNotFound, InterpreterError, LauncherError, NotExecutable
from .policy import Inputs, decide
from .records import Record, field

# Paths are POSIX paths here: the launcher is the exec() half of PEP 538's main().
_HERE = __file__.rpartition("/")[0]
BOOTSTRAP_DIR = (_HERE if _HERE.startswith("/") else system.getcwd() + "/" + _HERE) + "/_child/bootstrap"
BOOTSTRAP_VARIABLE = "UTF8ENV_BOOTSTRAP"
BOOTSTRAP_PYTHONPATH = "UTF8ENV_PYTHONPATH"
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
         coercion_switch=None, warning_switch=None):
    """The launch of `argv` (the file `path`) under `environ`; `python` is the command's
    CPython version when it is one. Pure: nothing is read from the process."""
    argv = list(argv)
    messages, notes, changes = [], [], {}
    options = tuple(argv[1:]) if python else ()
    child = _python_child(environ, options, python, locales, utf8, notes) if python else None
    if child and child.refusal:
        # 3.6 would start regardless; 3.7 refuses, with its own words and status.
        return Plan(path=path, argv=tuple(argv), environ=dict(environ),
                    messages=tuple(child.refusal.message.split("\n")), python=python,
                    utf8_mode=0, bootstrap=False, set_environ={}, notes=tuple(notes),
                    refusal=child.refusal.exit_code)

    why = ""
    native = python is not None and python != "3.6"
    if not native or policy == "pep538-draft" or coercion_switch is not None or warning_switch is not None:
        coercion = decide(Inputs(environ=dict(environ), args=options, version=_COERCION_VERSION,
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
    argv[1:1] = child.options
    request, filesystem = child.bootstrap, None
    if python == "3.6":
        request, filesystem = _bootstrap_for_36(env, options, locales, child, notes)
    if request:
        env.update(bootstrap_environment(environ, request))
        if child.mode and filesystem not in (None, "utf-8"):
            # UTF-8 mode decodes the command line as UTF-8; this 3.6 would not.
            argv, passed = _command_line_through_bootstrap(argv)
            env.update(passed)
    return Plan(path=path, argv=tuple(argv), environ=env, messages=tuple(messages),
                python=python, utf8_mode=child.mode, bootstrap=bool(request), set_environ=changes,
                notes=tuple(notes), why=why)


def _python_child(environ, options, python, locales, utf8, notes):
    """The child's UTF-8 mode by the 3.7+ rules (for 3.6 too: the point of the launcher),
    from the environment before coercion (PEP 540: the POSIX locale turns it on).
    The request --utf8 counts as the first -X utf8 option: CPython lets the first win."""
    request = () if utf8 is None else ("-X", "utf8" if utf8 == "strict" else "utf8=" + utf8)
    version = "3.7" if python == "3.6" else python
    d = decide(Inputs(environ=dict(environ), args=request + tuple(options), version=version,
                      locales=locales))
    if d.startup_error is not None:
        # A 3.7+ child refuses to start by itself; a 3.6 one is refused for it.
        return _Child(0, (), None, d.startup_error if python == "3.6" else None)
    mode = "strict" if utf8 == "strict" else d.utf8_mode
    if python == "3.6":
        return _Child(mode, (), None, None, wanted=d)
    return _Child(mode, tuple(request), "mode=strict" if mode == "strict" else None, None)


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
_RUN_MAIN = "__import__('_utf8env_bootstrap').run_main()"
BOOTSTRAP_ARGV = "UTF8ENV_ARGV"


def _command_line_through_bootstrap(argv):
    """In a locale that cannot decode it, 3.6 decodes its command line as ASCII before any
    bootstrap runs ("Unable to decode the command from the command line"), where UTF-8
    mode decodes it as UTF-8 (PEP 540). So the part after the interpreter options travels
    as bytes in the environment, and the bootstrap runs it (-c, -m or a script) with a
    UTF-8 sys.argv. An interactive session or `-` (stdin) is left as it is."""
    rest = cmdline.parse(argv[1:], (3, 6)).rest
    if not rest or rest[0] == "-":
        return argv, {}
    head = argv[:len(argv) - len(rest)]
    words = " ".join(fsencode(arg).hex() or "-" for arg in rest)
    return head + ["-c", _RUN_MAIN], {BOOTSTRAP_ARGV: words}


def bootstrap_environment(environ, request):
    """The variables that make a Python child run utf8env/_child/bootstrap/sitecustomize.py
    with `request` ("mode=1", "mode=strict", "mode=0 stdio_errors=surrogateescape"; its
    docstring is the other half of this protocol)."""
    original = environ.get("PYTHONPATH")
    changes = {
        "PYTHONPATH": BOOTSTRAP_DIR + (":" + original if original else ""),
        BOOTSTRAP_VARIABLE: request,
    }
    if original is not None:
        changes[BOOTSTRAP_PYTHONPATH] = original
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
    python = None
    if looks_like_python(path):
        from .interpreter import identify_cached
        try:
            python = identify_cached(path, environ).version
        except InterpreterError as error:
            if not about_to_exec:
                raise
            raise LauncherError(str(error))     # run's own failure: 125, never the command's 2
    facts = locales.probe(environ, here=about_to_exec)
    launched = plan(environ, path, command, facts, python=python, policy=switches.policy,
                    utf8=switches.utf8, coercion_switch=switches.coercion,
                    warning_switch=switches.warning)
    # utf8env's own interpreter (3.7+) has already printed its locale warnings, from the
    # same environment: the launcher does not print the same line a second time.
    printed = set(_own_startup_messages(environ, facts))
    return launched._replace(messages=tuple(m for m in launched.messages if m not in printed))


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
        if _file_type(candidate) == _REGULAR:
            if system.access(candidate, system.X_OK):
                return candidate
            seen_not_executable = seen_not_executable or candidate
    if seen_not_executable:
        raise NotExecutable("command %r: %s is not executable" % (name, seen_not_executable))
    if "/" in name and _file_type(name) == _DIRECTORY:
        raise NotExecutable("command %r: is a directory" % name)
    raise CommandNotFound("command %r: not found%s" % (
        name, "" if "/" in name else " on PATH"))


_DEFAULT_PATH = "/bin:/usr/bin"     # os.defpath
# The file type bits of st_mode, as Lib/stat.py defines them for every platform.
_TYPE_MASK, _REGULAR, _DIRECTORY, _SYMLINK = 0o170000, 0o100000, 0o040000, 0o120000


def _file_type(path, follow=True):
    try:
        mode = (system.stat if follow else system.lstat)(path).st_mode
    except (OSError, ValueError):
        return None
    return mode & _TYPE_MASK


def _join(folder, name):
    return folder + name if folder.endswith("/") else folder + "/" + name


def looks_like_python(path):
    """Only files named like a CPython are ever run to ask their version: running an
    arbitrary command with -c to find out would be unsafe. A symbolic link (python3 ->
    python3.11) counts by the name of the file it leads to."""
    names = [path.rpartition("/")[2]]
    if _file_type(path, follow=False) == _SYMLINK:
        import os
        names.append(os.path.basename(os.path.realpath(path)))
    for name in names:
        if name.startswith("python") and name[6:].replace(".", "").rstrip("mdu").isdigit() or name == "python":
            return True
    return False


def execute(launch):
    """Replace this process by the planned command: same pid, same file descriptors.
    Returns only for a refused launch: the exit status."""
    for line in launch.messages:
        system.write(2, (line + "\n").encode("utf-8", "surrogateescape"))
    if launch.refusal is not None:
        return launch.refusal
    try:
        system.execve(launch.path, list(launch.argv), launch.environ)
    except PermissionError:
        raise NotExecutable("command %r: permission denied" % launch.argv[0])
    except OSError as error:
        raise NotExecutable("command %r: cannot be executed (%s)" % (launch.argv[0], error.strerror))
