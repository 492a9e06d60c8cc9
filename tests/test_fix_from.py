"""`utf8env fix --from REPORT.json` (fixer/_measured.py, _cli.py, _sources/reported.py): every
call site of the report applied, or listed with why and a non-zero status (Babel's
`pot_file.open()`, which the scan alone does not take for a Path's, is fixed from the
report and proven in a real CPython 3.11 with EncodingWarning made an error); a bad
report is one line and status 2, each kind with its exact message; the file names
printed with control characters escaped; the count of files edited."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from support import machine
from utf8env._cli import main

ACCEPTED = "not a JSON report of `utf8env readiness --format json`"


def _fix(capsys, *words):
    status = main(["fix"] + list(words))
    out, err = capsys.readouterr()
    return status, out, err


def _site(file, line, utf8=None, locale=None, **more):
    site = {"file": file, "line": line, "fixes": [
        {"encoding": "utf-8", "means": "", "measured": utf8},
        {"encoding": "locale", "means": "", "measured": locale}]}
    site.update(more)
    return site


def _report(folder, sites):
    (folder / "r.json").write_text(json.dumps({"schema": 1, "call_sites": sites}),
                                   encoding="utf-8")


# Babel's messages/frontend.py: `pot_file` a pathlib.Path the scan cannot know for one.
BABEL = '''import pathlib


def write_catalog(pot_file):
    with pot_file.open() as f:
        return f.read()


if __name__ == "__main__":
    import sys
    place = pathlib.Path(sys.argv[1])
    place.write_bytes(b"msgid")
    print(write_catalog(place))
'''


@pytest.mark.fast
def test_a_site_the_scan_does_not_take_is_fixed_from_the_report(tmp_path, monkeypatch, capsys):
    (tmp_path / "frontend.py").write_text(BABEL, encoding="utf-8")
    _report(tmp_path, [_site("frontend.py", 5)])
    monkeypatch.chdir(str(tmp_path))
    assert _fix(capsys, "--check", "frontend.py") == (0, (
        "no call site opens text in the locale's encoding (1 file)\n"), "")
    assert _fix(capsys, "--from", "r.json", "--check", "frontend.py") == (1, (
        'frontend.py:5:10: X.open: text in the locale\'s encoding (the report\'s warning, any '
        'receiver); fix: encoding="utf-8" (warned in the tests, none changed with it)\n'
        "1 call site in 1 file open text in the locale's encoding: 1 to fix (--write), 0 to "
        "review\n"), "")
    assert _fix(capsys, "--from", "r.json", "--write", "frontend.py") == (0, (
        'frontend.py:5:10: X.open: fixed: encoding="utf-8" (warned in the tests, none changed '
        'with it)\n'
        '1 call site fixed (encoding="utf-8") in 1 file; 0 to review\n'), "")
    assert (tmp_path / "frontend.py").read_text(encoding="utf-8") == BABEL.replace(
        "pot_file.open()", 'pot_file.open(encoding="utf-8")')
    # A second run: the report's site has its encoding now, nothing is left.
    assert _fix(capsys, "--from", "r.json", "--check", "frontend.py") == (0, (
        "no call site opens text in the locale's encoding (1 file)\n"), "")


def _warns(python, script, folder):
    done = subprocess.run([python, "-X", "warn_default_encoding", "-W", "error::EncodingWarning",
                           script, str(folder / "messages.pot")], cwd=str(folder),
                          env={"PATH": os.environ["PATH"], "LC_ALL": "C.UTF-8",
                               "HOME": str(folder), "TMPDIR": str(folder)},
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return done.returncode, done.stdout.decode("utf-8"), lines[-1:] if lines else []


def test_the_fix_from_the_report_ends_the_warning_in_cpython(tmp_path, monkeypatch, capsys):
    """The real place: CPython 3.11 with -X warn_default_encoding, the warning an error,
    runs the call before (it raises at exactly that line) and after the --write."""
    python = machine.python("3.11")
    script = tmp_path / "frontend.py"
    script.write_text(BABEL, encoding="utf-8")
    status, _, last = _warns(python, str(script), tmp_path)
    assert (status, last) == (1, ["EncodingWarning: 'encoding' argument not specified"])
    _report(tmp_path, [_site("frontend.py", 5)])
    monkeypatch.chdir(str(tmp_path))
    assert _fix(capsys, "--from", "r.json", "--write", "frontend.py")[0] == 0
    assert _warns(python, str(script), tmp_path) == (0, "msgid\n", [])


LEFT = '''def f(pot_file, zf, place):
    pot_file.open("rb")
    zf.open("x"); zf.open("y")
    x = 1
    place.read_text()  # noqa: PLW1514
    open("a")  # utf8env: ignore
    open = print
    open("b")
'''


@pytest.mark.fast
def test_each_report_site_not_applied_is_one_line_and_status_1(tmp_path, monkeypatch, capsys):
    """Binary mode there, two calls on the line, no call there, a call neither the scan
    nor the report's rule edits (open rebound), a line past the end, a file not given
    (named twice: listed once): each listed, in every mode; sites kept by a comment and
    the standard library's sites (not the project's) need nothing."""
    (tmp_path / "m.py").write_text(LEFT, encoding="utf-8")
    _report(tmp_path, [_site("m.py", 2), _site("m.py", 3), _site("m.py", 4), _site("m.py", 5),
                       _site("m.py", 6), _site("m.py", 8), _site("m.py", 40),
                       _site("other.py", 3), _site("other.py", 3),
                       _site("/usr/lib/python3.11/x.py", 3, origin="stdlib")])
    monkeypatch.chdir(str(tmp_path))
    listed = (
        "m.py:2: not applied: the call there opens in binary mode (the file changed since the "
        "report?)\n"
        "m.py:3: not applied: 2 calls there: which one warned is not known\n"
        "m.py:4: not applied: no call there (the file changed since the report?)\n"
        "m.py:8: not applied: the fixer finds no call there it can edit (its scan's, X.open(), "
        "X.read_text(), X.write_text())\n"
        "m.py:40: not applied: the file has 8 lines (changed since the report?)\n"
        "other.py:3: not applied: not among the files given\n")
    for mode in ((), ("--check",), ("--write",)):
        assert _fix(capsys, *(mode + ("--from", "r.json", "m.py"))) == (1, listed + (
            "no call site opens text in the locale's encoding (1 file)\n"
            "6 call sites of the report not applied (listed above)\n"), "")
    assert _fix(capsys, "--from", "r.json", "--diff", "m.py") == (1, "", listed + (
        "6 call sites of the report not applied (listed above)\n"))
    assert (tmp_path / "m.py").read_text(encoding="utf-8") == LEFT


@pytest.mark.fast
def test_a_report_site_measured_to_review_is_listed_for_review(tmp_path, monkeypatch, capsys):
    (tmp_path / "m.py").write_text("def f(pot_file):\n    return pot_file.open()\n",
                                   encoding="utf-8")
    _report(tmp_path, [_site("m.py", 2, "fails", "changes")])
    monkeypatch.chdir(str(tmp_path))
    assert _fix(capsys, "--from", "r.json", "--write", "m.py") == (1, (
        "m.py:2:12: X.open: review: measured: neither fix makes the changed tests pass in both "
        "modes: not the encoding of this call (see the report)\n"
        '0 call sites fixed (encoding="utf-8") in 0 files; 1 to review\n'), "")


# -- bad reports: one line naming the file and what is accepted, status 2 -------------------

def _with(**site):
    base = {"file": "m.py", "line": 1, "fixes": []}
    base.update(site)
    return {"call_sites": [base]}


BAD = [
    (_with(line="1"), "call_sites[0].line is a string, not a line number (an integer from 1)"),
    (_with(line=None), "call_sites[0].line is null, not a line number (an integer from 1)"),
    (_with(line=[1]), "call_sites[0].line is a list, not a line number (an integer from 1)"),
    (_with(line=True), "call_sites[0].line is true, not a line number (an integer from 1)"),
    (_with(line=1.0), "call_sites[0].line is a number, not a line number (an integer from 1)"),
    (_with(line=0), "call_sites[0].line is 0, not a line number (an integer from 1)"),
    (_with(file=7), "call_sites[0].file is a number, not a file name"),
    (_with(file=""), "call_sites[0].file is a string, not a file name"),
    (_with(origin=False), "call_sites[0].origin is false, not a string"),
    (_with(fixes={}), "call_sites[0].fixes is an object, not a list"),
    (_with(fixes=["utf-8"]), "call_sites[0].fixes[0] is a string, not an object"),
    (_with(fixes=[{"measured": "passes"}]), "call_sites[0].fixes[0].encoding is null, not a "
                                            "string"),
    (_with(fixes=[{"encoding": "utf-8", "measured": 1}]),
     "call_sites[0].fixes[0].measured is a number, not a string or null"),
    ({"call_sites": [{"file": "m.py", "fixes": []}]}, 'call_sites[0] has no "line" key'),
    ({"call_sites": [None]}, "call_sites[0] is null, not an object"),
    ({"call_sites": {}}, "call_sites is an object, not a list"),
    ({"runs": []}, 'no "call_sites" key'),
    ([], "the top level is a list, not an object"),
]


@pytest.mark.fast
@pytest.mark.parametrize("data, what", BAD, ids=[what for _, what in BAD])
def test_a_bad_report_is_one_line_and_status_2(tmp_path, capsys, data, what):
    (tmp_path / "m.py").write_text('open("a")\n', encoding="utf-8")
    (tmp_path / "r.json").write_text(json.dumps(data), encoding="utf-8")
    assert _fix(capsys, "--from", str(tmp_path / "r.json"), str(tmp_path / "m.py")) == (
        2, "", "utf8env: error: fix: --from %s: %s (%s)\n" % (tmp_path / "r.json", ACCEPTED, what))


@pytest.mark.fast
def test_a_report_that_is_no_json_file_is_one_line_and_status_2(tmp_path, capsys, monkeypatch):
    from utf8env.fixer import _measured
    (tmp_path / "m.py").write_text('open("a")\n', encoding="utf-8")
    monkeypatch.chdir(str(tmp_path))
    (tmp_path / "text.json").write_bytes(b"call_sites\n")
    (tmp_path / "latin.json").write_bytes(b'{"x": "caf\xe9"}')
    (tmp_path / "deep.json").write_bytes(b"[" * 100000)
    (tmp_path / "big.json").write_bytes(b" " * (1024 * 1024 - 1) + b"{}")
    os.mkfifo(str(tmp_path / "fifo.json"))
    os.mkdir(str(tmp_path / "folder.json"))
    for name, what in (
            ("text.json", "not JSON: Expecting value at line 1 column 1"),
            ("latin.json", "not UTF-8: byte 0xe9 at offset 10"),
            ("deep.json", "not JSON: nested too deeply"),
            ("fifo.json", "not a regular file"),
            ("folder.json", "not a regular file")):
        assert _fix(capsys, "--from", name, "m.py") == (
            2, "", "utf8env: error: fix: --from %s: %s (%s)\n" % (name, ACCEPTED, what)), name
    assert _fix(capsys, "--from", "none.json", "m.py") == (
        2, "", "utf8env: error: fix: --from none.json: No such file or directory\n")
    monkeypatch.setattr(_measured, "MAX_BYTES", 1024 * 1024)
    assert _fix(capsys, "--from", "big.json", "m.py") == (
        2, "", "utf8env: error: fix: --from big.json: %s (larger than 1 MiB)\n" % ACCEPTED)


# -- what fix prints ---------------------------------------------------------------------------

@pytest.mark.fast
def test_file_names_are_shown_with_control_characters_escaped(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(str(tmp_path))
    os.mkdir("d")
    with open("d/\x1b]0;owned\x07\tx.py", "w", encoding="utf-8") as f:
        f.write('open("a")\n')
    with open(b"d/\xff\x1b[2J.py", "w", encoding="utf-8") as f:
        f.write("open(\"b\")\ndef (:\n")
    assert _fix(capsys, "d") == (1, (
        'd/\\x1b]0;owned\\x07\\x09x.py:1:1: open: text in the locale\'s encoding; fix: '
        'encoding="utf-8"\n'
        "1 call site in 1 file open text in the locale's encoding: 1 to fix (--write), 0 to "
        "review\n"),
        "utf8env: d/\\xff\\x1b[2J.py:2:5: syntax error: invalid syntax (Python %d.%d's parser; "
        "left alone)\n" % sys.version_info[:2])
    assert _fix(capsys, "d/\x1b[2Jnone.py") == (
        2, "", "utf8env: error: fix: d/\\x1b[2Jnone.py: no such file or directory\n")


@pytest.mark.fast
def test_a_diff_quotes_such_names_as_gnu_diff_and_patch_applies_it(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(str(tmp_path))
    with open('x\x1b[2J\\"q.py', "w", encoding="utf-8") as f:
        f.write('open("a")\n')
    with open(b"y\xff.py", "w", encoding="utf-8") as f:
        f.write('open("b")\n')
    with open("caf\u00e9.py", "w", encoding="utf-8") as f:
        f.write('open("c")\n')
    status = main(["fix", "--diff", "."])
    out, err = capsys.readouterr()
    assert (status, out, err) == (1, (
        '--- ./caf\u00e9.py\n+++ ./caf\u00e9.py\n@@ -1 +1 @@\n'
        '-open("c")\n+open("c", encoding="utf-8")\n'
        '--- "./x\\033[2J\\\\\\"q.py"\n+++ "./x\\033[2J\\\\\\"q.py"\n@@ -1 +1 @@\n'
        '-open("a")\n+open("a", encoding="utf-8")\n'
        '--- "./y\\377.py"\n+++ "./y\\377.py"\n@@ -1 +1 @@\n'
        '-open("b")\n+open("b", encoding="utf-8")\n'), "")
    if shutil.which("patch"):       # GNU patch reads the quoted names back
        done = subprocess.run(["patch", "-s", "-p0", "--binary"], input=out.encode("utf-8"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert (done.returncode, done.stderr) == (0, b"")
        assert _fix(capsys, "--check", ".") == (
            0, "no call site opens text in the locale's encoding (3 files)\n", "")


@pytest.mark.fast
def test_write_counts_the_files_it_edited(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(str(tmp_path))
    (tmp_path / "a.py").write_text('open("a")\n', encoding="utf-8")
    (tmp_path / "b.py").write_text('import os\nos.popen("ls")\n', encoding="utf-8")
    (tmp_path / "c.py").write_text('open("c", **kw)\n', encoding="utf-8")
    assert _fix(capsys, "--write", ".") == (1, (
        './a.py:1:1: open: fixed: encoding="utf-8"\n'
        './b.py:2:1: os.popen: review: os.popen has no encoding parameter: use '
        'subprocess.run(..., text=True, encoding="utf-8")\n'
        './c.py:1:1: open: review: **kwargs may carry encoding=\n'
        '1 call site fixed (encoding="utf-8") in 1 file; 2 to review\n'), "")
