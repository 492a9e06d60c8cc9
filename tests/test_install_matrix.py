"""The release's artifacts installed as users install them: `pip install --no-index
--find-links DIR utf8env` from the release folder (tools/release.py, built once per test
process by tests/support/release.py), into a venv of each interpreter, and with pipx.

Each place: pip picks the artifact that fits it (a new 3.6 venv's pip 18.1 knows no
manylinux2014 tag and takes the py3-none-any wheel with the shell stub; every newer pip
takes the manylinux wheel with the compiled launcher), the installed command starts
(`--version`, `run -- /bin/true`, `explain`, `doctor`), and uninstalling leaves nothing of
it. The places: pyenv's 3.6, 3.8, 3.11 and 3.13 on this machine; the Debian sid chroot's
3.14 and 3.15; Debian 11 (bullseye, glibc 2.31, the oldest release the Debian archive
still serves, older than this machine's 2.36) and Debian 12 with its own pipx, both with
no C compiler (tests/support/build_install_roots.sh builds them).

Not run here: a glibc older than 2.31 (RHEL 8's 2.28: no such root can be fetched from
Debian's archive), Alpine (musl) and aarch64 CPythons (test_release.py runs those
launchers under qemu and statically), Windows."""
import os
import re
import shutil
import subprocess
import tempfile

import pytest

from support import install, machine, threads
from support import release as release_build

VERSION = __import__("utf8env").__version__
CACHE = "/var/cache/utf8env"
MANYLINUX = ["py3-none-manylinux_2_17_x86_64", "py3-none-manylinux2014_x86_64"]
# (the place, how it is made, what pip must pick there)
CELLS = {
    "3.6": ("venv", ["py3-none-any"]),
    "3.8": ("venv", MANYLINUX),
    "3.11": ("venv", MANYLINUX),
    "3.13": ("venv", MANYLINUX),
    "3.14": ("venv", MANYLINUX),
    "3.15": ("venv", MANYLINUX),
    "debian-bullseye": ("venv", MANYLINUX),
    "debian-bookworm-pipx": ("pipx", MANYLINUX),
}
ROOTS = ("debian-bullseye", "debian-bookworm-pipx")


class Place(object):
    """An interpreter and the folder it works in: on this machine, or in a root entered
    with chroot (paths given to it are inside the root)."""

    def __init__(self, root, python, work):
        self.root, self.python, self.work = root, python, work
        self.prefix = [] if root == "/" else [shutil.which("chroot") or "/usr/sbin/chroot", root]
        home = os.path.join(work, "home")
        os.mkdir(home)
        self.env = install.pip_environ({"PATH": "/usr/bin:/bin", "LANG": "C"},
                                       HOME=self.inside(home), TMPDIR=self.inside(home))

    def inside(self, path):
        return path if self.root == "/" else "/" + os.path.relpath(path, self.root)

    def run(self, argv, env=None, check=True):
        proc = subprocess.run(self.prefix + argv, env=env or self.env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=300)
        if check and proc.returncode:
            raise AssertionError("%s: status %d\n%s" % (argv, proc.returncode,
                                                        proc.stderr.decode(errors="replace")))
        return proc


def _tags(site_packages):
    """The Tag lines of the installed wheel's WHEEL file."""
    with open(os.path.join(site_packages, "utf8env-%s.dist-info" % VERSION, "WHEEL")) as f:
        return [line.split(":", 1)[1].strip() for line in f if line.startswith("Tag:")]


def _site_packages(venv):
    (lib,) = os.listdir(os.path.join(venv, "lib"))
    return os.path.join(venv, "lib", lib, "site-packages")


def _ours(folder):
    """The names in `folder` that are utf8env's."""
    if not os.path.isdir(folder):
        return []
    return sorted(n for n in os.listdir(folder) if n.lstrip(".").startswith("utf8env"))


def _commands(place, command):
    """What the installed command answers: (status, stdout, stderr) of each."""
    seen = {}
    for key, args in (("version", ["--version"]), ("run", ["run", "--", "/bin/true"]),
                      ("explain", ["explain", "--version", "3.9", "--empty-env"]),
                      ("doctor", ["doctor", "--no-pythons"])):
        proc = place.run([place.inside(command)] + args, check=False)
        seen[key] = (proc.returncode, proc.stdout, proc.stderr)
    return seen


def _venv_cell(place, dist):
    venv = os.path.join(place.work, "venv")
    place.run([place.python, "-m", "venv", place.inside(venv)])
    python = place.inside(os.path.join(venv, "bin", "python"))
    pip = place.run([python, "-m", "pip", "--version"]).stdout.split()[1].decode()
    place.run([python, "-m", "pip", "install", "--quiet", "--no-index", "--find-links",
               place.inside(dist), "utf8env"])
    site_packages = _site_packages(venv)
    seen = dict(_commands(place, os.path.join(venv, "bin", "utf8env")), pip=pip,
                tags=_tags(site_packages))
    with open(os.path.join(venv, "bin", "utf8env"), "rb") as f:
        seen["form"] = "compiled" if f.read(4) == b"\x7fELF" else "sh"
    place.run([python, "-m", "pip", "uninstall", "--yes", "utf8env"])
    seen["left"] = _ours(os.path.join(venv, "bin")) + _ours(site_packages)
    return seen


def _pipx_cell(place, dist):
    """Debian's own pipx installs utf8env from the folder; the command is its link in
    PIPX_BIN_DIR. pip reads the folder from its environment: pipx's own calls of pip (its
    shared libraries' venv) stay offline too."""
    home, bin_folder = os.path.join(place.work, "pipx-home"), os.path.join(place.work, "pipx-bin")
    place.env.update(PIPX_HOME=place.inside(home), PIPX_BIN_DIR=place.inside(bin_folder),
                     PIP_NO_INDEX="1", PIP_FIND_LINKS=place.inside(dist))
    pipx = place.run(["pipx", "--version"]).stdout.decode().strip()
    place.run(["pipx", "install", "utf8env"])
    venv = os.path.join(home, "venvs", "utf8env")
    seen = dict(_commands(place, os.path.join(bin_folder, "utf8env")), pip="pipx " + pipx,
                tags=_tags(_site_packages(venv)), apps=_ours(bin_folder))
    with open(os.path.join(venv, "bin", "utf8env"), "rb") as f:
        seen["form"] = "compiled" if f.read(4) == b"\x7fELF" else "sh"
    place.run(["pipx", "uninstall", "utf8env"])
    seen["left"] = _ours(bin_folder) + _ours(os.path.join(home, "venvs"))
    return seen


def _interpreters():
    """{cell: (root, python)} of the cells this machine has."""
    found = {}
    for interpreter in machine.interpreters():
        if interpreter.version in CELLS and interpreter.version not in found:
            found[interpreter.version] = (interpreter.root, interpreter.argv[-1])
    for name in ROOTS:
        root = os.path.join(CACHE, name)
        if os.path.isfile(os.path.join(root, ".utf8env-ready")):
            found[name] = (root, "/usr/bin/python3")
    return found


@pytest.fixture(scope="module")
def cells(tmp_path_factory):
    """Every cell, in threads: {cell: what it gave, or the error it ended with}."""
    dist = release_build.folder(release_build.build(tmp_path_factory))
    cleanup = []

    def job(name, root, python):
        if root == "/":
            work = str(tmp_path_factory.mktemp("install-" + name))
        else:       # inside the root, which sees only its own files
            work = tempfile.mkdtemp(prefix="utf8env-test-", dir=os.path.join(root, "tmp"))
            cleanup.append(work)
        place = Place(root, python, work)
        copied = shutil.copytree(dist, os.path.join(work, "dist"))
        how = _pipx_cell if CELLS[name][0] == "pipx" else _venv_cell
        return how(place, copied)

    try:
        yield threads.outcomes({name: (job, name) + where
                                for name, where in _interpreters().items()})
    finally:
        for work in cleanup:
            shutil.rmtree(work, ignore_errors=True)


def _get(cells, name):
    if name in ROOTS:
        machine.root("chroot into %s" % name)
        if name not in cells:
            pytest.skip("no root at %s: as root, %s" % (os.path.join(CACHE, name), machine.SETUP))
    else:
        machine.interpreter(name)
    seen = cells[name]
    if isinstance(seen, Exception):
        raise seen
    return seen


@pytest.mark.parametrize("name", sorted(CELLS))
def test_pip_picks_the_artifact_that_fits_and_the_command_starts(cells, name):
    seen = _get(cells, name)
    expected = CELLS[name][1]
    assert (seen["pip"], seen["tags"], seen["form"]) == (
        seen["pip"], expected, "sh" if expected == ["py3-none-any"] else "compiled")
    if name == "3.6":
        assert seen["pip"] == "18.1"
    assert seen["version"] == (0, ("utf8env %s\n" % VERSION).encode(), b"")
    assert seen["run"] == (0, b"", b"")
    status, out, err = seen["explain"]
    assert (status, err, out.splitlines()[0]) == (0, b"", b"Python 3.9 on linux, policy 3.9")
    # What doctor finds depends on the place; that it starts and says its verdict does not.
    status, out, err = seen["doctor"]
    verdict = out.split(b"\n", 1)[0]
    assert err == b"" and ((status, verdict) in ((0, b"ok"), (1, b"1 problem")) or (
        status == 1 and re.match(br"\d+ problems\Z", verdict))), seen["doctor"]
    if CELLS[name][0] == "pipx":
        assert seen["apps"] == ["utf8env"]
    assert seen["left"] == []
