"""`utf8env run` and `utf8env env` as users run them, against real commands, real
interpreters and real locale worlds: transparency (bytes, status, signals, pid), the
coercion for any command, Python 3.6 given what 3.7 has, nothing changed for 3.7+."""
import os
import re
import shlex
import signal
import subprocess
import sys

import pytest

import functools

import corpus
from support import groundtruth, machine
from utf8env import _discovery as interpreters
from utf8env import _worlds as worlds
from utf8env import _plan as launch, _probe as probe, _plan_python as python_child, _run
from utf8env._own_command import own_command

# As the installed command starts it (-I -S: the launcher's own interpreter must not read
# the PYTHON* variables of the target), from this checkout.
UTF8ENV = own_command()
RUN_COMMAND = "__import__('_utf8env_bootstrap').run_command()"
# Every job in a world here runs a host program or a host interpreter.
HOST = ["/"]
BASE = {"PATH": "/usr/bin:/bin"}
PYRAMID = "\u2119\u01b4\u2602\u210c\u00f8\u1f24"      # PEP 538's "ℙƴ☂ℌøἤ"


def run(args, env=None, stdin=b"", **kw):
    return subprocess.run(UTF8ENV + ["run"] + list(args), env=dict(BASE, **(env or {})),
                          input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def needs_worlds():
    machine.worlds()


# -- Transparency -----------------------------------------------------------------------

@pytest.mark.parametrize("status", [0, 1, 3, 255])
@pytest.mark.fast
def test_exit_status_passes_through(status):
    result = run(["--", "sh", "-c", "exit %d" % status])
    assert (result.returncode, result.stdout, result.stderr) == (status, b"", b"")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
@pytest.mark.fast
def test_death_by_signal_is_seen_as_without_the_launcher(sig):
    script = "kill -%d $$" % sig
    direct = subprocess.run(["sh", "-c", script])
    through = run(["--", "sh", "-c", script])
    assert through.returncode == direct.returncode == -sig
    # and as a shell reports it: 128 + N
    shell = subprocess.run(["sh", "-c", " ".join(map(shlex.quote, UTF8ENV)) +
                            " run -- sh -c 'kill -%d $$'; echo $?" % sig],
                           stdout=subprocess.PIPE, env=BASE)
    assert shell.stdout == b"%d\n" % (128 + sig)


@pytest.mark.fast
def test_binary_stdin_passes_byte_exact():
    data = os.urandom(1 << 20)
    result = run(["--", "cat"], stdin=data)
    assert (result.returncode, result.stdout == data, result.stderr) == (0, True, b"")


@pytest.mark.fast
def test_undecodable_argv_and_environment_arrive_unchanged():
    arg = os.fsdecode(b"caf\xe9-\xff")
    result = subprocess.run(UTF8ENV + ["run", "--", "sh", "-c", 'printf "%s|%s" "$1" "$X"', "sh", arg],
                            env=dict(BASE, X=os.fsdecode(b"\xfe\x80z")), stdout=subprocess.PIPE)
    assert result.stdout == b"caf\xe9-\xff|\xfe\x80z"


@pytest.mark.fast
def test_the_child_has_the_launchers_pid():
    process = subprocess.Popen(UTF8ENV + ["run", "--", "sh", "-c", "echo $$"], env=BASE,
                               stdout=subprocess.PIPE)
    out, _ = process.communicate()
    assert out == b"%d\n" % process.pid


# -- Coercion for any command -----------------------------------------------------------

@pytest.mark.fast
def test_sh_sees_the_coerced_locale():
    result = run(["--", "sh", "-c", "locale | grep LC_CTYPE; echo \"LANG=$LANG LC_ALL=$LC_ALL\""],
                 env={"LANG": "C"})
    assert result.stdout == b'LC_CTYPE=C.UTF-8\nLANG=C LC_ALL=\n'


@pytest.mark.fast
def test_warnings_go_straight_to_stderr():
    result = run(["--", "true"], env={"LANG": "C", "PYTHONCOERCECLOCALE": "warn"})
    assert result.stderr == (b"Python detected LC_CTYPE=C: LC_CTYPE coerced to C.UTF-8 (set another "
                             b"locale or PYTHONCOERCECLOCALE=0 to disable this locale coercion behavior).\n")
    off = run(["--", "sh", "-c", "echo $LC_CTYPE"], env={"LANG": "C", "PYTHONCOERCECLOCALE": "0"})
    assert (off.stdout, off.stderr) == (b"\n", b"")


@pytest.mark.parametrize("env,line", [
    ({"LANG": "C"}, b"Python detected LC_CTYPE=C: LC_CTYPE coerced to C.UTF-8 (set another locale or "
                    b"PYTHONCOERCECLOCALE=0 to disable this locale coercion behavior).\n"),
    ({"LC_ALL": "C"}, b"Python runtime initialized with LC_CTYPE=C (a locale with default ASCII "
                      b"encoding), which may cause Unicode compatibility problems. Using C.UTF-8, "
                      b"C.utf8, or UTF-8 (if available) as alternative Unicode-compatible locales "
                      b"is recommended.\n"),
])
@pytest.mark.fast
def test_a_warning_its_own_interpreter_printed_is_not_printed_twice(env, line):
    # Started as a console script is (no -I), utf8env's own 3.7+ interpreter prints the
    # warning itself; the launcher then leaves it out.
    result = subprocess.run([sys.executable, "-m", "utf8env", "run", "--", "true"],
                            env=dict(BASE, PYTHONCOERCECLOCALE="warn", **env),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (result.returncode, result.stderr) == (0, line)


@pytest.mark.fast
def test_pep538_draft_policy_sets_lang_and_lc_all():
    result = run(["--policy", "pep538-draft", "--", "sh", "-c", 'echo "$LANG $LC_ALL $LC_CTYPE"'],
                 env={})
    assert result.stdout == b"C.UTF-8 C.UTF-8 \n"
    assert result.stderr == (b"Python detected LC_CTYPE=C, LC_ALL & LANG set to C.UTF-8 (set "
                             b"PYTHONCOERCECLOCALE=0 to disable this locale coercion behaviour).\n")


def test_no_locales_world_leaves_the_c_locale():
    needs_worlds()
    job = worlds.Job(UTF8ENV + ["run", "--", "sh", "-c", "locale | grep LC_CTYPE"], dict(BASE))
    [result] = worlds.run("no-locales", [job], HOST)
    assert result.stdout == b'LC_CTYPE="POSIX"\n'


# -- Bad input --------------------------------------------------------------------------

@pytest.mark.parametrize("args,code,message", [
    (["--utf8", "2", "true"], 125, "utf8env: error: --utf8 '2': expected 0, 1 or strict\n"),
    (["--policy", "pep999", "true"], 125, "utf8env: error: --policy 'pep999': expected default or "
                                         "pep538-draft (the coercion the launcher applies)\n"),
    ([], 125, "utf8env: error: run: no COMMAND given (usage: utf8env run [--utf8 0|1|strict] "
              "[--policy NAME] [--no-coercion] [--no-warning] [--override-lc-all] [--] COMMAND [ARGS...])\n"),
    (["no-such-command-x"], 127, "utf8env: error: command 'no-such-command-x': not found on PATH\n"),
    (["TMP/not-executable"], 126, "utf8env: error: command 'TMP/not-executable': "
                                  "TMP/not-executable is not executable\n"),
    (["/etc"], 126, "utf8env: error: command '/etc': is a directory\n"),
])
@pytest.mark.fast
def test_bad_input(args, code, message, tmp_path):
    path = tmp_path / "not-executable"
    path.write_bytes(b"\x00\x01 not a program\n")
    path.chmod(0o644)
    result = run([arg.replace("TMP", str(tmp_path)) for arg in args])
    assert (result.returncode, result.stdout, result.stderr.decode()) == (
        code, b"", message.replace("TMP", str(tmp_path)))


@pytest.mark.parametrize("content", [
    b"\x00\x01 not a program\n",                   # no #! and no binary format
    b"echo ran by \"$0\" with \"$@\"; exit 3\n",     # a shell script without #!
    b"#!/no/such/interpreter\necho never\n",        # a missing #! interpreter
])
@pytest.mark.fast
def test_a_file_the_kernel_cannot_run_fares_as_env_makes_it_fare(content, tmp_path):
    # execvp(3) and env(1): ENOEXEC runs the file with /bin/sh; a missing #! interpreter
    # is 127. utf8env run does what env does, byte for byte.
    path = tmp_path / "program"
    path.write_bytes(content)
    path.chmod(0o755)
    direct = subprocess.run(["env", str(path), "a b"], env=BASE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    result = run([str(path), "a b"])
    if content.startswith(b"#!"):
        assert (result.returncode, result.stdout, result.stderr) == (
            127, b"", b"utf8env: error: command '%s': No such file or directory\n" % bytes(path))
        assert direct.returncode == 127
    else:
        assert (result.returncode, result.stdout, result.stderr) == (
            direct.returncode, direct.stdout, direct.stderr)


# -- Python children ----------------------------------------------------------------------

def test_pep538_example_fails_on_36_without_the_launcher():
    result = subprocess.run([machine.python("3.6"), "-c", 'print("%s")' % PYRAMID], env={}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    # As PEP 538's "Motivation" shows it: the command line itself cannot be decoded.
    assert (result.returncode, result.stdout) == (1, b"")
    assert result.stderr == (b"Unable to decode the command from the command line:\n"
                             b"UnicodeEncodeError: 'utf-8' codec can't encode characters in "
                             b"position 7-22: surrogates not allowed\n")


@pytest.mark.parametrize("world", ["installed", "no-locales"])
def test_pep538_example_works_on_36_through_the_launcher(world):
    py36 = machine.python("3.6")
    needs_worlds()
    job = worlds.Job(UTF8ENV + ["run", "--", py36, "-c", 'print("%s")' % PYRAMID], {})
    [result] = worlds.run(world, [job], HOST)
    assert (result.returncode, result.stdout, result.stderr) == (0, PYRAMID.encode() + b"\n", b"")


def _corpus_envs(world):
    seen = []
    for case in corpus.cases():
        item = (case.env, tuple(case.options))
        if case.world == world and item not in seen:
            seen.append(item)
    return seen


NATIVE = ("3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13")


@functools.lru_cache(maxsize=None)
def _native_runs(world):
    """{version: [(env, options, alone, launched, set)]} for every corpus case of the world
    on every host interpreter of NATIVE found here, in one batch; `set`: the variables the
    plan sets (a locale variable naming a locale the world lacks: _plan._for_missing_locales)."""
    cases = _corpus_envs(world)
    found = [v for v in NATIVE if machine.has_python(v)]
    jobs, keys = [], []
    for version in found:
        python = [interpreters_path(version)]
        for index, (env, options) in enumerate(cases):
            direct = probe.command(python, options)
            jobs += [worlds.Job(direct, dict(env)), worlds.Job(UTF8ENV + ["run", "--"] + direct, dict(env))]
            keys.append((version, index))
    results = worlds.run(world, jobs, HOST)
    runs = {version: [] for version in found}
    facts = groundtruth.utf8env.LocaleFacts(corpus.WORLD_LOCALES[world], "ANSI_X3.4-1968")
    for n, (version, index) in enumerate(keys):
        env, options = cases[index]
        direct = probe.command([interpreters_path(version)], options)
        planned = launch.plan(dict(env), direct[0], direct, facts, python=version)
        runs[version].append((env, options,
                              _without_thread_ids(groundtruth.observe(results[2 * n], env)),
                              _without_thread_ids(groundtruth.observe(results[2 * n + 1], env)),
                              planned.set_environ))
    return runs


def interpreters_path(version):
    return machine.host_pythons()[version]


@pytest.mark.parametrize("version", NATIVE)
@pytest.mark.parametrize("world", ["installed", "no-locales"])
def test_launcher_changes_nothing_native_for_37_to_313(world, version):
    """Every corpus case of the world, each 3.7-3.13: the probe's report and stderr are
    the same with and without the launcher, but for the variables that named a locale the
    world lacks, which the child and its own children see with the coercion's target
    (its UTF-8 mode, encodings, LC_CTYPE and warnings are the same)."""
    machine.python(version)
    needs_worlds()
    runs = _native_runs(world)[version]
    differ = ["%s %s: %r != %r" % (env, options, alone, launched)
              for env, options, alone, launched, set_environ in runs
              if _with_variables(alone, set_environ) != launched]
    assert differ == []
    if world == "installed":
        # The corpus has such cases here (LANG=invalid.ascii, xx_YY.UTF-8): they were seen.
        assert any(set_environ.get("LANG") == "C.UTF-8" for *_, set_environ in runs)


def _with_variables(observed, set_environ):
    """What a run `observed` without the launcher becomes with `set_environ` set for it."""
    if not set_environ:
        return observed
    return dict(observed, child_environ=dict(observed["child_environ"], **set_environ))


def _without_thread_ids(observed):
    """A fatal error's traceback names the thread by its address, which differs per run."""
    observed["stderr_messages"] = [re.sub(r"0x[0-9a-f]+", "0x...", line)
                                   for line in observed["stderr_messages"]]
    return observed


@pytest.mark.fast
def test_plan_for_37_plus_adds_only_the_requested_option():
    facts = groundtruth.utf8env.LocaleFacts({"C.UTF-8": "UTF-8"}, "ANSI_X3.4-1968")
    plain = launch.plan({"LANG": "C"}, "/usr/bin/python3.9", ["python3.9", "-c", "pass"], facts, python="3.9")
    assert (plain.argv, plain.environ, plain.bootstrap) == (("python3.9", "-c", "pass"), {"LANG": "C"}, False)
    asked = launch.plan({}, "/usr/bin/python3.9", ["python3.9", "x.py"], facts, python="3.9", utf8="0")
    assert asked.argv == ("python3.9", "-X", "utf8=0", "x.py")
    strict = launch.plan({}, "/usr/bin/python3.9", ["python3.9", "x.py"], facts, python="3.9", utf8="strict")
    assert (strict.argv, strict.bootstrap, strict.utf8_mode) == (("python3.9", "-X", "utf8", "x.py"), True, "strict")
    old = launch.plan({"LANG": "C"}, "/usr/bin/python3.6", ["python3.6", "x.py"], facts, python="3.6")
    assert (old.argv, old.bootstrap, old.utf8_mode, old.set_environ) == (
        ("python3.6", "x.py"), True, 1, {"LC_CTYPE": "C.UTF-8"})
    isolated = launch.plan({"LANG": "C"}, "/usr/bin/python3.6", ["python3.6", "-I", "x.py"], facts, python="3.6")
    assert (isolated.bootstrap, isolated.notes) == (False, (
        "-E/-I: Python 3.6 then reads no PYTHONPATH or sitecustomize, so the bootstrap "
        "cannot be injected; the child runs without UTF-8 mode",))
    # 3.7's PEP 538 rule: surrogateescape in a coercion target locale, without UTF-8 mode.
    target = launch.plan({"LANG": "C.UTF-8"}, "/usr/bin/python3.6", ["python3.6", "x.py"], facts,
                         python="3.6")
    assert (target.utf8_mode, target.environ["UTF8ENV_BOOTSTRAP"]) == (0, "mode=0 stdio_errors=surrogateescape")
    # 3.7 refuses an invalid PYTHONUTF8: so does the launcher, for 3.6.
    refused = launch.plan({"PYTHONUTF8": "x"}, "/usr/bin/python3.6", ["python3.6", "x.py"], facts,
                          python="3.6")
    assert (refused.refusal, refused.messages) == (1, (
        "Fatal Python error: config_init_utf8_mode: invalid PYTHONUTF8 environment variable value", ""))


# Environments where the coercion, its warnings or a refusal may differ.
_LAUNCH_ENVIRONMENTS = [
    {}, {"LANG": "C"}, {"LC_ALL": "C"}, {"LC_ALL": "C", "LANG": "C.UTF-8"}, {"LANG": "POSIX"},
    {"LANG": "C", "PYTHONCOERCECLOCALE": "warn"}, {"LANG": "C", "PYTHONCOERCECLOCALE": "0"},
    {"LC_CTYPE": "C", "LANG": "en_US.UTF-8"}, {"LANG": "en_US.ISO-8859-1"}, {"LANG": "xx_YY"},
    {"LANG": "C", "PYTHONUTF8": "x"}, {"LANG": "C", "PYTHONIOENCODING": "bogus"},
    {"LANG": "C.UTF-8"}, {"LC_ALL": "", "LC_CTYPE": "", "LANG": "C"},
]
_LAUNCH_FACTS = [{"C.UTF-8": "UTF-8", "C.utf8": "UTF-8", "en_US.UTF-8": "UTF-8",
                  "en_US.ISO-8859-1": "ISO-8859-1"}, {"en_US.UTF-8": "UTF-8"}, {}]


@pytest.mark.fast
@pytest.mark.parametrize("version", ["3.7", "3.8", "3.11", "3.13", "3.15"])
def test_run_of_a_37_plus_with_nothing_asked_leaves_the_command_as_it_is(version):
    # What _run._what_to_exec returns without planning (no engine on that path) where no
    # locale variable names a locale the libc lacks: plan() agrees. (Where one does, plan
    # decides: test_a_37_plus_gets_the_target_where_a_variable_names_a_missing_locale.)
    for environ in _LAUNCH_ENVIRONMENTS:
        for codesets in _LAUNCH_FACTS:
            if _run._names_a_missing_locale(environ, codesets):
                continue
            facts = groundtruth.utf8env.LocaleFacts(codesets, "ANSI_X3.4-1968")
            for args in ([], ["-E"], ["-I", "-c", "pass"], ["-X", "utf8=0"], ["-X", "bogus=1"]):
                argv = ["python" + version] + args
                planned = launch.plan(environ, "/usr/bin/python" + version, argv, facts,
                                      python=version)
                assert (planned.path, planned.argv, planned.environ, planned.messages,
                        planned.refusal, planned.bootstrap, planned.set_environ, planned.notes) \
                    == ("/usr/bin/python" + version, tuple(argv), environ, (), None, False, {}, ())


@pytest.mark.fast
@pytest.mark.parametrize("policy", [None, "pep538-draft"])
@pytest.mark.parametrize("coercion_switch, warning_switch",
                         [(None, None), (False, None), (None, False), (None, True), (False, True)])
def test_any_program_gets_the_coercion_decide_gives_37(policy, coercion_switch, warning_switch):
    # preconfig.for_any_program (run's path for a program that is not Python) against the
    # whole engine's decision for CPython 3.7 with no command line, where 3.7 starts.
    from utf8env import Inputs, decide
    for environ in _LAUNCH_ENVIRONMENTS:
        for codesets in _LAUNCH_FACTS:
            facts = groundtruth.utf8env.LocaleFacts(codesets, "ANSI_X3.4-1968")
            d = decide(Inputs(environ=environ, version="3.7", locales=facts, policy=policy,
                              coercion_switch=coercion_switch, warning_switch=warning_switch))
            planned = launch.plan_any_program(environ, "/bin/true", ["true"], codesets, policy,
                                              coercion_switch, warning_switch)
            if d.startup_error is not None:
                continue        # 3.7 would not start; a program that is not Python does
            printed = tuple(line for line in (d.coercion_warning, d.c_locale_warning) if line)
            coerced = d.coercion.environ if d.coercion else {}
            # Beyond 3.7's coercion, only what a program asking for every category needs
            # (test_a_missing_locale_is_replaced_for_a_program_asking_for_every_category):
            # a locale variable naming a locale the libc lacks, given the same target.
            extra = {name: value for name, value in planned.set_environ.items()
                     if name not in coerced}
            assert all(name.startswith(("LANG", "LC_")) and environ[name] not in codesets
                       and value == d.coercion.target for name, value in extra.items())
            assert ({name: planned.set_environ[name] for name in coerced}, planned.messages) \
                == (coerced, printed)
            assert planned.why.startswith(d.reasons["coercion"].detail)
            assert planned.environ == dict(environ, **planned.set_environ)


_COERCION_WHY = ("the legacy C locale is coerced to C.UTF-8, the first available of C.UTF-8, "
                 "C.utf8, UTF-8; LC_CTYPE exported; ")
_SHIPPED_WARNING = ("Python detected LC_CTYPE=C: LC_CTYPE coerced to C.UTF-8 (set another locale "
                    "or PYTHONCOERCECLOCALE=0 to disable this locale coercion behavior).")


@pytest.mark.fast
@pytest.mark.parametrize("version", ["3.7", "3.11", "3.14", "3.15"])
def test_a_37_plus_gets_the_target_where_a_variable_names_a_missing_locale(version):
    # LANG=en_US.UTF-8 without the locale: the 3.7+ child's own coercion exports LC_CTYPE
    # alone, so its setlocale(LC_ALL, "") fails and its children are in C. It gets what any
    # program gets; the UTF-8 mode the C locale gave it is given back (3.15 has it by
    # default), and the coercion warning it would have printed is printed for it.
    facts = groundtruth.utf8env.LocaleFacts({"C.UTF-8": "UTF-8"}, "ANSI_X3.4-1968")
    python = "/usr/bin/python" + version
    mode = () if version == "3.15" else ("-X", "utf8=1")

    def planned(environ, args=("app.py",), **switches):
        p = launch.plan(environ, python, ["python3"] + list(args), facts, python=version,
                        **switches)
        assert p.environ == dict(environ, **p.set_environ)
        return p.set_environ, p.argv, p.messages, p.why, p.notes, p.refusal

    both = {"LC_CTYPE": "C.UTF-8", "LANG": "C.UTF-8"}
    why = _COERCION_WHY + ("LANG=en_US.UTF-8 names a locale the libc does not have, which "
                           "would keep a program that asks for every category (setlocale(LC_ALL, "
                           "\"\")) in the C locale: LANG set to C.UTF-8 too")
    assert planned({"LANG": "en_US.UTF-8"}) == (
        both, ("python3",) + mode + ("app.py",), (), why, (), None)
    assert planned({"LANG": "en_US.UTF-8", "PYTHONCOERCECLOCALE": "warn"})[:3] == (
        both, ("python3",) + mode + ("app.py",), (_SHIPPED_WARNING,))
    # Every category that names one; one the libc has keeps its value.
    assert planned({"LANG": "en_US.UTF-8", "LC_MESSAGES": "de_DE.UTF-8", "LC_TIME": "C.UTF-8",
                    "LC_NUMERIC": "POSIX"})[0] == dict(both, LC_MESSAGES="C.UTF-8")
    # Its own UTF-8 mode choice stays its own: -X utf8=0 is not overridden.
    assert planned({"LANG": "en_US.UTF-8"}, ("-X", "utf8=0", "app.py"))[:2] == (
        both, ("python3", "-X", "utf8=0", "app.py"))
    # -E hides PYTHONCOERCECLOCALE=0 from it: it coerces, and gets the rest too.
    assert planned({"LANG": "en_US.UTF-8", "PYTHONCOERCECLOCALE": "0"}, ("-E", "app.py"))[0] \
        == both
    # Where it would not coerce, or coerces enough by itself, nothing: the coercion off,
    # LC_ALL (never overridden unasked), no target installed, LC_CTYPE the only variable
    # (its own coercion replaces it), --no-coercion.
    nothing = ({}, ("python3", "app.py"), (), "", (), None)
    assert planned({"LANG": "en_US.UTF-8", "PYTHONCOERCECLOCALE": "0"}) == nothing
    assert planned({"LC_ALL": "C", "LANG": "en_US.UTF-8"}) == nothing
    assert planned({"LC_CTYPE": "en_US.UTF-8"}) == nothing
    assert launch.plan({"LANG": "en_US.UTF-8"}, python, ["python3", "app.py"],
                       groundtruth.utf8env.LocaleFacts({}, "ANSI_X3.4-1968"), python=version
                       ).set_environ == {}
    assert planned({"LANG": "en_US.UTF-8"}, coercion_switch=False)[0] == {
        "PYTHONCOERCECLOCALE": "0"}
    # --no-warning: the variables, and no warning.
    assert planned({"LANG": "en_US.UTF-8", "PYTHONCOERCECLOCALE": "warn"},
                   warning_switch=False)[:3] == (both, ("python3",) + mode + ("app.py",), ())


@pytest.mark.fast
def test_the_launch_of_a_37_plus_plans_wherever_a_variable_names_a_missing_locale():
    # _run's cheap test (no engine) is true wherever plan() changes a 3.7+ with nothing asked.
    for version in ("3.7", "3.11", "3.15"):
        for environ in _LAUNCH_ENVIRONMENTS + [{"LANG": "en_US.UTF-8", "LC_TIME": "xx_YY"},
                                               {"LC_MESSAGES": "xx_YY", "LANG": "C"}]:
            for codesets in _LAUNCH_FACTS:
                facts = groundtruth.utf8env.LocaleFacts(codesets, "ANSI_X3.4-1968")
                planned = launch.plan(environ, "/usr/bin/python3", ["python3"], facts,
                                      python=version)
                if planned.environ != environ or planned.argv != ("python3",):
                    assert _run._may_name_a_locale(environ), environ
                    assert _run._names_a_missing_locale(environ, codesets), environ


@pytest.mark.fast
def test_a_missing_locale_is_replaced_for_a_program_asking_for_every_category():
    # glibc's setlocale(LC_ALL, "") fails as a whole where one category names a locale it
    # lacks: the coerced LC_CTYPE alone would not reach `wc` (tests/test_fixed_where.py
    # measures it in a real world).
    def planned(environ, codesets={"C.UTF-8": "UTF-8", "en_US.UTF-8": "UTF-8"}):
        got = launch.plan_any_program(environ, "/usr/bin/wc", ["wc"], codesets)
        return got.set_environ, got.why
    assert planned({"LANG": "de_DE.UTF-8"}) == ({"LC_CTYPE": "C.UTF-8", "LANG": "C.UTF-8"}, (
        "the legacy C locale is coerced to C.UTF-8, the first available of C.UTF-8, C.utf8, "
        "UTF-8; LC_CTYPE exported; LANG=de_DE.UTF-8 names a locale the libc does not have, "
        "which would keep a program that asks for every category (setlocale(LC_ALL, \"\")) in "
        "the C locale: LANG set to C.UTF-8 too"))
    # A variable the libc accepts keeps its value; each missing one is named.
    assert planned({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8",
                    "LC_TIME": "en_US.UTF-8", "LC_NUMERIC": "POSIX"})[0] == {
        "LC_CTYPE": "C.UTF-8", "LANG": "C.UTF-8", "LC_MESSAGES": "C.UTF-8"}
    # Nothing coerced, nothing replaced: no target, the coercion turned off, the C locale
    # chosen by LC_ALL, or a locale that loads.
    assert planned({"LANG": "de_DE.UTF-8"}, {})[0] == {}
    assert planned({"LANG": "de_DE.UTF-8", "PYTHONCOERCECLOCALE": "0"})[0] == {}
    assert planned({"LC_ALL": "C", "LANG": "de_DE.UTF-8"})[0] == {}
    assert planned({"LANG": "en_US.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"})[0] == {}
    assert planned({"LANG": "C"})[0] == {"LC_CTYPE": "C.UTF-8"}
    # Python 3.6 decodes its command line after setlocale(LC_ALL, ""): the same for it.
    facts = groundtruth.utf8env.LocaleFacts({"C.UTF-8": "UTF-8"}, "ANSI_X3.4-1968")
    old = launch.plan({"LANG": "de_DE.UTF-8"}, "/usr/bin/python3.6", ["python3.6", "x.py"],
                      facts, python="3.6")
    assert old.set_environ == {"LC_CTYPE": "C.UTF-8", "LANG": "C.UTF-8"}


def test_python_36_decodes_its_command_line_where_lang_names_a_missing_locale():
    # 3.6 decodes argv after setlocale(LC_ALL, ""), which a LANG naming a missing locale
    # makes fail: LC_CTYPE=C.UTF-8 alone leaves `Zo\xeb` undecoded (while its file-system
    # encoding is UTF-8). Through `run`, LANG gets the target too and the name is text.
    py36 = machine.python("3.6")
    facts = groundtruth.utf8env.probe_locales({"PATH": "/usr/bin:/bin"}, ["C.UTF-8", "de_DE.UTF-8"])
    if not facts.accepts("C.UTF-8") or facts.accepts("de_DE.UTF-8"):
        pytest.skip("needs C.UTF-8 installed and de_DE.UTF-8 missing")
    code = "import sys; print(ascii(sys.argv[1]), sys.getfilesystemencoding())"
    env = {"PATH": "/usr/bin:/bin", "LANG": "de_DE.UTF-8"}
    name = "Zo\u00eb".encode("utf-8")
    direct = subprocess.run([py36, "-c", code, name], env=dict(env, LC_CTYPE="C.UTF-8"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (direct.returncode, direct.stdout) == (0, b"'Zo\\udcc3\\udcab' utf-8\n")
    via = subprocess.run(UTF8ENV + ["run", "--", py36, "-c", code, name], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (via.returncode, via.stdout, via.stderr) == (0, b"'Zo\\xeb' utf-8\n", b"")


@pytest.mark.parametrize("words, without_options", [
    (["--", "true"], True), (["--"], True), (["true", "-x", "--"], True), (["true"], True),
    (["--", "--utf8", "1"], True), (["--", "-"], True), (["-", "x"], False), ([], False),
    (["--utf8", "1", "true"], False), (["--utf8=1", "--", "x"], False), (["-h"], False),
    (["--no-coercion", "x"], False), (["--no-warning", "--", "x"], False),
])
@pytest.mark.fast
def test_run_without_options_of_its_own_takes_its_operands_as_the_parser_does(words, without_options):
    # `run -- COMMAND` is not parsed (no declaration is made): the same operands and the
    # same switches as parse() gives.
    from utf8env import _cli as cli, _commands as commands, _options as options
    from utf8env._run import switches
    operands = cli._run_operands(list(words))
    assert (operands is not None) == without_options
    if without_options:
        args, parsed = options.parse(commands.declaration("run"), words)
        assert (parsed, switches(args)) == (operands, switches(None))


@pytest.mark.parametrize("version", ["3.7", "3.8", "3.11", "3.14", "3.15"])
@pytest.mark.fast
def test_a_37_plus_child_with_nothing_asked_or_set_needs_no_more_decisions(version):
    # _native_controls answers ({}, ()) without a decide() where nothing is asked and the
    # launcher set nothing: what the full reasoning gives in every such start.
    facts = groundtruth.utf8env.LocaleFacts({"C.UTF-8": "UTF-8", "en_US.UTF-8": "UTF-8"},
                                            "ANSI_X3.4-1968")
    environs = [{}, {"LANG": "C"}, {"LC_ALL": "C"}, {"LANG": "en_US.UTF-8"}, {"LANG": "xx_YY"},
                {"LANG": "C", "PYTHONUTF8": "0"}, {"LANG": "C", "PYTHONUTF8": "1"},
                {"PYTHONUTF8": "bad"}, {"LANG": "C", "PYTHONIOENCODING": "nope"},
                {"LANG": "C", "PYTHONIOENCODING": "hex"}, {"LANG": "C", "PYTHONCOERCECLOCALE": "warn"},
                {"LANG": "C", "PYTHONCOERCECLOCALE": "0"}]
    argss = [(), ("-X", "utf8=0", "x.py"), ("-X", "utf8"), ("-I", "-c", "pass"), ("-E", "x.py"),
             ("--bad",), ("-X", "utf8=bad")]
    for environ in environs:
        for args in argss:
            for utf8 in (None, "0", "1", "strict"):
                child = python_child.child(environ, args, version, facts, utf8)
                full_notes, notes = [], []
                full = python_child._native_controls(dict(environ), args, version, facts, child,
                                                     None, None, full_notes, True)
                short = python_child._native_controls(dict(environ), args, version, facts, child,
                                                      None, None, notes, False)
                assert (short, notes) == (full, full_notes) == (({}, ()), []), (environ, args, utf8)


@pytest.mark.parametrize("argv, expected", [
    (["python3.6", "-b", "-c", "print('\xe9')", "\udcff"],
     ("python3.6", "-b", "-c", RUN_COMMAND, "\udcff")),
    (["python3.6", "-bc", "print('\xe9')", "x"], ("python3.6", "-b", "-c", RUN_COMMAND, "x")),
    (["python3.6", "-bcprint('\xe9')", "x"], ("python3.6", "-b", "-c", RUN_COMMAND, "x")),
    (["python3.6", "-cprint('\xe9')"], ("python3.6", "-c", RUN_COMMAND)),
])
@pytest.mark.fast
def test_plan_for_36_without_a_utf8_locale_passes_non_ascii_code_as_bytes(argv, expected):
    facts = groundtruth.utf8env.LocaleFacts({}, "ANSI_X3.4-1968")
    p = launch.plan({}, "/usr/bin/python3.6", argv, facts, python="3.6")
    assert p.argv == expected
    assert p.environ["UTF8ENV_CODE"] == "7072696e742827c3a92729"
    assert p.notes == ("sys.getfilesystemencoding() stays ascii: Python 3.6 fixes it at start-up "
                       "from the locale (LC_CTYPE C), and no UTF-8 locale could be set",)


@pytest.mark.parametrize("argv", [
    ["python3.6", "-c", "print('ascii')", "\xe9"],         # 3.6 decodes ASCII code itself
    ["python3.6", "caf\xe9.py", "\xe9"],                 # a script and its arguments stay
    ["python3.6", "-m", "caf\xe9", "\xe9"],              # as 3.6 decodes them, consistent
    ["python3.6", "--", "script.py"],                     # with its filesystem encoding
])
@pytest.mark.fast
def test_plan_for_36_rewrites_nothing_else(argv):
    facts = groundtruth.utf8env.LocaleFacts({}, "ANSI_X3.4-1968")
    p = launch.plan({}, "/usr/bin/python3.6", argv, facts, python="3.6")
    assert p.argv == tuple(argv) and "UTF8ENV_CODE" not in p.environ and p.bootstrap


UNDECODABLE = b"xxx\xff"
LIST = "import os\nfor name in sorted(os.listdir('.')):\n    print(name)\n"


@pytest.mark.parametrize("world", ["installed", "no-locales"])
def test_pep540_list_a_directory_on_36(world, tmp_path):
    """PEP 540 "List a directory into stdout": under UTF-8 mode the bytes come back exactly."""
    py36 = machine.python("3.6")
    needs_worlds()
    folder = str(tmp_path).encode()
    os.mkdir(folder + b"/d")
    open(folder + b"/d/" + UNDECODABLE, "w").close()
    job = worlds.Job(["sh", "-c", 'cd "$1" && shift && exec "$@"', "sh", os.fsdecode(folder + b"/d")]
                     + UTF8ENV + ["run", "--", py36, "-c", LIST], dict(BASE, LANG="C"))
    [result] = worlds.run(world, [job], HOST)
    assert (result.returncode, result.stdout, result.stderr) == (0, UNDECODABLE + b"\n", b"")


STRICT = ("import os, sys\n"
          "print(os.listdir('.'))\n"
          "try:\n    sys.stdin.read()\nexcept UnicodeDecodeError as e:\n    print('UnicodeDecodeError', e.reason)\n")


@pytest.mark.parametrize("version", ["3.6", "3.13"])
def test_strict_mode_through_the_launcher(version, tmp_path):
    open(os.path.join(str(tmp_path).encode(), UNDECODABLE), "w").close()
    result = subprocess.run(UTF8ENV + ["run", "--utf8", "strict", "--", machine.python(version), "-c", STRICT],
                            env=dict(BASE, LANG="C"), cwd=str(tmp_path), input=b"\xff\n",
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout == b"['xxx\\udcff']\nUnicodeDecodeError invalid start byte\n"


GRANDCHILD = ("import os, subprocess, sys\n"
              "print(sys.stdout.errors, os.environ.get('LC_CTYPE'))\n"
              "sys.stdout.flush()\n"
              "subprocess.call([sys.executable, '-c', 'import os, sys; print(sys.stdout.errors, "
              "os.environ.get(\"LC_CTYPE\"), [k for k in os.environ if k.startswith(\"UTF8ENV\")], "
              "os.environ.get(\"PYTHONPATH\"))'])\n")


def test_36_grandchild_inherits_the_coercion_not_the_utf8_mode(tmp_path):
    user = str(tmp_path)
    with open(os.path.join(user, "sitecustomize.py"), "w") as f:
        f.write("import os\nos.write(2, b'user sitecustomize\\n')\n")
    result = subprocess.run(UTF8ENV + ["run", "--", machine.python("3.6"), "-c", GRANDCHILD],
                            env=dict(BASE, LANG="C", PYTHONPATH=user), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    # The child: UTF-8 mode (surrogateescape) in the coerced locale; the grandchild: the
    # coerced locale, which 3.6 handles with strict, and none of the bootstrap.
    assert result.stdout == ("surrogateescape C.UTF-8\nstrict C.UTF-8 [] %s\n" % user).encode()
    # The user's sitecustomize ran in the child and in the grandchild.
    assert result.stderr == b"user sitecustomize\nuser sitecustomize\n"


# -- What is a Python: names, #! lines, shims --------------------------------------------

def test_a_pyenv_shim_is_the_version_the_command_will_see(tmp_path):
    machine.python("3.6"), machine.python("3.13")
    shims = os.path.join(interpreters.pyenv_root(), "shims")
    if not os.access(os.path.join(shims, "python3"), os.X_OK):
        pytest.skip("no pyenv shims at %s: install pyenv (`pyenv rehash` makes them)" % shims)
    env = dict(BASE, PATH=shims + ":/usr/bin:/bin", PYENV_ROOT=interpreters.pyenv_root(),
               LANG="C", HOME=str(tmp_path))
    show = "import sys; print(sys.version_info[:2], sys.stdout.encoding, sys.stdout.errors)"
    for version, line in (("3.6.15", b"(3, 6) utf-8 surrogateescape\n"),
                          ("3.13.0", b"(3, 13) utf-8 surrogateescape\n"),
                          ("3.6.15", b"(3, 6) utf-8 surrogateescape\n")):
        result = subprocess.run(UTF8ENV + ["run", "--", "python3", "-c", show],
                                env=dict(env, PYENV_VERSION=version),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert (result.returncode, result.stdout, result.stderr) == (0, line, b"")


@pytest.mark.parametrize("answer", [
    "exit 3",                           # named python3, but does not answer the question
    "echo 2.7 linux2; exit 0",          # a Python utf8env has no policy for
])
@pytest.mark.fast
def test_a_python_it_cannot_model_runs_with_the_coercion_alone(tmp_path, answer):
    fake = tmp_path / "python3"
    fake.write_text('#!/bin/sh\ncase "$1" in -E) %s ;; esac\necho "run: $LC_CTYPE $*"\n' % answer)
    fake.chmod(0o755)
    result = run(["--", str(fake), "a", "b"], env={"HOME": str(tmp_path)})
    assert (result.returncode, result.stdout, result.stderr) == (0, b"run: C.UTF-8 a b\n", b"")


@pytest.mark.parametrize("version, flags", [("3.6", "-"), ("3.11", "1")])
def test_a_console_script_gets_utf8_mode_on_36_and_the_option_on_311(tmp_path, version, flags):
    script = tmp_path / ("tool" + version)
    script.write_text("#!%s\nimport sys\nprint('found: xxx\\udcff', getattr(sys.flags, "
                      "'utf8_mode', '-'), sys.stdout.encoding, sys.argv[1:])\n"
                      % machine.python(version))
    script.chmod(0o755)
    result = run(["--utf8", "1", "--", str(script), "\xe9"], env={"LANG": "C"})
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout == ("found: xxx\udcff %s utf-8 ['\xe9']\n" % flags).encode(
        "utf-8", "surrogateescape")


def test_an_env_shebang_is_started_as_env_starts_it(tmp_path):
    script = tmp_path / "tool"
    script.write_text("#!/usr/bin/env python3.11\nimport sys\nprint(sys.flags.utf8_mode, sys.argv)\n")
    script.chmod(0o755)
    folder = os.path.dirname(machine.python("3.11"))
    result = run(["--utf8", "0", "--", str(script), "x"], env={"LANG": "C", "PATH": folder + ":/usr/bin:/bin"})
    assert (result.returncode, result.stdout, result.stderr) == (
        0, ("0 [%r, 'x']\n" % str(script)).encode(), b"")


def test_a_venv_console_script_is_a_python_through_its_symlinked_interpreter(tmp_path):
    # A venv's bin/python is a symlink, named python: the name alone says it is one.
    venv = tmp_path / "venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").symlink_to(machine.python("3.11"))
    script = venv / "tool"
    script.write_text("#!%s\nimport sys\nprint(sys.flags.utf8_mode)\n" % (venv / "python"))
    script.chmod(0o755)
    for utf8 in ("0", "1"):
        result = run(["--utf8", utf8, "--", str(script)], env={"LANG": "C", "HOME": str(tmp_path)})
        assert (result.returncode, result.stdout, result.stderr) == (0, utf8.encode() + b"\n", b"")


def _files_to_recognise(tmp_path):
    """Files of every kind python_command looks at: names, symlinks, #! lines, binaries."""
    # Recognised by name and bytes: a stand-in named as pyenv's is, run by nothing here.
    folder = tmp_path / "versions" / "3.11.7" / "bin"
    folder.mkdir(parents=True)
    (folder / "python3.11").write_bytes(b"\x7fELF")
    (folder / "python3.11").chmod(0o755)
    python = str(folder / "python3.11")
    made = {}

    def write(name, data):
        path = tmp_path / name
        path.write_bytes(data)
        path.chmod(0o755)
        made[name] = str(path)

    write("python3", b"#!/bin/sh\n")
    write("python", b"\x7fELF")
    write("python3.11d", b"")
    write("pythonic", b"")                      # a name that only starts like one
    write("tool", b"#!%s\nprint()\n" % python.encode())
    write("env-tool", b"#!/usr/bin/env python3\n")
    write("trampoline", b"#!/bin/sh\n'''exec' \"%s\" \"$0\" \"$@\"\n" % python.encode())
    write("sh-script", b"#!/bin/sh\necho\n")
    write("binary", open("/bin/true", "rb").read())
    write("empty", b"")
    write("one-byte", b"#")
    (tmp_path / "link").symlink_to(python)
    made["link"] = str(tmp_path / "link")
    (tmp_path / "link-to-true").symlink_to("/bin/true")
    made["link-to-true"] = str(tmp_path / "link-to-true")
    made["missing"] = str(tmp_path / "missing")
    made["/bin/true"] = "/bin/true"
    return made


@pytest.mark.fast
def test_what_may_start_a_python_includes_all_that_does(tmp_path):
    # launch loads interpreter.py only where it may find a Python: never where it would.
    from utf8env._interpreter import python_command
    files = _files_to_recognise(tmp_path)
    pythons = {name for name, path in files.items() if python_command(path) is not None}
    assert pythons == {"python3", "python", "python3.11d", "tool", "env-tool", "trampoline", "link"}
    for name, path in files.items():
        assert _run._may_start_python(path) or name not in pythons, name
    # An ordinary program is known for one from its name (a link's: its target's) and two
    # bytes.
    for name in ("binary", "/bin/true", "link-to-true"):
        assert not _run._may_start_python(files[name]), name


# -- Signals ----------------------------------------------------------------------------

def _sig_lines(argv):
    out = subprocess.run(argv, stdout=subprocess.PIPE, env=BASE).stdout.decode()
    return [line for line in out.splitlines() if line.startswith(("SigIgn", "SigBlk"))]


@pytest.mark.fast
def test_signal_dispositions_and_mask_reach_the_command_as_without_the_launcher():
    # CPython ignores SIGPIPE and SIGXFSZ for itself; exec would keep that.
    direct = _sig_lines(["grep", "-E", "^Sig(Ign|Blk)", "/proc/self/status"])
    through = _sig_lines(UTF8ENV + ["run", "--", "grep", "-E", "^Sig(Ign|Blk)", "/proc/self/status"])
    assert through == direct and len(direct) == 2


@pytest.mark.fast
def test_a_broken_pipe_ends_the_command_as_without_the_launcher():
    script = "%s run -- yes | head -1; echo \"${PIPESTATUS[@]}\"" % " ".join(map(shlex.quote, UTF8ENV))
    result = subprocess.run(["bash", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=BASE)
    assert (result.stdout, result.stderr) == (b"y\n141 0\n", b"")


@pytest.mark.fast
def test_a_colon_in_the_install_path_never_reaches_pythonpath(monkeypatch):
    monkeypatch.setattr(python_child, "BOOTSTRAP_DIR", "/opt/a:b/utf8env/_child/bootstrap")
    facts = groundtruth.utf8env.LocaleFacts({"C.UTF-8": "UTF-8"}, "ANSI_X3.4-1968")
    p = launch.plan({"LANG": "C"}, "/usr/bin/python3.6", ["python3.6", "x.py"], facts, python="3.6")
    assert (p.bootstrap, "PYTHONPATH" in p.environ, p.environ["LC_CTYPE"]) == (False, False, "C.UTF-8")
    assert p.notes == ("utf8env is installed in '/opt/a:b/utf8env/_child/bootstrap', whose colon "
                       "PYTHONPATH cannot carry: the bootstrap is not injected, the child runs "
                       "without UTF-8 mode",)


SHOW = ("import locale, os, sys; print(sys.flags.utf8_mode, locale.setlocale(locale.LC_CTYPE), "
        "os.environ.get('LC_CTYPE'), os.environ.get('LC_ALL'), os.environ.get('PYTHONCOERCECLOCALE'))")
_COERCED = (b"Python detected LC_CTYPE=C: LC_CTYPE coerced to C.UTF-8 (set another locale or "
            b"PYTHONCOERCECLOCALE=0 to disable this locale coercion behavior).\n")


@pytest.mark.parametrize("switches, env, out, err", [
    ([], {"PYTHONCOERCECLOCALE": "warn"}, b"1 C.UTF-8 C.UTF-8 None warn\n", _COERCED),
    (["--no-coercion"], {}, b"1 C None None 0\n", b""),
    (["--no-coercion"], {"PYTHONCOERCECLOCALE": "warn"}, b"1 C None None 0\n", b""),
    (["--no-warning"], {"PYTHONCOERCECLOCALE": "warn"}, b"1 C.UTF-8 C.UTF-8 None 1\n", b""),
    (["--no-warning"], {}, b"1 C.UTF-8 C.UTF-8 None None\n", b""),     # nothing to silence
    (["--policy", "pep538-draft"], {}, b"1 C.UTF-8 None C.UTF-8 None\n",
     b"Python detected LC_CTYPE=C, LC_ALL & LANG set to C.UTF-8 (set PYTHONCOERCECLOCALE=0 to "
     b"disable this locale coercion behaviour).\n"),
])
def test_switches_mean_what_they_say_for_a_37_plus_child(switches, env, out, err):
    # Each through the child's own controls: its UTF-8 mode (on in LANG=C) is never lost.
    result = run(switches + ["--", machine.python("3.11"), "-c", SHOW], env=dict(env, LANG="C"))
    assert (result.returncode, result.stdout, result.stderr) == (0, out, err)


@pytest.mark.parametrize("env", [{"LANG": "\udce9"}, {"LANG": "en_US.UTF-8"},
                                 {"LANG": "C.UTF-8", "LC_TIME": "bogus"}])
def test_36_decodes_non_ascii_code_where_a_missing_locale_fails_its_setlocale(env):
    # 3.6 decodes argv after setlocale(LC_ALL, ""), which fails whole when any category names
    # a missing locale (here: none of these is installed), even with LC_CTYPE=C.UTF-8.
    # Without the launcher: "Unable to decode the command from the command line".
    code = "import codecs, sys; print('\xe9', codecs.lookup(sys.stdout.encoding).name)"
    py36 = machine.python("3.6")
    direct = subprocess.run([py36, "-c", code], env=dict(BASE, LC_CTYPE="C.UTF-8", **env),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (direct.returncode, direct.stderr.startswith(b"Unable to decode the command")) == (1, True)
    result = run(["--", py36, "-c", code], env=env)
    assert (result.returncode, result.stdout, result.stderr) == (0, "\xe9 utf-8\n".encode(), b"")
