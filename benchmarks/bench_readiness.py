"""`utf8env readiness` wall time against the ideal: the sum of its two runs' own times
divided by the cores used (both from its JSON), on the sample project
(tests/sample_project) with the chosen Python (it needs pytest of its own: a venv with
pytest; default: the Python 3.15 readiness finds), N times. Goal: wall <= 1.25x the ideal.
Any user: the Latin-1 world is LOCPATH and a folder of the user's cache.

    python3 benchmarks/bench_readiness.py [--python PATH] [ROUNDS]
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))
SAMPLE = os.path.join(os.path.dirname(HERE), "tests", "sample_project")

from utf8env._own_command import own_command  # noqa: E402


def main(argv):
    python = []
    if argv[:1] == ["--python"]:
        python, argv = ["--python", argv[1]], argv[2:]
    rounds = int(argv[0]) if argv else 3
    for _ in range(rounds):
        started = time.perf_counter()
        proc = subprocess.run(own_command() + ["readiness"] + python + ["--format", "json", "--",
                                                                        "pytest", "-q"],
                              cwd=SAMPLE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        outside = time.perf_counter() - started
        if not proc.stdout:
            sys.exit(proc.stderr.decode("utf-8", "replace").strip())
        t = json.loads(proc.stdout.decode("utf-8"))["timing"]
        ideal = t["cell_seconds"] / t["workers"]
        print("runs %.2f s + ... = %.2f s on %d workers: ideal %.2f s; wall %.2f s inside "
              "(%.3fx), %.2f s with start-up (%.3fx)  (goal <= 1.25x)" % (
                  t["cell_seconds"] / t["jobs"], t["cell_seconds"], t["workers"], ideal,
                  t["wall_seconds"], t["wall_seconds"] / ideal, outside, outside / ideal))


if __name__ == "__main__":
    main(sys.argv[1:])
