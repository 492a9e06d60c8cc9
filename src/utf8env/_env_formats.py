"""`utf8env env`'s formats: an Advice written for a shell, a Dockerfile, a systemd unit, a
crontab or a GitHub Actions step, with that format's quoting, each rule citing the parser
it follows (tests run the real parsers where this machine has them). A value a format
cannot carry is refused with a UsageError naming the value, never written approximately.
doctor writes its systemd and cron lines with the same quoting (systemd_exec_start,
cron_command): below both."""
from ._environment import fsencode
from ._errors import UsageError

FORMATS = ("sh", "fish", "dockerfile", "systemd", "crontab", "github-actions")
LAUNCHER = "utf8env"            # for another machine or image: found on the target's PATH


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
