"""Runs inside `unshare --mount --propagation private`: bind-mounts a locale world, then
runs a batch of jobs in parallel. Stdlib only, Python 3.6+ (it runs under sys.executable -I).

Protocol: one JSON request on stdin
    {"mounts": [[src, dst], ...], "workers": N,
     "jobs": [{"argv": [b64], "env": [[b64, b64], ...], "stdin": b64, "timeout": s}, ...]}
and one JSON reply on stdout: {"results": [{"returncode", "stdout": b64, "stderr": b64}]}
or {"error": message} when a mount fails. Bytes travel as base64 so that undecodable
argv/env/output bytes pass through untouched.
"""
import base64
import json
import os
import signal
import subprocess
import sys
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


def run_job(job):
    argv = [unb64(a) for a in job["argv"]]
    env = {unb64(k): unb64(v) for k, v in job["env"]}
    try:
        # Own session, so a timeout kills the whole process group: a surviving
        # grandchild would otherwise keep the pipes open and hang communicate().
        proc = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
    except OSError as exc:
        return {"returncode": 127, "stdout": "", "stderr": b64(str(exc).encode())}
    try:
        out, err = proc.communicate(unb64(job["stdin"]), timeout=job["timeout"])
        code = proc.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()  # whatever was captured before the kill
        code = -9
    return {"returncode": code, "stdout": b64(out or b""), "stderr": b64(err or b"")}


def main():
    request = json.load(sys.stdin)
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
