"""What runs on Windows itself, as rules (tests/test_windows_install.py runs the installed
command there, under Wine): run, env and doctor are for POSIX places, matrix, readiness and
fix --prove do not run there yet, each one line and status 2; --help lists them apart; and
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
    "readiness": "readiness does not run on Windows itself yet: its runs are made in Linux "
                 "locale worlds; here, python -X warn_default_encoding -m pytest --utf8env "
                 "lists the call sites (its plugin) and python -X utf8 -m pytest runs the "
                 "suite in UTF-8 mode",
    "fix --prove": "fix --prove does not run on Windows itself yet: its runs are readiness's",
}


def test_each_refusal_on_windows_and_none_elsewhere():
    for name, line in LINES.items():
        assert _commands.windows_refusal(name, "win32") == line
        assert _commands.windows_refusal(name, "linux") is None
    for name in ("explain", "fix", "unknown"):
        assert _commands.windows_refusal(name, "win32") is None


@pytest.mark.parametrize("argv, name", [
    (["run", "--", "cmd"], "run"), (["run", "cmd"], "run"), (["env", "--format", "sh"], "env"),
    (["doctor", "--help"], "doctor"), (["matrix"], "matrix"),
    (["readiness", "--", "pytest"], "readiness"),
    (["fix", "--prove", ".", "--", "pytest"], "fix --prove")])
def test_on_windows_the_command_line_is_one_line_and_status_2(monkeypatch, capsys, argv, name):
    monkeypatch.setattr(sys, "platform", "win32")
    assert _cli.main(argv) == 2
    assert capsys.readouterr() == ("", "utf8env: error: %s\n" % LINES[name])


def test_help_on_windows_lists_apart_what_does_not_run_there():
    text = _commands.main_help("win32")
    commands = text[text.index("commands:\n"):text.index("\noptions:")]
    assert commands == """\
commands:
  explain     Predict and explain the text encodings a CPython starts with in
              an environment.
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
  readiness   its runs are made in Linux locale worlds; here, python -X
              warn_default_encoding -m pytest --utf8env lists the call sites
              (its plugin) and python -X utf8 -m pytest runs the suite in UTF-8
              mode
  fix --prove its runs are readiness's
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
