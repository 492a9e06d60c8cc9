"""The two runs of a test suite in a non-UTF-8 locale world: UTF-8 mode off (today's
behaviour) and on (Python 3.15's, PEP 686), each interpreter started with
`-X warn_default_encoding` and the plugin asked (`--utf8env-json`), each run in its own
temporary folder holding a copy of the project, run in parallel when cores allow
(utf8env._worlds: one runner per world). Each run is supervised (_supervise.py): its
output goes to files, its timeout holds, and what it leaves running (its process group,
and every process carrying its marker variable, a setsid() daemon too) is killed at its
end; a progress plugin (_progress.py) writes each test's outcome as it ends. The tests
that changed are run again in the same copies (plan_rerun).

The runs inherit this process's environment, less every locale and Python text
variable, plus the environment set's. Each runs the interpreter's own pytest (the
user's venv): a Python without pytest is refused with one line saying how to give it
one. Only utf8env itself is put on PYTHONPATH, for its plugin (standard library only,
loaded by module name: it needs no metadata), under a private name (LENT) no project
uses, so that a project that imports a `utf8env` of its own (this one, a copy, another
version) gets its own; nothing else is lent. A src-layout project whose package the
interpreter imports from the project itself (an editable install, PYTHONPATH) gets its
copy's src/ first on PYTHONPATH: the runs test the copy, never the original. The runs
use the interpreter's own bytecode caches, as a plain run does.
"""
import functools
import json
import os
import shutil
import sys
import tempfile
import uuid

from .._errors import UsageError
from .._worlds import cells, env_sets as environments
from .. import _worlds as worlds
from .._engine.records import Record, field
from . import _copies as copies, _supervise as supervise, _targets as targets
from . import _unittest_runner as unittest_runner
from ._results import PEP686, TODAY
from .plugin import SEED_VARIABLE

DEFAULT_WORLD = "latin1"
DEFAULT_TIMEOUT = 900.0
# Every environment set but utf8-mode (which forces the mode both runs set themselves).
WORLD_NAMES = tuple(n for n in environments.ENV_SET_NAMES if n != "utf8-mode")
WORLD_HELP = ("the locale world (default latin1): %s; %s are %s" % (
    ", ".join(n for n in WORLD_NAMES if n not in worlds.WINDOWS), ", ".join(worlds.WINDOWS),
    worlds.WINDOWS_NOTE))
# utf8env's package as the runs see it: a link named LENT (a copy inside a chroot). Every
# import on the plugins' path is relative, so the package works under that name too.
LENT = "_utf8env_lent"
PLUGIN = LENT + ".readiness.plugin"
PROGRESS = LENT + ".readiness._progress"
# The plugin's pytest11 entry point, blocked in the runs: an installed utf8env (the
# project's own, another version) would declare the same options a second time.
ENTRY_POINT = "utf8env.readiness.plugin"
_PACKAGES = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Folder(object):
    """A temporary folder inside `root` ("/" or a chroot), as cells.Cell: `work` is the
    working directory (the project's copy), `inside()` a path as the interpreter sees it."""

    def __init__(self, root, name):
        base = os.path.join(root, "tmp") if root != "/" else tempfile.gettempdir()
        self.root = root
        self.dir = tempfile.mkdtemp(prefix="utf8env-readiness-%s-" % name, dir=base)
        self.work = os.path.join(self.dir, "project")
        self.project = None           # the project copied into `work`
        self.token = "%d-%s" % (os.getpid(), uuid.uuid4().hex)    # the runs' marker

    def inside(self, path):
        if self.root == "/":
            return path
        return "/" + os.path.relpath(path, os.path.realpath(self.root))

    def path(self, name):
        return os.path.join(self.dir, name)

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def env_set(name):
    if name not in WORLD_NAMES:
        raise UsageError("--world %r: expected one of %s" % (name, ", ".join(WORLD_NAMES)))
    return next(e for e in environments.ENV_SETS if e.name == name)


def _lend(folder):
    """A folder for PYTHONPATH holding this utf8env (for its plugin) as the package LENT:
    a link on the host, a copy inside a chroot (where host paths do not exist)."""
    site = folder.path("site")
    os.mkdir(site)
    source = os.path.join(_PACKAGES, "utf8env")
    target = os.path.join(site, LENT)
    if folder.root == "/":
        os.symlink(source, target)
    else:
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    return folder.inside(site)


# -- the runs ------------------------------------------------------------------------------

RERUN = "rerun-"        # the file names of a rerun: the same folder, these prefixed
_SUPERVISOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_supervise.py")
# The world runner's own timeout: a backstop for the supervisor's, which holds the real one.
_BACKSTOP = 60.0


class Stage(object):
    """A Folder seen by one of its runs: the first (""), a rerun (RERUN) or a trial of a
    fix (_advice.TRIAL): the same working directory and temporary folder, the run's own
    files (status, output, progress, record; the unittest runner's JUnit XML) named with
    its prefix."""

    def __init__(self, folder, prefix):
        self.folder, self.prefix = folder, prefix
        self.root, self.dir, self.work = folder.root, folder.dir, folder.work
        self.project, self.token = folder.project, "%s%s" % (prefix, folder.token)

    def inside(self, path):
        return self.folder.inside(path)

    def path(self, name):
        return self.folder.path(self.prefix + name)

    def remove(self):
        self.folder.remove()


def _job(interp, es, utf8, stage, pytest_args, base, environ, lent, timeout, extra=(),
         pycache=None, src=False):
    """The supervised Job of one run of `stage`. `pycache`: a PYTHONPYCACHEPREFIX for the
    run (None: none, the interpreter's own caches, as a plain run); `src`: the copy's
    src/ first on PYTHONPATH (targets.src_first())."""
    env = environments.program_environment(interp, es, utf8)
    inside = stage.inside
    argv = cells.python_command(env, stage) + [
        "-m", "pytest", "-p", "no:" + ENTRY_POINT, "-p", PLUGIN, "-p", PROGRESS,
        "--utf8env-json=" + inside(stage.path("record.json")),
        "--utf8env-progress=" + inside(stage.path("progress.jsonl")),
        "--basetemp=" + inside(stage.folder.path("tmp"))] + list(extra) + list(pytest_args)
    if isinstance(pytest_args, unittest_runner.Args):      # `python -m unittest ARGS`
        words = unittest_runner.command(
            inside(stage.path("record.json")), inside(stage.path("junit.xml")),
            inside(stage.path("progress.jsonl")))
        words[1] = LENT + unittest_runner.MODULE[len("utf8env"):]     # -m LENT.readiness...
        argv = cells.python_command(env, stage) + words + list(extra) + list(pytest_args)
    run_env = dict(base)
    run_env.update(es.variables)
    run_env["PYTHONUTF8"] = utf8          # the suite's own Python children too
    run_env[SEED_VARIABLE] = run_seed()
    run_env["PYTHONPATH"] = os.pathsep.join(
        ([inside(os.path.join(stage.work, "src"))] if src else []) + [lent]
        + ([environ["PYTHONPATH"]] if environ.get("PYTHONPATH") else []))
    if pycache:
        run_env["PYTHONPYCACHEPREFIX"] = pycache
    if env.launcher:
        run_env["XDG_CACHE_HOME"] = inside(stage.folder.path("cache"))
    # The run's temporary files in its own folder, removed with it: what its processes
    # leave there (a test's mkdtemp, the children's record folder of a run that was
    # stopped before its atexit) never reaches the user's TMPDIR.
    tmpdir = stage.folder.path("tmpdir")
    if not os.path.isdir(tmpdir):
        os.mkdir(tmpdir, 0o700)
    run_env["TMPDIR"] = inside(tmpdir)
    # -S: the supervisor is standard library only; site's .pth files cost it ~30 ms a run.
    supervised = [sys.executable, "-I", "-S", _SUPERVISOR, stage.path("status.json"),
                  stage.path("stdout"), stage.path("stderr"), repr(float(timeout)),
                  stage.folder.path("stop"), stage.token, "--"] + argv
    return worlds.Job(argv=supervised, env=run_env, timeout=timeout + _BACKSTOP, cwd=stage.work)


_SEED = []


def run_seed():
    """The seed every run of this invocation gives pytest-randomly, where the suite uses
    it (plugin.pytest_cmdline_main): the two modes run the tests in the same order."""
    if not _SEED:
        import random
        _SEED.append(str(random.SystemRandom().randrange(1 << 32)))
    return _SEED[0]


def plan(project, pythons, world, pytest_args, environ, timeout, skipped=None, modes=None):
    """[(interp, mode, folder, Job)] for both runs of every interpreter (`modes`: only
    those of these modes), and every folder made (to remove). The project is copied once
    per run, its .pytest_cache too (so that --lf, --ff, --sw mean what they mean in the
    project); its special files are left out and listed in `skipped` [(path, kind)]. Each
    job is supervised (_supervise.py): its output goes to files, its timeout holds, what
    it leaves running is killed."""
    es = env_set(world)
    base = targets.base_environ(environ)
    planned, folders = [], []
    skipped = [] if skipped is None else skipped
    # asked at once, answered while the project is copied
    asked = [targets.ask_src_first(project, interp, environ) for interp in pythons]
    try:
        lent, made = {}, []
        for interp in pythons:
            if interp.root not in lent:
                holder = Folder(interp.root, "site")
                folders.append(holder)
                lent[interp.root] = _lend(holder)
            for mode, utf8 in ((TODAY, "0"), (PEP686, "1")):
                if modes is not None and mode not in modes:
                    continue
                folder = Folder(interp.root, mode)
                folders.append(folder)
                folder.project = project
                made.append((interp, mode, utf8, folder))
        copies.copy_projects([(project, folder.work) for _, _, _, folder in made], skipped)
        src = {id(i): targets.src_first(project, i, environ, a) for i, a in zip(pythons, asked)}
        for interp, mode, utf8, folder in made:
            folder.make = functools.partial(_job, interp, es, utf8, pytest_args=pytest_args,
                                            base=base, environ=environ,
                                            lent=lent[interp.root], timeout=timeout,
                                            src=src[id(interp)])
            stage = Stage(folder, "")
            planned.append((interp, mode, stage, folder.make(stage)))
    except BaseException:
        for folder in folders:
            folder.remove()
        for question in asked:
            if question is not None and question[2] is not None and \
                    question[2].returncode is None:
                question[2].kill()
                question[2].communicate()
        raise
    return planned, folders


def other_copies(wanted):
    """[Folder]: a folder per (stage, name) of `wanted`, for another run like the stage's
    (the same Python, mode, arguments and lent package: its `make`), each holding a fresh
    copy of the project (copies.copy_projects: a UsageError in one line when one cannot
    be made, every folder removed then)."""
    folders = []
    try:
        for stage, name in wanted:
            folder = Folder(stage.root, name)
            folders.append(folder)
            folder.project = stage.project
            folder.make = stage.folder.make
        copies.copy_projects([(folder.project, folder.work) for folder in folders])
    except BaseException:
        copies.remove_all(folders)
        raise
    return folders


def plan_rerun(planned, wanted):
    """The reruns, in the same copies, of the tests `wanted` {python version: [node id]}:
    both modes of each of those Pythons, only those tests (--utf8env-only), the
    suite's arguments as given, the copy's .pytest_cache the project's again."""
    out = []
    for interp, mode, stage, _ in planned:
        ids = wanted.get(interp.version)
        if not ids:
            continue
        rerun = Stage(stage.folder, RERUN)
        with open(rerun.path("only.txt"), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write("".join(i + "\n" for i in ids))
        copies.restore_cache(stage.project, stage.work)
        out.append((interp, mode, rerun, stage.folder.make(
            rerun, extra=["--utf8env-only=" + rerun.inside(rerun.path("only.txt"))])))
    return out


def roots_of(pythons):
    return sorted({"/"} | {interp.root for interp in pythons}, key=lambda r: (r != "/", r))


def world_problem(world, pythons):
    """None when the world of the environment set `world` can be made here for
    `pythons`, else one line: the world, why not, and what would make it possible."""
    es = env_set(world)
    return worlds.problems([es.world], roots_of(pythons)).get(es.world)


class Ran(Record):
    """One supervised run, as its supervisor saw it."""
    returncode = field()     # pytest's status; None: timed out, stopped, or a signal
    signal = field()         # the signal that killed it, or None
    timed_out = field()
    stopped = field()        # ended because readiness was interrupted
    seconds = field()
    stdout = field()         # bytes
    stderr = field()
    left = field(0)          # processes it left running, killed at its end
    unwritten = field(None)  # why its files could not be written (a full disk), or None


def _read_bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def ran(stage, run):
    """The Ran of `stage` from its supervisor's status file (else the world runner's Run)."""
    try:
        with open(stage.path("status.json"), encoding="utf-8") as f:
            status = json.load(f)
    except (OSError, ValueError):
        status = None
    out, err = _read_bytes(stage.path("stdout")), _read_bytes(stage.path("stderr"))
    if status is None:
        status = _status_on_stdout(run.stdout)
    if status is None:        # the supervisor itself did not end well
        return Ran(returncode=None if run.timed_out else run.returncode, signal=None,
                   timed_out=run.timed_out, stopped=False, seconds=run.seconds,
                   stdout=out + run.stdout, stderr=err + run.stderr)
    return Ran(returncode=status["returncode"], signal=status["signal"],
               timed_out=status["timed_out"], stopped=status["stopped"],
               seconds=status["seconds"], stdout=out, stderr=err, left=status["left"],
               unwritten=status.get("unwritten"))


def _status_on_stdout(stdout):
    """The status the supervisor wrote on its stdout when its file could not be written
    (it holds "unwritten"), else None."""
    try:
        status = json.loads(stdout.decode("utf-8"))
    except ValueError:          # (UnicodeDecodeError is one)
        return None
    return status if isinstance(status, dict) and "unwritten" in status else None


def execute(planned, world, workers=None, via=None, progress=None):
    """The Ran of each planned job, run in parallel (at most `workers`: the cores, and
    never more than the jobs). `via`: _worlds.VIAS (None: the least privileged way);
    `progress(done, total)`: called as the jobs end (_output.progress). Whatever a run
    left behind (a daemon in a session of its own) is killed before this returns, even
    when the runs fail or are interrupted (stop())."""
    es = env_set(world)
    cores = os.cpu_count() or 1
    workers = max(1, min(workers or cores, len(planned)))
    roots = roots_of(interp for interp, _, _, _ in planned)
    try:
        [runs] = worlds.run_batches([(es.world, [job for _, _, _, job in planned])], roots,
                                    workers=workers, via=via, progress=progress)
    finally:
        supervise.kill_marked([stage.token for _, _, stage, _ in planned])
    return [ran(stage, run) for (_, _, stage, _), run in zip(planned, runs)], workers


def stop(planned):
    """Stop the planned runs now (from a signal handler): each supervisor is told (its
    stop file, for one that has not started yet), and every process they started killed."""
    for _, _, stage, _ in planned:
        try:
            with open(stage.folder.path("stop"), "w", encoding="utf-8"):
                pass
        except OSError:
            pass
    supervise.kill_marked([stage.token for _, _, stage, _ in planned])


def read_record(folder):
    """The plugin's JSON record of one run, or None."""
    try:
        with open(folder.path("record.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
