"""readiness on a Python without EncodingWarning (before 3.10): pyenv's real CPython 3.9
in a venv with the pytest a user's `pip install pytest` gives it (tests/constraints-py39.txt),
on the sample project in the Latin-1 world. Its runs record no call site, so the page says
so and attributes nothing it did not see: the changed tests are "not known" rather than
"from elsewhere: the filesystem encoding, stdio", no call is called untested, no fix is
tried there (encoding="locale" does not exist on 3.9). Full tier."""
import json
import os
import re
import subprocess

import pytest

from support import install, machine
from utf8env._own_command import own_command

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "sample_project")
CONSTRAINTS = os.path.join(HERE, "constraints-py39.txt")


@pytest.fixture(scope="module")
def python39(tmp_path_factory):
    """A venv of pyenv's 3.9 with pytest of its own."""
    venv = str(tmp_path_factory.mktemp("py39") / "venv")
    subprocess.run([machine.python("3.9"), "-m", "venv", venv], check=True)
    proc = subprocess.run([venv + "/bin/python", "-m", "pip", "install", "--quiet", "-c",
                           CONSTRAINTS, "pytest"], env=install.pip_environ(),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        pytest.skip("pip install pytest for 3.9 failed (PyPI not reachable?): %s"
                    % proc.stdout.decode(errors="replace").strip()[-300:])
    return venv + "/bin/python"


def _readiness(python, *args):
    proc = subprocess.run(own_command() + ["readiness", "--python", python] + list(args)
                          + ["--", "pytest", "-q", "-p", "no:cacheprovider"], cwd=SAMPLE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


def test_the_page_says_what_3_9_cannot_record_and_blames_nothing(python39):
    code, out, err = _readiness(python39)
    assert (code, err) == (1, "")
    # the seconds: "1.5 s" and the table's last column
    assert re.sub(r"\d+\.\d s|\d+\.\d$", "N", out, flags=re.M) == """\
utf8env readiness -- pytest -q -p no:cacheprovider
world latin1: a Latin-1 locale (LANG=en_US.ISO-8859-1)

python  run    UTF-8 mode  filesystem  locale  tests               seconds
======  =====  ==========  ==========  ======  ==================  =======
3.9     today  off         iso8859-1   -       6 passed            N
3.9     3.15   on          utf-8       -       3 passed, 3 failed  N

Tests that change on Python 3.9, where no call site is recorded (what changes them is not known):
  checks/check_legacy.py::test_names_are_shown: passed -> failed: UnicodeEncodeError: 'utf-8' codec
      can't encode character '\\udce9' in position 3: surrogates not allowed
  checks/check_legacy.py::test_the_tool_output_is_text: passed -> failed: UnicodeDecodeError:
      'utf-8' codec can't decode byte 0xe9 in position 3: unexpected end of data
  checks/check_store.py::test_the_locale_counts_four_characters: passed -> failed: AssertionError:
      assert 5 == 4

The tests that changed ran again in both modes (2 runs): 3 changed again, 0 unstable.
No call site is recorded on Python 3.9: EncodingWarning is 3.10+, so the calls that change a test
  there, and the calls no test exercises, are not known (--python a 3.10+ interpreter records them).
Not ready: 3 of 6 tests change with UTF-8 mode; call sites not recorded.
4 runs on 2 workers, N (their own time N)
"""


def test_the_json_names_the_python_that_records_nothing(python39):
    code, out, err = _readiness(python39, "--format", "json")
    assert (code, err) == (1, "")
    data = json.loads(out)
    assert (data["unrecorded"], data["untested"], data["call_sites"], data["advice"]) == (
        ["3.9"], None, [], [])
    assert [(c["test"], c["call_sites"]) for c in data["changed"]] == [
        ("checks/check_legacy.py::test_names_are_shown", []),
        ("checks/check_legacy.py::test_the_tool_output_is_text", []),
        ("checks/check_store.py::test_the_locale_counts_four_characters", [])]


@pytest.mark.fast
def test_encodingwarning_exists_from_3_10_one_rule_for_every_tool():
    """PEP 597: -X warn_default_encoding and EncodingWarning from 3.10 (matrix's cells,
    readiness's runs and the Windows runs ask this one rule)."""
    from utf8env._engine.profiles import warns_default_encoding
    assert [v for v in ("2.7", "3.6", "3.8", "3.9", "3.10", "3.13", "3.15")
            if warns_default_encoding(v)] == ["3.10", "3.13", "3.15"]


@pytest.mark.fast
def test_versions_sort_by_number_one_rule_for_every_tool():
    """readiness's pages and comparison, fix --prove and matrix order versions by one
    rule: by number (3.9 before 3.13), a name that is not a version after them."""
    from utf8env._engine.profiles import version_key
    assert sorted(["3.13", "other", "3.9", "2.7", "3.15", "3.10"], key=version_key) == \
        ["2.7", "3.9", "3.10", "3.13", "3.15", "other"]
