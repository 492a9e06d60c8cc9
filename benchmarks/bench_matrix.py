"""Benchmark of the matrix scheduling (never a timed test).

Runs the whole PEP reproduction (`utf8env matrix` with no command) and compares its wall
time with the ideal: the sum of its jobs' own wall times divided by the number of workers
(the cores). Goal: ratio at most 1.25 (the scheduling wastes almost nothing). Also shows
the same jobs run world after world (one batch at a time, each using every core), to
show what sharing one job limit across the worlds saves; and, as root, the worlds made in
root's mount namespace instead of the least privileged way (LOCPATH, a user namespace):
what making them without root costs, side by side in the same run.

Run: python benchmarks/bench_matrix.py [--runs N] [--workers N]
(with UTF8ENV_DEBIAN_ROOT=DIR, the test suite's Debian chroot, its 3.14 and 3.15 too)
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from utf8env import _worlds as worlds  # noqa: E402
from utf8env.matrix import _pep as pep  # noqa: E402


def one(workers, via=None):
    start = time.perf_counter()
    result = pep.run_pep(workers=workers, via=via)
    wall = time.perf_counter() - start
    return wall, result.timing.cell_seconds, result.timing.jobs


def world_by_world(workers):
    """The same scheduling without the shared limit: each world's batch alone."""
    original = worlds.run_batches

    def sequential(batches, roots, workers=None, progress=None, via=None, cache=None):
        return [original([b], roots, workers=workers, via=via, cache=cache)[0] for b in batches]
    worlds.run_batches = sequential
    try:
        return one(workers)
    finally:
        worlds.run_batches = original


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    ok, why = worlds.available()
    if not ok:
        sys.exit("bench_matrix: " + why)
    mount = worlds.available(via=worlds.MOUNT)[0]
    one(args.workers)   # warm-up: world folders, interpreter caches
    ratios, walls, seq, rooted = [], [], [], []
    for _ in range(args.runs):
        wall, cells, jobs = one(args.workers)
        ratios.append(wall / (cells / args.workers))
        walls.append(wall)
        w2, c2, _ = world_by_world(args.workers)
        seq.append(w2 / (c2 / args.workers))
        if mount:
            rooted.append(wall / one(args.workers, worlds.MOUNT)[0])
    print("PEP reproduction: %d jobs on %d workers, %d runs" % (jobs, args.workers, args.runs))
    print("  wall time (median)                      %.2f s" % statistics.median(walls))
    print("  wall / (sum of jobs' own times / cores)  %.3f  (goal <= 1.25)" % statistics.median(ratios))
    print("  same, world after world                  %.3f" % statistics.median(seq))
    if rooted:
        print("  wall without root / wall in root's mount namespace  %.3f" % statistics.median(rooted))


if __name__ == "__main__":
    main()
