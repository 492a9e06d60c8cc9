"""Windows text only where it can happen (issue 31).

explain's note on print(os.listdir()): on Linux a file name is bytes, and one that the
file-system encoding cannot decode (b'caf\\xc3\\xa9-\\xff') is what fails; on Windows names
are UTF-16 text handed over by the system (no name is undecodable), and what fails is a
name outside the code page stdout writes. The fast tests hold explain's whole output; the
Wine test measures the real python.exe (tests/support/wine.py) printing os.listdir() of
such a name through a pipe and compares with the model, cell by cell.
"""
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import wine  # noqa: E402

from utf8env._engine.policy import Inputs, decide  # noqa: E402
from utf8env.doctor._outcome import WINDOWS_NAME, outcome  # noqa: E402

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")


def _utf8env(*args):
    environ = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": SRC, "LANG": "C.UTF-8"}
    result = subprocess.run([sys.executable, "-m", "utf8env"] + list(args), env=environ,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return result.returncode, result.stdout.decode("utf-8"), result.stderr.decode("utf-8")


# explain's whole page for win32, each code page and version: explain_expected/*.text.
EXPECTED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "explain_expected")


LINUX_3_8_LATIN1_STDOUT = """\
Python 3.8 on linux, policy 3.8

start-up            starts
legacy C locale     no                          LANG=C.UTF-8: LC_CTYPE is C.UTF-8, not the C locale
locale coercion     none                        LANG=C.UTF-8: nothing to coerce: the locale is not the legacy C locale
UTF-8 mode          off                         locale: off: the locale is C.UTF-8, and no -X utf8 or PYTHONUTF8 asks for it
LC_CTYPE            C.UTF-8                     LANG=C.UTF-8: LANG=C.UTF-8 gives LC_CTYPE C.UTF-8
filesystem          utf-8/surrogateescape       locale: the locale encoding of LC_CTYPE C.UTF-8
stdin               iso8859-1/strict            PYTHONIOENCODING=latin-1: PYTHONIOENCODING comes first
stdout              iso8859-1/strict            PYTHONIOENCODING=latin-1: PYTHONIOENCODING comes first
stderr              iso8859-1/backslashreplace  PYTHONIOENCODING=latin-1: stderr uses the stdout encoding with backslashreplace, always
open()              UTF-8/strict                locale: the locale encoding; open() is always strict
preferred encoding  UTF-8                       locale: nl_langinfo(CODESET) of LC_CTYPE
child processes     inherit the environment     default: nothing is exported: UTF-8 mode reaches a child only through PYTHONUTF8 or -X utf8 on its own command line

ok

note    Python 3.15 turns UTF-8 mode on by default (PEP 686); here that changes utf8_mode off -> on
        - for Python 3.8

note    an undecodable file name (b'caf\\xc3\\xa9-\\xff') printed by print(os.listdir()) raises UnicodeEncodeError on Python 3.8
        - Python 3.8: filesystem utf-8/surrogateescape, stdout iso8859-1/strict
"""


@pytest.mark.fast
@pytest.mark.parametrize("version", ["3.8", "3.15"])
@pytest.mark.parametrize("code_page", ["1252", "932"])
def test_explain_on_windows_names_no_undecodable_file_name(version, code_page):
    with open(os.path.join(EXPECTED, "win32-%s-cp%s.text" % (version, code_page)),
              encoding="utf-8") as f:
        want = f.read()
    assert _utf8env("explain", "--version", version, "--platform", "win32", "--code-page",
                    code_page, "--empty-env") == (0, want, "")


@pytest.mark.fast
def test_explain_json_on_windows_has_the_same_note_or_none():
    import json
    code, out, err = _utf8env("explain", "--version", "3.15", "--platform", "win32",
                              "--code-page", "1252", "--empty-env", "--json")
    assert (code, err, json.loads(out)["findings"]) == (0, "", [])
    code, out, err = _utf8env("explain", "--version", "3.8", "--platform", "win32",
                              "--code-page", "1252", "--empty-env", "--json")
    assert (code, err) == (0, "")
    assert [f for f in json.loads(out)["findings"] if f["code"] == "names"] == [{
        "code": "names", "severity": "note",
        "title": "a file name outside the code page ('caf\\xe9-\\u65e5\\u672c') printed by "
                 "print(os.listdir()) raises UnicodeEncodeError on Python 3.8",
        "evidence": ["Python 3.8: filesystem utf-8/surrogatepass, stdout "
                     "cp1252/surrogateescape"],
        "shared": None, "fixes": []}]


@pytest.mark.fast
def test_linux_keeps_the_undecodable_name_note():
    assert _utf8env("explain", "--version", "3.8", "--platform", "linux", "--locales",
                    "C.UTF-8", "--empty-env", "--env", "LANG=C.UTF-8", "--env",
                    "PYTHONIOENCODING=latin-1") == (0, LINUX_3_8_LATIN1_STDOUT, "")


# -- Measured under Wine ------------------------------------------------------------------

# The cells: 3.8 and 3.13 (the oldest and newest builds), code pages 1252 and 932, without
# UTF-8 mode and with -X utf8 (what 3.15 turns on by default: no 3.15 build exists yet).
NAME_CELLS = [(v, cp, opts) for v in ("3.8", "3.13") for cp in (1252, 932)
              for opts in ((), ("-X", "utf8"))]
# Runs inside python.exe: a folder holding the one name, listed and printed.
LIST_NAME = r'''
import os, sys, tempfile
d = tempfile.mkdtemp()
open(os.path.join(d, %r), "w").close()
try:
    print(os.listdir(d))
finally:
    os.remove(os.path.join(d, os.listdir(d)[0]))
    os.rmdir(d)
''' % WINDOWS_NAME

OK, WHY = wine.available(versions=("3.8", "3.13"), code_pages=(1252, 932))


@pytest.fixture(scope="module")
def wine_session():
    if not OK:
        pytest.skip(WHY)
    with wine.Session() as session:
        yield session


def _model(version, code_page, options):
    inputs = Inputs(environ={}, args=tuple(options) + ("-c", "..."), version=version,
                    platform="win32", ansi_code_page=code_page)
    return decide(inputs)


@pytest.mark.skipif(not OK, reason=WHY)
@pytest.mark.parametrize("cell", NAME_CELLS, ids=lambda c: "%s-cp%d-%s" % (
    c[0], c[1], "utf8" if c[2] else "none"))
def test_printing_a_listed_name_is_what_the_model_says(wine_session, cell):
    version, code_page, options = cell
    status, out, err = wine.run(version, code_page, list(options) + ["-c", LIST_NAME])
    d = _model(version, code_page, options)
    predicted = outcome(d).names
    if predicted == "fails":
        assert (status, out) == (1, b"")
        assert err.splitlines()[-1].startswith(b"UnicodeEncodeError: ")
    else:
        assert predicted == "round-trip"
        assert (status, out, err) == (
            0, ("[%r]\r\n" % WINDOWS_NAME).encode(d.stdout.encoding), b"")
    # UTF-8 mode (3.15's default) prints it; no code page of these holds it.
    assert predicted == ("round-trip" if options else "fails")
