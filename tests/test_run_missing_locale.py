"""`utf8env run` and `utf8env env` for a CPython 3.7+ program where LANG names a locale the
libc lacks (the usual `ENV LANG=en_US.UTF-8` of an image without the locales package), and
under LC_ALL=C, in real worlds: the program calls setlocale(LC_ALL, "") itself (as ansible
does) and starts `wc -m` as a child, and what both did is asserted byte for byte.

Without utf8env the program's own coercion exports LC_CTYPE alone: its setlocale(LC_ALL,
"") fails ("unsupported locale setting") and `wc -m` counts the 6 bytes of `café\\n`.
Through `run`, and after `eval "$(utf8env env -- COMMAND)"`, LANG gets the coercion's
target too: setlocale succeeds and wc counts 5 characters.

The worlds: pyenv's 3.7, 3.11 and 3.13 in utf8env's "latin1" world (C.UTF-8 and a Latin-1
locale compiled by localedef, named by LOCPATH: no root, and en_US.UTF-8 missing whatever
the host has); the Debian chroot's 3.14 and 3.15 in the chroot as installed (C.utf8 alone,
as in a debian image without the locales package), entered by chroot(1) as root, with
/proc bound in a private mount namespace."""
import os
import shlex
import shutil
import subprocess
import tempfile

import pytest

from support import machine
from utf8env import _worlds as worlds, probe_locales
from utf8env._own_command import own_command

# The program: its own setlocale(LC_ALL, ""), then `wc -m` as a child, of b"caf\xc3\xa9\n".
APP = """import locale, subprocess, sys
try:
    locale.setlocale(locale.LC_ALL, "")
    print("setlocale ok")
except locale.Error as error:
    print("setlocale: %s" % error)
sys.stdout.flush()
sys.exit(subprocess.call(["sh", "-c", "printf 'caf\\\\303\\\\251\\\\n' | wc -m"]))
"""
BROKEN = b"setlocale: unsupported locale setting\n6\n"
WORKS = b"setlocale ok\n5\n"
MISSING = {"LANG": "en_US.UTF-8"}

HOST_VERSIONS = ("3.7", "3.11", "3.13")
CHROOT_VERSIONS = ("3.14", "3.15")


def _printed(version):
    """What `utf8env env -- PYTHON app.py` prints under MISSING, byte for byte: the two
    variables any program gets there, and for a 3.7-3.14 the UTF-8 mode that the legacy C
    locale gave it (`run` passes -X utf8=1; 3.15 has it by default, PEP 686)."""
    out = b"export LANG=C.UTF-8\nexport LC_CTYPE=C.UTF-8\n"
    if version != "3.15":
        out += (b"export PYTHONUTF8=1\n# utf8env: PYTHONUTF8 also reaches the Pythons it "
                b"starts: `utf8env run` passes -X utf8=1, which they do not inherit\n")
    return out


def _ways(utf8env, python, app, environ):
    """{way: argv} of the program without utf8env, through run, and after eval of env's
    lines as printed; and `env` alone, to compare its lines."""
    env_words = " ".join(shlex.quote(w) for w in utf8env + ["env", "--", python, app])
    return {
        "direct": [python, app],
        "run": utf8env + ["run", "--", python, app],
        "printed": utf8env + ["env", "--", python, app],
        "env": ["sh", "-c", 'eval "$(%s)" && exec "$@"' % env_words, "sh", python, app],
    }


def _check(results, version):
    assert results["direct"] == (0, BROKEN, b""), version
    assert results["run"] == (0, WORKS, b""), version
    assert results["printed"] == (0, _printed(version), b""), version
    assert results["env"] == (0, WORKS, b""), version


# -- pyenv's 3.7, 3.11, 3.13 in a LOCPATH world --------------------------------------------

@pytest.fixture(scope="module")
def host_results(tmp_path_factory):
    """{version: {way: (status, stdout, stderr)}} for every host version found, one batch."""
    machine.worlds()
    found = {v: machine.host_pythons()[v] for v in HOST_VERSIONS if machine.has_python(v)}
    if not found:
        pytest.skip(machine.missing(HOST_VERSIONS))
    root = tmp_path_factory.mktemp("missing-locale")
    home = root / "home"
    os.makedirs(str(home / ".cache"))
    app = root / "app.py"
    app.write_text(APP)
    base = {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    jobs, keys = [], []
    for version, python in sorted(found.items()):
        for way, argv in _ways(own_command(), python, str(app), base).items():
            jobs.append(worlds.Job(argv, dict(base, **MISSING)))
            keys.append((version, way))
    # The world's own facts: C.UTF-8 there, en_US.UTF-8 not.
    jobs.append(worlds.Job(["locale", "-a"], dict(base)))
    results = worlds.run("latin1", jobs, ["/"])
    names = results[-1].stdout.split()
    assert b"C.utf8" in names and b"en_US.utf8" not in names, names
    out = {}
    for (version, way), result in zip(keys, results):
        assert not result.timed_out, (version, way)
        out.setdefault(version, {})[way] = (result.returncode, result.stdout, result.stderr)
    return out


@pytest.mark.parametrize("version", HOST_VERSIONS)
def test_a_37_plus_program_gets_a_locale_its_setlocale_and_children_can_load(version, host_results):
    machine.python(version)
    _check(host_results[version], version)


# -- the Debian chroot's 3.14 and 3.15, as installed there ----------------------------------

@pytest.fixture(scope="module")
def chroot_results():
    """{version: {way: (status, stdout, stderr)}}: the checkout copied into the chroot and
    started by the chroot's own interpreter, as own_command() starts it."""
    root = machine.chroot()
    # With /proc, as a container has it: utf8env reads the environment it was given there
    # (before its own interpreter coerced itself); chroot(1) alone leaves the chroot's
    # /proc empty. A private mount namespace binds the host's, and nothing outlives it.
    machine.mount_namespace("the chroot's /proc")
    enter = [machine.command("unshare", "util-linux"), "--mount", "--propagation", "private",
             "/bin/sh", "-c", 'mount --bind /proc "$2/proc" && exec "$@"', "sh",
             machine.command("chroot", "coreutils"), root]
    found = {}
    for version in CHROOT_VERSIONS:
        interp = {i.version: i for i in machine.interpreters()}.get(version)
        if interp is not None and interp.root == root:
            found[version] = interp
    if not found:
        pytest.skip(machine.missing(CHROOT_VERSIONS))
    listed = subprocess.run(["chroot", root, "locale", "-a"], stdout=subprocess.PIPE,
                            check=True).stdout.split()
    if b"C.utf8" not in listed or b"en_US.utf8" in listed:
        pytest.skip("the chroot %s needs C.utf8 and no en_US.utf8: it has %s" % (root, listed))
    base = tempfile.mkdtemp(prefix="utf8env-missing-locale-", dir=os.path.join(root, "tmp"))
    try:
        seen = "/" + os.path.relpath(base, root)
        shutil.copytree(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                     "src", "utf8env"), os.path.join(base, "src", "utf8env"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        os.makedirs(os.path.join(base, "home", ".cache"))
        with open(os.path.join(base, "app.py"), "w") as f:
            f.write(APP)
        out = {}
        for version, interp in sorted(found.items()):
            python = interp.argv[-1]
            utf8env = own_command(python)[:-1] + [seen + "/src"]
            environ = dict(MISSING, PATH="/usr/bin:/bin", HOME=seen + "/home",
                           XDG_CACHE_HOME=seen + "/home/.cache")
            for way, argv in _ways(utf8env, python, seen + "/app.py", environ).items():
                done = subprocess.run(enter + argv, env=environ,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
                out.setdefault(version, {})[way] = (done.returncode, done.stdout, done.stderr)
        return out
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.parametrize("version", CHROOT_VERSIONS)
def test_a_chroot_314_or_315_program_gets_a_locale_its_setlocale_and_children_can_load(
        version, chroot_results):
    machine.interpreter(version)
    if version not in chroot_results:
        pytest.skip("CPython %s here is not the Debian chroot's" % version)
    _check(chroot_results[version], version)


# -- under LC_ALL=C: env's advice for a 3.7+ program too ------------------------------------

LC_ALL_NOTE = (b"# utf8env: LC_ALL=C wins over LC_CTYPE and LANG, and neither CPython nor `utf8env "
               b"run` overrides it unasked: for a UTF-8 locale in every program, remove LC_ALL "
               b"from the target's environment (then set LC_CTYPE=C.UTF-8); --override-lc-all "
               b"does both\n")


def test_under_lc_all_c_env_advises_removing_it_for_a_311_app_whose_child_counts_bytes(tmp_path):
    # 3.11 is in UTF-8 mode there (its own text is UTF-8), but its setlocale(LC_ALL, "")
    # gives C and `wc -m` counts bytes: env says so, as for every other command, and
    # the advice applied as printed (--override-lc-all does both steps) makes wc count
    # characters.
    python = machine.python("3.11")
    app = tmp_path / "app.py"
    app.write_text(APP)
    environ = {"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"], "LC_ALL": "C"}

    def ran(argv):
        done = subprocess.run(argv, env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return done.returncode, done.stdout, done.stderr

    assert ran([python, str(app)]) == (0, b"setlocale ok\n6\n", b"")
    assert ran(own_command() + ["env", "--", python, str(app)]) == (
        0, b"# utf8env: nothing to set: Python 3.11 picks UTF-8 mode by itself\n" + LC_ALL_NOTE,
        b"")
    printed = ran(own_command() + ["env", "--override-lc-all", "--", python, str(app)])
    # Without LC_ALL, 3.11 coerces by itself and exports LC_CTYPE=C.UTF-8 to its children.
    assert printed == (0, b"unset LC_ALL\n# utf8env: nothing more to set: Python 3.11 coerces "
                          b"the C locale and picks UTF-8 mode by itself\n", b"")
    assert ran(["sh", "-c", printed[1].decode() + 'exec "$@"', "sh", python, str(app)]) == (
        0, b"setlocale ok\n5\n", b"")


# -- the README's row, measured with this program ------------------------------------------

ROW = "`LANG` names a locale that is not installed (`de_DE.UTF-8`)"
# The README's check for Python, and what this file adds to it: print café, create
# café.txt, then setlocale(LC_ALL, "") and `wc -m` as a child. UTF-8: all of them.
ROW_CHECK = ("import locale, subprocess, sys; print(%a); open(%a, 'w').close(); "
             "locale.setlocale(locale.LC_ALL, ''); sys.stdout.flush(); "
             "sys.exit(subprocess.call(['sh', '-c', %a]))"
             % ("caf\u00e9", "caf\u00e9.txt", "printf '\\303\\251' | wc -m"))
ROW_UTF8 = b"caf\xc3\xa9\n1\n"
# What was measured (the cells of the README's columns "Python 3.6 `run`", "Python 3.6
# `env`", "Python 3.7+ `run`", "Python 3.7+ `env`").
ROW_MEASURED = {"Python 3.6": ("fixed", "fixed"), "Python 3.7+": ("fixed", "fixed")}


def test_the_readme_row_of_a_missing_lang_locale_measured_with_setlocale_and_a_child(tmp_path):
    machine.worlds()
    facts = probe_locales({"PATH": "/usr/bin:/bin"}, names=["C.UTF-8", "de_DE.UTF-8"])
    if not facts.accepts("C.UTF-8") or facts.accepts("de_DE.UTF-8"):
        pytest.skip("the row needs C.UTF-8 installed and de_DE.UTF-8 missing here")
    found = machine.host_pythons()
    columns = {"Python 3.6": [v for v in ("3.6",) if v in found],
               "Python 3.7+": [v for v in HOST_VERSIONS if v in found]}
    if not all(columns.values()):
        pytest.skip(machine.missing(("3.6",) + HOST_VERSIONS))
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    launcher = bin_folder / "utf8env"
    launcher.write_text("#!/bin/sh\nexec %s \"$@\"\n" % " ".join(map(shlex.quote, own_command())))
    launcher.chmod(0o755)
    base = {"PATH": "%s:/usr/bin:/bin" % bin_folder, "HOME": os.environ["HOME"],
            "LANG": "de_DE.UTF-8"}
    ways = {"direct": lambda argv: argv, "run": lambda argv: own_command() + ["run", "--"] + argv,
            "env": lambda argv: ["sh", "-c", 'eval "$(utf8env env)" && exec "$@"', "sh"] + argv}
    jobs, keys = [], []
    for column, versions in columns.items():
        for version in versions:
            for way, wrap in ways.items():
                cwd = tmp_path / ("%s-%s" % (version, way))
                cwd.mkdir()
                jobs.append(worlds.Job(wrap([found[version], "-c", ROW_CHECK]), base, cwd=str(cwd)))
                keys.append((column, version, way, cwd))
    utf8 = {}
    for (column, version, way, cwd), result in zip(keys, worlds.run("installed", jobs, ["/"])):
        made = os.listdir(os.fsencode(str(cwd)))
        utf8[column, version, way] = (result.returncode == 0 and result.stdout == ROW_UTF8
                                      and made == ["caf\u00e9.txt".encode()])
    measured = {}
    for column, versions in columns.items():
        cells = set()
        for version in versions:
            without = utf8[column, version, "direct"]
            cells.add(tuple("already" if without else "fixed" if utf8[column, version, way]
                            else "not fixed" for way in ("run", "env")))
        assert len(cells) == 1, (column, cells)
        measured[column] = cells.pop()
    assert measured == ROW_MEASURED
