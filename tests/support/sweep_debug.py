"""Developer tool: run the ground-truth sweep of some worlds once, keep the real
observations in a pickle (in $XDG_CACHE_HOME/utf8env, else ~/.cache/utf8env), and list
where decide() disagrees, grouped by field, without rerunning the interpreters. Not used
by the test suite (which never caches results).

    python tests/support/sweep_debug.py run installed latin1     # run and save
    python tests/support/sweep_debug.py diff installed           # compare again
"""
import collections
import os
import pickle
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "..", "src"), os.path.join(HERE, "..")]

import test_ground_truth  # noqa: E402
from support import groundtruth  # noqa: E402


def store(world):
    """Where the observations of `world` are kept: the user's cache, not a fixed name in
    the shared temporary folder."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "utf8env", "sweep-%s.pickle" % world)


def main(command, worlds):
    for world in worlds:
        if command == "run":
            data = test_ground_truth.world_runs.__wrapped__(world)
            os.makedirs(os.path.dirname(store(world)), exist_ok=True)
            with open(store(world), "wb") as f:
                pickle.dump(data, f)
        with open(store(world), "rb") as f:
            cases, facts, observed = pickle.load(f)
        report(world, cases, facts, observed)


def report(world, cases, facts, observed):
    groups = collections.defaultdict(list)
    total = 0
    for (version, index), seen in sorted(observed.items()):
        env, options = cases[index]
        decision = groundtruth.decide_for(test_ground_truth.interpreter(version), facts, env, options)
        diff = groundtruth.differences(groundtruth.predicted(decision), seen,
                                       complete_stderr=decision.stderr_complete)
        total += 1
        for field, want, got in diff:
            groups[(field, version)].append((env, options, want, got))
    print("== %s: %d runs" % (world, total))
    for (field, version), items in sorted(groups.items()):
        print("-- %s @ %s: %d differ" % (field, version, len(items)))
        for env, options, want, got in items[:4]:
            print("   %s %s predicted=%r real=%r" % (env, options, want, got))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
