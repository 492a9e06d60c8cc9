"""The matrix's reports of a user's program, readable: the Python x environment-set grid
that fits 100 columns (or a wider terminal), text decoded for display with the bytes
where they are the evidence (all of them with --bytes), the Markdown and the HTML page
(in a real headless Chromium: screenshot and DOM), what Python 3.15 changes from the
engine; and the Debian chroot's 3.15 running the user's script (a host path it cannot
see by itself).

One program run (every interpreter found x the default environment sets, the README's
example) is shared by the module's tests; the rest is built from records."""
import os
import sys

import pytest

from utf8env import commands, options, pages, policy
from utf8env.matrix import cli, discovery, environments, program, report, results, worlds

from test_matrix import _Dom, _no_external_resources, browse

HERE = os.path.dirname(os.path.abspath(__file__))
README = os.path.join(os.path.dirname(HERE), "README.md")

# The README's example program (its `$ cat writes.py`).
WRITES = ('import sys\n'
          'with open("notes.txt", "w") as f:\n'
          '    f.write("caf\\u00e9\\n")\n'
          'with open("notes.txt") as f:\n'
          '    sys.stdout.write(f.read())\n')


def _need_worlds():
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)


def _chroot_315():
    found = [i for i in discovery.interpreters() if i.version == "3.15" and i.root != "/"]
    if not found:
        pytest.skip("no Python 3.15 in the Debian chroot (tests/support/build_debian_pythons.sh)")
    return found[0]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """writes.py under every interpreter found (the chroot's 3.14 and 3.15 too) x the
    default environment sets: `utf8env matrix -- writes.py`."""
    _need_worlds()
    folder = tmp_path_factory.mktemp("project")
    (folder / "writes.py").write_text(WRITES)
    return program.run_program([str(folder / "writes.py")], discovery.interpreters(),
                               environments.DEFAULT_ENV_SETS)


def _cell(run, python, env_set):
    return next(c for c in run.cells if (c.python, c.env_set) == (python, env_set))


# -- the chroot's 3.15 runs the user's script --------------------------------------------

def test_the_chroot_315_runs_the_host_script_and_reports_host_paths(run):
    py315 = _chroot_315()
    script = run.command[0]
    mine = [c for c in run.cells if c.interpreter == list(py315.argv)]
    assert [c.env_set for c in mine] == list(environments.DEFAULT_ENV_SETS)
    assert all("can't open file" not in c.stderr for c in mine)
    assert {c.env_set: c.status for c in mine} == {
        "utf8-locale": "ok", "c-locale": "ok", "c-legacy": "UnicodeError", "utf8-mode": "ok",
        "latin1": "ok"}
    legacy = _cell(run, "3.15", "c-legacy")
    assert legacy.where == script + ":3"                     # the host's path, not the chroot's
    assert [(w.file, w.line) for w in legacy.encoding_warnings] == [(script, 2)]
    assert _cell(run, "3.15", "utf8-locale").evidence.stdout == "caf\u00e9\n".encode()
    assert _cell(run, "3.15", "latin1").evidence.stdout == "caf\u00e9\n".encode()  # UTF-8 mode on


# -- text --------------------------------------------------------------------------------

def _readme_block(marker):
    with open(README, encoding="utf-8") as f:
        text = f.read()
    block = text[text.index(marker):]
    block = block[block.index("```\n") + 4:]
    return block[:block.index("```\n")]


def test_the_readme_example_is_the_real_output(run):
    found = [i.version for i in discovery.interpreters()]
    if found != list(discovery.VERSIONS):
        pytest.skip("the README's example ran on 3.6-3.15; here: %s" % ", ".join(found))
    block = _readme_block("<!-- matrix program text -->")
    cat, _, rest = block.partition("$ utf8env matrix -- writes.py\n")
    assert cat == "$ cat writes.py\n" + WRITES
    assert rest == report.render(run, "text", columns=100)


def test_program_text_fits_100_columns_or_the_wider_terminal(run):
    text = report.render(run, "text", columns=100)
    assert max(len(line) for line in text.splitlines()) <= 100
    lines = text.splitlines()
    assert lines[2].split() == ["python"] + list(environments.DEFAULT_ENV_SETS)
    assert lines[4 + len({c.python for c in run.cells})] == ""
    wide = report.render(run, "text", columns=160)
    assert max(len(line) for line in wide.splitlines()) > 100


def test_outputs_are_decoded_for_the_reader_with_the_bytes_where_they_are_the_evidence(run):
    cell = _cell(run, "3.12", "latin1")
    view = report._ProgramView(run, False)
    # A Latin-1 reader: today's bytes are its text; UTF-8 mode's are mojibake to it.
    assert view.changes(cell) == [
        "stdout 'caf\u00e9\\n' -> 'caf\u00c3\u00a9\\n' (bytes b'caf\\xc3\\xa9\\n')",
        "file notes.txt 'caf\u00e9\\n' -> 'caf\u00c3\u00a9\\n' (bytes b'caf\\xc3\\xa9\\n')"]
    raw = report._ProgramView(run, True)
    assert raw.changes(cell) == ["stdout b'caf\\xe9\\n' -> b'caf\\xc3\\xa9\\n'",
                                 "file b'notes.txt' b'caf\\xe9\\n' -> b'caf\\xc3\\xa9\\n'"]
    text = report.render(run, "text", raw=True)
    assert "b'caf\\xe9\\n' -> b'caf\\xc3\\xa9\\n'" in text and "'caf\u00e9\\n'" not in text


def test_the_bytes_option_reaches_the_report(tmp_path, capsys):
    _need_worlds()
    script = tmp_path / "writes.py"
    script.write_text(WRITES)
    py = next((i for i in discovery.interpreters() if i.version == "3.12" and i.root == "/"), None)
    if py is None:
        pytest.skip("no Python 3.12 in pyenv")
    argv = ["--python", py.argv[0], "--env-set", "latin1", "--", str(script)]
    parsed, operands = options.parse(commands.declaration("matrix"), ["--bytes"] + argv)
    assert parsed.bytes is True
    assert cli.run(parsed, operands) == 0
    raw = capsys.readouterr().out
    parsed, operands = options.parse(commands.declaration("matrix"), argv)
    assert parsed.bytes is None
    assert cli.run(parsed, operands) == 0
    shown = capsys.readouterr().out
    page = """\
utf8env matrix -- writes.py

python  latin1
======  ======
3.12    ok w2

Environment sets:
  latin1: a Latin-1 locale
  A cell: ok, the exception that ended the run (or exit N), wN: N EncodingWarnings.

Python 3.15 (PEP 686: UTF-8 mode on by default; still off with -X utf8=0):
%s
Findings, by place in the code:
  writes.py:2 \u2014 1 cell: EncodingWarning: 'encoding' argument not specified
    latin1 (3.12)
  writes.py:4 \u2014 1 cell: EncodingWarning: 'encoding' argument not specified
    latin1 (3.12)

1 cell, 0 with a problem
"""
    assert raw == page % (
        "  latin1 (3.12): on: stdout b'caf\\xe9\\n' -> b'caf\\xc3\\xa9\\n'; file b'notes.txt' "
        "b'caf\\xe9\\n' ->\n    b'caf\\xc3\\xa9\\n'\n")
    assert shown == page % (
        "  latin1 (3.12): on: stdout 'caf\u00e9\\n' -> 'caf\u00c3\u00a9\\n' (bytes b'caf\\xc3\\xa9\\n'); "
        "file notes.txt 'caf\u00e9\\n'\n    -> 'caf\u00c3\u00a9\\n' (bytes b'caf\\xc3\\xa9\\n')\n")


# -- built from records: the exact pages -------------------------------------------------

def _cell_record(python, env_set, status="ok", stderr="", warnings=(), off=None, on=None,
                 stdout=b"", exit=0):
    warned = None if python == "3.6" else [
        results.EncodingWarning(file="/p/app.py", line=n, message="'encoding' argument not specified")
        for n in warnings]
    reader = {"latin1": "iso8859-1", "gb18030": "gb18030"}.get(env_set, "utf-8")
    return results.ProgramCell(
        python=python, interpreter=["/py" + python], env_set=env_set, status=status, exit=exit,
        unicode_error=None, where=None, encoding_warnings=warned, utf8_mode_changes=None,
        stdout=repr(stdout), stderr=stderr, files={}, seconds=0.1,
        evidence=results.Evidence(reader=reader, stdout=stdout, stderr=stderr.encode(), files={},
                                  off=off, on=on))


_TRACEBACK = ('Traceback (most recent call last):\n  File "/p/app.py", line 7, in <module>\n'
              "UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in position 3: "
              "ordinal not in range(128)\n")


def _result(sets, cells):
    chosen = [e for e in environments.ENV_SETS if e.name in sets]
    return results.ProgramResult(
        schema=1, mode="program", command=["/p/app.py", "--all"], env_sets=chosen, pythons=[],
        hostile_files=False, stdin="b''", cells=cells,
        problems=sum(c.status != "ok" for c in cells),
        timing=results.Timing(wall_seconds=1.0, cell_seconds=2.0, workers=2, jobs=len(cells)))


def _small():
    latin = (("ok", "caf\u00e9\n".encode("latin-1"), {}), ("ok", "caf\u00e9\n".encode(), {}))
    cells = [
        _cell_record("3.6", "c-legacy", "UnicodeError", _TRACEBACK, exit=1,
                     off=("UnicodeError", b"", {}), on=("ok", b"caf\xc3\xa9\n", {})),
        _cell_record("3.6", "latin1", stdout=latin[0][1], off=latin[0], on=latin[1]),
        _cell_record("3.12", "c-legacy", "UnicodeError", _TRACEBACK, (2,), exit=1,
                     off=("UnicodeError", b"", {}), on=("ok", b"caf\xc3\xa9\n", {})),
        _cell_record("3.12", "latin1", warnings=(2,), stdout=latin[0][1], off=latin[0],
                     on=latin[1])]
    return _result(("c-legacy", "latin1"), cells)


def test_program_markdown_is_the_grid_the_legend_315_and_the_call_sites():
    assert report.render(_small(), "markdown") == """\
# utf8env matrix: `app.py --all`

| python | c-legacy | latin1 |
| --- | --- | --- |
| 3.6 | UnicodeEncodeError | ok |
| 3.12 | UnicodeEncodeError w1 | ok w1 |

Environment sets:

- `c-legacy`: LANG=C with coercion and UTF-8 mode off: ASCII, as 3.6 and older containers
- `latin1`: a Latin-1 locale

A cell: ok, the exception that ended the run (or exit N), wN: N EncodingWarnings.

## Python 3.15 (PEP 686: UTF-8 mode on by default; still off with -X utf8=0)

- c-legacy (3.6, 3.12): `off (-X utf8=0)`
- latin1 (3.6, 3.12): `on: stdout 'caf\u00e9\\n' -> 'caf\u00c3\u00a9\\n' (bytes b'caf\\xc3\\xa9\\n')`

## Findings, by place in the code

- `app.py:2` \u2014 2 cells: `EncodingWarning: 'encoding' argument not specified`; c-legacy, latin1 (3.12)
- `app.py:7` \u2014 2 cells: `UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in position 3: ordinal not in range(128)`; c-legacy (3.6, 3.12)

4 cells, 2 with a problem.
"""


def test_a_grid_wider_than_the_page_is_split_repeating_the_python_column():
    sets = environments.ENV_SET_NAMES
    cells = [_cell_record(py, es, "UnicodeError", _TRACEBACK, (2,), exit=1)
             for py in ("3.12", "3.13") for es in sets]
    text = report.render(_result(sets, cells), "text", columns=100)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 100
    grid = "UnicodeEncodeError w1"
    assert lines[:11] == [
        "utf8env matrix -- app.py --all", "",
        "python  utf8-locale            c-locale               c-legacy               utf8-mode",
        "======  =====================  =====================  =====================  ============"
        "=========",
        "3.12    %s  %s  %s  %s" % ((grid,) * 4),
        "3.13    %s  %s  %s  %s" % ((grid,) * 4), "",
        "python  latin1                 gb18030                no-locales",
        "======  =====================  =====================  =====================",
        "3.12    %s  %s  %s" % ((grid,) * 3),
        "3.13    %s  %s  %s" % ((grid,) * 3)]
    wide = report.render(_result(sets, cells), "text", columns=200).splitlines()
    assert wide[2].split() == ["python"] + list(sets) and wide[6] == ""


def test_the_page_width_is_100_or_a_wider_terminal(monkeypatch):
    class Stream(object):
        def __init__(self, tty):
            self.tty = tty

        def isatty(self):
            return self.tty
    monkeypatch.setenv("COLUMNS", "160")
    assert pages.width(Stream(True)) == 160
    assert pages.width(Stream(False)) == 100
    monkeypatch.setenv("COLUMNS", "80")
    assert pages.width(Stream(True)) == 100


def test_text_of_decodes_for_the_reader_and_keeps_the_evidence():
    assert pages.text_of(b"caf\xe9\n", "iso8859-1") == "'caf\u00e9\\n'"
    assert pages.text_of(b"caf\xc3\xa9\n", "utf-8") == "'caf\u00e9\\n'"
    assert pages.text_of(b"xxx\xff\n", "utf-8") == "b'xxx\\xff\\n'"          # does not decode
    assert pages.text_of(b"caf\xc3\xa9", "iso8859-1") == "'caf\u00c3\u00a9' (bytes b'caf\\xc3\\xa9')"
    assert pages.text_of(b"caf\xc3\xa9", "utf-8", raw=True) == "b'caf\\xc3\\xa9'"
    assert pages.text_of("\u20ac\u20ac".encode(), "utf-8", limit=4) == "'\u20ac'\u2026"
    assert pages.text_of(None) == "-"


# -- Python 3.15 from the engine -----------------------------------------------------------

def test_the_315_prediction_is_the_engines(monkeypatch):
    latin1 = next(e for e in environments.ENV_SETS if e.name == "latin1")
    assert report.pep686(latin1) == (1, "default")
    legacy = next(e for e in environments.ENV_SETS if e.name == "c-legacy")
    assert report.pep686(legacy) == (0, "-X utf8=0")
    seen = []
    real = policy.decide

    def decide(inputs):
        seen.append(inputs)
        return real(inputs._replace(args=("-X", "utf8=0")))
    monkeypatch.setattr(policy, "decide", decide)
    assert report.pep686(latin1) == (0, "-X utf8=0")        # whatever the engine says
    assert seen[0].version == "3.15" and seen[0].environ == {"LANG": "en_US.ISO-8859-1"}


def _pep_result(observed_mode):
    interp = discovery.Interpreter("3.6", ["/py3.6"], "/")
    env = environments._env("Python 3", interp, "latin1", (("LANG", "en_US.ISO-8859-1"),),
                            encoding="iso8859-1")
    checked = results.CheckedEnvironment(env, {"utf8_mode": observed_mode}, None)
    return results.PepResult(schema=1, mode="pep", environments=[checked], rows=["Python 3"],
                             tables=[], timing=None)


def test_the_pep_315_column_compares_the_engine_with_what_was_measured():
    assert report.Pep686(_pep_result(0), "Python 3").text() == "on; was off"
    assert report.Pep686(_pep_result(1), "Python 3").text() == "on"
    assert report.Pep686(_pep_result(0), "Python 3").lines() == [
        "3.6 LANG=en_US.ISO-8859-1 [latin1 world]: off today, on on 3.15 (default: PEP 686: UTF-8 "
        "mode is on unless -X utf8=0 or PYTHONUTF8=0 turns it off)"]


# -- HTML in a real browser ----------------------------------------------------------------

def test_program_html_in_headless_chromium(run, tmp_path):
    page = report.render(run, "html")
    dom, shot = browse(page, tmp_path, "program")
    d = _Dom()
    d.feed(dom)
    pythons = {c.python for c in run.cells}
    assert [g["cells"] for g in d.grids] == [len(pythons) * len(environments.DEFAULT_ENV_SETS)]
    assert d.legend == list(environments.DEFAULT_ENV_SETS)
    warned = [c for c in run.cells if c.encoding_warnings]
    assert d.grids[0]["warnings"] == len(warned)
    assert d.grids[0]["green_warned"] == len([c for c in warned if c.status == "ok"]) > 0
    view = report._ProgramView(run, False)
    changed = sum(view.changed_by_315(c, es) for c in run.cells for es in run.env_sets
                  if es.name == c.env_set)
    assert d.summary == (
        "%d cells, %d ok, %d with a problem, %d with EncodingWarnings, %d that Python 3.15 "
        "changes." % (len(run.cells), len(run.cells) - run.problems, run.problems, len(warned),
                      changed))
    assert dom.count("<details>") == len(run.cells)            # each cell's evidence, one click
    assert dom.count("3.15 changes it") == changed
    _no_external_resources(page, d)
    print("screenshot:", shot, file=sys.stderr)
