"""One set of facts in every format of a readiness result (issue 31): text, JSON, JUnit,
Markdown and GitHub (annotations and the step summary) name every kind of finding;
docs/json.md documents every key of a real JSON report; Markdown code spans are
CommonMark-safe, read back by a CommonMark parser (markdown-it-py, pinned in
tests/constraints.txt); the step summary stays under GitHub's 1 MiB and says what it
left out."""
import json
import os
import re
import subprocess
import sys
import types
import xml.etree.ElementTree as ElementTree

import pytest
from markdown_it import MarkdownIt

from utf8env import _worlds as worlds
from utf8env._own_command import own_command
from utf8env._worlds.jobs import Timing
from utf8env.readiness import _format_github as format_github, _format_markdown as format_markdown
from utf8env.readiness import _formats as formats, _report as written
from utf8env.readiness import _results as results
from utf8env.readiness._results import (CallSite, Fix, Outcome, ReadinessResult, SuiteRun,
                                        Trial, UnstableTest, UntestedSite)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
READ = "tests/test_io.py::test_read"
NOW = "tests/test_clock.py::test_now"
# GitHub's limit of a step summary, as its runner says it: "supports content up to a size
# of 1024k" (bytes, the file as written)
MIB = 1024 * 1024


def _run(mode, counts, problem=None, output=()):
    return SuiteRun(python="3.13", interpreter=["/usr/bin/python3.13"], mode=mode,
                    utf8_mode=int(mode != "today"), exit=0 if mode == "today" else 1,
                    timed_out=False, seconds=1.5, counts=counts, filesystem_encoding="utf-8",
                    locale_encoding="ISO-8859-1", problem=problem, complete=problem is None,
                    output=list(output))


def _change(test, site="pkg/io.py:7", difference="UnicodeDecodeError: bad byte"):
    return results.TestChange(python="3.13", test=test, today=Outcome("passed"),
                              utf8_mode=Outcome("failed", difference),
                              difference="passed -> failed: " + difference, call_sites=[site])


def _site(changed_tests, file="pkg/io.py", line=7, fixes=None):
    return CallSite(file=file, line=line, function="read", origin="user",
                    message="'encoding' argument not specified", count=2,
                    tests=list(changed_tests), pythons=["3.13"],
                    changed_tests=list(changed_tests), fixes=fixes or [])


def _result(changed, sites, **more):
    return ReadinessResult(
        schema=1, command=["-q"], world="latin1", environment="a Latin-1 locale",
        variables={"LANG": "en_US.ISO-8859-1"},
        runs=[_run("today", {"passed": 3}), _run("3.15", {"passed": 2, "failed": 1})],
        changed=changed, call_sites=sites, hidden_sites=0, tests=3, ready=not changed,
        timing=Timing(wall_seconds=4.0, cell_seconds=6.0, workers=2, jobs=6), **more)


def every_finding():
    """A result with one of each kind of finding: a changed test, its call site (both
    fixes tried, measured), an untested call, an unstable test, the fix tried (advice)."""
    site = _site([READ], fixes=[Fix("utf-8", READ + " passes in both modes", "passes"),
                                Fix("locale", READ + " keeps today's result", "changes")])
    trial = Trial(python="3.13", encoding="utf-8", sites=["pkg/io.py:7"], not_edited=[],
                  tests=[[READ, Outcome("passed"), Outcome("passed")]],
                  runs=[_run("today", {"passed": 1}), _run("3.15", {"passed": 1})])
    unstable = UnstableTest(python="3.13", test=NOW,
                            today=[Outcome("passed"), Outcome("failed", "AssertionError: 12:01")],
                            utf8_mode=[Outcome("passed"), Outcome("passed")])
    return _result([_change(READ)], [site], unstable=[unstable], advice=[trial],
                   untested=[UntestedSite(file="pkg/save.py", line=12, call="open",
                                          verdict="fix")])


MARKDOWN = """\
## utf8env readiness: `pytest -q`

World `latin1`: a Latin-1 locale (`LANG=en_US.ISO-8859-1`). Not ready: 1 of 3 tests change \
with UTF-8 mode; 1 of 1 call site active in them. 1 test not counted (unstable).

| Python | run | UTF-8 mode | filesystem | locale | tests | seconds |
| --- | --- | --- | --- | --- | --- | --- |
| 3.13 | today | off | utf-8 | ISO-8859-1 | 3 passed | 1.5 |
| 3.13 | 3.15 | on | utf-8 | ISO-8859-1 | 2 passed, 1 failed | 1.5 |

### Tests that change with UTF-8 mode

| test | Python | first difference | call sites |
| --- | --- | --- | --- |
| `tests/test_io.py::test_read` | 3.13 | `passed -> failed: UnicodeDecodeError: bad byte` | \
`pkg/io.py:7` |

### Call sites that use the locale encoding

| call site | warnings | tests | changed tests | fixes |
| --- | --- | --- | --- | --- |
| `pkg/io.py:7` in `read` | 2 | 1 | `tests/test_io.py::test_read` | `encoding="utf-8"`: \
tests/test_io.py::test_read passes in both modes (tried: passes in both modes)<br>\
`encoding="locale"`: tests/test_io.py::test_read keeps today's result (tried: still changes) |

### Untested: calls no test exercised

| call | what | fixer |
| --- | --- | --- |
| `pkg/save.py:12` | `open` | adds encoding= |

The fixer's scan finds these calls; no test exercised them (no EncodingWarning in either \
run): the 3.15 risk no test measures.

### Unstable tests (not counted as changes)

| test | Python | runs |
| --- | --- | --- |
| `tests/test_clock.py::test_now` | 3.13 | UTF-8 mode off: passed, then failed \
(AssertionError: 12:01); on: passed twice |

### Fixes tried in copies of the project

| Python | fix | sites edited | not edited | tests (UTF-8 mode off; on) |
| --- | --- | --- | --- | --- |
| 3.13 | `encoding="utf-8"` | `pkg/io.py:7` | none | `tests/test_io.py::test_read`: passed; \
passed |

6 runs on 2 workers, 4.0 s (their own time 6.0 s); 2 of them tried the two fixes in copies \
of the project.
"""

ANNOTATIONS = """\
::error file=tests/test_io.py,title=utf8env readiness%3A test changes::\
tests/test_io.py::test_read changes with UTF-8 mode on Python 3.13: passed -> failed: \
UnicodeDecodeError: bad byte (call sites: pkg/io.py:7)
::warning file=pkg/io.py,line=7,title=utf8env readiness%3A default encoding::read uses the \
locale encoding (2 EncodingWarnings): with UTF-8 mode (Python 3.15) this test changes: \
tests/test_io.py::test_read; fix: encoding="utf-8" (the 3.15 behaviour on every version) or \
encoding="locale" (today's kept, Python 3.10+)
"""

# What names each finding, in every format: the changed test, its call site, the
# untested call, the unstable test, the fix tried and what trying it measured.
NAMES = {"changed test": READ, "call site": "pkg/io.py:7", "untested call": "pkg/save.py:12",
         "unstable test": NOW}


@pytest.mark.fast
def test_markdown_is_the_whole_report():
    assert format_markdown.markdown(every_finding()) == MARKDOWN


@pytest.mark.fast
def test_github_annotations_and_a_summary_that_is_the_whole_markdown(tmp_path):
    project = str(tmp_path)
    environ = {"GITHUB_WORKSPACE": project, "GITHUB_STEP_SUMMARY": str(tmp_path / "s")}
    assert format_github.github(every_finding(), environ=environ, cwd=project) == ANNOTATIONS
    assert format_markdown.step_summary(every_finding()) == (MARKDOWN, False)


@pytest.mark.fast
def test_text_json_and_junit_name_every_finding():
    result = every_finding()
    text = formats.render(result, "text", 1000)      # a line each, unwrapped
    for name in NAMES.values():
        assert name in text
    assert 'tried: "utf-8" passes in both modes, "locale" still changes' in text
    assert "2 of them tried the two fixes in copies of the project" in text

    data = json.loads(formats.render(result, "json"))
    assert [c["test"] for c in data["changed"]] == [READ]
    assert ["%(file)s:%(line)d" % s for s in data["call_sites"]] == ["pkg/io.py:7"]
    assert [(f["encoding"], f["measured"]) for f in data["call_sites"][0]["fixes"]] == [
        ("utf-8", "passes"), ("locale", "changes")]
    assert data["untested"] == [{"file": "pkg/save.py", "line": 12, "call": "open",
                                 "verdict": "fix"}]
    assert [u["test"] for u in data["unstable"]] == [NOW]
    assert [(a["encoding"], a["sites"]) for a in data["advice"]] == [("utf-8", ["pkg/io.py:7"])]

    suite = ElementTree.fromstring(formats.render(result, "junit")).find("testsuite")
    cases = [(c.get("classname"), c.get("name"), [(e.tag, e.get("message"), e.text)
                                                   for e in c]) for c in suite]
    untested = ("untested: no test exercised this call (no EncodingWarning in either run), "
                "the 3.15 risk no test measures; the fixer adds encoding=")
    assert cases == [
        ("utf8env.readiness.tests", NOW + " [3.13]",
         [("skipped", "unstable: UTF-8 mode off: passed, then failed (AssertionError: 12:01); "
                      "on: passed twice", None)]),
        ("utf8env.readiness.tests", READ + " [3.13]",
         [("failure", "passed -> failed: UnicodeDecodeError: bad byte",
           "call sites: pkg/io.py:7")]),
        ("utf8env.readiness.call_sites", "pkg/io.py:7 in read",
         [("failure", "active in tests that change: " + READ,
           'encoding="utf-8": %s passes in both modes (tried: passes in both modes)\n'
           'encoding="locale": %s keeps today\'s result (tried: still changes)' % (READ, READ))]),
        ("utf8env.readiness.untested", "pkg/save.py:12 open", [("skipped", untested, None)])]
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("4", "2", "2")


# -- CommonMark code spans -----------------------------------------------------------------

def _inline_code(markdown):
    """The contents of every code span of `markdown`, as a CommonMark parser with GitHub's
    tables reads them."""
    found = []
    for token in MarkdownIt("commonmark").enable("table").parse(markdown):
        for child in token.children or ():
            if child.type == "code_inline":
                found.append(child.content)
    return found


@pytest.mark.parametrize("test, span", [
    ("t.py::test_a`b", "``t.py::test_a`b``"),
    ("t.py::test_a``b", "```t.py::test_a``b```"),
    ("t.py::test_ab`", "`` t.py::test_ab` ``"),
    ("t.py::test_[`x` | ``y``]", "```t.py::test_[`x` \\| ``y``]```"),
    # spaces at the ends (a parametrize id): kept, one stripped from each padding
    ("t.py::test_p[ a ]", "`t.py::test_p[ a ]`"),
    (" t.py::test_p[a] ", "`  t.py::test_p[a]  `"),
    (" t.py::test_p[a]", "`  t.py::test_p[a] `"),
])
@pytest.mark.fast
def test_a_backtick_in_a_test_id_keeps_its_code_span(test, span):
    """Per CommonMark 6.1: a fence longer than any run of backticks inside, and a space
    inside each end when the id starts or ends with a backtick or a space (the parser
    strips one from each end of a span that starts and ends with one)."""
    site = "t.py:%d" % len(test)
    result = _result([_change(test, site)], [_site([test], "t.py", len(test))],
                     unstable=[UnstableTest(python="3.13", test=test,
                                            today=[Outcome("passed")] * 2,
                                            utf8_mode=[Outcome("passed"), Outcome("failed")])])
    page = format_markdown.markdown(result)
    assert "| %s | 3.13 |" % span in page
    spans = _inline_code(page)
    assert spans.count(test) == 3        # the change, the site's changed test, the unstable test
    assert spans.count(site) == 2


@pytest.mark.fast
def test_an_incomplete_runs_output_keeps_its_fence():
    """A run's output holding ``` is shown in a longer fence: it cannot close the block."""
    bad = _run("3.15", {"passed": 1}, problem="timed out after 900 s",
               output=["```", "````x", "done"])
    result = _result([], [])._replace(runs=[_run("today", {"passed": 1}), bad], complete=False)
    page = format_markdown.markdown(result)
    assert "\n`````\n```\n````x\ndone\n`````\n" in page
    blocks = [t.content for t in MarkdownIt("commonmark").parse(page) if t.type == "fence"]
    assert blocks == ["```\n````x\ndone\n"]


# -- the step summary's bound ----------------------------------------------------------------

@pytest.mark.fast
def test_the_step_summary_stays_under_a_mib_and_says_what_it_left_out():
    tests = ["tests/test_many.py::test_%04d[%s]" % (i, "x" * 100) for i in range(5000)]
    sites = [_site([t], "pkg/m%04d.py" % i, 1) for i, t in enumerate(tests[:300])]
    result = _result([_change(t, "pkg/m%04d.py:1" % (i % 300),
                              "UnicodeDecodeError: " + "y" * 100)
                      for i, t in enumerate(tests)], sites,
                     untested=[UntestedSite(file="pkg/u.py", line=i, call="open", verdict="fix")
                               for i in range(1, 2001)])
    whole = format_markdown.markdown(result)
    assert len(whole.encode("utf-8")) > MIB
    page, cut = format_markdown.step_summary(result)
    assert cut is True
    assert len(page.encode("utf-8")) < MIB
    rows = page.splitlines()
    kept = [sum(line.startswith(start) for line in rows)
            for start in ("| `tests/test_many.py::test_", "| `pkg/m", "| `pkg/u.py:")]
    # the call sites and untested calls take less than an equal share: all of them shown;
    # the changed tests get the rest, the first of them
    assert kept[1:] == [300, 2000] and 0 < kept[0] < 5000
    assert page.startswith(whole[:whole.index("### Tests that change")])
    assert "| `tests/test_many.py::test_%04d[" % (kept[0] - 1) in page
    assert page.endswith(
        "\n**Left out** to keep this summary under GitHub's 1 MiB limit: %d of 5000 changed "
        "tests. The whole report is in this step's log, after the annotations (or run "
        "`utf8env readiness --format json`, which has every finding).\n" % (5000 - kept[0]))


@pytest.mark.fast
def test_each_kind_keeps_a_share_of_the_summary():
    """Many of each kind: every kind keeps its first rows, and the line counts each."""
    tests = ["tests/test_many.py::test_%04d[%s]" % (i, "x" * 300) for i in range(5000)]
    sites = [_site([t], "pkg/m%04d.py" % i, 1) for i, t in enumerate(tests)]
    result = _result([_change(t, "pkg/m%04d.py:1" % i) for i, t in enumerate(tests)], sites,
                     untested=[UntestedSite(file="pkg/%s.py" % ("u" * 300), line=i, call="open",
                                            verdict="fix") for i in range(1, 5001)])
    page, cut = format_markdown.step_summary(result)
    assert cut is True and len(page.encode("utf-8")) < MIB
    rows = page.splitlines()
    kept = [sum(line.startswith(start) for line in rows)
            for start in ("| `tests/test_many.py::test_", "| `pkg/m", "| `pkg/uuu")]
    assert all(0 < n < 5000 for n in kept), kept
    assert rows[-1] == (
        "**Left out** to keep this summary under GitHub's 1 MiB limit: %d of 5000 changed tests; "
        "%d of 5000 call sites; %d of 5000 untested calls. The whole report is in this step's "
        "log, after the annotations (or run `utf8env readiness --format json`, which has every "
        "finding)." % tuple(5000 - n for n in kept))


@pytest.mark.fast
def test_a_summary_line_of_any_length_is_cut():
    """The lines every summary keeps (here a suite command of 2 MB) are cut: the summary
    stays under 1 MiB and says the line was cut."""
    result = every_finding()._replace(command=["-k", "\u00e9" * 1000000])
    page, cut = format_markdown.step_summary(result)
    assert len(page.encode("utf-8")) < 20000
    title = page.splitlines()[0]
    assert title.startswith("## utf8env readiness: `pytest -k \u00e9\u00e9")
    assert title.endswith("\u00e9 ... (cut here: the whole line is in the whole report)")
    assert len(title.encode("utf-8")) <= 16 * 1024
    assert page.split("\n", 1)[1] == MARKDOWN.split("\n", 1)[1] + (
        "**Left out** to keep this summary under GitHub's 1 MiB limit: the end of 1 long line. "
        "The whole report is in this step's log, after the annotations (or run `utf8env "
        "readiness --format json`, which has every finding).\n")
    assert cut is True


@pytest.mark.fast
def test_a_cut_summary_puts_the_whole_report_in_the_log(tmp_path, monkeypatch, capfd):
    """`--format github` (_report.report()): the bounded summary appended to the file, and
    when it was cut, the whole Markdown report in the log after the annotations, where
    the summary's last line says it is."""
    tests = ["tests/test_many.py::test_%04d[%s]" % (i, "x" * 200) for i in range(5000)]
    result = _result([_change(t) for t in tests], [_site(tests)])
    summary = tmp_path / "summary.md"
    summary.write_text("## an earlier command of this step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert written.report(result, types.SimpleNamespace(format="github")) == 1
    out, err = capfd.readouterr()
    page, cut = format_markdown.step_summary(result)
    assert cut is True
    assert summary.read_text(encoding="utf-8") == "## an earlier command of this step\n" + page
    annotations = format_github.github(result, environ=os.environ, cwd=str(tmp_path))
    assert (out, err) == (annotations + "\n" + format_markdown.markdown(result), "")


@pytest.mark.fast
def test_a_summary_that_fits_is_the_whole_markdown():
    assert format_markdown.step_summary(every_finding(), limit=len(MARKDOWN) + 4096) == (MARKDOWN, False)


# -- docs/json.md holds every key ---------------------------------------------------------------

# Where the same object appears in several places, json.md describes it once.
SHARED = {"runs[]": "<run>", "reruns[]": "<run>", "advice[].runs[]": "<run>",
          "changed[].today": "<outcome>", "changed[].utf8_mode": "<outcome>",
          "unstable[].today[]": "<outcome>", "unstable[].utf8_mode[]": "<outcome>",
          "advice[].tests[][]": "<outcome>"}
MAPS = {"variables", "<run>.counts"}        # {name: value}: their keys are data


def _paths(value, prefix=""):
    """Every key of `value` at every depth as a json.md path (`a[].b`)."""
    out = set()
    if isinstance(value, list):
        for item in value:
            out |= _paths(item, prefix + "[]")
    elif isinstance(value, dict):
        prefix = SHARED.get(prefix, prefix)
        if prefix in MAPS:
            return out
        for k, v in value.items():
            path = prefix + "." + k if prefix else k
            out.add(path)
            out |= _paths(v, path)
    return out


def _documented():
    with open(os.path.join(ROOT, "docs", "json.md"), encoding="utf-8") as f:
        doc = f.read()
    section = doc.split("## `utf8env readiness --format json`")[1].split("\n## ")[0]
    keys = set()
    for row in re.findall(r"^\| (.+?) \| ", section, re.M)[2:]:     # after the head
        keys |= set(re.findall(r"`([^`]+)`", row))
    return keys


# A project with one of each finding: a test that changes (its call site, the fixes
# tried), an untested call (save), an unstable test (its output differs each run), a
# test whose own filter makes the EncodingWarning an error.
PROJECT = {
    "pkg/__init__.py": "",
    "pkg/io.py": "def read(path):\n    with open(path) as f:\n        return f.read()\n",
    "pkg/save.py": "def save(path, text):\n    with open(path, \"w\") as f:\n"
                   "        f.write(text)\n",
    "tests/test_io.py": (
        "import os\n\nimport pytest\n\nfrom pkg.io import read\n\n\n"
        "def test_read(tmp_path):\n    p = tmp_path / \"n.txt\"\n"
        "    p.write_bytes(b\"caf\\xe9\")\n    assert read(str(p)) == \"caf\\u00e9\"\n\n\n"
        "def test_now():\n    print(os.urandom(8).hex())\n\n\n"
        "@pytest.mark.filterwarnings(\"error::EncodingWarning\")\n"
        "def test_strict(tmp_path):\n    p = tmp_path / \"s.txt\"\n    p.write_bytes(b\"ok\")\n"
        "    assert read(str(p)) == \"ok\"\n"),
}


@pytest.fixture(scope="module")
def real_report(tmp_path_factory):
    """`utf8env readiness --format json` on PROJECT with this Python (the Latin-1 world:
    test_read reads Latin-1 bytes, so encoding="utf-8" fails in both modes and "locale"
    passes): its JSON object."""
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)
    if sys.version_info < (3, 10):
        pytest.skip("EncodingWarning (call sites, fixes tried) is Python 3.10+")
    base = tmp_path_factory.mktemp("report")
    project = base / "project"
    for name, text in PROJECT.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
    for name in ("home", "tmp", "cache"):
        (base / name).mkdir()
    env = dict(os.environ, HOME=str(base / "home"), TMPDIR=str(base / "tmp"),
               XDG_CACHE_HOME=str(base / "cache"))
    env.pop("GITHUB_STEP_SUMMARY", None)
    proc = subprocess.run(own_command() + ["readiness", "--python", sys.executable, "--format",
                                           "json", "--", "pytest", "-q", "-p", "no:cacheprovider"],
                          cwd=str(project), env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=600)
    assert (proc.returncode, proc.stderr) == (1, b"")
    return json.loads(proc.stdout.decode("utf-8"))


def test_json_md_documents_every_key_of_a_real_report_and_no_other(real_report):
    """Every key a real report writes, at every depth, is in json.md's readiness table, and
    every key there is written (each list of the report holds an item, so each object's
    keys are in it)."""
    for key in ("changed", "call_sites", "untested", "unstable", "advice", "reruns", "filtered"):
        assert real_report[key], key
    assert [f["measured"] for f in real_report["call_sites"][0]["fixes"]] == ["fails", "passes"]
    written = _paths(real_report)
    assert sorted(written - _documented()) == []
    assert sorted(_documented() - written) == []


@pytest.mark.fast
def test_json_md_documents_every_key_of_a_built_report():
    """The same for a report built here with every list filled (fast; the real report may
    lose a kind of finding to a change elsewhere)."""
    result = every_finding()._replace(
        reruns=[_run("today", {"passed": 1})], filtered=[[READ, "filter"]],
        not_copied=["fifo (FIFO)"],
        advice=[every_finding().advice[0]._replace(not_edited=[["pkg/x.py:1", "review"]])])
    written = _paths(json.loads(formats.render(result, "json")))
    assert sorted(written - _documented()) == []
    assert sorted(_documented() - written) == []
