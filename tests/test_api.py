"""The documented API is exactly utf8env.__all__, and the package's top level holds
nothing undocumented."""
import os
import re

import pytest

import utf8env

# The fast tier (`python3 -m pytest -m fast`): pure, no real interpreters, worlds or daemons.
pytestmark = pytest.mark.fast

API_PAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "api.md")


def _api_section():
    with open(API_PAGE, encoding="utf-8") as f:
        text = f.read()
    return text.split("\n## The Python API\n", 1)[1].split("\n## ", 1)[0]


def test_the_api_pages_table_is_all():
    table = [line for line in _api_section().splitlines() if line.startswith("| `utf8env.")]
    documented = set()
    for row in table:
        documented.update(re.findall(r"`utf8env\.(\w+)", row.split("|")[1]))
    assert documented == set(utf8env.__all__)


def test_top_level_holds_only_the_api():
    # dir(), not vars(): on 3.7+ the engine's names are loaded on first use (PEP 562).
    public = {name for name in dir(utf8env) if not name.startswith("_")}
    modules = {name for name in public if type(getattr(utf8env, name)).__name__ == "module"}
    assert public - modules == set(utf8env.__all__) - {"__version__"}


def test_version_is_the_package_version():
    import subprocess, sys
    src = os.path.dirname(os.path.dirname(utf8env.__file__))
    out = subprocess.run([sys.executable, "-I", "-S", "-c",
                          "import sys; sys.path.insert(0, %r); from utf8env._cli import main; "
                          "sys.exit(main(['--version']))" % src],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (out.returncode, out.stdout, out.stderr) == (
        0, ("utf8env %s\n" % utf8env.__version__).encode(), b"")
