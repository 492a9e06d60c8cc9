"""The pytest plugin's overhead on a run of the sample project (tests/sample_project):
the plugin off (installed, not asked) against on (`--utf8env`), and off against not
loaded at all (`-p no:utf8env.readiness.plugin`), measured side by side in one run
(alternating, best of N). Goal: on / off <= 1.1.

    python3 benchmarks/bench_plugin.py [ROUNDS]
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(os.path.dirname(HERE), "tests", "sample_project")


def timed(argv, cwd, env):
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main(rounds=7):
    work = tempfile.mkdtemp(prefix="utf8env-bench-plugin-")
    try:
        project = os.path.join(work, "p")
        shutil.copytree(SAMPLE, project)
        env = dict(os.environ, LANG="C.UTF-8")
        base = [sys.executable, "-X", "warn_default_encoding", "-m", "pytest", "-q",
                "-p", "no:cacheprovider", "--basetemp", os.path.join(work, "t")]
        variants = {"not loaded": base + ["-p", "no:utf8env.readiness.plugin"], "off": base,
                    "on": base + ["--utf8env", "--utf8env-json", os.path.join(work, "r.json")]}
        best = {k: float("inf") for k in variants}
        for _ in range(rounds):
            for name, argv in variants.items():
                best[name] = min(best[name], timed(argv, project, env))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for name, seconds in best.items():
        print("%-10s %.3f s (best of %d)" % (name, seconds, rounds))
    print("off / not loaded: %.3fx" % (best["off"] / best["not loaded"]))
    print("on / off:         %.3fx  (goal <= 1.1)" % (best["on"] / best["off"]))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
