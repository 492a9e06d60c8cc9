"""readiness's progress line: on a terminal (stderr a pseudo-terminal here), once the runs
take more than a second, `utf8env readiness: DONE/TOTAL runs` redrawn in place as each run
ends and the line ended with the last; with stderr not a terminal nothing is written
there (every other readiness test asserts an empty stderr). Full tier: real runs."""
import os
import pty
import subprocess
import sys

import pytest

from utf8env._own_command import own_command
from utf8env._worlds import available

# One test, slower with UTF-8 mode off than on: the two runs end 1.5 s apart, each ending
# is its own redraw, both after the first second.
SLOW = """import sys
import time


def test_slow():
    time.sleep(1.5 if sys.flags.utf8_mode else 3)
"""


def _terminal_stderr(argv, cwd):
    """(status, stdout, what the terminal received) of `argv` with stderr a terminal."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=slave)
        os.close(slave)
        slave = None
        out = proc.communicate(timeout=300)[0]
        seen = b""
        while True:
            try:
                block = os.read(master, 4096)
            except OSError:         # EIO: the other side is closed and all was read
                break
            if not block:
                break
            seen += block
    finally:
        os.close(master)
        if slave is not None:
            os.close(slave)
    return proc.returncode, out.decode("utf-8"), seen


def test_the_runs_are_counted_on_a_terminal(tmp_path):
    ok, why = available()
    if not ok:
        pytest.skip(why)
    project = tmp_path / "p"
    (project / "tests").mkdir(parents=True)
    (project / "tests" / "test_slow.py").write_text(SLOW, encoding="utf-8")
    (project / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    code, out, seen = _terminal_stderr(
        own_command() + ["readiness", "--python", sys.executable, "--", "pytest", "-q",
                         "-p", "no:cacheprovider"], str(project))
    assert (code, out.splitlines()[-2]) == (
        0, "Ready: no test changes with UTF-8 mode (1 test, 0 call sites warned).")
    # the terminal's line discipline makes the newline CR LF
    assert seen == (b"\rutf8env readiness: 1/2 runs"
                    b"\rutf8env readiness: 2/2 runs\r\n")
