"""Every subcommand when its output goes away: stdout on a full disk (/dev/full), stdout
closed (`>&-`), stdout a pipe whose reader has gone, and stderr full or closed as well.
The rule (src/utf8env/_output.py): one line `utf8env: error: cannot write the output: ...`
on stderr where stderr works, status 1, no traceback, never the interpreter's status 120
from its own flush at exit; a gone reader is status 1 and no line, as a filter ends in a
pipeline. Run as a user runs it: `python -I -m utf8env`."""
import os
import subprocess
import sys

import pytest

from support import machine
from utf8env._own_command import own_command

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "sample_project")
PACKAGE = os.path.join(os.path.dirname(HERE), "src", "utf8env")

FULL = b"utf8env: error: cannot write the output: No space left on device\n"
CLOSED = b"utf8env: error: cannot write the output: standard output is closed\n"
HELLO = 'print("caf\\u00e9")\n'      # matrix's COMMAND, a Python script

COMMANDS = {
    "--version": ["--version"],
    "--help": ["--help"],
    "explain": ["explain"],
    "explain --json": ["explain", "--json"],
    "explain --help": ["explain", "--help"],
    "env": ["env"],
    "env --format systemd": ["env", "--format", "systemd", "--", "/bin/echo", "caf\u00e9"],
    "env --help": ["env", "--help"],
    "doctor": ["doctor"],
    "doctor --json": ["doctor", "--json"],
    "doctor --help": ["doctor", "--help"],
    # One cell: this interpreter in the UTF-8 mode set, running HELLO (_here).
    "matrix": ["matrix", "--python", sys.executable, "--env-set", "utf8-mode", "--", "hello.py"],
    "matrix --help": ["matrix", "--help"],
    "readiness --help": ["readiness", "--help"],
    "run --help": ["run", "--help"],
}
# How the output goes away (run() sets it up) -> the stderr expected (None: not readable).
MODES = {
    "stdout full": FULL,
    "stdout closed": CLOSED,
    "stdout reader gone": b"",
    "stdout and stderr full": None,
    "stdout full, stderr closed": None,
}


@pytest.fixture(scope="module")
def utf8env():
    """python -I -m utf8env where that imports this checkout (tests/setup.sh: pip install
    -e); else this checkout started as the installed command starts it (own_command:
    the same interpreter, -I -S)."""
    found = subprocess.run([sys.executable, "-I", "-c", "import utf8env; print(utf8env.__file__)"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if os.path.dirname(found.stdout.decode().strip()) == PACKAGE:
        return [sys.executable, "-I", "-m", "utf8env"]
    return own_command()


def _environ():
    return {"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"],
            "XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"], "LANG": "C.UTF-8"}


def run(argv, mode, cwd=None):
    """(status, stderr or None) of `argv` with its output gone as `mode` says."""
    stderr = subprocess.PIPE
    with open(os.devnull, "rb") as stdin, open("/dev/full", "wb") as full:
        if mode == "stdout closed":
            argv, stdout = ["sh", "-c", 'exec "$@" >&-', "sh"] + argv, subprocess.DEVNULL
        elif mode == "stdout reader gone":
            read_end, stdout = os.pipe()
            os.close(read_end)
        elif mode == "stdout and stderr full":
            stdout = stderr = full
        elif mode == "stdout full, stderr closed":
            argv = ["sh", "-c", 'exec "$@" 2>&-', "sh"] + argv
            stdout, stderr = full, subprocess.DEVNULL
        else:
            stdout = full
        try:
            proc = subprocess.run(argv, stdin=stdin, stdout=stdout, stderr=stderr,
                                  env=_environ(), cwd=cwd, timeout=300)
        finally:
            if mode == "stdout reader gone":
                os.close(stdout)
    return proc.returncode, proc.stderr


def _here(tmp_path, name):
    """The working folder of the commands, holding matrix's script."""
    if name == "matrix":
        machine.worlds()
    (tmp_path / "hello.py").write_text(HELLO)
    return str(tmp_path)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_survives_its_output_going_away(utf8env, name, mode, tmp_path):
    assert run(utf8env + COMMANDS[name], mode, cwd=_here(tmp_path, name)) == (1, MODES[mode])


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_same_command_writes_when_its_output_stays(utf8env, name, tmp_path):
    # Each command above does write something, to a working stdout.
    proc = subprocess.run(utf8env + COMMANDS[name], stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_environ(),
                          cwd=_here(tmp_path, name), timeout=300)
    assert (proc.returncode in (0, 1), proc.stderr) == (True, b"")
    assert proc.stdout.strip() and proc.stdout.endswith(b"\n")


def test_readiness_to_a_full_disk(utf8env, tmp_path):
    """The report of a real run (the sample project, on this interpreter: it has pytest,
    which readiness runs), and the GitHub step summary written to a full disk."""
    machine.worlds()
    argv = utf8env + ["readiness", "--python", sys.executable, "--", "pytest", "-q"]
    assert run(argv, "stdout full", cwd=SAMPLE) == (1, FULL)
    environ = dict(_environ(), GITHUB_STEP_SUMMARY="/dev/full")
    proc = subprocess.run(argv[:-3] + ["--format", "github"] + argv[-3:], cwd=SAMPLE,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=environ, timeout=300)
    assert (proc.returncode, proc.stdout, proc.stderr) == (1, b"", (
        b"utf8env: error: cannot write the output: GITHUB_STEP_SUMMARY /dev/full: "
        b"No space left on device\n"))


@pytest.mark.parametrize("stderr", ["pipe", "full", "closed"])
def test_a_line_on_stderr_never_changes_the_status(stderr):
    """_output.to_stderr (progress, "interrupted", errors): where stderr is full or closed
    the line is lost, never the status (the interpreter's flush at exit would make it 120)
    and never a traceback."""
    code = ("import sys; from utf8env._output import to_stderr; "
            "to_stderr('utf8env: matrix: interrupted\\n'); sys.exit(130)")
    argv = [sys.executable, "-I", "-c",
            "import sys; sys.path.insert(0, %r); %s" % (os.path.dirname(PACKAGE), code)]
    if stderr == "pipe":
        proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert (proc.returncode, proc.stdout, proc.stderr) == (
            130, b"", b"utf8env: matrix: interrupted\n")
    elif stderr == "full":
        with open("/dev/full", "wb") as full:
            proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=full)
        assert (proc.returncode, proc.stdout) == (130, b"")
    else:
        proc = subprocess.run(argv, stdout=subprocess.PIPE, preexec_fn=lambda: os.close(2))
        assert (proc.returncode, proc.stdout) == (130, b"")
