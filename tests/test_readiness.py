"""utf8env readiness on the sample project (tests/sample_project) in the real Latin-1
world, on the real 3.13 (pyenv) and the real 3.15 (Debian chroot; UTF-8 mode on by
default, so its "today" run turns it off), each from a venv with pytest of its own, as a
user has it; both Pythons' four runs at once in one module fixture, with the world made
without root and in root's mount namespace (the same findings); every format's exact
output (tests/readiness_expected/, timings fixed); an ordinary user (nobody) with a venv
of Debian's python3 and utf8env installed as the README says; a Python without pytest
refused in one line; the default Python 3.15 found where users install it; the command
line; and the parts that need no world.

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
import tempfile
import time
import xml.etree.ElementTree as ElementTree

import pytest

from utf8env import (_worlds as worlds, _cli as cli, _commands as commands, _options as options,
                      _pages as pages)
from utf8env._errors import UsageError
from utf8env import _discovery as discovery
from utf8env._own_command import own_command
from utf8env.readiness import (_compare as compare, _format_github as format_github,
                               _format_junit as format_junit, _formats as formats,
                               _junit as junit, _suite as suite, _targets as targets)
from utf8env.readiness._recorder import function_at, origin, summary_lines

from support import install
from test_worlds import DEBIAN_ROOT, Nobody, interpreter, module_home  # noqa: F401 (autouse)

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "sample_project")
EXPECTED = os.path.join(HERE, "readiness_expected")
CONSTRAINTS = os.path.join(HERE, "constraints.txt")


def _need_worlds():
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)


@pytest.fixture(scope="module")
def wheels(tmp_path_factory):
    """pytest and what it needs, as wheels (the versions of tests/constraints.txt): what a
    user's `pip install pytest` puts in a venv."""
    folder = str(tmp_path_factory.mktemp("wheels"))
    proc = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet",
                           "--only-binary=:all:", "-c", CONSTRAINTS, "-d", folder, "pytest"],
                          env=install.pip_environ(), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        pytest.skip("pip download pytest failed (PyPI not reachable?): %s"
                    % proc.stdout.decode(errors="replace").strip()[-300:])
    return folder


class Venvs(object):
    """Venvs with pytest: one of pyenv's 3.13, one of the chroot's 3.15 (inside the chroot)."""

    def __init__(self, wheels, folder):
        self.folders = []
        self.by = {}
        py313 = interpreter("3.13")
        venv = os.path.join(folder, "venv313")
        subprocess.run(list(py313.argv) + ["-m", "venv", venv], check=True)
        subprocess.run([venv + "/bin/python", "-m", "pip", "install", "--quiet", "--no-index",
                        "--find-links", wheels, "pytest"], check=True, env=install.pip_environ())
        self.by["3.13"] = discovery.named([venv + "/bin/python"])[0]
        py315 = interpreter("3.15")
        if py315.root == "/":
            raise AssertionError("expected the chroot's 3.15")
        if os.geteuid() != 0:
            pytest.skip("not root: the chroot's 3.15 needs root")
        inside = tempfile.mkdtemp(prefix="utf8env-test-venv-", dir=os.path.join(py315.root, "tmp"))
        self.folders.append(inside)
        seen = "/" + os.path.relpath(inside, os.path.realpath(py315.root))
        subprocess.run(list(py315.argv) + ["-m", "venv", "--without-pip", seen + "/venv"],
                       check=True)
        # The chroot's 3.15 has no pip: the host's pip installs the (pure Python) wheels.
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index",
                        "--find-links", wheels, "--target",
                        inside + "/venv/lib/python3.15/site-packages", "pytest"], check=True,
                       env=install.pip_environ(), stdout=subprocess.DEVNULL)
        self.by["3.15"] = discovery.Interpreter(
            "3.15", list(py315.argv[:-1]) + [seen + "/venv/bin/python"], py315.root)

    def remove(self):
        for folder in self.folders:
            shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def venvs(wheels, tmp_path_factory):
    made = Venvs(wheels, str(tmp_path_factory.mktemp("venvs")))
    yield made.by
    made.remove()


def _both(planned, runs, workers, wall):
    out = {"both": compare.compare(["-q"], "latin1", planned, runs, workers, wall)}
    for v in ("3.13", "3.15"):
        mine = [i for i, p in enumerate(planned) if p[0].version == v]
        out[v] = compare.compare(["-q"], "latin1", [planned[i] for i in mine],
                                 [runs[i] for i in mine], workers, wall)
    return out


@pytest.fixture(scope="module")
def sample(venvs):
    """{"both": result, "3.13": result, "3.15": result} of one plan of four runs, the world
    made the least privileged way; "root": the same runs in root's mount namespace."""
    _need_worlds()
    pythons = [venvs["3.13"], venvs["3.15"]]
    out = {}
    for via in (None, worlds.MOUNT):
        if via == worlds.MOUNT and not worlds.available(via=via)[0]:
            continue
        started = time.monotonic()
        planned, folders = suite.plan(SAMPLE, pythons, "latin1", ["-q"], dict(os.environ), 600)
        try:
            runs, workers = suite.execute(planned, "latin1", via=via)
            got = _both(planned, runs, workers, time.monotonic() - started)
        finally:
            for folder in folders:
                folder.remove()
        if via is None:
            out.update(got, left=[f.dir for f in folders])
        else:
            out["root"] = got
    return out


def fixed(result):
    """The result with its timings and its interpreters' paths (venvs in temporary
    folders) fixed, for exact pages."""
    return result._replace(
        runs=[r._replace(seconds=1.5, interpreter=["<venv of Python %s>/bin/python" % r.python])
              for r in result.runs],
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


def test_the_same_findings_as_in_roots_mount_namespace(sample):
    if "root" not in sample:
        pytest.skip("root's mount namespace is not here")
    assert worlds.way("latin1", ["/", DEBIAN_ROOT]).method == "user namespace"
    for key in ("both", "3.13", "3.15"):
        for fmt in ("text", "json"):
            assert formats.render(fixed(sample[key]), fmt) == formats.render(
                fixed(sample["root"][key]), fmt)


@pytest.mark.fast
def test_only_utf8env_is_lent(tmp_path):
    """The target's own pytest runs; utf8env alone goes on PYTHONPATH, for its plugin
    (standard library only, loaded by module name), under a private name: a project's own
    `utf8env` (this one, another version) is never shadowed, and the plugin's entry point
    of an installed utf8env is blocked (it would add the same options twice)."""
    holder = suite.Folder("/", "site")
    try:
        site = suite._lend(holder)
        assert os.listdir(site) == [suite.LENT] and suite.LENT != "utf8env"
        assert os.path.realpath(os.path.join(site, suite.LENT)) == os.path.dirname(
            os.path.dirname(os.path.abspath(suite.__file__)))
    finally:
        holder.remove()
    assert suite.PLUGIN == suite.LENT + ".readiness.plugin"
    assert suite.PROGRESS == suite.LENT + ".readiness._progress"


@pytest.mark.fast
def test_the_lent_package_imports_only_itself(tmp_path):
    """Every module the runs load from the lent package (the plugins, the recorder, the
    unittest runner, the child site) imports relatively or by path, never `utf8env`: under
    the lent name, with a `utf8env` of the project's own first on sys.path, they load."""
    site = tmp_path / "site"
    site.mkdir()
    (site / suite.LENT).symlink_to(os.path.dirname(os.path.dirname(
        os.path.abspath(suite.__file__))))
    own = tmp_path / "own" / "utf8env"
    own.mkdir(parents=True)
    (own / "__init__.py").write_text("raise ImportError('the project\\'s own utf8env')\n",
                                     encoding="utf-8")
    script = ("import sys\n"
              "for name in sys.argv[1:]:\n"
              "    __import__(name)\n"
              "assert 'utf8env' not in sys.modules, sorted(sys.modules)\n")
    names = [suite.PLUGIN, suite.PROGRESS, suite.LENT + ".readiness._recorder",
             suite.LENT + ".readiness._unittest_runner"]
    proc = subprocess.run([sys.executable, "-I", "-c", "import sys; sys.path[:0] = %r; exec(%r)"
                           % ([str(tmp_path / "own"), str(site)], script)] + names,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.returncode == 0, proc.stdout.decode(errors="replace")


@pytest.mark.fast
def test_a_run_blocks_the_entry_point_and_keeps_the_bytecode_caches(tmp_path):
    """A run loads the lent plugins, blocks an installed utf8env's (the same options), sets
    no PYTHONPYCACHEPREFIX (the interpreter's own caches, as a plain run: a prefix of its
    own recompiled the standard library and pytest each time, 1.5 s of a 0.6 s suite)."""
    interp = discovery.Interpreter("3.13", ["/usr/bin/python3.13"], "/")
    folder = suite.Folder("/", "today")
    try:
        stage = suite.Stage(folder, "")
        job = suite._job(interp, suite.env_set("latin1"), "0", stage, ["-q"],
                         {"PYTHONPATH": "/x"}, {"PYTHONPATH": "/x"}, "/lent", 60)
        src_job = suite._job(interp, suite.env_set("latin1"), "0", stage, ["-q"], {}, {},
                             "/lent", 60, src=True)
    finally:
        folder.remove()
    argv = job.argv[job.argv.index("--") + 1:]
    at = argv.index("pytest")
    assert argv[at + 1:at + 7] == ["-p", "no:utf8env.readiness.plugin", "-p", suite.PLUGIN,
                                   "-p", suite.PROGRESS]
    assert "PYTHONPYCACHEPREFIX" not in job.env
    assert job.env["PYTHONPATH"] == "/lent:/x"
    # a src layout imported from the project itself: the copy's src/ first
    assert src_job.env["PYTHONPATH"] == os.path.join(folder.work, "src") + ":/lent"


@pytest.mark.fast
def test_src_first_asks_where_the_package_is_imported_from(tmp_path):
    """The copy's src/ goes first only when the Python imports the project's src-layout
    package from the project itself (an editable install; here PYTHONPATH), not when it
    is found elsewhere or not at all, nor for a project without src/."""
    project = tmp_path / "p"
    (project / "src" / "pkg_of_tmp").mkdir(parents=True)
    (project / "src" / "pkg_of_tmp" / "__init__.py").write_text("", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "pkg_of_tmp").mkdir(parents=True)
    (elsewhere / "pkg_of_tmp" / "__init__.py").write_text("", encoding="utf-8")
    interp = discovery.Interpreter("%d.%d" % sys.version_info[:2], [sys.executable], "/")
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    assert targets.src_first(str(project), interp, env) is False
    assert targets.src_first(str(project), interp, dict(env, PYTHONPATH=str(elsewhere))) is False
    assert targets.src_first(str(project), interp,
                           dict(env, PYTHONPATH=str(project / "src"))) is True
    assert targets.src_first(str(tmp_path / "elsewhere"), interp,
                           dict(env, PYTHONPATH=str(project / "src"))) is False


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
    lines = format_github.github(r).splitlines()
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


@pytest.mark.fast
def test_github_escaping():
    assert pages.github_data("50% a\r\nb:c,d") == "50%25 a%0D%0Ab:c,d"
    assert pages.github_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    assert pages.github_command("warning", "m\n", file="x,y.py", line=3, title="t: u") == \
        "::warning file=x%2Cy.py,line=3,title=t%3A u::m%0A"


def test_junit_xml_parses_back(sample):
    r = sample["3.15"]
    root = ElementTree.fromstring(format_junit.junit(r).encode("utf-8"))
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
               "call_sites", "hidden_sites", "tests", "ready", "timing", "reruns", "unstable",
               "complete", "only_today", "only_utf8_mode", "not_copied", "runner", "filtered",
               "advice", "untested", "unrecorded"}


def test_json_keys(sample):
    data = json.loads(formats.render(sample["both"], "json"))
    assert set(data) == RESULT_KEYS and data["schema"] == 1
    assert set(data["timing"]) == {"wall_seconds", "cell_seconds", "workers", "jobs"}
    for run in data["runs"]:
        assert set(run) == {"python", "interpreter", "mode", "utf8_mode", "exit", "timed_out",
                            "seconds", "counts", "filesystem_encoding", "locale_encoding", "problem",
                            "complete", "output"}
    for c in data["changed"]:
        assert set(c) == {"python", "test", "today", "utf8_mode", "difference", "call_sites"}
        assert set(c["today"]) == set(c["utf8_mode"]) == {"outcome", "message", "output"}
    for s in data["call_sites"]:
        assert set(s) == {"file", "line", "function", "origin", "message", "count", "tests",
                          "pythons", "changed_tests", "fixes"}
        assert [f["encoding"] for f in s["fixes"]] == ["utf-8", "locale"]
        assert all(set(f) == {"encoding", "means", "measured"} for f in s["fixes"])


def _page_block(title):
    with open(os.path.join(os.path.dirname(HERE), "docs", "readiness.md"), encoding="utf-8") as f:
        page = f.read()
    m = re.search(r"<!-- %s -->\n```\n(.*?)```\n" % re.escape(title), page, re.S)
    assert m, title
    return m.group(1)


def _masked(text):
    return re.sub(r"\d+\.\d s|(?<=  )\d+\.\d\b", "N", text)


def test_the_page_shows_the_real_output(sample):
    text = _page_block("readiness text")
    assert text.startswith("$ utf8env readiness -- pytest -q\n")
    assert _masked(text.split("\n", 1)[1]) == _masked(formats.render(sample["3.15"], "text"))
    excerpt = _page_block("readiness github")
    assert excerpt.startswith("$ utf8env readiness --format github -- pytest -q\n")
    lines = formats.render(sample["3.15"], "github").splitlines()
    for line in excerpt.splitlines()[1:]:
        assert line in lines or line == "..."


# -- the command line ------------------------------------------------------------------

def _cli(args, cwd, env=None):
    return subprocess.run(own_command() + ["readiness"] + args, cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)


@pytest.fixture(scope="module")
def cli_runs(tmp_path_factory, venvs):
    """The command on the sample, findings (json) and ready (one file, github), at once."""
    if not worlds.available()[0]:
        pytest.skip(worlds.available()[1])
    py = venvs["3.13"].argv[0]
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
     "c-legacy, latin1, gb18030, no-locales, cp1252, cp1251, gbk, cp932, big5"),
    (["--format", "xml", "--", "pytest"], "--format 'xml': expected one of text, markdown, github, "
     "junit, json"),
    (["--timeout", "0", "--", "pytest"], "--timeout '0': expected a positive number of seconds, at most 2147483"),
    (["--timeout", "nan", "--", "pytest"], "--timeout 'nan': expected a positive number of seconds, at most 2147483"),
    (["--timeout", "1e400", "--", "pytest"], "--timeout '1e400': expected a positive number of seconds, at most 2147483"),
    (["--", "nosetests"], "readiness: COMMAND 'nosetests': expected pytest ARGS... (it runs as "
     "PYTHON -m pytest ARGS... under each --python)"),
    (["--python", "/nonexistent/python", "--", "pytest"], "--python '/nonexistent/python': not an "
     "executable file"),
    (["--bogus"], "unrecognized arguments: --bogus"),
])
@pytest.mark.fast
def test_usage_errors_are_one_line_and_exit_2(argv, message, capsys):
    if argv[:1] == ["--python"] and not worlds.available()[0]:
        pytest.skip(worlds.available()[1])
    assert cli.main(["readiness"] + argv) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "utf8env: error: %s\n" % message)


def test_pytest_usage_error_is_a_usage_error(tmp_path, venvs):
    if not worlds.available()[0]:
        pytest.skip(worlds.available()[1])
    shutil.copytree(SAMPLE, str(tmp_path / "p"))
    proc = _cli(["--python", venvs["3.13"].argv[0], "--", "pytest", "--no-such-option"],
                str(tmp_path / "p"))
    assert proc.returncode == 2 and proc.stdout == b""
    err = proc.stderr.decode()
    assert err.startswith("utf8env: error: readiness: pytest refused its arguments: ") and \
        err.count("\n") == 1 and "--no-such-option" in err


@pytest.mark.fast
def test_help_lists_every_option_with_its_whole_text(capsys):
    assert cli.main(["readiness", "--help"]) == 0
    out = capsys.readouterr().out
    spec = commands.declaration("readiness")
    assert out == options.help_text(spec)
    lines = out[out.index("options:\n"):].splitlines()[1:]
    starts = [i for i, l in enumerate(lines) if l.startswith("  -")]
    assert len(starts) == len(spec.options)
    for option, i, end in zip(spec.options, starts, starts[1:] + [len(lines)]):
        assert lines[i].startswith("  " + ", ".join(option.names))
        text = " ".join(l.strip() for l in lines[i:end])[len(", ".join(option.names)):].strip()
        if option.metavar and text.startswith(option.metavar):
            text = text[len(option.metavar):].strip()
        assert text == option.help


@pytest.mark.fast
def test_help_says_what_the_windows_worlds_are(capsys):
    cli.main(["readiness", "--help"])
    flat = " ".join(capsys.readouterr().out.split())
    assert ("--world NAME the locale world (default latin1): utf8-locale, c-locale, c-legacy, "
            "latin1, gb18030, no-locales; cp1252, cp1251, gbk, cp932, big5 are stand-ins for "
            "Windows' ANSI code page (files, pipes, open()), built from glibc's charmaps; not "
            "Windows' console or file-system encoding") in flat


# -- the target's own pytest, and the default target ----------------------------------------

def test_a_python_without_pytest_is_refused_in_one_line_with_the_fix(tmp_path):
    py312 = interpreter("3.12")
    if py312.root != "/":
        pytest.skip("no pyenv 3.12")
    proc = _cli(["--python", py312.argv[0], "--", "pytest"], str(tmp_path))
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr.decode() == (
        "utf8env: error: readiness: %s has no pytest: install it there (%s -m pip install "
        "pytest) and run again\n" % (py312.argv[0], py312.argv[0]))


def test_a_distributions_python_without_pytest_is_told_to_make_a_venv(tmp_path):
    python = "/usr/bin/python3"
    ask = subprocess.run([python, "-c", "import sysconfig, os, importlib.util; print("
                          "os.path.isfile(os.path.join(sysconfig.get_path('stdlib'), "
                          "'EXTERNALLY-MANAGED')), importlib.util.find_spec('pytest') is None)"],
                         stdout=subprocess.PIPE) if os.path.exists(python) else None
    if ask is None or ask.stdout != b"True True\n":
        pytest.skip("%s is not a distribution's Python without pytest (PEP 668)" % python)
    proc = _cli(["--python", python, "--", "pytest"], str(tmp_path))
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr.decode() == (
        "utf8env: error: readiness: /usr/bin/python3 has no pytest, and its distribution manages "
        "its packages (PEP 668): make a venv with pytest (/usr/bin/python3 -m venv VENV && "
        "VENV/bin/python -m pip install pytest) and give --python VENV/bin/python\n")


@pytest.mark.fast
def test_the_default_python_315_is_looked_for_where_users_install_it(tmp_path, monkeypatch):
    # The places of matrix's discovery (tests/test_discovery_places.py runs them with real
    # interpreters): pyenv, PATH, uv, the distribution's folder, the chroot named.
    home, bin_, pyenv, data = (tmp_path / n for n in ("home", "bin", "pyenv", "data"))
    for folder in (home, bin_, pyenv):
        folder.mkdir()
    monkeypatch.setattr(discovery, "DISTRIBUTION", str(tmp_path / "usr-bin"))
    env = {"PATH": str(bin_), "HOME": str(home), "PYENV_ROOT": str(pyenv)}
    looked = ["pyenv (%s/versions)" % pyenv, "python3.N on PATH",
              "uv (%s/.local/share/uv/python)" % home, "%s/usr-bin/python3.N" % tmp_path]
    assert targets.python_315(env) == (None, looked)
    assert targets.python_315(dict(env, XDG_DATA_HOME=str(data)))[1][2] == (
        "uv (%s/uv/python)" % data)
    assert targets.python_315(dict(env, UV_PYTHON_INSTALL_DIR=str(data / "uv")))[1][2] == (
        "uv (%s/uv)" % data)
    chroot = tmp_path / "debian"
    chroot.mkdir()
    (chroot / ".utf8env-ready").write_text("")
    assert targets.python_315(dict(env, UTF8ENV_DEBIAN_ROOT=str(chroot))) == (
        None, looked + ["the chroot %s" % chroot])


def test_without_a_python_315_readiness_asks_for_python(tmp_path):
    # Not fast: the distribution's /usr/bin/python3.N are asked their versions.
    home, pyenv = tmp_path / "home", tmp_path / "pyenv"
    home.mkdir()
    pyenv.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "PYENV_ROOT": str(pyenv)}
    proc = _cli(["--", "pytest"], str(tmp_path), env=env)
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr.decode() == (
        "utf8env: error: readiness: no Python 3.15 found (looked in pyenv (%s/versions), "
        "python3.N on PATH, uv (%s/.local/share/uv/python), /usr/bin/python3.N); give --python "
        "PATH (3.10+ for EncodingWarning)\n" % (pyenv, home))


def test_the_default_python_315_found_on_path_is_identified(tmp_path, venvs):
    """What PATH gives as python3.15 is asked its version (the one question): a 3.15 is the
    target; anything else is said in one line."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    env = dict(os.environ, PATH=str(bin_) + ":/usr/bin:/bin")
    if os.geteuid() == 0:
        py315 = venvs["3.15"]
        wrapper = bin_ / "python3.15"
        wrapper.write_text("#!/bin/sh\nexec %s \"$@\"\n" % " ".join(py315.argv))
        wrapper.chmod(0o755)
        [found] = targets.default_pythons(env)
        assert (found.version, found.argv, found.root) == ("3.15", [str(wrapper)], "/")
        wrapper.unlink()
    (bin_ / "python3.15").symlink_to(venvs["3.13"].argv[0])
    # With no 3.15 anywhere (a 3.15 found, the chroot's, would be the target).
    env.pop("UTF8ENV_DEBIAN_ROOT", None)
    with pytest.raises(UsageError) as e:
        targets.default_pythons(env)
    assert str(e.value) == ("readiness: %s (python3.15 from PATH) is Python 3.13, not "
                            "3.15; give --python PATH" % (bin_ / "python3.15"))


def test_the_harness_chroot_is_a_target_only_where_named(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "PYENV_ROOT": str(tmp_path)}
    with pytest.raises(UsageError, match="no Python 3.15 found"):
        targets.default_pythons(env)
    py315 = interpreter("3.15")
    assert targets.default_pythons(dict(env, UTF8ENV_DEBIAN_ROOT=DEBIAN_ROOT)) == [py315]
    if os.geteuid() != 0:
        return
    problem = targets.pytest_problem(py315, env)
    assert problem == (
        "readiness: /usr/bin/python3.15 has no pytest, and its distribution manages its packages "
        "(PEP 668): make a venv with pytest (/usr/bin/python3.15 -m venv VENV && VENV/bin/python "
        "-m pip install pytest) and give --python VENV/bin/python")


# -- an ordinary user, after the README's install ---------------------------------------------

def test_an_ordinary_user_gets_the_same_findings_as_root(wheels):
    """nobody makes a venv of Debian's python3, installs pytest and utf8env (a wheel of this
    checkout) into it, and runs `utf8env readiness` on the sample: the world is made
    without root, the findings are the sample's, and root's run of the same command
    finds the same."""
    nobody = Nobody()
    try:
        shutil.copytree(wheels, nobody.path("wheels"))
        install.build_wheel(nobody.path("wheels"))
        shutil.copytree(SAMPLE, nobody.path("project"))
        nobody.own(nobody.path("wheels"))
        nobody.own(nobody.path("project"))
        env = install.pip_environ(nobody.env(PYTHONPATH=""))
        venv = nobody.path("home", "venv")
        for argv in ([Nobody.PYTHON, "-m", "venv", venv],
                     [venv + "/bin/python", "-m", "pip", "install", "--quiet", "--no-index",
                      "--find-links", nobody.path("wheels"), "pytest", "utf8env"]):
            made = nobody.run(argv, env=env)
            assert made.returncode == 0, made.stderr.decode()
        argv = [venv + "/bin/utf8env", "readiness", "--python", venv + "/bin/python",
                "--format", "json", "--", "pytest", "-q"]
        as_nobody = nobody.run(argv, env=env, cwd=nobody.path("project"))
        root_home = nobody.path("root-home")
        os.mkdir(root_home, 0o700)
        as_root = subprocess.run(argv, env=dict(env, HOME=root_home, XDG_CACHE_HOME=root_home + "/c"),
                                 cwd=nobody.path("project"), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, timeout=900)
        seen = []
        for proc in (as_nobody, as_root):
            assert (proc.returncode, proc.stderr) == (1, b"")
            data = json.loads(proc.stdout.decode())
            del data["timing"]
            for run in data["runs"] + data["reruns"] + [
                    r for trial in data["advice"] for r in trial["runs"]]:
                del run["seconds"]
            seen.append(data)
        assert seen[0] == seen[1]
        version = seen[0]["runs"][0]["python"]
        assert {(c["test"], c["today"]["outcome"], c["utf8_mode"]["outcome"],
                 c["utf8_mode"]["message"], tuple(c["call_sites"])) for c in seen[0]["changed"]} == CHANGED
        assert [("%s:%s" % (s["file"], s["line"]), s["function"], s["count"], len(s["tests"]),
                 len(s["changed_tests"])) for s in seen[0]["call_sites"]] == SITES
        assert [(r["python"], r["mode"], r["counts"]) for r in seen[0]["runs"]] == [
            (version, "today", {"passed": 6}), (version, "3.15", {"failed": 3, "passed": 3})]
        cache = os.path.join(nobody.home, ".cache", "utf8env", "locales")
        assert os.stat(cache).st_uid == nobody.uid
    finally:
        nobody.remove()


# What the launcher keeps aside from utf8env's own interpreter (_environment.KEPT_ASIDE) and
# the runs must get back: a suite that depends on them.
KEPT = """import os


def test_the_users_variables_reach_the_run():
    assert (os.environ.get("PYTHONHASHSEED"), os.environ.get("PYTHONMALLOC")) == ("123", "malloc")
"""


@pytest.mark.parametrize("launcher", ["c", "sh"])
def test_the_installed_command_gives_the_runs_what_the_launcher_kept_aside(wheels, tmp_path,
                                                                           launcher):
    """Under the installed command (the compiled launcher, or the sh stub) utf8env's own
    interpreter runs without PYTHONHASHSEED and PYTHONMALLOC (and with LC_ALL=C): the
    suite's runs get the user's back, as with `python -m utf8env readiness`."""
    _need_worlds()
    folder = str(tmp_path / "wheels")
    shutil.copytree(wheels, folder)
    install.build_wheel(folder, launcher)
    venv = str(tmp_path / "venv")
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([venv + "/bin/python", "-m", "pip", "install", "--quiet", "--no-index",
                    "--find-links", folder, "pytest", "utf8env"], check=True,
                   env=install.pip_environ())
    project = tmp_path / "p"
    (project / "tests").mkdir(parents=True)
    (project / "tests" / "test_kept.py").write_text(KEPT, encoding="utf-8")
    (project / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    proc = subprocess.run([venv + "/bin/utf8env", "readiness", "--python", venv + "/bin/python",
                           "--format", "json", "--", "pytest", "-q", "-p", "no:randomly"],
                          cwd=str(project), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=dict(os.environ, PYTHONHASHSEED="123", PYTHONMALLOC="malloc"),
                          timeout=600)
    assert (proc.returncode, proc.stderr) == (0, b"")
    data = json.loads(proc.stdout.decode("utf-8"))
    assert [(r["mode"], r["counts"]) for r in data["runs"]] == [
        ("today", {"passed": 1}), ("3.15", {"passed": 1})]


@pytest.mark.fast
def test_readiness_is_in_the_main_help(capsys):
    cli.main(["--help"])
    assert "\n  readiness " in capsys.readouterr().out


# -- the plugin -----------------------------------------------------------------------

def _pytest(args, cwd, env_extra=None, python=sys.executable):
    env = dict(os.environ, LANG="C.UTF-8", **(env_extra or {}))
    env.pop("PYTHONWARNDEFAULTENCODING", None)
    # The sample's tests in their own order (pytest-randomly, installed for this suite,
    # would shuffle them and print its seed): their outputs are compared whole.
    env["PYTEST_ADDOPTS"] = "-p no:randomly"
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
    # loaded: pytest names it among the plugins (first, or after another's ", ")
    assert re.search(rb"(?m)^plugins: (?:.*, )?utf8env-", loaded.stdout)
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


@pytest.mark.fast
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


@pytest.mark.fast
def test_summary_before_310_and_without_the_flag():
    record = {"python": "3.9.18", "warn_default_encoding": None, "sites": []}
    assert summary_lines(record)[1].startswith("Python 3.9.18 has no EncodingWarning (PEP 597")
    record["warn_default_encoding"] = False
    assert "PYTHONWARNDEFAULTENCODING=1" in summary_lines(record)[1]


@pytest.mark.fast
def test_junit_key_is_pytests():
    assert junit.key("checks/check_a.py::TestX::test_y[a/b::c]") == ("checks.check_a.TestX",
                                                                    "test_y[a/b::c]")


def test_a_world_that_cannot_be_made_is_one_line_and_exit_2(venvs, tmp_path, monkeypatch, capsys):
    from utf8env._worlds import access
    proc = tmp_path / "proc"
    (proc / "sys" / "user").mkdir(parents=True)
    (proc / "sys" / "user" / "max_user_namespaces").write_text("0\n")
    real = access.way
    monkeypatch.setattr(access, "way", lambda name, roots=("/",), via=None, _=None:
                        real(name, roots, via, str(proc)))
    monkeypatch.chdir(SAMPLE)
    py = venvs["3.13"].argv[0]
    monkeypatch.setattr(access.os, "geteuid", lambda: 1000)
    assert cli.main(["readiness", "--python", py, "--world", "no-locales", "--", "pytest"]) == 2
    out = capsys.readouterr()
    assert (out.out, out.err) == ("", (
        "utf8env: error: readiness: world 'no-locales' cannot be made here: hiding the installed "
        "locales takes a mount namespace, and user namespaces are off (user.max_user_namespaces "
        "= 0) and this is not root; sysctl -w user.max_user_namespaces=10000 or running as root "
        "would make it possible\n"))
