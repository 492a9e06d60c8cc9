"""decide() predicts what a Windows CPython gets (issue 21): every cell of the ground truth
measured with python.org's CPython 3.8-3.13 under Wine (tests/test_windows_groundtruth.py,
EXPECTED: code pages 1252, 932, 1251 and 936, six settings, the "install" and "embed"
layouts), field by field, from the engine alone. Pure: nothing is run.

What each measured field is compared with:
  utf8_mode, fs, stdin, stdout, stderr, open, preferred, getencoding
      the Decision's fields, directly;
  open_bytes, open_error
      derived: "café" encoded (strict) with the predicted open() encoding;
  child_status, child_bytes, child_error, child_text
      derived: the child (sys.executable -c, no option: it inherits the environment,
      less what Decision.child_environ says, but never -X) is decide() of the same
      environment without the command line; it writes "<ACP> café\\n" through its
      predicted stdout ("\\n" is "\\r\\n" on Windows); the parent reads that in text mode
      with its own predicted preferred encoding, where a decoding error kills the
      reader thread (stdout None, the Windows quirk the table's docstring describes).
Out of scope (no input or Decision field of the engine says them):
  isolated         the layout: a ._pth file isolates the interpreter only after the
                   encodings are decided, so both layouts get the same Inputs (and the
                   same values, which is the finding); the Reasons say so;
  oemcp, console_cp  the console's code pages: no cell here has a console (pipes only;
                   a console is measured in tests/test_windows_console.py: see below).
"""
import codecs
import json
import os
import subprocess
import sys

import pytest

from utf8env._engine.policy import Inputs, InvalidInput, decide
from utf8env._engine.profiles import CODE_PAGES

from test_windows_groundtruth import EXPECTED, SETTINGS

pytestmark = pytest.mark.fast

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")

# The fields compared, as named in EXPECTED, and those left out (see the docstring).
MODELLED = ("utf8_mode", "fs", "stdin", "stdout", "stderr", "open", "preferred",
            "getencoding")
DERIVED = ("open_bytes", "open_error", "child_status", "child_bytes", "child_error",
           "child_text")
OUT_OF_SCOPE = ("isolated", "oemcp", "console_cp")
TEXT = u"caf\u00e9"


def _pair(stream):
    return "%s/%s" % (stream.encoding, stream.errors)


def _inputs(version, code_page, setting):
    environ, options = SETTINGS[setting]
    return Inputs(environ=dict(environ), args=tuple(options) + ("-c", "..."),
                  version=version, platform="win32", ansi_code_page=code_page)


def _written(text, stream):
    """What writing `text` through a text stream of `stream` leaves in the file, and the
    error that stops it (None): each write is encoded whole, or not at all."""
    try:
        return codecs.encode(text, stream.encoding, stream.errors), None
    except UnicodeEncodeError:
        return b"", "UnicodeEncodeError"


def predicted(version, code_page, setting):
    """decide()'s Decision in the table's form, measured fields only."""
    inputs = _inputs(version, code_page, setting)
    d = decide(inputs)
    out = dict(utf8_mode=d.utf8_mode, fs=_pair(d.filesystem), stdin=_pair(d.stdin),
               stdout=_pair(d.stdout), stderr=_pair(d.stderr), open=_pair(d.open),
               preferred=d.preferred_encoding, getencoding=d.locale_encoding)
    # open(path, "w").write("café"), then the bytes read back.
    written, error = _written(TEXT, d.open)
    out["open_bytes"] = written.hex()
    if error:
        out["open_error"] = error
    # The child: the same environment as the child inherits it, no -X option.
    environ = dict(inputs.environ)
    environ.update((k, v) for k, v in d.child_environ.items() if v is not None)
    child = decide(inputs._replace(environ=environ, args=("-c", "...")))
    head, _ = _written(u"%d " % code_page, child.stdout)
    tail, error = _written(TEXT + u"\r\n", child.stdout)
    data = head + tail
    out.update(child_status=1 if error else 0, child_bytes=data.hex(), child_error=error)
    # The parent reads it with text=True: its preferred encoding, universal newlines.
    try:
        out["child_text"] = data.decode(d.preferred_encoding).replace(u"\r\n", u"\n")
    except UnicodeDecodeError:
        out["child_text"] = None
    return out


def _measured(cell):
    return {key: value for key, value in EXPECTED[cell].items() if key not in OUT_OF_SCOPE}


@pytest.mark.parametrize("cell", sorted(EXPECTED), ids=lambda c: "%s-%s-cp%d-%s" % c)
def test_decide_reproduces_the_measured_cell(cell):
    _, version, code_page, setting = cell
    assert predicted(version, code_page, setting) == _measured(cell)


def test_every_cell_every_field_is_predicted():
    """One count for the report: 150 cells (108 install, 6 at code page 936, 36 embed),
    every field but the three out of scope."""
    fields = set(MODELLED + DERIVED + OUT_OF_SCOPE)
    matched = 0
    for cell in EXPECTED:
        assert set(EXPECTED[cell]) - {"open_error"} <= fields, cell
        matched += predicted(*cell[1:]) == _measured(cell)
    assert matched == len(EXPECTED) == 150


def test_the_embed_layout_is_the_install_layout_but_isolated():
    """The measured finding the Reasons rest on: a ._pth file changes no encoding."""
    for (layout, version, code_page, setting), row in EXPECTED.items():
        if layout == "embed":
            install = EXPECTED[("install", version, code_page, setting)]
            assert dict(row, isolated=0) == install


@pytest.mark.parametrize("setting,field", [
    ("PYTHONUTF8=1", "utf8_mode"), ("PYTHONIOENCODING=utf-8", "stdout"),
    ("PYTHONLEGACYWINDOWSFSENCODING=1", "filesystem")])
def test_a_variable_that_decides_says_a_pth_file_does_not_hide_it(setting, field):
    d = decide(_inputs("3.12", 1252, setting))
    assert setting.startswith(d.reasons[field].source)
    assert "._pth" in d.reasons[field].detail
    assert "measured" in d.reasons[field].detail


def test_936_names_stdio_gbk_and_the_locale_cp936():
    d = decide(_inputs("3.12", 936, "none"))
    assert (d.stdout.encoding, d.open.encoding, d.preferred_encoding) == ("gbk", "cp936", "cp936")


@pytest.mark.parametrize("version", ["3.8", "3.10", "3.11", "3.13"])
def test_utf8_mode_spelling_changes_in_311_but_getencoding_stays_the_code_page(version):
    d = decide(_inputs(version, 1251, "-X utf8"))
    spelling = "UTF-8" if version in ("3.8", "3.10") else "utf-8"
    assert (d.open.encoding, d.preferred_encoding) == (spelling, spelling)
    assert d.locale_encoding == (None if version in ("3.8", "3.10") else "cp1251")


def test_the_code_page_is_each_values_reason():
    d = decide(_inputs("3.12", 932, "none"))
    for field in ("stdout", "open", "preferred_encoding", "locale_encoding"):
        assert d.reasons[field].source == "code page 932", field
        assert "GetACP() = 932" in d.reasons[field].detail
    assert d.lc_ctype == "<user locale>.932" and "not modelled" in d.reasons["lc_ctype"].detail
    assert d.reasons["utf8_mode"].source == "platform"


def test_no_code_page_means_1252_and_says_it_is_assumed():
    d = decide(Inputs(environ={}, version="3.12", platform="win32"))
    assert d.open.encoding == "cp1252"
    assert "assumed" in d.reasons["open"].detail
    assert "assumed" not in decide(_inputs("3.12", 1252, "none")).reasons["open"].detail


def test_the_locale_variables_say_nothing_on_windows():
    plain = decide(_inputs("3.12", 1251, "none"))
    for environ in ({"LANG": "C"}, {"LC_ALL": "en_US.UTF-8"}):
        d = decide(_inputs("3.12", 1251, "none")._replace(environ=environ))
        assert d._replace(reasons=None) == plain._replace(reasons=None), environ


def test_an_unknown_code_page_is_refused():
    with pytest.raises(InvalidInput, match="437: not an ANSI code page"):
        decide(Inputs(environ={}, platform="win32", ansi_code_page=437))
    for code_page in CODE_PAGES:
        decide(Inputs(environ={}, platform="win32", ansi_code_page=code_page))


# -- The console: from CPython's source (create_stdio, PEP 528); measured for 3.8-3.13 at
# code pages 1252 and 932 in Wine's console (tests/test_windows_console.py) ---------------

def _console(version, environ, args=(), code_page=1252):
    return decide(Inputs(environ=environ, args=args, version=version, platform="win32",
                         ansi_code_page=code_page, windows_console=True))


@pytest.mark.parametrize("version", ["3.6", "3.8", "3.12", "3.15"])
def test_a_console_is_utf8_whatever_the_code_page(version):
    d = _console(version, {}, code_page=932)
    assert (_pair(d.stdin), _pair(d.stdout), _pair(d.stderr)) == (
        "utf-8/surrogateescape", "utf-8/surrogateescape", "utf-8/backslashreplace")
    assert d.open.encoding == ("utf-8" if version == "3.15" else "cp932")
    reason = d.reasons["stdout"]
    assert reason.source == "console"
    assert "(PEP 528; %s)" % (
        "measured in Wine's console with CPython 3.8-3.13 at code pages 1252 and 932"
        if version in ("3.8", "3.12") else "modelled from CPython's source, not measured"
    ) in reason.detail


def test_a_console_overrides_pythonioencodings_encoding_not_its_errors():
    d = _console("3.12", {"PYTHONIOENCODING": "latin1"})
    assert _pair(d.stdout) == "utf-8/strict"


def test_legacy_windows_stdio_gives_the_console_the_code_page_back():
    d = _console("3.12", {"PYTHONLEGACYWINDOWSSTDIO": "1"}, code_page=1251)
    assert _pair(d.stdout) == "cp1251/surrogateescape"
    assert "PYTHONLEGACYWINDOWSSTDIO" in d.reasons["stdout"].detail
    assert "not measured" in d.reasons["stdout"].detail
    # 3.6/3.7 leave TextIOWrapper to ask the console: its OEM code page.
    d = _console("3.7", {"PYTHONLEGACYWINDOWSSTDIO": "1"}, code_page=1251)
    assert d.stdout.encoding == "cp866"
    # -E hides it; "0" is off.
    assert _console("3.12", {"PYTHONLEGACYWINDOWSSTDIO": "1"}, ("-E",)).stdout.encoding == "utf-8"
    assert _console("3.12", {"PYTHONLEGACYWINDOWSSTDIO": "0"}).stdout.encoding == "utf-8"


# -- The command line ---------------------------------------------------------------------

def _utf8env(*args):
    environ = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": SRC, "LANG": "C.UTF-8"}
    result = subprocess.run([sys.executable, "-m", "utf8env"] + list(args), env=environ,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return result.returncode, result.stdout.decode("utf-8"), result.stderr.decode("utf-8")


def test_explain_code_page_json():
    code, out, err = _utf8env("explain", "--version", "3.12", "--platform", "win32",
                              "--code-page", "932", "--empty-env", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert (data["code_page"], data["console"]) == (932, False)
    assert data["stdout"] == {"encoding": "cp932", "errors": "surrogateescape"}
    assert data["lc_ctype"] == "<user locale>.932"
    assert data["reasons"]["open"]["source"] == "code page 932"


def test_explain_console_text_and_default_code_page():
    code, out, err = _utf8env("explain", "--version", "3.12", "--platform", "win32",
                              "--console", "--empty-env")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == ("Python 3.12 on win32, policy 3.12, code page 1252 (assumed), stdio "
                        "a console")
    stdout = [line for line in lines if line.startswith("stdout ")][0]
    assert "utf-8/surrogateescape" in stdout and "measured in Wine's console" in stdout
    code, out, err = _utf8env("explain", "--version", "3.12", "--platform", "win32",
                              "--empty-env", "--json")
    assert (json.loads(out)["code_page"], json.loads(out)["console"]) == (1252, False)
    code, out, err = _utf8env("explain", "--version", "3.12", "--platform", "linux",
                              "--locales", "C.UTF-8", "--empty-env", "--json")
    assert (json.loads(out)["code_page"], json.loads(out)["console"]) == (None, None)


@pytest.mark.parametrize("args,message", [
    (["--platform", "win32", "--code-page", "437"],
     "utf8env: error: --code-page '437': expected an ANSI code page of Windows: 874, 932, "
     "936, 949, 950, 1250, 1251, 1252, 1253, 1254, 1255, 1256, 1257, 1258, 65001 (OEM code "
     "pages such as 437 and 850 are the console's, never GetACP()'s)\n"),
    (["--platform", "linux", "--locales", "C.UTF-8", "--code-page", "932"],
     "utf8env: error: --code-page describes a Windows interpreter: give --platform win32 "
     "(the target here is linux)\n"),
    (["--platform", "darwin", "--locales", "C.UTF-8", "--console"],
     "utf8env: error: --console describes a Windows interpreter: give --platform win32 "
     "(the target here is darwin)\n"),
])
def test_bad_windows_input_is_one_line_exit_2(args, message):
    assert _utf8env("explain", "--version", "3.12", "--empty-env", *args) == (2, "", message)
