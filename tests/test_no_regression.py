"""The no-regression corpus: a command that works without utf8env works at least as well
with it, and where UTF-8 mode changes its output, the change is the documented one.

Real programs (tests/no_regression/) x worlds x interpreters x invocations. Each cell
runs twice in its own fresh folder, once as is and once with `utf8env run --` in front
of the interpreter (the checkout's launcher as the installed command starts it, -I -S;
console scripts also through the `utf8env` command pip installed in the same venv), and
compares exit status, stdout and stderr:
- where the interpreter decides stdio, open() and the filesystem encoding by itself
  (3.7+: coercion and UTF-8 mode are native; a Latin-1 locale is no legacy locale),
  nothing may change at all;
- where utf8env gives a 3.6 what 3.7 would do (the C/POSIX locale), both sides must be
  exactly the outputs written below as data (EXPECTED, per program and regime), which
  differ only as PEP 538/540 say: stdio and open() become UTF-8 with surrogateescape,
  and the filesystem encoding becomes UTF-8 where the locale could be coerced.
"worked without, fails with" is reported as such. All cells of all worlds run in one
run_batches() call (one runner per world, sharing the cores), once per module.

Then one test per class of issue 9 that needs no corpus: signals (SIGPIPE, dispositions
and mask), the environment byte for byte through the installed command, install paths
with a space and a colon, undecodable locale names, closed stdout/stderr, hostile
PYTHON* variables with a launcher installed under 3.6.
"""
import glob
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import zipfile
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

import pytest

from support import install, machine
from utf8env import _worlds as worlds
from utf8env._own_command import own_command

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "no_regression")
WHEELS = os.path.join(os.environ.get("UTF8ENV_CACHE", "/var/cache/utf8env"), "wheels")
# Pinned: tests/setup.sh downloads the same versions (setuptools and pip meet 3.13 and
# the chroot's 3.15 only: _test_wheels, Place).
TEST_WHEELS = ("click==7.1.2", "setuptools==84.2.1", "pip==26.3")
PYRAMID = "\u2119\u01b4\u2602\u210c\u00f8\u1f24"     # PEP 538's "ℙƴ☂ℌøἤ"
CAFE = "caf\u00e9"
UNDECODABLE = b"xxx\xff"
STDIN = b"caf\xc3\xa9 \xff\n"
PATH = "/usr/bin:/bin"

# -- The matrix ---------------------------------------------------------------------------

VERSIONS = ("3.6", "3.8", "3.13", "3.15")
# name -> (locale world mounted, locale variables of the command)
WORLDS = {
    "installed": ("installed", {}),                          # env -i: the C locale, coercible
    "no-locales": ("no-locales", {}),                        # nothing to coerce to
    "LC_ALL=C": ("installed", {"LC_ALL": "C"}),              # explicit: never overridden
    "latin1": ("latin1", {"LANG": "en_US.ISO-8859-1"}),      # a real legacy 8-bit locale
}
PROGRAMS = ("hello", "argv_open", "argv_copy", "listdir", "stdin_read", "textfile",
            "threads_atexit", "grandchild", "mp_spawn", "flags", "fails", "clickapp")
ARGS = {"argv_open": [CAFE + ".txt"], "argv_copy": [CAFE + ".txt", "copie-\u00e9.txt"],
        "flags": ["x"], "clickapp": [CAFE]}
INVOCATIONS = ("script", "-c", "-m", "console", "console/installed")
# pip takes seconds a run: every world on 3.6, where utf8env changes most; two on 3.7+.
PIP_WORLDS = ("installed", "LC_ALL=C")


def _interpreters():
    """{version: Interpreter} of VERSIONS that this process can start (asked when the
    places are made: a missing one skips its cells, naming it)."""
    found = {i.version: i for i in machine.interpreters()}
    return {v: found[v] for v in VERSIONS if v in found}


class Cell(object):
    """One command shape of one interpreter in one world: `shape(place)` gives
    (prefix, command, extra files); the launcher goes between prefix and command."""

    def __init__(self, version, world, program, invocation, shape, stdin=b"", timeout=60):
        self.version, self.world, self.program, self.invocation = version, world, program, invocation
        self.shape, self.stdin, self.timeout = shape, stdin, timeout

    @property
    def id(self):
        return "%s-%s-%s-%s" % (self.version, self.world, self.program, self.invocation)


def _source(program):
    with open(os.path.join(CORPUS, "app", "nrapp", program + ".py")) as f:
        return f.read()


def _program_shapes(program):
    args = ARGS.get(program, [])
    shapes = {
        "script": lambda p: ([], [p.python, p.seen("app/nrapp/%s.py" % program)] + args),
        "-c": lambda p: ([], [p.python, "-c", _source(program)] + args),
        "-m": lambda p: ([], [p.venv_python, "-m", "nrapp." + program] + args),
        "console": lambda p: ([], [p.console(program)] + args),
        "console/installed": lambda p: ([], [p.console(program)] + args),
    }
    if program == "clickapp":   # click needs its installed package: no plain script or -c
        del shapes["script"], shapes["-c"]
    if program == "mp_spawn":   # spawn re-imports __main__: a -c program's pool hangs, always
        del shapes["-c"]
    return shapes


def _flag_shapes():
    """-O/-b and the spellings of a command line CPython accepts."""
    src = _source("flags")
    script = lambda p: p.seen("app/nrapp/flags.py")
    return {
        "-O script": lambda p: ([], [p.python, "-O", script(p), "x"]),
        "-b script": lambda p: ([], [p.python, "-b", script(p), "x"]),
        "-bb script": lambda p: ([], [p.python, "-bb", script(p), "x"]),
        "-- script": lambda p: ([], [p.python, "--", script(p), "x"]),
        "-O -c": lambda p: ([], [p.python, "-O", "-c", src, "x"]),
        "-Oc": lambda p: ([], [p.python, "-Oc", src, "x"]),
        "-bc": lambda p: ([], [p.python, "-bc", src, "x"]),
        "-cCODE": lambda p: ([], [p.python, "-c" + src, "x"]),
        "-Om": lambda p: ([], [p.venv_python, "-Om", "nrapp.flags", "x"]),
        "-sm": lambda p: ([], [p.venv_python, "-sm", "nrapp.flags", "x"]),
        "-mMOD": lambda p: ([], [p.venv_python, "-mnrapp.flags", "x"]),
    }


def _tool_shapes():
    """Stdlib tools and pip, and what Python itself says for a missing script/module."""
    listing = lambda cmd: (["/bin/sh", "-c", '"$@" && ls out', "sh"], cmd)
    return {
        # PEP 538's own example: the program text itself is non-ASCII
        ("hello-literal", "-c"): lambda p: ([], [p.python, "-c", 'print("%s")' % PYRAMID]),
        ("symlink", "script"): lambda p: ([], [p.python, p.seen("linked/link/prog.py")]),
        ("missing", "script"): lambda p: ([], [p.python, "no-such-script.py"]),
        ("missing", "-m"): lambda p: ([], [p.python, "-m", "no_such_module"]),
        ("json.tool", "-m"): lambda p: ([], [p.python, "-m", "json.tool", "data.json"]),
        ("zipfile-e", "-m"): lambda p: listing([p.python, "-m", "zipfile", "-e", "archive.zip", "out"]),
        ("pip-install", "-m"): lambda p: listing([
            p.venv_python, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
            "--no-build-isolation", "--no-cache-dir", "--disable-pip-version-check",
            "--target", "out", "./pkg-" + CAFE]),
    }


def cells():
    found = []
    for version in VERSIONS:
        for world in WORLDS:
            for program in PROGRAMS:
                stdin = STDIN if program == "stdin_read" else b""
                for invocation, shape in _program_shapes(program).items():
                    found.append(Cell(version, world, program, invocation, shape, stdin))
            for invocation, shape in _flag_shapes().items():
                found.append(Cell(version, world, "flags", invocation, shape))
            for (program, invocation), shape in _tool_shapes().items():
                if program == "pip-install" and version != "3.6" and world not in PIP_WORLDS:
                    continue
                found.append(Cell(version, world, program, invocation, shape,
                                  timeout=300 if program == "pip-install" else 60))
    return found


CELLS = cells()


# -- Where the programs live: one place per interpreter -------------------------------------

def _test_wheels(elsewhere):
    """click 7 (a test-only dependency), setuptools (3.12+ venvs have none; pip-install
    builds with it) and pip (the Debian chroot's 3.15 has no pip of its own): from
    WHEELS (tests/setup.sh fills it), else downloaded there, or into `elsewhere` where
    this user cannot write WHEELS."""
    def pattern(folder, spec):
        return os.path.join(folder, "%s-%s*.whl" % (spec.split("=")[0], spec.partition("==")[2]))
    folder = WHEELS
    if not all(glob.glob(pattern(WHEELS, spec)) for spec in TEST_WHEELS):
        try:
            os.makedirs(WHEELS, exist_ok=True)
        except OSError:
            pass
        if not os.access(WHEELS, os.W_OK):
            folder = elsewhere
    found = {}
    for spec in TEST_WHEELS:
        name = spec.split("=")[0]
        if not glob.glob(pattern(folder, spec)):
            subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                            "--only-binary=:all:", "-d", folder, spec], check=True,
                           stdout=subprocess.DEVNULL)
        found[name] = sorted(glob.glob(pattern(folder, spec)))[-1]
    return found


def _run(argv, **kw):
    result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)
    assert result.returncode == 0, (argv, result.stdout.decode(errors="replace"))
    return result


class Place(object):
    """The corpus copied for one interpreter: host paths (`host`) and the paths the
    command sees (`seen`), equal on the host and inside the chroot for 3.15."""

    def __init__(self, interp, host_base, wheels):
        self.version, self.root = interp.version, interp.root
        self.chroot = interp.argv[:-1]          # [] or [chroot, ROOT]
        self.host_base = host_base
        self.base = host_base if self.root == "/" else "/" + os.path.relpath(host_base, self.root)
        self.python = interp.argv[-1]
        venv = self.seen("venv")
        self.venv_python = venv + "/bin/python"
        self.home = self.seen("home")
        os.makedirs(self.host("home"))
        for folder in ("app", "linked", "tinypkg"):
            shutil.copytree(os.path.join(CORPUS, folder), self.host(folder),
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
        os.makedirs(self.host("linked/link"))
        os.symlink("../real/prog.py", self.host("linked/link/prog.py"))
        if self.root == "/":
            self.launcher = own_command() + ["run", "--"]
            _run([self.python, "-m", "venv", self.host("venv")])
            install_with = [self.host("venv/bin/python"), "-m", "pip"]
        else:
            # The checkout's package copied into the chroot, started the way own_command()
            # starts it, by the chroot's own interpreter.
            shutil.copytree(os.path.join(os.path.dirname(HERE), "src", "utf8env"),
                            self.host("src/utf8env"), ignore=shutil.ignore_patterns("__pycache__"))
            self.launcher = own_command(self.python)[:-1] + [self.seen("src"), "run", "--"]
            _run(self.chroot + [self.python, "-m", "venv", "--without-pip", venv])
            pip = self.host(os.path.basename(wheels["pip"]))
            shutil.copy(wheels["pip"], pip)
            install_with = self.chroot + [self.venv_python, self.seen(os.path.basename(pip)) + "/pip"]
        packages = [wheels["click"], wheels["nrapp"], wheels["utf8env"]]
        if self.root != "/":
            packages.append(wheels["pip"])
        if self.version not in ("3.6", "3.8"):
            packages.append(wheels["setuptools"])
        for wheel in packages:
            shutil.copy(wheel, self.host(os.path.basename(wheel)))
        _run(install_with + ["install", "-q", "--no-index", "--no-deps", "--no-cache-dir",
                             "--disable-pip-version-check"]
             + [self.seen(os.path.basename(w)) for w in packages],
             env={"PATH": PATH, "HOME": self.host("home")})
        self.installed = [self.seen("venv/bin/utf8env"), "run", "--"]
        self.cells = 0

    def host(self, relative):
        return os.path.join(self.host_base, relative)

    def seen(self, relative):
        return self.base + "/" + relative

    def console(self, program):
        return self.seen("venv/bin/nr-" + program.replace("_", "-").replace("clickapp", "click"))

    def env(self, world):
        env = {"PATH": PATH, "HOME": self.home}
        env.update(WORLDS[world][1])
        return env

    def new_cell_dir(self, with_package):
        """A fresh working folder holding the files the programs use."""
        self.cells += 1
        relative = "cells/%d" % self.cells
        folder = os.fsencode(self.host(relative))
        os.makedirs(folder)
        for name, data in ((CAFE + ".txt", b"ok\n"), (UNDECODABLE, b""),
                           ("text.txt", PYRAMID.encode() + b"\n"),
                           ("data.json", b'{"name": "caf\xc3\xa9", "n": [1, 2]}')):
            with open(os.path.join(folder, os.fsencode(name)), "wb") as f:
                f.write(data)
        with open(os.path.join(folder, b"archive.zip"), "wb") as f:
            f.write(_archive())
        if with_package:
            shutil.copytree(self.host("tinypkg"), os.path.join(os.fsdecode(folder), "pkg-" + CAFE))
        return relative

    def job(self, argv, world, relative, stdin=b"", timeout=120):
        if self.root == "/":
            return worlds.Job(argv, self.env(world), stdin=stdin, timeout=timeout,
                              cwd=self.host(relative))
        # chroot(1) starts in /: env -C enters the folder inside, on both sides alike.
        return worlds.Job(self.chroot + ["/usr/bin/env", "-C", self.seen(relative)] + argv,
                          self.env(world), stdin=stdin, timeout=timeout)

    def prewarm(self):
        """Fill the interpreter cache (in this place's HOME) before the batches run, so
        the cells do not all write it at once."""
        for launcher in (self.launcher, self.installed):
            for python in (self.python, self.venv_python):
                subprocess.run(self.chroot + launcher + [python, "-c", "pass"],
                               env={"PATH": PATH, "HOME": self.home}, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)


@lru_cache(maxsize=None)
def _archive():
    """A zip file holding one member with a non-ASCII name (stored with the UTF-8 flag)."""
    import io
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as z:
        z.writestr(CAFE + ".txt", b"zipped\n")
    return data.getvalue()


def _nrapp_wheel(folder):
    source = os.path.join(folder, "app")
    shutil.copytree(os.path.join(CORPUS, "app"), source)
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-index",
          "--find-links", WHEELS, "--wheel-dir", folder, source])
    (wheel,) = glob.glob(os.path.join(folder, "nrapp-*.whl"))
    return wheel


@pytest.fixture(scope="module")
def places(tmp_path_factory):
    machine.worlds()
    interpreters = _interpreters()
    if not interpreters:
        pytest.skip(machine.missing(VERSIONS))
    wheels = _test_wheels(str(tmp_path_factory.mktemp("test-wheels")))
    build = str(tmp_path_factory.mktemp("wheels"))
    wheels["nrapp"] = _nrapp_wheel(build)
    wheels["utf8env"] = install.build_wheel(build)
    bases, chroot_bases = {}, []
    try:
        for version, interp in interpreters.items():
            if interp.root == "/":
                bases[version] = str(tmp_path_factory.mktemp("nr" + version))
            else:
                bases[version] = tempfile.mkdtemp(prefix="utf8env-nr-",
                                                  dir=os.path.join(interp.root, "tmp"))
                chroot_bases.append(bases[version])

        def make(version):
            place = Place(interpreters[version], bases[version], wheels)
            place.prewarm()
            return place
        with ThreadPoolExecutor(max_workers=2) as pool:
            made = dict(zip(bases, pool.map(make, list(bases))))
        yield made
    finally:
        for base in chroot_bases:
            shutil.rmtree(base, ignore_errors=True)


def _normal(result, folder):
    """(status, stdout, stderr), the cell's own folder (each side has one) named CELL."""
    folder = os.fsencode(folder)
    if result.timed_out:
        return ("timed out", result.stdout, result.stderr)
    return (result.returncode, result.stdout.replace(folder, b"CELL"),
            result.stderr.replace(folder, b"CELL"))


@pytest.fixture(scope="module")
def outcomes(places):
    """cell id -> {"direct": Run, "checkout": Run, "installed": Run}: every cell of every
    world in one run_batches() call."""
    batches, keys = {}, {}
    for cell in CELLS:
        if cell.version not in places:
            continue
        place = places[cell.version]
        prefix, command = cell.shape(place)
        mount = WORLDS[cell.world][0]
        sides = {"direct": prefix + command}
        if cell.invocation == "console/installed":
            sides = {"installed": prefix + place.installed + command}
        else:
            sides["checkout"] = prefix + place.launcher + command
        for side, argv in sides.items():
            relative = place.new_cell_dir(cell.program == "pip-install")
            jobs = batches.setdefault(mount, [])
            keys.setdefault(mount, []).append((cell.id, side, place.seen(relative)))
            jobs.append(place.job(argv, cell.world, relative, cell.stdin, cell.timeout))
    order = list(batches)
    roots = sorted({p.root for p in places.values()}, key=lambda r: (r != "/", r))
    results = worlds.run_batches([(m, batches[m]) for m in order], roots)
    found = {}
    for mount, runs in zip(order, results):
        for (cell_id, side, folder), result in zip(keys[mount], runs):
            found.setdefault(cell_id, {})[side] = _normal(result, folder)
    # console/installed has no direct run of its own: the console cell's is the same command
    for cell_id, sides in found.items():
        if cell_id.endswith("-console/installed"):
            sides["direct"] = found[cell_id[:-len("/installed")]]["direct"]
    return found


# -- What each side must print -------------------------------------------------------------

class Out(object):
    """An expected outcome: status and stdout exactly; stderr exactly, or (for a traceback,
    whose frames name paths) a part that must occur in it."""

    def __init__(self, status, stdout=b"", stderr=b"", has=None):
        self.status, self.stdout, self.stderr, self.has = status, stdout, stderr, has

    def matches(self, outcome):
        status, stdout, stderr = outcome
        if (status, stdout) != (self.status, self.stdout):
            return False
        return self.has in stderr if self.has is not None else stderr == self.stderr

    def __repr__(self):
        return "Out(%r, %r, %r)" % (self.status, self.stdout,
                                    self.stderr if self.has is None else "... %r ..." % self.has)


AS_WITHOUT = "as without"   # the launched run must print exactly what the direct run did

# Python 3.6 in the C/POSIX locale ("C": ASCII, stdin/stdout surrogateescape, open() and
# the filesystem ASCII/strict), against what utf8env gives it, as 3.7 does:
# - "utf8": the locale coerced to C.UTF-8 (so the filesystem encoding is UTF-8 from the
#   start) and UTF-8 mode (stdio UTF-8/surrogateescape, open() UTF-8);
# - "utf8-fs-ascii": no coercion possible (no UTF-8 locale, or an explicit LC_ALL=C):
#   UTF-8 mode for stdio and open(), the filesystem encoding stays ASCII (README,
#   "Python 3.6 through the launcher"): what needs it fails as it did without utf8env.
# A Latin-1 locale is no legacy locale: nothing changes. 3.7+: nothing changes.
REGIMES_36 = {"installed": "utf8", "no-locales": "utf8-fs-ascii", "LC_ALL=C": "utf8-fs-ascii"}

EXPECTED = {   # program -> regime -> Out; programs not here print the same in every regime
    "hello": {
        "C": Out(1, has=b"UnicodeEncodeError: 'ascii' codec can't encode characters in position "
                        b"0-5: ordinal not in range(128)\n"),
        "utf8": Out(0, PYRAMID.encode() + b"\n"),
        "utf8-fs-ascii": Out(0, PYRAMID.encode() + b"\n"),
    },
    "hello-literal": {
        "C": Out(1, has=b"Unable to decode the command from the command line:\n"),
        "utf8": Out(0, PYRAMID.encode() + b"\n"),
        "utf8-fs-ascii": Out(0, PYRAMID.encode() + b"\n"),
    },
    "stdin_read": {   # b"caf\xc3\xa9 \xff\n": 8 characters in ASCII, 7 in UTF-8; bytes back
        "C": Out(0, b"8 'caf\\udcc3\\udca9 \\udcff\\n'\n" + STDIN),
        "utf8": Out(0, b"7 'caf\\xe9 \\udcff\\n'\n" + STDIN),
        "utf8-fs-ascii": Out(0, b"7 'caf\\xe9 \\udcff\\n'\n" + STDIN),
    },
    "textfile": {
        "C": Out(1, has=b"UnicodeDecodeError: 'ascii' codec can't decode byte 0xe2 in position 0: "
                        b"ordinal not in range(128)\n"),
        "utf8": Out(0, b"'\\u2119\\u01b4\\u2602\\u210c\\xf8\\u1f24\\n'\n"),
        "utf8-fs-ascii": Out(0, b"'\\u2119\\u01b4\\u2602\\u210c\\xf8\\u1f24\\n'\n"),
    },
    "json.tool": {
        "C": Out(1, b"", b"'ascii' codec can't decode byte 0xc3 in position 13: ordinal not in "
                         b"range(128)\n"),
        "utf8": Out(0, b'{\n    "name": "caf\\u00e9",\n    "n": [\n        1,\n        2\n    ]\n}\n'),
        "utf8-fs-ascii": Out(0, b'{\n    "name": "caf\\u00e9",\n    "n": [\n        1,\n        2\n'
                                b'    ]\n}\n'),
    },
    "clickapp": {
        "C": Out(1, has=b"RuntimeError: Click will abort further execution because Python 3 was "
                        b"configured to use ASCII as encoding for the environment."),
        "utf8": Out(0, b"hello caf\xc3\xa9\n"),
        "utf8-fs-ascii": Out(0, b"hello caf\xc3\xa9\n"),
    },
    # The filesystem encoding: subprocess encodes argv with it, zipfile the member name.
    "grandchild": {
        "C": Out(1, has=b"UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in "
                        b"position 3: ordinal not in range(128)\n"),
        "utf8": Out(0, b"grandchild ['caf\xc3\xa9'] 'caf\\xe9'\nparent: status 0\n"),
        "utf8-fs-ascii": AS_WITHOUT,
    },
    "zipfile-e": {
        "C": Out(1, has=b"UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in "
                        b"position 7: ordinal not in range(128)\n"),
        "utf8": Out(0, b"caf\xc3\xa9.txt\n"),
        "utf8-fs-ascii": AS_WITHOUT,
    },
    "pip-install": {   # pip 18 turns the ASCII-decoded path into a URL
        "C": Out(2, has=b"UnicodeEncodeError: 'utf-8' codec can't encode characters in position "),
        "utf8": Out(0, b"__pycache__\ntinypkg-1.0-py3.6.egg-info\ntinypkg.py\n"),
        "utf8-fs-ascii": AS_WITHOUT,
    },
}


def expectation(cell):
    """(Out the direct run must match or None, Out or AS_WITHOUT for the launched run)."""
    if cell.version != "3.6" or cell.world not in REGIMES_36 or cell.program not in EXPECTED:
        return None, AS_WITHOUT
    table = EXPECTED[cell.program]
    return table["C"], table[REGIMES_36[cell.world]]


def _show(outcome):
    status, out, err = outcome
    return "status %r, stdout %r, stderr %r" % (status, out[-300:], err[-600:])


@pytest.mark.parametrize("cell", CELLS, ids=[c.id for c in CELLS])
def test_cell(cell, request):
    machine.interpreter(cell.version)       # each interpreter's cells skip on their own
    sides = request.getfixturevalue("outcomes")[cell.id]
    direct = sides["direct"]
    want_direct, want = expectation(cell)
    if want_direct is not None:   # the data describe the program as it really runs
        assert want_direct.matches(direct), "without utf8env: %s; expected %r" % (_show(direct), want_direct)
    for side in ("checkout", "installed"):
        if side not in sides:
            continue
        launched = sides[side]
        if direct[0] == 0:
            assert launched[0] == 0, "worked without, fails with (%s launcher): %s" % (
                side, _show(launched))
        if want is AS_WITHOUT:
            assert launched == direct, "%s launcher changed it:\n with:    %s\n without: %s" % (
                side, _show(launched), _show(direct))
        else:
            assert want.matches(launched), "%s launcher: %s; expected %r (without: %s)" % (
                side, _show(launched), want, _show(direct))


# -- Per class of issue 9: the launcher passes everything through ---------------------------

CHECKOUT = own_command() + ["run", "--"]


@pytest.fixture(scope="module")
def utf8env_wheel(tmp_path_factory):
    return install.build_wheel(str(tmp_path_factory.mktemp("utf8env-wheel")))


@pytest.fixture(scope="module")
def stub_wheel(tmp_path_factory):
    return install.build_wheel(str(tmp_path_factory.mktemp("stub-wheel")), launcher="sh")


class _Stubs(object):
    """The installed `utf8env run --` of venvs made by 3.6 and 3.13, each made when a test
    first asks for it (a skip where its interpreter or the compiler is missing):
    "installed", the command as built here (the compiled launcher), and "stub", the shell
    stub (where no compiler built it)."""

    def __init__(self, tmp_path_factory):
        self.tmp_path_factory, self.made, self.wheels = tmp_path_factory, {}, {}

    def wheel(self, form):
        if form not in self.wheels:
            self.wheels[form] = install.build_wheel(
                str(self.tmp_path_factory.mktemp(form + "-wheel")),
                launcher=None if form == "installed" else "sh")
        return self.wheels[form]

    def __getitem__(self, name):
        form, version = name.split("/")
        python = machine.python(version)
        if form == "installed":
            machine.compiler()      # else the wheel holds the stub
        if name not in self.made:
            wheel = self.wheel(form)
            folder = str(self.tmp_path_factory.mktemp(form + version) / "venv")
            self.made[name] = [install.venv_with(wheel, folder, python) + "/utf8env", "run", "--"]
        return self.made[name]


@pytest.fixture(scope="module")
def stubs(tmp_path_factory):
    return _Stubs(tmp_path_factory)


LAUNCHERS = ("checkout", "installed/3.6", "installed/3.13", "stub/3.6", "stub/3.13")
INSTALLED = [name for name in LAUNCHERS if name != "checkout"]


def _launcher(name, stubs):
    return CHECKOUT if name == "checkout" else stubs[name]


def _sh(command):
    return " ".join(shlex.quote(a) for a in command)


def _outcome(result):
    return (result.returncode, result.stdout, result.stderr)


def _bash(script, **kw):
    return subprocess.run(["/bin/bash", "-c", script], env={"PATH": PATH}, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, **kw)


# Signals -----------------------------------------------------------------------------------

@pytest.mark.parametrize("launcher", LAUNCHERS)
def test_sigpipe_yes_head(launcher, stubs):
    """`utf8env run -- yes | head -1` exits as `yes | head -1` does: yes dies of SIGPIPE
    (141 in the shell), silently."""
    status = '; echo "${PIPESTATUS[@]}"'
    direct = _bash("yes | head -1" + status)
    through = _bash(_sh(_launcher(launcher, stubs) + ["yes"]) + " | head -1" + status)
    assert _outcome(direct) == (0, b"y\n141 0\n", b"")
    assert _outcome(through) == _outcome(direct)


STATUS = ["/bin/grep", "-E", "^Sig(Ign|Blk):", "/proc/self/status"]
PARENTS = {   # what the parent of the launcher ignores and blocks
    "default": ((), ()),
    "ignores HUP PIPE USR1, blocks USR2 TERM": (
        (signal.SIGHUP, signal.SIGPIPE, signal.SIGUSR1), (signal.SIGUSR2, signal.SIGTERM)),
    "ignores INT QUIT XFSZ, blocks ALRM CHLD": (
        (signal.SIGINT, signal.SIGQUIT, signal.SIGXFSZ), (signal.SIGALRM, signal.SIGCHLD)),
}


def _parent(ignore, block):
    def preexec():
        # With restore_signals=False: exactly this state reaches the exec.
        for sig in (signal.SIGPIPE, signal.SIGXFSZ):
            signal.signal(sig, signal.SIG_DFL)
        for sig in ignore:
            signal.signal(sig, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_SETMASK, block)
    return preexec


@pytest.mark.parametrize("launcher", LAUNCHERS)
@pytest.mark.parametrize("parent", list(PARENTS))
def test_dispositions_and_mask_reach_the_command(parent, launcher, stubs):
    preexec = _parent(*PARENTS[parent])
    direct = subprocess.run(STATUS, env={"PATH": PATH}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=preexec, restore_signals=False)
    through = subprocess.run(_launcher(launcher, stubs) + STATUS, env={"PATH": PATH},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=preexec, restore_signals=False)
    assert direct.returncode == 0 and direct.stdout.startswith(b"SigBlk:")
    expected = direct.stdout
    if launcher == "checkout":
        # Started as `python -I -S -c` (no stub), the launcher cannot know whether SIGPIPE
        # and SIGXFSZ were ignored before CPython ignored them for itself: they get the
        # default a shell's command has (README, "Apply it").
        expected = _without_ignored(expected, (signal.SIGPIPE, signal.SIGXFSZ))
    assert _outcome(through) == (0, expected, b"")


def _without_ignored(status, signals):
    lines = []
    for line in status.split(b"\n"):
        if line.startswith(b"SigIgn:"):
            mask = int(line.split()[1], 16)
            for sig in signals:
                mask &= ~(1 << (sig - 1))
            line = b"SigIgn:\t%016x" % mask
        lines.append(line)
    return b"\n".join(lines)


# The environment ---------------------------------------------------------------------------

ODD = {"spring.profiles.active": "prod", "a-b": "1", os.fsdecode(b"n\xffame"): os.fsdecode(b"v\xfe"),
       "EMPTY": "", "with space": "x y", "X": "a=b=c", "NL": "line1\nline2"}


def _environ(result):
    assert (result.returncode, result.stderr) == (0, b"")
    return sorted(result.stdout.split(b"\0")[:-1])


def _through_the_stub(entries, cwd):
    """What the shell stub (the installed command where no C compiler built the launcher)
    passes on (README, "How the `utf8env` command starts"): a POSIX shell exports only
    variables whose names are shell identifiers, and sets PWD to the folder it runs in.
    The compiled launcher and `python -I -m utf8env` (the checkout here) pass everything."""
    kept = [e for e in entries if re.match(rb"^[A-Za-z_][A-Za-z0-9_]*=", e)
            and not e.startswith(b"PWD=")]
    return sorted(kept + [b"PWD=" + os.fsencode(cwd)])


@pytest.mark.parametrize("launcher", LAUNCHERS)
@pytest.mark.parametrize("pwd", ["absent", "wrong", "right"])
def test_environment_arrives_byte_exact(pwd, launcher, stubs, tmp_path):
    env = dict(ODD, PATH=PATH, LANG="C.UTF-8")          # not the C locale: nothing to add
    if pwd != "absent":
        env["PWD"] = "/nonexistent/elsewhere" if pwd == "wrong" else str(tmp_path)
    command = ["/usr/bin/env", "-0"]
    direct = subprocess.run(command, env=env, cwd=str(tmp_path), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    through = subprocess.run(_launcher(launcher, stubs) + command, env=env, cwd=str(tmp_path),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert b"spring.profiles.active=prod" in _environ(direct)
    expected = _environ(direct)
    if launcher.startswith("stub/"):
        expected = _through_the_stub(expected, str(tmp_path))
    assert _environ(through) == expected


@pytest.mark.parametrize("launcher", INSTALLED)
def test_variables_kept_aside_arrive_exact(launcher, stubs, tmp_path):
    # What 3.6 would read even under -I (a bad value stops it): the installed command keeps
    # them from its own interpreter, in both forms, and gives the command them back, the
    # empty value too; a variable of the launcher's own naming passes as any other when
    # nothing is kept aside.
    env = dict(ODD, PATH=PATH, LANG="C.UTF-8", PYTHONMALLOC="bogus", PYTHONHASHSEED="",
               PYTHONMALLOCSTATS=os.fsdecode(b"\xff"))
    command = ["/usr/bin/env", "-0"]
    for extra in ({}, {"UTF8ENV_HIDDEN_X": "mine"}):
        environ = dict(env, **extra)
        direct = subprocess.run(command, env=environ, cwd=str(tmp_path), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        through = subprocess.run(_launcher(launcher, stubs) + command, env=environ,
                                 cwd=str(tmp_path), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
        expected = _environ(direct)
        if launcher.startswith("stub/"):
            expected = _through_the_stub(expected, str(tmp_path))
        assert _environ(through) == expected


@pytest.mark.parametrize("launcher", LAUNCHERS)
def test_coercion_adds_lc_ctype_and_nothing_else(launcher, stubs, tmp_path):
    env = dict(ODD, PATH=PATH, LANG="C")
    command = ["/usr/bin/env", "-0"]
    direct = subprocess.run(command, env=env, cwd=str(tmp_path), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    through = subprocess.run(_launcher(launcher, stubs) + command, env=env, cwd=str(tmp_path),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    expected = sorted(_environ(direct) + [b"LC_CTYPE=C.UTF-8"])
    if launcher.startswith("stub/"):
        expected = _through_the_stub(expected, str(tmp_path))
    assert _environ(through) == expected


@pytest.mark.parametrize("form", ["installed", "stub"])
@pytest.mark.parametrize("version", ["3.6", "3.13"])
@pytest.mark.parametrize("folder", ["with space", "co:lon"])
def test_install_path_with_a_space_or_a_colon(folder, version, form, utf8env_wheel, stub_wheel,
                                              tmp_path):
    """A venv in a folder with a space; `pip install --prefix` into one with a colon (venv
    refuses such a path since 3.13); the command in each of its forms."""
    utf8env_wheel = {"installed": utf8env_wheel, "stub": stub_wheel}[form]
    interpreter = machine.python(version)
    if form == "installed":
        machine.compiler()
    place = str(tmp_path / folder)
    env = {"PATH": PATH, "LANG": "C"}
    if folder == "with space":
        python = place + "/venv/bin/python"
        utf8env = install.venv_with(utf8env_wheel, place + "/venv", interpreter) + "/utf8env"
    else:
        python = interpreter
        subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                        "--disable-pip-version-check", "--prefix", place, utf8env_wheel],
                       check=True, stdout=subprocess.DEVNULL)
        utf8env = place + "/bin/utf8env"
        # A prefix has no venv's interpreter: the command takes the pythonX.Y on PATH.
        env["PATH"] = os.path.dirname(interpreter) + ":" + PATH
    plain = subprocess.run([utf8env, "run", "--", "printf", "ok"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert _outcome(plain) == (0, b"ok", b"")
    # The venv's own Python through it: 3.6 gets its UTF-8 mode (a bootstrap on
    # PYTHONPATH, from inside the odd path), 3.13 its native coercion.
    code = "import sys; print(sys.stdout.encoding, sys.stdout.errors, '\u00e9')"
    python = subprocess.run([utf8env, "run", "--", python, "-c", code], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    expected = "utf-8 surrogateescape \u00e9\n"
    if folder == "co:lon" and version == "3.6":
        # PYTHONPATH cannot carry a folder with a colon: no bootstrap, only the coercion
        # (explain and env say so); 3.6 then has C.UTF-8's strict stdout.
        expected = "UTF-8 strict \u00e9\n"
    assert _outcome(python) == (0, expected.encode(), b"")


# Bad input: undecodable locale names, closed streams, hostile PYTHON* ----------------------

# libc treats an undecodable name as a locale that does not exist: the C locale, which
# CPython 3.7+ coerces (as python3.8 does for these same variables: LC_CTYPE=C.UTF-8).
BAD_LOCALES = {
    # A LANG naming a locale the libc lacks gets the target too (programs that ask for every
    # category would stay in C).
    "LANG=\\xe9": ({"LANG": os.fsdecode(b"\xe9")}, b"C.UTF-8|C.UTF-8|"),
    "LC_CTYPE=en_US.\\xff": ({"LC_CTYPE": os.fsdecode(b"en_US.\xff")}, b"C.UTF-8||"),
    "LC_ALL=\\xff": ({"LC_ALL": os.fsdecode(b"\xff")}, b"||\xff"),   # explicit: UTF-8 mode, no coercion
}


def _one_line_or_success(result):
    """Success with nothing on stderr, or one line `utf8env: error: ...`: never a traceback."""
    lines = result.stderr.splitlines()
    if result.returncode == 0:
        assert result.stderr == b""
    else:
        assert len(lines) == 1 and lines[0].startswith(b"utf8env: error: "), result.stderr


@pytest.mark.parametrize("case", list(BAD_LOCALES))
def test_undecodable_locale_name_run(case):
    env, expected = BAD_LOCALES[case]
    show = 'printf "%s|%s|%s" "$LC_CTYPE" "$LANG" "$LC_ALL"'
    result = subprocess.run(CHECKOUT + ["sh", "-c", show], env=dict(env, PATH=PATH),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert _outcome(result) == (0, expected, b"")


@pytest.mark.parametrize("case", list(BAD_LOCALES))
def test_undecodable_locale_name_python36_child(case):
    env, _ = BAD_LOCALES[case]
    code = "import sys; print(sys.stdout.encoding, '\u00e9')"
    result = subprocess.run(CHECKOUT + [machine.python("3.6"), "-c", code], env=dict(env, PATH=PATH),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert _outcome(result) == (0, "utf-8 \u00e9\n".encode(), b"")


@pytest.mark.parametrize("case", list(BAD_LOCALES))
@pytest.mark.parametrize("args", [["explain"], ["explain", "--json"], ["explain", "--", "sh"],
                                  ["env"], ["env", "--", "PY3.6"]])
def test_undecodable_locale_name_explain_env(case, args):
    env, _ = BAD_LOCALES[case]
    # pyenv's 3.6 where there is one; else the name, which env finds or not: either way
    # one line or success.
    py36 = machine.host_pythons().get("3.6", "python3.6")
    args = [py36 if a == "PY3.6" else a for a in args]
    result = subprocess.run(own_command() + args, env=dict(env, PATH=PATH),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _one_line_or_success(result)


def _closed(command, which, lang="C"):
    """Run `command` from a shell with stdout (`>&-`), stderr (`2>&-`) or both closed."""
    redirect = {"stdout": ">&-", "stderr": "2>&-", "both": ">&- 2>&-"}[which]
    return subprocess.run(["/bin/sh", "-c", 'exec "$@" ' + redirect, "sh"] + command,
                          env={"PATH": PATH, "LANG": lang}, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)


def test_a_file_that_is_not_executable_is_126_as_in_the_shell():
    shell = _bash("/dev/null")
    result = subprocess.run(CHECKOUT + ["/dev/null"], env={"PATH": PATH}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert shell.returncode == 126
    assert (result.returncode, result.stdout, result.stderr) == (
        126, b"", b"utf8env: error: command '/dev/null': /dev/null is not executable\n")


@pytest.mark.parametrize("name", ["tool", "python3"])
def test_an_executable_fifo_is_126_as_in_the_shell_not_a_wait(name, tmp_path):
    # Looking for a #! line must not open a FIFO: that waits for a writer, for ever (bash
    # does, when execve refuses it; dash and env(1) say 126).
    fifo = tmp_path / name
    os.mkfifo(str(fifo))
    fifo.chmod(0o755)
    shell = subprocess.run(["/bin/sh", "-c", shlex.quote(str(fifo))], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=30)
    result = subprocess.run(CHECKOUT + [str(fifo)], env={"PATH": PATH}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, timeout=30)
    assert shell.returncode == 126
    assert (result.returncode, result.stdout, result.stderr) == (
        126, b"", b"utf8env: error: command '%s': permission denied\n" % os.fsencode(str(fifo)))


@pytest.mark.parametrize("which", ["stderr", "both"])
@pytest.mark.parametrize("args,status", [
    (["no-such-command-x"], 127), (["/etc"], 126),
    (["--utf8", "2", "true"], 125), (["--policy", "pep999", "true"], 125), ([], 125),
])
def test_failure_statuses_survive_a_closed_stderr(args, status, which):
    result = _closed(own_command() + ["run"] + args, which)
    assert _outcome(result) == (status, b"", b"")


@pytest.mark.parametrize("which", ["stdout", "stderr", "both"])
@pytest.mark.parametrize("command", [
    ["true"], ["sh", "-c", "echo hi"], ["sh", "-c", "echo oops >&2; exit 3"],
    ["PY3.6", "-c", "print('\u00e9')"], ["PY3.13", "-c", "print('\u00e9')"],
    ["PY3.6", "-c", "import sys; sys.stderr.write('\u00e9')"],
])
def test_closed_streams_reach_the_command_as_they_were(command, which):
    # A UTF-8 locale: what is compared is the streams, not 3.6's C-locale stdio.
    command = [machine.python(c[2:]) if c.startswith("PY3") else c for c in command]
    direct = _closed(command, which, "C.UTF-8")
    through = _closed(CHECKOUT + command, which, "C.UTF-8")
    assert _outcome(through) == _outcome(direct)


@pytest.mark.parametrize("args", [["explain"], ["env"], ["explain", "--json"]])
def test_explain_and_env_with_a_closed_stdout(args):
    result = _closed(own_command() + args, "stdout")
    _one_line_or_success(result)
    assert result.returncode != 0     # nothing could be written: not a success


HOSTILE = {"PYTHONMALLOC": "bogus", "PYTHONHASHSEED": "bogus", "PYTHONIOENCODING": "bogus",
           "PYTHONUTF8": "bogus", "PYTHONPATH": "/nonexistent", "PYTHONSTARTUP": "/nonexistent"}


# (Not `python3.6 -I -S -m utf8env`: 3.6 reads PYTHONMALLOC before any option; only the
# installed command can keep it from its own interpreter.)
@pytest.mark.parametrize("which", INSTALLED)
def test_hostile_python_variables_reach_the_command_untouched(which, stubs):
    show = 'printf "%s|%s|%s|%s" "$PYTHONMALLOC" "$PYTHONHASHSEED" "$PYTHONIOENCODING" "$PYTHONUTF8"'
    result = subprocess.run(_launcher(which, stubs) + ["sh", "-c", show],
                            env=dict(HOSTILE, PATH=PATH, LANG="C"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert _outcome(result) == (0, b"bogus|bogus|bogus|bogus", b"")


@pytest.mark.parametrize("which", INSTALLED)
@pytest.mark.parametrize("variable", ["PYTHONMALLOC", "PYTHONHASHSEED"])
@pytest.mark.parametrize("version", ["3.6", "3.13"])
def test_hostile_python_variable_reaches_a_python_command(variable, version, which, stubs):
    """The command's own Python meets the variable exactly as it would without utf8env."""
    env = {"PATH": PATH, "LANG": "C.UTF-8", variable: "bogus"}
    command = [machine.python(version), "-c", "print('ran')"]
    direct = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    through = subprocess.run(_launcher(which, stubs) + command, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    assert direct.returncode != 0          # the variable really is hostile
    assert _outcome(through) == _outcome(direct)

