"""readiness's progress line: on a terminal (stderr a pseudo-terminal here), once the runs
take more than a second, `utf8env readiness: DONE/TOTAL runs` redrawn in place as each run
ends and the line ended with the last; with stderr not a terminal nothing is written
there (every other readiness test asserts an empty stderr). Full tier: real runs."""
import sys

import pytest

from support.terminal import stderr_on_terminal
from utf8env._own_command import own_command
from utf8env._worlds import available

# One test, slower with UTF-8 mode off than on: the two runs end 1.5 s apart, each ending
# is its own redraw, both after the first second.
SLOW = """import sys
import time


def test_slow():
    time.sleep(1.5 if sys.flags.utf8_mode else 3)
"""


def test_the_runs_are_counted_on_a_terminal(tmp_path):
    ok, why = available()
    if not ok:
        pytest.skip(why)
    project = tmp_path / "p"
    (project / "tests").mkdir(parents=True)
    (project / "tests" / "test_slow.py").write_text(SLOW, encoding="utf-8")
    (project / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    code, out, seen = stderr_on_terminal(
        own_command() + ["readiness", "--python", sys.executable, "--", "pytest", "-q",
                         "-p", "no:cacheprovider"], str(project))
    assert (code, out.splitlines()[-2]) == (
        0, "Ready: no test changes with UTF-8 mode (1 test, 0 call sites warned).")
    assert seen == (b"\rutf8env readiness: 1/2 runs"
                    b"\rutf8env readiness: 2/2 runs\r\n")
