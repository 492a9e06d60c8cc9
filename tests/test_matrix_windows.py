"""utf8env matrix --windows -- script.py: the user's script on real Windows CPython
(python.org's embeddable 3.13.2) under Debian's Wine, in the Windows ANSI code page of
each environment set that stands for one, UTF-8 mode off and on, beside the Linux rows.

Full tier (Wine and the builds in /var/cache/utf8env/windows, which UTF8ENV_WINDOWS_CACHE
names; tests/support/setup_wine.sh): a script writing 'café' with open(path, "w") and
printing it, in cp1252, cp932 and utf8-locale (not applicable on Windows), the whole text
page and the JSON compared; what an invocation leaves (nothing: its prefix copies and
their processes gone); without Wine, the Linux rows alone and one line. Fast tier: the
option, the refusals, the one line without Wine, the page of a result without Windows
cells, Windows paths and CRLF on stderr.

What the script shows (measured): Windows CPython writes CRLF; in code page 1252 'café'
is written and printed in cp1252, and UTF-8 mode changes the bytes (a cp1252 reader sees
mojibake); in 932 it cannot be written (cp932 has no é) and UTF-8 mode makes it pass,
where Linux's 3.12 does not even start in the glibc stand-in (no codec named WINDOWS-31J).
"""
import glob
import json
import os
import re
import subprocess

import pytest

from utf8env._worlds.jobs import Timing
from utf8env import _cli as utf8env_cli, _commands as commands, _options as options
from utf8env import _worlds as worlds
from utf8env._own_command import own_command
from utf8env._windows import wine
from utf8env._worlds import Run
from utf8env.matrix import _report as report, _results as results, _windows as mwindows
from utf8env._worlds.cells import Cell
from utf8env.matrix._program import _program_cell
from utf8env._discovery import Interpreter
from utf8env.matrix._pep686 import of_env_set
from utf8env._worlds.env_sets import ENV_SET_NAMES, ENV_SETS

from support import machine, wine as support_wine
from test_worlds import module_home  # noqa: F401 (module_home: autouse)

SCRIPT = 'with open("notes.txt", "w") as f:\n    f.write("caf\\u00e9\\n")\nprint("caf\\u00e9")\n'
NO_WINE = "matrix --windows needs Wine (wine64 and wineserver): apt-get install wine64"


def _parse(*argv):
    return options.parse(commands.declaration("matrix"), list(argv))


def _main(argv, capsys):
    code = utf8env_cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# -- fast: the option, the refusals, the page ------------------------------------------------

@pytest.mark.fast
def test_windows_takes_an_optional_version():
    parsed, rest = _parse("--windows", "--", "script.py", "-v")
    assert (parsed.windows, rest) == ("3.13", ["script.py", "-v"])
    parsed, rest = _parse("--windows", "3.8", "--env-set", "cp932", "script.py")
    assert (parsed.windows, parsed.env_set, rest) == ("3.8", ["cp932"], ["script.py"])
    assert _parse("--", "script.py")[0].windows is None
    with pytest.raises(options.UsageError) as error:
        _parse("--windows", "3.7", "--", "script.py")
    assert str(error.value) == ("--windows '3.7': expected 3.8, 3.9, 3.10, 3.11, 3.12, 3.13 "
                                "(python.org's embeddable builds on PyPI)")


@pytest.mark.fast
@pytest.mark.parametrize("argv, said", [
    (["--windows", "--env-set", "utf8-locale,c-locale", "--", "x.py"],
     "matrix: --windows runs in the environment sets that stand for a Windows ANSI code page "
     "(cp1252, cp1251, gbk, cp932, big5); --env-set named none of them"),
    (["--windows"], "matrix: --windows applies to a COMMAND (the PEP reproduction's "
                    "environments are Linux's)"),
    (["--windows", "--env-set", "mars", "--", "x.py"],
     "--env-set 'mars': expected one of %s" % ", ".join(ENV_SET_NAMES)),
])
def test_what_windows_cannot_do_is_refused_in_one_line(argv, said, capsys, tmp_path,
                                                       monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = _main(["matrix"] + argv, capsys)
    assert (code, out) == (2, "")
    assert err == "utf8env: error: %s\n" % said


@pytest.mark.fast
def test_without_wine_one_line_names_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setattr(wine, "_WINE", (str(tmp_path / "wine64"), "wine64"))
    rows = mwindows.Windows(None, [932, 1252], environ={"PATH": str(tmp_path),
                                                        "UTF8ENV_WINDOWS_CACHE": str(tmp_path)})
    assert rows.open() is rows
    assert rows.problem == NO_WINE and rows.prefixes == {} and rows.holder is None
    sets = [es for es in ENV_SETS if es.name in ("utf8-locale", "cp932")]
    assert rows.json(sets) == {
        "platform": "win32", "python": "3.13", "cpython": "3.13.2", "row": "3.13 win",
        "wine": None, "world": None, "code_pages": {"cp932": 932},
        "not_applicable": ["utf8-locale"], "not_run": NO_WINE, "left_out": {},
        "no_linux_rows": None}
    rows.close()


@pytest.mark.fast
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_no_linux_interpreter_found_is_one_line_beside_the_windows_row(
        monkeypatch, tmp_path, capsys, fmt):
    """Discovery finds nothing (an empty PATH, PYENV_ROOT, uv folder and distribution
    folder, no chroot): the Windows row runs alone, and one line says the Linux rows are
    missing, where they were looked for and how to give one. Wine is absent here too."""
    from utf8env import _discovery as discovery
    empty = tmp_path / "empty"
    empty.mkdir()
    for name, value in (("PATH", str(empty)), ("PYENV_ROOT", str(empty)), ("HOME", str(empty)),
                        ("XDG_DATA_HOME", str(empty)), ("UTF8ENV_WINDOWS_CACHE", str(empty))):
        monkeypatch.setenv(name, value)
    for name in ("UTF8ENV_DEBIAN_ROOT", "UV_PYTHON_INSTALL_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(discovery, "DISTRIBUTION", str(empty))
    monkeypatch.setattr(wine, "_WINE", (str(tmp_path / "wine64"), "wine64"))
    discovery._scan.cache_clear()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.py").write_text("print(1)\n")
    try:
        code, out, err = _main(["matrix", "--windows", "--format", fmt, "--", "x.py"], capsys)
    finally:
        discovery._scan.cache_clear()
    line = ("no Linux rows: no Linux interpreter found (looked in pyenv (%s/versions), python3.N "
            "on PATH, uv (%s/uv/python), %s/python3.N); give --python PATH for "
            "them" % (empty, empty, empty))
    assert (code, err) == (1, "")
    if fmt == "json":
        data = json.loads(out)
        assert (data["cells"], data["windows"]["not_run"], data["windows"]["no_linux_rows"]) == (
            [], NO_WINE, line)
    else:
        section = out[out.index("Windows (matrix --windows):\n"):].split("\n\n")[0]
        lines = section.splitlines()
        assert lines[:2] == ["Windows (matrix --windows):", "  3.13 win not run: " + NO_WINE]
        # The line, wrapped as every line of the page (its folders' length varies).
        assert lines[2].startswith("  no Linux rows: ")
        assert " ".join(w.strip() for w in lines[2:]) == line


def _linux_cell(env_set="cp1252"):
    return results.ProgramCell(python="3.12", interpreter=["python3.12"], env_set=env_set,
                               status="ok", exit=0, unicode_error=None, where=None,
                               encoding_warnings=[], utf8_mode_changes=None, stdout="b''",
                               stderr="", files={}, seconds=0.1)


@pytest.mark.fast
def test_a_windows_row_left_out_is_one_line_and_the_json_says_why():
    sets = [es for es in ENV_SETS if es.name == "cp1252"]
    result = results.ProgramResult(
        schema=1, mode="program", command=["/p/x.py"], env_sets=sets,
        python_3_15={es.name: of_env_set(es) for es in sets},
        pythons=[{"version": "3.12", "argv": ["python3.12"]}], hostile_files=False,
        stdin="b''", cells=[_linux_cell()], problems=0,
        timing=Timing(wall_seconds=1.0, cell_seconds=1.0, workers=2, jobs=3),
        windows={"platform": "win32", "python": "3.13", "cpython": "3.13.2", "row": "3.13 win",
                 "wine": None, "world": None, "code_pages": {"cp1252": 1252},
                 "not_applicable": [], "not_run": NO_WINE, "left_out": {}})
    text = report.render(result, "text", columns=100)
    assert text.splitlines()[2:5] == ["python  cp1252", "======  ======", "3.12    ok"]
    assert "Windows (matrix --windows):\n  3.13 win not run: %s\n" % NO_WINE in text
    data = json.loads(report.render(result, "json"))
    assert data["windows"]["not_run"] == NO_WINE and "platform" not in data["cells"][0]
    # Without --windows, the page and the JSON are what they were.
    plain = result._replace(windows=results.ABSENT)
    assert "windows" not in json.loads(report.render(plain, "json"))
    assert "matrix --windows" not in report.render(plain, "text") + report.render(plain, "markdown")


NO_BIG5 = ("code page 950 needs the locale zh_TW.UTF-8, compiled from glibc's sources "
           "(/usr/share/i18n/locales/zh_TW is missing): apt-get install locales")


@pytest.mark.fast
def test_a_code_page_left_out_is_one_line_and_the_others_run():
    sets = [es for es in ENV_SETS if es.name in ("cp1252", "big5")]
    result = results.ProgramResult(
        schema=1, mode="program", command=["/p/x.py"], env_sets=sets,
        python_3_15={es.name: of_env_set(es) for es in sets},
        pythons=[{"version": "3.12", "argv": ["python3.12"]}], hostile_files=False,
        stdin="b''", cells=[_linux_cell(), _linux_cell("big5"),
                            _linux_cell()._replace(python="3.13", platform="win32")],
        problems=0, timing=Timing(wall_seconds=1.0, cell_seconds=1.0, workers=2, jobs=5),
        windows={"platform": "win32", "python": "3.13", "cpython": "3.13.2", "row": "3.13 win",
                 "wine": "8.0", "world": "3.13 win: Windows CPython 3.13.2 under Wine 8.0",
                 "code_pages": {"cp1252": 1252, "big5": 950}, "not_applicable": [],
                 "not_run": None, "left_out": {"big5": NO_BIG5}})
    text = report.render(result, "text", columns=100)
    assert text.splitlines()[2:6] == [
        "python    cp1252  big5", "========  ======  ====", "3.12      ok      ok",
        "3.13 win  ok      -"]
    at = text.index("Windows (matrix --windows):\n")
    assert text[at:].split("\n\n")[0].splitlines() == [
        "Windows (matrix --windows):",
        "  3.13 win: Windows CPython 3.13.2 under Wine 8.0",
        "  3.13 win runs in the code page each set stands for (cp1252 1252, big5 950)",
        "  3.13 win not run in big5 (code page 950): code page 950 needs the locale zh_TW.UTF-8, "
        "compiled",
        "    from glibc's sources (/usr/share/i18n/locales/zh_TW is missing): apt-get install locales"]


@pytest.mark.fast
@pytest.mark.parametrize("folder, page, written", [
    ("plain", 932, "utf-8"),
    # Not ASCII, a colon, a space: stderr in the code page with UTF-8 mode off (é is
    # cp1252's 0xe9; cp932 has no é: backslashreplace writes \xe9), UTF-8 with it on.
    ("odd: dir \u00e9", 1252, "cp1252"), ("odd: dir \u00e9", 932, "cp932"),
    ("odd: dir \u00e9", 932, "utf-8")])
def test_windows_paths_and_crlf_on_stderr_are_read_as_on_linux(tmp_path, folder, page,
                                                                 written):
    (tmp_path / folder).mkdir()
    script = str(tmp_path / folder / "x.py")
    cell = Cell("/")
    try:
        stderr = ("Z:%s:1: EncodingWarning: 'encoding' argument not specified\r\n"
                  "Traceback (most recent call last):\r\n  File \"Z:%s\", line 2, in <module>"
                  "\r\nUnicodeEncodeError: 'cp932' codec can't encode character '\\xe9'\r\n"
                  % (script.replace("/", "\\"), script)).encode(written, "backslashreplace")
        run = Run(returncode=1, stdout=b"", stderr=stderr, seconds=0.5, then=None)
        run = mwindows.Windows.as_host(run, script, cell, page)
    finally:
        cell.remove()
    es = next(es for es in ENV_SETS if es.name == "cp932")
    c = _program_cell(Interpreter("3.13", ["wine64", "python.exe"], "/"), es, run, {}, None,
                      None)
    assert [(w.file, w.line, w.message) for w in c.encoding_warnings] == [
        (script, 1, "'encoding' argument not specified")]
    assert (c.status, c.where) == ("UnicodeError", "%s:2" % script)
    assert c.unicode_error == "UnicodeEncodeError: 'cp932' codec can't encode character '\\xe9'"
    assert [mwindows.code_page(es) for es in ENV_SETS] == [
        None, None, None, None, None, None, None, 1252, 1251, 936, 932, 950]


# -- full tier: real Windows CPython under Wine -----------------------------------------------

def _need_windows():
    ok, why = support_wine.available(versions=("3.13",), code_pages=(1252, 932))
    if not ok:
        pytest.skip(why)
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)


def _environ():
    env = dict(os.environ, UTF8ENV_WINDOWS_CACHE=support_wine.CACHE)
    for name in ("COLUMNS", "LINES"):
        env.pop(name, None)
    return env


def _runs_left(pid):
    runs = os.path.join(support_wine.CACHE, "runs")
    names = os.listdir(runs) if os.path.isdir(runs) else []
    return [n for n in names if n.startswith("prefix-%d-" % pid)]


@pytest.fixture(scope="module")
def cafe(tmp_path_factory):
    """{format: (status, stdout, stderr)} of the café script under 3.12 and Windows 3.13 in
    cp1252, cp932 and utf8-locale, text and JSON at once; and the invocations' pids."""
    _need_windows()
    py312 = machine.python("3.12")
    folder = tmp_path_factory.mktemp("cafe") / "odd: dir \u00e9"     # not ASCII, a colon
    folder.mkdir()
    (folder / "cafe.py").write_text(SCRIPT, encoding="utf-8")
    procs = {fmt: subprocess.Popen(
        own_command() + ["matrix", "--windows", "--python", py312, "--env-set",
                         "cp1252,cp932,utf8-locale", "--format", fmt, "--", "cafe.py"],
        cwd=str(folder), env=_environ(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for fmt in ("text", "json")}
    out = {}
    for fmt, p in procs.items():
        stdout, stderr = p.communicate(timeout=300)
        out[fmt] = (p.returncode, stdout.decode("utf-8"), stderr.decode("utf-8"))
    return out, [p.pid for p in procs.values()], folder


EXPECTED = r"""utf8env matrix -- cafe.py

python    cp1252  cp932                  utf8-locale
========  ======  =====================  ===========
3.12      ok w1   LookupError            ok w1
3.13 win  ok w1   UnicodeEncodeError w1  n/a

Environment sets:
  cp1252: a stand-in for Windows' ANSI code page 1252 (glibc's CP1252): files, pipes, open(); not
    Windows' console or file-system encoding
  cp932: a stand-in for Windows' ANSI code page 932 (glibc's WINDOWS-31J; Python before 3.13 has no
    codec of that name and does not start): files, pipes, open(); not Windows' console or
    file-system encoding
  utf8-locale: LANG=en_US.UTF-8, as a desktop (strict stdio)
  A cell: ok, the exception that ended the run (or exit N), wN: N EncodingWarnings.

Windows (matrix --windows):
  3.13 win: Windows CPython 3.13.2 under Wine 8.0, in the ANSI code page each set stands for, UTF-8
    mode off (-X utf8=0: Windows' default before 3.15) and on (-X utf8=1: 3.15's, PEP 686); Wine is
    not Windows: the streams are pipes, never a console, _wmi is off (Wine lacks its calls); what
    Wine does unlike Windows is not seen
  3.13 win runs in the code page each set stands for (cp1252 1252, cp932 932); n/a: the set stands
    for no Windows code page (utf8-locale)

Python 3.15 (PEP 686: UTF-8 mode on by default; still off with -X utf8=0):
  cp1252 (3.12): on: stdout 'café\n' -> 'cafÃ©\n' (bytes b'caf\xc3\xa9\n'); file notes.txt 'café\n'
    -> 'cafÃ©\n' (bytes b'caf\xc3\xa9\n')
  cp1252 (3.13 win): on: stdout 'café\r\n' -> 'cafÃ©\r\n' (bytes b'caf\xc3\xa9\r\n'); file notes.txt
    'café\r\n' -> 'cafÃ©\r\n' (bytes b'caf\xc3\xa9\r\n')
  cp932 (3.12): on: no change (LookupError either way)
  cp932 (3.13 win): on: status UnicodeError -> ok; stdout '' -> 'cafﾃｩ\r\n' (bytes
    b'caf\xc3\xa9\r\n'); file notes.txt '' -> 'cafﾃｩ\r\n' (bytes b'caf\xc3\xa9\r\n')
  utf8-locale (3.12): on: no change

Findings, by place in the code:
  cafe.py:1 — 4 cells: EncodingWarning: 'encoding' argument not specified
    cp1252 (3.12, 3.13 win), cp932 (3.13 win), utf8-locale (3.12)
  cafe.py:2 — 1 cell: UnicodeEncodeError: 'cp932' codec can't encode character '\xe9' in position 3:
    illegal multibyte sequence
    cp932 (3.13 win)
  start-up — 1 cell: LookupError: unknown encoding: WINDOWS-31J (Fatal Python error:
    init_fs_encoding: failed to get the Python codec of the filesystem encoding)
    cp932 (3.12)

5 cells, 2 with a problem
"""


def _masked(text):
    """Timings (none on this page today) and Wine's version (8.0 on Debian 12) masked."""
    return re.sub(r"\d+\.\d+ s\b", "N s", re.sub(r"(?<=under Wine )\d[\d.]*", "W", text))


def test_the_whole_page_shows_windows_beside_its_linux_stand_in(cafe):
    out, _, _ = cafe
    code, text, err = out["text"]
    assert (code, err) == (1, "")            # 2 cells with a problem
    assert _masked(text) == _masked(EXPECTED)


def test_the_json_carries_the_windows_row(cafe):
    out, _, folder = cafe
    code, text, err = out["json"]
    assert (code, err) == (1, "")
    data = json.loads(text)
    w = data["windows"]
    assert w == {"platform": "win32", "python": "3.13", "cpython": "3.13.2", "row": "3.13 win",
                 "wine": w["wine"], "world": w["world"],
                 "code_pages": {"cp1252": 1252, "cp932": 932},
                 "not_applicable": ["utf8-locale"], "not_run": None, "left_out": {},
                 "no_linux_rows": None}
    assert re.fullmatch(r"\d+\.\d+(\.\d+)?", w["wine"])
    assert w["world"].startswith("3.13 win: Windows CPython 3.13.2 under Wine %s," % w["wine"])
    assert data["pythons"][-1] == {"version": "3.13", "platform": "win32", "cpython": "3.13.2",
                                   "wine": w["wine"], "argv": data["pythons"][-1]["argv"]}
    assert data["pythons"][-1]["argv"][-1].endswith("cpython-3.13/install/python.exe")
    win = {c["env_set"]: c for c in data["cells"] if c.get("platform") == "win32"}
    assert sorted(win) == ["cp1252", "cp932"]
    assert all("platform" not in c for c in data["cells"] if c["python"] == "3.12")
    c = win["cp1252"]
    assert (c["python"], c["status"], c["exit"]) == ("3.13", "ok", 0)
    assert (c["stdout"], c["files"]) == ("b'caf\\xe9\\r\\n'", {"notes.txt": "b'caf\\xe9\\r\\n'"})
    assert c["encoding_warnings"] == [{"file": str(folder / "cafe.py"), "line": 1,
                                       "message": "'encoding' argument not specified"}]
    assert c["utf8_mode_changes"] == (
        "stdout b'caf\\xe9\\r\\n' -> b'caf\\xc3\\xa9\\r\\n'; files [(b'notes.txt', "
        "b'caf\\xe9\\r\\n')] -> [(b'notes.txt', b'caf\\xc3\\xa9\\r\\n')]")
    c = win["cp932"]
    assert (c["status"], c["exit"], c["where"]) == ("UnicodeError", 1,
                                                    "%s:2" % (folder / "cafe.py"))
    assert c["unicode_error"].startswith("UnicodeEncodeError: 'cp932' codec can't encode")
    assert c["utf8_mode_changes"].startswith("status UnicodeError -> ok; ")


def test_an_invocation_leaves_no_prefix_and_no_wine_process(cafe, session_tmp):
    _, pids, _ = cafe
    for pid in pids:
        assert _runs_left(pid) == []
    assert _wine_processes(pids) == []
    # The invocations ran with the run's own TMPDIR (the module fixture's).
    assert glob.glob(os.path.join(session_tmp, "utf8env-matrix-win-*")) == []


def _wine_processes(pids):
    """The processes whose WINEPREFIX is a prefix copy of one of the invocations `pids`."""
    runs = os.path.join(support_wine.CACHE, "runs")
    wanted = [("WINEPREFIX=" + os.path.join(runs, "prefix-%d-" % pid)).encode() for pid in pids]
    found = []
    for name in os.listdir("/proc"):
        try:
            with open(os.path.join("/proc", name, "environ"), "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if any(v.startswith(w) for v in env for w in wanted):
            found.append(int(name))
    return found


def test_without_wine_the_linux_rows_run_and_one_line_says_what_to_install(
        monkeypatch, tmp_path, capsys):
    _need_windows()
    py312 = machine.python("3.12")
    monkeypatch.setattr(wine, "_WINE", (str(tmp_path / "wine64"),))
    monkeypatch.setenv("UTF8ENV_WINDOWS_CACHE", support_wine.CACHE)
    (tmp_path / "cafe.py").write_text(SCRIPT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = _main(["matrix", "--windows", "--python", py312, "--env-set", "cp1252",
                            "--", "cafe.py"], capsys)
    assert (code, err) == (1, "")
    lines = out.splitlines()
    assert lines[2:5] == ["python  cp1252", "======  ======", "3.12    ok w1"]
    assert "Windows (matrix --windows):\n  3.13 win not run: matrix --windows needs Wine " \
           "(wine64 and wineserver): apt-get install wine64\n" in out
    assert lines[-1] == "1 cell, 0 with a problem"


@pytest.mark.fast
def test_the_docs_show_the_real_page():
    with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           "docs", "matrix.md"), encoding="utf-8") as f:
        page = f.read()
    m = re.search(r"<!-- matrix windows text -->\n```\n(.*?)```\n", page, re.S)
    assert m
    cat, shown = m.group(1).split("$ utf8env matrix --windows", 1)
    assert cat == "$ cat cafe.py\n" + SCRIPT
    assert shown.split("\n", 1) == [
        " --python python3.12 --env-set cp1252,cp932,utf8-locale -- cafe.py", EXPECTED]


def test_a_code_page_whose_locale_or_probe_fails_is_left_out_alone(monkeypatch, tmp_path,
                                                                    capsys):
    """Code page 936's locale cannot be compiled (its glibc source named missing), 950's
    probe finds another code page (C.UTF-8 gives 1252): both are left out, each with its
    line, and 1252 runs; with no code page left, the row is out as a whole."""
    _need_windows()
    monkeypatch.setitem(wine.LOCALES, 936, "xx_XX")
    monkeypatch.setitem(wine.LOCALES, 950, "C")
    rows = mwindows.Windows(None, [1252, 936, 950], environ=_environ())
    try:
        rows.open()
        assert (rows.problem, sorted(rows.prefixes)) == (None, [1252])
        assert rows.left_out == {
            936: "code page 936 needs the locale xx_XX.UTF-8, compiled from glibc's sources "
                 "(/usr/share/i18n/locales/xx_XX is missing): apt-get install locales",
            950: "Wine gave code page 1252, not 950 (LC_ALL=C.UTF-8): the runs would not be in "
                 "code page 950"}
        sets = [es for es in ENV_SETS if es.name in ("cp1252", "gbk", "big5")]
        assert [es.name for es in sets if rows.runs_in(es)] == ["cp1252"]
        assert rows.json(sets)["left_out"] == {"gbk": rows.left_out[936],
                                               "big5": rows.left_out[950]}
    finally:
        rows.close()
    # The command: 1252's cells run, gbk's Windows cell is "-" and said; status 1.
    (tmp_path / "cafe.py").write_text(SCRIPT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("UTF8ENV_WINDOWS_CACHE", support_wine.CACHE)
    code, out, err = _main(["matrix", "--windows", "--python", machine.python("3.12"),
                            "--env-set", "cp1252,gbk", "--", "cafe.py"], capsys)
    assert (code, err) == (1, "")
    assert out.splitlines()[2:6] == ["python    cp1252  gbk", "========  ======  =====",
                                     "3.12      ok w1   ok w1", "3.13 win  ok w1   -"]
    assert ("  3.13 win not run in gbk (code page 936): code page 936 needs the locale "
            "xx_XX.UTF-8, compiled from\n    glibc's sources (/usr/share/i18n/locales/xx_XX "
            "is missing): apt-get install locales\n") in out
    alone = mwindows.Windows(None, [950], environ=_environ())
    try:
        alone.open()
        assert (alone.problem, alone.prefixes) == (
            "Wine gave code page 1252, not 950 (LC_ALL=C.UTF-8): the runs would not be in "
            "code page 950", {})
    finally:
        alone.close()
