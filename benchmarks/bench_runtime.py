"""Benchmark of utf8env.enable(), measured side by side in one run (never a timed test).

For each real interpreter and two environments, in N fresh processes each:
- "first enable()": the one call a program makes (goal on 3.11: under 1 ms when nothing
  or little changes);
- "again": enable() when it has already been applied (nothing changes), median of 200;
- "no-op call": a Python function call doing nothing, median of 200, in the same process.
Environments: "utf-8" (LC_ALL=C.UTF-8 PYTHONUTF8=1 on 3.7+: nothing to change) and
"legacy" (LC_ALL=C PYTHONUTF8=0 PYTHONCOERCECLOCALE=0: stdio, open() and
getpreferredencoding() all change; includes importing the locale module).

Run: python benchmarks/bench_runtime.py [--runs N] [--versions 3.6,3.11]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SRC = os.path.join(ROOT, "src")
sys.path.insert(0, os.path.join(ROOT, "tests"))

from utf8env import _discovery as interpreters  # noqa: E402

CHILD = r'''
import json, os, sys, time
from utf8env import _runtime as runtime
clock = time.perf_counter
def noop():
    pass
start = clock(); report = runtime.enable(); first = clock() - start
again, calls = [], []
for _ in range(200):
    start = clock(); runtime.enable(); again.append(clock() - start)
    start = clock(); noop(); calls.append(clock() - start)
again.sort(); calls.sort()
os.write(1, json.dumps({"first": first, "again": again[100], "noop": calls[100],
                        "changed": sorted(report["changed"])}).encode())
'''
ENVIRONMENTS = {
    "utf-8": {"LC_ALL": "C.UTF-8", "PYTHONUTF8": "1"},
    "legacy": {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
}


def measure(interp, env, runs):
    samples = []
    for _ in range(runs):
        out = subprocess.run(interp.argv + ["-c", CHILD], env=dict(env, PYTHONPATH=SRC),
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, check=True).stdout
        samples.append(json.loads(out.decode("ascii")))
    return {key: statistics.median(s[key] for s in samples) for key in ("first", "again", "noop")}, \
        samples[0]["changed"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="fresh processes per cell")
    parser.add_argument("--versions", default="", help="comma-separated X.Y (default: all 3.6-3.13)")
    options = parser.parse_args(argv)
    wanted = set(filter(None, options.versions.split(",")))
    print("%-6s %-7s %14s %12s %12s %10s  %s" % ("python", "env", "first enable()", "again",
                                                  "no-op call", "first/noop", "changed"))
    for interp in interpreters.interpreters():
        if interp.root != "/" or (wanted and interp.version not in wanted):
            continue
        for name, env in ENVIRONMENTS.items():
            times, changed = measure(interp, env, options.runs)
            print("%-6s %-7s %11.1f us %9.1f us %9.2f us %10.0f  %s" % (
                interp.version, name, times["first"] * 1e6, times["again"] * 1e6,
                times["noop"] * 1e6, times["first"] / times["noop"], ",".join(changed) or "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
