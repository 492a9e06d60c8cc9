"""Ending the processes utf8env starts, in the two ways it needs: a whole process group
(a child started with start_new_session=True, with whatever it started that stayed in
its group), or one process (a child that shares utf8env's own group, where killing the
group would kill utf8env and the launcher too).

kill_group is the one way utf8env kills a process group. _child/world_runner.py and
readiness/_supervise.py hold copies of it, word for word: each runs standalone in
another interpreter (started by its file's path, -I), where utf8env cannot be imported;
tests/test_structure.py holds the copies equal to this one.
"""
import os
import signal


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
