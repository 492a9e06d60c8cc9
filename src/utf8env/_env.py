"""`utf8env env`: what makes a target (this machine, or a machine or image described by
its environment and locales) start a command as `utf8env run` would start it, written
once for a shell, a Dockerfile, a systemd unit, a crontab or a GitHub Actions step; and
where no variable can do it, what only `run` gives, with the line that starts the
command through it.

Two halves. advise() decides, purely: an environment, locale facts and a command in, an
Advice out. Every variable it offers is checked with the policy engine: the target
started with the variables must get the encodings (stdio, filesystem, open(), the
preferred encoding) that it gets from the launch plan of `run`; what cannot pass that
check is said, never printed as if it worked. render() writes an Advice in one format,
with that format's quoting (_env_formats.py)."""
from ._env_formats import FORMATS, entry_words, render  # noqa: F401 (FORMATS: the command's)
from ._environment import described
from ._errors import UsageError
from ._engine.records import Record, field
from . import _locales as libc_locales, _plan as plan_rules, _run as launch
from ._engine import locale_model
from ._engine.policy import Inputs, decide
from ._engine.profiles import VERSIONS
from ._errors import CommandNotFound
from ._output import write_bytes
from ._own_command import installed_command
from ._plan import without_c_lc_all
from ._run import switches as run_switches


class Target(Record):
    """The command to advise for; the empty command stands for any program."""
    command = field(())         # the words as the user gave them
    path = field(None)          # the file command[0] names
    python = field(None)        # the CPython version it starts ("3.6" ...), None if none
    script = field(None)        # interpreter.PythonCommand of a script (#! line), or None
    notes = field(())           # what identifying it found worth saying


class Advice(Record):
    variables = field(())       # ((name, value), ...) to set, sorted by name
    notes = field(())           # lines that explain, in order
    entry = field(None)         # the words that start the command through `utf8env run`,
                                # when only it gives what the command needs
    nothing = field(None)       # why nothing needs setting; None when something does
    status = field(0)           # 1: `run` would refuse to start the command
    unset = field(())           # names to remove first (--override-lc-all: LC_ALL)


# -- Deciding ---------------------------------------------------------------------------

class _Outcome(Record):
    variables = field()         # {name: value} that make the target start as run starts it
    missing = field()           # [what no variable gives, in words]
    notes = field()             # [the plan's notes, and what the variables need said]
    want = field(None)          # the Decision to compare with (a CPython target)
    args = field(())            # what the interpreter receives after its own name
    refusal = field(None)       # (status, message lines): run refuses to start it
    why = field("")             # the plan's reason for its coercion, in words
    messages = field(())        # what run prints on stderr before exec


def advise(environ, locales, target, switches):
    """The Advice for `target` (a Target) in the environment `environ` with the libc
    `locales` (policy.LocaleFacts), under launch.Switches `switches`. Pure."""
    environ, unset = without_c_lc_all(environ, switches, locales.accepts)
    if target.command:
        advice = _for_command(environ, locales, target, switches)
    else:
        advice = _for_any_program(environ, locales, switches)
    if unset and advice.nothing is not None:
        # Something to do after all: the removal; why nothing more, as a note.
        advice = advice._replace(nothing=None, notes=("nothing more to set: " + advice.nothing,)
                                 + advice.notes)
    return advice._replace(unset=unset)


def _for_command(environ, locales, target, switches):
    out = _settle(environ, locales, target, switches)
    out = out._replace(notes=list(target.notes) + out.notes)
    name = target.command[0]
    if out.refusal is not None:
        status, lines = out.refusal
        return Advice(notes=("`utf8env run` refuses to start %s, as Python 3.7 would (status %d):"
                             % (name, status),) + tuple(line for line in lines if line), status=1)
    # For every command, a CPython 3.7+ too: in UTF-8 mode under LC_ALL=C its own text is
    # UTF-8, but its setlocale(LC_ALL, "") and the programs it starts (`wc -m`) are in C.
    lc_all = _lc_all_advice(environ, locales, switches)
    if out.missing:
        notes = ["only `utf8env run` starts %s as it would: %s"
                 % (name, "; ".join(out.missing))] + out.notes + lc_all
        return Advice(notes=tuple(notes), entry=entry_words(switches, target.command))
    notes = out.notes + ["`utf8env run` also prints on stderr: %s" % line for line in out.messages]
    if switches.utf8 is not None and target.python is None:
        notes.append("--utf8 %s: %s is not a Python: `utf8env run` gives it no UTF-8 mode"
                     % (switches.utf8, name))
    nothing = None
    if not out.variables:
        nothing = _native_why(environ, locales, target, out) if target.python not in (None, "3.6") \
            else out.why or "`utf8env run` changes nothing for it here"
    return Advice(variables=tuple(sorted(out.variables.items())), notes=tuple(notes + lc_all),
                  nothing=nothing)


def _for_any_program(environ, locales, switches):
    """No COMMAND: any program started in the target, CPython 3.6 to 3.15 included. The
    variables are those every target needs (the coercion for all; for the Pythons what
    run gives them), checked for each CPython together, since each inherits them all."""
    plain = _settle(environ, locales, Target(), switches)
    pythons = [(version, _settle(environ, locales, Target(("python" + version,), "python" + version,
                                                          version), switches))
               for version in VERSIONS]
    variables = dict(plain.variables)
    for _, out in pythons:
        if out.refusal is None and not out.missing:
            for name, value in out.variables.items():
                variables.setdefault(name, value)
    failing = []            # (version, what it lacks)
    notes = list(plain.notes)
    for version, out in pythons:
        if out.refusal is not None:
            failing.append((version, "it refuses to start, as Python 3.7 would: %s"
                            % " ".join(line for line in out.refusal[1] if line)))
        elif out.missing:
            failing.append((version, "; ".join(out.missing)))
        else:
            given = decide(Inputs(environ=dict(environ, **variables), args=out.args,
                                  version=version, locales=locales))
            differences = _differences(given, out.want)
            if differences:
                failing.append((version, "; ".join(differences)))
            else:
                notes += [note for note in out.notes if note not in notes and not
                          note.startswith(_INHERITED.partition("%")[0])]
    for versions, lack in _grouped(failing):
        notes.append("Python %s started here needs `utf8env run -- COMMAND` (give COMMAND "
                     "for its line): %s" % (versions, lack))
    if "PYTHONUTF8" in variables and switches.utf8 in ("0", "1"):
        notes.append("PYTHONUTF8 gives UTF-8 mode %s to Python 3.7+ and to the Pythons they "
                     "start (`utf8env run` passes -X utf8=%s, which they do not inherit); "
                     "Python 3.6 ignores it" % (switches.utf8, switches.utf8))
    notes += ["`utf8env run` also prints on stderr: %s" % line for line in plain.messages]
    notes += _lc_all_advice(environ, locales, switches)
    return Advice(variables=tuple(sorted(variables.items())), notes=tuple(notes),
                  nothing=None if variables else plain.why or "`utf8env run` changes nothing here")


def _settle(environ, locales, target, switches):
    """What the launch plan of `run` does for `target`, as variables where they give the
    same start, and what they cannot give otherwise."""
    command = list(target.command) or [""]
    path = target.path or command[0]
    extra = {"script": target.script} if target.script is not None else {}
    plan = plan_rules.plan(environ, path, command, locales, python=target.python,
                       policy=switches.policy, utf8=switches.utf8,
                       coercion_switch=switches.coercion, warning_switch=switches.warning, **extra)
    notes = list(plan.notes)
    if plan.refusal is not None:
        return _Outcome({}, [], notes, refusal=(plan.refusal, plan.messages))
    variables = dict(plan.set_environ)
    missing = []
    removed = sorted(name for name in environ if name not in plan.environ)
    if removed:
        missing.append("it removes %s from the environment" % ", ".join(removed))
    machinery = sorted(name for name, value in plan.environ.items()
                       if environ.get(name) != value and name not in variables)
    args = _interpreter_args(target)
    options = _inserted_options(plan, target)
    python = target.python
    done = dict(why=plan.why, messages=plan.messages, args=args)
    if python is None:
        if machinery or options is None or options:
            missing.append("the changes it makes to the command line or the environment")
        return _Outcome(variables, missing, notes, **done)
    if plan.utf8_mode == "strict":
        missing.append("the UTF-8 Strict mode (PEP 540's draft, which no release has: "
                       "`utf8env run` applies it through a bootstrap)")
        return _Outcome(variables, missing, notes, **done)
    if options is None:
        # 3.6: its non-ASCII -c code travels to the bootstrap in the environment.
        missing.append("a command line that Python 3.6 cannot decode in this locale (`utf8env "
                       "run` hands it to a bootstrap)" if python == "3.6" else
                       "the changes it makes to the command line")
        return _Outcome(variables, missing, notes, **done)
    if python != "3.6":
        if machinery:
            missing.append("the bootstrap it injects (%s)" % ", ".join(machinery))
            return _Outcome(variables, missing, notes, **done)
        want = decide(Inputs(environ=dict(plan.environ), args=tuple(options) + args,
                             version=python, locales=locales))
        if options:
            variable = _as_variable(options)
            if variable is None:
                missing.append("the options %s first on its command line" % " ".join(options))
                return _Outcome(variables, missing, notes, want=want, **done)
            variables = dict(variables, **variable)
            said = [_INHERITED % " ".join(options)]
            return _checked(environ, locales, python, variables, want, missing, notes, done, said)
        return _checked(environ, locales, python, variables, want, missing, notes, done)
    # 3.6: the bootstrap gives the stdio (or the UTF-8 mode) 3.7 has for the same start.
    before = decide(Inputs(environ=dict(environ, **variables), args=args, version="3.6",
                           locales=locales))
    if not plan.bootstrap:
        return _checked(environ, locales, "3.6", variables, before, missing, notes, done)
    request = () if switches.utf8 is None else ("-X", "utf8=" + switches.utf8)
    wanted = decide(Inputs(environ=dict(environ), args=request + args, version="3.7",
                           locales=locales))
    # The bootstrap cannot change the filesystem encoding, fixed before it runs.
    want = wanted._replace(filesystem=before.filesystem)
    said = []
    if wanted.stdout is not None:
        stdio = "%s:%s" % (wanted.stdout.encoding, wanted.stdout.errors)
        if environ.get("PYTHONIOENCODING") != stdio:
            variables = dict(variables, PYTHONIOENCODING=stdio)
            said.append("PYTHONIOENCODING gives Python 3.6 the stdin and stdout that 3.7 has "
                        "here (`utf8env run` gives them through a bootstrap)")
    outcome = _checked(environ, locales, "3.6", variables, want, missing, notes, done, said)
    if outcome.missing and plan.utf8_mode == 1:
        outcome.missing.append("Python 3.6 has no UTF-8 mode of its own: `utf8env run` "
                               "applies it through a bootstrap")
    return outcome


_INHERITED = ("PYTHONUTF8 also reaches the Pythons it starts: `utf8env run` passes %s, which "
              "they do not inherit")


def _checked(environ, locales, version, variables, want, missing, notes, done, said=()):
    """The outcome once the engine has compared the start the variables give with `want`;
    `said`: the notes the variables need, kept only if they pass."""
    given = decide(Inputs(environ=dict(environ, **variables), args=done["args"],
                          version=version, locales=locales))
    missing = missing + _differences(given, want, mode=version != "3.6")
    return _Outcome(variables, missing, notes if missing else notes + list(said), want=want,
                    **done)


def _interpreter_args(target):
    """The command line the interpreter receives after its own name: a script's #!
    options and path before the arguments."""
    if target.script is not None:
        return tuple(target.script.options) + (target.path,) + tuple(target.command[1:])
    return tuple(target.command[1:])


def _inserted_options(plan, target):
    """The interpreter options the plan puts first ([] for none), or None when it changes
    the command line in another way."""
    command = list(target.command) or [""]
    if target.script is not None:
        head = list(target.script.head)
        tail = list(target.script.options) + [target.path] + command[1:]
        if list(plan.argv) == command:
            return []
    else:
        head, tail = command[:1], command[1:]
    argv = list(plan.argv)
    if len(argv) < len(head) + len(tail) or argv[:len(head)] != head \
            or argv[len(argv) - len(tail):] != tail:
        return None
    return argv[len(head):len(argv) - len(tail)]


def _as_variable(options):
    """{"PYTHONUTF8": N} for the -X utf8=N the plan puts first, else None."""
    if len(options) == 2 and options[0] == "-X" and options[1] in ("utf8=0", "utf8=1"):
        return {"PYTHONUTF8": options[1][-1]}
    return None


def _differences(given, want, mode=False):
    """Where the start `given` (variables alone) differs from `want` (through run), in
    words; [] when it is the same. The encodings are compared, and with `mode` the UTF-8
    mode too (3.6 has none; for any program, a Python started in the coerced locale has
    the encodings, not the mode, of one that coerces by itself: neither has more)."""
    if (given.startup_error is None) != (want.startup_error is None):
        return ["it %s" % ("starts" if want.startup_error is None else "refuses to start")]
    out = []
    if mode and given.utf8_mode != want.utf8_mode:
        out.append("UTF-8 mode %s, where variables alone give %s" % (want.utf8_mode, given.utf8_mode))
    for label in ("stdin", "stdout", "stderr", "filesystem", "open"):
        have, need = getattr(given, label), getattr(want, label)
        if _stream(have) != _stream(need):
            out.append("%s %s, where variables alone give %s"
                       % ("open()" if label == "open" else label, _show(need), _show(have)))
    for label in ("preferred_encoding", "locale_encoding"):
        have, need = getattr(given, label), getattr(want, label)
        if _codec(have) != _codec(need):
            out.append("%s %s, where variables alone give %s" % (label, need, have))
    return out


def _stream(stream):
    return None if stream is None else (_codec(stream.encoding), stream.errors)


def _show(stream):
    return "none" if stream is None else "%s/%s" % (stream.encoding, stream.errors)


def _codec(name):
    import codecs
    try:
        return codecs.lookup(name).name if name else name
    except LookupError:
        return name


def _native_why(environ, locales, target, out):
    d = decide(Inputs(environ=dict(environ), args=out.args, version=target.python, locales=locales))
    done = []
    if d.coercion is not None:
        done.append("coerces the C locale")
    if d.utf8_mode == 1 and d.legacy_c_locale:
        done.append("picks UTF-8 mode")
    if done:
        return "Python %s %s by itself" % (target.python, " and ".join(done))
    return "`utf8env run` changes nothing for Python %s here" % target.python


def _lc_all_advice(environ, locales, switches):
    """For an LC_ALL that keeps the legacy C locale: what to do instead of nothing."""
    value = environ.get("LC_ALL")
    if not plan_rules.keeps_c(environ, locales.accepts):
        return []
    without = dict(environ)
    del without["LC_ALL"]
    before = plan_rules.plan(environ, "", [""], locales, policy=switches.policy,
                         coercion_switch=switches.coercion, warning_switch=switches.warning)
    after = plan_rules.plan(without, "", [""], locales, policy=switches.policy,
                        coercion_switch=switches.coercion, warning_switch=switches.warning)
    if before.set_environ or not after.set_environ:
        return []
    return ["LC_ALL=%s wins over LC_CTYPE and LANG, and neither CPython nor `utf8env run` "
            "overrides it unasked: for a UTF-8 locale in every program, remove LC_ALL from the "
            "target's environment (then set %s); --override-lc-all does both"
            % (value, " ".join("%s=%s" % item for item in sorted(after.set_environ.items())))]


def _grouped(failing):
    """[(versions in words, what they lack)], consecutive versions with the same lack
    together: "3.7 to 3.15"."""
    groups = []
    for version, lack in failing:
        if groups and groups[-1][1] == lack:
            groups[-1][0].append(version)
        else:
            groups.append(([version], lack))
    return [(versions[0] if len(versions) == 1 else "%s to %s" % (versions[0], versions[-1]), lack)
            for versions, lack in groups]


def run(args, command):
    """`utf8env env`'s handler: the advice for the target, in the asked format."""
    environ = described(args)
    if args.locales is not None:
        facts = locale_model.modelled(args.locales)
    else:
        facts = libc_locales.facts(environ, here=args.own_process)
    target = _target(command, args.version, environ)
    advice = advise(environ, facts, target, run_switches(args))
    if advice.entry and args.locales is None and (not args.empty_env or args.format == "systemd"):
        # The target is this machine: the utf8env that runs now, by its absolute path (a
        # crontab's PATH is /usr/bin:/bin; a venv's utf8env is on no PATH but the venv's).
        # A unit is this machine's too when its libc was asked here (no --locales): with
        # --empty-env, its own environment is described; and systemd finds a bare
        # ExecStart= name only on its own search path, which `systemd-analyze verify`
        # checks. Described by --locales, the target's path of utf8env is not known: the
        # bare name, and the one line render() writes about it.
        advice = advice._replace(entry=list(installed_command()) + list(advice.entry[1:]))
    write_bytes(render(args.format, advice))
    return advice.status


def _target(command, version, environ):
    """The Target: COMMAND as `run` would find and identify it in `environ`, or
    with --version the CPython it starts, neither looked up nor run."""
    if not command:
        if version is not None:
            raise UsageError("--version %s: give the COMMAND that starts it" % version)
        return Target()
    if version is not None:
        return Target(tuple(command), command[0], version)
    try:
        path = launch.find_command(command[0], environ)
    except CommandNotFound as error:
        raise CommandNotFound("%s here (for a command of another machine or image, give "
                              "--version X.Y if it starts a CPython)" % error)
    python, script, notes = launch.python_behind(path, environ)
    return Target(tuple(command), path, python, script, tuple(notes))
