"""_sources/prefilter.py: a file is parsed unless its bytes cannot hold a call the scan finds.
Every source below that scan finds a site in passes the filter (however its call is
spelt: through an alias, a BOM, parentheses, a comment between, a path assigned, an
attribute looped over...); the sources the filter leaves out have no site."""
import pytest

from utf8env._sources import prefilter as _prefilter, scan as _scan

pytestmark = pytest.mark.fast

WITH_SITES = [
    "open('f')\n",
    "\ufeffopen('f')\n",
    "x = (open)('f')\n",
    "x = (open  # why\n     ('f'))\n",
    "x = open \\\n    ('f')\n",
    "from io import open as o\no('f')\n",
    "import io as x\nx.open('f')\n",
    "import builtins\nbuiltins.open('f')\n",
    "import builtins as b\nb.open('f')\n",
    "x = open(f, 'rb', mode='r')\n",
    "x = open(*args, 'rb')\n",
    "x = open(f, g(encoding='y'))\n",
    "x = open(f, key=lambda encoding=1: 2)\n",
    "x = f'{open(p)}'\n",
    "x = Path(p).open()\n",
    "x = (a / b).open()\n",
    "x = (Path(a)\n     .open())\n",
    "x = config_path.open()\n",
    "p = Path(a)\nx = p.parent.open()\n",
    "p = a / b\nx = p.open()\n",
    "def f(p: Path):\n    return p.open()\n",
    "for self.p in Path(d).glob('*'):\n    x = self.p.open()\n",
    "for (p) in Path(d).glob('*'):\n    x = p.open()\n",
    "(p) = a / b\nx = p.open()\n",
    "x = \u00f1path.open()\n",
    "import os\nos.fdopen(3)\n",
    "from os import fdopen as fd\nfd(3)\n",
    "import os\nos.popen('ls')\n",
    "import io\nio.TextIOWrapper(b)\n",
    "from io import TextIOWrapper as T\nT(b)\n",
    "import tempfile\ntempfile.TemporaryFile('w')\n",
    "import tempfile\ntempfile.NamedTemporaryFile(mode='w+')\n",
    "import fileinput\nfileinput.input(f)\n",
    "import subprocess\nsubprocess.run(a, text=True)\n",
    "import subprocess as sp\nsp.check_output(a, universal_newlines = True)\n",
    "from subprocess import run as r\nr(a, errors='strict')\n",
    "import subprocess\nsubprocess.run(a, check=True)\nsubprocess.run(\n    b, text=True)\n",
    "import subprocess\nsubprocess.run(a, f(b, c(d)), text=True)\n",
    "import subprocess\nsubprocess.run(a,  # why\n    text=True)\n",
    "x = p.read_text()\n",
    "x = p.write_text(s)\n",
    # encoding=None: the locale's (listed for review)
    "x = open(f, encoding=None)\n",
    "x = open(f, encoding = None, errors='strict')\n",
    "x = open(f, 'r', -1, None)\n",
    "import io\nx = io.TextIOWrapper(b, None)\n",
    "import subprocess\nsubprocess.run(a, text=True, encoding=None)\n",
    "import configparser\nc = configparser.ConfigParser()\nc.read('f')\n",
    # strings and comments before the call, each read as the compiler does
    '"""Use open(f) to read."""\nopen(f)\n',
    "x = '''a ' '' b'''\nopen(f)\n",
    "x = 'a\\\\'\nopen(f)\n",
    "x = 'a\\\nb'\nopen(f)\n",
    "# don't\nopen(f)\n",
    "x = 1  # c\r\nopen(f)\r\n",
    "x = f'{open(p)}' 'open(q)'\n",
    "x = rf'{open(p)}'\n",
    "x = f\"it's {open(p)}\"\n",
    "x = f'{y:{w}} {open(p)}'\n",
    # a dot ending an earlier line, past a comment: a Path's open, whose mode comes first
    "x = (Path(a).  # the file.\n     open(p, 'rb'))\n",
    "x = (Path(a).  # the file\n     open(p, 'rb'))\n",
    "x = (Path(a).  # (the file)\n     open(p, 'rb'))\n",
    "x = (Path(a). \\\n     open(p, 'rb'))\n",
    # a module's open takes the mode second, a Path's first; `(io)` may be either
    "x = Path(a).open(p, 'rb')\n",
    "import io\nx = (io).open(p)\n",
    "p: Path\nx = p.open(f, 'rb')\n",
    "p: 'Path'\nx = p.open()\n",
    "p: int = Path(a)\nx = p.open()\n",
    "p: typing.Union[\n    int, Path] = Path(a)\nx = p.open()\n",
    "p = Path(a)\nq = (p)  # the same\nq.open()\n",
    "p = Path(a)\nq = r = p\nq.open()\n",
    "p = Path(a); q = p; q.open()\n",
    "q = (\n    Path(a))\nq.open()\n",
    "import tempfile\ntempfile.NamedTemporaryFile(mode, dir=d)\n",
    "import tempfile\ntempfile.NamedTemporaryFile(dir=d, **options)\n",
    "x = open(f, 'r', -1)\n",
    "from io import (\n    BytesIO,  # why\n    open as o)\no('f')\n",
    "x = Path(a).parent.open()\n",
    "x = self.path.parent.open()\n",
    "x = (p.read_text)()\n",
    "x = p . read_text ()\n",
    "f(x, y)\nq = Path(a)\nq.open()\n",
]

WITHOUT_SITES = [
    "x = 1\n",
    "def open(self):\n    pass\n",
    "# open(f) says the comment\n",
    "x = 'open(f)'\n",
    "x = open(f, encoding='utf-8')\n",
    "x = open(f, 'r', encoding=e)\n",
    "x = open(os.path.join(a, 'b'), 'rb')\n",
    "x = open(f, 'rb', buffering=0)\n",
    "x = os.open(f, os.O_RDONLY)\n",
    "x = webbrowser.open(url)\n",
    "x = items[0].open()\n",
    "x = reopen(f)\n",
    "import io\nio.TextIOWrapper(b, encoding='utf-8')\n",
    "import tempfile\ntempfile.TemporaryFile()\n",
    "import tempfile\ntempfile.mkdtemp()\n",
    "import subprocess\nsubprocess.run(a)  # text is bytes\n",
    "import subprocess\nsubprocess.run(a, check=True)\nsubprocess.run(b, stdout=f(text=1))\n"
    "x = dict(text=1)\n",
    # a line of #s after the word: a comment that could end anywhere took 2**60 tries
    "open = None  " + "#" * 60 + "\n",
    # in a docstring, a string or a comment after code
    '"""Use open(f) to read."""\n',
    "def f():\n    '''open(name) reads it; so does os.popen(c).'''\n",
    "x = 1  # then open(f)\n",
    "x = ('open(f)'\n     'p.read_text()')\n",
    "x = b'open(f)'  # io.TextIOWrapper(b)\n",
    # binary, or an encoding given by its position
    "x = open(os.path.join(a, f(b)), 'rb')\n",
    "x = open(f, mode='rb')\n",
    "x = open(f, buffering=0, mode=\"wb\")\n",
    "import io\nx = io.open(f, 'rb')\n",
    "import builtins\nx = builtins.open(f, 'wb')\n",
    "import os\nx = os.fdopen(3, 'rb')\n",
    "x = open(f, 'r', -1, 'utf-8')\n",
    "x = open(f, 'rb', encoding=None)\n",
    "x = open(f, encoding=Nonesuch)\n",
    "import io\nx = io.TextIOWrapper(b, 'utf-8')\n",
    "import tempfile\nx = tempfile.TemporaryFile('wb+')\n",
    "import tempfile\nx = tempfile.NamedTemporaryFile(dir=d, delete=False)\n",
    "import tempfile\nx = tempfile.SpooledTemporaryFile(10, dir=d)\n",
    # X.open( where X is neither a module of those nor a path
    "x = f().open('rb')\n",
    "p = q\nx = p.open('rb')\n",
    "def f(self):\n    self.open(h)\n",
    "x = {self: 1}\nself.open(h)\n",
    "opener = build_opener()\nopener.open(url)\n",
    "self.flist = None\nself.flist.open(f)\n",
    "def f(opener=None):\n    opener.open(url)\n",
    "from tokenize import open as topen\ntopen(f)\n",
    "import io\nclass TextIOWrapper(io.TextIOWrapper):\n    pass\n",
    "def read_text(self):\n    pass\n",
    "x = self.parent.open(u)\n",
    "f(opener=opener)\nopener.open(u)\n",
    "import configparser\nc = configparser.ConfigParser()\nc.read_dict(d)\n",
]


@pytest.mark.parametrize("source", WITH_SITES)
def test_a_source_with_a_site_is_parsed(source):
    assert _scan.scan(source.lstrip("\ufeff")) != []      # the BOM: the decoder's
    assert _prefilter.candidate(source.encode("utf-8")) is True


# Shapes the running Python may not parse (3.12's nested quotes, 3.14's t-strings), or
# bytes no UTF-8 decoder takes: the filter lets each through, as a scan on their own
# Python finds a call there.
PASSED = [
    b't"{open(p)}"\n',
    b'x = f"{d["k"]}" + open(p).read()\n',
    b'x = f"{d["k"]}" + "a" + open(p).read() + "b"\n',
    b"x = f'{'}' + d['\"']}' + open(p).read() + '\"'\n",
    # Shift_JIS: the second byte of \u8868 is a backslash
    "# -*- coding: shift_jis -*-\nx = '\u8868'\nopen(f)\nx = '\u8868'\n".encode("shift_jis"),
]


@pytest.mark.parametrize("data", PASSED)
def test_a_source_the_filter_cannot_read_for_sure_is_parsed(data):
    assert _prefilter.candidate(data) is True


@pytest.mark.parametrize("source", WITHOUT_SITES)
def test_a_source_left_out_has_no_site(source):
    assert _scan.scan(source) == []
    assert _prefilter.candidate(source.encode("utf-8")) is False
