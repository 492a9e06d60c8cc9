"""readiness on a suite that pytest-randomly shuffles: both runs (UTF-8 mode off and on),
and their reruns, take the invocation's one seed, so they run the tests in the same order
and an order-dependent suite is compared with itself, not with another order. A seed the
suite gives (--randomly-seed) is kept. Full tier: real runs with this Python's pytest
and pytest-randomly (test dependencies)."""
import re
import subprocess
import sys

import pytest

from utf8env._own_command import own_command
from utf8env._worlds import available

# Eight tests, each passing only when the one before it ran first: another order gives
# other outcomes.
CHAIN = "RAN = []\n" + "".join(
    "\n\ndef test_%d():\n    RAN.append(%d)\n    assert %s\n" % (k, k, "True" if k == 0 else
                                                                 "%d in RAN" % (k - 1))
    for k in range(8))


@pytest.fixture
def project(tmp_path):
    ok, why = available()
    if not ok:
        pytest.skip(why)
    pytest.importorskip("pytest_randomly", reason="pytest-randomly is a test dependency "
                                                  "(bash tests/setup.sh)")
    folder = tmp_path / "p"
    (folder / "tests").mkdir(parents=True)
    (folder / "tests" / "test_chain.py").write_text(CHAIN, encoding="utf-8")
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    return folder


def _readiness(folder, *args):
    proc = subprocess.run(own_command() + ["readiness", "--python", sys.executable, "--",
                                           "pytest", "-q", "-p", "no:cacheprovider"]
                          + list(args), cwd=str(folder), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=600)
    page = re.sub(r"\d+\.\d s|\d+\.\d$", "N", proc.stdout.decode("utf-8"), flags=re.M)
    return proc.returncode, page, proc.stderr.decode("utf-8")


@pytest.mark.parametrize("seed", [(), ("-p", "randomly", "--randomly-seed=1")])
def test_both_runs_of_a_shuffled_suite_take_one_order(project, seed):
    code, page, err = _readiness(project, *seed)
    assert (code, err) == (0, "")
    lines = page.splitlines()
    assert lines[-2:] == ["Ready: no test changes with UTF-8 mode (8 tests, 0 call sites warned).",
                          "2 runs on 2 workers, N (their own time N)"]
    assert "Unstable" not in page
