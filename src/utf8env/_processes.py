"""Supervising the processes utf8env starts: reading a child's output until it exits,
never past a deadline, and never waiting for the end of a pipe that something it started
may hold open for ever (read_until_exit; run_in_session); ending them in the two ways it
needs: a whole process group (a child started with start_new_session=True, with whatever
it started that stayed in its group), or one process (a child that shares utf8env's own
group, where killing the group would kill utf8env and the launcher too).

kill_group is the one way utf8env kills a process group. _child/world_runner.py and
readiness/_supervise.py hold copies of it, word for word: each runs standalone in
another interpreter (started by its file's path, -I), where utf8env cannot be imported;
tests/test_structure.py holds the copies equal to this one.
"""
import os
import selectors
import signal
import subprocess
import time


def kill_group(pid, signum=None):
    """`signum` (None: SIGKILL) to the process group that `pid` leads; one already gone,
    or not ours to signal, is no error (it ended meanwhile, or its processes changed
    user). POSIX only: the names it needs are looked up when it is called, so that its
    module still imports on Windows, which has neither killpg nor SIGKILL."""
    try:
        os.killpg(pid, signal.SIGKILL if signum is None else signum)
    except OSError:
        pass


def kill_process(process):
    """SIGKILL to the subprocess.Popen `process` alone; one that has ended is no error."""
    try:
        process.kill()
    except OSError:
        pass


def run_in_session(argv, timeout, **popen):
    """(status, stdout, stderr) of `argv` started in a session of its own (stdin from
    /dev/null, the other Popen arguments `popen`), read until it exits (read_until_exit);
    at `timeout` seconds status is None, with what it wrote until then. Its process group
    is killed when it has exited or at the deadline (what it left there ends with it);
    nothing in another group is waited for: a daemon holding its pipes, or a background
    job of an interactive shell, is left running."""
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, **popen)
    out, err, finished = read_until_exit(proc, timeout)
    # The child may be reaped by now: its group keeps its number while any process of the
    # group lives (Linux allocates no pid still in use as a group's id), and with none left
    # killpg finds nothing. Only a wrap-around of every pid in between could reuse it.
    kill_group(proc.pid)
    status = proc.wait()
    return (status if finished else None), out, err


def read_until_exit(proc, timeout):
    """(stdout, stderr, finished) of `proc`, read as proc.communicate() does, except that
    it does not wait for end of file once the process has exited: what it started (a
    daemon, a Wine service) may hold the pipes open for ever, and all the process wrote
    is in the pipe by then. finished: False when `timeout` seconds passed first (the
    process is left to the caller)."""
    deadline = time.monotonic() + timeout
    chunks = {proc.stdout: [], proc.stderr: []}
    sel = selectors.DefaultSelector()
    for pipe in chunks:
        sel.register(pipe, selectors.EVENT_READ)
    finished = True
    try:
        while sel.get_map():
            exited = proc.poll() is not None
            left = deadline - time.monotonic()
            if left <= 0:
                finished = False
                break
            ready = sel.select(0.2 if exited else min(left, 0.5))
            if not ready and exited:
                break
            for key, _ in ready:
                block = os.read(key.fileobj.fileno(), 65536)
                if block:
                    chunks[key.fileobj].append(block)
                else:
                    sel.unregister(key.fileobj)
        if finished:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                finished = False
    finally:
        sel.close()
        proc.stdout.close()
        proc.stderr.close()
    return b"".join(chunks[proc.stdout]), b"".join(chunks[proc.stderr]), finished
