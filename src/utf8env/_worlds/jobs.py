"""Jobs run in a locale world: one world runner per world (utf8env/_child/world_runner.py)
applies the world (LOCPATH, or mounts inside a namespace) and runs that world's jobs in
parallel, every job with its own timeout and process group."""
import base64
import json
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from . import access, build
from .catalog import WORLD, WORLDS, world as _world
from .._errors import WorldError
from .._engine.records import Record, field

_RUNNER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "_child", "world_runner.py")


class Job(Record):
    argv = field()
    env = field()            # str -> str, the child's environment (surrogate escapes allowed);
                             # a LOCPATH world puts its folder first in LOCPATH
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


class Timing(Record):
    """How long a command's world jobs took (matrix's and readiness's reports)."""
    wall_seconds = field()
    cell_seconds = field()     # the jobs' own wall times, summed
    workers = field()
    jobs = field()


def problems(names, roots=("/",), via=None, cache=None):
    """{world: why it cannot be made here} for the worlds of `names` that cannot; the
    others are built on the way (their locales compiled into the cache, in parallel:
    localedef is single-threaded, and slow for the CJK charmaps)."""
    out, todo = {}, []
    for name in names:
        _world(name)
    for name in sorted(set(names), key=WORLDS.index):
        way = access.way(name, roots, via)
        if way.problem:
            out[name] = way.problem
        elif WORLD[name].folders is not None:
            todo.append(name)

    def make(name):
        try:
            for root in roots:
                build.world_folder(name, root, cache)
        except WorldError as error:
            return str(error)
        return None
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for name, why in zip(todo, pool.map(make, todo)):
            if why:
                out[name] = why
    return out


def available(roots=("/",), via=None):
    """(True, "") when every world can be entered here, else (False, why): the first
    world that cannot, and why (its locales are not compiled to find out)."""
    for name in WORLDS:
        way = access.way(name, roots, via)
        if way.problem:
            return False, way.problem
    return True, ""


def prepare(roots, names=None, via=None, cache=None):
    """Build the folders of the worlds `names` for every root in `roots` (None: none
    now; each is built when first used); WorldError for the first that cannot be made."""
    for name, why in problems(names or (), roots, via, cache).items():
        raise WorldError(why)


def world_dir(name, root="/", cache=None):
    """The folder of world `name` for `root` (built where missing): what LOCPATH names, or
    what is mounted over /usr/lib/locale. None for the installed world."""
    return build.world_folder(name, root, cache)


def added_environ(name, roots=("/",), via=None, cache=None):
    """What world `name` adds to every job's environment here: {"LOCPATH": its folder}
    where LOCPATH makes it (the job's own LOCPATH, if any, follows after a ':'), else {}."""
    if access.way(name, roots, via).method == access.LOCPATH:
        return {"LOCPATH": build.world_folder(name, "/", cache)}
    return {}


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


def _entry(name, roots, via, cache):
    """(command prefix of the runner, the request's world part) for world `name`."""
    if name not in WORLD:
        raise ValueError("unknown world {!r}; expected one of {}".format(name, WORLDS))
    way = access.way(name, roots, via)
    if way.problem:
        raise WorldError("locale worlds unavailable: " + way.problem)
    part = {"mounts": [], "prepend": [], "as_user": None}
    runner = [sys.executable, "-I", _RUNNER]
    if way.method == access.LOCPATH:
        part["prepend"] = [[_b64(b"LOCPATH"),
                             _b64(os.fsencode(build.world_folder(name, "/", cache)))]]
    elif way.method in (access.USERNS, access.MOUNT):
        part["mounts"] = [[build.world_folder(name, r, cache),
                           os.path.join(os.path.realpath(r), "usr/lib/locale")] for r in roots]
        if way.method == access.MOUNT:
            runner = ["unshare", "--mount", "--propagation", "private"] + runner
        else:
            runner = ["unshare", "--user", "--map-root-user", "--mount",
                      "--propagation", "private"] + runner
            if os.geteuid() != 0 and access.can_map_user():
                # The jobs run as this user again, in a user namespace of their own
                # inside: root only long enough to mount.
                part["as_user"] = [os.geteuid(), os.getegid()]
    return runner, part


def _runner(command, request, world, pass_fds=(), started=None):
    """The results of a runner's request (`started`: a list the runner's Popen is added
    to, for the caller to stop it)."""
    import subprocess
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, pass_fds=pass_fds)
    if started is not None:
        started.append(proc)
    out, err = proc.communicate(json.dumps(request).encode())
    try:
        reply = json.loads(out.decode("utf-8"))
    except ValueError:
        raise WorldError("world {!r}: runner failed (exit {}): {}".format(
            world, proc.returncode, err.decode(errors="replace"))) from None
    if "error" in reply:
        raise WorldError("world {!r}: {}".format(world, reply["error"]))
    return [_decode(r) for r in reply["results"]]


def run_batches(batches, roots, workers=None, progress=None, via=None, cache=None):
    """Run every (world, jobs) batch at once, at most `workers` jobs (default: the cores)
    running at any moment across all batches; results per batch, in job order.

    Each world has its own runner (its own namespace, when it needs one); the runners
    share one token pipe (the GNU make jobserver protocol), so the machine is neither
    idle while one world finishes its last jobs nor oversubscribed.
    `progress(done, total)` is called from another thread as jobs finish. `via`:
    access.VIAS (None: the least privileged way to each world).
    """
    workers = workers or os.cpu_count() or 1
    batches = [(w, list(j)) for w, j in batches]
    entries = [_entry(w, roots, via, cache) for w, _ in batches]
    read_fd, write_fd = map(_above_stdio, os.pipe())
    done_r, done_w = map(_above_stdio, os.pipe())
    fds = (read_fd, write_fd, done_w)
    total = sum(len(j) for _, j in batches)
    watcher = None
    try:
        os.write(write_fd, b"+" * workers)
        requests = []
        for (world, jobs), (command, part) in zip(batches, entries):
            request = dict(part, workers=max(1, min(workers, len(jobs))),
                           jobs=[_encode(j) for j in jobs],
                           jobserver=[read_fd, write_fd], done_fd=done_w)
            requests.append((command, request, world))
        if progress is not None:
            watcher = threading.Thread(target=_watch, args=(done_r, total, progress), daemon=True)
            watcher.start()
        started = []
        with ThreadPoolExecutor(max_workers=max(1, len(batches))) as pool:
            futures = [pool.submit(_runner, c, r, w, fds, started) for c, r, w in requests]
            try:
                return [f.result() for f in futures]
            except KeyboardInterrupt:
                # Ctrl-C here only (kill -INT): the runners stop their jobs (SIGTERM)
                # and reply, so that leaving the pool does not wait for every job.
                for proc in started:
                    try:
                        proc.terminate()
                    except OSError:
                        pass
                raise
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
    import fcntl        # here: Windows has none, and `utf8env --help` imports this module there
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


def run(world, jobs, roots, workers=None, via=None, cache=None):
    """Run all `jobs` in `world` (applied to every root in `roots`); results in job order.

    One runner per call applies the world and runs the jobs in a thread pool, so batch a
    world's jobs into one call.
    """
    jobs = list(jobs)
    command, part = _entry(world, roots, via, cache)
    request = dict(part, workers=workers or (os.cpu_count() or 1) * 2,
                   jobs=[_encode(j) for j in jobs])
    return [Result(r.returncode, r.stdout, r.stderr, r.timed_out)
            for r in _runner(command, request, world)]
