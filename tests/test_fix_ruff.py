"""`utf8env fix --check` beside ruff's PLW1514 (`check --preview --select PLW1514`) and
pylint's W1514 (`--disable=all --enable=unspecified-encoding`), both pinned in
tests/constraints.txt, on a pinned real tree: the http, importlib and tkinter packages of
pyenv's CPython 3.11.7 standard library (pylint takes about 25 s there, single process).
Every call either linter reports, fix lists; every call fix lists beyond one is here with
the reason. (On the whole 3.11.7 standard library, ruff's 289 findings are all among fix's
436 sites: the others are calls ruff's rule does not cover, os.fdopen, io.open,
subprocess's, os.popen, tempfile's, fileinput's, ConfigParser.read, Path methods it cannot
type, a mode that is not a literal, listed for review; and test_source_encoding.py, which
ruff cannot read: it is koi8-r.)"""
import os
import re
import subprocess
import sys

from support import machine
from utf8env._cli import main

TREES = ("http", "importlib", "tkinter")

# The sites fix lists and ruff does not (path relative to the library, line, column), why.
ONLY_FIX = {
    ("http/cookiejar.py", 1893, 14): "os.fdopen: ruff's rule does not cover it",
    ("http/cookiejar.py", 2092, 14): "os.fdopen: ruff's rule does not cover it",
    ("importlib/resources/_adapters.py", 34, 16):
        "io.TextIOWrapper with **kwargs: review (they may carry encoding=); ruff skips it",
    ("importlib/resources/simple.py", 72, 22):
        "io.TextIOWrapper with **kwargs: review (they may carry encoding=); ruff skips it",
    ("tkinter/filedialog.py", 410, 16): "open(filename, mode): review; ruff skips a mode "
                                        "that is not a literal",
    ("tkinter/filedialog.py", 426, 27): "open(filename, mode): review; ruff skips a mode "
                                        "that is not a literal",
    ("tkinter/filedialog.py", 436, 16): "open(filename, mode): review; ruff skips a mode "
                                        "that is not a literal",
    ("tkinter/test/test_tkinter/test_loadtk.py", 35, 22):
        "os.popen: review (no encoding parameter); ruff's rule does not cover it",
}
BOTH = [("http/cookiejar.py", 1801, 14), ("tkinter/__init__.py", 2390, 18),
        ("tkinter/__init__.py", 2394, 18), ("tkinter/filedialog.py", 478, 12)]


# The sites pylint reports (columns from 1, as fix's; pylint counts from 0).
PYLINT = [("http/cookiejar.py", 1801, 14), ("tkinter/__init__.py", 2390, 18),
          ("tkinter/__init__.py", 2394, 18), ("tkinter/filedialog.py", 410, 16),
          ("tkinter/filedialog.py", 426, 27), ("tkinter/filedialog.py", 436, 16),
          ("tkinter/filedialog.py", 478, 12)]
# The sites fix lists and pylint does not, why. (pylint's rule covers open, io.open and
# pathlib's open, read_text and write_text, through its inference; where a mode is a
# parameter, it takes the parameter's default: the three `open(filename, mode)` of
# filedialog.py are in both.)
ONLY_FIX_NOT_PYLINT = {
    ("http/cookiejar.py", 1893, 14): "os.fdopen: pylint's rule does not cover it",
    ("http/cookiejar.py", 2092, 14): "os.fdopen: pylint's rule does not cover it",
    ("importlib/resources/_adapters.py", 34, 16):
        "io.TextIOWrapper with **kwargs: review; pylint's rule does not cover it",
    ("importlib/resources/simple.py", 72, 22):
        "io.TextIOWrapper with **kwargs: review; pylint's rule does not cover it",
    ("tkinter/test/test_tkinter/test_loadtk.py", 35, 22):
        "os.popen: review (no encoding parameter); pylint's rule does not cover it",
}


def _sites(text, library, first_column=1):
    found = set()
    for line in text.splitlines():
        match = re.match(r"(.+?):(\d+):(\d+): ", line)
        if match and match.group(1).startswith(library + os.sep):
            found.add((os.path.relpath(match.group(1), library), int(match.group(2)),
                       int(match.group(3)) + 1 - first_column))
    return found


def _library():
    library = os.path.join(os.path.dirname(machine.python("3.11")), "..", "lib", "python3.11")
    return os.path.realpath(library)


def test_fix_lists_every_call_ruff_reports_and_says_why_it_lists_more(tmp_path, capsys):
    library = _library()
    trees = [os.path.join(library, tree) for tree in TREES]
    # cwd: tmp_path, so that no project's configuration applies; --isolated besides.
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--preview", "--select",
                           "PLW1514", "--no-cache", "--isolated", "--exit-zero",
                           "--output-format", "concise"] + trees,
                          cwd=str(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    ruff = _sites(done.stdout.decode("utf-8"), library)
    status = main(["fix", "--check"] + trees)
    out, err = capsys.readouterr()
    ours = _sites(out, library)
    assert (status, err) == (1, "")
    assert sorted(ruff) == BOTH
    assert sorted(ours - ruff) == sorted(ONLY_FIX)
    assert ruff - ours == set()


def test_fix_lists_every_call_pylint_reports_and_says_why_it_lists_more(tmp_path, capsys):
    library = _library()
    trees = [os.path.join(library, tree) for tree in TREES]
    # cwd: tmp_path and an empty rcfile, so that no configuration applies (HOME is the
    # test's own: no ~/.pylintrc either).
    rcfile = tmp_path / "pylintrc"
    rcfile.write_bytes(b"")
    done = subprocess.run([sys.executable, "-m", "pylint", "--rcfile", str(rcfile),
                           "--disable=all", "--enable=unspecified-encoding", "--score=n",
                           "--persistent=n", "--msg-template={path}:{line}:{column}: {msg_id}"]
                          + trees, cwd=str(tmp_path), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    # 4: a warning was issued (pylint's status is a bit field)
    assert done.returncode == 4, done.stderr.decode("utf-8", "replace")
    pylint = _sites(done.stdout.decode("utf-8"), library, first_column=0)
    status = main(["fix", "--check"] + trees)
    out, err = capsys.readouterr()
    ours = _sites(out, library)
    assert (status, err) == (1, "")
    assert sorted(pylint) == PYLINT
    assert sorted(ours - pylint) == sorted(ONLY_FIX_NOT_PYLINT)
    assert pylint - ours == set()
