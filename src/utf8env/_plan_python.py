"""What the launcher adds for a CPython child (the Python half of launch.plan): the
child's UTF-8 mode by the 3.7+ rules; for a 3.7+ child, which coerces and picks UTF-8 mode
itself, its own controls for what the switches ask; for 3.6, the bootstrap
(utf8env/_child/bootstrap/sitecustomize.py) that applies what 3.7 would, and the strict
mode, which no release has, for any. Loaded only when the command starts a CPython: the
launch of any other program needs none of it.
"""
from ._engine import cmdline
from ._environment import fsencode, system
from ._engine.policy import Inputs, decide
from ._engine.preconfig import C_LOCALE_NAMES
from ._engine.records import Record, field

# Paths are POSIX paths here: the launcher is the exec() half of PEP 538's main().
_HERE = __file__.rpartition("/")[0]
BOOTSTRAP_DIR = (_HERE if _HERE.startswith("/") else system.getcwd() + "/" + _HERE) + "/_child/bootstrap"
_BOOTSTRAP_VARIABLE = "UTF8ENV_BOOTSTRAP"
_BOOTSTRAP_PYTHONPATH = "UTF8ENV_PYTHONPATH"


class Child(Record):
    """What a CPython child needs from the launcher."""
    mode = field()                  # its UTF-8 mode
    options = field()               # to insert after argv[0]
    bootstrap = field()             # the bootstrap's request ("mode=1 ..."), or None
    refusal = field()               # for 3.6: the StartupError of a UTF-8 mode value 3.7 refuses
    wanted = field(None)            # for 3.6: the Decision 3.7 makes for the same start, where
                                    # 3.7 starts


def child(environ, args, python, locales, utf8):
    """The child's UTF-8 mode by the 3.7+ rules (for 3.6 too: the point of the launcher),
    from the environment before coercion (PEP 540: the POSIX locale turns it on).
    The request --utf8 counts as the first -X utf8 option: CPython lets the first win."""
    request = () if utf8 is None else ("-X", "utf8" if utf8 == "strict" else "utf8=" + utf8)
    version = "3.7" if python == "3.6" else python
    d = decide(Inputs(environ=dict(environ), args=request + tuple(args), version=version,
                      locales=locales))
    if d.startup_error is not None:
        # A 3.7+ child refuses to start by itself. A 3.6 one is refused for it only where
        # 3.7 refuses a UTF-8 mode value (PYTHONUTF8=x, -X utf8=x), which 3.6 would ignore;
        # anything else 3.7 stops on (the locale's codeset without a codec, a codec, the
        # command line) stops 3.6 too, which then says so in its own words and status.
        refused = python == "3.6" and _refused_utf8_value(d)
        return Child(0, (), None, d.startup_error if refused else None)
    mode = "strict" if utf8 == "strict" else d.utf8_mode
    if python == "3.6":
        return Child(mode, (), None, None, wanted=d)
    return Child(mode, tuple(request), "mode=strict" if mode == "strict" else None, None)


def _refused_utf8_value(decision):
    """Whether `decision` stops at preconfig's UTF-8 mode value (locale_rules.utf8_mode, whose
    failure names the option or variable it refused as its source)."""
    source = decision.reasons["startup_error"].source
    return source.startswith(("PYTHONUTF8=", "-X utf8"))


def apply(child, environ, env, changes, notes, path, argv, args, python, locales, script,
          coercion_switch, warning_switch):
    """The child's part of launch.plan, after the coercion the launcher applies itself:
    `env` (the command's environment), `changes` (what the plan sets) and `notes` are
    completed in place. (the file to exec, its argv, whether the bootstrap is injected)."""
    options = list(child.options)
    request = child.bootstrap
    if python != "3.6":
        controls, extra = _native_controls(env, args, python, locales, child, coercion_switch,
                                           warning_switch, notes, bool(changes))
        env.update(controls)
        changes.update(controls)
        options += extra
    else:
        request, _ = _bootstrap_for_36(env, args, locales, child, notes)
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
    return path, argv, bool(request)


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


def _native_controls(env, args, python, locales, child, coercion_switch, warning_switch, notes,
                     launcher_set):
    """(variables, interpreter options) that make a 3.7+ child do what --no-coercion,
    --no-warning and the draft's coercion mean, through its own controls
    (PYTHONCOERCECLOCALE, -X utf8), since it coerces and warns by itself: PEP 538
    "Implementation" (Python/preconfig.c). A pair, not a record: a class costs the
    launcher's start-up more than this whole function. `launcher_set`: the launcher set
    variables in `env` (the draft's coercion, or the variables that named a missing
    locale: _plan._for_missing_locales)."""
    if coercion_switch is not False and warning_switch is not False and not launcher_set:
        # Nothing asked and nothing set: the child starts from the very inputs
        # _plan_python decided on, so each decide() below would give its decision
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
        # Variables the launcher set (the draft's coercion, the missing locales' target)
        # change the locale the child starts in: the UTF-8 mode it would have chosen is
        # given as the first -X utf8.
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
    if wanted is None:
        return None, filesystem         # 3.7 does not start either: nothing to give
    if actual.startup_error is not None and child.mode:
        # 3.6 stops before site, and so the bootstrap, runs: 3.6 fails as it would alone.
        notes.append("Python 3.6 stops at start-up here, before the bootstrap could give it "
                     "UTF-8 mode: %s" % actual.reasons["startup_error"].detail)
        return None, filesystem
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
        return value in C_LOCALE_NAMES or locales.accepts(value)
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
