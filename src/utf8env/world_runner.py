"""Runs inside `unshare --mount --propagation private`: bind-mounts a locale world, then
runs a batch of jobs in parallel. Stdlib only, Python 3.6+ (it runs under sys.executable -I).

Protocol: one JSON request on stdin
    {"mounts": [[src, dst], ...], "workers": N, "jobserver": [read_fd, write_fd] (optional),
     "jobs": [{"argv": [b64], "env": [[b64, b64], ...], "stdin": b64, "timeout": s,
               "cwd": b64 or null, "then": job or null}, ...]}
and one JSON reply on stdout:
    {"results": [{"returncode", "stdout": b64, "stderr": b64, "seconds", "then": result or null}]}
or {"error": message} when a mount fails. Bytes travel as base64 so that undecodable
argv/env/output bytes pass through untouched. "then" is the next stage of a pipe: it
gets the job's stdout as its stdin once the job has ended. With "jobserver", a job
runs only while holding one byte read from the shared token pipe (GNU make's
jobserver protocol), so several runners together keep to one limit.
"""
import base64
import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor


def b64(data):
    return base64.b64encode(data).decode("ascii")


def unb64(text):
    return base64.b64decode(text)


def mount(src, dst):
    # Read-only, so a job cannot damage the cached world; the namespace is private,
    # so nothing leaks to the host and it all vanishes when this process exits.
    cmd = ["mount", "--bind", "-o", "ro", src, dst]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        return "{} failed (exit {}): {}".format(
            " ".join(cmd), proc.returncode, proc.stderr.decode(errors="replace").strip())
    return None


JOBSERVER = None  # (read_fd, write_fd) of the token pipe, or None
DONE_FD = None    # one byte written there per finished job (progress), or None


def run_job(job, stdin=None):
    if JOBSERVER is None:
        result = run_one(job, stdin)
    else:
        token = os.read(JOBSERVER[0], 1)
        try:
            result = run_one(job, stdin)
        finally:
            os.write(JOBSERVER[1], token)
    if job.get("then") is not None:
        result["then"] = run_job(job["then"], unb64(result["stdout"]))
    elif DONE_FD is not None:
        os.write(DONE_FD, b".")
    return result


def run_one(job, stdin=None):
    argv = [unb64(a) for a in job["argv"]]
    env = {unb64(k): unb64(v) for k, v in job["env"]}
    cwd = unb64(job["cwd"]) if job.get("cwd") else None
    started = time.monotonic()
    try:
        # Own session, so a timeout kills the whole process group: a surviving
        # grandchild would otherwise keep the pipes open and hang communicate().
        proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
    except OSError as exc:
        return {"returncode": 127, "stdout": "", "stderr": b64(str(exc).encode()),
                "seconds": time.monotonic() - started, "then": None}
    try:
        out, err = proc.communicate(unb64(job["stdin"]) if stdin is None else stdin,
                                    timeout=job["timeout"])
        code = proc.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()  # whatever was captured before the kill
        code = -9
    # The job's own process is gone; anything it left in its group goes with it.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    return {"returncode": code, "stdout": b64(out or b""), "stderr": b64(err or b""),
            "seconds": time.monotonic() - started, "then": None}


def main():
    global JOBSERVER, DONE_FD
    request = json.load(sys.stdin)
    if request.get("jobserver"):
        JOBSERVER = tuple(request["jobserver"])
    DONE_FD = request.get("done_fd")
    for src, dst in request["mounts"]:
        error = mount(src, dst)
        if error:
            json.dump({"error": error}, sys.stdout)
            return 1
    with ThreadPoolExecutor(max_workers=request["workers"]) as pool:
        results = list(pool.map(run_job, request["jobs"]))
    json.dump({"results": results}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
