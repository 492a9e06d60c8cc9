"""utf8env readiness on the sample project (tests/sample_project) in the real Latin-1
world, on the real 3.13 (pyenv) and the real 3.15 (Debian chroot; UTF-8 mode on by
default, so its "today" run turns it off), both Pythons' four runs at once in one
module fixture; every format's exact output (tests/readiness_expected/, timings fixed);
the command line; and the parts that need no world.

The sample's tests pass today; with UTF-8 mode three change: a note written by open()
and counted by `wc -m` (a C program, in the locale's encoding), a Latin-1 tool's output
read by subprocess(text=True), a Latin-1 file name printed. Three more call sites warn
and change nothing."""
import json
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree

import pytest

from utf8env import cli, commands, options, pages
from utf8env.errors import UsageError
from utf8env.matrix import discovery, worlds
from utf8env.own_command import own_command
from utf8env.readiness import compare, formats, junit, suite
from utf8env.readiness.recorder import function_at, origin, summary_lines

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "sample_project")
EXPECTED = os.path.join(HERE, "readiness_expected")


def _python(version):
    for i in discovery.interpreters():
        if i.version == version:
            return i
    pytest.skip("no Python %s here" % version)


@pytest.fixture(scope="module")
def sample():
    """{"both": result, "3.13": result, "3.15": result} of one plan of four runs."""
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)
    pythons = [_python("3.13"), _python("3.15")]
    started = time.monotonic()
    planned, folders = suite.plan(SAMPLE, pythons, "latin1", ["-q"], dict(os.environ), 600)
    try:
        runs, workers = suite.execute(planned, "latin1")
        wall = time.monotonic() - started
        out = {"both": compare.compare(["-q"], "latin1", planned, runs, workers, wall)}
        for v in ("3.13", "3.15"):
            mine = [i for i, p in enumerate(planned) if p[0].version == v]
            out[v] = compare.compare(["-q"], "latin1", [planned[i] for i in mine],
                                     [runs[i] for i in mine], workers, wall)
        out["left"] = [f.dir for f in folders]
    finally:
        for folder in folders:
            folder.remove()
    return out


def fixed(result):
    """The result with its timings fixed, for exact pages."""
    return result._replace(
        runs=[r._replace(seconds=1.5) for r in result.runs],
        timing=result.timing._replace(wall_seconds=3.25, cell_seconds=6.0))


CHANGED = {
    ("checks/check_legacy.py::test_names_are_shown", "passed", "failed",
     "UnicodeEncodeError: 'utf-8' codec can't encode character '\\udce9' in position 3: "
     "surrogates not allowed", ()),
    ("checks/check_legacy.py::test_the_tool_output_is_text", "passed", "failed",
     "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 3: unexpected end of data",
     ("notes/legacy.py:7",)),
    ("checks/check_store.py::test_the_locale_counts_four_characters", "passed", "failed",
     "AssertionError: assert 5 == 4", ("notes/store.py:5", "notes/store.py:16")),
}
# (file:line, function, warnings per Python in the run with UTF-8 mode off, tests, changed)
SITES = [
    ("notes/legacy.py:7", "tool_output", 1, 1, 1),
    ("notes/settings.py:5", "write", 1, 1, 0),
    ("notes/settings.py:10", "read", 1, 1, 0),
    ("notes/store.py:5", "save", 3, 3, 1),
    ("notes/store.py:10", "load", 2, 2, 0),
    ("notes/store.py:16", "characters", 1, 1, 1),
]


@pytest.mark.parametrize("version", ["3.13", "3.15"])
def test_readiness_finds_exactly_the_changed_tests_and_call_sites(sample, version):
    r = sample[version]
    assert [(x.mode, x.utf8_mode, x.filesystem_encoding, x.counts) for x in r.runs] == [
        ("today", 0, "iso8859-1", {"passed": 6}), ("3.15", 1, "utf-8", {"passed": 3, "failed": 3})]
    assert {(c.test, c.today.outcome, c.utf8_mode.outcome, c.utf8_mode.message,
             tuple(c.call_sites)) for c in r.changed} == CHANGED
    assert [(s.where, s.function, s.count, len(s.tests), len(s.changed_tests))
            for s in r.call_sites] == SITES
    assert {s.origin for s in r.call_sites} == {"user"} and r.hidden_sites == 0
    assert (r.tests, r.ready) == (6, False)


def test_both_pythons_agree_and_their_runs_ran_in_parallel(sample):
    both = sample["both"]
    assert [(s.where, s.count, s.pythons) for s in both.call_sites] == [
        (where, 2 * count, ["3.13", "3.15"]) for where, _, count, _, _ in SITES]
    assert len(both.changed) == 6 and both.tests == 6
    assert both.timing.workers == min(4, os.cpu_count() or 1) and both.timing.jobs == 4


def test_each_run_had_its_own_folder_and_nothing_is_left(sample):
    # one folder of lent packages per root (the host, the chroot), one per run
    assert len(set(sample["left"])) == len(sample["left"]) == 2 + 4
    for folder in sample["left"]:
        assert not os.path.exists(folder)


@pytest.mark.parametrize("version", ["3.13", "3.15"])
def test_lent_pytest_carries_its_metadata(version):
    """A Python without pytest (pyenv's 3.13 on the host: links; the chroot's 3.15:
    copies) finds every lent distribution's metadata, as pluggy 1.7 and pytest's header
    need it (`pluggy.__version__` reads importlib.metadata)."""
    import importlib.metadata
    interp = _python(version)
    assert not suite._has_pytest(interp, {"PATH": "/usr/bin:/bin"})
    by_package = importlib.metadata.packages_distributions()
    dists = sorted({d for name in suite._LENT for d in by_package.get(name, ())}, key=str.lower)
    assert {"pytest", "pluggy", "iniconfig", "packaging"} <= set(dists)
    holder = suite.Folder(interp.root, "site")
    try:
        site = suite._lend(holder, True)
        proc = subprocess.run(list(interp.argv) + ["-c", (
            "import importlib.metadata as m, sys, pluggy, pytest\n"
            "for d in sys.argv[1:]: print(d, m.version(d))\n"
            "print('pluggy', pluggy.__version__, 'pytest', pytest.__version__)")] + dists,
            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": site}, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)
    finally:
        holder.remove()
    assert (proc.returncode, proc.stderr.decode()) == (0, "")
    v = importlib.metadata.version
    assert proc.stdout.decode() == "".join("%s %s\n" % (d, v(d)) for d in dists) + (
        "pluggy %s pytest %s\n" % (v("pluggy"), v("pytest")))


@pytest.mark.parametrize("fmt", ["text", "markdown", "github", "junit", "json"])
def test_every_format_exact_for_the_sample(sample, fmt):
    with open(os.path.join(EXPECTED, "both." + fmt), encoding="utf-8") as f:
        want = f.read()
    assert formats.render(fixed(sample["both"]), fmt) == want


def test_text_fits_100_columns(sample):
    for key in ("both", "3.15"):
        for line in formats.render(sample[key], "text").splitlines():
            assert len(line) <= 100, line


_ANNOTATION = re.compile(r"^::(warning|error)((?: [a-zA-Z]+=[^,:\r\n]*)?(?:,[a-zA-Z]+=[^,:\r\n]*)*)"
                         r"::([^\r\n]*)$")


def _unescape(text):
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace(
        "%2C", ",").replace("%25", "%")


def test_github_annotations_follow_the_documented_syntax(sample):
    r = sample["3.15"]
    lines = formats.github(r).splitlines()
    parsed = []
    for line in lines:
        m = _ANNOTATION.match(line)
        assert m, line
        props = dict(p.split("=", 1) for p in m.group(2).strip().split(",")) if m.group(2) else {}
        assert "%" not in m.group(3).replace("%25", "").replace("%0A", "").replace("%0D", "")
        parsed.append((m.group(1), {k: _unescape(v) for k, v in props.items()}, _unescape(m.group(3))))
    warnings = [(p["file"], int(p["line"])) for kind, p, _ in parsed if kind == "warning"]
    assert warnings == [(s.file, s.line) for s in r.call_sites]
    errors = [(p["file"], msg.split(" ")[0]) for kind, p, msg in parsed if kind == "error"]
    assert errors == [(c.test.split("::")[0], c.test) for c in r.changed]
    assert all(p["title"].startswith("utf8env readiness: ") for _, p, _ in parsed)


def test_github_escaping():
    assert pages.github_data("50% a\r\nb:c,d") == "50%25 a%0D%0Ab:c,d"
    assert pages.github_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    assert pages.github_command("warning", "m\n", file="x,y.py", line=3, title="t: u") == \
        "::warning file=x%2Cy.py,line=3,title=t%3A u::m%0A"


def test_junit_xml_parses_back(sample):
    r = sample["3.15"]
    root = ElementTree.fromstring(formats.junit(r).encode("utf-8"))
    [suite_element] = root.findall("testsuite")
    cases = suite_element.findall("testcase")
    assert int(suite_element.get("tests")) == len(cases) == len(r.changed) + len(r.call_sites)
    failed = [c for c in cases if c.find("failure") is not None]
    assert int(suite_element.get("failures")) == len(failed) == 3 + 3
    names = {c.get("name") for c in cases if c.get("classname") == "utf8env.readiness.tests"}
    assert names == {t + " [3.15]" for t, _, _, _, _ in CHANGED}
    sites = [(c.get("file"), c.get("line")) for c in cases
             if c.get("classname") == "utf8env.readiness.call_sites"]
    assert sites == [(s.file, str(s.line)) for s in r.call_sites]


RESULT_KEYS = {"schema", "command", "world", "environment", "variables", "runs", "changed",
               "call_sites", "hidden_sites", "tests", "ready", "timing"}


def test_json_keys(sample):
    data = json.loads(formats.render(sample["both"], "json"))
    assert set(data) == RESULT_KEYS and data["schema"] == 1
    assert set(data["timing"]) == {"wall_seconds", "cell_seconds", "workers", "jobs"}
    for run in data["runs"]:
        assert set(run) == {"python", "interpreter", "mode", "utf8_mode", "exit", "timed_out",
                            "seconds", "counts", "filesystem_encoding", "locale_encoding", "problem"}
    for c in data["changed"]:
        assert set(c) == {"python", "test", "today", "utf8_mode", "difference", "call_sites"}
        assert set(c["today"]) == set(c["utf8_mode"]) == {"outcome", "message", "output"}
    for s in data["call_sites"]:
        assert set(s) == {"file", "line", "function", "origin", "message", "count", "tests",
                          "pythons", "changed_tests", "fixes"}
        assert [f["encoding"] for f in s["fixes"]] == ["utf-8", "locale"]


def _readme_block(title):
    with open(os.path.join(os.path.dirname(HERE), "README.md"), encoding="utf-8") as f:
        readme = f.read()
    m = re.search(r"<!-- %s -->\n```\n(.*?)```\n" % re.escape(title), readme, re.S)
    assert m, title
    return m.group(1)


def _masked(text):
    return re.sub(r"\d+\.\d s|(?<=  )\d+\.\d\b", "N", text)


def test_readme_shows_the_real_output(sample):
    text = _readme_block("readiness text")
    assert text.startswith("$ utf8env readiness -- pytest -q\n")
    assert _masked(text.split("\n", 1)[1]) == _masked(formats.render(sample["3.15"], "text"))
    excerpt = _readme_block("readiness github")
    assert excerpt.startswith("$ utf8env readiness --format github -- pytest -q\n")
    lines = formats.render(sample["3.15"], "github").splitlines()
    for line in excerpt.splitlines()[1:]:
        assert line in lines or line == "..."


# -- the command line ------------------------------------------------------------------

def _cli(args, cwd, env=None):
    return subprocess.run(own_command() + ["readiness"] + args, cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)


@pytest.fixture(scope="module")
def cli_runs(tmp_path_factory):
    """The command on the sample, findings (json) and ready (one file, github), at once."""
    if not worlds.available()[0]:
        pytest.skip(worlds.available()[1])
    py = _python("3.13").argv[0]
    summary = tmp_path_factory.mktemp("gh") / "summary.md"
    env = dict(os.environ, GITHUB_STEP_SUMMARY=str(summary))
    procs = [subprocess.Popen(own_command() + ["readiness", "--python", py] + args, cwd=SAMPLE,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for args in (["--format", "json", "--", "pytest", "-q"],
                          ["--format", "github", "--", "pytest", "checks/check_settings.py"])]
    out = [p.communicate(timeout=600) + (p.returncode,) for p in procs]
    return out, summary.read_text(encoding="utf-8")


def test_cli_exit_1_with_findings_and_0_when_ready(cli_runs):
    (json_out, json_err, json_code), (gh_out, gh_err, gh_code), = cli_runs[0]
    assert (json_code, json_err) == (1, b"")
    data = json.loads(json_out.decode("utf-8"))
    assert data["ready"] is False and len(data["changed"]) == 3
    assert (gh_code, gh_err) == (0, b"")
    lines = gh_out.decode("utf-8").splitlines()
    assert [l.split("::")[1] for l in lines] == [
        "warning file=notes/settings.py,line=5,title=utf8env readiness%3A default encoding",
        "warning file=notes/settings.py,line=10,title=utf8env readiness%3A default encoding"]
    summary = cli_runs[1]
    assert summary.startswith("## utf8env readiness: `pytest checks/check_settings.py`\n")
    assert "Ready: no test changes with UTF-8 mode (1 test, 2 call sites warned)." in summary


@pytest.mark.parametrize("argv, message", [
    ([], "readiness: no COMMAND given: expected -- pytest ARGS..."),
    (["--world", "mars", "--", "pytest"], "--world 'mars': expected one of utf8-locale, c-locale, "
     "c-legacy, latin1, gb18030, no-locales"),
    (["--format", "xml", "--", "pytest"], "--format 'xml': expected one of text, markdown, github, "
     "junit, json"),
    (["--timeout", "0", "--", "pytest"], "--timeout '0': expected a positive number of seconds"),
    (["--timeout", "nan", "--", "pytest"], "--timeout 'nan': expected a positive number of seconds"),
    (["--timeout", "1e400", "--", "pytest"], "--timeout '1e400': expected a positive number of seconds"),
    (["--", "nosetests"], "readiness: COMMAND 'nosetests': expected pytest ARGS... (it runs as "
     "PYTHON -m pytest ARGS... under each --python)"),
    (["--python", "/nonexistent/python", "--", "pytest"], "--python '/nonexistent/python': not an "
     "executable file"),
    (["--bogus"], "unrecognized arguments: --bogus"),
])
def test_usage_errors_are_one_line_and_exit_2(argv, message, capsys):
    if argv[:1] == ["--python"] and not worlds.available()[0]:
        pytest.skip(worlds.available()[1])
    assert cli.main(["readiness"] + argv) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "utf8env: error: %s\n" % message)


def test_pytest_usage_error_is_a_usage_error(tmp_path):
    if not worlds.available()[0]:
        pytest.skip(worlds.available()[1])
    shutil.copytree(SAMPLE, str(tmp_path / "p"))
    proc = _cli(["--python", _python("3.13").argv[0], "--", "pytest", "--no-such-option"],
                str(tmp_path / "p"))
    assert proc.returncode == 2 and proc.stdout == b""
    err = proc.stderr.decode()
    assert err.startswith("utf8env: error: readiness: pytest refused its arguments: ") and \
        err.count("\n") == 1 and "--no-such-option" in err


def test_help_lists_every_option_on_one_line(capsys):
    assert cli.main(["readiness", "--help"]) == 0
    out = capsys.readouterr().out
    spec = commands.declaration("readiness")
    assert out == options.help_text(spec)
    lines = out[out.index("options:\n"):].splitlines()[1:]
    assert len(lines) == len(spec.options) + 1          # --format's text goes on the next line
    for option in spec.options:
        [i] = [i for i, l in enumerate(lines) if l.startswith("  " + ", ".join(option.names))]
        assert lines[i].endswith(option.help) or lines[i + 1].strip() == option.help


def test_readiness_is_in_the_main_help(capsys):
    cli.main(["--help"])
    assert "\n  readiness " in capsys.readouterr().out


# -- the plugin -----------------------------------------------------------------------

def _pytest(args, cwd, env_extra=None, python=sys.executable):
    env = dict(os.environ, LANG="C.UTF-8", **(env_extra or {}))
    env.pop("PYTHONWARNDEFAULTENCODING", None)
    return subprocess.run([python] + args, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=300)


def _installed():
    """The entry point is installed for this interpreter (tests/setup.sh: pip install -e)."""
    probe = _pytest(["-m", "pytest", "--help"], HERE)
    if b"--utf8env" not in probe.stdout:
        pytest.skip("the utf8env pytest11 entry point is not installed (bash tests/setup.sh)")


def _without_times(out):
    """pytest's output without its timings and its list of installed plugins (which names
    every installed one, this one too: pytest's, not the plugin's output)."""
    out = re.sub(rb" in \d+\.\d+s", b" in Ns", re.sub(rb" at 0x[0-9a-f]+", b" at 0x", out))
    return re.sub(rb"(?m)^plugins: .*\n", b"", out)


def test_the_plugin_is_inert_when_not_asked(tmp_path):
    _installed()
    shutil.copytree(SAMPLE, str(tmp_path / "p"))
    args = ["-X", "warn_default_encoding", "-m", "pytest", "-p", "no:cacheprovider", "-rA",
            "--basetemp", str(tmp_path / "t")]
    loaded = _pytest(args, str(tmp_path / "p"))
    absent = _pytest(args + ["-p", "no:utf8env.readiness.plugin"], str(tmp_path / "p"))
    assert loaded.returncode == absent.returncode
    assert _without_times(loaded.stdout) == _without_times(absent.stdout)
    assert loaded.stderr == absent.stderr
    assert b", utf8env-" in re.search(rb"(?m)^plugins: .*$", loaded.stdout).group(0)  # loaded
    assert b"utf8env" not in _without_times(loaded.stdout)


def test_the_plugin_summary_and_record(tmp_path):
    _installed()
    shutil.copytree(SAMPLE, str(tmp_path / "p"))
    record = tmp_path / "record.json"
    proc = _pytest(["-X", "warn_default_encoding", "-m", "pytest", "-p", "no:cacheprovider",
                    "--utf8env", "--utf8env-json", str(record), "checks/check_store.py"],
                   str(tmp_path / "p"))
    out = proc.stdout.decode()
    summary = out[out.index("= utf8env:"):].splitlines()
    assert summary[0].strip("= ") == ("utf8env: 3 call sites use the locale encoding "
                                      "(6 EncodingWarnings in 3 tests)")
    assert summary[1:10] == [
        "notes/store.py:5 in save: 3 warnings, 3 tests",
        "    checks/check_store.py::test_a_note_reads_back",
        "    checks/check_store.py::test_a_plain_note_reads_back",
        "    checks/check_store.py::test_the_locale_counts_four_characters",
        "notes/store.py:10 in load: 2 warnings, 2 tests",
        "    checks/check_store.py::test_a_note_reads_back",
        "    checks/check_store.py::test_a_plain_note_reads_back",
        "notes/store.py:16 in characters: 1 warning, 1 test",
        "    checks/check_store.py::test_the_locale_counts_four_characters"]
    data = json.loads(record.read_text())
    assert set(data) == {"schema", "python", "utf8_mode", "warn_default_encoding",
                         "filesystem_encoding", "locale_encoding", "rootdir", "sites", "tests"}
    assert data["tests"] == {"checks/check_store.py::" + t: "passed" for t in (
        "test_a_note_reads_back", "test_a_plain_note_reads_back",
        "test_the_locale_counts_four_characters")}
    for s in data["sites"]:
        assert set(s) == {"file", "line", "function", "origin", "message", "count", "tests"}


def test_the_plugin_says_how_to_turn_the_warning_on(tmp_path):
    _installed()
    shutil.copytree(SAMPLE, str(tmp_path / "p"))
    proc = _pytest(["-m", "pytest", "-p", "no:cacheprovider", "--utf8env", "checks/check_settings.py"],
                   str(tmp_path / "p"))
    assert ("EncodingWarning is off in this interpreter: start the interpreter with -X "
            "warn_default_encoding") in proc.stdout.decode()


def test_the_plugin_counts_the_same_under_xdist(tmp_path):
    _installed()
    pytest.importorskip("xdist")
    shutil.copytree(SAMPLE, str(tmp_path / "p"))
    records = []
    for extra in ([], ["-n", "2"]):
        record = tmp_path / ("record%d.json" % len(records))
        proc = _pytest(["-X", "warn_default_encoding", "-m", "pytest", "-p", "no:cacheprovider",
                        "--utf8env-json", str(record)] + extra, str(tmp_path / "p"))
        assert proc.returncode == 1, proc.stdout       # the UTF-8 locale: two tests fail
        records.append(json.loads(record.read_text()))
    assert records[0]["sites"] == records[1]["sites"] and len(records[0]["sites"]) == 6
    assert records[0]["tests"] == records[1]["tests"]


def test_call_site_origin_and_function(tmp_path):
    import sysconfig
    paths = sysconfig.get_paths()
    assert origin(os.path.join(paths["stdlib"], "subprocess.py")) == "stdlib"
    assert origin(os.path.join(paths["purelib"], "click", "utils.py")) == "site-packages"
    assert origin(str(tmp_path / "app.py")) == "user"
    assert origin("<frozen codecs>") == "stdlib"
    source = tmp_path / "m.py"
    source.write_text("x = open('f')\nclass A:\n    def f(self):\n        return open('g')\n"
                      "def g():\n    def inner():\n        pass\n")
    assert [function_at(str(source), n) for n in (1, 4, 7)] == ["<module>", "A.f", "g.inner"]
    assert function_at(str(tmp_path / "missing.py"), 1) is None


def test_summary_before_310_and_without_the_flag():
    record = {"python": "3.9.18", "warn_default_encoding": None, "sites": []}
    assert summary_lines(record)[1].startswith("Python 3.9.18 has no EncodingWarning (PEP 597")
    record["warn_default_encoding"] = False
    assert "PYTHONWARNDEFAULTENCODING=1" in summary_lines(record)[1]


def test_junit_key_is_pytests():
    assert junit.key("checks/check_a.py::TestX::test_y[a/b::c]") == ("checks.check_a.TestX",
                                                                    "test_y[a/b::c]")
