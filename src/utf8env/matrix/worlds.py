"""Locale "worlds": run real interpreters against a chosen set of compiled glibc locales.

A world is a folder bind-mounted over /usr/lib/locale (and over ROOT/usr/lib/locale of each
chroot root) inside a private mount namespace, so the real folders are never modified.
Each root gets folders compiled by its own localedef, because the compiled locale format
depends on the glibc version (host 2.36, Debian sid chroot 2.43). The namespace and the
jobs are the world runner's (utf8env/_child/world_runner.py), one per world.
"""
import base64
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

from ..errors import WorldError
from ..records import Record, field

__all__ = ["WORLDS", "WorldError", "Job", "Result", "Run", "available", "prepare",
           "world_dir", "run", "run_batches"]

WORLDS = ("installed", "no-locales", "en_US-only", "latin1", "gb18030")

# Folder names inside /usr/lib/locale for each world (None: leave /usr/lib/locale alone).
_CONTENTS = {
    "installed": None,
    "no-locales": (),
    "en_US-only": ("en_US.utf8",),
    "latin1": ("C.utf8", "en_US.iso88591"),
    "gb18030": ("C.utf8", "zh_CN.gb18030"),
}
# localedef -i INPUT -f CHARMAP for each folder. C.utf8 is copied from the root's own
# installed one when present (the most faithful copy); compiled only as a fallback.
_SOURCES = {
    "C.utf8": ("C", "UTF-8"),
    "en_US.utf8": ("en_US", "UTF-8"),
    "en_US.iso88591": ("en_US", "ISO-8859-1"),
    "zh_CN.gb18030": ("zh_CN", "GB18030"),
}
_RUNNER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "_child", "world_runner.py")


class Job(Record):
    argv = field()
    env = field()            # str -> str, exactly the child's environment; surrogate escapes allowed
    stdin = field(b"")
    timeout = field(60)      # seconds; then the job's process group is killed
    cwd = field(None)        # working directory (a host path); None: the runner's
    then = field(None)       # a Job fed this job's stdout as its stdin (a pipe, run after it)


class Result(Record):
    returncode = field()     # None when the job timed out (timed_out)
    stdout = field()
    stderr = field()
    timed_out = field(False)  # killed because it outlived its timeout


class Run(Record):
    """A Result with what run_batches() also measures."""
    returncode = field()     # None when the job timed out (timed_out)
    stdout = field()
    stderr = field()
    seconds = field()        # the job's own wall time (its `then` stages not included)
    then = field()           # the Run of job.then, or None
    timed_out = field(False)  # killed because it outlived its timeout


def _cache_dir():
    return os.path.join(os.environ.get("UTF8ENV_CACHE", "/var/cache/utf8env"), "worlds")


@lru_cache(maxsize=None)
def available():
    """(True, "") when worlds can be applied here, else (False, reason)."""
    if os.geteuid() != 0:
        return False, "locale worlds need root (mount namespaces and bind mounts)"
    for tool in ("unshare", "mount", "localedef"):
        if not shutil.which(tool):
            return False, "{} not found on PATH".format(tool)
    # Containers may forbid new mount namespaces even to root: try once.
    probe = subprocess.run(["unshare", "--mount", "--propagation", "private", "true"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if probe.returncode != 0:
        return False, "unshare --mount failed: " + probe.stderr.decode(errors="replace").strip()
    return True, ""


def _root_dir(root):
    """Cache folder of one root; the key changes when the root's localedef (glibc) changes."""
    root = os.path.realpath(root)
    st = os.stat(os.path.join(root, "usr/bin/localedef"))
    digest = hashlib.sha1("{}\0{}\0{}".format(root, st.st_size, st.st_mtime_ns).encode()).hexdigest()
    name = "host" if root == "/" else root.strip("/").replace("/", "_")
    return os.path.join(_cache_dir(), "{}-{}".format(name, digest[:10]))


def _compile(root, name, out):
    """Build the locale folder `name` for `root` at `out` (a path on the host)."""
    installed = os.path.join(root, "usr/lib/locale", name)
    if name == "C.utf8" and os.path.isdir(installed):
        shutil.copytree(installed, out, symlinks=True)
        return
    locale_input, charmap = _SOURCES[name]
    if root == "/":
        cmd, target, where = ["localedef"], out, out
    else:
        # The chroot's localedef writes inside the chroot; move the result out afterwards.
        target = "/var/cache/utf8env-worlds/build-{}-{}".format(os.getpid(), name)
        where = os.path.join(root, target.lstrip("/"))
        shutil.rmtree(where, ignore_errors=True)
        os.makedirs(os.path.dirname(where), exist_ok=True)
        cmd = ["chroot", root, "/usr/bin/localedef"]
    # localedef creates only the last path component. -c: still write the locale when it
    # only warns. Its exit code is unreliable (nonzero after mere warnings), so success
    # means "the folder has an LC_CTYPE".
    cmd += ["-c", "-i", locale_input, "-f", charmap, target]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if not os.path.isfile(os.path.join(where, "LC_CTYPE")):
        raise WorldError("{} did not produce {} (exit {}): {}".format(
            " ".join(cmd), where, proc.returncode, proc.stdout.decode(errors="replace")))
    if where != out:
        shutil.move(where, out)


def _build(root, final):
    partial = final + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    compiled = os.path.join(partial, "compiled")
    os.makedirs(compiled)
    # localedef is slow (zh_CN.GB18030: ~7 s) and single-threaded: compile in parallel.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for f in [pool.submit(_compile, root, n, os.path.join(compiled, n)) for n in _SOURCES]:
            f.result()
    for world, names in _CONTENTS.items():
        if names is None:
            continue
        os.makedirs(os.path.join(partial, world))
        for n in names:  # hard links: each world folder costs nothing
            shutil.copytree(os.path.join(compiled, n), os.path.join(partial, world, n),
                            symlinks=True, copy_function=os.link)
    os.rename(partial, final)


def prepare(roots):
    """Build (once, cached with a stamp) the world folders of every root in `roots`.

    Idempotent and safe from several processes (pytest-xdist): builds happen under an
    exclusive flock, and a folder counts only after its `.ready` stamp is written.
    """
    todo = [r for r in roots if not os.path.isfile(os.path.join(_root_dir(r), ".ready"))]
    if not todo:
        return
    os.makedirs(_cache_dir(), exist_ok=True)
    with open(os.path.join(_cache_dir(), ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for root in todo:
            final = _root_dir(root)
            if os.path.isfile(os.path.join(final, ".ready")):
                continue  # another process built it while we waited
            shutil.rmtree(final, ignore_errors=True)
            _build(root, final)
            open(os.path.join(final, ".ready"), "w").close()


def world_dir(world, root):
    return os.path.join(_root_dir(root), world)


def _mounts(world, roots):
    if _CONTENTS[world] is None:
        return []
    return [[world_dir(world, r), os.path.join(os.path.realpath(r), "usr/lib/locale")]
            for r in roots]


def _b64(data):
    return base64.b64encode(data).decode("ascii")


def _encode(job):
    job = Job(*job)
    return {
        "argv": [_b64(os.fsencode(a)) for a in job.argv],
        "env": [[_b64(os.fsencode(k)), _b64(os.fsencode(v))] for k, v in job.env.items()],
        "stdin": _b64(job.stdin),
        "timeout": job.timeout,
        "cwd": None if job.cwd is None else _b64(os.fsencode(job.cwd)),
        "then": None if job.then is None else _encode(job.then),
    }


def _decode(reply):
    then = reply.get("then")
    return Run(returncode=reply["returncode"], stdout=base64.b64decode(reply["stdout"]),
               stderr=base64.b64decode(reply["stderr"]), seconds=reply.get("seconds", 0.0),
               then=None if then is None else _decode(then),
               timed_out=bool(reply.get("timed_out")))


def _request(world, jobs, roots, workers):
    if world not in _CONTENTS:
        raise ValueError("unknown world {!r}; expected one of {}".format(world, WORLDS))
    return {"mounts": _mounts(world, roots), "workers": workers,
            "jobs": [_encode(j) for j in jobs]}


def _runner(request, world, pass_fds=()):
    cmd = ["unshare", "--mount", "--propagation", "private", sys.executable, "-I", _RUNNER]
    proc = subprocess.run(cmd, input=json.dumps(request).encode(), pass_fds=pass_fds,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        reply = json.loads(proc.stdout.decode("utf-8"))
    except ValueError:
        raise WorldError("world {!r}: runner failed (exit {}): {}".format(
            world, proc.returncode, proc.stderr.decode(errors="replace"))) from None
    if "error" in reply:
        raise WorldError("world {!r}: {}".format(world, reply["error"]))
    return [_decode(r) for r in reply["results"]]


def run_batches(batches, roots, workers=None, progress=None):
    """Run every (world, jobs) batch at once, at most `workers` jobs (default: the cores)
    running at any moment across all batches; results per batch, in job order.

    Each world needs its own mount namespace, so each batch gets its own runner; the
    runners share one token pipe (the GNU make jobserver protocol), so the machine is
    neither idle while one world finishes its last jobs nor oversubscribed.
    `progress(done, total)` is called from another thread as jobs finish.
    """
    ok, why = available()
    if not ok:
        raise WorldError("locale worlds unavailable: " + why)
    prepare(roots)
    workers = workers or os.cpu_count() or 1
    batches = [(w, list(j)) for w, j in batches]
    read_fd, write_fd = map(_above_stdio, os.pipe())
    done_r, done_w = map(_above_stdio, os.pipe())
    fds = (read_fd, write_fd, done_w)
    total = sum(len(j) for _, j in batches)
    watcher = None
    try:
        os.write(write_fd, b"+" * workers)
        requests = []
        for world, jobs in batches:
            request = _request(world, jobs, roots, max(1, min(workers, len(jobs))))
            request["jobserver"] = [read_fd, write_fd]
            request["done_fd"] = done_w
            requests.append((request, world))
        if progress is not None:
            watcher = threading.Thread(target=_watch, args=(done_r, total, progress), daemon=True)
            watcher.start()
        with ThreadPoolExecutor(max_workers=max(1, len(batches))) as pool:
            futures = [pool.submit(_runner, r, w, fds) for r, w in requests]
            return [f.result() for f in futures]
    finally:
        for fd in (read_fd, write_fd, done_w):
            os.close(fd)
        if watcher is not None:
            watcher.join(5)
        os.close(done_r)


def _above_stdio(fd):
    """`fd`, numbered 3 or more: utf8env started with stdout closed (`>&-`) gets 1 from
    os.pipe(), which the runner's own stdout would replace in the runner."""
    if fd > 2:
        return fd
    try:
        return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
    finally:
        os.close(fd)


def _watch(fd, total, progress):
    done = 0
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            return
        if not chunk:   # every writer closed: all runners ended
            return
        done += len(chunk)
        progress(done, total)


def run(world, jobs, roots, workers=None):
    """Run all `jobs` in `world` (applied to every root in `roots`); results in job order.

    One unshare process per call does the mounts and runs the jobs in a thread pool,
    so batch a world's jobs into one call.
    """
    request = _request(world, jobs, roots, workers or (os.cpu_count() or 1) * 2)
    ok, why = available()
    if not ok:
        raise WorldError("locale worlds unavailable: " + why)
    prepare(roots)
    return [Result(r.returncode, r.stdout, r.stderr, r.timed_out) for r in _runner(request, world)]
