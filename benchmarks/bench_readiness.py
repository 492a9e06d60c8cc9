"""`utf8env readiness`'s overhead: its whole wall time against the two plain pytest runs it
stands for, side by side in one run of this script (never in a test). For each project
(the sample, tests/sample_project, and the real third-party suite tests/setup.sh caches,
/var/cache/utf8env/thirdparty/), with the same interpreter and the same copy of the
project:

    plain     `PYTHON -X utf8=0 -m pytest ARGS` and `-X utf8=1`, each in a copy of its own,
              both at once (as readiness runs them: one per core), in the same locale world
              (utf8env's world runner, the world readiness uses), nothing else
    first     readiness' two first runs alone, what it stands for: a fresh process that
              starts as `utf8env readiness` does (its Python, pytest asked for, the world,
              the copies), runs both supervised runs with readiness' plugins and reads
              them back into the report (no reruns, no trials, no untested scan)
    readiness `utf8env readiness --python PYTHON --format json -- pytest ARGS`, start-up,
              world, copies, reruns, trials of the fixes and report included

Goal: readiness <= 1.10 x plain + 1 s. A project with tests that change (the sample) has
more to run by design: each changed test again in both modes, and the two fixes of its
call sites tried in both modes (4 runs, 2 of them the reruns; the 2 others only for the
changes the reruns confirm), after the first two runs: 3 rounds of runs on 2 cores where
plain has 1. Both figures are printed:
the first runs against plain (the goal), and the whole against plain; then from
readiness' JSON its runs (first two, reruns, trials, how many ran after the first two)
and each first run's own seconds against the plain run of its mode. With --why, where
the time of one run goes: the plain run again with each thing readiness adds to its
command line, one at a time, then readiness' own job (its plugins, supervised: the
supervisor's cost) (the runs alone, sequentially, so nothing else competes; each the
fastest of --rounds).

    python3 benchmarks/bench_readiness.py [--python PATH] [--why] [--rounds N]
                                          [sample | thirdparty]...
                                          [--project DIR [-- PYTEST_ARGS...]]

PATH: a Python with pytest of its own (default: pyenv's 3.11, which tests/setup.sh gives
pytest); the third-party suite is unpacked into a temporary folder, its tests run as
tests/test_readiness_thirdparty.py runs them. --project DIR: a project folder of your
own (with PATH: its venv's Python), copied into a temporary folder (the original is never
run in), its suite run with the arguments after `--` (none: pytest's own default); a
project whose tests change (Babel 2.16.0 with `-- tests`: one) has the whole's goal
of issue 31 too: readiness <= 1.3 x plain + 1 s."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "src"))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from utf8env import _worlds as worlds  # noqa: E402
from utf8env._own_command import own_command  # noqa: E402
from utf8env.readiness import _suite as suite, _targets as targets  # noqa: E402

WORLD = "latin1"
GOAL_RATIO, GOAL_SECONDS = 1.10, 1.0
# The whole run's goal where tests change: the reruns and trials of the fixes included.
CHANGED_RATIO, CHANGED_SECONDS = 1.3, 1.0


def _project(name, folder):
    """(project folder, pytest args, extra environment) of the project `name`, unpacked
    or copied under `folder`; `name` a (folder, pytest args) of --project."""
    if isinstance(name, tuple):
        source, args = name
        path = os.path.join(folder, os.path.basename(os.path.normpath(source)))
        shutil.copytree(source, path, symlinks=True,
                        ignore=shutil.ignore_patterns(".pytest_cache", "__pycache__"))
        return path, list(args), {}
    if name == "sample":
        path = os.path.join(folder, "sample")
        shutil.copytree(os.path.join(ROOT, "tests", "sample_project"), path)
        return path, ["-q"], {}
    import test_readiness_thirdparty as thirdparty
    if not os.path.exists(thirdparty.SDIST):
        sys.exit("%s is missing: bash tests/setup.sh" % thirdparty.SDIST)
    return thirdparty.unpack(folder), list(thirdparty.ARGS), {}


def _plain_jobs(python, project, folder, args, extra_options=(), modes=("0", "1")):
    """One plain pytest run per mode, each in a copy of `project` under `folder`."""
    es = suite.env_set(WORLD)
    env = targets.base_environ(os.environ)
    env.update(es.variables)
    jobs = []
    for utf8 in modes:
        work = os.path.join(folder, "plain-%s-%d" % (utf8, len(os.listdir(folder))))
        shutil.copytree(project, work, symlinks=True)
        # A TMPDIR of its own, as readiness gives each run: what the suite leaves there
        # (Babel's tests leave a .dat file a run) goes with `folder`, not to /tmp.
        tmpdir = work + "-tmp"
        os.mkdir(tmpdir, 0o700)
        jobs.append(worlds.Job(argv=[python] + list(extra_options) + [
            "-X", "utf8=" + utf8, "-m", "pytest"] + list(args), env=dict(env, TMPDIR=tmpdir),
            timeout=900, cwd=work))
    return es, jobs


def plain(python, project, folder, args, workers=2, extra_options=(), extra_args=(),
          modes=("0", "1")):
    """(wall seconds, [each run's own seconds], [exit statuses]) of the plain runs."""
    es, jobs = _plain_jobs(python, project, folder, list(extra_args) + list(args),
                           extra_options, modes)
    started = time.perf_counter()
    [runs] = worlds.run_batches([(es.world, jobs)], ["/"], workers=workers)
    wall = time.perf_counter() - started
    return wall, [r.seconds for r in runs], [r.returncode for r in runs]


def readiness(python, project, args):
    """(wall seconds, its JSON) of one readiness run on `project`."""
    started = time.perf_counter()
    proc = subprocess.run(own_command() + ["readiness", "--python", python, "--world", WORLD,
                                           "--format", "json", "--"] + ["pytest"] + list(args),
                          cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - started
    if not proc.stdout:
        sys.exit(proc.stderr.decode("utf-8", "replace").strip())
    return wall, json.loads(proc.stdout.decode("utf-8"))


# readiness' _cli._run up to its first runs' report, in a process of its own.
_FIRST = r"""
import os, sys, time
sys.path.insert(0, sys.argv[1])
from utf8env.readiness import _compare as compare, _formats as formats
from utf8env.readiness import _suite as suite
from utf8env.readiness._guard import checked_pythons
python, world, args = sys.argv[2], sys.argv[3], sys.argv[4:]
pythons = checked_pythons([python], dict(os.environ))
assert not suite.world_problem(world, pythons)
started = time.monotonic()
planned, folders = suite.plan(os.getcwd(), pythons, world, args, dict(os.environ), 900, [])
try:
    runs, workers = suite.execute(planned, world)
    result = compare.compare(args, world, planned, runs, workers, time.monotonic() - started)
finally:
    for folder in folders:
        folder.remove()
sys.stdout.write(formats.render(result, "json"))
"""


def first_runs(project, python, args):
    """(wall seconds, its JSON) of readiness' two first runs alone (_FIRST)."""
    started = time.perf_counter()
    proc = subprocess.run(own_command()[:1] + ["-I", "-S", "-c", _FIRST, os.path.join(ROOT, "src"),
                                                python, WORLD] + list(args),
                          cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - started
    if not proc.stdout:
        sys.exit(proc.stderr.decode("utf-8", "replace").strip())
    return wall, json.loads(proc.stdout.decode("utf-8"))


def _goal(wall, plain_wall, ratio=GOAL_RATIO, seconds=GOAL_SECONDS):
    goal = ratio * plain_wall + seconds
    return "%.2f s  ratio %.2fx  goal <= %.2f s: %s" % (
        wall, wall / plain_wall, goal,
        "met" if wall <= goal else "MISSED by %.2f s" % (wall - goal))


def _whole_goal(wall, plain_wall, data):
    """The whole's figure, against issue 31's goal where tests changed."""
    if not data.get("changed"):
        return _goal(wall, plain_wall)
    return _goal(wall, plain_wall, CHANGED_RATIO, CHANGED_SECONDS) + " (tests change)"


def compare(name, python, rounds):
    folder = tempfile.mkdtemp(prefix="bench-readiness-")
    walls = []
    try:
        project, args, _ = _project(name, folder)
        if isinstance(name, tuple):
            name = os.path.basename(project)[:10]
        for _ in range(rounds):
            p_wall, p_own, p_exit = plain(python, project, folder, args)
            f_wall, f_data = first_runs(project, python, args)
            r_wall, data = readiness(python, project, args)
            walls.append((p_wall, f_wall, r_wall))
            t = data["timing"]
            runs = data["runs"]
            trials = sum(len(trial.get("runs", ())) for trial in data.get("advice") or ())
            reruns = len(data.get("reruns") or ())
            after = t["jobs"] - len(runs)
            print("%-10s plain %.2f s (runs %s, exit %s)" % (
                name, p_wall, " + ".join("%.2f" % s for s in p_own),
                ",".join(str(e) for e in p_exit)))
            print("%-10s   first runs  %s  (readiness' two first runs alone: what it stands "
                  "for; own %s)" % ("", _goal(f_wall, p_wall),
                                    " + ".join("%.2f" % r["seconds"] for r in f_data["runs"])))
            print("%-10s   readiness   %s  (the whole: %s)" % (
                "", _whole_goal(r_wall, p_wall, data),
                "nothing ran after the first runs" if not after else
                "%d runs after the first two" % after))
            print("%-10s   readiness: %d runs (2 first, %d reruns, %d trial runs%s), their own "
                  "time %.2f s on %d workers, wall inside %.2f s; first runs own %s vs plain %s "
                  "(%.2fx)" % (
                      "", t["jobs"], reruns, trials,
                      ": %d of them the reruns" % (len(runs) + reruns + trials - t["jobs"])
                      if reruns and trials else "", t["cell_seconds"],
                      t["workers"], t["wall_seconds"],
                      " + ".join("%.2f" % r["seconds"] for r in runs),
                      " + ".join("%.2f" % s for s in p_own),
                      sum(r["seconds"] for r in runs) / sum(p_own)))
        if rounds > 1:
            def median(values):
                values = sorted(values)
                return values[len(values) // 2]
            p_wall = median(w[0] for w in walls)
            print("%-10s median of %d rounds: plain %.2f s; first runs %s; readiness %s" % (
                name, rounds, p_wall, _goal(median(w[1] for w in walls), p_wall),
                _whole_goal(median(w[2] for w in walls), p_wall, data)))
            # Each round's against its own plain run, measured beside it: less of this
            # machine's slow spells between the two.
            print("%-10s median of the rounds' own ratios: first runs %.2fx, readiness %.2fx" % (
                name, median(f / p for p, f, _ in walls), median(r / p for p, _, r in walls)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# What readiness adds to a plain run (suite._job), one at a time: what each costs. The
# plugins load from utf8env lent as readiness lends it (suite._lend: PYTHONPATH), an
# installed utf8env's entry point blocked (as readiness does).
_NO = ["-p", "no:" + suite.ENTRY_POINT]
_ADDED = [
    ("plain", [], []),
    ("-X warn_default_encoding", ["-X", "warn_default_encoding"], []),
    # what readiness no longer adds (its progress file holds each test's output instead):
    # for the figure of what that saves
    ("--junitxml -o junit_logging=all (not added)", [],
     ["--junitxml=junit.xml", "-o", "junit_logging=all"]),
    ("-p no:ENTRY_POINT (as readiness runs)", [], _NO),
    ("-p plugin --utf8env-json (warnings off)", [],
     _NO + ["-p", suite.PLUGIN, "--utf8env-json=record.json"]),
    ("plugin + -X warn_default_encoding", ["-X", "warn_default_encoding"],
     _NO + ["-p", suite.PLUGIN, "--utf8env-json=record.json"]),
    ("-p progress --utf8env-progress", [],
     _NO + ["-p", suite.PROGRESS, "--utf8env-progress=progress.jsonl"]),
    ("all of readiness' options", ["-X", "warn_default_encoding"],
     _NO + ["-p", suite.PLUGIN, "-p", suite.PROGRESS,
            "--utf8env-json=record.json", "--utf8env-progress=progress.jsonl"]),
]


def _readiness_job(python, project, args):
    """The own seconds and the wall of readiness' job (suite.plan's, UTF-8 mode off: its
    plugins, supervised) run alone."""
    from utf8env import _discovery as discovery
    pythons = discovery.named([python])
    planned, folders = suite.plan(project, pythons, WORLD, args, dict(os.environ), 900,
                                  modes=("today",))
    try:
        started = time.perf_counter()
        ran, _ = suite.execute(planned, WORLD, workers=1)
        wall = time.perf_counter() - started
    finally:
        for f in folders:
            f.remove()
    return ran[0].seconds, wall, ran[0].returncode


def why(name, python, rounds):
    """Each of readiness' additions to the command line, alone, in one sequential run
    with UTF-8 mode off (the fastest of `rounds`): the seconds it adds to the plain run;
    then readiness' own job (supervised)."""
    folder = tempfile.mkdtemp(prefix="bench-readiness-why-")
    holder = suite.Folder("/", "site")
    saved = os.environ.get("PYTHONPATH")
    try:
        project, args, _ = _project(name, folder)
        if isinstance(name, tuple):
            name = os.path.basename(project)[:10]
        os.environ["PYTHONPATH"] = os.pathsep.join([suite._lend(holder)] + (
            [saved] if saved else []))
        best = {}
        for _ in range(rounds):
            for label, options, extra in _ADDED:
                wall, own, exits = plain(python, project, folder, args, workers=1,
                                         extra_options=options, extra_args=extra,
                                         modes=("0",))
                if label not in best or wall < best[label][0]:
                    best[label] = (wall, own[0], exits[0])
                for d in os.listdir(folder):
                    if d.startswith("plain-"):
                        shutil.rmtree(os.path.join(folder, d), ignore_errors=True)
        if saved is None:
            os.environ.pop("PYTHONPATH")
        else:
            os.environ["PYTHONPATH"] = saved
        base = best["plain"][0]
        for label, _, _ in _ADDED:
            wall, own, code = best[label]
            print("%-10s %-52s %6.2f s  (+%.2f s, own %.2f s, exit %s)" % (
                name, label, wall, wall - base, own, code))
        jobs = [_readiness_job(python, project, args) for _ in range(rounds)]
        own, wall, code = min(jobs, key=lambda j: j[1])
        print("%-10s %-52s %6.2f s  (+%.2f s, own %.2f s, exit %s)" % (
            name, "readiness' job (suite.plan: supervised, plugins)", wall, wall - base, own,
            code))
    finally:
        holder.remove()
        shutil.rmtree(folder, ignore_errors=True)


def main(argv):
    python = os.path.expanduser("~/.pyenv/versions/3.11.7/bin/python")
    rounds, explain, names = 1, False, []
    while argv:
        word = argv.pop(0)
        if word == "--python":
            python = argv.pop(0)
        elif word == "--rounds":
            rounds = int(argv.pop(0))
        elif word == "--why":
            explain = True
        elif word == "--project":
            source = os.path.abspath(argv.pop(0))
            if not os.path.isdir(source):
                sys.exit("--project %s: not a folder" % source)
            args = []
            if argv and argv[0] == "--":
                args, argv = argv[1:], []
            names.append((source, args))
        else:
            names.append(word)
    ok, reason = worlds.available()
    if not ok:
        sys.exit(reason)
    for name in names or ["sample", "thirdparty"]:
        compare(name, python, rounds)
        if explain:
            why(name, python, rounds)


if __name__ == "__main__":
    main(sys.argv[1:])
