"""utf8env readiness on a real third-party suite: mistune 3.4.0 (a pure-Python Markdown
parser, no dependencies), its sdist pinned by sha256 and cached by tests/setup.sh in
/var/cache/utf8env/thirdparty/, unpacked into tmp_path and run by the command line on
this interpreter (the one tests/setup.sh gives pytest) in the Latin-1 world.

The ground truth, measured by hand and by three runs of readiness (the same each time):
no test changes with UTF-8 mode; the six EncodingWarnings all come from the suite's own
code, the six `open(..., "w")` without encoding= in tests/test_security_include.py
(lines 16, 18, 31, 33, 46, 48: two per test, one test each); and mistune's
`filterwarnings = ["error"]` would make an error of each, so those three tests fail
wherever EncodingWarning is on (Python 3.10+ with -X warn_default_encoding): readiness
records them instead and names them. The suite's timing tests (assert_near_linear,
perf_counter bounds) are left out: under two runs at once they fail at random, which
readiness rightly calls unstable, but it makes no ground truth."""
import hashlib
import json
import os
import subprocess
import sys
import tarfile

import pytest

from utf8env import _worlds as worlds
from utf8env._own_command import own_command

CACHE = "/var/cache/utf8env/thirdparty"
NAME, VERSION = "mistune", "3.4.0"
SDIST = os.path.join(CACHE, "%s-%s.tar.gz" % (NAME, VERSION))
SHA256 = "2eaf7952af928ca8d33b779762effc1da517b62c6ad85ec8ca957e3b07b9782a"
# The timing tests: left out (see above).
ARGS = ["-q", "-p", "no:cacheprovider"] + ["--ignore=tests/%s.py" % f for f in (
    "test_inline_limits", "test_security_edge_cases", "test_security_formatting",
    "test_security_inline", "test_security_math", "test_security_ref_links")] + [
    "--deselect=tests/test_misc.py::TestMiscCases::"
    "test_deeply_indented_list_does_not_scale_quadratically"]

INCLUDE = "tests/test_security_include.py"
CLASS = INCLUDE + "::TestIncludeSecurity::"
TRAVERSAL = CLASS + "test_include_rejects_traversal_and_absolute_paths"
TEXT = CLASS + "test_include_text_escapes_with_html_escape_enabled"
HTML = CLASS + "test_include_html_escapes_with_html_escape_enabled"
# (file, line, function, warnings in the run with UTF-8 mode off, tests, changed tests)
SITES = [
    (INCLUDE, 16, "TestIncludeSecurity.test_include_rejects_traversal_and_absolute_paths", 1,
     [TRAVERSAL], []),
    (INCLUDE, 18, "TestIncludeSecurity.test_include_rejects_traversal_and_absolute_paths", 1,
     [TRAVERSAL], []),
    (INCLUDE, 31, "TestIncludeSecurity.test_include_text_escapes_with_html_escape_enabled", 1,
     [TEXT], []),
    (INCLUDE, 33, "TestIncludeSecurity.test_include_text_escapes_with_html_escape_enabled", 1,
     [TEXT], []),
    (INCLUDE, 46, "TestIncludeSecurity.test_include_html_escapes_with_html_escape_enabled", 1,
     [HTML], []),
    (INCLUDE, 48, "TestIncludeSecurity.test_include_html_escapes_with_html_escape_enabled", 1,
     [HTML], []),
]
TESTS = 1230


def unpack(folder):
    """The sdist, checked against SHA256, unpacked under `folder`: its project folder."""
    with open(SDIST, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    assert digest == SHA256, "%s: sha256 %s, expected %s" % (SDIST, digest, SHA256)
    with tarfile.open(SDIST) as tar:
        for member in tar.getmembers():      # nothing outside `folder`, no links out
            assert not member.name.startswith("/") and ".." not in member.name.split("/")
            assert not (member.issym() or member.islnk() or member.isdev())
        tar.extractall(folder)
    return os.path.join(folder, "%s-%s" % (NAME, VERSION))


@pytest.fixture(scope="module")
def mistune(tmp_path_factory):
    """(exit status, JSON, stderr) of readiness on mistune's suite."""
    if not os.path.exists(SDIST):
        pytest.skip("%s is missing: bash tests/setup.sh" % SDIST)
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)
    project = unpack(str(tmp_path_factory.mktemp("thirdparty")))
    env = dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    for name in ("COLUMNS", "LINES", "PYTEST_ADDOPTS"):
        env.pop(name, None)
    proc = subprocess.run(own_command() + ["readiness", "--python", sys.executable, "--format",
                                           "json", "--", "pytest"] + ARGS,
                          cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=600)
    return proc.returncode, json.loads(proc.stdout.decode("utf-8") or "null"), proc.stderr


def test_mistune_is_ready_and_no_test_changes(mistune):
    code, data, err = mistune
    assert (code, err) == (0, b"")
    assert (data["ready"], data["complete"], data["changed"], data["unstable"]) == (
        True, True, [], [])
    assert [(r["mode"], r["utf8_mode"], r["filesystem_encoding"], r["locale_encoding"],
             r["counts"]) for r in data["runs"]] == [
        ("today", 0, "iso8859-1", "ISO-8859-1", {"passed": TESTS}),
        ("3.15", 1, "utf-8", "ISO-8859-1", {"passed": TESTS})]
    assert data["tests"] == TESTS and (data["only_today"], data["only_utf8_mode"]) == (0, 0)


def test_mistune_call_sites_are_the_six_opens_of_its_include_tests(mistune):
    _, data, _ = mistune
    assert [(s["file"], s["line"], s["function"], s["count"], s["tests"], s["changed_tests"])
            for s in data["call_sites"]] == SITES
    assert {s["origin"] for s in data["call_sites"]} == {"user"} and data["hidden_sites"] == 0


def test_mistune_warning_filters_would_fail_its_three_include_tests(mistune):
    _, data, _ = mistune
    assert data["filtered"] == [[HTML, "filter"], [TRAVERSAL, "filter"], [TEXT, "filter"]]
