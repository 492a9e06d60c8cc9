"""What a Windows user gets from `pip install utf8env`, installed as they install it: into
python.org's Windows CPython (the embeddable build of tests/support/setup_wine.sh, copied
into the module's folder with `import site` enabled in its ._pth file, as python.org's
page for the embeddable build says to run pip), under Debian's Wine, with pip run from its
own wheel (/var/cache/utf8env/wheels: tests/setup.sh), offline (`--no-index --find-links`).

- CPython 3.13 gets the release's py3-none-win_amd64 wheel as the backend builds it
  (UTF8ENV_PLATFORM_TAG=win_amd64, as tools/release.py does);
- CPython 3.11 gets the sdist alone, which pip builds there with tools/build_backend.py
  (sys.platform "win32": the wheel is this machine's, win_amd64). 3.11, not 3.13: pip's
  build hook copies the wheel it built with shutil.copy2, which 3.12+ does with
  CopyFile2, a function Wine 8.0 lacks (the build aborts under Wine, not on Windows).

Then the installed Scripts\\utf8env.exe (pip's launcher of the console script) and
`python -m utf8env` run natively: --version, --help, explain (of that python itself), fix
--check and --write, readiness (utf8env.exe: the whole report of a suite run there, text in 1252 and
JSON in 932, and the process a test left running killed), and the one line of each command that does not run on Windows (status 2).
In code pages 1252 and 932 (Wine's follows the Unix locale: tests/support/wine.py).

The Wine prefix is the module's own (a copy of the cache's, its files hard links and its
registry copied, as readiness --windows makes one), with its wineserver started for the
module and ended after it; every file is in the module's folder. CPython 3.12+'s _wmi is
removed from the copy of 3.13: Wine 8.0 has no propsys.VariantToString, and pip's
platform.uname() aborted the process (Windows has it; utf8env does not import _wmi).
What Wine cannot show (tests/support/wine.py): a real console; these streams are pipes."""
import concurrent.futures
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import types

import pytest

from support import install, wine as support_wine
from utf8env import _commands, _output
from utf8env._windows import wheels, wine
from utf8env.readiness import _native

sys.path.insert(0, install.TOOLS)
import build_backend  # noqa: E402

VERSION = build_backend.package_version()
PIP_WHEELS = "/var/cache/utf8env/wheels"
HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "windows_install_expected")
# The call of docs/readiness.md's kind: a test that reads a file with open() and no encoding.
TEST_SOURCE = ('def test_the_notes_are_read():\n'
               '    with open("notes.txt") as f:\n'
               '        assert f.read() == "caf\\u00e9\\n"\n')
REQUIREMENTS = os.path.join(HERE, "windows-requirements.txt")


def PYTEST_WHEELS():
    """The folder of pytest's win_amd64 wheels (tests/setup.sh fetches them), or None."""
    site = wheels.ready(support_wine.CACHE, "3.13", REQUIREMENTS)
    return None if site is None else os.path.join(os.path.dirname(site), "wheels")


QUIET = {"WINEDEBUG": "-all", "WINEDLLOVERRIDES": "mscoree,mshtml=;winedbg.exe=d"}


def _pip_wheel():
    found = sorted(glob.glob(os.path.join(PIP_WHEELS, "pip-*-py3-none-any.whl")))
    return found[-1] if found else None


def _backend(hook, folder, **environ):
    """tools/build_backend.py's `hook` run into `folder` in a new interpreter: the file."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import build_backend; "
            "print(getattr(build_backend, sys.argv[2])(sys.argv[3]))")
    env = {k: v for k, v in os.environ.items()
           if k not in ("UTF8ENV_LAUNCHER", build_backend.PLATFORM_TAG)}
    out = subprocess.run([sys.executable, "-I", "-c", code, install.TOOLS, hook, folder],
                         env=dict(env, **environ), cwd=install.ROOT, check=True,
                         stdout=subprocess.PIPE).stdout
    return os.path.join(folder, out.decode().split()[-1])


class Place(object):
    """The module's Windows: its prefix and folders, the two CPythons."""

    def __init__(self, work):
        self.work = work
        self.prefix = os.path.join(work, "prefix")
        self.tmp = os.path.join(work, "tmp")
        self.home = os.path.join(work, "home")
        self.pythons = {"3.13": os.path.join(work, "cpython-3.13"),
                        "3.11": os.path.join(work, "cpython-3.11")}

    def environ(self, code_page=1252):
        """The whole Unix environment of a Windows program here (Wine hands it every Unix
        variable: the machine's PIP_* and PYTHON* stay out)."""
        return dict(QUIET, PATH="/usr/bin:/bin", HOME=self.home, TMPDIR=self.tmp,
                    WINEPREFIX=self.prefix, LC_ALL=support_wine.LOCALES[code_page],
                    LOCPATH=support_wine.LOCPATH)

    def run(self, argv, code_page=1252, cwd=None, timeout=180, **extra):
        """(status, stdout, stderr) of the Windows program argv[0] (a Linux path); extra:
        more variables."""
        return wine.communicate([support_wine.WINE] + list(argv),
                                dict(self.environ(code_page), **extra), cwd or self.work,
                                timeout)

    def python(self, minor):
        return os.path.join(self.pythons[minor], "python.exe")

    def command(self, minor):
        return os.path.join(self.pythons[minor], "Scripts", "utf8env.exe")


def _copy_build(minor, target):
    """The embeddable build, copied, with `import site` enabled in its ._pth (pip installs
    into Lib\\site-packages then), less _wmi (the module's docstring says why)."""
    shutil.copytree(os.path.join(support_wine.CACHE, "cpython-" + minor, "embed"), target)
    pth, = glob.glob(os.path.join(target, "python3*._pth"))
    with open(pth, encoding="ascii") as f:
        text = f.read()
    assert "\n#import site" in text
    with open(pth, "w", encoding="ascii") as f:
        f.write(text.replace("\n#import site", "\nimport site"))
    wmi = os.path.join(target, "_wmi.pyd")
    if os.path.exists(wmi):
        os.remove(wmi)


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    ok, why = support_wine.available(versions=("3.11", "3.13"), code_pages=(1252, 932))
    if not ok:
        pytest.skip(why)
    if PYTEST_WHEELS() is None:
        pytest.skip("pytest for Windows CPython 3.13 (tests/windows-requirements.txt) is not "
                    "in %s: bash tests/setup.sh" % support_wine.CACHE)
    if _pip_wheel() is None or not os.path.isfile(os.path.join(support_wine.PREFIX,
                                                               "system.reg")):
        pytest.skip("pip's wheel in %s or the Wine prefix in %s is missing: bash tests/setup.sh"
                    % (PIP_WHEELS, support_wine.PREFIX))
    work = str(tmp_path_factory.mktemp("windows-install"))
    here = Place(work)
    for folder in (here.tmp, here.home, os.path.join(work, "wheel"), os.path.join(work, "sdist")):
        os.makedirs(folder)
    wheel = _backend("build_wheel", os.path.join(work, "wheel"),
                     **{build_backend.PLATFORM_TAG: "win_amd64"})
    _backend("build_sdist", os.path.join(work, "sdist"))
    for minor, target in here.pythons.items():
        _copy_build(minor, target)
    wine._copy_prefix(support_wine.PREFIX, here.prefix)
    # The prefix's server, for the module, and Wine's services started by a program whose
    # stdio is /dev/null (a run's pipes are never held by them: support/wine.py).
    subprocess.run([support_wine.WINESERVER, "-p"], env=here.environ(), check=True, timeout=60,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    try:
        subprocess.run([support_wine.WINE, here.python("3.13"), "-c", "pass"],
                       env=here.environ(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=300, cwd=work)
        pip = os.path.join(_pip_wheel(), "pip")
        # 3.13: utf8env's wheel, and pytest (tests/windows-requirements.txt's wheels) for
        # readiness's plugin; 3.11: the sdist alone.
        installs = [(here.python("3.13"), [os.path.dirname(wheel), PYTEST_WHEELS()],
                     ["utf8env", "pytest"]),
                    (here.python("3.11"), [os.path.join(work, "sdist")], ["utf8env"])]
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            here.installed = list(pool.map(lambda job: here.run(
                [job[0], pip, "install", "--no-index", "--no-cache-dir",
                 "--disable-pip-version-check", "--no-warn-script-location"]
                + [a for folder in job[1] for a in ("--find-links", wine.windows_path(folder))]
                + job[2]), installs))
        yield here
    finally:
        subprocess.run([support_wine.WINESERVER, "-k"], env=here.environ(), timeout=60,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _text(data):
    """Windows CPython's text stdout, as written: \\r\\n, in the code page."""
    return data.decode("ascii", "replace").replace("\r\n", "\n")


@pytest.mark.parametrize("minor", ["3.13", "3.11"])      # the wheel, the sdist
def test_pip_installs_the_command_and_no_posix_script(place, minor):
    status, out, err = place.installed[["3.13", "3.11"].index(minor)]
    assert status == 0, (out + err).decode("utf-8", "replace")
    assert "utf8env-%s" % VERSION in _text(out).splitlines()[-1].split()
    info = os.path.join(place.pythons[minor], "Lib", "site-packages",
                        "utf8env-%s.dist-info" % VERSION)
    # Of utf8env's files, one script: utf8env.exe (3.13's Scripts has pytest's too).
    with open(os.path.join(info, "RECORD"), encoding="utf-8") as f:
        scripts = [line.split(",")[0] for line in f if "Scripts" in line]
    assert scripts == ["../../Scripts/utf8env.exe"]
    assert "utf8env.exe" in os.listdir(os.path.join(place.pythons[minor], "Scripts"))
    with open(os.path.join(info, "WHEEL"), encoding="utf-8") as f:
        assert f.read().splitlines()[-1] == "Tag: py3-none-win_amd64"
    with open(os.path.join(info, "entry_points.txt"), encoding="utf-8") as f:
        assert "[console_scripts]\nutf8env = utf8env._cli:main\n" in f.read()


def _both(place, minor):
    """The installed command and `python -m utf8env`, as argv prefixes."""
    return [[place.command(minor)], [place.python(minor), "-m", "utf8env"]]


@pytest.mark.parametrize("minor", ["3.13", "3.11"])
def test_version_through_utf8env_exe_and_python_m(place, minor):
    for command in _both(place, minor):
        assert place.run(command + ["--version"]) == (
            0, ("utf8env %s\r\n" % VERSION).encode(), b"")


def test_a_console_script_starts_with_the_python_variables(place):
    # What the POSIX launcher avoids and utf8env.exe cannot (docs/install.md says so).
    status, out, err = place.run([place.command("3.13"), "--version"],
                                 PYTHONIOENCODING="bogus")
    lines = err.decode("ascii").split("\n")     # written by C, as it is: \n
    assert (status, out, lines[:4], lines[5:]) == (1, b"", [
        "Fatal Python error: init_stdio_encoding: failed to get the Python codec name of the "
        "stdio encoding", "Python runtime state: core initialized",
        "LookupError: unknown encoding: bogus", ""], ["  <no Python frame>", ""])
    assert lines[4].startswith("Current thread 0x")


@pytest.mark.parametrize("code_page", [1252, 932])
def test_explain_of_that_windows_python_itself(place, code_page):
    with open(os.path.join(EXPECTED, "explain-%d.text" % code_page), encoding="utf-8") as f:
        text = f.read()
    want = text.replace("\n", "\r\n").encode("cp%d" % code_page)
    for command in _both(place, "3.13"):
        assert place.run(command + ["explain"], code_page) == (0, want, b"")
    # What Linux predicts for it (its environment has no Python variable), as its code
    # page holds it.
    predicted = subprocess.run(
        [sys.executable, "-m", "utf8env", "explain", "--platform", "win32", "--code-page",
         str(code_page), "--version", "3.13", "--empty-env"], env={
            "PATH": os.environ["PATH"], "HOME": os.environ["HOME"], "LC_ALL": "C.UTF-8",
            "PYTHONPATH": os.path.join(install.ROOT, "src")},
        stdout=subprocess.PIPE, check=True).stdout.decode("utf-8")
    assert _output.in_code_page(predicted, "cp%d" % code_page) == text


def _escaped(text):
    """`text` as TEST_SOURCE spells it: what is not ASCII as \\uXXXX, a newline as \\n."""
    return "".join(c if " " <= c < "\x7f" else "\\n" if c == "\n" else "\\u%04x" % ord(c)
                   for c in text)


def _project(place, name, notes="caf\xe9\n", code_page=1252, more=""):
    """A project whose test reads notes.txt, `notes` written in the code page, with
    open(); `more`: more of its test file."""
    folder = os.path.join(place.work, name)
    os.makedirs(os.path.join(folder, "tests"))
    with open(os.path.join(folder, "tests", "test_notes.py"), "w", encoding="utf-8") as f:
        f.write(TEST_SOURCE.replace('"caf\\u00e9\\n"', '"%s"' % _escaped(notes)) + more)
    with open(os.path.join(folder, "notes.txt"), "wb") as f:
        f.write(notes.encode("cp%d" % code_page))
    return folder


def _pins():
    with open(REQUIREMENTS, encoding="utf-8") as f:
        return dict(line.split()[0].lower().split("==") for line in f
                    if line.strip() and not line.startswith("#"))


def _timeless(text):
    return re.sub(r" in \d+\.\d+s\b", " in N.NNs", text)


def test_what_readiness_says_to_run_there_runs(place):
    """readiness's plugin in a plain pytest run there (its entry point), and UTF-8 mode's
    run: both, in 1252."""
    project = _project(place, "plugin")
    python, pins = place.python("3.13"), _pins()
    status, out, err = place.run([python, "-X", "warn_default_encoding", "-m", "pytest",
                                  "--utf8env", "-p", "no:cacheprovider"], cwd=project)
    here = wine.windows_path(project).replace("/", "\\")
    assert (status, _timeless(_text(out)), err) == (0, """\
============================= test session starts =============================
platform win32 -- Python %s, pytest-%s, pluggy-%s
rootdir: %s
plugins: utf8env-%s
collected 1 item

tests\\test_notes.py .                                                    [100%%]

============================== warnings summary ===============================
tests/test_notes.py::test_the_notes_are_read
  %s\\tests\\test_notes.py:2: EncodingWarning: 'encoding' argument not specified
    with open("notes.txt") as f:

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
= utf8env: 1 call site uses the locale encoding (1 EncodingWarning in 1 test) =
tests\\test_notes.py:2 in test_the_notes_are_read: 1 warning, 1 test
    tests/test_notes.py::test_the_notes_are_read
======================== 1 passed, 1 warning in N.NNs =========================
""" % (support_wine.CPYTHON["3.13"], pins["pytest"], pins["pluggy"], here, VERSION, here), b"")
    status, out, err = place.run([python, "-X", "utf8", "-m", "pytest", "-q", "--tb=line",
                                  "-p", "no:cacheprovider"], cwd=project)
    decode = ("'utf-8' codec can't decode byte 0xe9 in position 3: invalid continuation byte")
    assert (status, _timeless(_text(out)), err) == (1, """\
F                                                                        [100%%]
================================== FAILURES ===================================
E   UnicodeDecodeError: %s
<frozen codecs>:325: UnicodeDecodeError: %s
=========================== short test summary info ===========================
FAILED tests/test_notes.py::test_the_notes_are_read - UnicodeDecodeError: 'ut...
1 failed in N.NNs
""" % (decode, decode), b"")


@pytest.mark.parametrize("code_page", [1252, 932])
def test_fix_check_finds_the_open_call(place, code_page):
    project = _project(place, "fix-%d" % code_page)
    want = ("tests\\test_notes.py:2:10: open: text in the locale's encoding; fix: "
            "encoding=\"utf-8\"\r\n"
            "1 call site in 1 file open text in the locale's encoding: 1 to fix (--write), "
            "0 to review\r\n").encode("ascii")
    for command in _both(place, "3.13"):
        assert place.run(command + ["fix", "--check", "tests"], code_page,
                         cwd=project) == (1, want, b"")


def test_fix_write_adds_the_encoding_there(place):
    # (Windows has no os.fchown, which fix --write called: the write failed there.)
    project = _project(place, "fix-write")
    assert place.run([place.command("3.13"), "fix", "--write", "tests"], cwd=project) == (
        0, b'tests\\test_notes.py:2:10: open: fixed: encoding="utf-8"\r\n1 call site fixed '
           b'(encoding="utf-8") in 1 file; 0 to review\r\n', b"")
    with open(os.path.join(project, "tests", "test_notes.py"), encoding="utf-8") as f:
        assert f.read() == TEST_SOURCE.replace('open("notes.txt")',
                                               'open("notes.txt", encoding="utf-8")')


# The notes in each code page's own text: today's open() reads them, 3.15's does not.
NOTES = {1252: "caf\xe9\n", 932: "\u65e5\u672c\u8a9e\n"}
REPORTS = [(1252, "text"), (932, "json")]


def _masked(text, place):
    """The report with what each run varies said once: the module's folder, the seconds."""
    work = wine.windows_path(place.work).replace("/", "\\")
    text = text.replace(work.replace("\\", "\\\\"), "<work>").replace(work, "<work>")
    text = re.sub(r'"(seconds|wall_seconds|cell_seconds)": \d+(\.\d+)?', r'"\1": N', text)
    return re.sub(r"\d+\.\d s|(?<=  )\d+\.\d\b", "N", text)


# A test that leaves a process running: each run's tree is killed at its end (_supervise.py:
# a job object on Windows).
LEAVES = ('\n\ndef test_a_helper_left_running():\n'
          '    import subprocess, sys\n'
          '    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", "%s"])\n')


def _running(word):
    """The pids whose command line holds `word` (Wine's processes show the Windows one)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if word.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


@pytest.mark.parametrize("code_page, format", REPORTS)
def test_readiness_runs_the_suite_there_in_its_code_page(place, code_page, format):
    """utf8env.exe readiness: the suite run with that Python, UTF-8 mode off and on, in the
    code page, the test that changes and its call site, the fixes tried; nothing left
    running, nothing left in its temporary folder."""
    left = "utf8env-left-%d-%d" % (os.getpid(), code_page)
    project = _project(place, "readiness-%d" % code_page, NOTES[code_page], code_page,
                       LEAVES % left)
    status, out, err = place.run([place.command("3.13"), "readiness", "--format", format,
                                  "--", "pytest", "-q"], code_page, cwd=project, timeout=300,
                                 TMP=wine.windows_path(place.tmp))
    with open(os.path.join(EXPECTED, "readiness-%d.%s" % (code_page, format)),
              encoding="utf-8") as f:
        want = f.read()
    running = _running(left)
    for pid in running:
        os.kill(pid, signal.SIGKILL)
    assert (status, _masked(_text(out), place), err) == (1, want, b"")
    assert [n for n in os.listdir(place.tmp) if n.startswith("utf8env")] == []
    assert running == []


REFUSED = [["run", "--", "cmd"], ["env"], ["doctor"], ["matrix"],
           ["fix", "--prove", "tests", "--", "pytest"],
           ["readiness", "--world", "latin1", "--", "pytest"]]


@pytest.mark.parametrize("argv", REFUSED, ids=lambda a: " ".join(a[:2]))
def test_what_does_not_run_on_windows_says_so_in_one_line(place, argv):
    name = "fix --prove" if argv[:2] == ["fix", "--prove"] else argv[0]
    refusal = (_native.refusal(types.SimpleNamespace(world="latin1")) if name == "readiness"
               else _commands.windows_refusal(name, "win32"))
    line = "utf8env: error: %s\r\n" % refusal
    project = _project(place, "refused-" + "-".join(argv[:2]).replace("--", ""))
    for command in _both(place, "3.13"):
        assert place.run(command + argv, cwd=project) == (2, b"", line.encode("ascii"))


def test_help_names_apart_what_does_not_run_there(place):
    docs = os.path.join(place.pythons["3.13"], "Lib", "site-packages", "utf8env", "docs")
    said = "Documentation: %s (%s)" % (wine.windows_path(docs).replace("/", "\\"), ", ".join(
        sorted(n for n in os.listdir(docs) if n.endswith(".md"))))
    text = _commands.main_help("win32")
    head = text[:text.index("Documentation: ")]
    want = head + "\n".join(textwrap.wrap(said, 79, break_on_hyphens=False,
                                          break_long_words=False)) + "\n"
    status, out, err = place.run([place.command("3.13"), "--help"])
    assert (status, _text(out), err) == (0, want, b"")
