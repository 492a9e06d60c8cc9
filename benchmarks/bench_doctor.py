"""`utf8env doctor` against `python3 -c pass`, measured side by side in one run.

Goal (issue 10): with the interpreters' identities cached, doctor within 2x a bare
`python3 -c pass`; cold (no cache), within 2x plus one `python -c` per interpreter found.
Each command runs ROUNDS times, interleaved, and the medians are compared, so that a
busy machine slows all of them alike. The environment is this one (PATH, PYENV_ROOT:
every interpreter pyenv and the system have), in a throw-away HOME.

    python3 benchmarks/bench_doctor.py
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
from utf8env._own_command import own_command  # noqa: E402

ROUNDS = 15


def timed(argv, env):
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main():
    home = tempfile.mkdtemp(prefix="bench-doctor-")
    try:
        env = dict(os.environ, HOME=home, XDG_CACHE_HOME=home + "/.cache")
        doctor = own_command() + ["doctor"]
        found = json.loads(subprocess.run(doctor + ["--json"], env=env, stdout=subprocess.PIPE).stdout)
        pythons = [p["path"] for p in found["pythons"] if p["identified"].startswith("asked")]
        bare, warm, cold, asks = [], [], [], []
        for _ in range(ROUNDS):
            bare.append(timed([sys.executable, "-c", "pass"], env))
            warm.append(timed(doctor, env))
            shutil.rmtree(home + "/.cache", ignore_errors=True)
            cold.append(timed(doctor, env))
            asks.append(sum(timed([p, "-E", "-S", "-c", "pass"], env) for p in pythons))
        b, w, c, a = (statistics.median(x) for x in (bare, warm, cold, asks))
        print("interpreters identified by running them: %d" % len(pythons))
        print("python3 -c pass            %6.1f ms" % (b * 1000))
        print("utf8env doctor (cached)    %6.1f ms   %.2fx python3 -c pass (goal 2x)" % (w * 1000, w / b))
        print("utf8env doctor (cold)      %6.1f ms   %.2fx of 2x python3 -c pass + %d x python -c "
              "(%.1f ms; goal 1x)" % (c * 1000, c / (2 * b + a), len(pythons), a * 1000))
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
