"""`utf8env readiness`'s overhead: its whole wall time against the two plain pytest runs it
stands for, side by side in one run of this script (never in a test). For each project
(the sample, tests/sample_project, and the real third-party suite tests/setup.sh caches,
/var/cache/utf8env/thirdparty/), with the same interpreter and the same copy of the
project:

    plain     `PYTHON -X utf8=0 -m pytest ARGS` and `-X utf8=1`, each in a copy of its own,
              both at once (as readiness runs them: one per core), in the same locale world
              (utf8env's world runner, the world readiness uses), nothing else
    readiness `utf8env readiness --python PYTHON --format json -- pytest ARGS`, start-up,
              world, copies, reruns, trials of the fixes and report included

Goal: readiness <= 1.10 x plain + 1 s. Printed: both walls, the ratio, the goal, and from
readiness' JSON its runs (first two, reruns, trials) and each first run's own seconds
against the plain run of its mode. With --why, where the time of one run goes: the plain
run again with each thing readiness adds to its command line, one at a time (the runs
alone, sequentially, so nothing else competes).

    python3 benchmarks/bench_readiness.py [--python PATH] [--why] [--rounds N]
                                          [sample | thirdparty]...

PATH: a Python with pytest of its own (default: pyenv's 3.11, which tests/setup.sh gives
pytest); the third-party suite is unpacked into a temporary folder, its tests run as
tests/test_readiness_thirdparty.py runs them."""
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
from utf8env.readiness import _suite as suite  # noqa: E402

WORLD = "latin1"
GOAL_RATIO, GOAL_SECONDS = 1.10, 1.0


def _project(name, folder):
    """(project folder, pytest args, extra environment) of the project `name`, unpacked
    or copied under `folder`."""
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
    env = suite.base_environ(os.environ)
    env.update(es.variables)
    jobs = []
    for utf8 in modes:
        work = os.path.join(folder, "plain-%s-%d" % (utf8, len(os.listdir(folder))))
        shutil.copytree(project, work, symlinks=True)
        jobs.append(worlds.Job(argv=[python] + list(extra_options) + [
            "-X", "utf8=" + utf8, "-m", "pytest"] + list(args), env=dict(env), timeout=900,
            cwd=work))
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


def compare(name, python, rounds):
    folder = tempfile.mkdtemp(prefix="bench-readiness-")
    try:
        project, args, _ = _project(name, folder)
        for _ in range(rounds):
            p_wall, p_own, p_exit = plain(python, project, folder, args)
            r_wall, data = readiness(python, project, args)
            t = data["timing"]
            runs = data["runs"]
            trials = sum(len(trial.get("runs", ())) for trial in data.get("advice") or ())
            goal = GOAL_RATIO * p_wall + GOAL_SECONDS
            print("%-10s plain %.2f s (runs %s, exit %s)  readiness %.2f s  ratio %.2fx  "
                  "goal <= %.2f s: %s" % (
                      name, p_wall, " + ".join("%.2f" % s for s in p_own),
                      ",".join(str(e) for e in p_exit), r_wall, r_wall / p_wall, goal,
                      "met" if r_wall <= goal else "MISSED by %.2f s" % (r_wall - goal)))
            print("%-10s readiness: %d runs (2 first, %d reruns, %d trial runs), their own time "
                  "%.2f s on %d workers, wall inside %.2f s; first runs own %s vs plain %s "
                  "(%.2fx)" % (
                      "", t["jobs"], len(data.get("reruns") or ()), trials, t["cell_seconds"],
                      t["workers"], t["wall_seconds"],
                      " + ".join("%.2f" % r["seconds"] for r in runs),
                      " + ".join("%.2f" % s for s in p_own),
                      sum(r["seconds"] for r in runs) / sum(p_own)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# What readiness adds to a plain run (suite._job), one at a time: what each costs.
_ADDED = [
    ("plain", [], []),
    ("-X warn_default_encoding", ["-X", "warn_default_encoding"], []),
    ("--junitxml -o junit_logging=all", [], ["--junitxml=junit.xml", "-o", "junit_logging=all"]),
    ("-p utf8env's plugin --utf8env-json (warnings off)", [],
     ["-p", "utf8env.readiness.plugin", "--utf8env-json=record.json"]),
    ("plugin + -X warn_default_encoding", ["-X", "warn_default_encoding"],
     ["-p", "utf8env.readiness.plugin", "--utf8env-json=record.json"]),
    ("-p utf8env's progress --utf8env-progress", [],
     ["-p", "utf8env.readiness._progress", "--utf8env-progress=progress.jsonl"]),
    ("all of readiness' options", ["-X", "warn_default_encoding"],
     ["-p", "utf8env.readiness.plugin", "-p", "utf8env.readiness._progress",
      "--utf8env-json=record.json", "--utf8env-progress=progress.jsonl",
      "--junitxml=junit.xml", "-o", "junit_logging=all"]),
]


def why(name, python):
    """Each of readiness' additions to the command line, alone, in one sequential run
    with UTF-8 mode off: the seconds it adds to the plain run."""
    folder = tempfile.mkdtemp(prefix="bench-readiness-why-")
    try:
        project, args, _ = _project(name, folder)
        base = None
        for label, options, extra in _ADDED:
            wall, _, exits = plain(python, project, folder, args, workers=1,
                                   extra_options=options, extra_args=extra, modes=("0",))
            base = wall if base is None else base
            print("%-10s %-52s %6.2f s  (+%.2f s, exit %s)" % (name, label, wall, wall - base,
                                                                 exits[0]))
    finally:
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
        else:
            names.append(word)
    ok, reason = worlds.available()
    if not ok:
        sys.exit(reason)
    # the utf8env package on PYTHONPATH, as readiness lends it (its plugins by module name)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(ROOT, "src")] + ([os.environ["PYTHONPATH"]] if os.environ.get(
            "PYTHONPATH") else []))
    for name in names or ["sample", "thirdparty"]:
        compare(name, python, rounds)
        if explain:
            why(name, python)


if __name__ == "__main__":
    main(sys.argv[1:])
