"""The per-cell sandbox: each job in its own temporary folder, started by a command line
built from its Environment, run in its locale world with a timeout; and what a finished
run shows (a UnicodeError's last line, where it was raised, a timeout).

Cells run in parallel across the cores (_worlds.run_batches: one runner per world,
one shared limit); the folders are removed and the process groups killed whatever
happens.
"""
import os
import re
import shutil
import tempfile

from . import jobs as worlds
from .._own_command import own_command

# `utf8env run` by this interpreter, from the folder this package was imported from, as
# the installed command starts it (-I -S; own_command says why).
LAUNCHER = tuple(own_command()) + ("run",)


class Cell(object):
    """One job in its own directory: DIR/work is the working directory, programs and
    outputs live in DIR, so that a listing of the working directory sees only the
    scenario's files."""

    def __init__(self, root):
        base = os.path.join(root, "tmp") if root != "/" else tempfile.gettempdir()
        self.dir = tempfile.mkdtemp(prefix="utf8env-matrix-", dir=base)
        self.root = root
        self.work = os.path.join(self.dir, "work")
        os.mkdir(self.work)

    def inside(self, path):
        """`path` as the interpreter sees it (inside its chroot)."""
        if self.root == "/":
            return path
        return "/" + os.path.relpath(path, os.path.realpath(self.root))

    def write(self, name, data):
        with open(os.path.join(self.dir, name), "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode("utf-8"))

    def touch(self, name):
        """An empty file `name` (bytes: any name the filesystem takes) in the working folder."""
        open(os.path.join(os.fsencode(self.work), name), "wb").close()

    def read(self, name):
        try:
            with open(os.path.join(self.dir, name), "rb") as f:
                return f.read()
        except OSError:
            return None

    def left(self):
        """{name: bytes} of the files the command left in its working directory: none
        where it removed that directory itself, and a file is left out that went (or
        could not be read) between the listing and its reading."""
        out = {}
        try:
            names = os.listdir(os.fsencode(self.work))
        except FileNotFoundError:       # the program removed its own working directory
            return out
        for name in names:
            path = os.path.join(os.fsencode(self.work), name)
            if os.path.isfile(path):
                try:
                    with open(path, "rb") as f:
                        out[name] = f.read()
                except OSError:
                    continue
        return out

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def python_command(env, cell):
    """The argv prefix that starts env's interpreter in cell's working directory."""
    argv = list(env.argv)
    if env.root != "/":
        # chroot(8) changes to / inside the root: env -C goes back to the cell.
        argv = argv[:2] + ["/usr/bin/env", "-C", cell.inside(cell.work)] + argv[2:]
    if env.launcher:
        argv = list(LAUNCHER) + ["--utf8", env.launcher, "--"] + argv
    return argv + list(env.options)


def execute(cells_jobs, roots, workers, progress, via=None):
    """cells_jobs: [(world, job)]; results (worlds.Run) in the same order. `via`: how
    the worlds are made (None: the least privileged way; MOUNT: root's mounts)."""
    batches = {}
    for i, (world, job) in enumerate(cells_jobs):
        batches.setdefault(world, []).append((i, job))
    names = list(batches)
    roots = sorted({"/"} | set(roots), key=lambda r: (r != "/", r))
    runs = worlds.run_batches([(w, [j for _, j in batches[w]]) for w in names], roots,
                              workers=workers, progress=progress, via=via)
    out = [None] * len(cells_jobs)
    for w, results in zip(names, runs):
        for (i, _), r in zip(batches[w], results):
            out[i] = r
    return out


def cpu_seconds(runs):
    """The jobs' own wall times, every stage of every pipe."""
    total = 0.0
    for r in runs:
        while r is not None:
            total += r.seconds
            r = r.then
    return total


# -- what a run shows --------------------------------------------------------------------

_UNICODE_ERROR = re.compile(rb"^(?:[\w.]+\.)?(Unicode(?:Encode|Decode|Translate)?Error)\b.*$", re.M)
_LAST_FRAME = re.compile(rb'^\s*File "([^"]*)", line (\d+)', re.M)


def unicode_error(stderr):
    """The last line of a UnicodeError traceback in `stderr` (text), or None."""
    found = list(_UNICODE_ERROR.finditer(stderr or b""))
    return found[-1].group(0).decode("utf-8", "backslashreplace").strip() if found else None


def where(stderr):
    """"file:line" of the last traceback frame in `stderr`, or None."""
    frames = list(_LAST_FRAME.finditer(stderr or b""))
    if not frames:
        return None
    f = frames[-1]
    return "%s:%s" % (f.group(1).decode("utf-8", "backslashreplace"), f.group(2).decode())


def failure(run):
    """Why a Python stage failed other than by a UnicodeError, in words, or None."""
    if run.timed_out:
        return "timed out"
    if run.returncode != 0 and not unicode_error(run.stderr):
        return "exit %d: %s" % (run.returncode, (run.stderr.decode("utf-8", "replace")
                                                 .strip().splitlines() or [""])[-1])
    return None


def status(run):
    """The outcome of the user's command: "ok", "timeout", "UnicodeError", "exit N"."""
    if run.timed_out:
        return "timeout"
    if unicode_error(run.stderr):
        return "UnicodeError"
    return "ok" if run.returncode == 0 else "exit %d" % run.returncode
