"""`utf8env fix --check` parses only the functions and classes that can hold a call
(_sources/chunks.py), and finds what a parse of the whole file finds: a chunk left out
still binds its name, a chunk that ends inside brackets or a stub inside a string makes
the whole file parsed, a name the parts left out may assign a path makes it parsed too,
an alias is searched for like the name it stands for. What it does not see: a syntax
error in a chunk left out (as in a file that cannot hold a call); --write and --diff
parse the whole file, and leave alone one that does not parse."""
import pytest

from support.fix_listing import check_one, listing
from utf8env._cli import main
from utf8env._sources import chunks as _chunks, edit as _edit, scan as _scan

pytestmark = pytest.mark.fast

_OPEN = "open: text in the locale's encoding; fix: encoding=\"utf-8\""
_PATH_OPEN = "Path.open: text in the locale's encoding (likely a pathlib.Path); fix: " \
             "encoding=\"utf-8\""
_IO_OPEN = "io.open: text in the locale's encoding; fix: encoding=\"utf-8\""

# name -> (source, the stubs of the text parsed or None (the whole file), the sites
# [(line, column, message)] `fix --check` lists)
CASES = {
    # A class left out binds the name subprocess in the module: subprocess.run there is
    # the class's (a parse without the stub would list it: an unbound name may be a
    # module imported where the scan does not see).
    "stub binds": ('''class subprocess:
    pass


def run():
    return subprocess.run(["ls"], text=True)


def read(name):
    return open(name)
''', [(1, "subprocess")], [(10, 12, _OPEN)]),
    # Methods of a class that holds a call are chunks too; decorators go with theirs.
    "methods": ('''import functools


class Store:
    """Keeps things."""

    @functools.lru_cache()
    def size(self):
        return 1

    def load(self, name):
        with open(name) as f:
            return f.read()

    async def close(self):
        return None


def unrelated():
    return [x for x in range(3)]
''', [(8, "size"), (15, "close"), (19, "unrelated")], [(12, 14, _OPEN)]),
    # A line at column 0 inside a function's brackets ends its chunk there: the text
    # after closes a bracket it never opened, so the whole file is parsed.
    "bracket": ('''def table():
    return [
1, 2]


def read(name):
    return open(name)
''', None, [(7, 12, _OPEN)]),
    # `def` at column 0 inside an f-string is no function: the pass sees the f-string.
    "f-string": ('''name = "x"
TEMPLATE = f"""
def {name}_helper():
    pass
"""


def read(path):
    return open(path)
''', [], [(9, 12, _OPEN)]),
    # A name assigned a path in a function left out: the whole file is parsed, so that
    # `config.target.open()` is the Path.open the whole file says it is.
    "path left out": ('''import pathlib


class Config:
    pass


config = Config()


def setup():
    config.target = pathlib.Path("settings.ini")


def load():
    with config.target.open() as f:
        return f.read()
''', None, [(16, 10, _PATH_OPEN)]),
    # A chain of assignments: the whole file's scan takes two passes over them (ROOT,
    # then BASE), so CONFIG is no path there, nor in the chunks' scan, whose passes for
    # the unsure names (`other` is left out) add no path name.
    "chain": ('''import pathlib


def read():
    with CONFIG.open() as f:
        return f.read()


def other():
    return 2


ROOT = pathlib.Path("settings.ini")
BASE = ROOT
CONFIG = BASE
''', [(9, "other")], []),
    # An alias is called by its own name: its calls are searched for too.
    "alias": ('''from io import open as io_open


def first(name):
    return io_open(name)


def second():
    return 2
''', [(8, "second")], [(5, 12, _IO_OPEN)]),
    # `global` in a chunk may rebind open for the whole module: never left out.
    "global": ('''def install():
    global open
    open = print


def read(name):
    return open(name)
''', [], []),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_parse_of_the_chunks_finds_what_the_whole_file_has(name, tmp_path, capsys):
    source, stubs, sites = CASES[name]
    data = source.encode()
    cut = _chunks.skeleton(data)
    wanted = _sites(source, data, whole=True)
    assert _sites(source, data) == wanted
    if stubs is None:
        # a skeleton was made and refused: it does not parse, or a name asks for the rest
        assert cut is not None
    else:
        assert (cut[1] if cut is not None else []) == stubs
    path = tmp_path / "case.py"
    path.write_bytes(data)
    assert check_one(path, capsys) == listing(path, sites)
    assert wanted == sites


def _sites(source, data, whole=False):
    return [(site.line, site.col, "%s: %s" % (site.call, site.message))
            for site in _scan.scan(source, "utf-8", data, whole=whole)]


BROKEN = '''def broken(:
    pass


def read(name):
    return open(name)
'''


def test_a_syntax_error_in_a_chunk_left_out_is_not_checked_but_write_leaves_the_file(
        tmp_path, capsys):
    path = tmp_path / "broken.py"
    path.write_bytes(BROKEN.encode())
    status = main(["fix", "--check", str(path)])
    out, err = capsys.readouterr()
    assert (status, out, err) == (1, (
        "%s:6:12: %s\n"
        "1 call site in 1 file open text in the locale's encoding: 1 to fix (--write), "
        "0 to review\n") % (path, _OPEN), "")
    status = main(["fix", "--write", str(path)])
    out, err = capsys.readouterr()
    assert status == 1
    assert out.endswith("no call site opens text in the locale's encoding (1 file)\n"), out
    assert err == "utf8env: %s:1:12: syntax error: invalid syntax (Python %d.%d's parser; " \
                  "left alone)\n" % ((path,) + _scan.sys.version_info[:2])
    assert path.read_bytes() == BROKEN.encode()


def test_a_file_with_crlf_line_breaks_keeps_its_line_numbers():
    source = "import os\r\n\r\n\r\ndef size():\r\n    return 1\r\n\r\n\r\n" \
             "def read(name):\r\n    return open(name)\r\n"
    data = source.encode()
    cut = _chunks.skeleton(data)
    assert cut[1] == [(4, "size")]
    text = _edit.decode("x.py", data).text
    assert _sites(text, data) == _sites(text, data, whole=True) == [(9, 12, _OPEN)]
