"""`utf8env fix`: the call sites found in a corpus of small sources (every call kind, the
hard layouts), the --write output byte for byte (re-parsed, and a second run finds
nothing to fix), the file encodings and newlines kept, the files left alone, the exit
statuses, the same answers from CPython 3.6 and 3.13, and the behaviour the fix buys: the
same bytes written with UTF-8 mode off and on (PEP 686)."""
import ast
import os
import shutil
import subprocess
import sys

import pytest

from support import machine
from utf8env._cli import main

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")

CALLS = r"""import configparser
import fileinput
import io
import os
import subprocess as sp
import tempfile
from pathlib import Path
from subprocess import check_output

f = open("a.txt", "w")
g = open("a.txt", 'rb')
h = open(name, mode)
open(name, "r", -1, None)
open(name, encoding="latin-1")
open(name, **options)
open(*arguments)
data = open(open("list").read().strip()).read()
io.open(name, "a")
sp.run(["ls"], text=True)
sp.run(["ls"], capture_output=True)
sp.Popen(["ls"], stdout=sp.PIPE, universal_newlines=True, encoding="utf-8")
check_output(["ls"], universal_newlines=True,)
sp.call(command, text=flag)
os.popen("ls")
os.fdopen(3, "w")
tempfile.NamedTemporaryFile("w+")
tempfile.TemporaryFile()
tempfile.SpooledTemporaryFile(100, "w")
fileinput.input(files)
fileinput.FileInput(files, mode="rb")
parser = configparser.ConfigParser()
parser.read("setup.cfg")
Path("x").read_text()
Path("x").write_text(u"caf\u00e9")
config_path.read_text("utf-8")
(Path("x") / "y").open()
io.TextIOWrapper(raw)
print(f"{open('x').read()}")
resources.read_text(package, "data.txt")
archive.open("member")


def copy(source: Path, tmp_path):
    (tmp_path / "a").write_text(source.read_text())
    source.open("w")
"""

CALLS_FIXED = r"""import configparser
import fileinput
import io
import os
import subprocess as sp
import tempfile
from pathlib import Path
from subprocess import check_output

f = open("a.txt", "w", encoding="utf-8")
g = open("a.txt", 'rb')
h = open(name, mode)
open(name, "r", -1, None)
open(name, encoding="latin-1")
open(name, **options)
open(*arguments)
data = open(open("list", encoding="utf-8").read().strip(), encoding="utf-8").read()
io.open(name, "a", encoding="utf-8")
sp.run(["ls"], text=True, encoding="utf-8")
sp.run(["ls"], capture_output=True)
sp.Popen(["ls"], stdout=sp.PIPE, universal_newlines=True, encoding="utf-8")
check_output(["ls"], universal_newlines=True, encoding="utf-8",)
sp.call(command, text=flag)
os.popen("ls")
os.fdopen(3, "w", encoding="utf-8")
tempfile.NamedTemporaryFile("w+", encoding="utf-8")
tempfile.TemporaryFile()
tempfile.SpooledTemporaryFile(100, "w", encoding="utf-8")
fileinput.input(files, encoding="utf-8")
fileinput.FileInput(files, mode="rb")
parser = configparser.ConfigParser()
parser.read("setup.cfg", encoding="utf-8")
Path("x").read_text(encoding="utf-8")
Path("x").write_text(u"caf\u00e9", encoding="utf-8")
config_path.read_text("utf-8")
(Path("x") / "y").open(encoding="utf-8")
io.TextIOWrapper(raw, encoding="utf-8")
print(f"{open('x').read()}")
resources.read_text(package, "data.txt")
archive.open("member")


def copy(source: Path, tmp_path):
    (tmp_path / "a").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    source.open("w", encoding="utf-8")
"""

LAYOUT = """import subprocess
with open(
    "x",
    "w",  # write
) as f:
    pass
with open("x",
          "w"  # the mode
          ) as f:
    pass
with open("x", "w",
          # a comment before the parenthesis
          ) as f:
    pass
subprocess.run(
    ["ls"],
    text=True,
    check=True,
)
lines = open("x").readlines(); other = open("y")
if True:
\thandle = open(name,
\t              "r",)
"""

LAYOUT_FIXED = """import subprocess
with open(
    "x",
    "w",  # write
    encoding="utf-8",
) as f:
    pass
with open("x",
          "w", encoding="utf-8"  # the mode
          ) as f:
    pass
with open("x", "w",
          # a comment before the parenthesis
          encoding="utf-8",
          ) as f:
    pass
subprocess.run(
    ["ls"],
    text=True,
    check=True,
    encoding="utf-8",
)
lines = open("x", encoding="utf-8").readlines(); other = open("y", encoding="utf-8")
if True:
\thandle = open(name,
\t              "r", encoding="utf-8",)
"""

LISTING = """\
./bom.py:1:1: open: text in the locale's encoding; fix: encoding="utf-8"
./calls.py:10:5: open: text in the locale's encoding; fix: encoding="utf-8"
./calls.py:12:5: open: review: the mode is not a literal: if it is a text mode, the encoding is the locale's
./calls.py:13:1: open: review: encoding=None is the locale's encoding: give the one the data is in (encoding="utf-8")
./calls.py:15:1: open: review: **kwargs may carry encoding=
./calls.py:16:1: open: review: *args may carry the encoding (open's 4th positional)
./calls.py:17:8: open: text in the locale's encoding; fix: encoding="utf-8"
./calls.py:17:13: open: text in the locale's encoding; fix: encoding="utf-8"
./calls.py:18:1: io.open: text in the locale's encoding; fix: encoding="utf-8"
./calls.py:19:1: subprocess.run: decodes its output with the locale's encoding; fix: encoding="utf-8"
./calls.py:22:1: subprocess.check_output: decodes its output with the locale's encoding; fix: encoding="utf-8"
./calls.py:23:1: subprocess.call: review: text= is not a literal: if true, the output is decoded with the locale's encoding
./calls.py:24:1: os.popen: review: os.popen has no encoding parameter: use subprocess.run(..., text=True, encoding="utf-8")
./calls.py:25:1: os.fdopen: text in the locale's encoding; fix: encoding="utf-8"
./calls.py:26:1: tempfile.NamedTemporaryFile: text in the locale's encoding; fix: encoding="utf-8"
./calls.py:28:1: tempfile.SpooledTemporaryFile: text in the locale's encoding; fix: encoding="utf-8"
./calls.py:29:1: fileinput.input: text in the locale's encoding; fix: encoding="utf-8" (fileinput's encoding= is Python 3.10+)
./calls.py:32:1: ConfigParser.read: text in the locale's encoding; fix: encoding="utf-8"
./calls.py:33:1: Path.read_text: text in the locale's encoding (likely a pathlib.Path); fix: encoding="utf-8"
./calls.py:34:1: Path.write_text: text in the locale's encoding (likely a pathlib.Path); fix: encoding="utf-8"
./calls.py:36:1: Path.open: text in the locale's encoding (likely a pathlib.Path); fix: encoding="utf-8"
./calls.py:37:1: io.TextIOWrapper: text in the locale's encoding; fix: encoding="utf-8"
./calls.py:38:10: open: review: inside an f-string: add encoding= by hand
./calls.py:44:5: Path.write_text: text in the locale's encoding (likely a pathlib.Path); fix: encoding="utf-8"
./calls.py:44:33: Path.read_text: text in the locale's encoding (likely a pathlib.Path); fix: encoding="utf-8"
./calls.py:45:5: Path.open: text in the locale's encoding (likely a pathlib.Path); fix: encoding="utf-8"
./crlf.py:2:7: subprocess.check_output: decodes its output with the locale's encoding; fix: encoding="utf-8"
./crlf.py:6:1: open: text in the locale's encoding; fix: encoding="utf-8"
./latin1.py:3:6: open: text in the locale's encoding; fix: encoding="utf-8"
./layout.py:2:6: open: text in the locale's encoding; fix: encoding="utf-8"
./layout.py:7:6: open: text in the locale's encoding; fix: encoding="utf-8"
./layout.py:11:6: open: text in the locale's encoding; fix: encoding="utf-8"
./layout.py:15:1: subprocess.run: decodes its output with the locale's encoding; fix: encoding="utf-8"
./layout.py:20:9: open: text in the locale's encoding; fix: encoding="utf-8"
./layout.py:20:40: open: text in the locale's encoding; fix: encoding="utf-8"
./layout.py:22:11: open: text in the locale's encoding; fix: encoding="utf-8"
36 call sites in 5 files open text in the locale's encoding: 29 to fix (--write), 7 to review
"""

# Small files whose bytes matter: a PEP 263 cookie (Latin-1), CRLF newlines and no final
# newline, a UTF-8 BOM, a syntax error.
LATIN1 = b'# -*- coding: latin-1 -*-\n# caf\xe9\nwith open("caf\xe9.txt", "w") as f:\n    f.write("caf\xe9")\n'
LATIN1_FIXED = (b'# -*- coding: latin-1 -*-\n# caf\xe9\nwith open("caf\xe9.txt", "w", encoding="utf-8") '
                b'as f:\n    f.write("caf\xe9")\n')
CRLF = b'import subprocess\r\nout = subprocess.check_output(\r\n    ["ls"],\r\n    text=True,\r\n)\r\nopen("x")'
CRLF_FIXED = (b'import subprocess\r\nout = subprocess.check_output(\r\n    ["ls"],\r\n    text=True,\r\n'
              b'    encoding="utf-8",\r\n)\r\nopen("x", encoding="utf-8")')
BOM = b'\xef\xbb\xbfopen("\xc3\xa9")\n'
BOM_FIXED = b'\xef\xbb\xbfopen("\xc3\xa9", encoding="utf-8")\n'
BROKEN = b'open("x")\nopen(\n'

CORPUS = {"calls.py": CALLS.encode("utf-8"), "layout.py": LAYOUT.encode("utf-8"),
          "latin1.py": LATIN1, "crlf.py": CRLF, "bom.py": BOM, "broken.py": BROKEN}
FIXED = dict(CORPUS, **{"calls.py": CALLS_FIXED.encode("utf-8"),
                        "layout.py": LAYOUT_FIXED.encode("utf-8"), "latin1.py": LATIN1_FIXED,
                        "crlf.py": CRLF_FIXED, "bom.py": BOM_FIXED})
# the parser is this Python's: the line names it
PARSER = "Python %d.%d's parser" % sys.version_info[:2]
BROKEN_LINE = ("utf8env: ./broken.py:2:5: syntax error: '(' was never closed (%s; left "
               "alone)\n" % PARSER)
REVIEW = [line for line in LISTING.splitlines() if ": review: " in line]


def _corpus(folder):
    for name, data in CORPUS.items():
        with open(os.path.join(str(folder), name), "wb") as f:
            f.write(data)


def _read(folder, name):
    with open(os.path.join(str(folder), name), "rb") as f:
        return f.read()


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    _corpus(tmp_path)
    monkeypatch.chdir(str(tmp_path))
    return tmp_path


def _fix(capsys, *words):
    status = main(["fix"] + list(words))
    out, err = capsys.readouterr()
    return status, out, err


def _syntax_error_line():
    try:
        compile(BROKEN, "broken.py", "exec")
    except SyntaxError as error:
        return "utf8env: ./broken.py:%d:%d: syntax error: %s (%s; left alone)\n" % (
            error.lineno, error.offset, error.msg, PARSER)


@pytest.mark.fast
def test_the_listing_of_the_corpus(corpus, capsys):
    assert _fix(capsys, ".") == (1, LISTING, _syntax_error_line())


@pytest.mark.fast
def test_check_exits_1_on_a_site_and_0_on_none(corpus, capsys):
    assert _fix(capsys, "--check", "calls.py")[0] == 1
    clean = corpus / "clean.py"
    clean.write_text(u'open("x", "rb")\nopen("y", encoding="utf-8")\nopen("z", "r", -1, "ascii")\n')
    assert _fix(capsys, "--check", "clean.py") == (
        0, "no call site opens text in the locale's encoding (1 file)\n", "")
    assert _fix(capsys, "clean.py")[0] == 0
    assert _fix(capsys, "calls.py")[0] == 0            # the listing: 0 whatever it finds


@pytest.mark.fast
def test_write_gives_these_bytes_that_parse_and_a_second_run_finds_nothing_to_fix(corpus, capsys):
    status, out, err = _fix(capsys, "--write", ".")
    assert (status, err) == (1, _syntax_error_line())
    assert out.splitlines()[-1] == "29 call sites fixed (encoding=\"utf-8\") in 5 files; 7 to review"
    for name in CORPUS:
        assert _read(corpus, name) == FIXED[name], name
        if name != "broken.py":
            ast.parse(FIXED[name])
    # Idempotent: nothing left to fix, the same bytes, only the sites to review.
    status, out, _ = _fix(capsys, "--write", ".")
    assert out.splitlines()[:-1] == REVIEW
    # the count is of the files edited: the one holding the sites to review is not
    assert out.splitlines()[-1] == "0 call sites fixed (encoding=\"utf-8\") in 0 files; 7 to review"
    assert all(_read(corpus, name) == FIXED[name] for name in CORPUS)


CRLF_DIFF = (b'--- crlf.py\n+++ crlf.py\n@@ -2,5 +2,6 @@\n out = subprocess.check_output(\r\n'
             b'     ["ls"],\r\n     text=True,\r\n+    encoding="utf-8",\r\n )\r\n-open("x")\n'
             b'\\ No newline at end of file\n+open("x", encoding="utf-8")\n\\ No newline at end of file\n')


def _run(folder, *words):
    return subprocess.run([sys.executable, "-m", "utf8env", "fix"] + list(words), cwd=str(folder),
                          env=dict(os.environ, PYTHONPATH=SRC), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)


@pytest.mark.fast
def test_diff_is_the_write_as_a_patch_in_each_files_bytes(corpus):
    done = _run(corpus, "--diff", "crlf.py")
    assert (done.returncode, done.stdout, done.stderr) == (1, CRLF_DIFF, b"")
    done = _run(corpus, "--diff", ".")
    assert done.returncode == 1
    assert b'+with open("caf\xe9.txt", "w", encoding="utf-8") as f:\n' in done.stdout   # Latin-1
    assert done.stderr.decode("utf-8").splitlines()[1:] == REVIEW              # after broken.py's
    assert all(_read(corpus, name) == CORPUS[name] for name in CORPUS)        # nothing written
    if shutil.which("patch"):
        patched = subprocess.run(["patch", "-s", "-p0", "--binary"], input=done.stdout,
                                 cwd=str(corpus))
        assert patched.returncode == 0
        assert all(_read(corpus, name) == FIXED[name] for name in CORPUS)


@pytest.mark.fast
def test_encoding_locale_says_it_is_python_3_10(tmp_path, capsys):
    path = tmp_path / "a.py"
    path.write_text(u'open("x", "w")\n')
    status, out, _ = _fix(capsys, "--write", "--encoding", "locale", str(path))
    assert path.read_text() == u'open("x", "w", encoding="locale")\n'
    path.write_text(u'open("x", "w")\n')
    status, out, _ = _fix(capsys, "--encoding", "locale", str(path))
    assert out.splitlines()[0] == "%s:1:1: open: text in the locale's encoding; fix: " \
        "encoding=\"locale\" (encoding=\"locale\" is Python 3.10+)" % path


_KEPT = (u'a = open("x")  # utf8env: ignore (the locale is the point)\n'
         u'b = open(  # noqa: E501, PLW1514\n'
         u'    "y")\n'
         u'c = open("z")  # noqa\n'
         u'd = open("w")  # pylint: disable=unspecified-encoding\n'
         u'e = open("v")  # noqa: E501\n'
         u'f = open("# utf8env: ignore")\n')


@pytest.mark.fast
def test_a_comment_saying_the_default_is_meant_keeps_the_call(tmp_path, capsys):
    # Ours, ruff's and pylint's codes for this rule, a bare noqa; not another code, not
    # the words inside a string.
    path = tmp_path / "a.py"
    path.write_text(_KEPT)
    status, out, _ = _fix(capsys, "--check", str(path))
    assert (status, out) == (1, (
        "{0}:6:5: open: text in the locale's encoding; fix: encoding=\"utf-8\"\n"
        "{0}:7:5: open: text in the locale's encoding; fix: encoding=\"utf-8\"\n"
        "2 call sites in 1 file open text in the locale's encoding: 2 to fix (--write), 0 to "
        "review\n").format(path))
    _fix(capsys, "--write", str(path))
    assert path.read_text() == _KEPT.replace(u'open("v")', u'open("v", encoding="utf-8")').replace(
        u'open("# utf8env: ignore")', u'open("# utf8env: ignore", encoding="utf-8")')


ENCODING_NONE = u"""import subprocess
from pathlib import Path
open(name, encoding=None)
open(name, "r", -1, None)
open(name, "rb", encoding=None)
open(name, "rb", -1, None)
subprocess.run(["ls"], text=True, encoding=None)
subprocess.run(["ls"], encoding=None)
Path(name).read_text(encoding=None)
open(name, encoding=encoding)
"""


@pytest.mark.fast
def test_encoding_none_is_the_locales_and_listed_for_review(tmp_path, capsys):
    # None is the default said aloud: in text mode, the locale's encoding; in binary
    # mode, or where None turns no text on (subprocess without text=), nothing; a name
    # may hold anything but None: its own choice.
    path = tmp_path / "a.py"
    path.write_text(ENCODING_NONE)
    review = "review: encoding=None is the locale's encoding: give the one the data is in " \
             "(encoding=\"utf-8\")"
    status, out, _ = _fix(capsys, "--check", str(path))
    assert (status, out) == (1, (
        "{0}:3:1: open: {1}\n"
        "{0}:4:1: open: {1}\n"
        "{0}:7:1: subprocess.run: {1}\n"
        "{0}:9:1: Path.read_text: {1} (likely a pathlib.Path)\n"
        "4 call sites in 1 file open text in the locale's encoding: 0 to fix (--write), 4 to "
        "review\n").format(path, review))
    status, _, _ = _fix(capsys, "--write", str(path))
    assert (status, path.read_text()) == (1, ENCODING_NONE)


@pytest.mark.fast
def test_quotes_follow_the_calls_own_strings(tmp_path, capsys):
    path = tmp_path / "a.py"
    path.write_text(u"open('x', 'w')\nopen(name)\n")
    _fix(capsys, "--write", str(path))
    assert path.read_text() == u"open('x', 'w', encoding='utf-8')\nopen(name, encoding=\"utf-8\")\n"


@pytest.mark.fast
def test_a_symlink_operand_edits_its_target_and_a_walk_skips_links(tmp_path, capsys):
    real = tmp_path / "real.py"
    real.write_text(u'open("x")\n')
    tree = tmp_path / "tree"
    tree.mkdir()
    os.symlink(str(real), str(tree / "link.py"))
    os.symlink(str(tmp_path), str(tree / "loop"))
    assert _fix(capsys, "--check", str(tree)) == (
        0, "no call site opens text in the locale's encoding (0 files)\n", "")
    link = str(tree / "link.py")
    assert _fix(capsys, "--write", link)[0] == 0
    assert os.path.islink(link) and real.read_text() == u'open("x", encoding="utf-8")\n'


@pytest.mark.fast
def test_the_walk_skips_venvs_git_caches_and_build_folders(tmp_path, capsys):
    for folder in (".git", "__pycache__", ".tox", "node_modules", "build", "env", "pkg"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "m.py").write_text(u'open("x")\n')
    (tmp_path / "env" / "pyvenv.cfg").write_text(u"home = /usr/bin\n")
    status, out, _ = _fix(capsys, str(tmp_path))
    assert out.splitlines()[0] == "%s/pkg/m.py:1:1: open: text in the locale's encoding; fix: " \
        "encoding=\"utf-8\"" % tmp_path
    assert out.splitlines()[1].startswith("1 call site in 1 file ")


@pytest.mark.fast
def test_the_mode_and_owner_are_kept(tmp_path, capsys):
    path = tmp_path / "tool.py"
    path.write_text(u'#!/usr/bin/env python3\nopen("x")\n')
    os.chmod(str(path), 0o751)
    _fix(capsys, "--write", str(path))
    assert os.stat(str(path)).st_mode & 0o7777 == 0o751
    assert os.listdir(str(tmp_path)) == ["tool.py"]        # no temporary file left


@pytest.mark.fast
@pytest.mark.parametrize("words, message", [
    (["missing.py"], "utf8env: error: fix: missing.py: no such file or directory\n"),
    (["notes.txt"], "utf8env: error: fix: notes.txt: not a Python source file (*.py, *.pyw, "
                    "*.pyi, or a script starting with a python #! line)\n"),
    ([], "utf8env: error: fix: no PATH given (usage: utf8env fix [--check | --diff | --write] "
         "[--exclude PATTERN]... [--encoding utf-8|locale] [--from REPORT.json] [--prove [--python PATH]... [--world "
         "NAME] [--timeout SECONDS]] PATH... [-- pytest ARGS...])\n"),
    (["--encoding", "latin-1", "a.py"], "utf8env: error: --encoding 'latin-1': expected one of "
                                        "utf-8, locale\n"),
    (["--check", "--write", "a.py"], "utf8env: error: argument --write: not allowed with "
                                     "argument --check\n"),
])
def test_bad_input_is_one_line_and_status_2(tmp_path, monkeypatch, capsys, words, message):
    monkeypatch.chdir(str(tmp_path))
    (tmp_path / "notes.txt").write_text(u'open("x")\n')
    (tmp_path / "a.py").write_text(u'open("x")\n')
    assert _fix(capsys, *words) == (2, "", message)
    assert (tmp_path / "a.py").read_text() == u'open("x")\n'


@pytest.mark.fast
def test_a_script_without_suffix_is_taken_and_help_has_the_statuses(tmp_path, capsys):
    script = tmp_path / "tool"
    script.write_text(u'#!/usr/bin/python3\nopen("x")\n')
    assert _fix(capsys, "--check", str(script))[0] == 1
    status, out, _ = _fix(capsys, "--help")
    assert status == 0 and "0 nothing found" in " ".join(out.split()) and "2 bad input" in out


@pytest.mark.fast
def test_an_unreadable_file_is_one_line_and_the_others_go_on(corpus, capsys, monkeypatch):
    secret = corpus / "secret.py"
    secret.write_text(u'open("x")\n')
    if os.geteuid() == 0:
        # root reads a file of mode 000: the refusal is the kernel's answer to another user.
        from utf8env._sources import edit as _edit
        real_open = open

        def refusing(path, *args, **kwargs):
            if os.path.basename(str(path)) == "secret.py":
                raise PermissionError(13, "Permission denied", str(path))
            return real_open(path, *args, **kwargs)
        monkeypatch.setattr(_edit, "open", refusing, raising=False)
    else:
        os.chmod(str(secret), 0)
    status, out, err = _fix(capsys, "--write", ".")
    assert status == 1
    assert err == _syntax_error_line() + "utf8env: ./secret.py: cannot read: Permission denied\n"
    assert out.splitlines()[-1] == "29 call sites fixed (encoding=\"utf-8\") in 5 files; 7 to review"


# -- the real interpreters ----------------------------------------------------------------------


@pytest.mark.parametrize("version", ["3.6", "3.13"])
def test_the_scanner_answers_alike_on_3_6_and_3_13(corpus, version):
    python = machine.python(version)
    done = subprocess.run([python, "-m", "utf8env", "fix", "."], cwd=str(corpus),
                          env=dict(os.environ, PYTHONPATH=SRC), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    assert done.stdout.decode("utf-8") == LISTING
    assert done.stderr.decode("utf-8").startswith("utf8env: ./broken.py:")
    done = subprocess.run([python, "-m", "utf8env", "fix", "--write", "."], cwd=str(corpus),
                          env=dict(os.environ, PYTHONPATH=SRC), stdout=subprocess.PIPE)
    assert all(_read(corpus, name) == FIXED[name] for name in CORPUS)


SAMPLE = r'''import subprocess
import sys


def main(path):
    out = subprocess.run([sys.executable, "-c",
                          "import sys; sys.stdout.buffer.write('caf\\u00e9'.encode('utf-8'))"],
                         stdout=subprocess.PIPE, text=True).stdout
    with open(path, "w") as f:
        f.write(out)


main(sys.argv[1])
'''


def _bytes_written(python, script, folder, utf8):
    target = os.path.join(str(folder), "out-%d.txt" % utf8)
    done = subprocess.run([python, "-X", "utf8=%d" % utf8, script, target],
                          env={"LC_ALL": "C", "PATH": os.environ["PATH"]},
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if done.returncode:
        return "failed: " + done.stderr.decode("utf-8", "replace").strip().splitlines()[-1]
    with open(target, "rb") as f:
        return f.read()


def test_after_the_fix_utf8_mode_off_and_on_write_the_same_bytes(tmp_path, capsys):
    python = machine.python("3.11")
    script = tmp_path / "sample.py"
    script.write_text(SAMPLE)
    before = [_bytes_written(python, str(script), tmp_path, utf8) for utf8 in (0, 1)]
    assert before[1] == u"café".encode("utf-8")
    assert before[0].startswith("failed: UnicodeDecodeError: 'ascii' codec")     # PEP 686's difference
    assert _fix(capsys, "--write", str(script))[0] == 0
    after = [_bytes_written(python, str(script), tmp_path, utf8) for utf8 in (0, 1)]
    assert after == [u"café".encode("utf-8")] * 2


# -- --from REPORT.json: the encoding readiness measured, per call site ----------------------

@pytest.mark.fast
def test_from_a_report_gives_each_site_its_measured_encoding(tmp_path, monkeypatch, capsys):
    """A handmade report (readiness --format json's keys): a group measured passing with
    "locale", a site measured passing with both (utf-8: the 3.15 behaviour), a site no
    changed test used (the default), one measured with neither passing, one not
    measured (the fixer could not edit it), and a call the report never saw."""
    import json
    (tmp_path / "m.py").write_text(
        'a = open("a")\nb = open("b", "w")\nc = open("c")\nd = open("d")\ne = open("e")\n'
        'f = open("f")\n', encoding="utf-8")

    def site(line, utf8, locale):
        return {"file": "m.py", "line": line, "fixes": [
            {"encoding": "utf-8", "means": "", "measured": utf8},
            {"encoding": "locale", "means": "", "measured": locale}]}
    report = {"call_sites": [site(1, "fails", "passes"), site(2, "passes", "passes"),
                             site(3, None, None), site(4, "changes", "fails"),
                             site(5, "not edited", "not edited")]}
    (tmp_path / "r.json").write_text(json.dumps(report), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["fix", "--from", "r.json", "--write", "m.py"]) == 1
    assert capsys.readouterr().out == (
        'm.py:1:5: open: fixed: encoding="locale" (measured: the changed tests pass in both '
        'modes with it)\n'
        'm.py:2:5: open: fixed: encoding="utf-8" (measured: the changed tests pass in both modes '
        'with it)\n'
        'm.py:3:5: open: fixed: encoding="utf-8" (warned in the tests, none changed with it)\n'
        'm.py:4:5: open: review: measured: neither fix makes the changed tests pass in both '
        'modes: not the encoding of this call (see the report)\n'
        'm.py:5:5: open: review: not measured (not edited)\n'
        'm.py:6:5: open: review: no test exercised it (not in the report): not measured\n'
        '3 call sites fixed (2 encoding="utf-8", 1 encoding="locale") in 1 file; 3 to review\n')
    assert (tmp_path / "m.py").read_text(encoding="utf-8").splitlines()[:3] == [
        'a = open("a", encoding="locale")', 'b = open("b", "w", encoding="utf-8")',
        'c = open("c", encoding="utf-8")']


@pytest.mark.fast
def test_from_refuses_what_is_not_a_report(tmp_path, capsys):
    (tmp_path / "m.py").write_text('open("a")\n', encoding="utf-8")
    (tmp_path / "r.json").write_text('{"runs": []}', encoding="utf-8")
    assert main(["fix", "--from", str(tmp_path / "r.json"), str(tmp_path / "m.py")]) == 2
    assert capsys.readouterr().err == (
        "utf8env: error: fix: --from %s: not a JSON report of `utf8env readiness --format "
        "json` (no \"call_sites\" key)\n" % (tmp_path / "r.json"))
