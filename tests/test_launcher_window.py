"""The compiled launcher's start-up window (scripts/launcher.c): while utf8env decides, a
signal that would end the command ends utf8env the same way, and nothing it started is
left running; a signal ignored on entry stays ignored.

The window is made as long as the test needs by a command named python3 whose answer to
utf8env's version question waits for a file (a shim, as pyenv's are): the test sends its
signal once the question is being asked, which the shim records."""
import os
import signal
import subprocess
import sys
import time

import pytest

from support import install, machine

SHIM = """#!/bin/sh
echo $$ >> "{asked}"
while [ ! -e "{go}" ]; do sleep 0.01; done
printf '3.9 linux'
"""


@pytest.fixture(scope="module")
def command(tmp_path_factory):
    machine.compiler()
    folder = tmp_path_factory.mktemp("window")
    wheel = install.build_wheel(str(folder / "wheel"), launcher="c")
    return os.path.join(install.venv_with(wheel, str(folder / "venv")), "utf8env")


@pytest.fixture
def shim(tmp_path):
    path = tmp_path / "python3"
    asked, go = tmp_path / "asked", tmp_path / "go"
    path.write_text(SHIM.format(asked=asked, go=go))
    path.chmod(0o755)
    return path, asked, go


def _environ(tmp_path):
    return {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path),
            "LANG": "C"}


def _wait_for(predicate):
    """Until `predicate()` holds: a state the test needs, not a time (bounded all the same,
    so that a broken launcher fails the test rather than hanging it)."""
    for _ in range(6000):
        if predicate():
            return
        time.sleep(0.005)
    raise AssertionError("the state never came")


def _gone(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rpartition(")")[2].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_in_the_window_ends_utf8env_as_it_would_end_the_command(
        number, command, shim, tmp_path):
    path, asked, go = shim
    # The signal's default disposition on entry, whatever this run inherited (nohup
    # ignores SIGHUP): ignored on entry, it stays ignored (the test below).
    process = subprocess.Popen([command, "run", "--", str(path), "-c", "pass"],
                               env=_environ(tmp_path), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE,
                               preexec_fn=lambda: signal.signal(number, signal.SIG_DFL))
    _wait_for(asked.exists)
    _wait_for(lambda: asked.read_text().strip() != "")
    questioner = int(asked.read_text().split()[0])
    process.send_signal(number)
    try:
        # Bounded, as _wait_for is: a shim left running holds utf8env's stdout open.
        stdout, stderr = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        go.write_text("")       # let the shim end: nothing of the test is left running
        process.communicate()
        raise AssertionError("the shim (utf8env's question) outlived utf8env, holding its "
                             "output open: it was not killed with utf8env's group")
    assert (process.returncode, stdout, stderr) == (-number, b"", b"")
    _wait_for(lambda: _gone(questioner))       # the shim was killed with utf8env's group


def test_a_signal_ignored_on_entry_stays_ignored_and_the_command_runs(command, shim, tmp_path):
    path, asked, go = shim
    process = subprocess.Popen([command, "run", "--", str(path), "-c", "pass"],
                               env=_environ(tmp_path), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    _wait_for(asked.exists)
    process.send_signal(signal.SIGINT)
    go.write_text("")
    stdout, stderr = process.communicate()
    # The shim answered the question, then ran as the command and answered again.
    assert (process.returncode, stdout, stderr) == (0, b"3.9 linux", b"")
    assert len(asked.read_text().split()) == 2


def test_the_command_gets_the_dispositions_and_mask_utf8env_got(command, tmp_path):
    # SIGINT and SIGTERM are caught during the window; the command sees them as they came.
    probe = ("import signal, sys; "
             "print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN, "
             "signal.getsignal(signal.SIGTERM) is signal.SIG_DFL, "
             "sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, [])))")

    def entry():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])

    direct = subprocess.run([sys.executable, "-c", probe], env=_environ(tmp_path),
                            stdout=subprocess.PIPE, preexec_fn=entry)
    through = subprocess.run([command, "run", "--", sys.executable, "-c", probe],
                             env=_environ(tmp_path), stdout=subprocess.PIPE, preexec_fn=entry)
    assert direct.stdout == b"True True [%d]\n" % signal.SIGUSR1
    assert (through.returncode, through.stdout) == (0, direct.stdout)


def test_closed_standard_streams_stay_closed_for_the_command(command, tmp_path):
    # The plan's pipe is above 2: a stream closed on entry is not taken by it.
    probe = "import os; os.fstat(0)"
    result = subprocess.run("exec 0<&- && exec %s run -- %s -c '%s'"
                            % (command, sys.executable, probe), shell=True,
                            env=_environ(tmp_path), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == b"OSError: [Errno 9] Bad file descriptor"
