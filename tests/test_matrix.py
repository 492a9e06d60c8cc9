"""utf8env matrix: the PEP 540/538 use cases on the real interpreters in real locale
worlds, against the PEPs' published tables; the user-program mode on small programs that
each fail in one known way; the reports (the HTML one in a real headless Chromium); and
the parts that need no world: the records, the judging of a cell, the option parser.

One PEP run is shared by every test of this module (a module fixture: its cost shows as
the setup of the first test that uses it)."""
import glob
import html.parser
import json
import os
import re
import shutil
import subprocess
import tempfile

import pytest

from utf8env._engine.records import as_json
from utf8env._errors import UsageError, Utf8envError
from utf8env import _worlds as worlds
from utf8env import _discovery as discovery
from utf8env._worlds import env_sets as environments
from utf8env.matrix import (_cli as cli,
                            _pep as pep, _pep_view as pep_view, _program as program,
                            _program_view as program_view, _report as report,
                            _results as results, _scenarios as scenarios)
from utf8env._worlds import cells as _cells
from utf8env._worlds.cells import LAUNCHER, python_command
from utf8env._own_command import own_command
from utf8env import _cli as utf8env_cli, _commands as commands, _options as options

from test_worlds import module_home  # noqa: F401 (module_home: autouse)
from support import machine
from support.terminal import stderr_on_terminal


def matrix(argv):
    """`utf8env matrix ARGV` as utf8env._cli.main runs it, but raising its UsageError."""
    parsed, operands = options.parse(commands.declaration("matrix"), argv)
    return cli.run(parsed, operands)


def _need_worlds():
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)


@pytest.fixture(autouse=True)
def own_home(tmp_path, monkeypatch):
    """Each test its own HOME and cache folder: nothing reaches the real ~/.cache."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


# The folders the module's PEP run made for its cells: checked by path, so that a folder
# another run left in a chroot's /tmp (a matrix killed by SIGKILL) is not this run's.
PEP_CELL_FOLDERS = []


@pytest.fixture(scope="module")
def result():
    _need_worlds()
    if not machine.interpreters():
        pytest.skip(machine.missing(discovery.VERSIONS))
    made = _cells.Cell.__init__

    def recorded(cell, root):
        made(cell, root)
        PEP_CELL_FOLDERS.append(cell.dir)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_cells.Cell, "__init__", recorded)
        return pep.run_pep()


@pytest.fixture(scope="module")
def root_result():
    """The same reproduction with every world in root's own mount namespace (as before
    worlds were made without root): the reference the least privileged worlds must equal."""
    ok, why = worlds.available(via=worlds.MOUNT)
    if not ok:
        pytest.skip(why)
    return pep.run_pep(via=worlds.MOUNT)


def version(v):
    """pyenv's CPython `v` (on this host, not in a chroot), or machine's skip."""
    machine.python(v)
    return machine.interpreter(v)


def cell(result, scenario, environment):
    for t in result.tables:
        if t.scenario == scenario:
            for r in t.rows:
                for c in r.cells:
                    if c.environment == environment:
                        return c
    raise AssertionError("no cell %s / %s" % (scenario, environment))


def entry(result, scenario, row):
    t = next(t for t in result.tables if t.scenario == scenario)
    return next(r for r in t.rows if r.row == row)


# -- the worlds made without root are root's worlds -------------------------------

_CELL_FOLDER = re.compile(r"utf8env-matrix-[^/]+/")


def _cells_seen(r):
    """Every cell's verdict and evidence, and every environment's check: all but times and
    the names of the cells' temporary folders."""
    cells = {(c.scenario, c.environment): c._replace(stages=[
        st._replace(seconds=None, stderr=_CELL_FOLDER.sub("CELL/", st.stderr))
        for st in c.stages]) for t in r.tables for row in t.rows for c in row.cells}
    checks = {e.environment.name: (e.observed, e.problem) for e in r.environments}
    rows = [(t.scenario, row._replace(cells=None)) for t in r.tables for row in t.rows]
    return cells, checks, rows


def test_the_least_privileged_worlds_give_roots_results_cell_for_cell(result, root_result):
    ours, roots = _cells_seen(result), _cells_seen(root_result)
    assert len(ours[0]) == len(roots[0]) > 0
    assert ours == roots


def test_every_world_of_the_reproduction_was_made(result):
    version("3.12")     # among those of the row "no locale installed" (the no-locales world)
    assert [e.environment.name for e in result.environments if e.problem] == []
    assert {e.environment.world for e in result.environments} == {
        "installed", "latin1", "gb18030", "no-locales"}


# -- the unambiguous cells of the issue ------------------------------------------

def test_36_in_the_c_locale_raises_on_the_euro_sign(result):
    version("3.6")
    c = cell(result, "euro", "3.6 LANG=C")
    assert c.exception and c.traceback.startswith("UnicodeEncodeError: 'ascii' codec")
    assert c.produced == "b''" and c.expected == repr("euro: \u20ac\n".encode())


def test_36_utf8_mode_through_the_launcher_does_not_raise(result):
    version("3.6")
    c = cell(result, "euro", "utf8env run --utf8 1 -- 3.6 LANG=C")
    assert not c.exception and not c.mojibake and not c.error
    assert c.produced == repr("euro: \u20ac\n".encode())


def test_python27_lists_the_undecodable_name_without_an_exception(result):
    machine.python("2.7")
    c = cell(result, "ls-stdout", "2.7 LANG=C.UTF-8")
    assert not c.exception and c.produced == repr(b"xxx\xff\n")
    assert c.mojibake          # a UTF-8 terminal cannot show b'\xff'


def test_pep538_example_fails_on_36_as_in_the_seed_and_nowhere_in_37_plus(result):
    version("3.6")
    c = cell(result, "pep538", "3.6 LANG=C")
    assert "Unable to decode the command from the command line" in c.stages[0].stderr
    shipped = entry(result, "pep538", "3.7+ C locale, as shipped")
    assert shipped.exception is False and shipped.mojibake is False


def test_utf8_mode_leaves_the_listing_but_open_is_strict_as_shipped(result):
    # PEP 540's draft: UTF-8 mode writes b'xxx\xff' into a text file; as shipped open()
    # is strict, so every 3.7+ raises: a difference from the PEP's table, kept.
    for v in ("3.7", "3.13"):
        version(v)
        c = cell(result, "ls-file", "%s LANG=C -X utf8" % v)
        assert c.exception and "surrogates not allowed" in c.traceback
        assert not cell(result, "ls-stdout", "%s LANG=C -X utf8" % v).exception


def test_legacy_rows_really_are_legacy(result):
    for e in result.environments:
        assert e.problem is None, (e.environment.name, e.problem)
        if e.environment.row in ("3.7+ C locale, coercion and UTF-8 mode off", "Python 3.5, POSIX locale"):
            assert e.observed["utf8_mode"] == 0 and e.observed["stdout"] == "ascii", e


# Every cell that differs from the PEPs' tables, with why (see the README).
KNOWN_DIFFERENCES = {
    # open() is strict in the shipped UTF-8 mode (the draft had surrogateescape).
    ("ls-file", "UTF-8 mode", "exception"),
    # The launcher's strict mode cannot change 3.6's filesystem encoding: in a Latin-1
    # locale the name decodes to 'xxx\xff' and is written back as UTF-8.
    ("ls-stdout", "UTF-8 Strict mode", "mojibake"),
    ("ls-file", "UTF-8 Strict mode", "mojibake"),
    # "Python 3" in a Latin-1 or GB18030 locale: the UTF-8 command line becomes mojibake.
    ("pep538", "Python 3", "mojibake"),
}


def test_agreement_with_the_pep_tables(result):
    # Every row of the PEPs' tables is run: 2.7's, 3.6's and the 3.7+ ones (3.12 among them).
    machine.python("2.7")
    version("3.6")
    version("3.12")
    found = {(s, row, col) for s, row, col, _, _, _ in pep_view.differences(result)}
    assert found == KNOWN_DIFFERENCES
    agree, differ = pep.agreement_counts(result)
    assert differ == len(KNOWN_DIFFERENCES) and agree >= 60
    for row in scenarios.PEP_ROWS:        # every row of the PEP was really run
        assert row in result.rows


def test_cells_leave_no_directory_behind(result, session_tmp):
    roots = {os.path.realpath(e.environment.root) for e in result.environments}
    # Every root's /tmp had cells (the host's TMPDIR, each chroot's /tmp), and none is left.
    assert {os.path.realpath(os.path.dirname(d)) for d in PEP_CELL_FOLDERS} == {
        os.path.realpath(os.path.join(r, "tmp") if r != "/" else session_tmp)
        for r in roots}
    assert [d for d in PEP_CELL_FOLDERS if os.path.lexists(d)] == []


def test_every_cell_is_one_job(result):
    t = result.timing
    assert t.jobs == len(result.environments) * (len(scenarios.SCENARIOS) + 1)
    assert t.workers == (os.cpu_count() or 1)


# -- reports ----------------------------------------------------------------------

def test_text_report_has_the_pep_layout_and_the_agreement_table(result):
    version("3.6")          # its rows, and the differences of 3.6 and 3.7+ (3.12 among them)
    version("3.12")
    text = report.render(result, "text")
    assert "Python 3.5, POSIX locale" in text and "Exception?" in text and "(PEP Yes)" in text
    assert "Agreement with the PEPs' tables" in text
    assert "%d differ" % len(KNOWN_DIFFERENCES) in text
    assert max(len(line) for line in text.splitlines()) <= 100
    wide = report.render(result, "text", columns=200)
    assert max(len(line) for line in wide.splitlines()) > 100       # the differences, unwrapped


def _row_315(text, row):
    """The "3.15" column of `row` in the first table of the text report."""
    lines = text.splitlines()
    at = lines[1].index("3.15")
    return next(line[at:] for line in lines[3:] if line.startswith(row + " "))


def test_the_315_column_says_what_pep686_changes_and_keeps_c_legacy_apart(result):
    version("3.6")
    version("3.12")
    machine.interpreter("3.15")
    text = report.render(result, "text")
    assert text.splitlines()[1].split() == ["Python", "Exception?", "Mojibake?", "3.15"]
    assert _row_315(text, "Python 3") == "on; was off"
    assert _row_315(text, "3.7+ C locale, coercion and UTF-8 mode off") == "off (-X utf8=0)"
    assert _row_315(text, "3.7+ C locale, as shipped") == "on"
    assert _row_315(text, "3.15 default (PEP 686)") == "on"
    assert _row_315(text, "UTF-8 Strict mode") == "on (utf8env)"
    legacy = pep_view.Pep686(result, "3.7+ C locale, coercion and UTF-8 mode off")
    assert {mode for _, mode, _, _, _ in legacy.envs} == {0}


ENVIRONMENT_KEYS = {"row", "name", "version", "argv", "root", "world", "variables", "options",
                    "launcher", "encoding", "expect", "observed", "problem", "origin",
                    "python_3_15"}
CELL_KEYS = {"scenario", "row", "environment", "exception", "mojibake", "error", "traceback",
             "stage", "encoding", "produced", "expected", "shown", "stages"}
TIMING_KEYS = {"wall_seconds", "cell_seconds", "workers", "jobs"}


def test_json_report_keys(result):
    data = json.loads(report.render(result, "json"))
    assert set(data) == {"schema", "mode", "environments", "rows", "tables", "timing",
                         "pythons_left_out"}
    assert data["schema"] == 1 and data["mode"] == "pep"
    assert set(data["timing"]) == TIMING_KEYS
    for e in data["environments"]:
        assert set(e) == ENVIRONMENT_KEYS
        assert set(e["python_3_15"]) == {"utf8_mode", "source", "detail"}
        if e["observed"] is not None:
            assert set(e["observed"]) == {"utf8_mode", "stdout", "stdout_errors", "filesystem",
                                          "preferred", "lc_ctype"}
    assert {t["scenario"] for t in data["tables"]} == set(scenarios.BY_NAME)
    for t in data["tables"]:
        assert set(t) == {"scenario", "title", "source", "mojibake_definition", "rows"}
        python_consumer = scenarios.BY_NAME[t["scenario"]].consumer == "python"
        for r in t["rows"]:
            assert set(r) == {"row", "exception", "mojibake", "exception_in", "mojibake_in",
                              "errors", "pep", "cells", "agreement"}
            assert r["pep"] is None or set(r["pep"]) == {"exception", "mojibake"}
            assert set(r["agreement"]) == {"exception", "mojibake"}
            for a in r["agreement"].values():
                assert a is None or set(a) == ({"agree"} if a["agree"] else {"agree", "why"})
            for c in r["cells"]:
                assert set(c) == (CELL_KEYS | {"read"} if python_consumer else CELL_KEYS)
                for s in c["stages"]:
                    assert set(s) == {"returncode", "stdout", "stderr", "seconds"}


def test_json_is_the_records_as_dicts(result):
    assert json.loads(report.render(result, "json")) == json.loads(json.dumps(as_json(result)))


def test_markdown_report(result):
    md = report.render(result, "markdown")
    assert "| Python | Exception? | Mojibake? |" in md and "## Agreement" in md


class _Counter(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = {}

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1


def _html_cells(result):
    """Exception?, Mojibake? and 3.15 in each row of each scenario's grid."""
    return sum(3 for t in result.tables for _ in t.rows)


class _Dom(html.parser.HTMLParser):
    """What the checks of a page need: its grids' cells, its legend, its summary, and
    every attribute or style that could load something from elsewhere."""

    def __init__(self):
        super().__init__()
        self.grids, self.legend, self.summary, self.external = [], [], "", []
        self._in, self._cell = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and "grid" in (attrs.get("class") or "").split():
            self.grids.append({"cells": 0, "warnings": 0, "green_warned": 0})
        if tag == "td" and self.grids and ("data-scenario-col" in attrs or "data-env-set" in attrs):
            self.grids[-1]["cells"] += 1
            self._cell = (attrs.get("class") or "").split()
        if tag == "span" and "warns" in (attrs.get("class") or "").split():
            self.grids[-1]["warnings"] += 1
            self.grids[-1]["green_warned"] += "ok" in self._cell
        if tag == "dt":
            self._in.append("dt")
        if tag == "p" and attrs.get("id") == "summary":
            self._in.append("summary")
        for name, value in attrs.items():
            if name in ("src", "href", "srcset", "action", "data", "poster") or (
                    value and ("://" in value or "url(" in value)):
                self.external.append((tag, name, value))
        if tag in ("script", "link", "iframe", "object", "embed", "img"):
            self.external.append((tag, None, None))

    def handle_endtag(self, tag):
        if self._in and tag in ("dt", "p"):
            self._in.pop()

    def handle_data(self, data):
        if self._in and self._in[-1] == "dt":
            self.legend.append(data)
        elif self._in and self._in[-1] == "summary":
            self.summary += data


def _no_external_resources(page, dom):
    assert dom.external == []
    style = page[page.index("<style>"):page.index("</style>")]
    assert "url(" not in style and "@import" not in style and "@font-face" not in style
    assert "http://" not in page and "https://" not in page


def browse(page, tmp_path, name="matrix"):
    """(the DOM headless Chromium built from `page`, the path of its screenshot)."""
    browser = _chromium()
    path = tmp_path / (name + ".html")
    path.write_text(page, encoding="utf-8")
    env = dict(os.environ, HOME=str(tmp_path / "home"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--disable-background-networking", "--disable-component-update",
             "--no-first-run", "--disable-sync", "--user-data-dir=" + str(tmp_path / "profile")]
    dom = subprocess.run(flags + ["--dump-dom", path.as_uri()], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env, timeout=120).stdout.decode("utf-8")
    shot = tmp_path / (name + ".png")
    subprocess.run(flags + ["--screenshot=" + str(shot), "--window-size=1280,2000", path.as_uri()],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=120)
    assert shot.stat().st_size > 10000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return dom, shot


def test_html_report_is_one_page_with_details_per_cell(result):
    page = report.render(result, "html")
    p = _Counter()
    p.feed(page)
    assert p.tags["details"] == _html_cells(result)
    assert "<script" not in page and "http" not in page.replace("http-equiv", "")


def _chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("chromium not installed (apt-get install chromium)")


def test_html_report_in_headless_chromium(result, tmp_path):
    page = report.render(result, "html")
    dom, shot = browse(page, tmp_path)
    p = _Counter()
    p.feed(dom)
    assert p.tags.get("details") == _html_cells(result)     # the browser built every cell
    assert "Agreement with the PEPs" in dom and "\u2119\u01b4\u2602\u210c\u00f8\u1f24" in dom
    d = _Dom()
    d.feed(dom)
    assert [g["cells"] for g in d.grids] == [3 * len(t.rows) for t in result.tables]
    assert d.legend == list(result.rows)                     # the rows' environment sets
    agree, differ = pep.agreement_counts(result)
    assert d.summary == ("%d scenarios \u00d7 %d rows: %d cells agree with the PEPs' tables, %d "
                         "differ; %d environments (0 left out), %d jobs, %.1f s." % (
                             len(result.tables), len(result.rows), agree, differ,
                             len(result.environments), result.timing.jobs,
                             result.timing.wall_seconds))
    _no_external_resources(page, d)


# -- the user's own program ---------------------------------------------------------

PROGRAMS = {
    "open_without_encoding.py": 'f = open("out.txt", "w")\nf.write("caf\\u00e9\\n")\nf.close()\n',
    "print_surrogate.py": 'import os\nfor name in os.listdir("."):\n    print(name)\n',
    "decode_stdin.py": 'import sys\ndata = sys.stdin.read()\nprint(len(data))\n',
}
SETS = ("c-legacy", "utf8-locale", "utf8-mode")


@pytest.fixture(scope="module")
def program_run(tmp_path_factory):
    """program_run(name, **kw): the matrix of PROGRAMS[name] on 3.6 and 3.12, run once."""
    runs = {}

    def run(name, **kw):
        if name not in runs:
            _need_worlds()
            path = tmp_path_factory.mktemp("programs") / name
            path.write_text(PROGRAMS[name])
            runs[name] = program.run_program([str(path)], [version("3.6"), version("3.12")], SETS, **kw)
        return runs[name]
    return run


def failing(result):
    return {(c.python, c.env_set) for c in result.cells if c.status != "ok"}


def test_open_without_encoding_fails_only_in_the_legacy_c_locale(program_run):
    r = program_run("open_without_encoding.py")
    assert failing(r) == {("3.6", "c-legacy"), ("3.12", "c-legacy")}
    c = next(c for c in r.cells if c.python == "3.12" and c.env_set == "c-legacy")
    assert c.unicode_error.startswith("UnicodeEncodeError: 'ascii'")
    assert c.where.endswith("open_without_encoding.py:2")
    assert [(os.path.basename(w.file), w.line) for w in c.encoding_warnings] == [
        ("open_without_encoding.py", 1)]
    assert "status UnicodeError -> ok" in c.utf8_mode_changes


def test_program_json_keys(program_run):
    data = json.loads(report.render(program_run("open_without_encoding.py"), "json"))
    assert set(data) == {"schema", "mode", "command", "env_sets", "pythons", "hostile_files",
                         "stdin", "cells", "problems", "timing", "not_run", "pythons_left_out",
                         "python_3_15"}
    assert data["not_run"] == []
    assert {name: on["utf8_mode"] for name, on in data["python_3_15"].items()} == {
        name: 0 if name == "c-legacy" else 1 for name in SETS}
    assert data["schema"] == 1 and data["mode"] == "program"
    assert set(data["timing"]) == TIMING_KEYS
    assert [e["name"] for e in data["env_sets"]] == list(SETS)
    for e in data["env_sets"]:
        assert set(e) == {"name", "world", "variables", "utf8", "description"}
        assert isinstance(e["variables"], dict)
    for p in data["pythons"]:
        assert set(p) == {"version", "argv", "origin"}
    for c in data["cells"]:
        assert set(c) == {"python", "interpreter", "env_set", "status", "exit", "unicode_error",
                          "where", "encoding_warnings", "utf8_mode_changes", "stdout", "stderr",
                          "files", "seconds"}
        for w in c["encoding_warnings"] or ():
            assert set(w) == {"file", "line", "message"}


def test_program_text_is_a_grid_with_a_legend_that_fits_100_columns(program_run):
    r = program_run("open_without_encoding.py")
    text = report.render(r, "text")
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert lines[2:6] == [
        "python  c-legacy               utf8-locale  utf8-mode",
        "======  =====================  ===========  =========",
        "3.6     UnicodeEncodeError     ok           ok",
        "3.12    UnicodeEncodeError w1  ok w1        ok w1"]
    for es in environments.ENV_SETS:
        if es.name in SETS:
            assert "  %s: %s" % (es.name, es.description) in lines
    assert "  c-legacy (3.6, 3.12): off (-X utf8=0)" in lines      # PEP 686 keeps it off
    assert "  utf8-mode (3.6, 3.12): on already" in lines
    flat = " ".join(line.strip() for line in lines)
    assert ("open_without_encoding.py:2 \u2014 2 cells: UnicodeEncodeError: 'ascii' codec can't "
            "encode character '\\xe9' in position 3: ordinal not in range(128) c-legacy "
            "(3.6, 3.12) ") in flat                        # grouped by call site, once
    assert lines[-1] == "6 cells, 2 with a problem"


def _program_cell(status, stderr, exit=1):
    return results.ProgramCell(python="3.12", interpreter=[], env_set="c-locale", status=status,
                               exit=exit, unicode_error=None, where=None, encoding_warnings=[],
                               utf8_mode_changes=None, stdout="b''", stderr=stderr, files={},
                               seconds=0.1)


@pytest.mark.fast
def test_every_failure_says_its_exception_line():
    click = ("Traceback (most recent call last):\n  File \"/x/cli.py\", line 9, in <module>\n"
             "    main()\nRuntimeError: Click will abort further execution because Python was "
             "configured to use ASCII as encoding for the environment.\n")
    assert program_view.failure_line(_program_cell("exit 1", click)).startswith(
        "RuntimeError: Click will abort further execution")
    assert program_view.failure_line(_program_cell("exit 1", "bad config: x.ini\n")) == "bad config: x.ini"
    assert program_view.failure_line(_program_cell("exit 3", "")) == "exit 1"
    assert program_view.failure_line(_program_cell("ok", "noise\n", 0)) is None


@pytest.mark.fast
def test_pep_differences_in_plain_words():
    assert pep_view.plain("3.6 X: produced b'a', a iso8859-1 reader expects None") == (
        "3.6 X: produced b'a': the intended text has no iso8859-1 form, so a iso8859-1 reader "
        "shows mojibake whatever is written")
    assert pep_view.plain("produced b'a', a utf-8 reader expects b'b'") == (
        "produced b'a', a utf-8 reader expects b'b'")


def test_print_of_a_surrogate_fails_only_in_the_utf8_locale(program_run):
    r = program_run("print_surrogate.py", hostile=True)
    assert failing(r) == {("3.6", "utf8-locale"), ("3.12", "utf8-locale")}
    c = next(c for c in r.cells if c.python == "3.6" and c.env_set == "utf8-locale")
    assert "surrogates not allowed" in c.unicode_error
    assert c.where.endswith("print_surrogate.py:3")


def test_decode_of_stdin_fails_only_in_the_utf8_locale(program_run):
    r = program_run("decode_stdin.py", stdin=b"caf\xe9 \xff\n")
    assert failing(r) == {("3.6", "utf8-locale"), ("3.12", "utf8-locale")}
    c = next(c for c in r.cells if c.python == "3.12" and c.env_set == "utf8-locale")
    assert c.unicode_error.startswith("UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9")


def test_a_program_that_removes_its_working_folder_is_a_cell_like_any_other(tmp_path):
    _need_worlds()
    script = tmp_path / "rm.py"
    script.write_text("import os, shutil\nshutil.rmtree(os.getcwd())\nprint('gone')\n")
    r = program.run_program([str(script)], [version("3.12")], ("utf8-locale",))
    [c] = r.cells
    assert (c.status, c.exit, r.problems) == ("ok", 0, 0)


def test_a_timeout_is_told_from_a_kill_and_leaves_nothing(tmp_path):
    # Without UTF-8 mode the program hangs (a timeout); with it, it is SIGKILLed (as by
    # the OOM killer): two outcomes; only the kill has a status (-9).
    _need_worlds()
    script = tmp_path / "hang.py"
    marker = "utf8env-hang-%d" % os.getpid()
    script.write_text("import os, subprocess, sys, time\nsubprocess.Popen(['sleep', '300', %r])\n"
                      "if sys.flags.utf8_mode:\n    os.kill(os.getpid(), 9)\ntime.sleep(300)\n" % marker)
    r = program.run_program([str(script)], [version("3.12")], ("utf8-locale",), timeout=1)
    [c] = r.cells
    assert (c.status, c.exit) == ("timeout", None)
    assert c.utf8_mode_changes == "status timeout -> exit -9"
    assert r.problems == 1
    left = subprocess.run(["pgrep", "-f", marker], stdout=subprocess.PIPE).stdout
    assert left == b""
    assert glob.glob(os.path.join(tempfile.gettempdir(), "utf8env-matrix-*")) == []


def test_the_jobs_are_counted_on_a_terminal(tmp_path):
    """matrix's progress line: on a terminal, once the jobs take more than a second,
    `utf8env matrix: DONE/TOTAL jobs` redrawn as each job ends, the line ended with the
    last. Each of the three jobs (UTF-8 mode as the set has it, off, on) sleeps 2 s: all
    end after the first second. With stderr not a terminal nothing is drawn (the CLI
    tests here assert stderr)."""
    _need_worlds()
    (tmp_path / "slow.py").write_text("import time\ntime.sleep(2)\n", encoding="utf-8")
    code, out, seen = stderr_on_terminal(
        own_command() + ["matrix", "--python", version("3.12").argv[0], "--env-set",
                         "c-locale", "--", "slow.py"], str(tmp_path))
    assert (code, out.splitlines()[-1]) == (0, "1 cell, 0 with a problem")
    assert seen == (b"\rutf8env matrix: 1/3 jobs\rutf8env matrix: 2/3 jobs"
                    b"\rutf8env matrix: 3/3 jobs\r\n")


def test_cli_program_mode_exit_status_and_json(tmp_path, capsys):
    _need_worlds()
    script = tmp_path / "ok.py"
    script.write_text("print('fine')\n")
    code = matrix(["--python", version("3.12").argv[0], "--env-set", "c-locale",
                       "--format", "json", "--", str(script)])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["schema"] == 1 and data["cells"][0]["stdout"] == repr(b"fine\n")


def test_cli_pep_mode_on_a_named_python27(capsys):
    # --python is identified by the one question (utf8env._interpreter.identify), 2.7 too.
    _need_worlds()
    py27 = machine.python("2.7")
    assert matrix(["--python", py27, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rows"] == ["Python 2", "no locale installed"]
    assert {e["version"] for e in data["environments"]} == {"2.7"}
    assert all(e["problem"] is None for e in data["environments"])


@pytest.mark.parametrize("argv, message", [
    (["--format", "xml"], "--format 'xml'"),
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["--python"], "argument --python: expected one argument"),
    (["--timeout", "0", "x.py"], "--timeout '0'"),
    (["--timeout", "nan", "x.py"], r"^--timeout 'nan': expected a positive number of seconds, at most 2147483$"),
    (["--timeout", "inf", "x.py"], r"^--timeout 'inf': expected a positive number of seconds, at most 2147483$"),
    (["--timeout", "1e400", "x.py"], r"^--timeout '1e400': expected a positive number of seconds, at most 2147483$"),
    (["--timeout", "2147484", "x.py"], r"^--timeout '2147484': expected a positive number of seconds, at most 2147483$"),
    (["--python", "PY312", "--env-set", "mars", "/bin/true"], "--env-set 'mars'"),
    (["--python", "PY312", "--stdin", "/nonexistent/file", "/bin/true"], "--stdin"),
    (["--hostile-files"], "applies to a COMMAND"),
    (["--env-set", "c-locale"], "--env-set applies to a COMMAND"),
    (["--python", "/nonexistent/python"], "not an executable"),
    (["--python", "/bin"], "not an executable"),
    (["--python", "/bin/true"], "/bin/true"),
    (["--python", "PY312", "/nonexistent/script.py"], "no such file"),
])
def test_usage_errors(argv, message):
    _need_worlds()
    argv = [version("3.12").argv[0] if a == "PY312" else a for a in argv]
    with pytest.raises(UsageError, match=message):
        matrix(argv)


# -- without a world: options, records, judging --------------------------------------

@pytest.mark.fast
def test_parse_keeps_the_words_as_given():
    spec = commands.declaration("matrix")
    o, command = options.parse(spec, [
        "--python", "a", "--python=b", "--env-set", "c-locale,,latin1", "--env-set=gb18030",
        "--format=json", "--timeout", "5", "--hostile-files", "--stdin", "in", "prog.py", "-x"])
    assert (o.python, o.env_set, o.stdin, o.format, o.timeout, o.hostile_files, o.help) == (
        ["a", "b"], ["c-locale", "latin1", "gb18030"], "in", "json", "5", True, None)
    assert command == ["prog.py", "-x"]
    assert options.parse(spec, ["-h", "--", "--help"])[0].help is True
    assert options.parse(spec, ["-", "x"])[1] == ["-", "x"]
    with pytest.raises(UsageError, match=r"^argument --hostile-files: ignored explicit argument '1'$"):
        options.parse(spec, ["--hostile-files=1"])


@pytest.mark.fast
def test_help_comes_before_the_values_are_checked(capsys):
    assert utf8env_cli.main(["matrix", "--format=xml", "--help"]) == 0
    assert capsys.readouterr().out == options.help_text(commands.declaration("matrix"))


@pytest.mark.fast
def test_launcher_cells_start_this_utf8env_and_keep_a_cache_of_their_own():
    assert LAUNCHER == tuple(own_command()) + ("run",)
    interp = discovery.Interpreter("3.6", ["/usr/bin/python3.6"], "/")
    env = environments.program_environment(interp, environments.ENV_SETS[3], "1")
    assert env.launcher == "1"

    class FakeCell(object):
        work = "/nowhere/work"
    assert python_command(env, FakeCell()) == list(LAUNCHER) + ["--utf8", "1", "--", "/usr/bin/python3.6"]
    environ = pep._environ(env, "/run/cache")
    assert environ == {"PATH": environments.PATH, "LANG": "C.UTF-8", "XDG_CACHE_HOME": "/run/cache"}
    assert "XDG_CACHE_HOME" not in pep._environ(env._replace(launcher=None), "/run/cache")


@pytest.mark.fast
def test_records_are_built_by_keyword_with_defaults():
    s = scenarios.Scenario(name="n", title="t", source="s", producer="python", consumer="terminal",
                           meant="x\n", mojibake="words", classify=scenarios.BY_NAME["euro"].classify,
                           published=((None, None),) * 5)
    assert (s.program, s.command, s.stdin, s.files, s.terminal) == (None, (), b"", (), None)
    for s in scenarios.SCENARIOS:
        assert len(s.published) == len(scenarios.PEP_ROWS) and callable(s.classify)
    with pytest.raises(TypeError):
        scenarios.Scenario(name="n")


def _env(version="3.6", encoding="utf-8"):
    interp = discovery.Interpreter(version, ["/usr/bin/python" + version], "/")
    return environments._env("Python 3", interp, "installed", (("LANG", "C"),), encoding=encoding)


def _run(returncode=0, stdout=b"", stderr=b"", timed_out=False, then=None):
    return worlds.Run(returncode=returncode, stdout=stdout, stderr=stderr, seconds=0.5, then=then,
                      timed_out=timed_out)


@pytest.mark.fast
def test_a_timed_out_cell_is_not_a_killed_one():
    euro = scenarios.BY_NAME["euro"]
    timed_out = pep.judge(euro, _env(), _run(None, timed_out=True), {})
    killed = pep.judge(euro, _env(), _run(-9, stderr=b"Killed\n"), {})
    assert timed_out.error == "timed out"
    assert killed.error == "exit -9: Killed"
    assert not timed_out.exception and not killed.exception


@pytest.mark.fast
def test_each_scenario_judges_with_its_own_classifier():
    euro = scenarios.BY_NAME["euro"]
    wrong = pep.judge(euro, _env(encoding="iso8859-1"), _run(stdout="euro: \u20ac\n".encode()), {})
    assert (wrong.mojibake, wrong.expected, wrong.error) == (True, None, None)
    raised = pep.judge(euro, _env(), _run(1, stderr=b"Traceback...\nUnicodeEncodeError: 'ascii' codec x\n"), {})
    assert raised.exception and raised.stage == "producer" and raised.error is None
    listing = scenarios.BY_NAME["ls-file"]
    c = pep.judge(listing, _env(encoding="iso8859-1"), _run(), {"content.txt": b"xxx\xff\n", "read.txt": None})
    assert not c.mojibake and c.produced == repr(b"xxx\xff\n")
    consumer = scenarios.BY_NAME["py-to-py"]
    piped = _run(stdout="euro: \u20ac\n".encode(), then=_run())
    c = pep.judge(consumer, _env(), piped, {"content.txt": None, "read.txt": b"'euro: \\u20ac\\n'"})
    assert not c.mojibake and c.read == "'euro: \\u20ac\\n'"
    assert "read" in as_json(c) and "read" not in as_json(wrong)


def _nowhere(monkeypatch, tmp_path):
    """A user with no Python in any place: the environment, and the places in words."""
    monkeypatch.setattr(discovery, "DISTRIBUTION", str(tmp_path / "usr-bin"))
    env = {"PATH": str(tmp_path / "bin"), "HOME": str(tmp_path / "home"),
           "PYENV_ROOT": str(tmp_path / "pyenv")}
    return env, ("pyenv ({0}/pyenv/versions), python3.N on PATH, uv ({0}/home/.local/share/uv/"
                 "python), {0}/usr-bin/python3.N".format(tmp_path))


@pytest.mark.fast
def test_discovery_says_what_to_do_without_the_repository(monkeypatch, tmp_path):
    env, places = _nowhere(monkeypatch, tmp_path)
    reasons = dict(discovery.missing("", env))
    chroot = dict(discovery.missing(str(tmp_path / "debian"), env))
    assert reasons == chroot == {v: "not in %s; give --python PATH to run another interpreter"
                                    % places for v in discovery.VERSIONS}


@pytest.mark.fast
def test_a_chroots_interpreter_is_found_for_root_alone(monkeypatch, tmp_path):
    # chroot(8) fails for anyone else: the chroot's 3.14 is then missing, and says why.
    chroot = tmp_path / "debian"
    (chroot / "usr" / "bin").mkdir(parents=True)
    (chroot / ".utf8env-ready").write_text("")
    (chroot / "usr" / "bin" / "python3.14").write_text("")
    (chroot / "usr" / "bin" / "python3.14").chmod(0o755)
    env, places = _nowhere(monkeypatch, tmp_path)
    seen = {}
    for euid in (0, 1000):
        monkeypatch.setattr(discovery.os, "geteuid", lambda: euid)
        seen[euid] = ([(i.version, i.argv[1:], i.root, i.origin)
                       for i in discovery.interpreters(str(chroot), env)],
                      dict(discovery.missing(str(chroot), env)))
    why = "not in %s, the chroot %s%%s; give --python PATH to run another interpreter" % (
        places, chroot)
    others = {v: why % "" for v in discovery.VERSIONS if v != "3.14"}
    assert seen[0] == ([("3.14", [str(chroot), "/usr/bin/python3.14"], str(chroot),
                         "chroot %s" % chroot)], others)
    assert seen[1000] == ([], dict(others, **{
        "3.14": why % " (the chroot has it, but chroot needs root)"}))


@pytest.mark.fast
def test_no_chroot_is_searched_unless_named(monkeypatch):
    monkeypatch.delenv("UTF8ENV_DEBIAN_ROOT", raising=False)
    assert discovery.debian_root() == ""
    assert {i.root for i in discovery.interpreters()} <= {"/"}


@pytest.mark.fast
def test_world_errors_are_utf8env_errors():
    assert issubclass(worlds.WorldError, Utf8envError) and worlds.WorldError.exit_code == 1
