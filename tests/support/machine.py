"""What this machine has for the tests, and the skip that says what is missing and how to
get it.

The suite collects and runs on any machine: a test asks for what it needs when it runs
(never at import time, never for a whole file when one test needs it), and a machine
that lacks it skips that test with one line naming the missing thing and how to get it.
Interpreters are asked one version at a time, so that a machine with some of them runs
those.

The interpreters are the ones `utf8env matrix` finds (src/utf8env/_discovery.py:
pyenv's versions, python3.N on PATH, uv's Pythons, /usr/bin/python3.N, the chroot), of
which the tests use pyenv's 3.6-3.13 and 2.7 under $(pyenv root)/versions and Debian's
3.14 and 3.15 in the chroot that tests/support/build_debian_pythons.sh builds (as root;
tests/setup.sh runs it) at CHROOT.

The fast tier (tests marked `fast`, `python3 -m pytest -m fast`) runs on any machine in
under two minutes: a fast test that asks here for a real interpreter, a locale world,
root or a namespace fails, naming what it asked for (tests/conftest.py sets FAST)."""
import os
import shutil
import subprocess
from functools import lru_cache

import pytest

from utf8env import _discovery as discovery

# Where the suite's Debian chroot is (tests/support/build_debian_pythons.sh builds it).
CHROOT = os.environ.get("UTF8ENV_DEBIAN_ROOT") or "/var/cache/utf8env/debian-sid"
FAST = [False]      # whether the running test is of the fast tier

# The pyenv versions of this machine kind (/work/shared/DESIGN.md, "Ground truth").
PYENV_VERSIONS = {"2.7": "2.7.18", "3.6": "3.6.15", "3.7": "3.7.16", "3.8": "3.8.18",
                  "3.9": "3.9.18", "3.10": "3.10.13", "3.11": "3.11.7", "3.12": "3.12.1",
                  "3.13": "3.13.0"}
CHROOT_VERSIONS = ("3.14", "3.15")
SETUP = "bash tests/setup.sh"


def _full_tier(what):
    if FAST[0]:
        pytest.fail("a test marked fast asks for %s: the fast tier is pure (no real "
                    "interpreters, worlds, root or daemons); remove its fast mark" % what,
                    pytrace=False)


def _discovered():
    """Every interpreter found, the suite's chroot searched too."""
    try:
        return discovery.interpreters(chroot=CHROOT)
    except TypeError:       # a discovery that looks for the chroot by itself
        return discovery.interpreters()


def _from_pyenv(version):
    install = "`pyenv install %s`" % PYENV_VERSIONS.get(version, version)
    if not os.environ.get("PYENV_ROOT") and not shutil.which("pyenv"):
        return "no pyenv here (install pyenv, then %s)" % install
    return "%s (none in %s/versions)" % (install, discovery.pyenv_root())


def _how_to_get(version):
    if version in CHROOT_VERSIONS:
        if not os.path.isfile(os.path.join(CHROOT, ".utf8env-ready")):
            return ("no Debian chroot at %s (as root, %s builds it; or UTF8ENV_DEBIAN_ROOT=DIR)"
                    % (CHROOT, SETUP))
        return "the Debian chroot at %s has none (as root: %s)" % (CHROOT, SETUP)
    return _from_pyenv(version)


def _not_found(version):
    """Why CPython `version` is not found here (discovery finds a chroot's only for root)."""
    if os.geteuid() != 0 and discovery._in_chroot(version, CHROOT):
        return ("not root: CPython %s is in the Debian chroot %s, and chroot needs root"
                % (version, CHROOT))
    return "no CPython %s here: %s" % (version, _how_to_get(version))


def interpreters():
    """The interpreters found that this process can start, in version order."""
    _full_tier("real interpreters")
    return _discovered()


def _found():
    return {i.version: i for i in _discovered()}


def interpreter(version):
    """The Interpreter of CPython `version` (pyenv's, or the Debian chroot's), or a skip."""
    _full_tier("CPython %s" % version)
    found = _found().get(version)
    if found is None:
        pytest.skip(_not_found(version))
    return found


def missing(versions):
    """'; '-joined reasons for each of `versions` this process cannot start, or ''."""
    found = _found()
    reasons = []
    for version in versions:
        if version not in found:
            reasons.append(_not_found(version))
    return "; ".join(reasons)


def python(version):
    """The path of CPython `version` on this host (pyenv's: not in a chroot), or a skip."""
    _full_tier("CPython %s" % version)
    if version == "2.7":
        found = discovery.python27()
    else:
        found = _found().get(version)
    if found is None or found.root != "/":
        pytest.skip("no CPython %s on this host: %s" % (version, _from_pyenv(version)))
    return found.argv[0]


def has_python(version):
    found = discovery.python27() if version == "2.7" else _found().get(version)
    return found is not None and found.root == "/"


def host_pythons():
    """{version: path} of the host interpreters found (for a test that needs any)."""
    return {v: i.argv[0] for v, i in _found().items() if i.root == "/"}


def root(what):
    """A skip unless this process is root; `what` says what needs it."""
    _full_tier("root (%s)" % what)
    if os.geteuid() != 0:
        pytest.skip("not root: %s needs root (run the suite as root to include it)" % what)


def command(name, package, what=None):
    """The path of the program `name`, or a skip naming the Debian package that has it."""
    found = shutil.which(name) or next(
        (p for p in ("/usr/sbin/" + name, "/sbin/" + name) if os.access(p, os.X_OK)), None)
    if found is None:
        pytest.skip("%s not installed%s: apt-get install %s (%s does)" % (
            name, " (%s)" % what if what else "", package, SETUP))
    return found


def compiler():
    """The C compiler and libc's headers the launcher is built with, or a skip."""
    cc = os.environ.get("CC") or shutil.which("cc")
    if not cc or not os.path.exists("/usr/include/stdlib.h"):
        pytest.skip("no C compiler or libc headers: apt-get install gcc libc6-dev (%s does)"
                    % SETUP)
    return cc


@lru_cache(maxsize=None)
def _worlds():
    from utf8env import _worlds as worlds
    return worlds.available()


def worlds():
    """A skip unless locale worlds (utf8env._worlds) can be made here."""
    _full_tier("locale worlds")
    ok, reason = _worlds()
    if not ok:
        pytest.skip("no locale worlds here: %s" % reason)


@lru_cache(maxsize=None)
def _mount_namespace():
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "--mount", "--propagation", "private", "true"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def mount_namespace(what):
    """A skip unless root can make a mount namespace here (`unshare --mount`)."""
    root(what)
    if not _mount_namespace():
        pytest.skip("unshare --mount fails here (a container without CAP_SYS_ADMIN): %s needs it"
                    % what)


def chroot():
    """The Debian chroot's folder, or a skip."""
    _full_tier("the Debian chroot")
    folder = CHROOT
    if not os.path.isfile(os.path.join(folder, ".utf8env-ready")):
        pytest.skip("no Debian chroot at %s: as root, %s (or UTF8ENV_DEBIAN_ROOT=DIR)"
                    % (folder, SETUP))
    if os.geteuid() != 0:
        pytest.skip("not root: chroot into %s needs root" % folder)
    return folder


def become_nobody(what):
    """The command prefix that runs a program as nobody, or a skip."""
    root(what)
    setpriv = command("setpriv", "util-linux", what)
    return [setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))), "src")


def json_of(version, program):
    """The JSON that `python -c PROGRAM` prints, run by this machine's Python `version`
    with this checkout's src/ on its path (its own standard library, its own parser)."""
    import json
    env = dict(os.environ, PYTHONPATH=SRC, PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([python(version), "-c", program], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, check=True)
    return json.loads(done.stdout.decode())
