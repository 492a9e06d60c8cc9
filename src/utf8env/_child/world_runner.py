"""Applies a locale world, then runs a batch of jobs in parallel. Started as
`sys.executable -I world_runner.py` by utf8env._worlds.jobs: directly for a world that
needs no namespace (its LOCPATH comes in "prepend"), or inside `unshare --mount` (root)
or `unshare --user --map-root-user --mount` (any user) to bind-mount the world's folders
over /usr/lib/locale. With "as_user": [uid, gid], the mounts done, the jobs run in a
user namespace of their own inside that one, as that user again (so that they see their
own uid and have no privilege over the user's files that the user lacks).

STANDALONE: standard library only, no relative imports, Python 3.6 syntax.

Protocol: one JSON request on stdin
    {"mounts": [[src, dst], ...], "prepend": [[b64, b64], ...] (optional: each job's
     variable NAME becomes VALUE, or VALUE:its own value), "as_user": [uid, gid] or null,
     "workers": N, "jobserver": [read_fd, write_fd] (optional), "done_fd": fd (optional),
     "jobs": [{"argv": [b64], "env": [[b64, b64], ...], "stdin": b64, "timeout": s,
               "cwd": b64 or null, "then": job or null}, ...]}
and one JSON reply on stdout:
    {"results": [{"returncode", "timed_out", "stdout": b64, "stderr": b64, "seconds",
                  "then": result or null}]}
or {"error": message} when a mount fails. Bytes travel as base64 so that undecodable
argv/env/output bytes pass through untouched. "then" is the next stage of a pipe: it
gets the job's stdout as its stdin once the job has ended. A job that outlives its
timeout is killed (its whole process group, SIGKILL, and any process that left the group
(setsid) but holds its pipes, found in /proc), and its pipes are let go, whatever still
holds them: "timed_out" is true and
"returncode" is null, since the job never ended on its own: a timeout is never mistaken
for a job that a signal killed (-9 from the OOM killer). With "jobserver", a job runs
only while holding one byte read from the shared token pipe (GNU make's jobserver
protocol), so several runners together keep to one limit; with "done_fd", one byte is
written there per finished job.

SIGINT or SIGTERM (Ctrl-C in the terminal; utf8env's own forwarding): the jobs running
get SIGTERM in their process groups (each job is in a session of its own, out of the
terminal's reach), no job starts any more ("returncode" null, "stopped" true), and the
reply is written as always.
"""
import base64
import functools
import json
import os
import select
import selectors
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

# The jobs' processes while they run, and whether a signal asked the runner to stop.
_RUNNING = set()
_LOCK = threading.Lock()
_STOPPED = []


def b64(data):
    return base64.b64encode(data).decode("ascii")


def unb64(text):
    return base64.b64decode(text)


class Slots(object):
    """What the jobs of one request share: the jobserver's token pipe (read_fd, write_fd)
    or None, and the progress descriptor or None. Never changed once made."""

    def __init__(self, jobserver=None, done_fd=None):
        self.jobserver = tuple(jobserver) if jobserver else None
        self.done_fd = done_fd

    def run(self, job, stdin=None):
        """Run `job` (and its `then` stages) holding one token, when there is a jobserver."""
        if self.jobserver is None:
            result = run_one(job, stdin)
        else:
            token = os.read(self.jobserver[0], 1)
            try:
                result = run_one(job, stdin)
            finally:
                os.write(self.jobserver[1], token)
        if job.get("then") is not None:
            result["then"] = self.run(job["then"], unb64(result["stdout"]))
        elif self.done_fd is not None:
            os.write(self.done_fd, b".")
        return result


def mount(src, dst):
    """None, or why the bind mount failed."""
    # Read-only, so a job cannot damage the cached world; the namespace is private,
    # so nothing leaks to the host and it all vanishes when this process exits.
    cmd = ["mount", "--bind", "-o", "ro", src, dst]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        return "{} failed (exit {}): {}".format(
            " ".join(cmd), proc.returncode, proc.stderr.decode(errors="replace").strip())
    return None


PREPEND = {}


def run_one(job, stdin=None):
    argv = [unb64(a) for a in job["argv"]]
    env = {unb64(k): unb64(v) for k, v in job["env"]}
    for name, value in PREPEND.items():
        env[name] = value + b":" + env[name] if env.get(name) else value
    cwd = unb64(job["cwd"]) if job.get("cwd") else None
    started = time.monotonic()
    with _LOCK:
        if _STOPPED:
            return {"returncode": None, "timed_out": False, "stopped": True, "stdout": "",
                    "stderr": "", "seconds": 0.0, "then": None}
        try:
            # Own session, so a timeout kills the whole process group: a surviving
            # grandchild would otherwise keep the pipes open and hang communicate().
            proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    start_new_session=True)
        except OSError as exc:
            return {"returncode": 127, "timed_out": False, "stdout": "",
                    "stderr": b64(str(exc).encode()), "seconds": time.monotonic() - started,
                    "then": None}
        _RUNNING.add(proc.pid)
        if _STOPPED:        # the signal came while it started
            kill_group(proc.pid, signal.SIGTERM)
    pipes = _Pipes(proc, unb64(job["stdin"]) if stdin is None else stdin)
    timed_out = not pipes.exchange(started + job["timeout"])
    if timed_out:
        kill_group(proc.pid)
        # A process that left the group (setsid) and holds the job's pipes is what the
        # job left behind: it goes too. Then what the group wrote before it died is read,
        # and the pipes are let go whatever still holds them: the deadline is the job's.
        for pid in _pipe_holders(pipes.inodes):
            _kill(pid)
        pipes.exchange(time.monotonic() + GRACE)
    out, err = pipes.close()
    proc.wait()
    with _LOCK:
        _RUNNING.discard(proc.pid)
    # The job's own process is gone; anything it left in its group goes with it.
    kill_group(proc.pid)
    # A timed-out job has no status of its own, even when its own process had already
    # exited (a grandchild kept the pipes open): its outcome is the timeout.
    code = None if timed_out else proc.returncode
    return {"returncode": code, "timed_out": timed_out, "stdout": b64(out or b""),
            "stderr": b64(err or b""), "seconds": time.monotonic() - started, "then": None}


# After a timeout: how long what the killed group wrote is still read.
GRACE = 0.5


class _Pipes(object):
    """A job's stdin fed and its stdout and stderr read together (as communicate() does),
    until a deadline rather than until every writer has gone."""

    def __init__(self, proc, data):
        self.proc = proc
        self.chunks = {proc.stdout: [], proc.stderr: []}
        self.sel = selectors.DefaultSelector()
        for pipe in self.chunks:
            self.sel.register(pipe, selectors.EVENT_READ)
        # The pipes' identities, as /proc/PID/fd names them: "pipe:[INODE]".
        self.inodes = set(os.fstat(pipe.fileno()).st_ino
                          for pipe in (proc.stdin, proc.stdout, proc.stderr))
        self.data = memoryview(data or b"")
        if self.data:
            self.sel.register(proc.stdin, selectors.EVENT_WRITE)
        else:
            proc.stdin.close()

    def exchange(self, until):
        """Feed and read until both outputs end (True) or `until` (monotonic) passes."""
        while self.sel.get_map():
            left = until - time.monotonic()
            if left <= 0:
                return False
            for key, _ in self.sel.select(left):
                pipe = key.fileobj
                if pipe is self.proc.stdin:
                    try:
                        self.data = self.data[os.write(pipe.fileno(),
                                                       self.data[:select.PIPE_BUF]):]
                    except BrokenPipeError:
                        self.data = self.data[:0]
                    if not self.data:
                        self.sel.unregister(pipe)
                        pipe.close()
                    continue
                block = os.read(pipe.fileno(), 65536)
                if block:
                    self.chunks[pipe].append(block)
                else:
                    self.sel.unregister(pipe)
        return True

    def close(self):
        """(stdout, stderr) read so far; every pipe let go."""
        self.sel.close()
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            pipe.close()
        return (b"".join(self.chunks[self.proc.stdout]),
                b"".join(self.chunks[self.proc.stderr]))


# utf8env/_processes.py's, word for word (tests/test_structure.py): this file runs
# standalone.
def kill_group(pid, signum=None):
    """`signum` (None: SIGKILL) to the process group that `pid` leads; one already gone,
    or not ours to signal, is no error (it ended meanwhile, or its processes changed
    user). POSIX only: the names it needs are looked up when it is called, so that its
    module still imports on Windows, which has neither killpg nor SIGKILL."""
    try:
        os.killpg(pid, signal.SIGKILL if signum is None else signum)
    except OSError:
        pass


def _kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _pipe_holders(inodes):
    """The processes that hold one of a job's pipes (`inodes`), read from /proc (none
    where there is no /proc), but this runner and its own children: a child of the runner
    is a job, or a job being started by another thread that has not closed the fds it
    inherited yet; any other holder descends from the job."""
    me = os.getpid()
    names = set("pipe:[%d]" % inode for inode in inodes)
    try:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []
    holders = []
    for pid in pids:
        if pid != me and names.intersection(_fd_links(pid)) and _parent(pid) not in (me, None):
            holders.append(pid)
    return holders


def _fd_links(pid):
    """What the open descriptors of `pid` name ("pipe:[INODE]", paths); none where it is
    gone or not this user's."""
    folder = "/proc/%d/fd" % pid
    try:
        fds = os.listdir(folder)
    except OSError:
        return []
    links = []
    for fd in fds:
        try:
            links.append(os.readlink(os.path.join(folder, fd)))
        except OSError:
            pass        # closed meanwhile
    return links


def _parent(pid):
    """The parent process id of `pid` (proc(5): the fourth field of /proc/PID/stat, after
    the command name in parentheses, which may hold any byte), or None once it is gone."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            return int(f.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _stop(signum, frame):
    """SIGINT, SIGTERM: end the jobs running (SIGTERM: readiness's supervisor then ends
    what its run left), start no other."""
    # No lock here: the handler runs in the main thread, which may hold none, and a
    # job started meanwhile sees _STOPPED under the lock before it starts.
    _STOPPED.append(signum)
    for pid in list(_RUNNING):
        if pid < 0:     # the runner of as_user(): it stops its own jobs
            try:
                os.kill(-pid, signal.SIGTERM)
            except OSError:
                pass
        else:
            kill_group(pid, signal.SIGTERM)


def as_user(request, uid, gid):
    """Run the rest of `request` (its jobs) in a new user namespace as uid/gid; the
    runner's exit status. Its reply goes straight to this runner's stdout."""
    rest = dict(request, mounts=[], as_user=None)
    fds = [fd for fd in (request.get("jobserver") or []) + [request.get("done_fd")]
           if fd is not None]
    cmd = ["unshare", "--user", "--map-user=%d" % uid, "--map-group=%d" % gid,
           sys.executable, "-I", os.path.abspath(__file__)]
    with _LOCK:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, pass_fds=fds)
        _RUNNING.add(-proc.pid)         # negative: a signal is passed on to it as is
    out, err = proc.communicate(json.dumps(rest).encode("utf-8"))
    if out.strip():
        sys.stdout.flush()
        sys.stdout.buffer.write(out)
    else:
        json.dump({"error": "{} failed (exit {}): {}".format(
            " ".join(cmd[:4]), proc.returncode,
            err.decode("utf-8", "replace").strip())}, sys.stdout)
    return proc.returncode


def main():
    request = json.load(sys.stdin)
    slots = Slots(request.get("jobserver"), request.get("done_fd"))
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _stop)
    for src, dst in request["mounts"]:
        error = mount(src, dst)
        if error:
            json.dump({"error": error}, sys.stdout)
            return 1
    if request.get("as_user"):
        return as_user(request, *request["as_user"])
    PREPEND.update((unb64(k), unb64(v)) for k, v in (request.get("prepend") or []))
    with ThreadPoolExecutor(max_workers=request["workers"]) as pool:
        results = list(pool.map(functools.partial(Slots.run, slots), request["jobs"]))
    json.dump({"results": results}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
