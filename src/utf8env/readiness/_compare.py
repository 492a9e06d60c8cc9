"""What changes between the two runs of each interpreter: the tests whose outcome or
output differs (with the first difference and the call sites active in them), the call
sites that warned (changing something or nothing), and for each call site the two honest
fixes with what each would mean for the changed tests."""
import re

from .._engine.profiles import version_key
from .._errors import UsageError
from .._worlds.jobs import Timing
from . import _junit as junit, _progress
from . import _unittest_runner as unittest_runner
from ._results import (PEP686, SCHEMA, TODAY, CallSite, Fix, Outcome, ReadinessResult, SuiteRun,
                       TestChange, UnstableTest)
from ._suite import env_set, read_record

ABSENT = Outcome("absent")
# The outcomes in the order a run's counts are said.
OUTCOME_ORDER = ("passed", "failed", "error", "skipped", "absent")
_PYTEST_STATUS = {2: "interrupted", 3: "internal error", 4: "usage error",
                  5: "no tests collected"}
# pytest's header lines, left out of the first lines of a run's output shown
_HEADER = re.compile(r"^(=+ test session starts =+|platform |cachedir: |rootdir: |configfile: |"
                     r"testpaths: |plugins: |collecting \.\.\.|collected \d+ item|"
                     r"run-last-failure: )")
OUTPUT_LINES = 8


def _first_lines(ran, temporary=()):
    """The first lines of a run's output (stdout, then stderr), pytest's header and blank
    lines left out, each folder of `temporary` shown as <tmp>."""
    lines = []
    for data in (ran.stdout, ran.stderr):
        text = data.decode("utf-8", "replace")
        for folder in temporary:
            text = text.replace(folder, "<tmp>")
        for line in text.splitlines():
            line = line.rstrip()
            if line and not _HEADER.match(line):
                lines.append(line)
    return lines[:OUTPUT_LINES]


def _signal_name(number):
    import signal
    try:
        return signal.Signals(number).name
    except ValueError:
        return "signal %d" % number


def _incomplete(ran, progress, outcomes, timeout=None):
    """None when the run completed: it ended by itself with pytest's status 0 or 1 after
    running every test it collected; else why not, in words (its status first)."""
    if ran.stopped:
        return "stopped (readiness was interrupted)"
    if ran.timed_out:
        return "timed out after %d s: %s finished" % (
            ran.seconds, _plural(len(progress.tests), "test"))
    if ran.signal:
        return "killed by %s" % _signal_name(ran.signal)
    code = ran.returncode
    if ran.unwritten:
        return "exit %s: its files could not be written in the temporary folder (%s): its " \
            "output and outcomes are not complete" % (code, ran.unwritten)
    if code not in (0, 1):
        what = _PYTEST_STATUS.get(code, "pytest's status")
        if code == 2 and progress.collect_errors:
            what += ": %s during collection" % _plural(len(progress.collect_errors), "error")
        return "exit %s (%s)" % (code, what)
    if progress.collect_errors:
        return "exit %s: %s during collection" % (code, _plural(len(progress.collect_errors),
                                                                 "error"))
    if not progress.present:
        return "exit %s: it wrote no progress (the utf8env.readiness._progress plugin)" % code
    if progress.finish is None:
        return "exit %s: the session did not end" % code
    stop = progress.finish.get("shouldfail") or progress.finish.get("shouldstop")
    early = ("stopped early (%s): " % (stop if isinstance(stop, str) else "-x")) if stop else ""
    if progress.collected:      # 0 under xdist's controller, which collects nothing
        if len(progress.tests) < progress.collected:
            return "exit %s: %s%d of %s did not run" % (
                code, early, progress.collected - len(progress.tests),
                _plural(progress.collected, "collected test"))
    elif stop:
        return "exit %s: %s" % (code, early.rstrip(": "))
    if outcomes is None:
        return "exit %s: it gave no outcome of its tests (neither the progress plugin's " \
            "outputs nor a JUnit XML)" % code
    return None


def _plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


class _Run(object):
    """One run read back: its SuiteRun, its outcomes with their output once it ended
    (`cases`: the progress file's of a pytest run, the unittest runner's JUnit XML) and by
    progress as they came, its record."""

    def __init__(self, interp, mode, stage, ran):
        self.interp, self.mode, self.stage, self.ran = interp, mode, stage, ran
        temporary = (stage.dir, stage.inside(stage.dir))
        self.progress = _progress.read(stage.path("progress.jsonl"))
        self.cases = junit.cases(self.progress, temporary)
        if self.cases is None:
            self.cases = junit.outcomes(stage.path("junit.xml"), temporary)
        self.record = read_record(stage)
        self.problem = _incomplete(ran, self.progress, self.cases)
        if ran.returncode == 4 and self.cases is None:   # pytest's usage error: the arguments
            lines = _first_lines(ran)
            errors = [l.split("error: ", 1)[1] for l in lines if "error: " in l]
            raise UsageError("readiness: pytest refused its arguments: %s" % (
                errors[-1] if errors else (lines[-1] if lines else "exit 4")))

    def by_progress(self):
        """{key: Outcome} of the tests that finished, by the progress file (no output)."""
        return {junit.key(n): Outcome(o, m) for n, (o, m) in self.progress.tests.items()}

    def suite(self, outcomes):
        counts = {}
        for o in outcomes.values():
            counts[o.outcome] = counts.get(o.outcome, 0) + 1
        record, ran = self.record or self.progress.start or None, self.ran
        return SuiteRun(
            python=self.interp.version, interpreter=list(self.interp.argv), mode=self.mode,
            utf8_mode=record.get("utf8_mode") if record else None,
            exit=ran.returncode if ran.returncode is not None else (
                -ran.signal if ran.signal else None),
            timed_out=ran.timed_out, seconds=round(ran.seconds, 3),
            counts={k: counts[k] for k in OUTCOME_ORDER if k in counts},
            filesystem_encoding=record.get("filesystem_encoding") if record else None,
            locale_encoding=record.get("locale_encoding") if record else None,
            problem=self.problem,
            complete=self.problem is None,
            output=_first_lines(ran, (self.stage.dir, self.stage.inside(self.stage.dir)))
            if self.problem else [])


def _outcomes(a, b):
    """The outcomes of the two runs of one Python, from the same source: both runs' cases
    when both ended (with each test's output), else both progress files as they came."""
    if a.cases is not None and b.cases is not None:
        return a.cases, b.cases
    return a.by_progress(), b.by_progress()


def read_runs(planned, runs):
    """Each planned run read back with its Ran result (readiness's runs, fix --prove's)."""
    return [_Run(interp, mode, stage, ran) for (interp, mode, stage, _), ran in zip(planned, runs)]


def _pairs(read):
    by = {}
    for r in read:
        by.setdefault(r.interp.version, {})[r.mode] = r
    return [(python, modes[TODAY], modes[PEP686]) for python, modes in by.items()
            if TODAY in modes and PEP686 in modes]


def _nodeids(*records):
    return {junit.key(n): n for rec in records if rec for n in rec.get("tests", {})}


def _name(k, nodeids):
    if k in nodeids:
        return nodeids[k]
    classname, name = k
    return "%s::%s" % (classname, name) if classname else name


def node_id(k, a, b):
    """The node id of test key `k` (for --utf8env-only): the record's, else the progress's."""
    for run in (a, b):
        for n in run.progress.tests:
            if junit.key(n) == k:
                return n
    return _name(k, _nodeids(a.record, b.record))


def rerun_wanted(planned, runs, read=None):
    """{python version: [node id]}: the tests that finished in both runs of a Python and
    whose outcome or output differs (to run again in both modes). `read`: the runs
    already read (read_runs(planned, runs))."""
    wanted = {}
    for python, a, b in _pairs(read or read_runs(planned, runs)):
        if a.ran.stopped or b.ran.stopped:
            continue
        out_a, out_b = _outcomes(a, b)
        ids = [node_id(k, a, b) for k in sorted(set(out_a) & set(out_b)) if out_a[k] != out_b[k]]
        if ids:
            wanted[python] = ids
    return wanted


def first_difference(today, pep686):
    """The first way the Outcome `pep686` differs from `today`, in words."""
    if today.outcome != pep686.outcome or today.message != pep686.message:
        changed = pep686 if pep686.outcome != "passed" else today
        return "%s -> %s%s" % (today.outcome, pep686.outcome,
                               ": " + changed.message if changed.message else "")
    a, b = today.output.splitlines(), pep686.output.splitlines()
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x != y:
            return "output line %d: %r -> %r" % (i + 1, x, y)
    return "output differs"


def _sites_by_test(record):
    out = {}
    for s in record["sites"]:
        for t in s["tests"]:
            out.setdefault(t, []).append("%s:%d" % (s["file"], s["line"]))
    return out


def compare(command, world, planned, runs, workers, wall, show_all=False, reruns=(),
            not_copied=(), read=None):
    """The ReadinessResult of the planned runs and their Ran results; `reruns`: the
    (planned, Ran) of the reruns of the tests that changed (plan_rerun), of any Python
    (those of Pythons not in `planned` are left out). `read`: the runs already read
    (read_runs(planned, runs))."""
    es = env_set(world)
    first = read or read_runs(planned, runs)
    pythons = {r.interp.version for r in first}
    again = read_runs([p for p, _ in reruns], [r for _, r in reruns])
    again = [r for r in again if r.interp.version in pythons]
    again_by = {(r.interp.version, r.mode): r for r in again}
    suites, rerun_suites = [], []
    changed, unstable, sites, tests = [], [], {}, set()
    only = {TODAY: 0, PEP686: 0}
    filtered = {}
    by_run = {}
    for python, a, b in _pairs(first):
        out_a, out_b = _outcomes(a, b)
        by_run[id(a)], by_run[id(b)] = out_a, out_b
        rec_a = a.record or {"sites": [], "tests": {}}
        rec_b = b.record or {"sites": [], "tests": {}}
        for rec in (rec_a, rec_b):
            for test, how in sorted((rec.get("warning_errors") or {}).items()):
                filtered.setdefault(test, how)
        nodeids = _nodeids(rec_a, rec_b)
        nodeids.update({junit.key(n): n for r in (a, b) for n in r.progress.tests})
        active = {}
        for rec in (rec_a, rec_b):
            for t, where in _sites_by_test(rec).items():
                active.setdefault(t, set()).update(where)
        ra, rb = again_by.get((python, TODAY)), again_by.get((python, PEP686))
        if ra is not None and rb is not None:
            if a.cases is not None and b.cases is not None:
                again_a, again_b = ra.cases or ra.by_progress(), rb.cases or rb.by_progress()
            else:
                again_a, again_b = ra.by_progress(), rb.by_progress()
            by_run[id(ra)], by_run[id(rb)] = again_a, again_b
        else:
            again_a = again_b = None
        for k in sorted(set(out_a) | set(out_b)):
            tests.add(_name(k, nodeids))
            if k not in out_b:
                only[TODAY] += 1
                continue
            if k not in out_a:
                only[PEP686] += 1
                continue
            x, y = out_a[k], out_b[k]
            if x == y:
                continue
            name = _name(k, nodeids)
            if again_a is not None and k in again_a and k in again_b and (
                    again_a[k] != x or again_b[k] != y):
                unstable.append(UnstableTest(python=python, test=name, today=[x, again_a[k]],
                                             utf8_mode=[y, again_b[k]]))
                continue
            changed.append(TestChange(python=python, test=name, today=x, utf8_mode=y,
                                      difference=first_difference(x, y),
                                      call_sites=sorted(active.get(name, ()), key=_site_key)))
        for rec, counts in ((rec_a, True), (rec_b, False)):
            for s in rec["sites"]:
                site = sites.setdefault((s["file"], s["line"]), dict(s, count=0, tests=set(),
                                                                    pythons=set()))
                site["count"] += s["count"] if counts else 0
                site["tests"].update(s["tests"])
                site["pythons"].add(python)
    # Before 3.10 there is no EncodingWarning: such a run records no call site, and what
    # changed a test there is not known (its record says so: warn_default_encoding None).
    unrecorded = sorted({r.interp.version for r in first if r.record is not None
                         and r.record.get("warn_default_encoding", False) is None},
                        key=version_key)
    for r in first:
        suites.append(r.suite(by_run.get(id(r), r.cases or r.by_progress())))
    for r in again:
        rerun_suites.append(r.suite(by_run.get(id(r), r.cases or r.by_progress())))
    users = {}
    for key, s in sites.items():
        for t in s["tests"]:
            users.setdefault(t, set()).add(key)
    by_test = {}
    for c in changed:
        by_test.setdefault(c.test, []).append(c)
    shown, hidden = [], 0
    for (file, line), s in sorted(sites.items()):
        if s["origin"] not in ("user", "child process") and not show_all:
            hidden += 1
            continue
        hit = sorted(t for t in s["tests"] if t in by_test)
        shown.append(CallSite(
            file=file, line=line, function=s["function"], origin=s["origin"],
            message=s["message"], count=s["count"], tests=sorted(s["tests"]),
            pythons=sorted(s["pythons"], key=version_key), changed_tests=hit,
            fixes=_fixes([c for t in hit for c in by_test[t]],
                         ["%s:%d" % k for k in sorted({k for t in s["tests"] for k in users[t]}
                                                      - {(file, line)})])))
    complete = all(s.complete for s in suites + rerun_suites)
    everything = suites + rerun_suites
    return ReadinessResult(
        schema=SCHEMA, command=list(command), world=es.name, environment=es.description,
        variables=dict(es.variables), runs=suites, changed=changed, call_sites=shown,
        hidden_sites=hidden, tests=len(tests), ready=complete and not changed,
        timing=Timing(wall_seconds=round(wall, 3),
                      cell_seconds=round(sum(s.seconds for s in everything), 3),
                      workers=workers, jobs=len(everything)),
        reruns=rerun_suites, unstable=unstable, complete=complete, only_today=only[TODAY],
        only_utf8_mode=only[PEP686], not_copied=["%s (%s)" % w for w in sorted(not_copied)],
        runner="unittest" if isinstance(command, unittest_runner.Args) else "pytest",
        filtered=[[test, how] for test, how in sorted(filtered.items())],
        unrecorded=unrecorded)


def _site_key(where):
    file, _, line = where.rpartition(":")
    return file, int(line)


def _said(outcome):
    words = {"passed": "passes", "failed": "fails", "error": "errors", "skipped": "is skipped",
             "absent": "does not run"}[outcome.outcome]
    return words + (" (%s)" % outcome.message if outcome.message and outcome.outcome != "passed" else "")


def _phrases(changes, attr, tail):
    """"T fails (...), as ..." once per test and outcome, with the Pythons when several."""
    seen = {}
    for c in changes:
        seen.setdefault("%s %s" % (c.test, _said(getattr(c, attr))), []).append(c.python)
    several = len({c.python for c in changes}) > 1
    return "; ".join("%s%s, %s" % (phrase, " on %s" % ", ".join(pythons) if several else "", tail)
                     for phrase, pythons in seen.items())


def _fixes(changes, partners):
    """encoding="utf-8" and encoding="locale", with what each means for `changes` (the
    changed tests that hit the site). Both runs switch every call site at once: a site
    whose tests also use `partners` is measured together with them."""
    together = ("; measured together with %s, which the same tests use: fix them together"
                % ", ".join(partners)) if partners else ""
    if not changes:
        return [Fix("utf-8", "the 3.15 behaviour on every version; no test changes" + together),
                Fix("locale", "today's behaviour kept on 3.15 (Python 3.10+); no test changes"
                    + together)]
    utf8 = _phrases(changes, "utf8_mode", "as with UTF-8 mode")
    kept = _phrases(changes, "today", "as today")
    return [Fix("utf-8", "the 3.15 behaviour on every version: " + utf8 + together),
            Fix("locale", "today's behaviour kept on 3.15 (Python 3.10+): " + kept + together)]
