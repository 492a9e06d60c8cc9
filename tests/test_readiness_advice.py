"""Measured advice (readiness/_advice.py), `utf8env fix --from REPORT.json` and
`utf8env fix --prove`, on small projects made in tmp_path, in the real Latin-1 world,
with this interpreter (3.10+, pytest of its own).

The project's three changed tests need three different answers: one is fixed by
encoding="utf-8" (a note whose bytes must be UTF-8: failed today, passes with UTF-8 mode),
one only by encoding="locale" (a Latin-1 tool's output), one by neither (a file name
with e-acute: the file-system encoding, not the encoding of the call sites); and one call
no test exercises (untested)."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import pytest

from utf8env import _worlds as worlds
from utf8env._own_command import own_command
from utf8env._sources import apply as _apply
from utf8env import _discovery as discovery
from utf8env.readiness import _advice as advice, _cli as readiness_cli, _compare as compare
from utf8env.readiness import _formats as formats
from utf8env.readiness import _suite as suite, _targets as targets
from utf8env.readiness._guard import Guard

APP = '''"""A project whose changed tests need three different answers."""
import os
import subprocess


def save(path, text):
    with open(path, "w") as f:
        f.write(text)


def tool():
    return subprocess.run(["printf", "caf\\\\351"], stdout=subprocess.PIPE, text=True).stdout


def listing(folder, out):
    with open(out, "w") as f:
        for name in sorted(os.listdir(folder)):
            f.write(name + "\\n")


def read(path):
    with open(path) as f:
        return f.read()


def unused(path):
    return open(path).read()
'''

TESTS = '''import os

import app


def test_saved_as_utf8(tmp_path):
    app.save(str(tmp_path / "n.txt"), "caf\\u00e9")
    assert (tmp_path / "n.txt").read_bytes() == "caf\\u00e9".encode("utf-8")


def test_tool_output():
    assert app.tool() == "caf\\u00e9"


def test_names(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    open(os.path.join(os.fsencode(folder), b"caf\\xe9.txt"), "wb").close()
    app.listing(str(folder), str(tmp_path / "out.txt"))
    assert app.read(str(tmp_path / "out.txt")) == "caf\\u00e9.txt\\n"
'''

# A project whose fix keeps every test: settings written and read back.
KEPT = '''import json


def write(path, settings):
    with open(path, "w") as f:
        json.dump(settings, f)


def read(path):
    with open(path) as f:
        return json.load(f)
'''
KEPT_TESTS = '''import kept


def test_settings_read_back(tmp_path):
    kept.write(str(tmp_path / "s.json"), {"name": "caf\\u00e9"})
    assert kept.read(str(tmp_path / "s.json")) == {"name": "caf\\u00e9"}
'''


def _project(folder, files):
    os.makedirs(os.path.join(folder, "tests"))
    for name, text in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(text)
    with open(os.path.join(folder, "pytest.ini"), "w") as f:
        f.write("[pytest]\npythonpath = .\n")
    return folder


def _need():
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)
    if sys.version_info < (3, 10):
        pytest.skip("EncodingWarning is Python 3.10+")
    problem = targets.pytest_problem(discovery.named([sys.executable])[0],
                                   targets.base_environ(dict(os.environ)))
    if problem:
        pytest.skip(problem)


ARGS = ["-q", "-p", "no:cacheprovider"]


@pytest.fixture(scope="module")
def advised(tmp_path_factory):
    """(the project, the ReadinessResult with measured advice, the JSON page)."""
    _need()
    project = _project(str(tmp_path_factory.mktemp("advice") / "p"),
                       {"app.py": APP, "tests/test_app.py": TESTS})
    pythons = discovery.named([sys.executable])
    started = time.monotonic()
    planned, folders = suite.plan(project, pythons, "latin1", ARGS, dict(os.environ), 600)
    try:
        with Guard() as guard:
            runs, workers = guard.execute(planned, "latin1")
            result = compare.compare(ARGS, "latin1", planned, runs, workers,
                                     time.monotonic() - started)
            result = readiness_cli._advise(result, planned, project, pythons, "latin1", ARGS,
                                           600, guard, started)
    finally:
        for folder in folders:
            folder.remove()
    return project, result, formats.render(result, "json")


UTF8 = "tests/test_app.py::test_saved_as_utf8"
TOOL = "tests/test_app.py::test_tool_output"
NAMES = "tests/test_app.py::test_names"
TOGETHER = "; measured together with %s, which the same tests use: fix them together"


def test_each_changed_tests_fixes_are_measured(advised):
    _, result, _ = advised
    assert {c.test for c in result.changed} == {UTF8, TOOL, NAMES}
    got = {s.where: [(f.encoding, f.measured, f.means) for f in s.fixes]
           for s in result.call_sites}
    neither = ("; neither fix makes the tests pass in both modes: not the encoding of these "
               "call sites")
    still = ("%s still changes (passed -> failed: UnicodeEncodeError: 'utf-8' codec can't "
             "encode character '\\udce9' in position 3: surrogates not allowed)" % NAMES)
    still_locale = ("%s still changes (passed -> failed: UnicodeEncodeError: 'latin-1' codec "
                    "can't encode character '\\udce9' in position 3: ordinal not in range(256))"
                    % NAMES)
    assert got == {
        "app.py:7": [
            ("utf-8", "passes", "measured: %s passes in both modes" % UTF8),
            ("locale", "fails", "measured: %s fails in both modes (AssertionError: assert "
             "b'caf\\xe9' == b'caf\\xc3\\xa9')" % UTF8)],
        "app.py:12": [
            ("utf-8", "fails", "measured: %s fails in both modes (UnicodeDecodeError: 'utf-8' "
             "codec can't decode byte 0xe9 in position 3: unexpected end of data)" % TOOL),
            ("locale", "passes", "measured: %s passes in both modes" % TOOL)],
        "app.py:16": [
            ("utf-8", "changes", "measured: " + still + TOGETHER % "app.py:22"),
            ("locale", "changes", "measured: " + still_locale + TOGETHER % "app.py:22" + neither)],
        "app.py:22": [
            ("utf-8", "changes", "measured: " + still + TOGETHER % "app.py:16"),
            ("locale", "changes", "measured: " + still_locale + TOGETHER % "app.py:16" + neither)],
    }


def test_the_trials_and_their_cost(advised):
    _, result, _ = advised
    version = "%d.%d" % sys.version_info[:2]
    assert [(t.python, t.encoding, t.sites, t.not_edited, [row[0] for row in t.tests],
             [(r.mode, r.counts) for r in t.runs]) for t in result.advice] == [
        (version, encoding, ["app.py:7", "app.py:12", "app.py:16", "app.py:22"], [],
         [NAMES, UTF8, TOOL], [("today", {"passed": 2, "failed": 1}),
                               ("3.15", {"passed": 1, "failed": 2})])
        for encoding in ("locale", "utf-8")]
    # the 2 runs (this fixture reruns nothing), then 4 trial runs (2 fixes x 2 modes)
    assert result.timing.jobs == 2 + 4
    last = formats.render(result, "text").splitlines()[-2:]
    assert " ".join(" ".join(last).split()).endswith("; 4 of them tried the two fixes in copies of the project")


def test_readiness_runs_two_trials_as_the_reruns(advised):
    """The command line reruns the changed tests and tries the fixes after the first
    runs: encoding="locale" with UTF-8 mode off and encoding="utf-8" with it on are what
    the mode already does, so those two trials are the reruns (in the first runs'
    copies); 2 + 4 runs, not 2 + 2 + 4, and the same measured fixes."""
    project, result, _ = advised
    proc = subprocess.run(own_command() + ["readiness", "--python", sys.executable, "--format",
                                           "json", "--", "pytest"] + ARGS, cwd=project,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout.decode("utf-8"))
    assert data["timing"]["jobs"] == 2 + 4 and data["unstable"] == []
    assert [(r["mode"], r["counts"]) for r in data["reruns"]] == [
        ("today", {"passed": 2, "failed": 1}), ("3.15", {"passed": 1, "failed": 2})]
    trials = {t["encoding"]: t["runs"] for t in data["advice"]}
    assert [trials["locale"][0], trials["utf-8"][1]] == data["reruns"]      # the same runs
    assert {s["file"] + ":%d" % s["line"]: [(f["encoding"], f["measured"], f["means"])
                                            for f in s["fixes"]]
            for s in data["call_sites"]} == {
        s.where: [(f.encoding, f.measured, f.means) for f in s.fixes] for s in result.call_sites}
    assert data["untested"] == [{"file": "app.py", "line": 27, "call": "open", "verdict": "fix"}]


# A test that changes in the first runs only: it fails the first time it runs with UTF-8
# mode on (a counter in the copy), and reads the counter through a call that warns.
FLAKY_TEST = '''import os, sys


def test_flaky():
    n = int(open("counter").read()) + 1 if os.path.exists("counter") else 1
    with open("counter", "w") as f:
        f.write(str(n))
    assert not (n == 1 and sys.flags.utf8_mode), "first run with UTF-8 mode"
'''


def _follow_up(project, cores, between=None):
    """(the ReadinessResult of readiness's follow-up on `project` with `cores` cores,
    [(unit, [the tests each job runs], [its folder])] per batch after the first runs);
    `between()` called between the first runs and the follow-up."""
    pythons = discovery.named([sys.executable])
    started = time.monotonic()
    planned, folders = suite.plan(project, pythons, "latin1", ARGS, dict(os.environ), 600)
    batches = []
    try:
        with Guard() as guard:
            runs, workers = guard.execute(planned, "latin1")
            if between is not None:
                between()

            def execute(jobs, unit):
                tests = []
                for _, _, stage, _ in jobs:
                    with open(stage.path("only.txt"), encoding="utf-8") as f:
                        tests.append(f.read().split())
                batches.append((unit, tests, [stage.dir for _, _, stage, _ in jobs]))
                return guard.execute(jobs, "latin1", unit)

            result = advice.follow_up(planned, runs, workers, project, pythons, "latin1",
                                      ARGS, dict(os.environ), 600, execute, started,
                                      cores=cores)
    finally:
        for folder in folders:
            folder.remove()
    return result, batches


FLAKY = "tests/test_flaky.py::test_flaky"


HELD = sorted([UTF8, TOOL, NAMES])


@pytest.mark.parametrize("cores, batches, copies", [
    # fewer cores than runs: the reruns first, then the other trials for the changes that
    # held, in the reruns' copies (the first runs'): no other copy
    (2, [("runs again", [sorted(HELD + [FLAKY])] * 2), ("trials of the fixes", [HELD] * 2)],
     2),
    # as many: every run at once, the other trials in fresh copies, the trials of the
    # unstable test dropped
    (4, [("runs again and trials of the fixes", [sorted(HELD + [FLAKY])] * 4)], 4)])
def test_the_fixes_are_measured_for_the_changes_the_reruns_confirm(cores, batches, copies,
                                                                   tmp_path):
    _need()
    project = _project(str(tmp_path / "p"), {"app.py": APP, "tests/test_app.py": TESTS,
                                             "tests/test_flaky.py": FLAKY_TEST})
    result, ran = _follow_up(project, cores)
    assert [c.test for c in result.unstable] == [FLAKY]
    assert [(unit, [sorted(tests) for tests in jobs]) for unit, jobs, _ in ran] == batches
    assert [(t.encoding, sorted(row[0] for row in t.tests)) for t in result.advice] == [
        ("locale", HELD), ("utf-8", HELD)]
    assert result.timing.jobs == 2 + 2 + 2
    folders = [folder for _, _, made in ran for folder in made]
    assert len(set(folders)) == copies and os.listdir(tempfile.gettempdir()) == []


def test_trials_whose_fresh_copies_cannot_be_made_are_said_not_measured(tmp_path):
    """Where every run goes at once, the other trials need fresh copies of the project:
    when they cannot be made (here the project moved away after the first runs; a full
    temporary folder alike), the report is whole and each fix says why it was not tried;
    no folder is left."""
    _need()
    project = _project(str(tmp_path / "p"), {"app.py": APP, "tests/test_app.py": TESTS})
    result, ran = _follow_up(project, 4, lambda: os.rename(project, project + "-moved"))
    assert [(unit, [sorted(tests) for tests in jobs]) for unit, jobs, _ in ran] == [
        ("runs again", [HELD] * 2)]
    why = ("not measured: cannot copy the project for the runs into the temporary folder "
           "%s: %s: No such file or directory" % (tempfile.gettempdir(), project))
    assert {(f.encoding, f.measured, f.means) for s in result.call_sites for f in s.fixes
            if s.changed_tests} == {("utf-8", "not run", why), ("locale", "not run", why)}
    assert result.timing.jobs == 2 + 2 and os.listdir(tempfile.gettempdir()) == []


@pytest.mark.parametrize("cores, batches", [
    (2, [("runs again", [[FLAKY]] * 2)]),
    (4, [("runs again and trials of the fixes", [[FLAKY]] * 4)])])
def test_no_fix_is_measured_for_a_change_the_reruns_find_unstable(cores, batches, tmp_path):
    _need()
    project = _project(str(tmp_path / "p"), {"tests/test_flaky.py": FLAKY_TEST})
    result, ran = _follow_up(project, cores)
    assert [c.test for c in result.unstable] == [FLAKY] and result.changed == []
    assert [(unit, jobs) for unit, jobs, _ in ran] == batches
    assert result.advice == () and result.timing.jobs == 2 + 2
    assert os.listdir(tempfile.gettempdir()) == []     # the trials' fresh copies too


def test_the_untested_calls_are_listed(advised):
    _, result, page = advised
    assert [tuple(u) for u in result.untested] == [("app.py", 27, "open", "fix")]
    assert json.loads(page)["untested"] == [
        {"file": "app.py", "line": 27, "call": "open", "verdict": "fix"}]
    text = " ".join(formats.render(result, "text").split())
    assert ("Untested: 1 call the fixer's scan finds that no test exercised (no EncodingWarning "
            "in either run), the 3.15 risk no test measures: app.py:27") in text


def _fix(args, cwd):
    proc = subprocess.run(own_command() + ["fix"] + args, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=600)
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


def test_fix_from_takes_the_measured_choice(advised, tmp_path):
    project, _, page = advised
    report = tmp_path / "report.json"
    report.write_text(page, encoding="utf-8")
    assert _fix(["--from", str(report), "app.py"], project) == (0, (
        'app.py:7:10: open: text in the locale\'s encoding; fix: encoding="utf-8" (measured: '
        'the changed tests pass in both modes with it)\n'
        'app.py:12:12: subprocess.run: decodes its output with the locale\'s encoding; fix: '
        'encoding="locale" (encoding="locale" is Python 3.10+) (measured: the changed tests '
        'pass in both modes with it)\n'
        'app.py:16:10: open: review: measured: neither fix makes the changed tests pass in both '
        'modes: not the encoding of this call (see the report)\n'
        'app.py:22:10: open: review: measured: neither fix makes the changed tests pass in both '
        'modes: not the encoding of this call (see the report)\n'
        'app.py:27:12: open: review: no test exercised it (not in the report): not measured\n'
        "5 call sites in 1 file open text in the locale's encoding: 2 to fix (--write), 3 to "
        "review\n"), "")
    import shutil
    copy = str(tmp_path / "copy")
    shutil.copytree(project, copy)
    code, out, _ = _fix(["--from", str(report), "--write", "app.py"], copy)
    assert (code, out.splitlines()[-1]) == (1, '2 call sites fixed (1 encoding="utf-8", 1 '
                                               'encoding="locale") in 1 file; 3 to review')
    with open(os.path.join(copy, "app.py"), encoding="utf-8") as f:
        text = f.read()
    assert 'open(path, "w", encoding="utf-8")' in text and 'text=True, encoding="locale")' in text
    assert text.count("encoding=") == 2


def _masked(out):
    return re.sub(r"\d+\.\d( s)?\b", "N", out)


def test_fix_prove_changes_a_test(advised, tmp_path):
    project, _, _ = advised
    code, out, err = _fix(["--prove", "--python", sys.executable, "app.py", "--"] + ["pytest"]
                          + ARGS, project)
    version = "%d.%d" % sys.version_info[:2]
    assert (code, err) == (1, "")
    assert _masked(out) == _masked("""\
utf8env fix --prove -- pytest -q -p no:cacheprovider
fixed in copies: 5 call sites (encoding="utf-8") in 1 file; 0 to review, left as they are
world latin1: a Latin-1 locale (LANG=en_US.ISO-8859-1)

python  run                      exit  tests               seconds
======  =======================  ====  ==================  =======
{v}    unfixed, UTF-8 mode off  1     2 passed, 1 failed  1.0
{v}    fixed, UTF-8 mode off    1     2 passed, 1 failed  1.0
{v}    fixed, UTF-8 mode on     1     1 passed, 2 failed  1.0

Tests that change with the fix (against the unfixed code, UTF-8 mode off):
  tests/test_app.py::test_names [{v}]
    fixed, UTF-8 mode on: passed -> failed: UnicodeEncodeError: 'utf-8' codec can't encode character
      '\\udce9' in position 3: surrogates not allowed
  tests/test_app.py::test_saved_as_utf8 [{v}]
    fixed, UTF-8 mode off: failed -> passed: AssertionError: assert b'caf\\xe9' == b'caf\\xc3\\xa9'
    fixed, UTF-8 mode on: failed -> passed: AssertionError: assert b'caf\\xe9' == b'caf\\xc3\\xa9'
  tests/test_app.py::test_tool_output [{v}]
    fixed, UTF-8 mode off: passed -> failed: UnicodeDecodeError: 'utf-8' codec can't decode byte
      0xe9 in position 3: unexpected end of data
    fixed, UTF-8 mode on: passed -> failed: UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9
      in position 3: unexpected end of data

The tests that differ ran again in the same copies (3 runs): 3 differ again, 0 unstable.
The fix changes 3 of 3 tests.
6 runs on 2 workers, 1.0 s
""".format(v=version.ljust(4)))
    with open(os.path.join(project, "app.py"), encoding="utf-8") as f:
        assert f.read() == APP                  # the user's file, untouched


def test_fix_prove_keeps_behaviour(tmp_path):
    _need()
    project = _project(str(tmp_path / "p"), {"kept.py": KEPT, "tests/test_kept.py": KEPT_TESTS})
    code, out, err = _fix(["--prove", "--python", sys.executable, "kept.py", "--", "pytest"]
                          + ARGS, project)
    version = "%d.%d" % sys.version_info[:2]
    assert (code, err) == (0, "")
    assert _masked(out) == _masked("""\
utf8env fix --prove -- pytest -q -p no:cacheprovider
fixed in copies: 2 call sites (encoding="utf-8") in 1 file; 0 to review, left as they are
world latin1: a Latin-1 locale (LANG=en_US.ISO-8859-1)

python  run                      exit  tests     seconds
======  =======================  ====  ========  =======
{v}    unfixed, UTF-8 mode off  0     1 passed  1.0
{v}    fixed, UTF-8 mode off    0     1 passed  1.0
{v}    fixed, UTF-8 mode on     0     1 passed  1.0

No test changed: the fixed code gives every test (1) the unfixed code's outcome and output, with
UTF-8 mode off and on.
3 runs on 2 workers, 1.0 s
""".format(v=version.ljust(4)))


@pytest.mark.fast
def test_a_site_the_fixer_cannot_edit_says_so(tmp_path):
    (tmp_path / "m.py").write_text('import os\nx = os.popen("ls").read()\ny = open("f")\n'
                                   'z = 1\n', encoding="utf-8")
    edited, refused = _apply.at_sites(str(tmp_path), ["m.py:2", "m.py:3", "m.py:4",
                                                      "../out.py:1", "gone.py:1"], "utf-8")
    assert edited == {"m.py:3": "open"}
    assert refused == {
        "m.py:2": "the fixer cannot edit it (review: os.popen has no encoding parameter: use "
                  "subprocess.run(..., text=True, encoding=\"utf-8\"))",
        "m.py:4": "the fixer finds no call it knows on that line",
        "../out.py:1": "not a file of the project: the fixer cannot edit it",
        "gone.py:1": "not a file of the project: the fixer cannot edit it"}
    assert (tmp_path / "m.py").read_text(encoding="utf-8").splitlines()[2] == \
        'y = open("f", encoding="utf-8")'


@pytest.mark.fast
def test_a_warning_inside_a_call_over_several_lines_finds_it(tmp_path):
    (tmp_path / "m.py").write_text('x = open(\n    "f",\n    "w",\n)\n', encoding="utf-8")
    edited, refused = _apply.at_sites(str(tmp_path), ["m.py:3"], "locale")
    assert (edited, refused) == ({"m.py:3": "open"}, {})
    assert (tmp_path / "m.py").read_text(encoding="utf-8") == \
        'x = open(\n    "f",\n    "w",\n    encoding="locale",\n)\n'


@pytest.mark.fast
def test_fix_usage_errors(tmp_path, capsys):
    from utf8env._cli import main
    (tmp_path / "a.py").write_text("open('x')\n")
    for argv, message in (
            (["fix", str(tmp_path / "a.py"), "--", "pytest"],
             "fix: `-- pytest ARGS...` goes with --prove only"),
            (["fix", "--prove", str(tmp_path / "a.py")],
             "fix --prove: no suite given: expected PATH... -- pytest ARGS..."),
            (["fix", "--prove", "--write", str(tmp_path / "a.py"), "--", "pytest"],
             "fix --prove changes copies only: --check, --diff and --write do not go with it"),
            (["fix", "--from", str(tmp_path / "none.json"), str(tmp_path / "a.py")],
             "fix: --from %s: No such file or directory" % (tmp_path / "none.json"))):
        assert main(argv) == 2
        assert capsys.readouterr() == ("", "utf8env: error: %s\n" % message)


# A src-layout project whose package the interpreter imports from the project itself (an
# editable install's path: here PYTHONPATH names the project's src/), as pip install -e
# gives it: the runs must import each copy's package, or --prove proves nothing.
SRC_PACKAGE = '''def save(path, text):
    with open(path, "w") as f:
        f.write(text)
'''
SRC_TESTS = '''import os

import notes_pkg


def test_saved_as_utf8(tmp_path):
    notes_pkg.save(str(tmp_path / "n.txt"), "caf\\u00e9")
    assert (tmp_path / "n.txt").read_bytes() == "caf\\u00e9".encode("utf-8")


def test_the_copy_is_imported():
    assert os.path.realpath(notes_pkg.__file__).startswith(os.path.realpath(os.getcwd()) + os.sep)
'''


def _run(words, cwd, **env):
    proc = subprocess.run(own_command() + words, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=600, env=dict(os.environ, **env))
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


def test_fix_prove_tests_the_fixed_copy_of_a_src_layout_project(tmp_path):
    _need()
    project = str(tmp_path / "p")
    os.makedirs(os.path.join(project, "src", "notes_pkg"))
    os.makedirs(os.path.join(project, "tests"))
    for name, text in (("src/notes_pkg/__init__.py", SRC_PACKAGE),
                       ("tests/test_notes.py", SRC_TESTS), ("pytest.ini", "[pytest]\n")):
        with open(os.path.join(project, name), "w", encoding="utf-8") as f:
            f.write(text)
    editable = os.path.join(project, "src")
    code, out, err = _run(["fix", "--prove", "--python", sys.executable, "src", "--", "pytest"]
                          + ARGS, project, PYTHONPATH=editable)
    assert (code, err) == (1, "")
    # the fixed copies' own package ran: the fix makes the test pass with UTF-8 mode off too
    assert ("  tests/test_notes.py::test_saved_as_utf8 [%d.%d]\n"
            "    fixed, UTF-8 mode off: failed -> passed" % sys.version_info[:2]) in out
    assert "test_the_copy_is_imported" not in out          # it passed in every run
    # readiness too: the site is the copy's, so its fixes are measured
    code, out, err = _run(["readiness", "--python", sys.executable, "--format", "json", "--",
                           "pytest"] + ARGS, project, PYTHONPATH=editable)
    data = json.loads(out)
    assert code == 1 and [(s["file"], s["line"]) for s in data["call_sites"]] == [
        ("src/notes_pkg/__init__.py", 2)]
    assert [f["measured"] for f in data["call_sites"][0]["fixes"]] == ["passes", "fails"]
    assert data["runs"][0]["counts"] == {"passed": 1, "failed": 1}


def test_a_project_of_its_own_named_utf8env_is_tested_not_shadowed(tmp_path):
    """readiness lends its plugin's package under a private name: a project that is itself
    a `utf8env` (this repository, a fork, another version), with a `readiness` package of
    its own, imports its own in the runs."""
    _need()
    project = str(tmp_path / "p")
    os.makedirs(os.path.join(project, "utf8env", "readiness"))
    os.makedirs(os.path.join(project, "tests"))
    for name, text in (
            ("utf8env/__init__.py", 'ORIGIN = "the project"\n'),
            ("utf8env/readiness/__init__.py", ""),
            ("tests/conftest.py", "import os\nimport utf8env\n\nassert os.path.realpath("
                                  "utf8env.__file__).startswith(os.path.realpath(os.getcwd()))\n"),
            ("tests/test_own.py", "import utf8env\n\n\ndef test_own():\n"
                                  '    assert utf8env.ORIGIN == "the project"\n'),
            ("pytest.ini", "[pytest]\npythonpath = .\n")):
        with open(os.path.join(project, name), "w", encoding="utf-8") as f:
            f.write(text)
    code, out, err = _run(["readiness", "--python", sys.executable, "--format", "json", "--",
                           "pytest"] + ARGS, project)
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert [(r["counts"], r["complete"]) for r in data["runs"]] == [({"passed": 1}, True)] * 2


def test_fix_prove_from_lists_the_sites_it_did_not_apply(tmp_path):
    """`fix --prove --from`: the report's sites the copies could not take (a line past the
    file's end, a file not given) are listed on the page as `fix --from` lists them, never
    dropped; the site the scan finds and no report names (kept.py:10) is to review."""
    _need()
    project = _project(str(tmp_path / "p"), {"kept.py": KEPT, "tests/test_kept.py": KEPT_TESTS})
    report = tmp_path / "r.json"
    report.write_text(json.dumps({"schema": 1, "call_sites": [
        {"file": "kept.py", "line": line, "fixes": [
            {"encoding": "utf-8", "means": "", "measured": None},
            {"encoding": "locale", "means": "", "measured": None}]}
        for line in (5, 40)] + [{"file": "other.py", "line": 3, "fixes": []}]}),
        encoding="utf-8")
    code, out, err = _fix(["--prove", "--from", str(report), "--python", sys.executable,
                           "kept.py", "--", "pytest"] + ARGS, project)
    version = "%d.%d" % sys.version_info[:2]
    assert (code, err) == (0, "")
    assert _masked(out) == _masked("""\
utf8env fix --prove -- pytest -q -p no:cacheprovider
fixed in copies: 1 call site (encoding="utf-8", as the report measured) in 1 file; 1 to review, left
  as they are
2 call sites of the report not applied, left as they are:
  kept.py:40: the file has 11 lines (changed since the report?)
  other.py:3: not among the files given
world latin1: a Latin-1 locale (LANG=en_US.ISO-8859-1)

python  run                      exit  tests     seconds
======  =======================  ====  ========  =======
{v}    unfixed, UTF-8 mode off  0     1 passed  1.0
{v}    fixed, UTF-8 mode off    0     1 passed  1.0
{v}    fixed, UTF-8 mode on     0     1 passed  1.0

No test changed: the fixed code gives every test (1) the unfixed code's outcome and output, with
UTF-8 mode off and on.
3 runs on 2 workers, 1.0 s
""".format(v=version.ljust(4)))
    with open(os.path.join(project, "kept.py"), encoding="utf-8") as f:
        assert f.read() == KEPT                 # the user's file, untouched


def test_fix_prove_calls_a_test_that_differs_from_itself_unstable(tmp_path):
    """A test whose output differs from run to run (a token, a timestamp) differs between
    the unfixed and the fixed runs too: run again, it differs from its own first run, so it
    is unstable, as readiness calls it, and not a change the fix makes."""
    _need()
    tests = KEPT_TESTS + (
        "\n\ndef test_a_token():\n"
        "    import os\n"
        "    print(os.urandom(16).hex())\n")
    project = _project(str(tmp_path / "p"), {"kept.py": KEPT, "tests/test_kept.py": tests})
    code, out, err = _fix(["--prove", "--python", sys.executable, "kept.py", "--", "pytest"]
                          + ARGS, project)
    version = "%d.%d" % sys.version_info[:2]
    assert (code, err) == (0, "")
    assert _masked(out) == _masked("""\
utf8env fix --prove -- pytest -q -p no:cacheprovider
fixed in copies: 2 call sites (encoding="utf-8") in 1 file; 0 to review, left as they are
world latin1: a Latin-1 locale (LANG=en_US.ISO-8859-1)

python  run                      exit  tests     seconds
======  =======================  ====  ========  =======
{v}    unfixed, UTF-8 mode off  0     2 passed  1.0
{v}    fixed, UTF-8 mode off    0     2 passed  1.0
{v}    fixed, UTF-8 mode on     0     2 passed  1.0

Unstable tests (a different result when run again, the same code in the same mode; not counted as
  changes):
  tests/test_kept.py::test_a_token [{p}]
    unfixed, UTF-8 mode off: passed twice, the output differing
    fixed, UTF-8 mode off: passed twice, the output differing
    fixed, UTF-8 mode on: passed twice, the output differing

The tests that differ ran again in the same copies (3 runs): 0 differ again, 1 unstable.
No test changed: the fixed code gives every test (2) the unfixed code's outcome and output, with
UTF-8 mode off and on. 1 test not counted (unstable).
6 runs on 2 workers, 1.0 s
""".format(v=version.ljust(4), p=version))
