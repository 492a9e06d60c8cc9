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
with that format's quoting, each rule citing the parser it follows (tests run the real
parsers where this machine has them). A value a format cannot carry is refused with a
UsageError naming the value, never written approximately."""
from ._environment import described, fsencode
from ._errors import UsageError
from ._engine.records import Record, field

FORMATS = ("sh", "fish", "dockerfile", "systemd", "crontab", "github-actions")
LAUNCHER = "utf8env"            # for another machine or image: found on the target's PATH


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
    from ._plan import without_c_lc_all
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
    from ._engine.profiles import VERSIONS
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
            from ._engine.policy import Inputs, decide
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
    from . import _plan as launch
    from ._engine.policy import Inputs, decide
    command = list(target.command) or [""]
    path = target.path or command[0]
    extra = {"script": target.script} if target.script is not None else {}
    plan = launch.plan(environ, path, command, locales, python=target.python,
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
    from ._engine.policy import Inputs, decide
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
    from ._engine.policy import Inputs, decide
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
    from . import _plan as launch
    value = environ.get("LC_ALL")
    if not launch.keeps_c(environ, locales.accepts):
        return []
    without = dict(environ)
    del without["LC_ALL"]
    before = launch.plan(environ, "", [""], locales, policy=switches.policy,
                         coercion_switch=switches.coercion, warning_switch=switches.warning)
    after = launch.plan(without, "", [""], locales, policy=switches.policy,
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


def entry_words(switches, command):
    """The words that start `command` through `utf8env run` with the same switches."""
    words = [LAUNCHER, "run"]
    if switches.utf8 is not None:
        words += ["--utf8", switches.utf8]
    if switches.policy is not None:
        words += ["--policy", switches.policy]
    if switches.coercion is False:
        words.append("--no-coercion")
    if switches.warning is False:
        words.append("--no-warning")
    return words + ["--"] + list(command)


# -- Writing ----------------------------------------------------------------------------

def render(form, advice):
    """The bytes of `advice` in the format `form`: variable settings, comments, and the
    line that starts the command through `utf8env run` when only it gives what the
    command needs. Raises UsageError for a value the format cannot carry."""
    lines = [b"[Service]"] if form == "systemd" else []
    if advice.nothing is not None:
        lines.append(_comment("nothing to set: " + advice.nothing))
    if advice.variables or advice.unset:
        if form == "github-actions":
            lines.append(b"env:")
        for name in advice.unset:
            lines.append(_UNSETTERS[form](_checked_name(form, name)))
        for name, value in advice.variables:
            lines.append(_SETTERS[form](_checked_name(form, name), value))
    lines += [_comment(note) for note in advice.notes]
    if advice.entry is not None:
        if advice.entry[0] == LAUNCHER and form in _WHERE_UTF8ENV:
            lines.append(_comment(_WHERE_UTF8ENV[form]))
        lines += _ENTRIES[form](advice.entry)
    return b"".join(line + b"\n" for line in lines)


# Where a bare `utf8env` is not found (measured: exit 127 from a venv's utf8env): a
# described target's path of it is not known here; this machine's is written in full.
_WHERE_UTF8ENV = {
    "dockerfile": "the image's PATH must find utf8env (a venv's bin/ is on no default PATH): "
                  "else write its absolute path",
    "systemd": "systemd finds a bare ExecStart= name only in /usr/local/bin, /usr/bin and "
               "their sbin/ (systemd.service(5)): else write utf8env's absolute path"}


def _checked_name(form, name):
    # Every format here sets a variable by a name that is a shell identifier; utf8env only
    # ever sets such names (LC_CTYPE, LANG, LC_ALL, PYTHON*).
    if not name or "0" <= name[0] <= "9" or not _plain(name, "_"):
        raise UsageError("--format %s: cannot set the variable %r: not a name the format "
                         "accepts" % (form, name))
    return name


def _comment(text):
    """A comment line every format accepts: `#` at the start of the line (POSIX sh, fish,
    the Dockerfile reference, systemd.syntax(7), crontab(5), YAML), its text printable:
    a newline, a control character or an undecodable byte in a value would end the
    comment or make a text format invalid, so they are shown as escapes."""
    return b"# utf8env: " + _printable(text).encode("utf-8")


def _printable(text):
    out = []
    for letter in fsencode(text).decode("utf-8", "backslashreplace"):
        code = ord(letter)
        if code < 0x20 or 0x7f <= code < 0xa0 or letter in _YAML_BREAKS or code in (0xfffe, 0xffff):
            out.append("\\x%02x" % code if code < 0x100 else "\\u%04x" % code)
        else:
            out.append(letter)
    return "".join(out)


def _text(form, value):
    """`value` as the Unicode text a text format needs, or UsageError. Values come from
    the environment and the command line as bytes (surrogate escapes for bytes the
    filesystem encoding cannot decode); a text format can carry them only if they are
    UTF-8."""
    data = fsencode(value)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UsageError("--format %s: %r holds the byte \\x%02x, which is not UTF-8 text: %s"
                         % (form, data.decode("utf-8", "backslashreplace"),
                            data[error.start], _WHY_TEXT[form]))


_WHY_TEXT = {
    "dockerfile": "a Dockerfile is read as UTF-8, and an image's configuration (Env, "
                  "Entrypoint) is JSON, whose strings are Unicode",
    "systemd": "systemd ignores an Environment= assignment that is not UTF-8 (systemd.exec(5))",
    "github-actions": "a workflow is YAML, whose scalars are Unicode text, and the runner "
                      "passes values on as UTF-8",
}


# sh: POSIX "Shell Command Language" 2.2.2 Single-Quotes: everything up to the next ' is
# literal, so shlex.quote's 'it'"'"'s' form carries any bytes (not NUL: no environment
# or argument holds one).
def _sh_word(word):
    import shlex
    return fsencode(shlex.quote(word))


def _sh_set(name, value):
    return b"export " + name.encode() + b"=" + _sh_word(value)


def _sh_entry(words):
    return [b"exec " + b" ".join(_sh_word(word) for word in words)]


# fish: inside single quotes only \\ and \' are escapes (fish-doc "Quotes"), every other
# character, a newline included, is literal. Bytes that are not valid in fish's locale
# encoding are read as its private "encode direct" characters and written back as the same
# bytes. A word of letters, digits and _@+=:,./- needs no quotes (no expansion applies).
def _fish_word(word):
    if word and _plain(word, "_@+=:,./-"):
        return fsencode(word)
    return b"'" + fsencode(word.replace("\\", "\\\\").replace("'", "\\'")) + b"'"


def _fish_set(name, value):
    # Quotes are gone before set sees its arguments: a value such as -x would be an
    # option to it unless `--` comes first (after the name it would be a value itself).
    options = b"set -gx -- " if value.startswith("-") else b"set -gx "
    return options + name.encode() + b" " + _fish_word(value)


def _fish_entry(words):
    return [b"exec " + b" ".join(_fish_word(word) for word in words)]


# Dockerfile: ENV's value goes through BuildKit's shell lexer (frontend/dockerfile/shell/
# lex.go): $NAME and ${NAME} are substituted outside single quotes, and inside single
# quotes every character is literal, with no escape at all. So a value is written as
# single-quoted pieces, and a ' itself inside double quotes ("'", literal there): no
# escape character is used, so the result is the same whatever `# escape=` says. A
# Dockerfile instruction is one line: a newline cannot be part of a value (a trailing
# escape joins the next line and drops the newline).
def _docker_set(name, value):
    text = _text("dockerfile", value)
    if "\n" in text or "\r" in text:
        raise UsageError("--format dockerfile: %r holds a line break, which no Dockerfile "
                         "ENV value can: an instruction is one line" % text)
    if text and _plain(text, "_@%+=:,./-"):
        return ("ENV %s=%s" % (name, text)).encode("utf-8")
    quoted = "'" + text.replace("'", "'\"'\"'") + "'"
    return ("ENV %s=%s" % (name, quoted)).encode("utf-8")


def _docker_entry(words):
    # The exec form is a JSON array (Dockerfile reference, "ENTRYPOINT"): no shell and no
    # variable substitution; invalid JSON would silently fall back to the shell form.
    import json
    items = [_text("dockerfile", word) for word in words]
    return [("ENTRYPOINT " + json.dumps(items, ensure_ascii=False)).encode("utf-8")]


# systemd: systemd.syntax(7) "Quoting": a double-quoted item with C-style escapes (\\ \"
# \n \t \xNN ...); UTF-8 is accepted as it is. Specifiers (systemd.unit(5) "Specifiers")
# are expanded in both settings: a literal % is %%. Environment= performs no $ expansion
# (systemd.exec(5)), and its values must be UTF-8; ExecStart= (systemd.service(5)
# "Command lines") expands $NAME and ${NAME}: a literal $ is $$, a lone ; ends the command
# unless written \;, and \xNN carries any byte.
def _systemd_quoted(text, in_command):
    out = ['"']
    for letter in text:
        code = ord(letter)
        if letter in '"\\':
            out.append("\\" + letter)
        elif letter in _C_ESCAPES:
            out.append(_C_ESCAPES[letter])
        elif 0xdc80 <= code <= 0xdcff:          # a byte that is not UTF-8 (ExecStart only)
            out.append("\\x%02x" % (code - 0xdc00))
        elif not _systemd_character(code):      # its bytes (ExecStart only)
            out.append("".join("\\x%02x" % byte for byte in letter.encode("utf-8")))
        elif code < 0x20 or code == 0x7f:
            out.append("\\x%02x" % code)
        elif 0x80 <= code < 0xa0:               # \xNN would be the byte, not the character
            out.append("\\u%04x" % code)
        elif letter == "%":
            out.append("%%")
        elif letter == "$" and in_command:
            out.append("$$")
        else:
            out.append(letter)
    return "".join(out) + '"'


_C_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\a": "\\a", "\b": "\\b",
              "\f": "\\f", "\v": "\\v"}


def _systemd_character(code):
    """systemd's unichar_is_valid (src/basic/utf8.c): its UTF-8 check refuses the
    noncharacters U+FDD0..U+FDEF and U+xFFFE, U+xFFFF as well as surrogates."""
    return not (0xfdd0 <= code <= 0xfdef or (code & 0xfffe) == 0xfffe or 0xd800 <= code < 0xe000)


def _systemd_set(name, value):
    text = _text("systemd", value)
    for letter in text:
        if not _systemd_character(ord(letter)):
            raise UsageError("--format systemd: %r holds U+%04X, which systemd refuses in "
                             "Environment= (its UTF-8 check, src/basic/utf8.c, refuses "
                             "noncharacters)" % (text, ord(letter)))
    return ("Environment=" + _systemd_quoted("%s=%s" % (name, text), False)).encode("utf-8")


def _systemd_word(word):
    text = fsencode(word).decode("utf-8", "surrogateescape")
    if text == ";":
        return "\\;"
    if text and _plain(text, "_@+=:,./-"):
        return text
    return _systemd_quoted(text, True)


def systemd_exec_start(words):
    """The ExecStart= line (str) that runs `words` as they are; UsageError for a program
    path holding $ (systemd expands $$ in the arguments, argv[0] too, but not in the
    path it executes: no spelling gives both the same $)."""
    if b"$" in fsencode(words[0]):
        raise UsageError("--format systemd: the program path %r holds $, which no ExecStart= "
                         "can run as it is (systemd expands $ in argv[0], not in the path)"
                         % _printable(words[0]))
    return "ExecStart=" + " ".join(_systemd_word(word) for word in words)


def _systemd_entry(words):
    # The empty ExecStart= first resets the list, so the output also works as a drop-in
    # for a unit that has an ExecStart= of its own (systemd.unit(5), "drop-in").
    return [b"ExecStart=", systemd_exec_start(words).encode("utf-8", "surrogateescape")]


# crontab: crontab(5) and cron's env.c (load_env): NAME=VALUE, the value whole between
# matching ' or " (no escapes), else as it is with surrounding blanks dropped; an empty
# unquoted value is not read as a setting. One line each, at most 999 bytes (Debian's
# MAX_ENVSTR and MAX_COMMAND are 1000). The command goes to /bin/sh -c after cron's own
# pass (do_command.c): an unescaped % ends the command (the rest becomes stdin), \% is %;
# Debian's cron also turns \\ into \, cronie does not. So the command is sh-quoted, each
# % written \%, and each backslash followed by '' (an empty quoted string to sh), which
# keeps any backslash away from a % or another backslash in both crons.
_CRON_LIMIT = 999


def _cron_set(name, value):
    data = fsencode(value)
    if b"\n" in data:
        raise UsageError("--format crontab: %r holds a newline, which no crontab line can"
                         % _printable(value))
    if data and data[:1] not in (b"'", b'"') and data.strip() == data:
        line = name.encode() + b"=" + data
    elif b"'" not in data:
        line = name.encode() + b"='" + data + b"'"
    elif b'"' not in data:
        line = name.encode() + b'="' + data + b'"'
    else:
        raise UsageError("--format crontab: %r needs quotes for its blanks or its first "
                         "character and holds both ' and \", which cron cannot read"
                         % _printable(value))
    return _cron_short(line)


def _cron_short(line):
    if len(line) > _CRON_LIMIT:
        raise UsageError("--format crontab: a line of %d bytes: cron reads at most %d"
                         % (len(line), _CRON_LIMIT))
    return line


def _cron_word(word):
    if "\n" in word:
        raise UsageError("--format crontab: %r holds a newline, which no crontab line can"
                         % _printable(word))
    return _sh_word(word).replace(b"\\", b"\\''").replace(b"%", b"\\%")


def cron_command(words):
    """The command part (bytes) of a crontab job line that runs `words` as they are;
    UsageError for a word no crontab line can hold."""
    return b" ".join(_cron_word(word) for word in words)


def _cron_entry(words):
    return [_comment("replace @daily by the job's schedule; cron's PATH is /usr/bin:/bin: "
                     "write utf8env's full path (command -v utf8env) if it is elsewhere"),
            _cron_short(b"@daily " + cron_command(words))]


# GitHub Actions: a YAML double-quoted scalar (YAML 1.2 "Double-Quoted Style", and 1.1
# alike): \\ \" and escapes for every character that is not printable or that YAML 1.1
# reads as a line break (NEL, LS, PS) or a byte order mark. Then the workflow's own
# expressions: ${{ starts one in any value (actions/languageservices, template-reader.ts),
# so a literal ${{ is written as the expression ${{ '${{' }}, whose value it is.
_YAML_BREAKS = "\x85\u2028\u2029\ufeff"


def _yaml_quoted(text):
    out = ['"']
    for letter in text.replace("${{", "${{ '${{' }}"):
        code = ord(letter)
        if letter in '"\\':
            out.append("\\" + letter)
        elif letter in "\n\t\r":
            out.append({"\n": "\\n", "\t": "\\t", "\r": "\\r"}[letter])
        elif code < 0x20 or 0x7f <= code < 0xa0 or letter in _YAML_BREAKS or \
                code in (0xfffe, 0xffff):
            out.append("\\u%04x" % code)
        else:
            out.append(letter)
    return "".join(out) + '"'


def _yaml_set(name, value):
    return ("  %s: %s" % (name, _yaml_quoted(_text("github-actions", value)))).encode("utf-8")


def _yaml_entry(words):
    # `run:` is a script for the step's shell (bash on Linux runners): sh-quoted words.
    import shlex
    script = " ".join(shlex.quote(_text("github-actions", word)) for word in words)
    return [("run: " + _yaml_quoted(script)).encode("utf-8")]


def _plain(text, extra):
    return all(("a" <= c <= "z") or ("A" <= c <= "Z") or ("0" <= c <= "9") or c in extra
               for c in text)


# Removing a variable. Where a format has no way (a Dockerfile, a crontab, a workflow's
# env:), the empty value, which glibc's setlocale and CPython both take for unset (only a
# non-empty LC_ALL counts).
_UNSETTERS = {"sh": lambda name: b"unset " + name.encode(),
              "fish": lambda name: b"set -e " + name.encode(),
              "dockerfile": lambda name: _docker_set(name, ""),
              "systemd": lambda name: b"UnsetEnvironment=" + name.encode(),   # systemd.exec(5)
              "crontab": lambda name: _cron_set(name, ""),
              "github-actions": lambda name: _yaml_set(name, "")}
_SETTERS = {"sh": _sh_set, "fish": _fish_set, "dockerfile": _docker_set,
            "systemd": _systemd_set, "crontab": _cron_set, "github-actions": _yaml_set}
_ENTRIES = {"sh": _sh_entry, "fish": _fish_entry, "dockerfile": _docker_entry,
            "systemd": _systemd_entry, "crontab": _cron_entry, "github-actions": _yaml_entry}


def run(args, command):
    """`utf8env env`'s handler: the advice for the target, in the asked format."""
    from ._engine import locale_model
    environ = described(args)
    if args.locales is not None:
        facts = locale_model.modelled(args.locales)
    else:
        from . import _locales as locales
        facts = locales.facts(environ, here=args.own_process)
    target = _target(command, args.version, environ)
    from ._run import switches
    advice = advise(environ, facts, target, switches(args))
    if advice.entry and args.locales is None and (not args.empty_env or args.format == "systemd"):
        # The target is this machine: the utf8env that runs now, by its absolute path (a
        # crontab's PATH is /usr/bin:/bin; a venv's utf8env is on no PATH but the venv's).
        # A unit is this machine's too when its libc was asked here (no --locales): with
        # --empty-env, its own environment is described; and systemd finds a bare
        # ExecStart= name only on its own search path, which `systemd-analyze verify`
        # checks. Described by --locales, the target's path of utf8env is not known: the
        # bare name, and the one line render() writes about it.
        from ._own_command import installed_command
        advice = advice._replace(entry=list(installed_command()) + list(advice.entry[1:]))
    from ._output import write_bytes
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
    from . import _run as launch
    from ._errors import CommandNotFound
    try:
        path = launch.find_command(command[0], environ)
    except CommandNotFound as error:
        raise CommandNotFound("%s here (for a command of another machine or image, give "
                              "--version X.Y if it starts a CPython)" % error)
    python, script, notes = launch.python_behind(path, environ)
    return Target(tuple(command), path, python, script, tuple(notes))
