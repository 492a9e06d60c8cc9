"""What runs on Windows itself, as rules (tests/test_windows_install.py runs the installed
command there, under Wine): run, env and doctor are for POSIX places, matrix and fix
--prove do not run there yet, each one line and status 2, and so do readiness's options
of Linux and Wine; --help lists them apart; and
stdout in a code page that cannot hold utf8env's text gets escapes, never UTF-8 bytes."""
import io
import sys

import pytest

from utf8env import _cli, _commands, _output

pytestmark = pytest.mark.fast

LINES = {
    "run": "run is for POSIX places, not Windows: it starts a program in a POSIX locale "
           "(PEP 538's coercion of the C locale)",
    "env": "env is for POSIX places, not Windows: its lines set the locale variables a POSIX "
           "shell, unit or image passes on",
    "doctor": "doctor is for POSIX places, not Windows: it reads the locale of POSIX places "
              "(ssh, cron, systemd, containers)",
    "matrix": "matrix does not run on Windows itself yet: its cells run in Linux locale "
              "worlds (matrix --windows: Windows CPython under Wine, from Linux)",
    "fix --prove": "fix --prove does not run on Windows itself yet: its runs are made in "
                   "Linux locale worlds; here, utf8env readiness -- pytest ARGS runs the "
                   "suite in this code page, UTF-8 mode off and on, and tries the fixes",
}
# readiness's options that have no meaning on Windows itself (readiness/_native.py).
NOT_HERE = {
    "--world": "readiness --world on Windows itself: its locale worlds are Linux's; on "
               "Windows the runs are in this machine's ANSI code page",
    "--windows": "readiness --windows on Windows itself: it runs Windows CPython under Wine, "
                 "from Linux; here the runs use this Windows' own Python (--python PATH)",
    "--code-page": "readiness --code-page on Windows itself: it sets Wine's code page (with "
                   "--windows); on Windows the runs are in this machine's",
    "--windows-requirements": "readiness --windows-requirements on Windows itself: it goes "
                              "with --windows; here the runs use the packages of each --python",
}


def test_each_refusal_on_windows_and_none_elsewhere():
    for name, line in LINES.items():
        assert _commands.windows_refusal(name, "win32") == line
        assert _commands.windows_refusal(name, "linux") is None
    for name in ("explain", "fix", "readiness", "unknown"):
        assert _commands.windows_refusal(name, "win32") is None


@pytest.mark.parametrize("argv, name", [
    (["run", "--", "cmd"], "run"), (["run", "cmd"], "run"), (["env", "--format", "sh"], "env"),
    (["doctor", "--help"], "doctor"), (["matrix"], "matrix"),
    (["fix", "--prove", ".", "--", "pytest"], "fix --prove")])
def test_on_windows_the_command_line_is_one_line_and_status_2(monkeypatch, capsys, argv, name):
    monkeypatch.setattr(sys, "platform", "win32")
    assert _cli.main(argv) == 2
    assert capsys.readouterr() == ("", "utf8env: error: %s\n" % LINES[name])


@pytest.mark.parametrize("argv, option", [
    (["--world", "latin1"], "--world"), (["--windows"], "--windows"),
    (["--windows", "3.12", "--code-page", "932"], "--windows"),
    (["--code-page", "932"], "--code-page"),
    (["--windows-requirements", "r.txt"], "--windows-requirements")])
def test_readiness_options_of_linux_say_so_on_windows(monkeypatch, capsys, argv, option):
    monkeypatch.setattr(sys, "platform", "win32")
    assert _cli.main(["readiness"] + argv + ["--", "pytest"]) == 2
    assert capsys.readouterr() == ("", "utf8env: error: %s\n" % NOT_HERE[option])


def test_help_on_windows_lists_apart_what_does_not_run_there():
    text = _commands.main_help("win32")
    commands = text[text.index("commands:\n"):text.index("\noptions:")]
    assert commands == """\
commands:
  explain     Predict and explain the text encodings a CPython starts with in
              an environment.
  readiness   Run a pytest (or unittest) suite twice, UTF-8 mode off (today)
              and on (Python 3.15), in a non-UTF-8 locale world, on Windows
              CPython under Wine, or on Windows itself in its code page, and
              list the tests that change and the call sites that use the locale
              encoding.
  fix         Find the calls that open text in the locale's encoding by default
              (open, Path.read_text, subprocess text=True, ...: what Python
              3.15's UTF-8 mode changes, PEP 686) and add encoding=, keeping
              the file's formatting. Exit status: 0 nothing found (listing:
              always), 1 found (--check, --diff), left to review (--write) or a
              file left alone, 2 bad input.

for POSIX places, not Windows:
  run         it starts a program in a POSIX locale (PEP 538's coercion of the
              C locale)
  env         its lines set the locale variables a POSIX shell, unit or image
              passes on
  doctor      it reads the locale of POSIX places (ssh, cron, systemd,
              containers)

not on Windows itself yet:
  matrix      its cells run in Linux locale worlds (matrix --windows: Windows
              CPython under Wine, from Linux)
  fix --prove its runs are made in Linux locale worlds; here, utf8env readiness
              -- pytest ARGS runs the suite in this code page, UTF-8 mode off
              and on, and tries the fixes
"""
    # Elsewhere, every command as before.
    assert "for POSIX places" not in _commands.main_help("linux")
    assert "\n  doctor      Say what breaks text" in _commands.main_help("linux")


def test_what_a_code_page_lacks_goes_as_escapes():
    assert _output.in_code_page('print("\xe9") \u65e5', "cp932") == 'print("\\xe9") \u65e5'
    assert _output.in_code_page("caf\xe9 \udce9", "cp1252") == "caf\xe9 \\udce9"


@pytest.mark.parametrize("platform, written", [
    ("win32", b'print("\\xe9")\r\n'),           # the code page's text, \r\n
    ("linux", b'print("\xc3\xa9")\n')])          # UTF-8 bytes, as before
def test_stdout_that_cannot_hold_the_text(monkeypatch, platform, written):
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="cp932", errors="strict",
                              newline="\r\n" if platform == "win32" else "\n")
    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.setattr(sys, "stdout", stream)
    _output.write('print("\xe9")\n')
    assert raw.getvalue() == written
