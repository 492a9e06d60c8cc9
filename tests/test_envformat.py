"""`utf8env env`: what it prints makes the target start the command as `utf8env run` would
(checked against run itself on real interpreters), for a target described by --empty-env,
--env and --locales as well as for this machine; and every format's quoting carries any
value, proved byte for byte through the real parsers this machine has (sh, bash, fish,
BuildKit's Dockerfile parser, systemd-analyze, PyYAML), and through ports of the parsers
it does not run (cron's env.c and do_command.c, BuildKit's shell lexer, GitHub's
expression scanner), each citing its source."""
import os
import re
import subprocess
import sys

import pytest

from utf8env import _env_formats as envformat
from utf8env._env import Advice, entry_words, render
from utf8env._plan import Switches
from utf8env._own_command import own_command
from support import machine
from support.systemd_dump import command_line_words

# The comment before a `utf8env run` line whose utf8env is a bare name (a described target).
DOCKER_PATH = (b"# utf8env: the image's PATH must find utf8env (a venv's bin/ is on no default "
               b"PATH): else write its absolute path\n")
SYSTEMD_PATH = (b"# utf8env: systemd finds a bare ExecStart= name only in /usr/local/bin, /usr/bin "
                b"and their sbin/ (systemd.service(5)): else write utf8env's absolute path\n")

UTF8ENV = own_command()
BASE = {"PATH": "/usr/bin:/bin"}
PYRAMID = "\u2119\u01b4\u2602\u210c\u00f8\u1f24"      # PEP 538's "ℙƴ☂ℌøἤ"
UNDECODABLE = os.fsdecode(b"x\xff\xfe")

# Values that break naive quoting somewhere, each named for the failure it provokes.
HOSTILE = {
    "plain": "C.UTF-8",
    "empty": "",
    "blanks": "  lead and trail  ",
    "single-quote": "it's",
    "double-quote": 'say "hi"',
    "dollar": "$HOME ${HOME} $$ $(id) `id` $",
    "percent": "100% %n %% %{x} %",
    "backslash": "back\\slash \\\\ \\n \\x41 \\% end\\",
    "backslash-percent": "\\%",
    "newline": "new\nline\n",
    "controls": "tab\tcr\r\x01\x1b\x7f",
    "dash": "-x",
    "semicolon": ";",
    "expression": "${{ github.actor }} ${{",
    "hash": "#hash",
    "equals": "a=b=",
    "non-ascii": "caf\u00e9 " + PYRAMID + " \U0001f600",
    "line-breaks": "\u2028\u2029\x85\ufeff\u00a0",
    "fish-private": "\uf6ff\uf600",
    "undecodable": UNDECODABLE,
    "globs": "*?[a]~{a,b}",
    "both-quotes": "' \"",
}
NONCHARACTERS = "\ufdd0\ufffe\U0001fffe\U0010ffff"   # systemd's UTF-8 check refuses them
ALL_BYTES = os.fsdecode(bytes(range(1, 256)))
ALL_TEXT = "".join(chr(c) for c in list(range(1, 0x800)) + [0xd7ff, 0xe000, 0xfdd0, 0xfffd, 0xfffe,
                                                            0x1fffe, 0x10ffff])

# What each format refuses, with its words: values a format cannot carry.
_NOT_TEXT = "'x\\\\xff\\\\xfe' holds the byte \\xff, which is not UTF-8 text: "
REFUSED = {
    ("dockerfile", "value", "undecodable"):
        "--format dockerfile: " + _NOT_TEXT + "a Dockerfile is read as UTF-8, and an image's "
        "configuration (Env, Entrypoint) is JSON, whose strings are Unicode",
    ("dockerfile", "word", "undecodable"):
        "--format dockerfile: " + _NOT_TEXT + "a Dockerfile is read as UTF-8, and an image's "
        "configuration (Env, Entrypoint) is JSON, whose strings are Unicode",
    ("dockerfile", "value", "newline"):
        "--format dockerfile: 'new\\nline\\n' holds a line break, which no Dockerfile ENV "
        "value can: an instruction is one line",
    ("dockerfile", "value", "controls"):
        "--format dockerfile: 'tab\\tcr\\r\\x01\\x1b\\x7f' holds a line break, which no "
        "Dockerfile ENV value can: an instruction is one line",
    ("systemd", "value", "undecodable"):
        "--format systemd: " + _NOT_TEXT + "systemd ignores an Environment= assignment that "
        "is not UTF-8 (systemd.exec(5))",
    ("crontab", "value", "newline"):
        "--format crontab: 'new\\\\x0aline\\\\x0a' holds a newline, which no crontab line can",
    ("crontab", "word", "newline"):
        "--format crontab: 'new\\\\x0aline\\\\x0a' holds a newline, which no crontab line can",
    ("crontab", "value", "both-quotes"):
        "--format crontab: '\\' \"' needs quotes for its blanks or its first character and "
        "holds both ' and \", which cron cannot read",
    ("github-actions", "value", "undecodable"):
        "--format github-actions: " + _NOT_TEXT + "a workflow is YAML, whose scalars are "
        "Unicode text, and the runner passes values on as UTF-8",
    ("github-actions", "word", "undecodable"):
        "--format github-actions: " + _NOT_TEXT + "a workflow is YAML, whose scalars are "
        "Unicode text, and the runner passes values on as UTF-8",
}


def _carried(form, kind):
    names = [name for name in HOSTILE if (form, kind, name) not in REFUSED]
    values = [HOSTILE[name] for name in names]
    if form in ("sh", "fish") or (form, kind) in (("systemd", "word"), ("crontab", "word")):
        values.append(ALL_BYTES.replace("\n", "") if form == "crontab" else ALL_BYTES)
    if (form, kind) == ("dockerfile", "value"):
        values.append(ALL_TEXT.replace("\n", "").replace("\r", ""))
    elif (form, kind) == ("systemd", "value"):
        values.append("".join(c for c in ALL_TEXT if c not in NONCHARACTERS))
    elif form != "crontab":
        values.append(ALL_TEXT)
    return values


def _variables(values):
    return tuple(("V%02d" % index, value) for index, value in enumerate(values))


def _entry(values):
    return entry_words(Switches(utf8="1"), ["cmd"] + list(values))


def _expected_args(values):
    return [b"run", b"--utf8", b"1", b"--", b"cmd"] + [os.fsencode(value) for value in values]


@pytest.fixture
def fake_launcher(tmp_path):
    """A `utf8env` on PATH that writes the arguments it receives, NUL-separated."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "utf8env"
    script.write_bytes(b"#!/bin/sh\nprintf '%s\\0' \"$@\" > \"$ARGS_OUT\"\n")
    script.chmod(0o755)
    out = tmp_path / "args"

    def received():
        return out.read_bytes().split(b"\0")[:-1]
    return {"PATH": "%s:/usr/bin:/bin" % folder, "ARGS_OUT": str(out)}, received, script


# -- Every format, byte for byte ---------------------------------------------------------

ADVICE = Advice(variables=(("LC_CTYPE", "C.UTF-8"), ("PYTHONIOENCODING", "utf-8:surrogateescape")),
                notes=("a note",))
ONLY_RUN = Advice(notes=("only run",), entry=entry_words(Switches(utf8="1"), ["python3.6", "app.py"]))


@pytest.mark.parametrize("form, variables, entry", [
    ("sh", b"export LC_CTYPE=C.UTF-8\nexport PYTHONIOENCODING=utf-8:surrogateescape\n"
           b"# utf8env: a note\n",
     b"# utf8env: only run\nexec utf8env run --utf8 1 -- python3.6 app.py\n"),
    ("fish", b"set -gx LC_CTYPE C.UTF-8\nset -gx PYTHONIOENCODING utf-8:surrogateescape\n"
             b"# utf8env: a note\n",
     b"# utf8env: only run\nexec utf8env run --utf8 1 -- python3.6 app.py\n"),
    ("dockerfile", b"ENV LC_CTYPE=C.UTF-8\nENV PYTHONIOENCODING=utf-8:surrogateescape\n"
                   b"# utf8env: a note\n",
     b'# utf8env: only run\n' + DOCKER_PATH + b'ENTRYPOINT ["utf8env", "run", "--utf8", "1", "--", '
     b'"python3.6", "app.py"]\n'),
    ("systemd", b'[Service]\nEnvironment="LC_CTYPE=C.UTF-8"\n'
                b'Environment="PYTHONIOENCODING=utf-8:surrogateescape"\n# utf8env: a note\n',
     b"[Service]\n# utf8env: only run\n" + SYSTEMD_PATH + b"ExecStart=\nExecStart=utf8env run --utf8 1 -- "
     b"python3.6 app.py\n"),
    ("crontab", b"LC_CTYPE=C.UTF-8\nPYTHONIOENCODING=utf-8:surrogateescape\n# utf8env: a note\n",
     b"# utf8env: only run\n# utf8env: replace @daily by the job's schedule; cron's PATH is "
     b"/usr/bin:/bin: write utf8env's full path (command -v utf8env) if it is elsewhere\n"
     b"@daily utf8env run --utf8 1 -- python3.6 app.py\n"),
    ("github-actions", b'env:\n  LC_CTYPE: "C.UTF-8"\n  PYTHONIOENCODING: "utf-8:surrogateescape"\n'
                       b"# utf8env: a note\n",
     b'# utf8env: only run\nrun: "utf8env run --utf8 1 -- python3.6 app.py"\n'),
])
@pytest.mark.fast
def test_every_format_byte_exact(form, variables, entry):
    assert render(form, ADVICE) == variables
    assert render(form, ONLY_RUN) == entry
    assert render(form, Advice(nothing="why")) == (b"[Service]\n" if form == "systemd" else b"") + \
        b"# utf8env: nothing to set: why\n"


@pytest.mark.parametrize("form, expected", [
    ("sh", b"export V='it'\"'\"'s $x %% \\'\nexec utf8env run -- 'it'\"'\"'s $x %% \\'\n"),
    ("fish", b"set -gx V 'it\\'s $x %% \\\\'\nexec utf8env run -- 'it\\'s $x %% \\\\'\n"),
    ("dockerfile", b"ENV V='it'\"'\"'s $x %% \\'\n" + DOCKER_PATH + b"ENTRYPOINT [\"utf8env\", \"run\", \"--\", "
                   b"\"it's $x %% \\\\\"]\n"),
    ("systemd", b"[Service]\nEnvironment=\"V=it's $x %%%% \\\\\"\n" + SYSTEMD_PATH + b"ExecStart=\n"
                b"ExecStart=utf8env run -- \"it's $$x %%%% \\\\\"\n"),
    ("crontab", b"V=it's $x %% \\\n# utf8env: replace @daily by the job's schedule; cron's PATH "
                b"is /usr/bin:/bin: write utf8env's full path (command -v utf8env) if it is "
                b"elsewhere\n@daily utf8env run -- 'it'\"'\"'s $x \\%\\% \\'''\n"),
    ("github-actions", b"env:\n  V: \"it's $x %% \\\\\"\n"
                       b"run: \"utf8env run -- 'it'\\\"'\\\"'s $x %% \\\\'\"\n"),
])
@pytest.mark.fast
def test_quotes_dollar_percent_and_backslash_byte_exact(form, expected):
    value = "it's $x %% \\"
    advice = Advice(variables=(("V", value),), entry=entry_words(Switches(), [value]))
    assert render(form, advice) == expected


@pytest.mark.parametrize("form, value, expected", [
    ("sh", UNDECODABLE, b"export V='x\xff\xfe'\n"),
    ("fish", UNDECODABLE, b"set -gx V 'x\xff\xfe'\n"),
    ("crontab", UNDECODABLE, b"V=x\xff\xfe\n"),
    ("fish", "-x", b"set -gx -- V -x\n"),
    ("crontab", "", b"V=''\n"),
    ("crontab", " x", b"V=' x'\n"),
    ("crontab", "'x' ", b"V=\"'x' \"\n"),
    ("dockerfile", "", b"ENV V=''\n"),
    ("systemd", "a\nb\t\x01\x85\u2028", b'[Service]\nEnvironment="V=a\\nb\\t\\x01\\u0085\xe2\x80\xa8"\n'),
    ("github-actions", "a\nb\t\x01\x85\u2028\ufeff" + PYRAMID,
     b'env:\n  V: "a\\nb\\t\\u0001\\u0085\\u2028\\ufeff' + PYRAMID.encode() + b'"\n'),
    ("github-actions", "${{ x }}", b"env:\n  V: \"${{ '${{' }} x }}\"\n"),
])
@pytest.mark.fast
def test_values_byte_exact(form, value, expected):
    assert render(form, Advice(variables=(("V", value),))) == expected


@pytest.mark.fast
def test_systemd_writes_undecodable_bytes_and_lone_semicolons_of_a_command_as_escapes():
    advice = Advice(entry=entry_words(Switches(), [UNDECODABLE, ";", "$", ""]))
    assert render("systemd", advice) == (b'[Service]\n' + SYSTEMD_PATH + b'ExecStart=\n'
                                         b'ExecStart=utf8env run -- "x\\xff\\xfe" \\; "$$" ""\n')


@pytest.mark.fast
def test_a_comment_shows_what_would_end_it_as_escapes():
    note = "LANG=" + os.fsdecode(b"\xe9") + "\nend\x85"
    for form in envformat.FORMATS:
        out = render(form, Advice(notes=(note,)))
        assert out.endswith(b"# utf8env: LANG=\\xe9\\x0aend\\x85\n")


@pytest.mark.parametrize("form, kind, name", sorted(REFUSED))
@pytest.mark.fast
def test_what_a_format_cannot_carry_is_refused_by_name(form, kind, name):
    value = HOSTILE[name]
    advice = Advice(variables=(("V", value),)) if kind == "value" else Advice(entry=[value])
    with pytest.raises(envformat.UsageError) as raised:
        render(form, advice)
    assert str(raised.value) == REFUSED[form, kind, name]


@pytest.mark.fast
def test_a_name_no_format_can_set_is_refused():
    for form in envformat.FORMATS:
        with pytest.raises(envformat.UsageError) as raised:
            render(form, Advice(variables=(("spring.profiles", "x"),)))
        assert str(raised.value) == ("--format %s: cannot set the variable 'spring.profiles': "
                                     "not a name the format accepts" % form)


@pytest.mark.fast
def test_crontab_refuses_a_line_longer_than_cron_reads():
    with pytest.raises(envformat.UsageError) as raised:
        render("crontab", Advice(variables=(("V", "x" * 998),)))
    assert str(raised.value) == "--format crontab: a line of 1000 bytes: cron reads at most 999"


# -- Round trips through the real parsers --------------------------------------------------

@pytest.mark.parametrize("shell", ["sh", "bash"])
@pytest.mark.fast
def test_sh_round_trips_every_value(shell, tmp_path, fake_launcher):
    env, received, _ = fake_launcher
    values = _carried("sh", "value")
    out = tmp_path / "values"
    script = render("sh", Advice(variables=_variables(values))) + b"printf '%s\\0'" + b"".join(
        b' "$%s"' % name.encode() for name, _ in _variables(values)) + b' > "$VALUES_OUT"\n'
    for lang in ("C.UTF-8", "C"):
        subprocess.run([shell, "-c", script], env=dict(env, VALUES_OUT=str(out), LANG=lang), check=True)
        assert out.read_bytes().split(b"\0")[:-1] == [os.fsencode(v) for v in values]
        words = _carried("sh", "word")
        subprocess.run([shell, "-c", render("sh", Advice(entry=_entry(words)))],
                       env=dict(env, LANG=lang), check=True)
        assert received() == _expected_args(words)


@pytest.mark.fast
def test_fish_round_trips_every_value(tmp_path, fake_launcher):
    fish = machine.command("fish", "fish")
    env, received, _ = fake_launcher
    values = _carried("fish", "value")
    out = tmp_path / "values"
    script = render("fish", Advice(variables=_variables(values))) + b"printf '%s\\0'" + b"".join(
        b" $%s" % name.encode() for name, _ in _variables(values)) + b' > "$VALUES_OUT"\n'
    path = tmp_path / "script.fish"
    path.write_bytes(script)
    for lang in ("C.UTF-8", "C"):
        subprocess.run([fish, "--no-config", str(path)], env=dict(env, VALUES_OUT=str(out), LANG=lang),
                       check=True)
        assert out.read_bytes().split(b"\0")[:-1] == [os.fsencode(v) for v in values]
        words = _carried("fish", "word")
        path.write_bytes(render("fish", Advice(entry=_entry(words))))
        subprocess.run([fish, "--no-config", str(path)], env=dict(env, LANG=lang), check=True)
        assert received() == _expected_args(words)


def _buildkit_lex(word):
    """BuildKit's shell lexer (moby/buildkit frontend/dockerfile/shell/lex.go,
    processStopOn, processSingleQuote, processDoubleQuote, default escape token \\), as
    applied to an ENV value: $ substitution is reported, not performed, so that a value
    that would be substituted fails the test."""
    out, i = [], 0
    while i < len(word):
        c = word[i]
        if c == "'":
            end = word.index("'", i + 1)
            out.append(word[i + 1:end])
            i = end + 1
        elif c == '"':
            i += 1
            while word[i] != '"':
                if word[i] == "$":
                    raise AssertionError("substituted: %r" % word)
                if word[i] == "\\" and word[i + 1] in '"$\\':
                    i += 1
                out.append(word[i])
                i += 1
            i += 1
        elif c == "$":
            raise AssertionError("substituted: %r" % word)
        elif c == "\\":
            out.append(word[i + 1])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


@pytest.mark.fast
def test_dockerfile_round_trips_every_value_through_buildkits_parser():
    # BuildKit's own parser (a test dependency, for Python 3.8+)
    dockerfile = pytest.importorskip("dockerfile", reason="no dockerfile package: pip install "
                                     "-c tests/constraints.txt -e '.[test]' (bash tests/setup.sh)")
    values = _carried("dockerfile", "value")
    text = render("dockerfile", Advice(variables=_variables(values))).decode("utf-8")
    commands = dockerfile.parse_string(text)
    assert [c.cmd for c in commands] == ["ENV"] * len(values)
    assert [c.original for c in commands] == text.split("\n")[:-1]
    for command, (name, value) in zip(commands, _variables(values)):
        assert command.value[0] == name
        assert _buildkit_lex(command.value[1]) == value
    words = _carried("dockerfile", "word")
    [entry] = dockerfile.parse_string(render("dockerfile", Advice(entry=_entry(words))).decode("utf-8"))
    assert (entry.cmd, entry.json) == ("ENTRYPOINT", True)
    assert [os.fsencode(w) for w in entry.value] == [b"utf8env"] + _expected_args(words)


def _systemd_dump(unit, tmp_path):
    """systemd-analyze verify's dump of `unit` (systemd's own parser), and its warnings."""
    analyze = machine.command("systemd-analyze", "systemd")
    path = tmp_path / "utf8env-test.service"
    if b"\nExecStart=" not in unit:
        unit += b"ExecStart=/bin/true\n"
    path.write_bytes(b"[Unit]\nDescription=test\n" + unit)
    quiet = subprocess.run([analyze, "verify", "--man=no", str(path)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    dump = subprocess.run([analyze, "verify", "--man=no", str(path)],
                          env=dict(os.environ, SYSTEMD_LOG_LEVEL="debug"),
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return quiet, dump.stdout


@pytest.mark.fast
def test_systemd_round_trips_every_value_through_systemd_analyze(tmp_path, fake_launcher, monkeypatch):
    _, _, launcher = fake_launcher
    values = _carried("systemd", "value")
    unit = render("systemd", Advice(variables=_variables(values) + (("ZZ_END", "end"),)))
    quiet, dump = _systemd_dump(unit, tmp_path)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, b"", b"")
    found = dump.split(b"\t\tEnvironment: ", 1)[1].split(b"\n\t\tEnvironment: ZZ_END=end\n")[0]
    assert found.split(b"\n\t\tEnvironment: ") == [
        ("%s=%s" % item).encode("utf-8") for item in _variables(values)]
    monkeypatch.setattr(envformat, "LAUNCHER", str(launcher))
    words = _carried("systemd", "word")
    quiet, dump = _systemd_dump(render("systemd", Advice(entry=_entry(words))), tmp_path)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, b"", b"")
    [line] = [line for line in dump.split(b"\n") if line.startswith(b"\t\t\tCommand Line: ")]
    argv = command_line_words(line[len(b"\t\t\tCommand Line: "):])
    # systemd.service(5): at exec, "$$" becomes "$" (and $NAME, ${NAME} are expanded: none is left).
    assert all(b"$" not in word.replace(b"$$", b"") for word in argv)
    assert [word.replace(b"$$", b"$") for word in argv] == [os.fsencode(str(launcher))] + \
        _expected_args(words)


def _cron_env(line):
    """cron's load_env (vixie-cron env.c; the state machine ported): (name, value) or None
    when the line is not an environment setting."""
    NAMEI, NAME, EQ1, EQ2, VALUEI, VALUE, FINI, ERROR = range(8)
    name, value = bytearray(), bytearray()
    out, state, quote, i = name, NAMEI, None, 0
    while state != ERROR and i < len(line):
        c = line[i:i + 1]
        if state in (NAMEI, VALUEI):
            if c in (b"'", b'"'):
                quote = c
                i += 1
            state += 1
            continue
        if state in (NAME, VALUE):
            if quote:
                if c == quote:
                    state += 1
                    i += 1
                    continue
                if state == NAME and c == b"=":
                    state = ERROR
                    continue
            elif state == NAME:
                if c.isspace():
                    i += 1
                    state += 1
                    continue
                if c == b"=":
                    state += 1
                    continue
            out += c
            i += 1
        elif state == EQ1:
            if c == b"=":
                state, out, quote = EQ2, value, None
            elif not c.isspace():
                state = ERROR
            i += 1
        elif state in (EQ2, FINI):
            if c.isspace():
                i += 1
            else:
                state += 1
    if state != FINI and not (state == VALUE and not quote):
        return None
    if state == VALUE:
        value = value.rstrip()
    return bytes(name), bytes(value)


def _cron_command(command, debian):
    """What cron hands to `sh -c` (do_command.c): \\% is %, an unescaped % ends the command;
    Debian's cron also turns \\\\ into \\ (cronie keeps both)."""
    out, escaped = bytearray(), False
    for c in command:
        c = bytes([c])
        if escaped:
            if c == b"%" or (debian and c == b"\\"):
                out[-1:] = c
            else:
                out += c
            escaped = False
            continue
        if c == b"\\":
            escaped = True
        elif c == b"%":
            break
        out += c
    return bytes(out)


@pytest.mark.fast
def test_crontab_round_trips_every_value_through_crons_rules(fake_launcher):
    env, received, _ = fake_launcher
    values = _carried("crontab", "value")
    lines = render("crontab", Advice(variables=_variables(values))).split(b"\n")[:-1]
    assert [_cron_env(line) for line in lines] == [
        (name.encode(), os.fsencode(value)) for name, value in _variables(values)]
    words = _carried("crontab", "word")
    comment, entry = render("crontab", Advice(entry=_entry(words))).split(b"\n")[:-1]
    assert comment.startswith(b"# ") and _cron_env(entry) is None
    assert entry.startswith(b"@daily ")
    for debian in (True, False):
        subprocess.run(["sh", "-c", _cron_command(entry[len(b"@daily "):], debian)], env=env, check=True)
        assert received() == _expected_args(words)


def _github_expressions(text):
    """A workflow value after GitHub evaluates its ${{ }} expressions (the scan of
    actions/languageservices template-reader.ts: the first }} outside a '...' literal
    closes one); only string literals are expected in the output, and they are evaluated."""
    out, i = [], 0
    while True:
        start = text.find("${{", i)
        if start < 0:
            return "".join(out) + text[i:]
        out.append(text[i:start])
        j, in_string = start + 3, False
        while not (not in_string and text[j] == "}" and text[j - 1] == "}" and j > start + 3):
            if text[j] == "'":
                in_string = not in_string
            j += 1
        expression = text[start + 3:j - 1].strip()
        assert re.match(r"^'([^']|'')*'$", expression), expression
        out.append(expression[1:-1].replace("''", "'"))
        i = j + 1


@pytest.mark.fast
def test_github_actions_round_trips_every_value_through_a_yaml_parser(fake_launcher):
    import yaml
    env, received, _ = fake_launcher
    values = _carried("github-actions", "value")
    step = yaml.safe_load(render("github-actions", Advice(variables=_variables(values))).decode("utf-8"))
    assert {name: _github_expressions(value) for name, value in step["env"].items()} == \
        dict(_variables(values))
    words = _carried("github-actions", "word")
    step = yaml.safe_load(render("github-actions", Advice(entry=_entry(words))).decode("utf-8"))
    subprocess.run(["bash", "-e", "-c", _github_expressions(step["run"])], env=env, check=True)
    assert received() == _expected_args(words)


# -- --override-lc-all: the removal of LC_ALL=C, in every format ------------------------

OVERRIDE = ["--override-lc-all", "--empty-env", "--env", "PATH=/usr/bin:/bin", "--env", "LC_ALL=C",
            "--env", "LANG=C", "--locales", "C.UTF-8", "--", "sh"]
# wc counts one character where the locale is UTF-8, two (bytes) in the C locale.
COUNT = b"printf '\\303\\251' | wc -m\n"


@pytest.mark.parametrize("form, expected", [
    ("sh", b"unset LC_ALL\nexport LC_CTYPE=C.UTF-8\n"),
    ("fish", b"set -e LC_ALL\nset -gx LC_CTYPE C.UTF-8\n"),
    ("dockerfile", b"ENV LC_ALL=''\nENV LC_CTYPE=C.UTF-8\n"),
    ("systemd", b'[Service]\nUnsetEnvironment=LC_ALL\nEnvironment="LC_CTYPE=C.UTF-8"\n'),
    ("crontab", b"LC_ALL=''\nLC_CTYPE=C.UTF-8\n"),
    ("github-actions", b'env:\n  LC_ALL: ""\n  LC_CTYPE: "C.UTF-8"\n'),
])
@pytest.mark.fast
def test_override_lc_all_removes_a_c_lc_all_in_every_format(form, expected):
    out = env_command(OVERRIDE[:-2] + ["--format", form] + OVERRIDE[-2:])
    assert (out.returncode, out.stdout, out.stderr) == (0, expected, b"")
    # Without it, LC_ALL=C is left alone and the way out said; a UTF-8 LC_ALL is left
    # alone with it too.
    plain = env_command([a for a in OVERRIDE if a != "--override-lc-all"])
    assert plain.stdout == (
        b"# utf8env: nothing to set: a non-empty LC_ALL is an explicit choice: CPython never "
        b"overrides it\n# utf8env: LC_ALL=C wins over LC_CTYPE and LANG, and neither CPython nor "
        b"`utf8env run` overrides it unasked: for a UTF-8 locale in every program, remove LC_ALL "
        b"from the target's environment (then set LC_CTYPE=C.UTF-8); --override-lc-all does both\n")
    other = env_command([a if a != "LC_ALL=C" else "LC_ALL=C.UTF-8" for a in OVERRIDE])
    assert other.stdout == b"# utf8env: nothing to set: nothing to coerce: the locale is not " \
                           b"the legacy C locale\n"


@pytest.mark.fast
def test_override_lc_all_applied_gives_utf8_where_lc_all_was_c(tmp_path):
    # Each format applied as its tool applies it, in LC_ALL=C LANG=C: wc then counts one
    # character. The shells run the lines; the empty value of the other formats is what
    # cron, Docker and the runner pass on, and glibc takes it for unset.
    place = dict(BASE, LC_ALL="C", LANG="C")
    def count(argv, env):
        return subprocess.run(argv, env=env, stdout=subprocess.PIPE, check=True).stdout.strip()
    assert count(["sh", "-c", COUNT.decode()], place) == b"2"
    for shell in ("sh", "bash"):
        lines = env_command(OVERRIDE).stdout
        assert count([shell, "-c", (lines + COUNT).decode()], place) == b"1"
    fish = machine.command("fish", "fish")
    script = tmp_path / "override.fish"
    script.write_bytes(env_command(OVERRIDE[:-2] + ["--format", "fish"] + OVERRIDE[-2:]).stdout + COUNT)
    assert count([fish, "--no-config", str(script)], place) == b"1"
    crontab = env_command(OVERRIDE[:-2] + ["--format", "crontab"] + OVERRIDE[-2:]).stdout
    assigned = {name.decode(): value.decode()
                for name, value in (_cron_env(line) for line in crontab.split(b"\n")[:-1])}
    docker = env_command(OVERRIDE[:-2] + ["--format", "dockerfile"] + OVERRIDE[-2:]).stdout
    lexed = dict(line[len("ENV "):].partition("=")[::2] for line in docker.decode().splitlines())
    lexed = {name: _buildkit_lex(value) for name, value in lexed.items()}
    import yaml
    step = yaml.safe_load(env_command(OVERRIDE[:-2] + ["--format", "github-actions"]
                                      + OVERRIDE[-2:]).stdout.decode("utf-8"))
    for given in (assigned, lexed, step["env"]):
        assert given == {"LC_ALL": "", "LC_CTYPE": "C.UTF-8"}
        assert count(["sh", "-c", COUNT.decode()], dict(place, **given)) == b"1"
    # CPython takes an empty LC_ALL for unset too: it still coerces the C locale (3.7+).
    coerced = count([sys.executable, "-c", "import os; print(os.environ.get('LC_CTYPE'))"],
                    dict(place, LC_ALL=""))
    assert coerced == b"C.UTF-8"


@pytest.mark.fast
def test_override_lc_all_in_systemd_passes_systemd_analyze(tmp_path):
    unit = env_command(OVERRIDE[:-2] + ["--format", "systemd"] + OVERRIDE[-2:]).stdout
    quiet, dump = _systemd_dump(b"[Service]\nEnvironment=LC_ALL=C\n" + unit.split(b"\n", 1)[1],
                                tmp_path)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, b"", b"")
    assert b"\t\tUnsetEnvironment: LC_ALL\n" in dump


def _installed_utf8env():
    """The installed utf8env command beside the interpreter running the tests (pip install
    -e ., as tests/setup.sh does), by its absolute path: in pyenv's bin/, which is on no
    search path of systemd's, as a venv's bin/ is not."""
    path = os.path.join(os.path.dirname(sys.executable), "utf8env")
    if not os.access(path, os.X_OK):
        pytest.skip("no utf8env command beside %s: pip install -e . (bash tests/setup.sh does)"
                    % sys.executable)
    return path


# A 3.6 unit under LC_ALL=C: only `run` gives it what 3.7 has, so env writes ExecStart=.
UNIT_ARGS = ["env", "--empty-env", "--env", "LC_ALL=C", "--format", "systemd", "--version", "3.6",
             "--", "/usr/bin/python3.6", "/srv/app.py"]
UNIT_NOTES = (b"[Service]\n# utf8env: only `utf8env run` starts /usr/bin/python3.6 as it would: "
              b"open() UTF-8/strict, where variables alone give ANSI_X3.4-1968/strict; "
              b"preferred_encoding UTF-8, where variables alone give ANSI_X3.4-1968; Python 3.6 "
              b"has no UTF-8 mode of its own: `utf8env run` applies it through a bootstrap\n"
              b"# utf8env: sys.getfilesystemencoding() stays ascii: Python 3.6 fixes it at "
              b"start-up from the locale (LC_CTYPE C), and no UTF-8 locale could be set\n"
              b"# utf8env: LC_ALL=C wins over LC_CTYPE and LANG, and neither CPython nor `utf8env "
              b"run` overrides it unasked: for a UTF-8 locale in every program, remove LC_ALL "
              b"from the target's environment (then set LC_CTYPE=C.UTF-8); --override-lc-all "
              b"does both\n")


def test_systemd_execstart_names_the_installed_utf8env_which_systemd_analyze_finds(tmp_path):
    # --empty-env describes the unit's own environment; its libc is this machine's (no
    # --locales): the unit runs here, so ExecStart= names this utf8env by its absolute
    # path, which systemd finds where a bare `utf8env` in a venv's (or pyenv's) bin/ is
    # "not executable" to it.
    launcher = _installed_utf8env()
    out = subprocess.run([launcher] + UNIT_ARGS, env=dict(BASE, HOME=os.environ["HOME"]),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (out.returncode, out.stdout, out.stderr) == (0, UNIT_NOTES + b"ExecStart=\nExecStart="
                                                        + launcher.encode() + b" run -- /usr/bin/"
                                                        b"python3.6 /srv/app.py\n", b"")
    quiet, dump = _systemd_dump(out.stdout, tmp_path)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, b"", b"")
    [line] = [line for line in dump.split(b"\n") if line.startswith(b"\t\t\tCommand Line: ")]
    assert command_line_words(line[len(b"\t\t\tCommand Line: "):]) == [
        launcher.encode(), b"run", b"--", b"/usr/bin/python3.6", b"/srv/app.py"]


def test_systemd_execstart_of_a_target_described_by_its_locales_says_why_the_name_is_bare(tmp_path):
    # --locales describes another machine's libc: utf8env's path there is not known here.
    # The bare name comes with the one line that says where systemd looks for it.
    launcher = _installed_utf8env()
    described = UNIT_ARGS[:4] + ["--locales", "C.UTF-8"] + UNIT_ARGS[4:]
    out = subprocess.run([launcher] + described, env=dict(BASE, HOME=os.environ["HOME"]),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (out.returncode, out.stdout, out.stderr) == (
        0, UNIT_NOTES + SYSTEMD_PATH + b"ExecStart=\nExecStart=utf8env run -- /usr/bin/python3.6 "
        b"/srv/app.py\n", b"")
    if not any(os.access(os.path.join(folder, "utf8env"), os.X_OK)
               for folder in ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin")):
        quiet, _ = _systemd_dump(out.stdout, tmp_path)
        assert (quiet.returncode, quiet.stdout) == (1, b"")
        assert quiet.stderr.endswith(b": Command utf8env is not executable: No such file or "
                                     b"directory\n")


# -- What it advises, as users run it ------------------------------------------------------

def env_command(args, env=None, **kw):
    return subprocess.run(UTF8ENV + ["env"] + list(args), env=dict(BASE, **(env or {})),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


TARGET = ["--empty-env", "--env", "PATH=/usr/bin:/bin", "--locales", "C.UTF-8,C.utf8"]
PIOE_NOTE = (b"# utf8env: PYTHONIOENCODING gives Python 3.6 the stdin and stdout that 3.7 has "
             b"here (`utf8env run` gives them through a bootstrap)\n")


@pytest.mark.parametrize("args, expected", [
    # Any program, the legacy C locale: the coercion, and for 3.6 the surrogateescape that
    # LC_CTYPE=C.UTF-8 alone would take away from it.
    ([], b"export LC_CTYPE=C.UTF-8\nexport PYTHONIOENCODING=utf-8:surrogateescape\n" + PIOE_NOTE),
    (["--env", "LANG=C", "--", "sh"], b"export LC_CTYPE=C.UTF-8\n"),
    (["--env", "LANG=C", "--version", "3.6", "--", "python3.6", "app.py"],
     b"export LC_CTYPE=C.UTF-8\nexport PYTHONIOENCODING=utf-8:surrogateescape\n" + PIOE_NOTE),
    # --utf8 1: PYTHONUTF8 for 3.7+, never for 3.6, which ignores it.
    (["--utf8", "1", "--version", "3.6", "--", "python3.6"],
     b"export LC_CTYPE=C.UTF-8\nexport PYTHONIOENCODING=utf-8:surrogateescape\n" + PIOE_NOTE),
    (["--env", "LANG=C.UTF-8", "--utf8", "1", "--version", "3.12", "--", "python3"],
     b"export PYTHONUTF8=1\n# utf8env: PYTHONUTF8 also reaches the Pythons it starts: `utf8env "
     b"run` passes -X utf8=1, which they do not inherit\n"),
    (["--version", "3.12", "--", "python3"],
     b"# utf8env: nothing to set: Python 3.12 coerces the C locale and picks UTF-8 mode by itself\n"),
    (["--env", "LANG=C.UTF-8", "--", "sh"],
     b"# utf8env: nothing to set: nothing to coerce: the locale is not the legacy C locale\n"),
    (["--no-coercion", "--version", "3.11", "--", "python3"], b"export PYTHONCOERCECLOCALE=0\n"),
    (["--utf8", "1", "--", "sh"],
     b"export LC_CTYPE=C.UTF-8\n# utf8env: --utf8 1: sh is not a Python: `utf8env run` gives it "
     b"no UTF-8 mode\n"),
])
@pytest.mark.fast
def test_env_prints_what_makes_the_target_start_as_run_would(args, expected):
    out = env_command(TARGET + args)
    assert (out.returncode, out.stdout, out.stderr) == (0, expected, b"")


@pytest.mark.fast
def test_lc_all_c_gets_advice_and_36_the_line_that_runs_it():
    out = env_command(TARGET + ["--env", "LC_ALL=C", "--format", "dockerfile", "--version", "3.6",
                                "--", "python3.6", "app.py"])
    assert (out.returncode, out.stderr) == (0, b"")
    assert out.stdout == (
        b"# utf8env: only `utf8env run` starts python3.6 as it would: open() UTF-8/strict, where "
        b"variables alone give ANSI_X3.4-1968/strict; preferred_encoding UTF-8, where variables "
        b"alone give ANSI_X3.4-1968; Python 3.6 has no UTF-8 mode of its own: `utf8env run` "
        b"applies it through a bootstrap\n"
        b"# utf8env: sys.getfilesystemencoding() stays ascii: Python 3.6 fixes it at start-up "
        b"from the locale (LC_CTYPE C), and no UTF-8 locale could be set\n"
        b"# utf8env: LC_ALL=C wins over LC_CTYPE and LANG, and neither CPython nor `utf8env run` "
        b"overrides it unasked: for a UTF-8 locale in every program, remove LC_ALL from the "
        b"target's environment (then set LC_CTYPE=C.UTF-8); --override-lc-all does both\n"
        + DOCKER_PATH + b'ENTRYPOINT ["utf8env", "run", "--", "python3.6", "app.py"]\n')
    out = env_command(TARGET + ["--env", "LC_ALL=C"])
    assert (out.returncode, out.stderr) == (0, b"")
    assert out.stdout == (
        b"# utf8env: nothing to set: a non-empty LC_ALL is an explicit choice: CPython never "
        b"overrides it\n"
        b"# utf8env: Python 3.6 started here needs `utf8env run -- COMMAND` (give COMMAND for its "
        b"line): open() UTF-8/strict, where variables alone give ANSI_X3.4-1968/strict; "
        b"preferred_encoding UTF-8, where variables alone give ANSI_X3.4-1968; Python 3.6 has no "
        b"UTF-8 mode of its own: `utf8env run` applies it through a bootstrap\n"
        b"# utf8env: LC_ALL=C wins over LC_CTYPE and LANG, and neither CPython nor `utf8env run` "
        b"overrides it unasked: for a UTF-8 locale in every program, remove LC_ALL from the "
        b"target's environment (then set LC_CTYPE=C.UTF-8); --override-lc-all does both\n")


@pytest.mark.fast
def test_a_machine_without_utf8_locales_gets_the_line_that_runs_it():
    out = env_command(["--empty-env", "--locales", "C", "--format", "systemd", "--version", "3.6",
                       "--", "/usr/bin/python3.6", "/srv/app 1.py", "100%"])
    assert (out.returncode, out.stderr) == (0, b"")
    assert out.stdout == (
        b"[Service]\n"
        b"# utf8env: only `utf8env run` starts /usr/bin/python3.6 as it would: open() UTF-8/strict, "
        b"where variables alone give ANSI_X3.4-1968/strict; preferred_encoding UTF-8, where "
        b"variables alone give ANSI_X3.4-1968; Python 3.6 has no UTF-8 mode of its own: `utf8env "
        b"run` applies it through a bootstrap\n"
        b"# utf8env: sys.getfilesystemencoding() stays ascii: Python 3.6 fixes it at start-up "
        b"from the locale (LC_CTYPE C), and no UTF-8 locale could be set\n"
        + SYSTEMD_PATH + b"ExecStart=\n"
        b'ExecStart=utf8env run -- /usr/bin/python3.6 "/srv/app 1.py" "100%%"\n')


@pytest.mark.parametrize("args, first, line", [
    (["--utf8", "strict", "--version", "3.13", "--", "python3", "-c", "print(1)"],
     b"the UTF-8 Strict mode (PEP 540's draft, which no release has: `utf8env run` applies it "
     b"through a bootstrap)", b"run: \"utf8env run --utf8 strict -- python3 -c 'print(1)'\""),
    # PYTHONUTF8 would lose to the command's own -X utf8, and -E ignores it.
    (["--utf8", "0", "--version", "3.12", "--", "python3", "-X", "utf8", "x.py"],
     b"UTF-8 mode 0, where variables alone give 1",
     b'run: "utf8env run --utf8 0 -- python3 -X utf8 x.py"'),
    (["--env", "LANG=C.UTF-8", "--utf8", "1", "--version", "3.12", "--", "python3", "-E", "x.py"],
     b"UTF-8 mode 1, where variables alone give 0", b'run: "utf8env run --utf8 1 -- python3 -E x.py"'),
])
@pytest.mark.fast
def test_what_no_variable_gives_is_said_with_the_line_that_runs_it(args, first, line):
    out = env_command(TARGET + ["--format", "github-actions"] + args)
    assert (out.returncode, out.stderr) == (0, b"")
    assert out.stdout == b"# utf8env: only `utf8env run` starts python3 as it would: " + first + \
        b"\n" + line + b"\n"


@pytest.mark.fast
def test_a_noncharacter_is_refused_in_systemd_environment_and_escaped_in_execstart():
    with pytest.raises(envformat.UsageError) as raised:
        render("systemd", Advice(variables=(("V", "a\ufffe"),)))
    assert str(raised.value) == ("--format systemd: 'a\\ufffe' holds U+FFFE, which systemd refuses "
                                 "in Environment= (its UTF-8 check, src/basic/utf8.c, refuses "
                                 "noncharacters)")
    assert render("systemd", Advice(entry=["a\ufffe"])) == (
        b'[Service]\nExecStart=\nExecStart="a\\xef\\xbf\\xbe"\n')


@pytest.mark.fast
def test_a_start_run_refuses_is_said_with_status_1():
    out = env_command(TARGET + ["--env", "PYTHONUTF8=bogus", "--version", "3.6", "--", "python3.6"])
    assert (out.returncode, out.stderr) == (1, b"")
    assert out.stdout == (b"# utf8env: `utf8env run` refuses to start python3.6, as Python 3.7 "
                          b"would (status 1):\n"
                          b"# utf8env: Fatal Python error: config_init_utf8_mode: invalid "
                          b"PYTHONUTF8 environment variable value\n")


@pytest.mark.fast
def test_the_output_depends_on_the_target_described_not_on_the_shell_it_runs_from():
    describe = ["--empty-env", "--env", "LANG=C", "--locales", "C.UTF-8", "--utf8", "1"]
    seen = {env_command(describe, env=shell).stdout for shell in (
        {}, {"LC_ALL": "C"}, {"LANG": "en_US.ISO-8859-1"}, {"PYTHONUTF8": "0", "LANG": "C.UTF-8"},
        {"PYTHONIOENCODING": "latin-1"})}
    assert seen == {b"export LC_CTYPE=C.UTF-8\nexport PYTHONIOENCODING=utf-8:surrogateescape\n"
                    b"export PYTHONUTF8=1\n" + PIOE_NOTE + b"# utf8env: PYTHONUTF8 gives UTF-8 "
                    b"mode 1 to Python 3.7+ and to the Pythons they start (`utf8env run` passes "
                    b"-X utf8=1, which they do not inherit); Python 3.6 ignores it\n"}


@pytest.mark.fast
def test_env_for_this_machine_and_this_environment():
    out = env_command(["--format", "dockerfile", "--", "sh"])
    assert (out.returncode, out.stdout, out.stderr) == (0, b"ENV LC_CTYPE=C.UTF-8\n", b"")
    out = env_command(["--", "sh"], env={"LANG": "C.UTF-8"})
    assert (out.returncode, out.stdout, out.stderr) == (
        0, b"# utf8env: nothing to set: nothing to coerce: the locale is not the legacy C locale\n",
        b"")


def test_env_for_this_machines_pythons():
    out = env_command(["--", machine.python("3.12")])
    assert (out.returncode, out.stdout, out.stderr) == (
        0, b"# utf8env: nothing to set: Python 3.12 coerces the C locale and picks UTF-8 mode by "
           b"itself\n", b"")
    out = env_command(["--", machine.python("3.6"), "app.py"], env={"LANG": "C"})
    assert (out.returncode, out.stdout, out.stderr) == (
        0, b"export LC_CTYPE=C.UTF-8\nexport PYTHONIOENCODING=utf-8:surrogateescape\n" + PIOE_NOTE, b"")


@pytest.mark.fast
def test_usage_errors():
    out = env_command(["--version", "3.6"])
    assert (out.returncode, out.stdout, out.stderr) == (
        2, b"", b"utf8env: error: --version 3.6: give the COMMAND that starts it\n")
    out = env_command(["--version", "2.7", "--", "python"])
    assert (out.returncode, out.stdout, out.stderr) == (
        2, b"", b"utf8env: error: --version '2.7': expected one of 3.6, 3.7, 3.8, 3.9, 3.10, "
                b"3.11, 3.12, 3.13, 3.14, 3.15\n")
    out = env_command(["--empty-env", "--", "no-such-command-here"])
    assert (out.returncode, out.stdout, out.stderr) == (
        127, b"", b"utf8env: error: command 'no-such-command-here': not found on PATH here (for "
                  b"a command of another machine or image, give --version X.Y if it starts a "
                  b"CPython)\n")
    out = env_command(["--format", "dockerfile", "--", "sh", UNDECODABLE])
    assert out.returncode == 0          # nothing to print for it: the value is never written
    out = env_command(TARGET + ["--env", "LC_ALL=C", "--format", "dockerfile", "--version", "3.6",
                                "--", "python3.6", UNDECODABLE])
    assert (out.returncode, out.stdout, out.stderr) == (
        2, b"", b"utf8env: error: --format dockerfile: " + _NOT_TEXT.encode() + b"a Dockerfile "
                b"is read as UTF-8, and an image's configuration (Env, Entrypoint) is JSON, whose "
                b"strings are Unicode\n")


# -- The proof: the target, so set, starts as `utf8env run` starts it -----------------------

PROGRAM = ("import sys, locale; data = sys.stdin.buffer.read(); text = data.decode("
           "sys.stdin.encoding, sys.stdin.errors); print(text, sys.argv[1:]); print(repr(text)); "
           "print(sys.stdout.encoding, sys.stdout.errors, sys.stderr.errors, "
           "sys.getfilesystemencoding(), locale.getpreferredencoding(False)); "
           "print(open(__import__('os').devnull).encoding)")


@pytest.mark.parametrize("python", ["3.6", "3.8", "3.12"])
@pytest.mark.parametrize("target, utf8", [({}, None), ({"LANG": "C"}, None), ({"LANG": "C"}, "1"),
                                          ({"LANG": "C.UTF-8"}, None), ({"LANG": "C.UTF-8"}, "1"),
                                          ({"LANG": "C"}, "0")])
def test_the_printed_variables_start_the_program_as_run_does(python, target, utf8, tmp_path):
    interpreter = machine.python(python)
    command = [interpreter, "-c", PROGRAM, "x\udcff"]
    switches = ["--utf8", utf8] if utf8 else []
    stdin = b"caf\xc3\xa9 \xff\n"
    through_run = subprocess.run(UTF8ENV + ["run"] + switches + ["--"] + command,
                                 env=dict(BASE, **target), input=stdin,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    printed = env_command(switches + ["--"] + command, env=target)
    assert (printed.returncode, printed.stderr) == (0, b"")
    assert not [line for line in printed.stdout.split(b"\n") if line.startswith(b"exec ")]
    script = tmp_path / "apply.sh"
    script.write_bytes(printed.stdout + b'exec "$@"\n')
    with_variables = subprocess.run(["sh", str(script)] + command, env=dict(BASE, **target),
                                    input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (with_variables.returncode, with_variables.stdout, with_variables.stderr) == \
        (through_run.returncode, through_run.stdout, through_run.stderr)
    assert through_run.returncode == 0


def test_36_under_lang_c_keeps_printing_what_it_printed_without_utf8env(tmp_path):
    """The issue's case: LC_CTYPE=C.UTF-8 alone makes 3.6's stdout strict, and a program
    that printed an undecodable file name under LANG=C then dies."""
    py36 = machine.python("3.6")
    command = [py36, "-c", "import sys; print('found: ' + sys.argv[1])", "xxx\udcff"]
    direct = subprocess.run(command, env=dict(BASE, LANG="C"), stdout=subprocess.PIPE)
    assert (direct.returncode, direct.stdout) == (0, b"found: xxx\xff\n")
    printed = env_command(["--", py36], env={"LANG": "C"})
    script = tmp_path / "apply.sh"
    script.write_bytes(printed.stdout + b'exec "$@"\n')
    after = subprocess.run(["sh", str(script)] + command, env=dict(BASE, LANG="C"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (after.returncode, after.stdout, after.stderr) == (0, b"found: xxx\xff\n", b"")


@pytest.mark.fast
def test_the_examples_of_a_described_target_are_byte_exact():
    import shlex
    page = open(os.path.join(os.path.dirname(__file__), "..", "docs", "run.md"), "rb").read()
    examples = re.findall(rb"^\$ utf8env env (.*)\n((?:(?!\$ |```).*\n)*)", page, re.M)
    assert len(examples) == 5
    for args, expected in examples:
        out = env_command(shlex.split(args.decode()))
        assert (out.returncode, out.stdout, out.stderr) == (0, expected, b"")


@pytest.mark.fast
def test_systemd_refuses_a_program_path_holding_a_dollar():
    # systemd expands $$ and ${NAME} in argv[0] but executes the path as written: no
    # spelling of a $ in the program's path gives both the same path.
    with pytest.raises(envformat.UsageError) as raised:
        render("systemd", Advice(entry=["/opt/a$b/utf8env", "run", "--", "cmd"]))
    assert str(raised.value) == ("--format systemd: the program path '/opt/a$b/utf8env' holds "
                                 "$, which no ExecStart= can run as it is (systemd expands $ in "
                                 "argv[0], not in the path)")
