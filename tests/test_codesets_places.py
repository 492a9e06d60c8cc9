"""utf8env's own commands in a locale whose codeset has no Python codec (hy_AM.ARMSCII-8
in every version, ja_JP.WINDOWS-31J before 3.13; tests/test_codesets_groundtruth.py
measures the interpreters there): real glibc locales compiled with localedef into a
folder that LOCPATH names (support/codeset_worlds.py), utf8env started as installed (its
compiled launcher starts its own Python in the C locale), the real interpreters beside it.

- doctor takes the locale's name and codeset from the libc, not from a Python's start-up
  (it printed "LC_CTYPE None uses None"), says which CPythons stop at start-up there and
  with what, and its fix line, applied as printed, lets them start;
- an interpreter is identified in the C locale: `explain PYTHON`, `run --utf8 1 --` and
  doctor know it even where it cannot start in the target's locale;
- `run -- python3.6` refuses a 3.6 only where 3.7 refuses a UTF-8 mode value; anywhere
  else 3.6 runs and fails in its own words and status (134), byte for byte.
"""
import json
import os
import re
import subprocess

import pytest

from utf8env import _cli as cli, _interpreter as interpreter, _plan as launch
from utf8env import _probe as probe
from utf8env._engine import locale_model
from utf8env._engine.policy import Inputs, LocaleFacts, decide
from utf8env.doctor import _locale_state as locale_state

from support import codeset_worlds, machine

ARMSCII, W31J = "hy_AM.ARMSCII-8", "ja_JP.WINDOWS-31J"
CODESETS = {ARMSCII: "ARMSCII-8", W31J: "WINDOWS-31J"}
TITLES = {
    ARMSCII: "LC_CTYPE hy_AM.ARMSCII-8 uses ARMSCII-8, which has no Python codec: CPython "
             "3.6-3.14 stop at start-up here",
    W31J: "LC_CTYPE ja_JP.WINDOWS-31J uses WINDOWS-31J, which has no Python codec before "
          "3.13: CPython 3.6-3.12 stop at start-up here",
}
E_ACUTE = 'print("\\u00e9")'


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """LOCPATH holding the two locales, compiled by this host's localedef."""
    wanted = [locale for locale in codeset_worlds.NO_CODEC if locale[0] in CODESETS]
    return codeset_worlds.host_world(str(tmp_path_factory.mktemp("codesets")), wanted)


def _env(world, home, name, **more):
    """The locale `name`, and a HOME and cache of the test's own: no interpreter is
    known before the test asks."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"),
           "LOCPATH": world, "LC_ALL": name}
    env.update(more)
    return env


def _run(argv, env):
    return subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)


def _without_addresses(stderr):
    """A fatal error's traceback names the thread by its address, which differs per run."""
    return re.sub(rb"0x[0-9a-f]+", b"0x...", stderr)


# -- doctor -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(CODESETS))
def test_doctor_names_the_pythons_that_stop_and_its_fix_lets_them_start(world, tmp_path, name):
    python36 = machine.python("3.6")
    command = codeset_worlds.utf8env_command()
    # CI: a context whose fix is shell lines, applied below exactly as printed.
    env = _env(world, tmp_path, name, PATH=os.path.dirname(python36) + ":/usr/bin:/bin",
               CI="true")
    ran = _run([command, "doctor", "--json"], env)
    assert ran.stderr == b""
    data = json.loads(ran.stdout.decode("utf-8"))
    assert (ran.returncode, data["locale"]["lc_ctype"], data["locale"]["codeset"]) == (
        1, name, CODESETS[name])
    [finding] = [f for f in data["findings"] if f["code"] == "legacy-codeset"]
    assert (finding["severity"], finding["title"]) == ("warning", TITLES[name])
    # The engine's words for each version; 3.6's are what the real 3.6 prints and does.
    alone = _run([python36, "-c", "pass"], env)
    first = alone.stderr.decode("utf-8").splitlines()[0]
    assert probe.exit_status(alone.returncode) == 134
    assert "CPython 3.6: exit 134: " + first in finding["evidence"]
    # The interpreter was asked in a locale it starts in: known, and predicted to stop.
    [found] = [p for p in data["pythons"] if p["path"] == python36]
    assert (found["version"], found["error"], found["prediction"]["startup_error"]["exit_code"]) \
        == ("3.6", None, 134)
    startup = [f for f in data["findings"] if f["code"] == "python-startup"
               and python36 in f["title"]]
    assert len(startup) == 1 and startup[0]["fixes"] == []     # the locale finding's fix
    assert finding["fixes"] == [{"option": 1, "where": "the CI job's environment (CI)",
                                 "context": "ci", "lines": ["export LC_ALL=C.UTF-8"]}]
    script = "\n".join(finding["fixes"][0]["lines"]) + '\nexec "$@"\n'
    fixed = _run(["sh", "-c", script, "sh", command, "doctor", "--json"], env)
    assert fixed.stderr == b""
    after = json.loads(fixed.stdout.decode("utf-8"))
    assert (fixed.returncode, after["verdict"]) == (0, "ok"), after["findings"]
    assert all(f["severity"] == "note" for f in after["findings"])
    printed = _run(["sh", "-c", script, "sh", python36, "-c", E_ACUTE], env)
    assert (printed.returncode, printed.stdout, printed.stderr) == (0, "\u00e9\n".encode(), b"")


@pytest.mark.fast
def test_locale_state_is_the_libcs_where_a_python_stops_or_starts():
    facts = LocaleFacts({ARMSCII: "ARMSCII-8", W31J: "WINDOWS-31J", "C.UTF-8": "UTF-8",
                         "en_US.ISO-8859-1": "ISO-8859-1"}, "ANSI_X3.4-1968")
    environs = [{}, {"LANG": "C"}, {"LANG": "xx_YY.UTF-8"}, {"LC_CTYPE": "en_US.ISO-8859-1"},
                {"LC_ALL": "C.UTF-8", "LANG": ARMSCII}, {"LC_CTYPE": "C", "LANG": ARMSCII}]
    environs += [{variable: name} for variable in ("LC_ALL", "LC_CTYPE", "LANG")
                 for name in (ARMSCII, W31J)]
    for environ in environs:
        state = locale_state.analyse(environ, facts)
        plain = decide(Inputs(environ=environ, version="3.6", locales=facts))
        if plain.startup_error is None:
            # Where 3.6 starts, it says what the libc says (3.6 has no PEP 538 or 540).
            assert (state.lc_ctype, state.codeset) == (plain.lc_ctype, plain.preferred_encoding)
        else:
            [value] = [v for v in environ.values() if v in CODESETS]
            assert (state.lc_ctype, state.codeset) == (value, CODESETS[value]), environ
    # PYTHONUTF8=1 starts 3.7-3.10 in UTF-8 mode; 3.11 and 3.12 read .pth files with the
    # locale's codec all the same (the engine, measured).
    state = locale_state.analyse({"LANG": W31J, "PYTHONUTF8": "1"}, facts)
    title, evidence = locale_state.no_codec(state)
    assert title == ("LC_CTYPE ja_JP.WINDOWS-31J uses WINDOWS-31J, which has no Python codec "
                     "before 3.13: CPython 3.6, 3.11-3.12 stop at start-up here")
    assert evidence[-3:] == (
        "CPython 3.6: exit 134: Fatal Python error: Py_Initialize: Unable to get the locale "
        "encoding",
        "CPython 3.11-3.12: exit 1: Fatal Python error: init_import_site: Failed to import the "
        "site module",
        "CPython 3.7-3.10, 3.13-3.15 start: file system encoding utf-8 (UTF-8 mode)")
    assert locale_state.no_codec(locale_state.analyse({"LANG": "en_US.ISO-8859-1"}, facts)) is None


# -- identification -----------------------------------------------------------------------

@pytest.mark.parametrize("version", ["3.6", "3.9"])
def test_an_interpreter_is_identified_where_it_cannot_start(world, tmp_path, version):
    python = machine.python(version)
    command = codeset_worlds.utf8env_command()
    env = _env(world, tmp_path, ARMSCII)
    alone = _run([python, "-c", "pass"], env)
    assert alone.returncode != 0
    assert interpreter.identify(python, env) == interpreter.Identity(version, "linux")
    explained = _run([command, "explain", "--json", python], env)
    assert (explained.returncode, explained.stderr) == (0, b"")
    data = json.loads(explained.stdout.decode("utf-8"))
    assert (data["python"], data["startup_error"]["exit_code"]) == (
        version, probe.exit_status(alone.returncode))
    if version == "3.6":
        return
    # UTF-8 mode is the one way a 3.7+ starts here: run gives it, knowing a Python.
    started = _run([command, "run", "--utf8", "1", "--", python, "-c",
                    "import sys; print(sys.flags.utf8_mode, sys.getfilesystemencoding())"], env)
    assert (started.returncode, started.stdout, started.stderr) == (0, b"1 utf-8\n", b"")
    # The answer is the file's, whatever the locale: one cache entry per file.
    identity = interpreter.Identity(version, "linux")
    assert interpreter.cached(python, env) == identity
    assert interpreter.cached(python, dict(env, LC_ALL="C.UTF-8")) == identity


# -- the launcher and 3.6 -----------------------------------------------------------------

def test_run_lets_36_fail_in_its_own_words(world, tmp_path):
    python36 = machine.python("3.6")
    command = codeset_worlds.utf8env_command()
    env = _env(world, tmp_path, ARMSCII)
    # 3.6 known (cached, as after any earlier run): the launcher plans for a 3.6.
    interpreter.remember({python36: interpreter.Identity("3.6", "linux")}, env)
    alone = _run([python36, "-c", "pass"], env)
    assert probe.exit_status(alone.returncode) == 134
    assert alone.stderr.startswith(b"Fatal Python error: Py_Initialize: Unable to get the "
                                   b"locale encoding\n")
    for asked in ([], ["--utf8", "1"]):
        through = _run([command, "run"] + asked + ["--", python36, "-c", "pass"], env)
        assert (through.returncode, _without_addresses(through.stderr), through.stdout) == (
            alone.returncode, _without_addresses(alone.stderr), b""), asked


@pytest.mark.fast
def test_the_launcher_refuses_a_36_only_for_the_utf8_values_37_refuses():
    facts = LocaleFacts({ARMSCII: "ARMSCII-8", "C.UTF-8": "UTF-8"}, "ANSI_X3.4-1968")
    argv = ["python3.6", "-c", "pass"]
    for environ in ({"LC_ALL": ARMSCII}, {"LANG": ARMSCII}, {"LC_CTYPE": ARMSCII, "LANG": "C"},
                    {"LANG": "C.UTF-8", "PYTHONIOENCODING": "bogus"}):
        for utf8 in (None, "1", "0"):
            planned = launch.plan(environ, "/usr/bin/python3.6", argv, facts, python="3.6",
                                  utf8=utf8)
            assert (planned.refusal, planned.messages, planned.argv, planned.environ,
                    planned.bootstrap) == (None, (), tuple(argv), environ, False), (environ, utf8)
    # --utf8 1 where 3.6 stops before its site module: said, in the plan's notes.
    planned = launch.plan({"LC_ALL": ARMSCII}, "/usr/bin/python3.6", argv, facts, python="3.6",
                          utf8="1")
    assert planned.notes == (
        "Python 3.6 stops at start-up here, before the bootstrap could give it UTF-8 mode: "
        "CPython 3.6 has no codec for ARMSCII-8 (none in 3.6-3.15), the codeset of LC_CTYPE "
        "hy_AM.ARMSCII-8: the filesystem encoding comes from the locale when UTF-8 mode is off",)
    # The values 3.7 refuses before it reads the locale: refused for 3.6 too, as before.
    for environ, args in (({"LC_ALL": ARMSCII, "PYTHONUTF8": "x"}, []),
                          ({"LC_ALL": ARMSCII}, ["-X", "utf8=x"])):
        planned = launch.plan(environ, "/usr/bin/python3.6", ["python3.6"] + args, facts,
                              python="3.6")
        assert planned.refusal == 1 and "utf8" in planned.messages[0]


# -- explain --locales with a bare name ----------------------------------------------------

@pytest.mark.fast
def test_a_bare_locale_name_gets_the_codeset_glibc_lists_for_it(capsys):
    assert locale_model.modelled("ka_GE,kk_KZ,sr_RS,de_DE@euro,en_US,C").codesets == {
        "ka_GE": "GEORGIAN-PS", "kk_KZ": "PT154", "sr_RS": "UTF-8", "de_DE@euro": "ISO-8859-15",
        "en_US": "ISO-8859-1", "C": "ANSI_X3.4-1968"}
    assert cli.main(["explain", "--json", "--empty-env", "--env", "LC_ALL=ka_GE", "--locales",
                     "ka_GE", "--version", "3.9"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["startup_error"]["message"].endswith("LookupError: unknown encoding: GEORGIAN-PS")


def test_every_bare_name_glibc_lists_is_guessed_as_listed():
    supported = "/usr/share/i18n/SUPPORTED"
    if not os.path.isfile(supported):
        pytest.skip("no %s: apt-get install locales" % supported)
    with open(supported) as f:
        listed = dict(line.split() for line in f if len(line.split()) == 2)
    bare = {name: codeset for name, codeset in listed.items() if "." not in name}
    assert bare and {name: locale_model._guess_codeset(name) for name in bare} == bare
