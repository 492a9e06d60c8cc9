"""The shared corpus through decide() in-process: every expectation that holds for the
real interpreters (tests/test_ground_truth.py) must hold for the engine."""
import pytest

import corpus
import utf8env
from utf8env._engine import profiles
from support import groundtruth

# The fast tier (`python3 -m pytest -m fast`): pure, no real interpreters, worlds or daemons.
pytestmark = pytest.mark.fast


def _params():
    for case in corpus.cases():
        for version in profiles.VERSIONS:
            if corpus.version_in(version, case.versions):
                yield pytest.param(case, version, id="%s@%s" % (case.name, version))


@pytest.mark.parametrize("case,version", list(_params()))
def test_engine_meets_corpus(case, version):
    facts = utf8env.LocaleFacts(corpus.WORLD_LOCALES[case.world], "ANSI_X3.4-1968")
    decision = utf8env.decide(utf8env.Inputs(environ=dict(case.env), args=tuple(case.options),
                                             version=version, locales=facts))
    observed = groundtruth.predicted(decision)
    assert groundtruth.differences(case.expect, observed,
                                   complete_stderr=decision.stderr_complete) == []


def test_every_row_of_the_version_tables_is_checked(monkeypatch):
    """A row of corpus.STARTED or corpus.FATAL that no case uses would be data the
    ground truth never checks against the real interpreters."""
    used = set()
    lookup = corpus.at

    def at(table, version):
        used.update((id(table), spec) for spec in table if corpus.version_in(version, spec))
        return lookup(table, version)

    monkeypatch.setattr(corpus, "at", at)
    corpus.cases()
    rows = {(id(table), spec): (key, spec)
            for tables in (corpus.STARTED, corpus.FATAL) for key, table in tables.items()
            for spec in table}
    assert sorted(rows[row] for row in set(rows) - used) == []
