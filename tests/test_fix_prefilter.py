"""fixer/_prefilter.py: a file is parsed unless its bytes cannot hold a call _scan finds.
Every source below that scan finds a site in passes the filter (however its call is
spelt: through an alias, a BOM, parentheses, a comment between, a path assigned, an
attribute looped over...); the sources the filter leaves out have no site."""
import pytest

from utf8env.fixer import _prefilter, _scan

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
    "import configparser\nc = configparser.ConfigParser()\nc.read('f')\n",
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
]


@pytest.mark.parametrize("source", WITH_SITES)
def test_a_source_with_a_site_is_parsed(source):
    assert _scan.scan(source.lstrip("\ufeff")) != []      # the BOM: the decoder's
    assert _prefilter.candidate(source.encode("utf-8")) is True


@pytest.mark.parametrize("source", WITHOUT_SITES)
def test_a_source_left_out_has_no_site(source):
    assert _scan.scan(source) == []
    assert _prefilter.candidate(source.encode("utf-8")) is False
