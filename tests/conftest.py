import os
import signal
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")
# The checkout's package, never an installed copy; support/ and the corpus beside it.
sys.path.insert(0, SRC)
sys.path.insert(0, HERE)
# pytest loads the readiness plugin (pytest11) of an installed utf8env before this file:
# a copy installed from elsewhere is then the one every test would import.
_LOADED = getattr(sys.modules.get("utf8env"), "__file__", None)
if _LOADED and not os.path.realpath(_LOADED).startswith(os.path.realpath(SRC) + os.sep):
    raise pytest.UsageError(
        "utf8env was imported from %s, not from this checkout (%s): the pytest plugin of "
        "a copy installed from elsewhere loads first; install this checkout's (bash "
        "tests/setup.sh: pip install -e .) or run with -p no:utf8env.readiness.plugin"
        % (os.path.dirname(_LOADED), SRC))

import tempfile  # noqa: E402
from itertools import count  # noqa: E402

from support import isolation, machine  # noqa: E402

_TESTS = count()


@pytest.fixture(scope="session", autouse=True)
def _session_home(tmp_path_factory):
    """A HOME and XDG_CACHE_HOME for the whole run, in place before any fixture of a
    module or the session runs (those start before a test's own HOME below): nothing a
    test starts ever writes the real ~/.cache. Its compiled locales (utf8env/locales,
    the locale worlds' cache) are shared by every test of the run, as a user's are by
    every run of theirs: localedef is slow. And, for root (chroot(2) needs it), the
    Debian chroot the suite builds is named for the product: discovery finds a chroot
    only where UTF8ENV_DEBIAN_ROOT names it."""
    home = tmp_path_factory.mktemp("session-home")
    os.makedirs(str(home / ".cache" / "utf8env" / "locales"), mode=0o700)
    # The run's own TMPDIR, for what module and session fixtures start: never the
    # machine's /tmp, where other runs (a matrix killed by SIGKILL) leave their folders.
    tmpdir = str(tmp_path_factory.mktemp("session-tmp"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(home))
        patch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
        patch.setenv("TMPDIR", tmpdir)
        patch.setattr(tempfile, "tempdir", tmpdir)
        isolation._RUN_TMPDIR[:] = [tmpdir]
        if getattr(os, "geteuid", lambda: None)() == 0:       # none on Windows
            patch.setenv("UTF8ENV_DEBIAN_ROOT", machine.CHROOT)
        yield str(home)


@pytest.fixture(scope="session", autouse=True)
def _default_signals():
    """The run's commands start with the dispositions a terminal's command has, whatever
    started the run: a background job of a script ignores SIGINT and SIGQUIT, nohup
    SIGHUP, and an ignored signal is inherited by every command a test starts (a matrix
    that ignores SIGINT, a doctor that takes itself for a command relaunched by nohup).
    Restored at the end."""
    wanted = {signal.SIGINT: signal.default_int_handler, signal.SIGQUIT: signal.SIG_DFL,
              signal.SIGHUP: signal.SIG_DFL}
    old = {signum: signal.signal(signum, handler) for signum, handler in wanted.items()}
    yield
    for signum, handler in old.items():
        signal.signal(signum, handler)


@pytest.fixture(scope="session")
def session_tmp(_session_home):
    """The TMPDIR of the run's module and session fixtures (each test has its own)."""
    return os.environ["TMPDIR"]


_GUARD = []     # the running test's isolation.Guard, while it runs


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    """A module or session fixture that a test's body starts (request.getfixturevalue)
    is made outside the test's isolation: it outlives the test."""
    if fixturedef.scope == "function" or not _GUARD:
        yield
        return
    with _GUARD[0].outside():
        yield


@pytest.fixture(autouse=True)
def _leaves_nothing(_session_home, tmp_path_factory):
    """Fails the test that leaves a process, a file in its TMPDIR, a changed signal
    disposition or mask, working folder or environment (support/isolation.py). Set up
    before and ended after every other fixture of the test (monkeypatch's undo
    included), so that it sees what the test left, not what a fixture restores."""
    guard = isolation.Guard(tmp_path_factory.mktemp("tmp"), "%d-%d" % (os.getpid(), next(_TESTS)))
    guard.enter()
    _GUARD[:] = [guard]
    yield
    del _GUARD[:]
    left = guard.leftovers()
    if left:
        pytest.fail("the test left behind:\n  " + "\n  ".join(left), pytrace=False)


@pytest.fixture(autouse=True)
def _own_home(_leaves_nothing, _session_home, tmp_path_factory, monkeypatch):
    """Each test gets its own HOME and XDG_CACHE_HOME (so the interpreter cache of a
    launched utf8env, and anything else a child keeps, lands in the test's folder and
    never in the real ~/.cache); only the compiled locales are the run's (a link)."""
    home = tmp_path_factory.mktemp("home")      # not inside tmp_path: that is the test's own
    own = home / ".cache" / "utf8env"
    os.makedirs(str(own), mode=0o700)
    try:
        os.symlink(os.path.join(_session_home, ".cache", "utf8env", "locales"), str(own / "locales"))
    except OSError:         # no symbolic links for this user (Windows): the test's own
        os.makedirs(str(own / "locales"))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))


@pytest.fixture(autouse=True)
def _tier(request):
    """A test of the fast tier may not ask for what only the full tier has (real
    interpreters, locale worlds, root, daemons): support/machine.py fails it instead."""
    machine.FAST[:] = [request.node.get_closest_marker("fast") is not None]
    yield
    machine.FAST[:] = [False]
