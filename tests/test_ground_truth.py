"""decide() against the real interpreters 3.6-3.15 in the five real locale worlds.

Two halves share one batch of runs per world: the generated sweep (tests/sweep.py),
where every field the interpreter reports must equal the prediction, and the
hand-written corpus (tests/corpus.py), whose expectations must hold for the real
interpreters as well as for decide()."""
import functools

import pytest

import corpus
import sweep
from support import groundtruth, machine
from utf8env._engine import profiles

# Every version is a test of its own: a machine without one skips that one, naming it.
VERSIONS = profiles.VERSIONS


@functools.lru_cache(maxsize=None)
def world_runs(world):
    """All runs of one world, made once per session: (cases, facts, {(version, i): observed})."""
    cases = sweep.cases(world)
    known = {(tuple(sorted(env.items())), options) for env, options in cases}
    for case in corpus.cases():
        key = (tuple(sorted(case.env.items())), tuple(case.options))
        if case.world == world and key not in known:
            known.add(key)
            cases.append((case.env, tuple(case.options)))
    names = set()
    for env, _ in cases:
        names.update(groundtruth.locales.candidate_names(env))
    facts = groundtruth.locale_facts(world, sorted(names))
    return cases, facts, groundtruth.run_world(world, cases)


def interpreter(version):
    return machine.interpreter(version)


@pytest.fixture(autouse=True)
def _needs_worlds():
    machine.worlds()


@pytest.mark.parametrize("world", corpus.WORLDS)
def test_every_interpreter_reports_every_case_of_the_world(world):
    # Runs the world's whole batch (every case on every interpreter, in parallel), so that
    # --durations charges it here and not to whichever comparison happens to come first.
    # Each run either reports its configuration or says on stderr why it did not start.
    found = machine.interpreters()
    if not found:
        pytest.skip(machine.missing(VERSIONS))
    cases, _, observed = world_runs(world)
    silent = [(version, cases[index]) for (version, index), seen in sorted(observed.items())
              if "utf8_mode" not in seen and not seen["stderr_messages"]]
    assert silent == [] and len(observed) == len(cases) * len(found)


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("world", corpus.WORLDS)
def test_sweep_agrees_with_real_interpreter(world, version):
    interp = interpreter(version)
    cases, facts, observed = world_runs(world)
    failures = []
    for index, (env, options) in enumerate(cases):
        decision = groundtruth.decide_for(interp, facts, env, options)
        expected = groundtruth.predicted(decision)
        diff = groundtruth.differences(expected, observed[(version, index)],
                                       complete_stderr=decision.stderr_complete)
        if diff:
            failures.append("%s %s: %s" % (env, options, diff))
    assert not failures, "%d of %d cases differ:\n%s" % (
        len(failures), len(cases), "\n".join(failures[:25]))


def _corpus_params():
    for case in corpus.cases():
        for version in VERSIONS:
            if corpus.version_in(version, case.versions):
                yield pytest.param(case, version, id="%s@%s" % (case.name, version))


@pytest.mark.parametrize("case,version", list(_corpus_params()))
def test_corpus_holds_for_real_interpreter(case, version):
    interpreter(version)
    cases, _, observed = world_runs(case.world)
    index = cases.index((case.env, tuple(case.options)))
    assert groundtruth.differences(case.expect, observed[(version, index)]) == []
