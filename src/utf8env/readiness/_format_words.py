"""What the pages of a readiness result share (text, Markdown, GitHub annotations,
JUnit XML): the verdict, the runs and their counts in words, the unstable tests, the notes
about what was not compared, the call sites in order (product code before test code),
the changed tests by test, what trying the fixes gave."""
import os
import re

from .. import _pages as pages


def flag(utf8_mode):
    return {0: "off", 1: "on"}.get(utf8_mode, "-")


def counts_text(counts):
    """A run's counts by outcome, in words: "3 passed, 1 failed"."""
    return ", ".join("%d %s" % (n, k) for k, n in counts.items()) or "no tests"


def verdict(result):
    active = [s for s in result.call_sites if s.changed_tests]
    unstable = len({(u.python, u.test) for u in result.unstable})
    tail = (" %s not counted (unstable)." % pages.plural(unstable, "test")) if unstable else ""
    if not result.complete:
        bad = [r for r in all_runs(result) if not r.complete]
        changes = len({c.test for c in result.changed})
        return "Incomplete: %d of %s did not complete; %s.%s" % (
            len(bad), pages.plural(len(all_runs(result)), "run"),
            ("%s that both runs finished change%s with UTF-8 mode" % (
                pages.plural(changes, "test"), "s" if changes == 1 else "")) if changes
            else "no test that both runs finished changes with UTF-8 mode", tail)
    unseen = _nowhere_recorded(result)
    if result.ready:
        return "Ready: no test changes with UTF-8 mode (%s, %s).%s" % (
            pages.plural(result.tests, "test"), _NOT_RECORDED_SHORT if unseen else
            pages.plural(len(result.call_sites), "call site") + " warned", tail)
    return "Not ready: %d of %s change with UTF-8 mode; %s.%s" % (
        len({c.test for c in result.changed}), pages.plural(result.tests, "test"),
        _NOT_RECORDED_SHORT if unseen else "%d of %s active in them" % (
            len(active), pages.plural(len(result.call_sites), "call site")), tail)


# Before Python 3.10 there is no EncodingWarning: a run there records no call site.
_NOT_RECORDED_SHORT = "call sites not recorded"


def _nowhere_recorded(result):
    """True when no run could record a call site (every Python before 3.10)."""
    return not {r.python for r in result.runs} - set(getattr(result, "unrecorded", ()))


def no_sites(change, result):
    """What a changed test's empty list of call sites means on its Python."""
    if change.python in getattr(result, "unrecorded", ()):
        return "not recorded (Python %s has no EncodingWarning)" % change.python
    return "none warned"


def all_runs(result):
    return list(result.runs) + list(result.reruns)


def run_name(run, result):
    return "%s %s%s (UTF-8 mode %s)" % (run.python, run.mode, " rerun" if run in result.reruns
                                        and run not in result.runs else "",
                                        "on" if run.mode != "today" else "off")


def brief(outcome):
    return outcome.outcome + (" (%s)" % outcome.message if outcome.message and
                              outcome.outcome != "passed" else "")


def unstable_pair(pair):
    """A test's two outcomes in the same mode (readiness's runs, fix --prove's), in words."""
    if pair[0] == pair[1]:
        return "%s twice" % brief(pair[0])
    if (pair[0].outcome, pair[0].message) == (pair[1].outcome, pair[1].message):
        return "%s twice, the output differing" % brief(pair[0])
    return "%s, then %s" % (brief(pair[0]), brief(pair[1]))


def unstable_line(u):
    return "UTF-8 mode off: %s; on: %s" % (unstable_pair(u.today), unstable_pair(u.utf8_mode))


def notes(result):
    """The lines about what was not compared: tests of one run only, files not copied,
    the reruns."""
    out = []
    if result.only_today or result.only_utf8_mode:
        out.append("%s finished in one run only (not compared): %d with UTF-8 mode off only, "
                   "%d with it on only." % (pages.plural(result.only_today + result.only_utf8_mode,
                                                         "test"),
                                            result.only_today, result.only_utf8_mode))
    if result.not_copied:
        out.append("Not copied into the runs (special files): %s." % ", ".join(result.not_copied))
    if result.reruns:
        out.append("The tests that changed ran again in both modes (%s): %d changed again, %d "
                   "unstable." % (pages.plural(len(result.reruns), "run"),
                                  len(result.changed), len(result.unstable)))
    if getattr(result, "unrecorded", ()):
        out.append("No call site is recorded on Python %s: EncodingWarning is 3.10+, so the "
                   "calls that change a test there, and the calls no test exercises, are not "
                   "known (--python a 3.10+ interpreter records them)."
                   % ", ".join(result.unrecorded))
    return out


def variables(result):
    return " ".join("%s=%s" % kv for kv in sorted(result.variables.items())) or "nothing set"


def suite_command(result):
    """The suite's command as the user gave it."""
    runner = "python -m unittest" if result.runner == "unittest" else "pytest"
    return " ".join([runner] + list(result.command))


_TEST_FILE = re.compile(r"(^|/)(tests/|test_[^/]*\.py$|[^/]*_test\.py$|conftest\.py$)")


def is_test_code(s):
    """A site in the suite's own code: under a tests/ folder, in a test_*.py, *_test.py or
    conftest.py file, or in the file of one of the tests that hit it."""
    file = s.file.replace(os.sep, "/")
    return bool(_TEST_FILE.search(file)) or any(t.split("::")[0] == file for t in s.tests)


def sites_in_order(result):
    """The call sites, product code before test code, those that change a test first in
    each, else in the result's (file) order."""
    sites = list(result.call_sites)
    return [sites[i] for i in sorted(range(len(sites)), key=lambda i: (
        is_test_code(sites[i]), not sites[i].changed_tests, i))]


TRIED = {"passes": "passes in both modes", "fails": "fails in both modes",
          "changes": "still changes", "not run": "not run", "not edited": "not edited"}


def measured(fix):
    """What trying `fix` gave, in the words of the text's "tried:", when it was tried."""
    return " (tried: %s)" % TRIED.get(fix.measured, fix.measured) if fix.measured else ""


def changes_by_test(changed):
    """[(node id, [TestChange])], a test once with each Python it changed on, in order."""
    out = {}
    for c in changed:
        out.setdefault(c.test, []).append(c)
    return list(out.items())


def advice_runs(result):
    """The timing line's part about the runs that tried the fixes, when any."""
    runs = sum(len(t.runs) for t in result.advice)
    if not runs:
        return ""
    return "; %d of them tried the two fixes in copies of the project" % runs
