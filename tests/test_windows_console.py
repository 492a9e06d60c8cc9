"""A Windows console, measured: python.org's CPython 3.8-3.13 under Wine, its standard
streams a pseudo-terminal, against explain --console's predictions (decide() with
windows_console=True).

Started under a terminal, Wine 8 gives a Windows program a console (its own, not conhost):
GetConsoleCP() answers, isatty() is true and CPython takes the PEP 528 path
(_WindowsConsoleIO; FileIO with PYTHONLEGACYWINDOWSSTDIO=1), so what CPython decides for a
console is seen here, as it is for pipes in tests/test_windows_groundtruth.py. What the
console itself does (conhost's fonts, chcp, a real user's terminal) is Wine's, not
Windows': only CPython's choices are compared. Each cell is one start under its own
pseudo-terminal (os.openpty); the snippet writes its JSON to a file (Wine's console wraps
and decorates what reaches the terminal) and prints "café 日本", which a console
(WriteConsoleW: UTF-16) shows whole in every code page.
"""
import concurrent.futures
import json
import os
import select
import signal
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import wine  # noqa: E402

from utf8env._engine.policy import Inputs, decide  # noqa: E402
from utf8env._engine.profiles import OEM_CODE_PAGES  # noqa: E402
from utf8env._windows.wine import windows_path  # noqa: E402

VERSIONS = wine.VERSIONS
CODE_PAGES = (1252, 932)
# name -> (extra environment, options before -c)
SETTINGS = {
    "none": ({}, []),
    "PYTHONUTF8=1": ({"PYTHONUTF8": "1"}, []),
    "PYTHONUTF8=0": ({"PYTHONUTF8": "0"}, []),
    "PYTHONIOENCODING=latin-1": ({"PYTHONIOENCODING": "latin-1"}, []),
    "PYTHONLEGACYWINDOWSSTDIO=1": ({"PYTHONLEGACYWINDOWSSTDIO": "1"}, []),
}
CELLS = [(v, cp, s) for v in VERSIONS for cp in CODE_PAGES for s in SETTINGS]
TEXT = "caf\u00e9 \u65e5\u672c"

# Runs inside python.exe; argv[1]: the Windows path of the JSON it writes.
SNIPPET = r'''
import ctypes, json, locale, os, sys, tempfile
def enc(s):
    return "%s/%s" % (s.encoding, s.errors)
k = ctypes.windll.kernel32
r = {"isatty": [sys.stdin.isatty(), sys.stdout.isatty(), sys.stderr.isatty()],
     "raw": type(sys.stdout.buffer.raw).__name__,
     "console_cp": [k.GetConsoleCP(), k.GetConsoleOutputCP()],
     "utf8_mode": sys.flags.utf8_mode,
     "fs": "%s/%s" % (sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()),
     "stdin": enc(sys.stdin), "stdout": enc(sys.stdout), "stderr": enc(sys.stderr),
     "preferred": locale.getpreferredencoding(False)}
with tempfile.TemporaryFile("w") as f:
    r["open"] = enc(f)
with open(sys.argv[1], "w", encoding="ascii") as f:
    f.write(json.dumps(r, sort_keys=True))
if r["raw"] == "_WindowsConsoleIO":
    print("caf\u00e9 \u65e5\u672c")
'''


def measure(cell, folder):
    """(status, what reached the terminal, the snippet's JSON) of one start under a
    pseudo-terminal of its own."""
    version, code_page, setting = cell
    env, options = SETTINGS[setting]
    full = dict(wine.base_env(code_page), TERM="xterm", **env)
    out = os.path.join(folder, "%s-%d-%d.json" % (version, code_page, CELLS.index(cell)))
    master, slave = os.openpty()
    try:
        proc = subprocess.Popen([wine.WINE, wine.python_exe(version)] + options
                                + ["-c", SNIPPET, windows_path(out)],
                                stdin=slave, stdout=slave, stderr=slave, env=full,
                                start_new_session=True, cwd=folder)
    finally:
        os.close(slave)
    shown = b""
    try:
        while select.select([master], [], [], 90)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:             # EIO: the terminal's last writer is gone
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(master)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        status = proc.wait()
    with open(out, encoding="ascii") as f:
        return status, shown, json.load(f)


def predicted(version, code_page, setting):
    env, options = SETTINGS[setting]
    d = decide(Inputs(environ=dict(env), args=tuple(options) + ("-c", "..."), version=version,
                      platform="win32", ansi_code_page=code_page, windows_console=True))
    pair = "%s/%s"
    return {"utf8_mode": d.utf8_mode,
            "fs": pair % (d.filesystem.encoding, d.filesystem.errors),
            "stdin": pair % (d.stdin.encoding, d.stdin.errors),
            "stdout": pair % (d.stdout.encoding, d.stdout.errors),
            "stderr": pair % (d.stderr.encoding, d.stderr.errors),
            "open": pair % (d.open.encoding, d.open.errors),
            "preferred": d.preferred_encoding}


OK, WHY = wine.available(versions=VERSIONS, code_pages=CODE_PAGES)


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    if not OK:
        pytest.skip(WHY)
    folder = str(tmp_path_factory.mktemp("console"))
    with wine.Session():
        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            return dict(zip(CELLS, pool.map(lambda c: measure(c, folder), CELLS)))


@pytest.mark.skipif(not OK, reason=WHY)
@pytest.mark.parametrize("cell", CELLS, ids=lambda c: "%s-cp%d-%s" % c)
def test_a_console_is_what_explain_console_predicts(measured, cell):
    version, code_page, setting = cell
    status, shown, got = measured[cell]
    legacy = setting == "PYTHONLEGACYWINDOWSSTDIO=1"
    # A console indeed: every stream a terminal, the console's code pages answered (the
    # OEM code page that goes with the ANSI one, as the engine models them).
    oem = OEM_CODE_PAGES[code_page]
    assert (status, got["isatty"], got["console_cp"], got["raw"]) == (
        0, [True, True, True], [oem, oem], "FileIO" if legacy else "_WindowsConsoleIO")
    assert {k: got[k] for k in predicted(*cell)} == predicted(*cell)
    if not legacy:
        assert TEXT.encode("utf-8") in shown     # UTF-16 to the console: no code page loses it


@pytest.mark.fast
def test_the_cells_and_fields_compared():
    """What docs/explain.md and docs/embedded-and-windows.md say was measured."""
    assert (len(CELLS), len(predicted(*CELLS[0]))) == (60, 7)
