"""The release's artifacts, built by tools/release.py once per test process for every
module that checks or installs them (tests/test_release.py, tests/test_install_matrix.py).

The tools (ziglang, auditwheel, twine, readme_renderer, pinned in
tools/release-requirements.txt) are the venv tests/setup.sh makes in TOOLS_VENV, and zig's
cache is ZIG_CACHE (setup.sh fills it): a build then takes seconds."""
import os
import subprocess
import sys

import pytest

from . import install, machine

RELEASE = os.path.join(install.TOOLS, "release.py")
TOOLS_VENV = "/var/cache/utf8env/release-tools"
ZIG_CACHE = "/var/cache/utf8env/zig"
_built = []


def environ(work):
    """pip's environment without this machine's configuration, with a HOME, TMPDIR and
    cache of its own under `work`."""
    env = install.pip_environ(HOME=os.path.join(work, "home"), TMPDIR=os.path.join(work, "tmp"),
                              XDG_CACHE_HOME=os.path.join(work, "cache"))
    for name in ("HOME", "TMPDIR", "XDG_CACHE_HOME"):
        os.makedirs(env[name], exist_ok=True)
    return env


def build(tmp_path_factory):
    """(the release command's status, stdout, stderr, the folder it built), the same for
    every caller of this process; a skip where the tools' venv is missing."""
    if not os.path.exists(os.path.join(TOOLS_VENV, "bin", "python")):
        pytest.skip("no venv of the release tools in %s (%s makes it)"
                    % (TOOLS_VENV, machine.SETUP))
    if not _built:
        work = str(tmp_path_factory.mktemp("release"))
        dist = os.path.join(work, "dist")
        env = dict(environ(work), ZIG_GLOBAL_CACHE_DIR=ZIG_CACHE)
        result = subprocess.run([sys.executable, RELEASE, dist, "--tools", TOOLS_VENV], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                universal_newlines=True)
        _built.append((result.returncode, result.stdout, result.stderr, dist))
    return _built[0]


def folder(built):
    """The folder of a build that succeeded (else the test fails, saying why)."""
    status, _, stderr, dist = built
    if status != 0:
        pytest.fail("tools/release.py failed (status %d):\n%s" % (status, stderr), pytrace=False)
    return dist
