"""The plan of a launch (pure): what PEP 538's C-level main() and PEP 540 would do for a
command, which `utf8env run` then execs (_run.py) and `utf8env env` writes out (_env.py).

For any command the plan coerces the legacy C locale (the exported variables reach the
command and all its children). For a CPython child it adds only what that interpreter
lacks: a 3.7+ interpreter coerces and picks UTF-8 mode itself, so the plan leaves it
alone unless asked for more (--utf8, a draft policy) or unless a locale variable names a
locale the libc lacks, which its own coercion leaves in place for its setlocale(LC_ALL,
"") and its children (_for_missing_locales); 3.6 gets the coercion from the
launcher and UTF-8 mode from a bootstrap (utf8env/_child/bootstrap/sitecustomize.py); the
strict mode, which no release has, always comes from the bootstrap. What a CPython child
gets is python_child.py's, loaded only for one.
"""
from ._engine.records import Record, field
# Not here: the engine's policy.py, which a program that is not Python does not need
# (plan_any_program).

# The rules of the coercion the launcher applies itself: CPython 3.7+ as shipped (every
# 3.7-3.15 coerces alike), or the PEP 538 draft.
_COERCION_VERSION = "3.7"


class Switches(Record):
    """What the user asked of `run` or `env` beyond the defaults."""
    utf8 = field(None)          # "0", "1", "strict": the child's UTF-8 mode; None: its own choice
    policy = field(None)        # "pep538-draft" for the draft's coercion; None: 3.7+ as shipped
    coercion = field(None)      # False: --no-coercion
    warning = field(None)       # False: --no-warning
    override_lc_all = field(None)   # True: --override-lc-all


def keeps_c(environ, accepts):
    """Whether a non-empty LC_ALL in `environ` keeps the legacy C locale: it names C or
    POSIX, or a locale the libc lacks (`accepts(name)` false), which leaves C."""
    from ._engine.preconfig import C_LOCALE_NAMES
    value = environ.get("LC_ALL")
    return bool(value) and (value in C_LOCALE_NAMES or not accepts(value))


def without_c_lc_all(environ, switches, accepts):
    """--override-lc-all: (`environ` without an LC_ALL that keeps the legacy C locale, the
    names so removed). Unasked, neither CPython nor utf8env overrides a non-empty LC_ALL
    (PEP 538: an explicit choice); asked, run and env remove that one, and leave any other
    value (a UTF-8 or Latin-1 locale, say) as it is."""
    if switches.override_lc_all and keeps_c(environ, accepts):
        return {name: value for name, value in environ.items() if name != "LC_ALL"}, ("LC_ALL",)
    return environ, ()


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
    from . import _plan_python as python_child      # a CPython's part: no other program needs it
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
            why = coercion.reasons["coercion"].detail
            if coercion.coercion:
                changes.update(coercion.coercion.environ)
                if python == "3.6":
                    # 3.6 decodes its command line after setlocale(LC_ALL, ""), as a C
                    # program does: the whole locale must load (preconfig.whole_locale).
                    from ._engine.preconfig import whole_locale
                    whole, whole_why = whole_locale(dict(environ, **changes), locales.accepts,
                                                    coercion.coercion.target)
                    changes.update(whole)
                    why = "; ".join(part for part in (why, whole_why) if part)
    else:
        changes, messages, why = _for_missing_locales(environ, args, python, locales,
                                                      coercion_switch, warning_switch)
    env = dict(environ, **changes)
    path, argv, bootstrap = python_child.apply(
        child, environ, env, changes, notes, path, argv, args, python, locales, script,
        coercion_switch, warning_switch)
    return Plan(path=path, argv=tuple(argv), environ=env, messages=tuple(messages),
                python=python, utf8_mode=child.mode, bootstrap=bootstrap, set_environ=changes,
                notes=tuple(notes), why=why)


def _for_missing_locales(environ, args, python, locales, coercion_switch, warning_switch):
    """What a CPython 3.7+ gets from the launcher where a locale variable names a locale
    the libc lacks (LANG=en_US.UTF-8 without the locales package): ({variable: value},
    the lines printed, why in words); nothing elsewhere, since it coerces by itself. Its
    coercion exports LC_CTYPE alone, so its own setlocale(LC_ALL, "") would fail and its
    children would stay in the C locale: the launcher gives it what any program gets
    (preconfig.for_any_program): the coercion it would make, and whole_locale() for the
    variables that name a missing locale, with the warning it would have printed. The
    UTF-8 mode that the legacy C locale gave it is given back as -X utf8=1
    (_plan_python._native_controls), so that it starts as it would have."""
    from ._engine.policy import Inputs, decide
    from ._engine.preconfig import whole_locale
    own = decide(Inputs(environ=dict(environ), args=args, version=python, locales=locales,
                        coercion_switch=coercion_switch, warning_switch=warning_switch))
    if own.startup_error is not None or own.coercion is None:
        return {}, [], ""
    coerced = dict(own.coercion.environ)
    whole, whole_why = whole_locale(dict(environ, **coerced), locales.accepts,
                                    own.coercion.target)
    if not whole:
        return {}, [], ""
    return (dict(coerced, **whole), [own.coercion_warning] if own.coercion_warning else [],
            "%s; %s" % (own.reasons["coercion"].detail, whole_why))


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
