"""`utf8env readiness -- pytest ARGS` (or `-- python -m unittest ARGS`) on Windows itself:
where it runs is the world, this machine's ANSI code page (GetACP()). The suite runs twice
with the interpreter that runs utf8env (or each --python), UTF-8 mode off (`-X utf8=0`:
today's behaviour) and on (`-X utf8=1`: 3.15's, PEP 686), each with `-X
warn_default_encoding` (3.10+) and readiness's plugins, as on Linux; the reruns, the
trials of the fixes, the comparison and the reports are _suite's and _advice's.

What differs from Linux, and how it reuses readiness --windows (_windows.py, Windows
CPython under Wine from Linux), which already builds a Windows run's command line:

- no locale world to enter: each run is a plain process behind the supervisor
  (_supervise.py: a process group of its own, its tree in a job object killed at its
  end), run side by side in threads;
- utf8env is lent to the runs as a copy (a Windows link needs a privilege); python.org's
  embeddable build running utf8env reads no PYTHONPATH, and loads its own (isolated());
- the report's world is the code page ("cp1252") said as this Windows' ANSI code page,
  with the encodings each run really had checked against utf8env's win32 rules
  (_windows.differences(): the `seen` plugin).
"""
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from .._engine.profiles import CODE_PAGES, warns_default_encoding
from .._environment import user_environ
from .._errors import UsageError
from .._output import to_stderr
from .. import _discovery as discovery
from .. import _worlds as worlds
from . import (_advice as advice, _copies as copies, _report as report, _suite as suite,
               _targets as targets, _unittest_runner as unittest_runner,
               _windows as windows)
from ._guard import (INTERRUPTED, Guard, Interrupted, checked_pythons, checked_timeout,
                     project as current_project, pytest_args)
from ._unittest_runner import Args

# Linux's options that have no meaning here, each with why: one line, status 2.
NOT_HERE = (
    ("world", "--world", "its locale worlds are Linux's; on Windows the runs are in this "
                         "machine's ANSI code page"),
    ("windows", "--windows", "it runs Windows CPython under Wine, from Linux; here the runs "
                             "use this Windows' own Python (--python PATH)"),
    ("code_page", "--code-page", "it sets Wine's code page (with --windows); on Windows the "
                                 "runs are in this machine's"),
    ("windows_requirements", "--windows-requirements", "it goes with --windows; here the "
                                                       "runs use the packages of each "
                                                       "--python"),
)
# What the world line says of the place.
PLACE = "this Windows' ANSI code page (GetACP()); the runs: %s with -X utf8=0 and -X utf8=1"


def refusal(options):
    """The one line refusing the first option of `options` that makes no sense on
    Windows itself, or None."""
    for dest, name, why in NOT_HERE:
        if getattr(options, dest, None):
            return "readiness %s on Windows itself: %s" % (name, why)
    return None


OWN = "utf8env"


def isolated(interp):
    """True for the interpreter running utf8env when it reads no environment: python.org's
    embeddable build (its ._pth file: isolated mode) reads no PYTHONPATH, so its runs load
    the plugins of the utf8env installed there, this one, by their own names (the
    processes its suite starts, isolated too, are not recorded)."""
    return list(interp.argv) == [sys.executable] and bool(sys.flags.ignore_environment)


def code_page():
    """This Windows' ANSI code page, GetACP() (the Win32 API, by the public ctypes)."""
    import ctypes
    return ctypes.windll.kernel32.GetACP()


class Native(windows.Windows):
    """This Windows as readiness --windows's Windows: plan() (inherited) makes runs of
    the shape suite.plan() makes; the jobs are this machine's interpreters'."""

    def __init__(self, acp, pythons, pytest=True):
        self.minor, self.code_page = None, acp
        self.pythons, self.pytest = pythons, pytest
        self.environ = user_environ()
        self.site = None            # nothing installed for the runs: each Python's own
        self.src = False
        self.holder = None

    def open(self):
        # utf8env for the runs' plugins, as LENT: a copy (no link without a privilege).
        self.holder = suite.Folder("/", "site")
        self.lent = self.holder.path("site")
        source = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        shutil.copytree(source, os.path.join(self.lent, suite.LENT),
                        ignore=shutil.ignore_patterns("__pycache__", "docs"),
                        copy_function=copies.COPY)
        return self

    def close(self):
        if self.holder is not None:
            self.holder.remove()

    def run_environ(self):
        return targets.base_environ(self.environ)

    def job(self, interp, utf8, stage, pytest_args, base, timeout, extra=()):
        own = isolated(interp)
        # A plugin's module: the lent package's, or the installed one's (isolated()).
        named = (lambda name: OWN + name[len(suite.LENT):]) if own else (lambda name: name)
        argv = list(interp.argv) + ["-X", "utf8=" + utf8]
        if warns_default_encoding(interp.version):
            argv += ["-X", "warn_default_encoding"]
        if isinstance(pytest_args, unittest_runner.Args):   # `python -m unittest ARGS`
            words = unittest_runner.command(stage.path("record.json"), stage.path("junit.xml"),
                                            stage.path("progress.jsonl"))
            words[1] = named(suite.LENT + unittest_runner.MODULE[len("utf8env"):])
            argv += words + [unittest_runner.OPTIONS[4] + stage.path("seen.json")]
        else:
            argv += ["-m", "pytest"] + ([] if own else ["-p", "no:" + suite.ENTRY_POINT])
            argv += ["-p", named(suite.PLUGIN), "-p", named(suite.PROGRESS),
                     "-p", named(windows.SEEN), "--utf8env-seen=" + stage.path("seen.json"),
                     "--utf8env-json=" + stage.path("record.json"),
                     "--utf8env-progress=" + stage.path("progress.jsonl"),
                     "--basetemp=" + stage.folder.path("tmp")]
        argv += list(extra) + list(pytest_args)
        env = dict(base)
        env["PYTHONUTF8"] = utf8          # the suite's own Python children too
        env[suite.SEED_VARIABLE] = suite.run_seed()
        env["PYTHONPATH"] = os.pathsep.join(
            ([os.path.join(stage.work, "src")] if self.src else []) + [self.lent]
            + ([self.environ["PYTHONPATH"]] if self.environ.get("PYTHONPATH") else []))
        # The run's temporary files in its own folder, removed with it (TEMP and TMP are
        # Windows' TMPDIR).
        tmpdir = stage.folder.path("tmpdir")
        if not os.path.isdir(tmpdir):
            os.mkdir(tmpdir)
        for name in ("TMPDIR", "TEMP", "TMP"):
            env[name] = tmpdir
        supervised = [sys.executable, "-I", "-S", windows.SUPERVISOR, stage.path("status.json"),
                      stage.path("stdout"), stage.path("stderr"), repr(float(timeout)),
                      stage.folder.path("stop"), stage.token, "--"] + argv
        return worlds.Job(argv=supervised, env=env, timeout=timeout + 60.0, cwd=stage.work)

    def differences(self, planned):
        out = []
        if self.code_page not in CODE_PAGES:      # a code page the rules do not model
            return out
        for interp in self.pythons:     # utf8env's win32 rules know the version's
            self.minor = interp.version
            out += windows.Windows.differences(
                self, [p for p in planned if p[0] is interp])
        return out

    def describe(self, differences=()):
        # (each one's path is in the runs' "interpreter", in JSON)
        text = PLACE % ("Python " + ", ".join(i.version for i in self.pythons))
        if differences:
            text += ("; the encodings seen differ from utf8env's win32 rules: %s"
                     % "; ".join(differences))
        return text


def _one(job):
    """The world runner's Run of one supervised job, run here (the supervisor holds the
    run's timeout; this one is its backstop)."""
    started = time.monotonic()
    try:
        proc = subprocess.run(job.argv, env=job.env, cwd=job.cwd, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=job.timeout)
        return worlds.Run(returncode=proc.returncode, stdout=proc.stdout, stderr=proc.stderr,
                          seconds=time.monotonic() - started, then=None)
    except subprocess.TimeoutExpired as expired:
        return worlds.Run(returncode=None, stdout=expired.stdout or b"",
                          stderr=expired.stderr or b"", seconds=time.monotonic() - started,
                          then=None, timed_out=True)


def execute(planned, progress=None):
    """suite.execute() on Windows itself: the Ran of each planned job, run side by side
    (at most one per core)."""
    workers = max(1, min(os.cpu_count() or 1, len(planned)))
    done = []

    def one(job):
        run = _one(job)
        done.append(run)
        if progress is not None:
            progress(len(done), len(planned))
        return run
    with ThreadPoolExecutor(workers) as pool:
        runs = list(pool.map(one, [job for _, _, _, job in planned]))
    return [suite.ran(stage, run) for (_, _, stage, _), run in zip(planned, runs)], workers


class _Guard(Guard):
    def run_batch(self, planned, world, progress):
        return execute(planned, progress)


def run(options, command):
    refused = refusal(options)
    if refused:
        raise UsageError(refused)
    if not command:
        raise UsageError("readiness: no COMMAND given: expected -- pytest ARGS...")
    args = pytest_args(command)
    timeout = checked_timeout(options.timeout)
    project = current_project()
    try:
        with _Guard() as guard:
            return _run(options, args, timeout, project, guard)
    except (Interrupted, KeyboardInterrupt):
        to_stderr(report.INTERRUPTED_LINE)
        return INTERRUPTED


def this_python():
    """The interpreter that runs utf8env, as an Interpreter."""
    return discovery.Interpreter(version="%d.%d" % sys.version_info[:2],
                                 argv=[sys.executable], root="/")


def _run(options, args, timeout, project, guard):
    if options.python:
        pythons = checked_pythons(options.python, user_environ(), not isinstance(args, Args))
    else:
        pythons = [this_python()]
        problem = None if isinstance(args, Args) else targets.pytest_problem(
            pythons[0], targets.base_environ(user_environ()))
        if problem:
            raise UsageError(problem)
    started = time.monotonic()
    skipped = []
    native = Native(code_page(), pythons, pytest=not isinstance(args, Args))
    with native:
        planned, folders = native.plan(project, pythons, suite.DEFAULT_WORLD, args,
                                       user_environ(), timeout, skipped)
        try:
            runs, workers = guard.execute(planned, suite.DEFAULT_WORLD)
            result = advice.follow_up(
                planned, runs, workers, project, pythons, suite.DEFAULT_WORLD, args,
                user_environ(), timeout,
                lambda jobs, unit: guard.execute(jobs, suite.DEFAULT_WORLD, unit), started,
                show_all=options.all, not_copied=skipped)
            result = result._replace(world="cp%d" % native.code_page,
                                     environment=native.describe(native.differences(planned)),
                                     variables={})
        finally:
            copies.remove_all(folders)
    return report.report(result, options)
