"""`utf8env explain` as a user runs it: exact output, exit codes, one-line errors; and the
package running under every CPython 3.6-3.13 that pyenv holds."""
import json
import os
import subprocess
import sys

import pytest

from support import machine

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")


def utf8env(*args, python=sys.executable, env=None):
    environ = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": SRC, "LANG": "C.UTF-8"}
    environ.update(env or {})
    result = subprocess.run([python, "-m", "utf8env"] + list(args), env=environ,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return result.returncode, result.stdout.decode("utf-8"), result.stderr.decode("utf-8")


@pytest.mark.fast
def test_explain_text_table():
    code, out, err = utf8env("explain", "--version", "3.7", "--empty-env", "--env", "LANG=C",
                             "--locales", "C.UTF-8")
    assert (code, err) == (0, "")
    assert out == """\
Python 3.7 on linux, policy 3.7

start-up            starts
legacy C locale     yes                     LANG=C: LANG=C selects the legacy C locale
locale coercion     to C.UTF-8              LANG=C: the legacy C locale is coerced to C.UTF-8, the first available of C.UTF-8, C.utf8, UTF-8; LC_CTYPE exported
UTF-8 mode          on                      LANG=C: the C/POSIX locale turns UTF-8 mode on
LC_CTYPE            C.UTF-8                 coercion: the coercion set LC_CTYPE=C.UTF-8
filesystem          utf-8/surrogateescape   LANG=C: UTF-8 mode
stdin               utf-8/surrogateescape   LANG=C: UTF-8 mode
stdout              utf-8/surrogateescape   LANG=C: UTF-8 mode
stderr              utf-8/backslashreplace  LANG=C: stderr uses the stdout encoding with backslashreplace, always
open()              UTF-8/strict            LANG=C: UTF-8 mode
preferred encoding  UTF-8                   LANG=C: UTF-8 mode
child processes     LC_CTYPE=C.UTF-8        coercion: the coerced locale is exported to every child process

1 problem

warning LC_CTYPE is the C locale (LANG=C): ASCII for every program but Python 3.7+, which coerces it
        - LANG=C (where it came from is not looked for: explain describes an environment, not a place; utf8env doctor looks in the place)
        fix: ~/.profile (login shells):
            export LANG=C.UTF-8
"""


@pytest.mark.fast
def test_explain_json_schema():
    code, out, err = utf8env("explain", "--json", "--version", "3.13", "--empty-env",
                             "--env", "LC_ALL=C", "--env", "PYTHONCOERCECLOCALE=warn",
                             "--locales", "C.UTF-8", "--", "python3.13", "-X", "utf8=0")
    assert (code, err) == (0, "")
    data = json.loads(out)
    for key in ("schema", "python", "platform", "policy", "startup_error", "legacy_c_locale",
                "coercion", "utf8_mode", "filesystem", "stdin", "stdout", "stderr", "open",
                "preferred_encoding", "stderr_messages", "child_environ", "reasons"):
        assert key in data
    assert data["schema"] == 1 and data["python"] == "3.13" and data["utf8_mode"] == 0
    assert data["coercion"] is None
    assert data["stdout"] == {"encoding": "ascii", "errors": "surrogateescape"}
    assert data["open"] == {"encoding": "ANSI_X3.4-1968", "errors": "strict"}
    assert data["stderr_messages"] == [
        "Python runtime initialized with LC_CTYPE=C (a locale with default ASCII encoding), "
        "which may cause Unicode compatibility problems. Using C.UTF-8, C.utf8, or UTF-8 "
        "(if available) as alternative Unicode-compatible locales is recommended."]
    assert data["reasons"]["utf8_mode"] == {"source": "-X utf8=0", "detail": "the first -X utf8 option decides; PYTHONUTF8 is not read"}
    assert data["reasons"]["coercion"]["source"] == "LC_ALL=C"


@pytest.mark.fast
def test_explain_startup_error_json():
    code, out, _ = utf8env("explain", "--json", "--version", "3.8", "--empty-env",
                           "--env", "PYTHONUTF8=strict", "--locales", "C.UTF-8")
    data = json.loads(out)
    assert code == 0
    assert data["startup_error"] == {
        "message": "Fatal Python error: preconfig_init_utf8_mode: invalid PYTHONUTF8 "
                   "environment variable value\nPython runtime state: preinitializing\n",
        "exit_code": 1}


@pytest.mark.fast
def test_pep538_draft_policy():
    code, out, _ = utf8env("explain", "--json", "--version", "3.6", "--policy", "pep538-draft",
                           "--empty-env", "--locales", "en_US.UTF-8")
    data = json.loads(out)
    assert data["coercion"] == {"target": "en_US.UTF-8", "environ": {"LC_CTYPE": "en_US.UTF-8"}}
    assert data["stderr_messages"] == ["Python detected LC_CTYPE=C, LC_CTYPE set to en_US.UTF-8 "
                                       "(set PYTHONCOERCECLOCALE=0 to disable this locale coercion behaviour)."]


@pytest.mark.fast
def test_real_libc_locale_facts_under_target_environment(tmp_path):
    # No LOCPATH locale exists for a made-up name; the answer comes from the real libc.
    code, out, _ = utf8env("explain", "--json", "--version", "3.12", "--empty-env",
                           "--env", "LANG=xx_YY.UTF-8")
    data = json.loads(out)
    assert data["legacy_c_locale"] is True
    assert data["reasons"]["legacy_c_locale"]["detail"] == \
        "LANG=xx_YY.UTF-8 names a locale the libc does not have, so LC_CTYPE stays C"


@pytest.mark.parametrize("command", ["explain", "env"])
def test_the_libc_is_asked_under_the_targets_locpath_in_process_and_in_a_fork(command, capsys):
    # As its own process (`python -m utf8env`), explain and env ask libc in that process;
    # called from another program's process (cli.main(argv)), in a fork. The same answers,
    # LOCPATH of the target's environment included.
    from utf8env import _cli as cli
    from utf8env import _worlds as worlds
    machine.worlds()
    worlds.prepare(["/"])
    target = ["--empty-env", "--env", "LANG=en_US.UTF-8"] + (
        ["--version", "3.12", "--json"] if command == "explain" else ["--version", "3.6", "--", "python3.6"])
    for locpath, legacy in ((None, True), (worlds.world_dir("en_US-only", "/"), False)):
        args = [command] + (["--env", "LOCPATH=" + locpath] if locpath else []) + target
        code, own, err = utf8env(*args)
        assert (code, err) == (0, "")
        assert cli.main(args) == 0
        assert capsys.readouterr().out == own
        if command == "explain":
            assert json.loads(own)["legacy_c_locale"] is legacy
        elif legacy:
            # LANG names a locale the libc lacks: 3.6 gets it replaced (preconfig.whole_locale).
            assert own.startswith("export LANG=C.UTF-8\nexport LC_CTYPE=C.UTF-8\n"
                                  "export PYTHONIOENCODING=")
        else:
            assert own == ("# utf8env: nothing to set: nothing to coerce: the locale is not the "
                           "legacy C locale\n")


def test_interpreter_version_found_by_running_it():
    code, out, err = utf8env("explain", "--json", "--empty-env", machine.python("3.6"), "-X", "utf8")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert (data["python"], data["utf8_mode"]) == ("3.6", 0)


@pytest.mark.parametrize("args,message", [
    (["explain", "--env", "FOO"], "utf8env: error: --env 'FOO': expected NAME=VALUE\n"),
    (["explain", "--version", "3.5"], "utf8env: error: version '3.5': expected one of 3.6, 3.7, "
                                      "3.8, 3.9, 3.10, 3.11, 3.12, 3.13, 3.14, 3.15\n"),
    (["explain", "--version", "3.9", "--policy", "pep999"],
     "utf8env: error: policy 'pep999': expected one of 3.6, 3.7, 3.8, 3.9, 3.10, 3.11, 3.12, "
     "3.13, 3.14, 3.15, pep538-draft, pep540-draft\n"),
    (["explain", "--version", "3.9", "--platform", "plan9"],
     "utf8env: error: --platform plan9 is not this machine: give --locales NAME,... to model its locales\n"),
    (["explain", "--version", "3.9", "--platform", "plan9", "--locales", "C.UTF-8"],
     "utf8env: error: platform 'plan9': expected one of linux, android, darwin, freebsd, "
     "openbsd, netbsd, sunos, aix, cygwin, win32\n"),
    (["explain", "no-such-python3"],
     "utf8env: error: interpreter 'no-such-python3': not found (give a path, a name on PATH, "
     "or --version X.Y to predict without running it)\n"),
    (["explain", "--locales", "C.UTF-8,"], "utf8env: error: --locales 'C.UTF-8,': expected "
                                          "NAME[=CODESET],... such as C.UTF-8,en_US.ISO-8859-1\n"),
    (["explain", "--frobnicate"], "utf8env: error: unrecognized arguments: --frobnicate\n"),
    (["frobnicate"], "utf8env: error: unknown command 'frobnicate': expected one of doctor, env, explain, fix, matrix, readiness, run\n"),
])
@pytest.mark.fast
def test_bad_input_is_one_line_exit_2(args, message):
    code, out, err = utf8env(*args)
    assert (code, out, err) == (2, "", message)


# A value typed with a newline, a tab or an escape sequence (a file name, an option): the
# error is still one line, and the terminal is not driven (ESC [1m would turn it bold).
TYPED = "a\nb\tc\x1b[1m"
SHOWN = "a\\x0ab\\x09c\\x1b[1m"


@pytest.mark.parametrize("args,message", [
    (["fix", "--from", TYPED, "m.py"], "fix: --from %s: No such file or directory" % SHOWN),
    (["doctor", "--compare", TYPED], "--compare %s: cannot read it (No such file or directory)"
     % SHOWN),
    (["readiness", "--frobnicate" + TYPED, "--", "pytest"],
     "unrecognized arguments: --frobnicate%s -- pytest" % SHOWN),
])
@pytest.mark.fast
def test_an_error_naming_what_was_typed_is_one_line_the_terminal_does_not_obey(
        args, message, tmp_path, monkeypatch):
    (tmp_path / "m.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.chdir(str(tmp_path))
    code, out, err = utf8env(*args)
    assert (code, out, err) == (2, "", "utf8env: error: %s\n" % message)


@pytest.mark.parametrize("command, hint", [
    (["explain"], "; give --version X.Y to predict without running it"),
    (["readiness", "--python"], ""),
    (["matrix", "--python"], ""),
])
@pytest.mark.fast
def test_an_interpreter_that_cannot_run_is_one_line_whose_hint_the_command_takes(
        command, hint, tmp_path, monkeypatch):
    """Only explain predicts without running (--version X.Y): readiness and matrix, which
    run the interpreter, name no option they do not take."""
    python = tmp_path / "python3.9"
    python.write_text("#!/bin/sh\nexit 1\n")
    python.chmod(0o755)
    (tmp_path / "x.py").write_text("pass\n")
    monkeypatch.chdir(str(tmp_path))
    rest = {"readiness": ["--", "pytest"], "matrix": ["x.py"]}.get(command[0], [])
    assert utf8env(*(command + [str(python)] + rest)) == (2, "", (
        "utf8env: error: interpreter %r: could not be run (exit status 1)%s\n" % (str(python),
                                                                                hint)))


def test_python27_is_refused():
    py27 = machine.python("2.7")
    code, _, err = utf8env("explain", py27)
    assert code == 2
    assert err == "utf8env: error: interpreter %r is Python 2.7: utf8env models CPython 3.6 to 3.15\n" % py27


@pytest.mark.parametrize("version", ["3.6", "3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13"])
def test_cli_runs_on_every_pyenv_python(version):
    code, out, err = utf8env("explain", "--json", "--version", "3.11", "--empty-env",
                             "--env", "LANG=C", python=machine.python(version))
    assert (code, err) == (0, "")
    assert json.loads(out)["coercion"]["target"] == "C.UTF-8"


@pytest.mark.fast
def test_explain_shows_control_characters_from_the_environment_escaped():
    code, out, err = utf8env("explain", "--empty-env", "--env", "LANG=\x1b[31mx\x07", "--version",
                             "3.11", "--locales", "C.UTF-8")
    assert (code, err) == (0, "")
    assert "\x1b" not in out and "\x07" not in out
    assert out.splitlines()[3] == (
        "legacy C locale       yes                     LANG=\\x1b[31mx\\x07: LANG=\\x1b[31mx\\x07 "
        "names a locale the libc does not have, so LC_CTYPE stays C")


def test_python_36_in_the_c_locale_prints_utf8env_output_as_utf8():
    # python3.6 -m utf8env in the C locale has an ASCII stdout: utf8env's own text (here
    # `print("é") raises UnicodeEncodeError`) goes out as UTF-8, as 3.7+ write it there
    # in UTF-8 mode, rather than failing.
    command = ("explain", "--empty-env", "--env", "LANG=C", "--version", "3.6", "--locales",
               "C.UTF-8")
    expected = utf8env(*command)
    assert expected[0] == 0 and 'print("\u00e9") raises UnicodeEncodeError' in expected[1]
    assert utf8env(*command, python=machine.python("3.6"), env={"LANG": "C"}) == expected


@pytest.mark.fast
def test_explain_36_lists_what_the_launcher_adds_and_cannot_change():
    code, out, _ = utf8env("explain", "--json", "--version", "3.6", "--empty-env", "--locales", "C")
    assert json.loads(out)["launcher"] == {
        "utf8_mode": 1, "bootstrap": True, "environ": {},
        "notes": ["sys.getfilesystemencoding() stays ascii: Python 3.6 fixes it at start-up from "
                  "the locale (LC_CTYPE C), and no UTF-8 locale could be set"]}
    code, out, _ = utf8env("explain", "--version", "3.6", "--empty-env", "--env", "LANG=C",
                           "--locales", "C.UTF-8")
    assert "\nthrough `utf8env run`:\n  the launcher sets LC_CTYPE=C.UTF-8\n" \
           "  UTF-8 mode on (bootstrap)\n\n3 problems\n" in out     # then doctor's verdict
    code, out, _ = utf8env("explain", "--json", "--version", "3.7", "--empty-env", "--locales", "C")
    assert json.loads(out)["launcher"] is None


@pytest.mark.parametrize("variable, value", [("LANG", b"\xe9"), ("LC_CTYPE", b"en_US.\xff")])
def test_an_undecodable_locale_name_is_a_missing_locale_as_for_the_real_interpreter(variable, value):
    # glibc finds no locale of that name and stays in C; the prediction says the same as
    # the real 3.11 started in that environment, and nothing crashes.
    from utf8env._own_command import own_command
    py311 = machine.python("3.11")
    environ = {b"PATH": b"/usr/bin:/bin", variable.encode(): value}
    out = subprocess.run(own_command() + ["explain", "--json", py311], env=environ,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (out.returncode, out.stderr) == (0, b"")
    predicted = json.loads(out.stdout.decode())
    real = subprocess.run([py311, "-c", "import json, locale, os, sys; os.write(1, json.dumps("
                           "[sys.flags.utf8_mode, sys.stdout.encoding, sys.stdout.errors, "
                           "locale.setlocale(locale.LC_CTYPE), os.environ.get('LC_CTYPE')]).encode())"],
                          env=environ, stdout=subprocess.PIPE)
    assert json.loads(real.stdout.decode()) == [
        predicted["utf8_mode"], predicted["stdout"]["encoding"], predicted["stdout"]["errors"],
        predicted["lc_ctype"], predicted["coercion"]["environ"]["LC_CTYPE"]]
    for command in (["run", "--", "true"], ["env"]):
        result = subprocess.run(own_command() + command, env=environ, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        assert (result.returncode, result.stderr) == (0, b"")


def _checkout_command(args, **redirects):
    from utf8env._own_command import own_command
    return subprocess.run(own_command() + list(args), env={"PATH": "/usr/bin:/bin"}, **redirects)


@pytest.mark.fast
def test_a_closed_stdout_is_one_line_and_status_1():
    result = _checkout_command(["explain", "--version", "3.9"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, pass_fds=(), close_fds=True,
                               preexec_fn=lambda: os.close(1))
    assert (result.returncode, result.stderr) == (
        1, b"utf8env: error: cannot write the output: standard output is closed\n")


@pytest.mark.fast
def test_a_full_disk_is_one_line_and_status_1():
    with open("/dev/full", "wb") as full:
        result = _checkout_command(["explain", "--version", "3.9"], stdout=full,
                                   stderr=subprocess.PIPE)
    assert (result.returncode, result.stderr) == (
        1, b"utf8env: error: cannot write the output: No space left on device\n")


@pytest.mark.parametrize("args, status", [(["run", "--", "no-such-command-x"], 127),
                                          (["run", "--utf8", "2", "true"], 125),
                                          (["explain", "--bogus"], 2)])
@pytest.mark.fast
def test_a_closed_stderr_keeps_the_status(args, status):
    result = _checkout_command(args, stdout=subprocess.PIPE, preexec_fn=lambda: os.close(2))
    assert (result.returncode, result.stdout) == (status, b"")
