"""Benchmark of the launcher, measured side by side in one run (never a timed test).

`utf8env run -- /bin/true` against the minimal Python exec wrapper
`python3 -I -S -c 'import os; os.execv("/bin/true", ["true"])'` (goal: at most 1.3x),
and, to show where the time goes, against the same wrapper started the way any console
script is started (with site, so with every .pth file of the interpreter).
Commands alternate, N runs each; medians.

Run: python benchmarks/bench_launch.py [--runs N]
"""
import argparse
import os
import statistics
import subprocess
import sys
import sysconfig
import time


def wall(argv, env):
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    script = os.path.join(sysconfig.get_path("scripts"), "utf8env")
    launcher = [script] if os.access(script, os.X_OK) else [sys.executable, "-m", "utf8env"]
    wrapper = 'import os; os.execv("/bin/true", ["true"])'
    commands = {
        "utf8env run -- /bin/true": launcher + ["run", "--", "/bin/true"],
        "python3 -I -S -c execv": [sys.executable, "-I", "-S", "-c", wrapper],
        "python3 -c execv (with site)": [sys.executable, "-c", wrapper],
    }
    env = {"PATH": os.environ.get("PATH", ""), "LANG": "C"}
    times = {name: [] for name in commands}
    for _ in range(3):
        for argv in commands.values():
            wall(argv, env)
    for _ in range(args.runs):
        for name, argv in commands.items():
            times[name].append(wall(argv, env))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, value in medians.items():
        print("%-30s median %.1f ms" % (name, value * 1000))
    ours = medians["utf8env run -- /bin/true"]
    print("ratio run / (python3 -I -S exec wrapper): %.2f  (goal <= 1.3)"
          % (ours / medians["python3 -I -S -c execv"]))
    print("ratio run / (python3 exec wrapper with site): %.2f"
          % (ours / medians["python3 -c execv (with site)"]))


if __name__ == "__main__":
    main()
