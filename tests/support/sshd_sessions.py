"""Waiting for a test sshd's session processes to end (tests/support/sshd.py's servers).

An ssh client returns when the session's channel closes; sshd's process for that
connection (`sshd: root@notty`) and its PAM session end just after, on their own. A test
that returns first leaves them to the next test, and tests/conftest.py's check fails it
for a process it left. So a test using a module's server waits, at its end, until the
server's listener has no child left (bounded: a child that never ends is then the
check's to report)."""
import time

LIMIT = 10          # seconds; a connection's process ends within milliseconds


def _children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return f.read().split()
    except OSError:             # the server has ended: no children of it are left
        return []


def ended(server):
    """Wait until the sshd of `server` (a running support.sshd.Server) has no child
    process (no session left); returns the pids still there after LIMIT seconds."""
    if server.process is None:
        return []
    deadline = time.monotonic() + LIMIT
    while True:
        left = _children(server.process.pid)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.01)
