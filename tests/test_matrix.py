"""utf8env matrix: the PEP 540/538 use cases on the real interpreters in real locale
worlds, against the PEPs' published tables; the user-program mode on small programs that
each fail in one known way; the reports (the HTML one in a real headless Chromium).

One PEP run is shared by every test of this module (module-level cache)."""
import glob
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

from utf8env import interpreters, matrix, matrix_cli, matrix_report, scenarios, worlds
from utf8env.errors import UsageError

_CACHE = {}


def _need_worlds():
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)


def pep():
    _need_worlds()
    if "pep" not in _CACHE:
        _CACHE["pep"] = matrix.run_pep()
    return _CACHE["pep"]


def version(v):
    for i in interpreters.interpreters():
        if i.version == v and i.root == "/":
            return i
    pytest.skip("no Python %s in pyenv" % v)


def cell(result, scenario, environment):
    for t in result["tables"]:
        if t["scenario"] == scenario:
            for r in t["rows"]:
                for c in r["cells"]:
                    if c["environment"] == environment:
                        return c
    raise AssertionError("no cell %s / %s" % (scenario, environment))


def entry(result, scenario, row):
    t = next(t for t in result["tables"] if t["scenario"] == scenario)
    return next(r for r in t["rows"] if r["row"] == row)


# -- the unambiguous cells of the issue ------------------------------------------

def test_36_in_the_c_locale_raises_on_the_euro_sign():
    version("3.6")
    c = cell(pep(), "euro", "3.6 LANG=C")
    assert c["exception"] and c["traceback"].startswith("UnicodeEncodeError: 'ascii' codec")
    assert c["produced"] == "b''" and c["expected"] == repr("euro: \u20ac\n".encode())


def test_36_utf8_mode_through_the_launcher_does_not_raise():
    version("3.6")
    c = cell(pep(), "euro", "utf8env run --utf8 1 -- 3.6 LANG=C")
    assert not c["exception"] and not c["mojibake"] and not c["error"]
    assert c["produced"] == repr("euro: \u20ac\n".encode())


def test_python27_lists_the_undecodable_name_without_an_exception():
    if interpreters.python27() is None:
        pytest.skip("no Python 2.7 in pyenv")
    c = cell(pep(), "ls-stdout", "2.7 LANG=C.UTF-8")
    assert not c["exception"] and c["produced"] == repr(b"xxx\xff\n")
    assert c["mojibake"]          # a UTF-8 terminal cannot show b'\xff'


def test_pep538_example_fails_on_36_as_in_the_seed_and_nowhere_in_37_plus():
    version("3.6")
    c = cell(pep(), "pep538", "3.6 LANG=C")
    assert "Unable to decode the command from the command line" in c["stages"][0]["stderr"]
    shipped = entry(pep(), "pep538", "3.7+ C locale, as shipped")
    assert shipped["exception"] is False and shipped["mojibake"] is False


def test_utf8_mode_leaves_the_listing_but_open_is_strict_as_shipped():
    # PEP 540's draft: UTF-8 mode writes b'xxx\xff' into a text file; as shipped open()
    # is strict, so every 3.7+ raises: a difference from the PEP's table, kept.
    for v in ("3.7", "3.13"):
        version(v)
        c = cell(pep(), "ls-file", "%s LANG=C -X utf8" % v)
        assert c["exception"] and "surrogates not allowed" in c["traceback"]
        assert not cell(pep(), "ls-stdout", "%s LANG=C -X utf8" % v)["exception"]


def test_legacy_rows_really_are_legacy():
    for e in pep()["environments"]:
        assert e["problem"] is None, (e["name"], e["problem"])
        if e["row"] in ("3.7+ C locale, coercion and UTF-8 mode off", "Python 3.5, POSIX locale"):
            assert e["observed"]["utf8_mode"] == 0 and e["observed"]["stdout"] == "ascii", e


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


def test_agreement_with_the_pep_tables():
    result = pep()
    found = {(s, row, col) for s, row, col, _, _, _ in matrix_report.differences(result)}
    assert found == KNOWN_DIFFERENCES
    agree, differ = matrix.agreement_counts(result)
    assert differ == len(KNOWN_DIFFERENCES) and agree >= 60
    for row in scenarios.PEP_ROWS:        # every row of the PEP was really run
        assert row in result["rows"]


def test_cells_leave_no_directory_behind():
    pep()
    roots = {e["root"] for e in pep()["environments"]}
    for root in roots:
        base = os.path.join(root, "tmp") if root != "/" else tempfile.gettempdir()
        assert glob.glob(os.path.join(base, "utf8env-matrix-*")) == []


def test_scheduling_uses_the_cores():
    t = pep()["timing"]
    assert t["jobs"] == len(pep()["environments"]) * (len(scenarios.SCENARIOS) + 1)
    assert t["wall_seconds"] < 2.0 * t["cell_seconds"] / t["workers"] + 5


# -- reports ----------------------------------------------------------------------

def test_text_report_has_the_pep_layout_and_the_agreement_table():
    text = matrix_report.render(pep(), "text")
    assert "Python 3.5, POSIX locale" in text and "Exception?" in text and "(PEP Yes)" in text
    assert "Agreement with the PEPs' tables" in text
    assert "%d differ" % len(KNOWN_DIFFERENCES) in text


def test_json_report():
    data = json.loads(matrix_report.render(pep(), "json"))
    assert data["schema"] == 1 and data["mode"] == "pep"
    assert {t["scenario"] for t in data["tables"]} == set(scenarios.BY_NAME)


def test_markdown_report():
    md = matrix_report.render(pep(), "markdown")
    assert "| Python | Exception? | Mojibake? |" in md and "## Agreement" in md


class _Counter(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = {}

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1


def _html_cells(result):
    return sum(2 for t in result["tables"] for _ in t["rows"])


def test_html_report_is_one_page_with_details_per_cell():
    page = matrix_report.render(pep(), "html")
    p = _Counter()
    p.feed(page)
    assert p.tags["details"] == _html_cells(pep())
    assert "<script" not in page and "http" not in page.replace("http-equiv", "")


def _chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("chromium not installed (apt-get install chromium)")


def test_html_report_in_headless_chromium(tmp_path):
    browser = _chromium()
    page = tmp_path / "matrix.html"
    page.write_text(matrix_report.render(pep(), "html"), encoding="utf-8")
    profile = tempfile.mkdtemp(prefix="utf8env-chromium-")
    try:
        flags = [browser, "--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync", "--user-data-dir=" + profile]
        dom = subprocess.run(flags + ["--dump-dom", page.as_uri()], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, timeout=120).stdout.decode("utf-8")
        shot = tmp_path / "shot.png"
        subprocess.run(flags + ["--screenshot=" + str(shot), "--window-size=1200,900", page.as_uri()],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    p = _Counter()
    p.feed(dom)
    assert p.tags.get("details") == _html_cells(pep())     # the browser built every cell
    assert "Agreement with the PEPs" in dom and "\u2119\u01b4\u2602\u210c\u00f8\u1f24" in dom
    assert shot.stat().st_size > 10000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# -- the user's own program ---------------------------------------------------------

PROGRAMS = {
    "open_without_encoding.py": 'f = open("out.txt", "w")\nf.write("caf\\u00e9\\n")\nf.close()\n',
    "print_surrogate.py": 'import os\nfor name in os.listdir("."):\n    print(name)\n',
    "decode_stdin.py": 'import sys\ndata = sys.stdin.read()\nprint(len(data))\n',
}
SETS = ("c-legacy", "utf8-locale", "utf8-mode")


def program_run(name, **kw):
    _need_worlds()
    key = ("program", name)
    if key not in _CACHE:
        folder = tempfile.mkdtemp(prefix="utf8env-test-")
        try:
            path = os.path.join(folder, name)
            with open(path, "w") as f:
                f.write(PROGRAMS[name])
            _CACHE[key] = matrix.run_program([path], [version("3.6"), version("3.12")], SETS, **kw)
        finally:
            shutil.rmtree(folder)
    return _CACHE[key]


def failing(result):
    return {(c["python"], c["env_set"]) for c in result["cells"] if c["status"] != "ok"}


def test_open_without_encoding_fails_only_in_the_legacy_c_locale():
    r = program_run("open_without_encoding.py")
    assert failing(r) == {("3.6", "c-legacy"), ("3.12", "c-legacy")}
    c = next(c for c in r["cells"] if c["python"] == "3.12" and c["env_set"] == "c-legacy")
    assert c["unicode_error"].startswith("UnicodeEncodeError: 'ascii'")
    assert c["where"].endswith("open_without_encoding.py:2")
    assert [(os.path.basename(w["file"]), w["line"]) for w in c["encoding_warnings"]] == [
        ("open_without_encoding.py", 1)]
    assert "status UnicodeError -> ok" in c["utf8_mode_changes"]


def test_print_of_a_surrogate_fails_only_in_the_utf8_locale():
    r = program_run("print_surrogate.py", hostile=True)
    assert failing(r) == {("3.6", "utf8-locale"), ("3.12", "utf8-locale")}
    c = next(c for c in r["cells"] if c["python"] == "3.6" and c["env_set"] == "utf8-locale")
    assert "surrogates not allowed" in c["unicode_error"]
    assert c["where"].endswith("print_surrogate.py:3")


def test_decode_of_stdin_fails_only_in_the_utf8_locale(tmp_path):
    data = tmp_path / "input.bin"
    data.write_bytes(b"caf\xe9 \xff\n")
    r = program_run("decode_stdin.py", stdin=data.read_bytes())
    assert failing(r) == {("3.6", "utf8-locale"), ("3.12", "utf8-locale")}
    c = next(c for c in r["cells"] if c["python"] == "3.12" and c["env_set"] == "utf8-locale")
    assert c["unicode_error"].startswith("UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9")


def test_a_hanging_program_times_out_and_leaves_nothing(tmp_path):
    _need_worlds()
    script = tmp_path / "hang.py"
    marker = "utf8env-hang-%d" % os.getpid()
    script.write_text("import subprocess, time\nsubprocess.Popen(['sleep', '300', %r])\n"
                      "time.sleep(300)\n" % marker)
    subprocess.run(["true"])
    r = matrix.run_program([str(script)], [version("3.12")], ("utf8-locale",), timeout=1)
    assert {c["status"] for c in r["cells"]} == {"timeout"}
    left = subprocess.run(["pgrep", "-f", marker], stdout=subprocess.PIPE).stdout
    assert left == b""
    assert glob.glob(os.path.join(tempfile.gettempdir(), "utf8env-matrix-*")) == []


def test_cli_program_mode_exit_status_and_json(tmp_path, capsys):
    _need_worlds()
    script = tmp_path / "ok.py"
    script.write_text("print('fine')\n")
    code = matrix_cli.matrix(["--python", version("3.12").argv[0], "--env-set", "c-locale",
                              "--format", "json", "--", str(script)])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["schema"] == 1 and data["cells"][0]["stdout"] == repr(b"fine\n")


@pytest.mark.parametrize("argv, message", [
    (["--format", "xml"], "--format 'xml'"),
    (["--bogus"], "unknown option"),
    (["--python"], "needs a value"),
    (["--timeout", "0", "x.py"], "--timeout '0'"),
    (["--python", "PY312", "--env-set", "mars", "/bin/true"], "--env-set 'mars'"),
    (["--python", "PY312", "--stdin", "/nonexistent/file", "/bin/true"], "--stdin"),
    (["--hostile-files"], "applies to a COMMAND"),
    (["--python", "/nonexistent/python"], "not an executable"),
    (["--python", "PY312", "/nonexistent/script.py"], "no such file"),
])
def test_usage_errors(argv, message):
    _need_worlds()
    argv = [version("3.12").argv[0] if a == "PY312" else a for a in argv]
    with pytest.raises(UsageError, match=message):
        matrix_cli.matrix(argv)
