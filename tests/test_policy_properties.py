"""Property test: for any environment, command line, locale facts, target and switches,
decide() returns a complete Decision, never raises, and is deterministic."""
import json

import pytest

from hypothesis import given, settings, strategies as st

import utf8env
from utf8env import _errors as errors, _explain as report
from utf8env._engine import profiles

# The fast tier (`python3 -m pytest -m fast`): pure, no real interpreters, worlds or daemons.
pytestmark = pytest.mark.fast

NAMES = ["LC_ALL", "LC_CTYPE", "LANG", "LC_MESSAGES", "PYTHONUTF8", "PYTHONCOERCECLOCALE",
         "PYTHONIOENCODING", "PYTHONLEGACYWINDOWSFSENCODING", "LOCPATH", "HOME"]
VALUES = ["", "C", "POSIX", "C.UTF-8", "C.utf8", "UTF-8", "en_US.UTF-8", "en_US.ISO-8859-1",
          "zh_CN.GB18030", "xx_YY.UTF-8", "0", "1", "warn", "strict", "latin1", ":replace",
          ":", "utf-8:", "bogus_codec", "rot13", "caf\udce9", "1\x00"]
TOKENS = ["-E", "-I", "-IE", "-X", "utf8", "utf8=0", "utf8=1", "utf8=strict", "-Xutf8",
          "-c", "pass", "-m", "mod", "-", "--", "-z", "-b", "-W", "error", "script.py",
          "--help", "--bogus", "-P"]

environments = st.dictionaries(st.sampled_from(NAMES),
                               st.one_of(st.sampled_from(VALUES), st.text(max_size=8)))
command_lines = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=6)), max_size=6)
facts = st.builds(utf8env.LocaleFacts,
                  st.dictionaries(st.sampled_from(VALUES[1:10]),
                                  st.sampled_from(["UTF-8", "ISO-8859-1", "GB18030", "ANSI_X3.4-1968", ""])),
                  st.one_of(st.none(), st.sampled_from(["ANSI_X3.4-1968", "US-ASCII", ""])))
inputs = st.builds(
    utf8env.Inputs, environments, command_lines.map(tuple), st.sampled_from(profiles.VERSIONS),
    st.sampled_from(profiles.PLATFORMS), facts,
    st.one_of(st.none(), st.sampled_from(profiles.POLICIES)),
    st.one_of(st.none(), st.booleans()), st.one_of(st.none(), st.booleans()),
    st.just("python3"), st.booleans(), st.sampled_from([1252, 65001, 932]))

STARTED_FIELDS = ("filesystem", "stdin", "stdout", "stderr", "open", "preferred_encoding", "lc_ctype")


@settings(max_examples=1500, deadline=None)
@given(inputs)
def test_decide_is_total_and_deterministic(given_inputs):
    decision = utf8env.decide(given_inputs)
    assert decision == utf8env.decide(given_inputs)
    assert decision.utf8_mode in (0, 1, "strict")
    if decision.startup_error is None:
        for field in STARTED_FIELDS:
            assert getattr(decision, field) is not None, field
            assert field in decision.reasons or field == "stdin", field
        assert "utf8_mode" in decision.reasons and "coercion" in decision.reasons
        assert decision.stderr.errors == "backslashreplace"
    else:
        assert decision.startup_error.exit_code in (1, 2, 134)
        assert decision.stderr_messages
    json.dumps(report.to_json_object(decision))
    report.to_text(decision)


@pytest.mark.parametrize("given", [dict(version="2.7"), dict(policy="pep999-draft"),
                                   dict(platform="plan9")])
def test_inputs_it_cannot_model_are_usage_errors(given):
    with pytest.raises(utf8env.InvalidInput) as raised:
        utf8env.decide(utf8env.Inputs(environ={}, **given))
    # One error tree (errors.py): cli.main reports it with status 2; still a ValueError
    # for callers that caught that before.
    assert isinstance(raised.value, errors.UsageError) and isinstance(raised.value, ValueError)
    assert raised.value.exit_code == 2
