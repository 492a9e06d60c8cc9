"""The records of `utf8env readiness`: what suite.py measures and compare.py concludes,
what formats.py renders. `as_json()` (_engine/records.py's) turns them into the JSON of
`--format json` (schema 1, docs/json.md)."""
from .._engine.records import Record, field

SCHEMA = 1
TODAY, PEP686 = "today", "3.15"      # the two runs: UTF-8 mode off, and on (PEP 686)
NOT_MEASURED = "not measured: "      # a fix's words, then why it was not tried


class Outcome(Record):
    """One test in one run: its outcome, message and captured output (_junit.py)."""
    outcome = field()          # "passed", "failed", "error", "skipped", or "absent"
    message = field(None)      # the first line of the failure, error or skip message
    output = field("")         # the test's captured stdout and stderr (temporary paths as <tmp>)


class SuiteRun(Record):
    """One pytest run of the suite."""
    python = field()           # "3.13"
    interpreter = field()      # its argv (a chroot prefix included)
    mode = field()             # TODAY or PEP686
    utf8_mode = field()        # as the interpreter reported it (the plugin's record), or None
    exit = field()             # pytest's exit status; None when it timed out or was stopped;
                               # -N when signal N killed it
    timed_out = field()
    seconds = field()
    counts = field()           # {outcome: number of tests} (those that finished)
    filesystem_encoding = field()
    locale_encoding = field()
    problem = field()          # None, or why this run did not complete
    complete = field(True)     # the run ran every test it collected, to the end
    output = field(())         # when it did not complete: the first lines of its output


class TestChange(Record):
    """A test whose outcome or output differs between the two runs of one Python."""
    python = field()
    test = field()             # the pytest node id
    today = field()            # Outcome
    utf8_mode = field()        # Outcome with UTF-8 mode on (3.15)
    difference = field()       # the first differing line: the 3.15 run's failure, or output
    call_sites = field()       # ["file:line"] that warned in this test (either run)


class UnstableTest(Record):
    """A test whose outcome or output changed between the two runs, and then differed
    between two runs with the SAME mode when it ran again: not counted as a change."""
    python = field()
    test = field()
    today = field()            # [Outcome, Outcome]: the first run and the rerun, mode off
    utf8_mode = field()        # [Outcome, Outcome]: the same with UTF-8 mode on


class Fix(Record):
    encoding = field()         # "utf-8" or "locale"
    means = field()            # what it means for the tests that changed, in words
    measured = field(None)     # None: not tried (no changed test uses the site); else what
                               # trying it in copies gave (_advice.py): "passes" (every
                               # changed test of the site's group passes in both modes),
                               # "fails" (the same failure in both), "changes" (a test still
                               # changes), "not run" (a trial run did not complete, or a
                               # test did not run), "not edited" (the fixer cannot edit it)


class CallSite(Record):
    """A place that used the default (locale) encoding: an EncodingWarning's file:line."""
    file = field()             # relative to the project for the user's own code
    line = field()
    function = field()         # the enclosing function ("<module>" at the top level)
    origin = field()           # "user", "site-packages" or "stdlib"
    message = field()
    count = field()            # EncodingWarnings in the runs with UTF-8 mode off
    tests = field()            # the node ids that hit it (either run)
    pythons = field()          # the versions it warned on
    changed_tests = field()    # the node ids among `tests` whose outcome or output changed
    fixes = field()            # [Fix]: encoding="utf-8", then encoding="locale"

    @property
    def where(self):
        return "%s:%d" % (self.file, self.line)


class Trial(Record):
    """A fix tried (_advice.py): encoding= added by the fixer at the call sites of the
    changed tests in copies of the project, and those tests run again in both modes."""
    python = field()
    encoding = field()         # "utf-8" or "locale"
    sites = field()            # ["file:line"] edited
    not_edited = field()       # [["file:line", why]]
    tests = field()            # [[node id, Outcome mode off, Outcome mode on]]
    runs = field()             # [SuiteRun]: the two runs (their output when incomplete)


class UntestedSite(Record):
    """A call the fixer's static scan finds in the project that no test exercised: no
    EncodingWarning from it in either run (the 3.15 risk no test measures)."""
    file = field()             # relative to the project (pytest's rootdir)
    line = field()
    call = field()             # "open", "subprocess.run", ...
    verdict = field()          # "fix" (the fixer can add encoding=) or "review"


class ReadinessResult(Record):
    schema = field()
    command = field()          # the pytest arguments
    world = field()            # the environment set's name
    environment = field()      # its description
    variables = field()        # {name: value} it sets
    runs = field()             # [SuiteRun]
    changed = field()          # [TestChange]: the changes each test's rerun confirmed
    call_sites = field()       # [CallSite] of the user's code (all origins with --all)
    hidden_sites = field()     # how many standard-library / site-packages sites are not shown
    tests = field()            # how many distinct tests ran
    ready = field()            # every run complete, and nothing changes between the two runs
    timing = field()           # _worlds.jobs.Timing
    reruns = field(())         # [SuiteRun]: the changed tests run again, each mode
    unstable = field(())       # [UnstableTest]
    complete = field(True)     # every run (and rerun) completed
    only_today = field(0)      # tests that finished in the run with UTF-8 mode off only
    only_utf8_mode = field(0)  # ... in the run with UTF-8 mode on only
    not_copied = field(())     # the project's special files (FIFO, socket, device) left out
    runner = field("pytest")   # "pytest", or "unittest" (python -m unittest ARGS)
    filtered = field(())       # [[test, "filter" | "raised"]]: an EncodingWarning the suite's
                               # own filters make an error ("filter": recorded instead) or
                               # the test itself raised ("raised": the test failed on it)
    advice = field(())         # [Trial]: the fixes tried for the changed tests (_advice.py)
    untested = field(None)     # [UntestedSite]: calls the scan finds that no test exercised;
                               # None when not looked for
    unrecorded = field(())     # the Pythons whose runs record no call site: they have no
                               # EncodingWarning (before 3.10), as their records say

    def _json(self):
        return self._asdict()
