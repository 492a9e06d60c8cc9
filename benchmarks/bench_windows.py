"""`utf8env readiness --windows`: its runs on real Windows CPython under Wine against the same
suite's runs on Linux, side by side in one run of this script (never in a test). For each
project (the sample, tests/sample_project; mistune 3.4.0's suite, which tests/setup.sh
caches in /var/cache/utf8env/thirdparty/), with CPython 3.13 on both sides:

    linux     `utf8env readiness --python VENV/bin/python --world cp1252 --format json`:
              a venv of pyenv's 3.13 with pytest (tests/constraints.txt's versions), in
              glibc's stand-in for code page 1252
    windows   `utf8env readiness --windows 3.13 --code-page 1252 --format json` (the
              pinned wheels of tests/windows-requirements.txt): Windows CPython 3.13.2
              under Wine
    wine      Wine's start-up: `wine64 python.exe -c pass` in a private prefix whose server
              runs (as each run starts; on the prefix's CPU, as readiness's runs), less
              `python3.13 -c pass` on Linux; and the
              invocation's own (the prefix copied, its server and services started, the
              code page probed), measured by readiness itself
    plain     `python -X utf8=0 -m pytest ARGS` alone, on Linux and under Wine (the same
              wheels, the project's src/ first, the prefix's CPU and no mount manager, as
              readiness's runs): Wine's own price for the suite, which readiness cannot
              change

Goal: each Windows run <= 1.5 x the Linux run of its mode + Wine's start-up, and the
Windows invocation <= 1.5 x the Linux one + Wine's start-up of its runs and of the
invocation. Each figure is the fastest of --rounds (the machine is shared).

    python3 benchmarks/bench_windows.py [--rounds N] [sample | thirdparty]...
"""
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

from utf8env._own_command import own_command  # noqa: E402
from utf8env import _discovery as discovery  # noqa: E402
from utf8env.readiness import _windows as windows  # noqa: E402
from utf8env._windows import wine  # noqa: E402

GOAL_RATIO = 1.5
REQUIREMENTS = os.path.join(ROOT, "tests", "windows-requirements.txt")
CONSTRAINTS = os.path.join(ROOT, "tests", "constraints.txt")
TEST_CACHE = "/var/cache/utf8env/windows"


def _environ():
    env = dict(os.environ)
    if "UTF8ENV_WINDOWS_CACHE" not in env and os.path.isdir(TEST_CACHE):
        env["UTF8ENV_WINDOWS_CACHE"] = TEST_CACHE
    return env


def _project(name, folder):
    if name == "sample":
        path = os.path.join(folder, "sample")
        shutil.copytree(os.path.join(ROOT, "tests", "sample_project"), path)
        return path, ["-q"]
    import test_readiness_thirdparty as thirdparty
    if not os.path.exists(thirdparty.SDIST):
        sys.exit("%s is missing: bash tests/setup.sh" % thirdparty.SDIST)
    return thirdparty.unpack(folder), list(thirdparty.ARGS)


def linux_python(folder):
    """A venv of pyenv's 3.13 with pytest."""
    found = [i for i in discovery.interpreters() if i.version == "3.13" and i.root == "/"]
    if not found:
        sys.exit("no CPython 3.13 here (pyenv install 3.13.0)")
    venv = os.path.join(folder, "venv313")
    subprocess.run(list(found[0].argv) + ["-m", "venv", venv], check=True)
    subprocess.run([venv + "/bin/python", "-m", "pip", "install", "--quiet",
                    "--disable-pip-version-check", "-c", CONSTRAINTS, "pytest"], check=True)
    return venv + "/bin/python"


def readiness(args, project, pytest_args):
    started = time.perf_counter()
    proc = subprocess.run(own_command() + ["readiness"] + args + ["--format", "json", "--",
                                                                   "pytest"] + pytest_args,
                          cwd=project, env=_environ(), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    wall = time.perf_counter() - started
    if not proc.stdout:
        sys.exit(proc.stderr.decode("utf-8", "replace").strip())
    return wall, json.loads(proc.stdout.decode("utf-8"))


def wine_start(python, rounds):
    """(Wine's start-up per run, the invocation's own: prefix, server, services, probe)."""
    environ = _environ()
    w = windows.Windows("3.13", 1252, REQUIREMENTS, environ=environ, say=None)
    started = time.perf_counter()
    w.open()
    try:
        invocation = time.perf_counter() - started
        env = dict(w.run_environ(), **w.prefix.environ())
        under, plain = [], []
        for _ in range(rounds * 3):
            t = time.perf_counter()
            wine.communicate(w.prefix.pinned([w.wine.loader, w.exe, "-c", "pass"]), env,
                             w.prefix.path, 60)
            under.append(time.perf_counter() - t)
            t = time.perf_counter()
            subprocess.run([python, "-c", "pass"], check=True)
            plain.append(time.perf_counter() - t)
    finally:
        w.close()
    return max(0.0, min(under) - min(plain)), invocation, min(under)


def plain(python, project, args, rounds):
    """(Linux seconds, Wine seconds) of one plain pytest run each, the best of `rounds`;
    and, run once each, Wine's without what readiness does to its prefixes: {"unpinned":
    on any CPU, "mount manager": with Wine's mount manager}."""
    w = windows.Windows("3.13", 1252, REQUIREMENTS, environ=_environ(), say=None)
    w.open()
    kept = None
    try:
        env = dict(w.run_environ(), **w.prefix.environ())
        env["PYTHONPATH"] = ";".join(
            ([wine.windows_path(os.path.join(project, "src"))] if windows.has_src(project)
             else []) + [wine.windows_path(w.site)])
        linux_env = dict(w.run_environ())
        if windows.has_src(project):
            linux_env["PYTHONPATH"] = os.path.join(project, "src")
        on_linux, under = [], []
        for _ in range(rounds):
            t = time.perf_counter()
            subprocess.run([python, "-X", "utf8=0", "-m", "pytest"] + args, cwd=project,
                           env=linux_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            on_linux.append(time.perf_counter() - t)
            t = time.perf_counter()
            wine.communicate(w.prefix.pinned([w.wine.loader, w.exe, "-X", "utf8=0", "-m",
                                              "pytest"] + args), env, project, 900)
            under.append(time.perf_counter() - t)
        argv = [w.wine.loader, w.exe, "-X", "utf8=0", "-m", "pytest"] + args
        without = {}
        t = time.perf_counter()
        wine.communicate(argv, env, project, 900)
        without["unpinned"] = time.perf_counter() - t
        kept = wine.Prefix(w.wine, w.cache, wine.ensure_prefix(w.wine, w.cache, w.exe), 1252,
                           None, cpu=w.prefix.cpu)
        kept.open(w.exe, "pass")
        kept_env = dict(env, **kept.environ())
        t = time.perf_counter()
        wine.communicate(kept.pinned(argv), kept_env, project, 900)
        without["mount manager"] = time.perf_counter() - t
    finally:
        if kept is not None:
            kept.close()
        w.close()
    return min(on_linux), min(under), without


def _best(rows):
    """The round with the smallest wall time."""
    return min(rows, key=lambda r: r[0])


def compare(name, python, rounds, start, invocation):
    folder = tempfile.mkdtemp(prefix="bench-windows-")
    try:
        project, args = _project(name, folder)
        p_linux, p_wine, without = plain(python, project, args, rounds)
        linux = _best([readiness(["--python", python, "--world", "cp1252"], project, args)
                       for _ in range(rounds)])
        win = _best([readiness(["--windows", "3.13", "--code-page", "1252",
                                "--windows-requirements", REQUIREMENTS], project, args)
                     for _ in range(rounds)])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("%s (%d tests; Linux: %s; Windows: %s)" % (
        name, linux[1]["tests"], "ready" if linux[1]["ready"] else "not ready",
        "ready" if win[1]["ready"] else "not ready"))
    print("  plain pytest  linux %6.2f s  wine %6.2f s  ratio %.2fx (Wine's own price)" % (
        p_linux, p_wine, p_wine / p_linux))
    print("  plain pytest under Wine as readiness does not run it (once each): unpinned "
          "%.2f s (%.1fx pinned), with the mount manager %.2f s (%.1fx without)" % (
              without["unpinned"], without["unpinned"] / p_wine, without["mount manager"],
              without["mount manager"] / p_wine))
    for lrun, wrun in zip(linux[1]["runs"], win[1]["runs"]):
        goal = GOAL_RATIO * lrun["seconds"] + start
        print("  run %-6s linux %6.2f s  windows %6.2f s  ratio %.2fx  goal <= %.2f s "
              "(1.5 x linux + %.2f s): %s" % (
                  lrun["mode"], lrun["seconds"], wrun["seconds"],
                  wrun["seconds"] / lrun["seconds"], goal, start,
                  "met" if wrun["seconds"] <= goal else "MISSED by %.2f s" % (
                      wrun["seconds"] - goal)))
    runs = win[1]["timing"]["jobs"]
    goal = GOAL_RATIO * linux[0] + invocation + start * runs
    print("  invocation linux %6.2f s  windows %6.2f s  ratio %.2fx  goal <= %.2f s (1.5 x "
          "linux + %.2f s invocation + %d runs x %.2f s): %s" % (
              linux[0], win[0], win[0] / linux[0], goal, invocation, runs, start,
              "met" if win[0] <= goal else "MISSED by %.2f s" % (win[0] - goal)))
    print("  (runs: linux %d, windows %d; their own time: linux %.2f s, windows %.2f s)" % (
        linux[1]["timing"]["jobs"], runs, linux[1]["timing"]["cell_seconds"],
        win[1]["timing"]["cell_seconds"]))


def main(argv):
    rounds = 1
    if "--rounds" in argv:
        at = argv.index("--rounds")
        rounds = int(argv[at + 1])
        del argv[at:at + 2]
    names = argv or ["sample", "thirdparty"]
    folder = tempfile.mkdtemp(prefix="bench-windows-venv-")
    try:
        python = linux_python(folder)
        start, invocation, under = wine_start(python, rounds)
        print("Wine's start-up: %.2f s a run (wine64 python.exe -c pass %.2f s, less Linux's "
              "python -c pass), %.2f s an invocation (prefix, server, services, probe)" % (
                  start, under, invocation))
        for name in names:
            compare(name, python, rounds, start, invocation)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
