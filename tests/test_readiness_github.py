"""`utf8env readiness --format github` on results built here (no suite runs): the errors
(changed tests) before the warnings (call sites), each kind cut at GitHub's 10 per step
with one notice counting the rest, `file=` relative to $GITHUB_WORKSPACE and never
absolute, messages one line of at most 500 characters escaped as @actions/core escapes;
the step summary the command appends; and action.yml, parsed and its scripts run.

GitHub's limits (actions/toolkit, docs/problem-matchers.md, "Limitations",
https://github.com/actions/toolkit/blob/main/docs/problem-matchers.md#limitations):
10 warning, 10 error and 10 notice annotations per step; 50 per job (the sum of its
steps). What a step prints beyond them is dropped silently, in the order printed."""
import os
import re
import subprocess
import sys

import pytest
import yaml

from utf8env import _pages as pages
from utf8env._worlds.jobs import Timing
from utf8env.readiness import _compare as compare, _format_github as format_github
from utf8env.readiness import _results as results
from utf8env.readiness._results import CallSite, Outcome, ReadinessResult, SuiteRun

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ACTION = os.path.join(ROOT, "action.yml")

# -- GitHub's workflow-command grammar and escaping ------------------------------------------
# actions/toolkit packages/core/src/command.ts:
#   escapeData(s):     % -> %25, \r -> %0D, \n -> %0A
#   escapeProperty(s): the same, and : -> %3A, , -> %2C
#   Command.toString(): "::" + command + (" " + "k=v" joined by ",") + "::" + escapeData(message)
# (https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts)


def escape_data(s):
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s):
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def unescape(s):
    # the runner's order, the reverse of the toolkit's: %25 last
    for code, ch in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        s = s.replace(code, ch)
    return s


_PROPERTY = r"[a-zA-Z]+=[^,:\r\n]*"
_COMMAND = re.compile(r"^::(error|warning|notice)(?: (%s(?:,%s)*))?::([^\r\n]*)$"
                      % (_PROPERTY, _PROPERTY))


def parse(line):
    """(command, {property: value}, message), unescaped; AssertionError for a line the
    runner would not read as one workflow command."""
    m = _COMMAND.match(line)
    assert m, line
    props = dict(p.split("=", 1) for p in m.group(2).split(",")) if m.group(2) else {}
    # a message may hold :: and , but no % that is not one of the three escapes
    assert re.sub(r"%(25|0D|0A)", "", m.group(3)).count("%") == 0, line
    return m.group(1), {k: unescape(v) for k, v in props.items()}, unescape(m.group(3))


@pytest.mark.parametrize("text", ["50% a\r\nb:c,d", "%0A is not a newline", "%%25", "::x,y::",
                                  "caf\u00e9 \udce9 \u4e2d", ""])
@pytest.mark.fast
def test_the_escaping_is_the_toolkits(text):
    assert pages.github_data(text) == escape_data(text)
    assert pages.github_property(text) == escape_property(text)
    assert unescape(pages.github_data(text)) == text == unescape(pages.github_property(text))
    assert not re.search(r"[\r\n]", pages.github_data(text))
    assert not re.search(r"[\r\n:,]", pages.github_property(text))


# -- results built here --------------------------------------------------------------------

def _run(mode, counts):
    return SuiteRun(python="3.15", interpreter=["/usr/bin/python3.15"], mode=mode,
                    utf8_mode=int(mode != "today"), exit=0, timed_out=False, seconds=1.0,
                    counts=counts, filesystem_encoding="utf-8", locale_encoding="ISO-8859-1",
                    problem=None)


def _change(test, message, sites, python="3.15"):
    return results.TestChange(python=python, test=test, today=Outcome("passed"),
                      utf8_mode=Outcome("failed", message),
                      difference="passed -> failed: " + message,
                      call_sites=list(sites))


def _site(file, line, function, tests, changes=(), partners=(), origin="user"):
    return CallSite(file=file, line=line, function=function, origin=origin,
                    message="'encoding' argument not specified", count=1, tests=list(tests),
                    pythons=["3.15"], changed_tests=sorted({c.test for c in changes}),
                    fixes=compare._fixes(list(changes), list(partners)))


def _result(changed, sites, tests=100):
    return ReadinessResult(
        schema=1, command=["-q"], world="latin1", environment="a Latin-1 locale",
        variables={"LANG": "en_US.ISO-8859-1"},
        runs=[_run("today", {"passed": tests}),
              _run("3.15", {"passed": tests - len(changed), "failed": len(changed)})],
        changed=changed, call_sites=sites, hidden_sites=0, tests=tests, ready=not changed,
        timing=Timing(wall_seconds=2.0, cell_seconds=2.0, workers=2, jobs=2))


# A long first difference, with what escaping must turn into one line: \r\n, % , :
LONG = "ValueError: 100% of 3,000 rows: bad\r\nrow 1: caf\u00e9, " + "x" * 6000


def _test(i):
    return "tests/test_utilities/test_u%02d.py::test_u%02d" % (i, i)


@pytest.fixture
def csvkit(tmp_path):
    """An editable src-layout project like csvkit's: 24 call sites (pytest gives their
    absolute paths, under the workspace), 14 changed tests; every even site is used by
    one changed test (12 sites), the odd ones change nothing."""
    ws = os.path.realpath(str(tmp_path / "ws"))
    short = "AssertionError: assert 'caf\\xc3\\xa9' == 'caf\u00e9'"
    changes = [_change(_test(i), LONG if i == 0 else short,
                       [os.path.join(ws, "src", "csvkit", "m%02d.py:%d" % (2 * i, 2 * i + 1))]
                       if i < 12 else []) for i in range(14)]
    sites = []
    for j in range(24):
        path = os.path.join(ws, "src", "csvkit", "m%02d.py" % j)
        ok = "tests/test_ok.py::test_ok%02d" % (j // 2)
        partner = j + 1 if j % 2 == 0 else j - 1     # the same ok test uses both
        together = ["%s:%d" % (os.path.join(ws, "src", "csvkit", "m%02d.py" % partner),
                               partner + 1)]
        if j % 2 == 0:
            c = changes[j // 2]
            sites.append(_site(path, j + 1, "f%02d" % j, [c.test, ok], [c], together))
        else:
            sites.append(_site(path, j + 1, "f%02d" % j, [ok], (), together))
    return ws, _result(changes, sites)


TITLE_TEST = "title=utf8env readiness%3A test changes"
TITLE_SITE = "title=utf8env readiness%3A default encoding"
FIXES = ('fix: encoding="utf-8" (the 3.15 behaviour on every version) or encoding="locale" '
         "(today's kept, Python 3.10+)")


@pytest.mark.fast
def test_errors_first_each_kind_capped_and_one_notice(csvkit):
    ws, result = csvkit
    lines = format_github.github(result, environ={"GITHUB_WORKSPACE": ws,
                                            "GITHUB_STEP_SUMMARY": "/x/summary.md"}, cwd=ws)
    assert lines.endswith("\n") and "\r" not in lines
    lines = lines.splitlines()
    kinds = [parse(line)[0] for line in lines]
    assert kinds == ["error"] * 10 + ["warning"] * 10 + ["notice"]
    # the first 10 changed tests, in order; each at its test file
    assert [parse(l)[1]["file"] for l in lines[:10]] == [
        "tests/test_utilities/test_u%02d.py" % i for i in range(10)]
    assert lines[1] == (
        "::error file=tests/test_utilities/test_u01.py," + TITLE_TEST + "::"
        "tests/test_utilities/test_u01.py::test_u01 changes with UTF-8 mode on Python 3.15: "
        "passed -> failed: AssertionError: assert 'caf\\xc3\\xa9' == 'caf\u00e9' "
        "(call sites: src/csvkit/m02.py:3)")
    # the 12 sites a changed test uses come before the 12 that change nothing: the first
    # ten of them, in file order, at their workspace-relative path (src/..., not /tmp/...)
    assert [(parse(l)[1]["file"], parse(l)[1]["line"]) for l in lines[10:20]] == [
        ("src/csvkit/m%02d.py" % j, str(j + 1)) for j in range(0, 20, 2)]
    assert lines[11] == (
        "::warning file=src/csvkit/m02.py,line=3," + TITLE_SITE + "::"
        "f02 uses the locale encoding (1 EncodingWarning): with UTF-8 mode (Python 3.15) this "
        "test changes: tests/test_utilities/test_u01.py::test_u01; " + FIXES +
        ", together with src/csvkit/m03.py:4 (the same tests use them)")
    assert lines[20] == ("::notice title=utf8env readiness%3A not shown::"
                         "4 more errors and 14 more warnings: see the step summary")
    assert ws not in "\n".join(lines)         # no absolute path, not even in a message


@pytest.mark.fast
def test_messages_are_one_bounded_line_escaped(csvkit):
    ws, result = csvkit
    lines = format_github.github(result, environ={"GITHUB_WORKSPACE": ws}, cwd=ws).splitlines()
    for line in lines:
        message = line.split("::", 2)[2]
        assert len(message) <= format_github.GITHUB_MESSAGE == 500, line
        assert len(line) <= 600
    first = lines[0]
    message = first.split("::", 2)[2]
    # the 6,000-character difference, cut: \r\n % , : escaped, no escape cut in two
    assert message == escape_data(
        "tests/test_utilities/test_u00.py::test_u00 changes with UTF-8 mode on Python 3.15: "
        "passed -> failed: " + LONG)[:497] + "..."
    assert "100%25 of 3,000 rows: bad%0D%0Arow 1: caf\u00e9, xxx" in message
    assert len(message) == 500
    kind, props, said = parse(first)
    assert said.startswith("tests/test_utilities/test_u00.py::test_u00 changes with UTF-8 mode "
                           "on Python 3.15: passed -> failed: ValueError: 100% of 3,000 rows: "
                           "bad\r\nrow 1: caf\u00e9, xxx")


@pytest.mark.fast
def test_the_cut_never_splits_an_escape():
    for n in range(486, 500):                   # escaped, n + 15 characters: cut
        said = format_github._bounded("a" * n + "%%%\n\n")
        assert len(said) <= 500 and said.endswith("...")
        assert re.sub(r"%(25|0D|0A)", "", said[:-3]).count("%") == 0, said[-12:]


@pytest.mark.fast
def test_without_the_summary_file_the_notice_points_below(csvkit):
    ws, result = csvkit
    last = format_github.github(result, environ={}, cwd=ws).splitlines()[-1]
    assert last == ("::notice title=utf8env readiness%3A not shown::"
                    "4 more errors and 14 more warnings: see the Markdown report below")


@pytest.mark.fast
def test_a_ready_project_shows_at_most_ten_warnings(tmp_path):
    """65 call sites that change nothing: 10 warnings (they still use the locale's
    encoding, which 3.15 changes) and the notice; the summary has all 65."""
    ws = str(tmp_path)
    sites = [_site("pkg/m%02d.py" % j, 3, "f", ["tests/t.py::t%d" % j]) for j in range(65)]
    lines = format_github.github(_result([], sites), environ={"GITHUB_WORKSPACE": ws,
                                                        "GITHUB_STEP_SUMMARY": "s"},
                           cwd=ws).splitlines()
    assert [parse(l)[0] for l in lines] == ["warning"] * 10 + ["notice"]
    assert lines[0] == ("::warning file=pkg/m00.py,line=3," + TITLE_SITE + "::f uses the locale "
                        "encoding (1 EncodingWarning): no test changes with UTF-8 mode "
                        "(Python 3.15); " + FIXES)
    assert lines[-1].endswith("::55 more warnings: see the step summary")


@pytest.mark.fast
def test_nothing_at_all_prints_nothing(tmp_path):
    assert format_github.github(_result([], []), environ={}, cwd=str(tmp_path)) == ""


@pytest.mark.fast
def test_paths_are_relative_to_the_workspace_never_absolute(tmp_path):
    ws = os.path.realpath(str(tmp_path / "ws"))
    project = os.path.join(ws, "sub", "proj")       # working-directory: sub/proj
    outside = os.path.realpath(str(tmp_path / "elsewhere" / "lib.py"))
    c = _change("tests/test_a.py::test_a", "AssertionError", ["src/a.py:3", outside + ":9"])
    sites = [_site("src/a.py", 3, "read", [c.test], [c]),               # relative to the project
             _site(os.path.join(project, "src", "b,c:d.py"), 5, "g", ["t::u"]),   # absolute, inside
             _site(outside, 9, "h", [c.test], [c]),                         # absolute, outside
             _site("<string>", 1, "<module>", ["t::v"]),
             _site("/usr/lib/python3.15/json/__init__.py", 7, "load", ["t::v"], (), (),
                   "stdlib")]                                               # --all: not annotated
    lines = format_github.github(_result([c], sites), environ={"GITHUB_WORKSPACE": ws},
                           cwd=project).splitlines()
    parsed = [parse(l) for l in lines]
    assert [(k, p.get("file"), p.get("line")) for k, p, _ in parsed] == [
        ("error", "sub/proj/tests/test_a.py", None),
        ("warning", "sub/proj/src/a.py", "3"),
        ("warning", "sub/proj/src/b,c:d.py", "5"),
        ("warning", None, None),
        ("warning", None, None)]
    assert "file=sub/proj/src/b%2Cc%3Ad.py,line=5," in lines[2]
    assert parsed[0][2].endswith("(call sites: sub/proj/src/a.py:3, %s:9)" % outside)
    assert parsed[3][2].startswith(outside + ":9: h uses the locale encoding")
    assert parsed[4][2].startswith("<string>:1: <module> uses the locale encoding")
    for line in lines:
        assert "file=/" not in line


@pytest.mark.fast
def test_without_github_workspace_the_project_folder_is_the_base(tmp_path):
    project = os.path.realpath(str(tmp_path))
    sites = [_site(os.path.join(project, "src", "p", "m.py"), 2, "f", ["t::t"])]
    [line] = format_github.github(_result([], sites), environ={}, cwd=project).splitlines()
    assert line.startswith("::warning file=src/p/m.py,line=2,")
    # a project outside the workspace: its relative paths stay relative, absolute ones go
    sites.append(_site("src/p/n.py", 4, "g", ["t::t"]))
    lines = format_github.github(_result([], sites), environ={"GITHUB_WORKSPACE": "/nowhere/ws"},
                           cwd=project).splitlines()
    assert [parse(l)[1].get("file") for l in lines] == [None, "src/p/n.py"]


@pytest.mark.fast
def test_a_test_that_changes_on_two_pythons_is_one_error(tmp_path):
    same = [_change("t/test_x.py::test_x", "AssertionError: 1", ["x.py:1"], python=p)
            for p in ("3.13", "3.15")]
    other = [_change("t/test_y.py::test_y", "AssertionError: %s" % p, ["y.py:%s" % p[-1]],
                     python=p) for p in ("3.13", "3.15")]
    lines = format_github.github(_result(same + other, []), environ={}, cwd=str(tmp_path)).splitlines()
    assert [parse(l)[2] for l in lines] == [
        "t/test_x.py::test_x changes with UTF-8 mode on Python 3.13, 3.15: passed -> failed: "
        "AssertionError: 1 (call sites: x.py:1)",
        "t/test_y.py::test_y changes with UTF-8 mode: on Python 3.13: passed -> failed: "
        "AssertionError: 3.13; on Python 3.15: passed -> failed: AssertionError: 3.15 (call "
        "sites: y.py:3, y.py:5)"]


@pytest.mark.fast
def test_an_incomplete_result_says_so_first(tmp_path):
    c = _change("t/test_x.py::test_x", "boom", [])
    result = _result([c], [])
    if "complete" not in ReadinessResult._fields:
        pytest.skip("the records have no `complete` yet")
    result = result._replace(complete=False, runs=[r._replace(complete=False)
                                                   if "complete" in SuiteRun._fields else r
                                                   for r in result.runs])
    lines = format_github.github(result, environ={}, cwd=str(tmp_path)).splitlines()
    kind, props, said = parse(lines[0])
    assert (kind, props) == ("error", {"title": "utf8env readiness: incomplete"})
    assert said.startswith("Incomplete: ")
    assert parse(lines[1])[1]["file"] == "t/test_x.py"


# -- the command on a real project: an editable src-layout install ---------------------------

EDITABLE = {
    "src/pkg/__init__.py": "",
    "src/pkg/mod.py": "def save(path, text):\n    with open(path, \"w\") as f:\n"
                      "        f.write(text)\n",
    "tests/test_mod.py": "from pkg.mod import save\n\n\ndef test_size(tmp_path):\n"
                         "    p = tmp_path / \"n.txt\"\n    save(str(p), \"caf\\u00e9\")\n"
                         "    n = len(p.read_bytes())\n    assert n == 4\n",
}


def test_the_command_on_an_editable_src_layout_project(tmp_path):
    """`utf8env readiness --format github` as the action runs it, in the Latin-1 world:
    the project installed editable (a .pth naming its src/, as `pip install -e .` does)
    in a venv with this Python's pytest. pytest reports the call site by its absolute
    path (the checkout's, not the run's copy): the annotation names src/pkg/mod.py. The
    summary is appended to $GITHUB_STEP_SUMMARY; stdout has the annotations only."""
    from utf8env import _worlds as worlds
    from utf8env._own_command import own_command
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)
    ws = os.path.realpath(str(tmp_path / "ws"))
    for name, text in EDITABLE.items():
        os.makedirs(os.path.dirname(os.path.join(ws, name)), exist_ok=True)
        with open(os.path.join(ws, name), "w", encoding="utf-8") as f:
            f.write(text)
    venv = str(tmp_path / "venv")
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", venv],
                   check=True)
    python = os.path.join(venv, "bin", "python")
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout.strip()
    with open(os.path.join(site, "__editable__.pkg.pth"), "w", encoding="utf-8") as f:
        f.write(os.path.join(ws, "src") + "\n")
    summary = tmp_path / "step_summary.md"
    summary.write_text("## an earlier command of this step\n", encoding="utf-8")
    env = dict(os.environ, GITHUB_WORKSPACE=ws, GITHUB_STEP_SUMMARY=str(summary))
    proc = subprocess.run(own_command() + ["readiness", "--python", python, "--format", "github",
                                           "--", "pytest", "-q", "-p", "no:cacheprovider"],
                          cwd=ws, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=600)
    assert (proc.returncode, proc.stderr) == (1, "")
    version = "%d.%d" % sys.version_info[:2]
    # (pytest's JUnit message: "assert 5 == 4", or with "AssertionError: " before it)
    assert proc.stdout.replace("failed: AssertionError: assert", "failed: assert").splitlines() == [
        "::error file=tests/test_mod.py," + TITLE_TEST + "::tests/test_mod.py::test_size changes "
        "with UTF-8 mode on Python %s: passed -> failed: assert 5 == 4 (call sites: "
        "src/pkg/mod.py:2)" % version,
        "::warning file=src/pkg/mod.py,line=2," + TITLE_SITE + "::save uses the locale encoding "
        "(1 EncodingWarning): with UTF-8 mode (Python 3.15) this test changes: "
        "tests/test_mod.py::test_size; " + FIXES]
    page = summary.read_text(encoding="utf-8")
    assert page.startswith("## an earlier command of this step\n## utf8env readiness: "
                           "`pytest -q -p no:cacheprovider`\n")
    assert "`tests/test_mod.py::test_size`" in page and "### Call sites" in page


# -- action.yml ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def action():
    with open(ACTION, encoding="utf-8") as f:
        return yaml.safe_load(f)


@pytest.mark.fast
def test_the_action_is_a_composite_with_its_inputs(action):
    assert action["name"] == "utf8env readiness"
    assert action["description"]
    inputs = action["inputs"]
    assert list(inputs) == ["pytest-args", "python", "world", "working-directory", "version",
                            "windows", "code-page", "windows-requirements"]
    assert {k: v.get("default") for k, v in inputs.items()} == {
        "pytest-args": "", "python": "", "world": "latin1", "working-directory": ".",
        "version": "", "windows": "false", "code-page": "1252", "windows-requirements": ""}
    assert all(v["required"] is False and v["description"] for v in inputs.values())
    assert inputs["windows"]["description"].startswith("true (or a version")
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    assert [s["name"] for s in steps] == [
        "Check the inputs", "Install Wine", "Install utf8env",
        "utf8env readiness --format github -- pytest PYTEST-ARGS"]
    assert all(s["shell"] == "bash" for s in steps)
    assert steps[1]["if"] == "inputs.windows != 'false'" and "wine64" in steps[1]["run"]
    assert '"$GITHUB_ACTION_PATH"' in steps[2]["run"]
    assert '"utf8env==$UTF8ENV_VERSION"' in steps[2]["run"]
    assert steps[3]["working-directory"] == "${{ inputs.working-directory }}"
    assert '"readiness", "--format", "github"' in steps[3]["run"]
    # the inputs come in through env, never as ${{ }} inside a script (script injection)
    for s in steps:
        assert "${{" not in s["run"], s["name"]
    assert steps[3]["env"] == {"UTF8ENV_PYTEST_ARGS": "${{ inputs.pytest-args }}",
                               "UTF8ENV_PYTHON": "${{ inputs.python }}",
                               "UTF8ENV_WORLD": "${{ inputs.world }}",
                               "UTF8ENV_WINDOWS": "${{ inputs.windows }}",
                               "UTF8ENV_CODE_PAGE": "${{ inputs.code-page }}",
                               "UTF8ENV_WINDOWS_REQUIREMENTS":
                                   "${{ inputs.windows-requirements }}"}


def _step(action, name, env, cwd, tmp_path):
    """Run a step's script as the runner does: bash --noprofile --norc -eo pipefail."""
    [step] = [s for s in action["runs"]["steps"] if s["name"].startswith(name)]
    script = tmp_path / "step.sh"
    script.write_text(step["run"], encoding="utf-8")
    base = {"PATH": os.environ["PATH"], "RUNNER_TEMP": str(tmp_path / "runner_temp"),
            "RUNNER_OS": "Linux", "GITHUB_ACTION_PATH": ROOT, "HOME": str(tmp_path)}
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                          env=dict(base, **env), cwd=str(cwd), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=300)


@pytest.mark.parametrize("windows, status, said", [
    ("false", 0, ""), ("true", 0, ""), ("3.12", 0, ""),
    ("3.15", 2, "::error title=utf8env readiness::windows: expected true, false or a version "
                "3.8 ... 3.13"),
    ("yes", 2, "::error title=utf8env readiness::windows: expected true, false or a version")])
@pytest.mark.fast
def test_the_windows_input_is_checked(action, tmp_path, windows, status, said):
    proc = _step(action, "Check the inputs", {"UTF8ENV_WINDOWS": windows}, tmp_path, tmp_path)
    assert proc.returncode == status
    assert proc.stdout.startswith(said) and proc.stderr == ""


@pytest.mark.fast
def test_a_windows_runner_stops_at_the_first_step_in_one_line(action, tmp_path):
    # Not run on a real Windows runner: its first step's script (bash: Git Bash there) with
    # the RUNNER_OS a Windows runner sets.
    proc = _step(action, "Check the inputs", {"UTF8ENV_WINDOWS": "false", "RUNNER_OS": "Windows"},
                 tmp_path, tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        2, "::error title=utf8env readiness::Windows runners are not supported yet: run this "
           "action on a Linux runner, where windows: true runs the suite on Windows CPython "
           "under Wine\n", "")


def _fake_utf8env(tmp_path, status):
    """$RUNNER_TEMP/utf8env-readiness/bin: this Python, and a utf8env that prints its
    arguments and exits `status`."""
    bin_dir = tmp_path / "runner_temp" / "utf8env-readiness" / "bin"
    bin_dir.mkdir(parents=True)
    os.symlink(sys.executable, str(bin_dir / "python"))
    fake = bin_dir / "utf8env"
    fake.write_text("#!%s\nimport os, sys\nprint(os.getcwd())\nprint(sys.argv[1:])\nsys.exit(%d)\n"
                    % (sys.executable, status), encoding="utf-8")
    fake.chmod(0o755)


@pytest.mark.parametrize("status", [0, 1, 2])
@pytest.mark.fast
def test_the_run_step_passes_the_arguments_and_the_exit_status(action, tmp_path, status):
    _fake_utf8env(tmp_path, status)
    project = tmp_path / "proj"
    project.mkdir()
    proc = _step(action, "utf8env readiness", {
        "UTF8ENV_PYTEST_ARGS": "-q -k 'csv and not slow' $HOME *.py",
        "UTF8ENV_PYTHON": "python", "UTF8ENV_WORLD": "c-locale"}, project, tmp_path)
    assert proc.returncode == status, proc.stderr
    assert proc.stdout.splitlines() == [
        "$ utf8env readiness --format github --world c-locale --python python -- pytest -q "
        "-k 'csv and not slow' '$HOME' '*.py'",
        str(project),
        str(["readiness", "--format", "github", "--world", "c-locale", "--python", "python",
             "--", "pytest", "-q", "-k", "csv and not slow", "$HOME", "*.py"])]


@pytest.mark.parametrize("windows, requirements, words", [
    ("true", "", ["--windows", "--code-page", "932"]),
    ("3.11", "req.txt", ["--windows", "3.11", "--code-page", "932", "--windows-requirements",
                         "req.txt"])])
@pytest.mark.fast
def test_the_run_step_runs_windows_instead_of_python_and_world(action, tmp_path, windows,
                                                                requirements, words):
    _fake_utf8env(tmp_path, 0)
    proc = _step(action, "utf8env readiness", {
        "UTF8ENV_PYTEST_ARGS": "-q", "UTF8ENV_PYTHON": "python", "UTF8ENV_WORLD": "latin1",
        "UTF8ENV_WINDOWS": windows, "UTF8ENV_CODE_PAGE": "932",
        "UTF8ENV_WINDOWS_REQUIREMENTS": requirements}, tmp_path, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == str(
        ["readiness", "--format", "github"] + words + ["--", "pytest", "-q"])


@pytest.mark.fast
def test_the_run_step_refuses_unbalanced_quotes(action, tmp_path):
    _fake_utf8env(tmp_path, 0)
    proc = _step(action, "utf8env readiness", {
        "UTF8ENV_PYTEST_ARGS": "-k 'oops", "UTF8ENV_PYTHON": "", "UTF8ENV_WORLD": "latin1"},
        tmp_path, tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == "::error title=utf8env readiness::pytest-args: No closing quotation\n"


def test_the_install_step_installs_the_actions_own_folder(action, tmp_path):
    """`pip install "$GITHUB_ACTION_PATH"` into a venv of its own (offline: utf8env has
    no build or run dependency)."""
    proc = _step(action, "Install utf8env", {"UTF8ENV_VERSION": "",
                                              "PIP_NO_INDEX": "1"}, tmp_path, tmp_path)
    assert proc.returncode == 0, proc.stderr
    import utf8env
    assert proc.stdout.splitlines()[-1] == "utf8env %s" % utf8env.__version__
