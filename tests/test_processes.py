"""_processes: the supervision of a child whose output utf8env reads (run_in_session:
doctor's new sessions after --fix; read_until_exit: the interpreters asked, Wine's
programs): its output is read until it exits, never until the end of a pipe that
something it started still holds (a start-up file's `daemon &`), and never past the
deadline, where its group is killed and what it wrote until then is kept. Each test
kills the daemon it made."""
import os
import signal
import time

import pytest

from utf8env._interpreter import Identity, identify
from utf8env._processes import run_in_session
from utf8env.doctor import _session

pytestmark = pytest.mark.fast

# A daemon in a session of its own holding the child's stdout and stderr, its pid in $1.
_DAEMON = 'setsid sleep 60 & echo $! > "$1"; '


def _alive(pid):
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            return f.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    except FileNotFoundError:
        return False


def _daemon(pidfile):
    with open(str(pidfile)) as f:
        return int(f.read())


def _kill(pidfile):
    """SIGKILL to the daemon, and wait until it is gone (a signal is delivered later)."""
    if not pidfile.exists():
        return
    pid = _daemon(pidfile)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return
    for _ in range(400):
        if not _alive(pid):
            return
        time.sleep(0.05)


def test_a_child_that_exits_is_read_to_its_end_whatever_its_daemon_holds(tmp_path):
    pidfile = tmp_path / "daemon.pid"
    try:
        status, out, err = run_in_session(
            ["sh", "-c", _DAEMON + "echo out; echo err >&2; exit 3", "sh", str(pidfile)], 60)
        assert (status, out, err) == (3, b"out\n", b"err\n")
        assert _alive(_daemon(pidfile))         # its pipes were not waited for
    finally:
        _kill(pidfile)


def test_at_the_deadline_the_group_is_killed_and_its_output_kept(tmp_path):
    pidfile = tmp_path / "daemon.pid"
    try:
        status, out, err = run_in_session(
            ["sh", "-c", _DAEMON + "echo started; exec sleep 60", "sh", str(pidfile)], 1)
        assert (status, out, err) == (None, b"started\n", b"")
        assert _alive(_daemon(pidfile))
    finally:
        _kill(pidfile)


def test_doctors_new_session_that_does_not_end_is_one_line(tmp_path, monkeypatch):
    # a start-up file that waits: the shell is ended at the deadline, its daemon not waited for
    monkeypatch.setattr(_session, "TIMEOUT", 1)
    pidfile = tmp_path / "daemon.pid"
    script = 'setsid sleep 60 & echo $! > "%s"; exec sleep 60' % pidfile
    try:
        said = _session._started("/bin/sh", ["-c", script], {"PATH": os.environ["PATH"]},
                                 [], None)
        assert said == "sh -c %s did not end within 1 s (a start-up file waiting for " \
                       "input?)" % script
        assert _alive(_daemon(pidfile))
    finally:
        _kill(pidfile)


def test_an_interpreter_asked_is_read_until_it_exits(tmp_path):
    # a Python command (a wrapper script) that leaves a daemon holding its pipes: its
    # answer is taken when it exits, not after the timeout as "no answer"
    pidfile = tmp_path / "daemon.pid"
    python = tmp_path / "python3.9"
    python.write_text("#!/bin/sh\n" + _DAEMON.replace('"$1"', '"%s"' % pidfile)
                      + "printf '3.9 linux'\n")
    python.chmod(0o755)
    try:
        assert identify(str(python), {"PATH": os.environ["PATH"]}) == \
            Identity(version="3.9", platform="linux")
        assert _alive(_daemon(pidfile))
    finally:
        _kill(pidfile)
