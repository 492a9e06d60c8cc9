"""click 7's and ansible's start-up checks, run for real under every Python of this machine
and the environments below, against doctor's prediction of them (src/utf8env/doctor/
_programs.py): the measured table is written out here, each cell is asserted against the
real program, and the prediction against each cell. The change doctor names to make a
failing check pass is applied and the program run again: it must pass.

The wheels are tests/setup.sh's (/var/cache/utf8env/wheels, installed offline): click 7.1.2
into a venv of each pyenv Python 3.6-3.13; ansible-core 2.17.14 into 3.10's and 2.19.14
into 3.11-3.13's (the releases those Pythons install). The table assumes this machine's
glibc locales: C.UTF-8 (C.utf8) installed, en_US.UTF-8 not (Debian's default).
"""
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from support import machine
from utf8env.doctor import _fixes as fixes, _programs as programs

WHEELS = os.path.join(os.environ.get("UTF8ENV_CACHE", "/var/cache/utf8env"), "wheels")
CLICK_WHEEL = "click-7.1.2-py2.py3-none-any.whl"
# The pins of each ansible venv (tests/setup.sh downloads exactly these).
_COMMON = ("jinja2==3.1.6", "MarkupSafe==3.0.4", "PyYAML==6.0.3", "packaging==26.2",
           "cryptography==50.0.2", "cffi==2.1.1", "pycparser==3.11")
ANSIBLE_PINS = {
    "3.10": ("ansible-core==2.17.14", "resolvelib==1.0.1", "typing_extensions==4.15.0") + _COMMON,
    "3.11": ("ansible-core==2.19.14", "resolvelib==1.2.1") + _COMMON,
}
ANSIBLE_PINS["3.12"] = ANSIBLE_PINS["3.13"] = ANSIBLE_PINS["3.11"]
ANSIBLE_CORE = {"3.10": "2.17.14", "3.11": "2.19.14", "3.12": "2.19.14", "3.13": "2.19.14"}
PATH = "/usr/bin:/bin"          # click runs `locale -a`
HELLO = ("import click\n@click.command()\ndef main():\n    click.echo('ok')\n"
         "if __name__ == '__main__':\n    main()\n")

# The environments, as `env -i` would give them (with PATH=/usr/bin:/bin).
ENVIRONMENTS = (
    "", "LANG=C", "LC_ALL=C", "LANG=C.UTF-8", "LANG=C.utf8", "LC_ALL=C.UTF-8",
    "LC_CTYPE=C.UTF-8", "LANG=en_US.UTF-8", "PYTHONUTF8=1", "PYTHONUTF8=0",
    "LC_ALL=C PYTHONUTF8=1", "LC_ALL=C PYTHONUTF8=0", "PYTHONCOERCECLOCALE=0",
    "LANG=C.UTF-8 LC_ALL=C", "LANG=C LC_CTYPE=C.UTF-8", "LANG=en_US.UTF-8 LC_CTYPE=C.UTF-8",
    "LANG=en_US.UTF-8 LC_ALL=C.UTF-8", "LANG=en_US.UTF-8 PYTHONUTF8=1",
    "LANG=C.UTF-8 LC_MESSAGES=en_US.UTF-8", "LC_ALL=C.UTF-8 LC_MESSAGES=en_US.UTF-8",
    "LC_CTYPE=UTF-8", "LANG=C.UTF-8 LC_CTYPE=UTF-8",     # macOS's LC_CTYPE, sent over ssh
)

# -- The measured table -------------------------------------------------------------------
# click 7: exit 1 with the RuntimeError line in these environments, "ok" and exit 0 in all
# others. 3.6: wherever LC_CTYPE ends up C (a missing locale, LC_ALL=C over a good LANG,
# and PYTHONUTF8, which 3.6 does not know, changes nothing). 3.7-3.13: only where UTF-8
# mode is turned off AND the coercion cannot happen (LC_ALL=C): PYTHONUTF8=0 alone still
# coerces to C.UTF-8; LC_ALL=C alone turns UTF-8 mode on.
CLICK_ABORTS = {
    "3.6": {"", "LANG=C", "LC_ALL=C", "LANG=en_US.UTF-8", "PYTHONUTF8=1", "PYTHONUTF8=0",
            "LC_ALL=C PYTHONUTF8=1", "LC_ALL=C PYTHONUTF8=0", "PYTHONCOERCECLOCALE=0",
            "LANG=C.UTF-8 LC_ALL=C", "LANG=en_US.UTF-8 PYTHONUTF8=1", "LC_CTYPE=UTF-8",
            "LANG=C.UTF-8 LC_CTYPE=UTF-8"},
}
for _version in ("3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13"):
    CLICK_ABORTS[_version] = {"LC_ALL=C PYTHONUTF8=0"}
# ansible (2.17.14 on 3.10, 2.19.14 on 3.11-3.13: the same on all four): exit 1 with this
# one line on stderr; `ansible --version` and exit 0 elsewhere. LC_ALL=C fails whatever
# PYTHONUTF8 says; a missing locale in any category fails even where the coercion gave
# LC_CTYPE C.UTF-8; no locale at all, or LC_CTYPE=UTF-8 alone, passes only through the
# coercion (PYTHONCOERCECLOCALE=0 fails).
ENCODING_NONE = "ERROR: Ansible requires the locale encoding to be UTF-8; Detected None."
UNSUPPORTED = ("ERROR: Ansible could not initialize the preferred locale: unsupported locale "
               "setting")
ANSIBLE_FAILS = {
    "LC_ALL=C": ENCODING_NONE, "LC_ALL=C PYTHONUTF8=1": ENCODING_NONE,
    "LC_ALL=C PYTHONUTF8=0": ENCODING_NONE, "PYTHONCOERCECLOCALE=0": ENCODING_NONE,
    "LANG=C.UTF-8 LC_ALL=C": ENCODING_NONE,
    "LANG=en_US.UTF-8": UNSUPPORTED, "LANG=en_US.UTF-8 LC_CTYPE=C.UTF-8": UNSUPPORTED,
    "LANG=en_US.UTF-8 PYTHONUTF8=1": UNSUPPORTED,
    "LANG=C.UTF-8 LC_MESSAGES=en_US.UTF-8": UNSUPPORTED,
}
# The change doctor names for each failing cell (its locale findings' fix first, checked
# with the prediction) -- the same for every Python of a program.
CLICK_FIX = {
    "": "LANG=C.UTF-8", "LANG=C": "LANG=C.UTF-8", "LC_ALL=C": "LC_ALL unset and LANG=C.UTF-8",
    "LANG=en_US.UTF-8": "LANG=C.UTF-8", "PYTHONUTF8=1": "LANG=C.UTF-8",
    "PYTHONUTF8=0": "LANG=C.UTF-8", "LC_ALL=C PYTHONUTF8=1": "LC_ALL unset and LANG=C.UTF-8",
    "LC_ALL=C PYTHONUTF8=0": "LC_ALL unset and LANG=C.UTF-8",
    "PYTHONCOERCECLOCALE=0": "LANG=C.UTF-8", "LANG=C.UTF-8 LC_ALL=C": "LC_ALL unset",
    "LANG=en_US.UTF-8 PYTHONUTF8=1": "LANG=C.UTF-8", "LC_CTYPE=UTF-8": "LC_CTYPE=C.UTF-8",
    "LANG=C.UTF-8 LC_CTYPE=UTF-8": "LC_CTYPE=C.UTF-8",
}
ANSIBLE_FIX = {
    "LC_ALL=C": "LC_ALL unset and LANG=C.UTF-8",
    "LC_ALL=C PYTHONUTF8=1": "LC_ALL unset and LANG=C.UTF-8",
    "LC_ALL=C PYTHONUTF8=0": "LC_ALL unset and LANG=C.UTF-8",
    "PYTHONCOERCECLOCALE=0": "LANG=C.UTF-8", "LANG=C.UTF-8 LC_ALL=C": "LC_ALL unset",
    "LANG=en_US.UTF-8": "LANG=C.UTF-8", "LANG=en_US.UTF-8 LC_CTYPE=C.UTF-8": "LANG=C.UTF-8",
    "LANG=en_US.UTF-8 PYTHONUTF8=1": "LANG=C.UTF-8",
    "LANG=C.UTF-8 LC_MESSAGES=en_US.UTF-8": "LC_MESSAGES=C.UTF-8",
}


def expected(program, version, name):
    """(exit status, the stderr line) the table says, None for a pass."""
    if program == "click 7":
        aborts = name in CLICK_ABORTS[version]
        return (1, programs.CLICK_MESSAGE) if aborts else (0, None)
    message = ANSIBLE_FAILS.get(name)
    return (1, message) if message else (0, None)


def environ_of(name):
    return dict(part.split("=", 1) for part in name.split())


# -- The real programs --------------------------------------------------------------------

def _run(argv, environ):
    run = subprocess.run(argv, env=dict(environ, PATH=PATH), stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return (run.returncode, run.stdout.decode("utf-8", "replace"),
            run.stderr.decode("utf-8", "replace"))


def _click_outcome(argv, environ):
    """(status, None) when it printed "ok" with nothing on stderr; else (status, the
    traceback's RuntimeError line, or all of stderr)."""
    code, out, err = _run(argv, environ)
    if code == 0 and out == "ok\n" and err == "":
        return 0, None
    lines = [line for line in err.splitlines() if line.startswith("RuntimeError: ")]
    return code, lines[0] if lines else err


def _ansible_outcome(argv, environ, version):
    code, out, err = _run(argv, environ)
    if code == 0 and out.startswith("ansible [core %s]" % ANSIBLE_CORE[version]) and err == "":
        return 0, None
    return code, err.rstrip("\n")


def _pip():
    try:
        import pip  # noqa: F401
    except ImportError:
        pytest.skip("no pip in %s: `%s -m ensurepip`" % (sys.executable, sys.executable))


@pytest.fixture(scope="module")
def venvs(tmp_path_factory):
    """{(program, version): argv} of every venv this machine can make, and the reasons
    for the others."""
    _pip()
    pythons = machine.host_pythons()
    wanted = [v for v in programs.CLICK_PYTHONS if v in pythons]
    if not wanted:
        pytest.skip("no pyenv CPython 3.6-3.13 here: %s" % machine.missing(["3.6"]))
    if not os.path.isfile(os.path.join(WHEELS, CLICK_WHEEL)):
        pytest.skip("no %s in %s: bash tests/setup.sh downloads it" % (CLICK_WHEEL, WHEELS))
    root = str(tmp_path_factory.mktemp("programs"))
    hello = os.path.join(root, "hello.py")
    with open(hello, "w") as f:
        f.write(HELLO)
    # click installed once by pip (--target), found by each venv through a .pth file.
    clicklib = os.path.join(root, "click")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                    "--disable-pip-version-check", "--target", clicklib,
                    os.path.join(WHEELS, CLICK_WHEEL)], check=True, stdout=subprocess.DEVNULL)
    out, missing = {}, []

    def make(version):
        venv = os.path.join(root, "py" + version)
        subprocess.run([pythons[version], "-m", "venv", "--without-pip", venv], check=True)
        site = os.path.join(venv, "lib", "python" + version, "site-packages")
        with open(os.path.join(site, "click7.pth"), "w") as f:
            f.write(clicklib + "\n")
        out[("click 7", version)] = [os.path.join(venv, "bin", "python"), hello]
        if version in programs.ANSIBLE_PYTHONS:
            # pip --python: this pip installs into the venv (which has none of its own).
            run = subprocess.run([sys.executable, "-m", "pip", "--python",
                                  os.path.join(venv, "bin", "python"), "install", "-q",
                                  "--no-index", "--disable-pip-version-check", "--find-links",
                                  WHEELS] + list(ANSIBLE_PINS[version]),
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if run.returncode:
                missing.append("ansible-core %s for %s (bash tests/setup.sh downloads its "
                               "wheels): %s" % (ANSIBLE_CORE[version], version,
                                                run.stdout.decode(errors="replace").strip()
                                                .splitlines()[-1]))
            else:
                out[("ansible", version)] = [os.path.join(venv, "bin", "ansible"), "--version"]
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(make, wanted))
    return out, missing


def _outcome(venvs, program, version, environ):
    argv = venvs[0][(program, version)]
    if program == "click 7":
        return _click_outcome(argv, environ)
    return _ansible_outcome(argv, environ, version)


@pytest.fixture(scope="module")
def measured(venvs):
    """{(program, version, environment name): (status, line)}: every cell, run once."""
    cells = [(program, version, name) for (program, version) in sorted(venvs[0])
             for name in ENVIRONMENTS]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda c: _outcome(venvs, c[0], c[1], environ_of(c[2])), cells))
    return dict(zip(cells, results))


@pytest.fixture(scope="module")
def facts(venvs):
    """The libc's answers for every name the cells and doctor's fixes use."""
    from utf8env import _locales as locales
    from utf8env.doctor import _locale_state as locale_state
    names = set()
    for name in ENVIRONMENTS:
        names.update(locale_state.names_to_ask(environ_of(name)))
    answer = locales.facts(dict(os.environ), sorted(names))
    if not answer.accepts("C.UTF-8") or answer.accepts("en_US.UTF-8"):
        pytest.skip("the table is this machine kind's: C.UTF-8 installed and en_US.UTF-8 not "
                    "(here: %s)" % ", ".join(sorted(answer.codesets)))
    return answer


def _skip_missing(venvs, program, version):
    if (program, version) not in venvs[0]:
        reasons = [m for m in venvs[1] if " for %s " % version in m]
        pytest.skip(reasons[0] if reasons else "no CPython %s here: %s"
                    % (version, machine.missing([version])))


CELLS = [("click 7", v) for v in programs.CLICK_PYTHONS] + [
    ("ansible", v) for v in programs.ANSIBLE_PYTHONS]


@pytest.mark.parametrize("program, version", CELLS)
def test_measured_table(venvs, measured, program, version):
    """The real program, in every environment, does what the table says."""
    _skip_missing(venvs, program, version)
    got = {name: measured[(program, version, name)] for name in ENVIRONMENTS}
    assert got == {name: expected(program, version, name) for name in ENVIRONMENTS}


def _decision(version, environ, facts):
    from utf8env._engine.policy import Inputs, decide
    return decide(Inputs(environ=environ, args=(), version=version, locales=facts))


@pytest.mark.parametrize("program, version", CELLS)
def test_prediction_is_each_measured_cell(venvs, measured, facts, program, version):
    _skip_missing(venvs, program, version)
    predicted, seen = {}, {}
    for name in ENVIRONMENTS:
        environ = environ_of(name)
        [check] = [c for c in programs.checks(_decision(version, environ, facts), environ, facts)
                   if c.program == program]
        predicted[name] = (check.exit_code, check.message)
        seen[name] = measured[(program, version, name)]
    assert predicted == seen


@pytest.mark.parametrize("program, version", CELLS)
def test_named_change_makes_the_real_program_pass(venvs, measured, facts, program, version):
    """For each failing cell: the change doctor names (its locale findings' fix first,
    then the others, each checked with the prediction) is the table's, and with it
    applied the real program passes."""
    from utf8env._engine.policy import Inputs
    from utf8env.doctor import _findings, _locale_state as locale_state
    _skip_missing(venvs, program, version)
    named, runs = {}, {}
    for name in ENVIRONMENTS:
        if measured[(program, version, name)][0] == 0:
            continue
        environ = environ_of(name)
        decision = _decision(version, environ, facts)
        findings = _findings.for_decision(
            Inputs(environ=environ, args=(), version=version, locales=facts), decision)
        changes = programs.passing_change(program, None, decision, environ, facts,
                                          locale_state.analyse(environ, facts), findings)
        named[name] = programs.describe(changes) if changes else None
        if changes:
            runs[name] = fixes.applied(environ, changes)
    table = CLICK_FIX if program == "click 7" else ANSIBLE_FIX
    assert named == {name: table[name] for name in named}
    with ThreadPoolExecutor(4) as pool:
        again = dict(zip(runs, pool.map(lambda env: _outcome(venvs, program, version, env),
                                        runs.values())))
    assert again == {name: (0, None) for name in runs}


def test_doctor_reports_them(venvs, facts):
    """The hook: doctor --json's "tools" under LC_ALL=C name every Python of the measured
    versions it found, with the message and the change that was checked above."""
    import json
    from utf8env._own_command import own_command
    from utf8env import _discovery as discovery
    env = {"PATH": PATH, "HOME": os.environ["HOME"], "LC_ALL": "C",
           "PYENV_ROOT": discovery.pyenv_root()}
    env["XDG_CACHE_HOME"] = os.environ.get("XDG_CACHE_HOME", env["HOME"] + "/.cache")
    run = subprocess.run(own_command() + ["doctor", "--json"], env=env, stdout=subprocess.PIPE)
    data = json.loads(run.stdout.decode())
    tools = {t["name"]: t for t in data["tools"]}
    found = [(p["version"], "Python %s (%s)" % (p["version"], p["path"])) for p in data["pythons"]
             if p["prediction"] and not p["prediction"]["startup_error"]]
    for program, message, versions in (
            ("ansible", ENCODING_NONE, programs.ANSIBLE_PYTHONS),
            ("click 7", programs.CLICK_MESSAGE, ("3.6",))):
        labels = [label for version, label in found if version in versions]
        if not labels:
            assert program not in tools
            continue
        assert tools[program]["message"] == message
        assert tools[program]["when"] == "at start-up under %s; %s makes it pass" % (
            ", ".join(labels), "LC_ALL unset and LANG=C.UTF-8")
