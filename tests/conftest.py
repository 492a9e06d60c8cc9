import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
# The checkout's package, never an installed copy; support/ and the corpus beside it.
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))
sys.path.insert(0, HERE)


@pytest.fixture(autouse=True)
def _own_home(tmp_path_factory, monkeypatch):
    """Each test gets its own HOME and XDG_CACHE_HOME (so the interpreter cache of a
    launched utf8env, and anything else a child keeps, lands in the test's folder and
    never in the real ~/.cache)."""
    home = tmp_path_factory.mktemp("home")      # not inside tmp_path: that is the test's own
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
