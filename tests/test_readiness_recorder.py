"""The recorder of `utf8env readiness` (utf8env/readiness/_recorder.py, _children.py,
_childsite/, _unittest_runner.py) on small sample projects written here:

- a suite whose pytest.ini says `filterwarnings = error` (and a filterwarnings mark, and a
  test that sets "error" itself): EncodingWarning is recorded, not raised, and the
  record says which tests the filters would have failed; the same on pytest 6, 7 and 8
  (venvs of pyenv's 3.10) as on the pinned one, with and without xdist;
- a test that runs `python -m app` (a child opening a file without encoding): its call
  site is counted, origin "child process", and the child's stderr stays empty;
- the sitecustomize of the children runs the one it hides, and any Python can read it;
- `python -m unittest` through the runner, and through `utf8env readiness` end to end.
"""
import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from utf8env.readiness import _children as children, _junit as junit, _progress as progress
from utf8env.readiness._recorder import summary_lines

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")
PYENV = "/root/.pyenv/versions"

FILES = {
    "pytest.ini": "[pytest]\nfilterwarnings =\n    error\n",
    "app/__init__.py": "",
    "app/store.py": """\
        def save(path, text):
            with open(path, "w") as f:
                f.write(text)
        """,
    "app/__main__.py": """\
        import sys

        with open(sys.argv[1], "w") as f:
            f.write("x")
        """,
    "test_app.py": """\
        import os
        import subprocess
        import sys
        import warnings

        import pytest

        from app.store import save

        HERE = os.path.dirname(os.path.abspath(__file__))


        def test_save(tmp_path):
            save(str(tmp_path / "a"), "x")


        @pytest.mark.filterwarnings("error::EncodingWarning")
        def test_save_marked(tmp_path):
            save(str(tmp_path / "a"), "x")


        def test_child(tmp_path):
            proc = subprocess.run([sys.executable, "-m", "app", str(tmp_path / "b")], cwd=HERE,
                                  stderr=subprocess.PIPE)
            assert (proc.returncode, proc.stderr) == (0, b"")


        def test_raises_itself(tmp_path):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                save(str(tmp_path / "a"), "x")
        """,
}

UNITTEST_FILES = {
    "app/__init__.py": "",
    "app/notes.py": FILES["app/store.py"],
    "app/__main__.py": FILES["app/__main__.py"],
    "tests/__init__.py": "",
    "tests/test_notes.py": """\
        import os
        import shutil
        import subprocess
        import sys
        import tempfile
        import unittest

        from app.notes import save

        HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


        class NotesTest(unittest.TestCase):
            def setUp(self):
                self.folder = tempfile.mkdtemp()
                self.addCleanup(shutil.rmtree, self.folder)

            def test_a_note_is_one_byte_per_letter(self):
                path = os.path.join(self.folder, "n")
                save(path, "\\xe9t\\xe9")
                print("saved")
                with open(path, "rb") as f:
                    self.assertEqual(len(f.read()), 3)

            def test_the_cli_writes_a_note(self):
                proc = subprocess.run([sys.executable, "-m", "app", os.path.join(self.folder, "c")],
                                      cwd=HERE, stderr=subprocess.PIPE)
                self.assertEqual((proc.returncode, proc.stderr), (0, b""))

            @unittest.skip("not today")
            def test_skipped(self):
                pass
        """,
}


def _write(folder, files):
    for name, text in files.items():
        path = os.path.join(str(folder), name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(text))
    return str(folder)


def _env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "PYTEST", "UTF8ENV_READINESS"))}
    env.update(dict(dict(LANG="C.UTF-8", PYTHONPATH=SRC), **extra))
    return env


def _python(version):
    found = [v for v in sorted(os.listdir(PYENV)) if v.startswith(version + ".")] \
        if os.path.isdir(PYENV) else []
    if not found:
        pytest.skip("no pyenv Python %s" % version)
    return os.path.join(PYENV, found[-1], "bin", "python" + version)


def _record_pytest(python, project, extra=()):
    record = os.path.join(project, "..", "record-%d.json" % len(os.listdir(os.path.dirname(project))))
    proc = subprocess.run([python, "-X", "warn_default_encoding", "-m", "pytest", "-p",
                           "no:cacheprovider", "-p", "no:benchmark", "-p", "utf8env.readiness.plugin",
                           "--utf8env", "--utf8env-json", record] + list(extra),
                          cwd=project, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=300)
    with open(record, encoding="utf-8") as f:
        return proc, json.load(f)


SITES = [("app/__main__.py", 3, "<module>", "child process", 1, {"test_app.py::test_child": 1}),
         ("app/store.py", 2, "save", "user", 3, {"test_app.py::test_raises_itself": 1,
                                                 "test_app.py::test_save": 1,
                                                 "test_app.py::test_save_marked": 1})]
TESTS = {"test_app.py::test_child": "passed", "test_app.py::test_raises_itself": "failed",
         "test_app.py::test_save": "passed", "test_app.py::test_save_marked": "passed"}
ERRORS = {"test_app.py::test_raises_itself": "raised", "test_app.py::test_save": "filter",
          "test_app.py::test_save_marked": "filter"}


def _sites(record):
    return [(s["file"], s["line"], s["function"], s["origin"], s["count"], s["tests"])
            for s in record["sites"]]


def test_filterwarnings_error_is_recorded_and_said(tmp_path):
    project = _write(tmp_path / "p", FILES)
    proc, record = _record_pytest(sys.executable, project)
    assert proc.returncode == 1, proc.stdout.decode()
    assert _sites(record) == SITES
    assert record["tests"] == TESTS and record["warning_errors"] == ERRORS
    lines = proc.stdout.decode().splitlines()
    start = [i for i, l in enumerate(lines) if " utf8env: " in l and l.startswith("=")][0]
    assert lines[start].strip("= ") == (
        "utf8env: 2 call sites use the locale encoding (4 EncodingWarnings in 4 tests)")
    assert lines[start + 1:start + 13] == [
        "app/__main__.py:3 in <module> [child process]: 1 warning, 1 test",
        "    test_app.py::test_child",
        "app/store.py:2 in save: 3 warnings, 3 tests",
        "    test_app.py::test_raises_itself",
        "    test_app.py::test_save",
        "    test_app.py::test_save_marked",
        "2 tests: the suite's warning filters make EncodingWarning an error there; recorded "
        "instead (without the flag there is none to raise)",
        "    test_app.py::test_save",
        "    test_app.py::test_save_marked",
        "1 test failed on an EncodingWarning raised as an error (a filter the test sets "
        "itself): not the outcome without the flag",
        "    test_app.py::test_raises_itself",
        "=========================== short test summary info ============================"]


def test_the_same_under_xdist(tmp_path):
    pytest.importorskip("xdist")
    project = _write(tmp_path / "p", FILES)
    proc, record = _record_pytest(sys.executable, project, ["-n", "2"])
    assert proc.returncode == 1, proc.stdout.decode()
    assert (_sites(record), record["tests"], record["warning_errors"]) == (SITES, TESTS, ERRORS)


@pytest.fixture(scope="module")
def old_pytests(tmp_path_factory):
    """Venvs of pyenv's 3.10 with pytest 6.2.5, 7.4.4, 8.3.5 (and pytest-xdist)."""
    python = _python("3.10")
    made = {}
    for version in ("6.2.5", "7.4.4", "8.3.5"):
        venv = str(tmp_path_factory.mktemp("pytest-" + version))
        subprocess.run([python, "-m", "venv", venv], check=True)
        proc = subprocess.run([venv + "/bin/python", "-m", "pip", "install", "--quiet",
                               "pytest==" + version, "pytest-xdist"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if proc.returncode != 0:
            pytest.skip("pip install pytest==%s failed (PyPI not reachable?)" % version)
        made[version] = venv + "/bin/python"
    return made


@pytest.mark.parametrize("version", ["7.4.4", "8.3.5"])
def test_the_same_on_pytest_7_and_8(old_pytests, version, tmp_path):
    project = _write(tmp_path / "p", FILES)
    proc, record = _record_pytest(old_pytests[version], project)
    assert proc.returncode == 1, proc.stdout.decode()
    assert (_sites(record), record["tests"], record["warning_errors"]) == (SITES, TESTS, ERRORS)


def test_pytest_6(old_pytests, tmp_path):
    """pytest 6 opens os.devnull without an encoding itself (_pytest/capture.py), while
    loading the first conftests, under the ini's filters, before any plugin's hook: with
    `filterwarnings = error` it stops there, whatever the plugin does. Without it, the
    rest holds (the filterwarnings mark, the child, the test's own filter)."""
    project = _write(tmp_path / "p", FILES)
    with pytest.raises(IOError):
        _record_pytest(old_pytests["6.2.5"], project)
    with open(os.path.join(project, "pytest.ini"), "w") as f:
        f.write("[pytest]\n")
    proc, record = _record_pytest(old_pytests["6.2.5"], project)
    assert proc.returncode == 1, proc.stdout.decode()
    assert [s for s in _sites(record) if s[3] != "site-packages"] == SITES
    assert [(s[0].split("site-packages/")[1], s[4]) for s in _sites(record)
            if s[3] == "site-packages"] == [("_pytest/capture.py", 1)]
    assert record["tests"] == TESTS
    assert record["warning_errors"] == {"test_app.py::test_raises_itself": "raised",
                                        "test_app.py::test_save_marked": "filter"}


CASES_FILES = {
    "test_cases.py": """\
        import logging
        import sys

        import pytest


        @pytest.fixture
        def broken():
            raise RuntimeError("no fixture today")


        @pytest.fixture
        def bad_teardown():
            yield
            raise RuntimeError("teardown went wrong")


        def test_quiet():
            pass


        def test_prints():
            print("out \\u00e9")
            sys.stderr.write("err\\n")
            logging.getLogger("t").warning("logged")


        def test_fails():
            print("before")
            assert 1 == 2


        def test_setup_error(broken):
            pass


        def test_teardown_error(bad_teardown):
            print("ran")


        @pytest.mark.skip(reason="not today")
        def test_skipped():
            pass


        @pytest.mark.xfail(reason="known")
        def test_xfails():
            assert False


        def test_control_characters():
            print("\\x1b[31mred\\r\\nline")
        """,
    "test_apart.py": """\
        import pytest
        pytest.skip("the whole module", allow_module_level=True)
        """}


def _captured(out="", err="", log=""):
    rule = lambda title: title.center(80, "-") + "\n"       # noqa: E731
    return (rule(" Captured Log ") + log + "\n" + rule(" Captured Out ") + out + "\n"
            + rule(" Captured Err ") + err + "\n")


CASES = {
    ("", "test_apart"): ("skipped", "the whole module", ""),
    ("test_cases", "test_control_characters"): (
        "passed", None, _captured(out="\x1b[31mred\r\nline\n")),
    ("test_cases", "test_fails"): ("failed", "assert 1 == 2", _captured(out="before\n")),
    ("test_cases", "test_prints"): ("passed", None, _captured(
        out="out \u00e9\n", err="err\n", log="WARNING  t:test_cases.py:25 logged")),
    ("test_cases", "test_quiet"): ("passed", None, _captured()),
    ("test_cases", "test_setup_error"): ("error", "RuntimeError: no fixture today", _captured()),
    ("test_cases", "test_skipped"): ("skipped", "not today", _captured()),
    ("test_cases", "test_teardown_error"): (
        "error", "RuntimeError: teardown went wrong", _captured(out="ran\n")),
    ("test_cases", "test_xfails"): ("skipped", "known", _captured())}


@pytest.mark.parametrize("pytest_version,extra", [
    ("this", []), ("this", ["-n", "2"]), ("6.2.5", []), ("7.4.4", []), ("8.3.5", ["-n", "2"])])
def test_the_progress_file_gives_each_test_and_its_output_as_junitxml_would(
        pytest_version, extra, tmp_path, request):
    """readiness reads each test's outcome and captured output from the progress file (no
    JUnit XML to write and parse): the outcomes and outputs pytest's --junitxml with
    junit_logging=all gives, the output as the test wrote it (the XML has no control
    character nor carriage return), the message as pytest says it (an error's own, an
    xfail's reason, a module skipped as it was collected: its reason), under pytest 6 to
    9, and under xdist (the controller writes)."""
    if extra:
        pytest.importorskip("xdist")
    python = sys.executable if pytest_version == "this" else \
        request.getfixturevalue("old_pytests")[pytest_version]
    project = _write(tmp_path / "p", CASES_FILES)
    paths = {n: str(tmp_path / n) for n in ("progress.jsonl", "junit.xml")}
    proc = subprocess.run(
        [python, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly",
         "-p", "utf8env.readiness._progress", "--utf8env-progress=" + paths["progress.jsonl"],
         "--junitxml=" + paths["junit.xml"], "-o", "junit_logging=all"] + extra,
        cwd=project, env=_env(LC_ALL="C.UTF-8"), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, timeout=300)
    assert proc.returncode == 1, proc.stdout.decode() + proc.stderr.decode()
    cases = junit.cases(progress.read(paths["progress.jsonl"]))
    assert {k: tuple(o) for k, o in cases.items()} == CASES
    xml = junit.outcomes(paths["junit.xml"])
    assert sorted(xml) == sorted(cases)
    escaped = ("test_cases", "test_control_characters")
    assert {k: (o.outcome, o.output) for k, o in xml.items() if k != escaped} == {
        k: (o.outcome, o.output) for k, o in cases.items() if k != escaped}
    assert xml[escaped].output == _captured(out="#x1B[31mred\nline\n")


@pytest.mark.fast
def test_a_progress_file_gives_no_cases_before_its_session_ended(tmp_path):
    path = tmp_path / "progress.jsonl"
    started = ('{"utf8_mode": 0, "filesystem_encoding": "utf-8", "locale_encoding": "UTF-8", '
               '"outputs": true}\n'
               '{"test": "t.py::a", "when": "setup", "outcome": "passed", "message": null}\n'
               '{"test": "t.py::a", "when": "teardown", "outcome": "passed", "message": null}\n')
    path.write_text(started)
    assert junit.cases(progress.read(str(path))) is None
    path.write_text(started + '{"exit": 0, "shouldfail": null, "shouldstop": null}\n')
    assert junit.cases(progress.read(str(path))) == {
        ("t", "a"): junit.Outcome("passed", None, _captured())}
    # a collection error names the run's copy (an ImportError's module path): <tmp> there,
    # as in each test's message and output, else it would differ between the two runs
    path.write_text(started + '{"collect_error": "t2.py", "message": "ImportError while '
                    'importing test module \'/tmp/run-1/project/t2.py\'."}\n'
                    '{"exit": 2, "shouldfail": null, "shouldstop": null}\n')
    assert junit.cases(progress.read(str(path)), ("/tmp/run-1",))[("", "t2")] == junit.Outcome(
        "error", "ImportError while importing test module '<tmp>/project/t2.py'.", "")
    path.write_text(started.replace(', "outputs": true', "")
                    + '{"exit": 0, "shouldfail": null, "shouldstop": null}\n')
    assert junit.cases(progress.read(str(path))) is None     # the unittest runner's: its XML says


def test_the_summary_without_filters_says_nothing_more():
    record = {"warn_default_encoding": True, "python": "3.13.0", "sites": []}
    assert summary_lines(record) == [
        "= utf8env: 0 call sites use the locale encoding (0 EncodingWarnings in 0 tests) ="]


# -- the children's sitecustomize ------------------------------------------------------------

def test_the_childrens_sitecustomize_runs_the_one_it_hides(tmp_path):
    user = tmp_path / "user"
    user.mkdir()
    (user / "sitecustomize.py").write_text("import sys\nsys.stdout.write('user site\\n')\n")
    folder = tmp_path / "record"
    folder.mkdir()
    script = ("import sys, sitecustomize\nopen(sys.argv[1], 'w').close()\n"
              "print(sitecustomize.__file__)\n")
    pythons = [sys.executable, _python("3.13")]
    for python in pythons:
        proc = subprocess.run(
            [python, "-c", script, str(tmp_path / "f")], cwd=str(tmp_path),
            env=_env(PYTHONPATH=os.pathsep.join([children.CHILDSITE, str(user)]),
                     UTF8ENV_READINESS_CHILDREN=str(folder), UTF8ENV_READINESS_TEST="t::x",
                     PYTHONWARNDEFAULTENCODING="1"),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert (proc.returncode, proc.stderr) == (0, b"")
        assert proc.stdout.decode() == "user site\n%s\n" % (user / "sitecustomize.py")
    entries = [e for es in children.child_module().read(str(folder)).values() for e in es]
    assert entries == [{"path": "<string>", "line": 2, "message": "'encoding' argument not "
                        "specified", "origin": "user", "test": "t::x"}] * len(pythons)


@pytest.mark.parametrize("version", ["2.7", "3.6", "3.9"])
def test_any_python_reads_the_childrens_sitecustomize(version, tmp_path):
    proc = subprocess.run([_python(version), "-c", "import sitecustomize; print('ok')"],
                          env=_env(PYTHONPATH=children.CHILDSITE,
                                   UTF8ENV_READINESS_CHILDREN=str(tmp_path)),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"ok\n", b"")
    assert os.listdir(str(tmp_path)) == []


# -- python -m unittest ------------------------------------------------------------------------

UNITTEST_TESTS = {"tests.test_notes.NotesTest.test_a_note_is_one_byte_per_letter": "failed",
                  "tests.test_notes.NotesTest.test_skipped": "skipped",
                  "tests.test_notes.NotesTest.test_the_cli_writes_a_note": "passed"}


def test_the_unittest_runner(tmp_path):
    project = _write(tmp_path / "p", UNITTEST_FILES)
    paths = {n: str(tmp_path / n) for n in ("record.json", "junit.xml", "progress.jsonl")}
    proc = subprocess.run(
        [_python("3.13"), "-X", "warn_default_encoding", "-m", "utf8env.readiness._unittest_runner",
         "--utf8env-json=" + paths["record.json"], "--junitxml=" + paths["junit.xml"],
         "--utf8env-progress=" + paths["progress.jsonl"], "-v"],
        cwd=project, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.returncode == 1, proc.stderr.decode()      # C.UTF-8: é is two bytes
    assert proc.stdout == b""          # the tests' output is theirs, in the JUnit XML
    assert proc.stderr.decode().splitlines()[:3] == [
        "test_a_note_is_one_byte_per_letter (tests.test_notes.NotesTest."
        "test_a_note_is_one_byte_per_letter) ... FAIL",
        "test_skipped (tests.test_notes.NotesTest.test_skipped) ... skipped 'not today'",
        "test_the_cli_writes_a_note (tests.test_notes.NotesTest.test_the_cli_writes_a_note) ... ok"]
    with open(paths["record.json"], encoding="utf-8") as f:
        record = json.load(f)
    assert record["tests"] == UNITTEST_TESTS and "warning_errors" not in record
    assert _sites(record) == [
        ("app/__main__.py", 3, "<module>", "child process", 1,
         {"tests.test_notes.NotesTest.test_the_cli_writes_a_note": 1}),
        ("app/notes.py", 2, "save", "user", 1,
         {"tests.test_notes.NotesTest.test_a_note_is_one_byte_per_letter": 1})]
    outcomes = junit.outcomes(paths["junit.xml"])
    assert {k: (o.outcome, o.message, o.output) for k, o in outcomes.items()} == {
        junit.key("tests.test_notes.NotesTest.test_a_note_is_one_byte_per_letter"):
            ("failed", "AssertionError: 5 != 3", "saved\n"),
        junit.key("tests.test_notes.NotesTest.test_skipped"): ("skipped", "not today", ""),
        junit.key("tests.test_notes.NotesTest.test_the_cli_writes_a_note"): ("passed", None, "")}
    seen = progress.read(paths["progress.jsonl"])
    assert (seen.collected, seen.finish["exit"], seen.started) == (3, 1, [])
    assert {t: o for t, (o, _) in seen.tests.items()} == UNITTEST_TESTS


STREAM_TESTS = {
    "tests/__init__.py": "",
    "tests/test_streams.py": """\
        import os
        import stat
        import subprocess
        import sys
        import unittest

        LEFT = []


        class StreamsTest(unittest.TestCase):
            def test_stdout_is_not_a_regular_file(self):
                # polib's _is_file(True): os.path.isfile(1)
                print("kept")
                self.assertFalse(stat.S_ISREG(os.fstat(1).st_mode))

            def test_much_output_never_blocks(self):
                sys.stdout.write("x" * 300000 + "\\n")

            def test_a_child_left_holding_stdout(self):
                # Never waited for: it outlives the test, holding its stdout and stderr.
                LEFT.append(subprocess.Popen(["sleep", "600"]))
                with open(os.environ["CHILD_PID"], "w") as f:
                    f.write(str(LEFT[-1].pid))
                print("parent")
        """}


def test_the_unittest_runner_gives_each_test_a_pipe_as_python_m_unittest_has(tmp_path):
    """A test's stdout and stderr are a pipe under the runner, as under `python -m unittest`
    from a terminal or CI: a test that tells a regular file from a pipe (polib's
    test_is_file) passes in both. Output is kept whole however much a test writes, and a
    child the test leaves holding the pipe does not hold up the run."""
    project = _write(tmp_path / "p", STREAM_TESTS)
    pid_file = tmp_path / "child.pid"
    paths = {n: str(tmp_path / n) for n in ("record.json", "junit.xml")}
    try:
        proc = subprocess.run(
            [_python("3.13"), "-m", "utf8env.readiness._unittest_runner",
             "--utf8env-json=" + paths["record.json"], "--junitxml=" + paths["junit.xml"]],
            cwd=project, env=_env(CHILD_PID=str(pid_file)), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, timeout=120)
        plain = subprocess.run([_python("3.13"), "-m", "unittest", "-k", "regular_file"],
                               cwd=project, env=_env(), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    finally:
        if pid_file.exists():
            os.kill(int(pid_file.read_text()), signal.SIGKILL)
    assert (proc.returncode, proc.stdout) == (0, b""), proc.stderr.decode()
    assert (plain.returncode, plain.stdout) == (0, b"kept\n"), plain.stderr.decode()
    outcomes = junit.outcomes(paths["junit.xml"])
    test = "tests.test_streams.StreamsTest."
    assert {k: (o.outcome, o.message, o.output) for k, o in outcomes.items()} == {
        junit.key(test + "test_a_child_left_holding_stdout"): ("passed", None, "parent\n"),
        junit.key(test + "test_much_output_never_blocks"): ("passed", None, "x" * 300000 + "\n"),
        junit.key(test + "test_stdout_is_not_a_regular_file"): ("passed", None, "kept\n")}


def test_unittest_through_readiness_end_to_end(tmp_path):
    from utf8env import _worlds as worlds
    from utf8env._own_command import own_command
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)
    project = _write(tmp_path / "p", UNITTEST_FILES)
    proc = subprocess.run(own_command() + ["readiness", "--python", _python("3.13"), "--format",
                                           "json", "--", "python", "-m", "unittest"],
                          cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    assert (proc.returncode, proc.stderr) == (1, b"")
    data = json.loads(proc.stdout.decode())
    assert (data["runner"], data["filtered"]) == ("unittest", [])
    test = "tests.test_notes.NotesTest.test_a_note_is_one_byte_per_letter"
    assert [(c["test"], c["today"]["outcome"], c["utf8_mode"]["outcome"], c["difference"],
             c["call_sites"]) for c in data["changed"]] == [
        (test, "passed", "failed", "passed -> failed: AssertionError: 5 != 3", ["app/notes.py:2"])]
    assert [(s["file"], s["line"], s["function"], s["origin"], s["count"], s["tests"],
             s["changed_tests"]) for s in data["call_sites"]] == [
        ("app/__main__.py", 3, "<module>", "child process", 1,
         ["tests.test_notes.NotesTest.test_the_cli_writes_a_note"], []),
        ("app/notes.py", 2, "save", "user", 1, [test], [test])]
    assert [(r["mode"], r["counts"]) for r in data["runs"]] == [
        ("today", {"passed": 2, "skipped": 1}), ("3.15", {"failed": 1, "passed": 1, "skipped": 1})]


def test_the_report_names_the_tests_a_filter_would_fail(tmp_path):
    """readiness itself (not only the plugin's summary) says which tests the suite's own
    filterwarnings = error would fail on an EncodingWarning, and which raised it."""
    from utf8env import _worlds as worlds
    from utf8env._own_command import own_command
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)
    project = _write(tmp_path / "p", FILES)
    proc = subprocess.run(own_command() + ["readiness", "--python", sys.executable, "--",
                                           "pytest", "-q", "-p", "no:cacheprovider"],
                          cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    assert proc.stderr == b""
    text = proc.stdout.decode()
    start = text.index("EncodingWarning made an error")
    assert text[start:].split("\n\n")[0].splitlines() == [
        "EncodingWarning made an error by the suite's own warning filters (recorded here instead; with those",
        "  filters, these tests fail wherever the warning is raised: Python 3.10+ with -X",
        "  warn_default_encoding):",
        "  test_app.py::test_raises_itself (the test itself turns it into an error, and failed)",
        "  test_app.py::test_save",
        "  test_app.py::test_save_marked"]


@pytest.mark.fast
def test_the_runs_get_no_variable_of_the_pytest_that_started_readiness():
    # Started from a pytest-xdist worker (this suite under -n 2), readiness handed the
    # worker's variables to its runs, whose plugin then took itself for a worker's and
    # recorded nothing: the report lost the tests a filter would fail, and exit 3.
    from utf8env.readiness import _targets as targets
    environ = {"PATH": "/usr/bin", "HOME": "/h", "PYTEST_ADDOPTS": "-q", "LC_ALL": "C",
               "PYTEST_CURRENT_TEST": "t.py::test (call)", "PYTEST_XDIST_WORKER": "gw0",
               "PYTEST_XDIST_WORKER_COUNT": "2", "PYTEST_XDIST_TESTRUNUID": "0123"}
    assert targets.base_environ(environ) == {"PATH": "/usr/bin", "HOME": "/h",
                                           "PYTEST_ADDOPTS": "-q"}
