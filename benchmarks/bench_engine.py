"""Benchmarks for the engine issue, measured side by side in one run (never a timed test).

1. `utf8env explain --version 3.7 --empty-env --env LANG=C` against `python -c pass`,
   utf8env installed by pip into a new venv, run alternately, each N times; the ratio of
   the medians (goal: at most 1.5).
2. decide() decisions per second on a varied set of inputs (goal: 20,000 or more).

Run: python benchmarks/bench_engine.py [--runs N]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

from support import install  # noqa: E402


def wall(argv, env):
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def startup(runs):
    """explain from utf8env installed the way a user gets it (pip, a new venv), against
    `python -c pass` of the same interpreter."""
    with tempfile.TemporaryDirectory() as folder:
        bin_folder = install.venv_with(install.build_wheel(folder), os.path.join(folder, "venv"))
        env = {"PATH": os.environ.get("PATH", "")}
        explain = [os.path.join(bin_folder, "utf8env"), "explain", "--version", "3.7",
                   "--empty-env", "--env", "LANG=C"]
        baseline = [os.path.join(bin_folder, "python"), "-c", "pass"]
        for _ in range(3):      # warm the page cache for both
            wall(baseline, env), wall(explain, env)
        ours, theirs = [], []
        for _ in range(runs):
            theirs.append(wall(baseline, env))
            ours.append(wall(explain, env))
    a, b = statistics.median(ours), statistics.median(theirs)
    print("explain (no interpreter run): median %.1f ms" % (a * 1000))
    print("python -c pass:               median %.1f ms" % (b * 1000))
    print("ratio explain / python -c pass: %.2f  (goal <= 1.5)" % (a / b))
    return a / b


def decisions(seconds):
    sys.path.insert(0, SRC)
    import utf8env
    facts = utf8env.LocaleFacts({"C.UTF-8": "UTF-8", "C.utf8": "UTF-8",
                                 "en_US.ISO-8859-1": "ISO-8859-1"}, "ANSI_X3.4-1968")
    envs = [{}, {"LANG": "C"}, {"LC_ALL": "C", "PYTHONCOERCECLOCALE": "warn"},
            {"LANG": "en_US.ISO-8859-1", "PYTHONIOENCODING": "latin1:replace"},
            {"LC_CTYPE": "xx_YY.UTF-8", "PYTHONUTF8": "1"}]
    argss = [(), ("-X", "utf8"), ("-E", "-X", "utf8=0"), ("-I", "-c", "pass")]
    versions = ["3.6", "3.7", "3.9", "3.11", "3.13", "3.15"]
    inputs = [utf8env.Inputs(environ=e, args=a, version=v, locales=facts)
              for e in envs for a in argss for v in versions]
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for item in inputs:
            utf8env.decide(item)
        count += len(inputs)
    rate = count / (time.perf_counter() - start)
    print("decide(): %.0f decisions per second over %d distinct inputs  (goal >= 20000)"
          % (rate, len(inputs)))
    return rate


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    startup(args.runs)
    decisions(args.seconds)


if __name__ == "__main__":
    main()
