"""Windows ground truth: python.org's embeddable CPython 3.8-3.13 run under Debian's Wine.

Every cell (version x ANSI code page x setting) is one start of the real python.exe,
which measures everything at once (SNIPPET) and prints one JSON line; the table EXPECTED
holds what was measured, exactly. Wine shows what CPython's Windows code does with the
code page it is given (GetACP(), set by the Unix locale: tests/support/wine.py) and with
standard streams that are pipes. It cannot show the real Windows console: Wine's console
is not conhost (and a regular file as a standard stream fails under Wine 8.0), so no
cell here speaks for a console; "console_cp" is what GetConsoleCP()/GetConsoleOutputCP()
return with no console at all (0, 0).

Two layouts (tests/support/setup_wine.sh): "install" (the build less its ._pth file, so
it starts as an installed python.exe: the main table) and "embed" (as shipped: the ._pth
makes CPython isolated, and from 3.11 on it also ignores PYTHON* variables but for
PYTHONUTF8, which the pre-configuration reads first).

Regenerate the table: python3 tests/test_windows_groundtruth.py > /tmp/table.py
"""
import concurrent.futures
import json
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import wine  # noqa: E402

VERSIONS = wine.VERSIONS
CODE_PAGES = (1252, 932, 1251)
# name -> (extra environment, options before -c)
SETTINGS = {
    "none": ({}, []),
    "PYTHONUTF8=1": ({"PYTHONUTF8": "1"}, []),
    "-X utf8": ({}, ["-X", "utf8"]),
    "PYTHONUTF8=0": ({"PYTHONUTF8": "0"}, []),
    "PYTHONIOENCODING=utf-8": ({"PYTHONIOENCODING": "utf-8"}, []),
    "PYTHONLEGACYWINDOWSFSENCODING=1": ({"PYTHONLEGACYWINDOWSFSENCODING": "1"}, []),
}

# Runs inside the Windows python.exe; stdin, stdout and stderr are pipes. The child
# (sys.executable, no option: the environment is inherited, -X utf8 is not) prints its
# own GetACP() and "café"; child_bytes is what it wrote, child_text what the parent's
# subprocess text mode made of it.
SNIPPET = r'''
import json, locale, os, subprocess, sys, tempfile, _winapi
def enc(s):
    return None if s is None else "%s/%s" % (s.encoding, s.errors)
r = {"version": sys.version.split()[0], "acp": _winapi.GetACP(),
     "utf8_mode": sys.flags.utf8_mode, "isolated": sys.flags.isolated,
     "fs": "%s/%s" % (sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()),
     "stdin": enc(sys.stdin), "stdout": enc(sys.stdout), "stderr": enc(sys.stderr),
     "preferred": locale.getpreferredencoding(False),
     "getencoding": locale.getencoding() if hasattr(locale, "getencoding") else None}
import ctypes
k = ctypes.windll.kernel32
r["oemcp"] = k.GetOEMCP()
r["console_cp"] = [k.GetConsoleCP(), k.GetConsoleOutputCP()]
fd, path = tempfile.mkstemp()
os.close(fd)
try:
    with open(path, "w") as f:
        r["open"] = "%s/%s" % (f.encoding, f.errors)
        try:
            f.write("caf\u00e9")
            f.flush()
        except UnicodeError as e:
            r["open_error"] = type(e).__name__
    with open(path, "rb") as f:
        r["open_bytes"] = f.read().hex()
finally:
    os.remove(path)
child = "import sys, _winapi; sys.stdout.write('%d ' % _winapi.GetACP()); print('caf\u00e9')"
p = subprocess.run([sys.executable, "-c", child], capture_output=True)
r["child_status"] = p.returncode
r["child_bytes"] = p.stdout.hex()
r["child_error"] = (p.stderr.decode("ascii", "replace").strip().splitlines()[-1].split(":")[0]
                    if p.returncode else None)
try:
    r["child_text"] = subprocess.run([sys.executable, "-c", child], capture_output=True,
                                     text=True).stdout
except UnicodeError as e:
    r["child_text"] = type(e).__name__
sys.stdout.write(json.dumps(r, sort_keys=True) + "\n")
'''


def cells():
    out = [("install", v, cp, s) for v in VERSIONS for cp in CODE_PAGES for s in SETTINGS]
    # Code page 936 (zh_CN.UTF-8) works under Wine too: one setting per version.
    out += [("install", v, 936, "none") for v in VERSIONS]
    # The build as shipped, with its ._pth.
    out += [("embed", v, 1252, s) for v in VERSIONS for s in SETTINGS]
    return out


def measure(cell):
    layout, version, code_page, setting = cell
    env, options = SETTINGS[setting]
    status, out, err = wine.run(version, code_page, options + ["-c", SNIPPET], env=env,
                                layout=layout, timeout=90)
    if status != 0:
        return {"status": status, "stderr": err.decode("utf-8", "replace")[-2000:]}
    return json.loads(out.decode("ascii"))


def measure_all(workers=3):
    with wine.Session():
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            return dict(zip(cells(), pool.map(measure, cells())))


OK, WHY = wine.available(versions=VERSIONS, code_pages=CODE_PAGES + (936,))


@pytest.fixture(scope="module")
def measured():
    if not OK:
        pytest.skip(WHY)
    return measure_all()


@pytest.mark.skipif(not OK, reason=WHY)
@pytest.mark.parametrize("cell", cells(), ids=lambda c: "%s-%s-cp%d-%s" % c)
def test_cell(measured, cell):
    got = measured[cell]
    want = dict(EXPECTED[cell], version=wine.CPYTHON[cell[1]], acp=cell[2])
    assert got == want


def test_table_covers_every_cell():
    assert sorted(EXPECTED) == sorted(cells())


def _table_source(results):
    lines = ["EXPECTED = {"]
    for cell in cells():
        row = {k: v for k, v in results[cell].items() if k not in ("version", "acp")}
        lines.append("    %r: %r," % (cell, row))
    lines.append("}")
    return "\n".join(lines)


