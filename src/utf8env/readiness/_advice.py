"""Measured advice: the two fixes TRIED, not predicted. For the tests that changed, the
call sites their warnings came from (with the sites the same tests use: one group, fixed
together) get encoding="utf-8" in copies of the project, and encoding="locale" in
others, by the fixer's own edit (utf8env._sources.apply, by file:line); the changed tests
then run again (--utf8env-only) in both modes in each copy, through the world runner:
4 runs per Python with changed tests (2 fixes x 2 modes), whatever the
number of groups (each group's sites are edited in the same copies; no test of one group
uses a site of another).

readiness runs them after the first runs (follow_up), and two of the four ARE the reruns
of the changed tests: encoding="locale" with UTF-8 mode off and encoding="utf-8" with it
on are what the mode already gives those calls (PEP 597, PEP 540: the locale's encoding
is the default with the mode off, UTF-8 with it on), so these two trials run in the first
runs' own copies (their state kept, as a rerun's), as the reruns, of every test that
changed. (What the edit takes away is the call's EncodingWarning, which the runs record
and never show: only a test that counts warnings itself could tell the two apart.) The
two others run in fresh copies with the reruns where the cores run all four at once;
else after them, each in the rerun's copy that holds its edit, in its own mode
(encoding="utf-8" with the mode off where it ran on, encoding="locale" with it on where
it ran off: no copy to make while the reruns run, and each fix's two runs in the same
copy), and only for the changes the reruns confirm (follow_up): a test the reruns find
unstable is no change, and what was tried for it is dropped. What each gave is what the
report says per site:

    measured: T passes in both modes         the fix works (fix --from takes it)
    measured: T fails in both modes (...)    the change is gone, but not the failure
    measured: T still changes (...)          this fix does not do it
    not the encoding of these call sites     neither fix makes the tests pass in both modes
                                             (a file name, stdio, a child's locale...)

A site the fixer cannot edit (a review case, a file outside the project) says so; its
group is measured with the others edited. And untested(): the calls the fixer's static
scan finds in the project that no test exercised (no EncodingWarning from them in
either run): the 3.15 risk no test measures."""
import os
import time

from .._errors import UsageError
from .._sources import apply, edit, files, prefilter
from .._worlds.jobs import Timing
from . import _compare as compare, _copies as copies, _junit as junit, _suite as suite
from ._guard import RERUNS, RERUNS_AND_TRIALS, TRIALS
from ._results import NOT_MEASURED, PEP686, TODAY, Fix, Trial, UntestedSite

ENCODINGS = ("utf-8", "locale")
ONLY = "only.txt"
PASSES, FAILS, CHANGES, NOT_RUN, NOT_EDITED = "passes", "fails", "changes", "not run", "not edited"
_WORST = (CHANGES, NOT_RUN, FAILS, PASSES)


def groups(result):
    """[(["file:line"], {changed test})]: the call sites shown, joined when a test uses
    both (transitively), each group that a changed test uses."""
    tests_of = {s.where: set(s.tests) for s in result.call_sites}
    parent = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for where, tests in tests_of.items():
        for test in tests:
            parent[find(("site", where))] = find(("test", test))
    members = {}
    for where in tests_of:
        members.setdefault(find(("site", where)), []).append(where)
    changed = {c.test for c in result.changed}
    out = []
    for sites in members.values():
        tests = set().union(*(tests_of[w] for w in sites)) & changed
        if tests:
            out.append((sorted(sites, key=compare._site_key), tests))
    return sorted(out, key=lambda g: compare._site_key(g[0][0]))


def project_offset(planned):
    """Where pytest's rootdir (what the sites are relative to) is in the project: "." or a
    folder inside it; None when it is outside the copy (no site can be edited then)."""
    for _, _, stage, _ in planned:
        record = suite.read_record(stage)
        if record and record.get("rootdir"):
            offset = os.path.relpath(record["rootdir"], stage.inside(stage.work))
            return None if offset == ".." or offset.startswith(".." + os.sep) else offset
    return "."


class Plan(object):
    """The trial runs of one readiness run: planned [(interp, mode, stage, job)], the
    encoding of each, the folders to remove, the groups, the edits per encoding, and
    `shared`: the indexes in `planned` of the trials that are reruns too (follow_up);
    the sites edited and where (`offset`), the other trials still to plan
    [((interp, mode, encoding), the first run's stage of that Python and mode)]
    (`others`), the reruns' stages by (version, encoding) (`edited`), and why the fresh
    copies of the others could not be made (`unmade`)."""

    def __init__(self):
        self.planned, self.encodings, self.folders = [], [], []
        self.groups, self.edits, self.wanted = [], {}, {}
        self.shared, self.sites, self.offset = [], [], None
        self.others, self.edited, self.unmade = [], {}, None


# The trials that a rerun is too: the fix that is the mode's own default (PEP 597; PEP 540).
AS_RERUN = (("locale", TODAY), ("utf-8", PEP686))


def _wanted(result):
    """(the groups, {python: [changed test in a group]}) of `result`."""
    found = groups(result)
    in_groups = set().union(*(tests for _, tests in found)) if found else set()
    wanted = {}
    for c in result.changed:
        # Not on a Python that records no call site (before 3.10): the sites are another
        # Python's, and encoding="locale" does not exist there (LookupError), so its trial
        # could not stand in for the rerun of today's mode (AS_RERUN).
        if c.python in result.unrecorded:
            continue
        if c.test in in_groups and c.test not in wanted.get(c.python, []):
            wanted.setdefault(c.python, []).append(c.test)
    return found, wanted


def plan(project, offset, result, pythons, world, args, environ, timeout, first=None,
         reruns=None):
    """The Plan of the trials: for each encoding, the project copied for both modes of
    each Python with changed tests in a group, the group's sites edited in every copy,
    the changed tests to run (--utf8env-only). With `first` (the first runs' planned) and
    `reruns` ({python: [node id]}, rerun_wanted), only the trials that are reruns too
    (AS_RERUN) are planned: the reruns of `first` (plan_rerun: the same copies) of the
    tests of `reruns`, edited; the others are for fresh() or in_place()."""
    out = Plan()
    out.groups, out.wanted = _wanted(result)
    sites = sorted({w for ws, _ in out.groups for w in ws}, key=compare._site_key)
    chosen = [p for p in pythons if p.version in out.wanted]
    if not chosen or not sites or offset is None:
        return out
    try:
        if first is None:
            for encoding in ENCODINGS:
                planned, folders = suite.plan(project, chosen, world, args, environ, timeout,
                                              [])
                out.folders += folders
                for interp, mode, stage, _ in planned:
                    out.edits[encoding] = apply.at_sites(
                        os.path.join(stage.work, offset), sites, encoding)
                    job = _only(stage, out.wanted[interp.version])
                    out.planned.append((interp, mode, stage, job))
                    out.encodings.append(encoding)
            return out
        versions = {p.version for p in chosen if reruns.get(p.version)}
        mine = [p for p in first if p[0].version in versions]
        again = {(r[0].version, r[1]): r for r in suite.plan_rerun(
            mine, {v: ids for v, ids in reruns.items() if v in versions})}
        for interp, mode, stage, _ in mine:
            for encoding in ENCODINGS:
                if (encoding, mode) in AS_RERUN:
                    entry = again[(interp.version, mode)]
                    out.shared.append(len(out.planned))
                    out.edits[encoding] = apply.at_sites(
                        os.path.join(entry[2].work, offset), sites, encoding)
                    out.edited[(interp.version, encoding)] = entry[2]
                    out.planned.append(entry)
                    out.encodings.append(encoding)
        out.others = [((interp, mode, encoding), stage) for interp, mode, stage, _ in mine
                      for encoding in ENCODINGS if (encoding, mode) not in AS_RERUN]
        out.sites, out.offset = sites, offset
    except BaseException:
        remove(out)
        raise
    return out


def fresh(trials, wanted):
    """The trials that are not reruns (the two AS_RERUN does not name), of the tests
    `wanted` ({python: [test]}), each in a fresh copy of the project made now, edited at
    the plan's sites; added to trials.planned. Copies that do not fit (a full temporary
    folder) leave them out, said per site (`unmade`): the runs' report is kept."""
    chosen = [(key, stage) for key, stage in trials.others if wanted.get(key[0].version)]
    if not chosen:
        return []
    try:
        made = suite.other_copies([(stage, "%s-%s" % (key[1], key[2]))
                                   for key, stage in chosen])
    except UsageError as error:
        trials.unmade = str(error)
        return []
    trials.folders += made
    out = []
    for ((interp, mode, encoding), _), folder in zip(chosen, made):
        stage = suite.Stage(folder, "")
        trials.edits[encoding] = apply.at_sites(
            os.path.join(stage.work, trials.offset), trials.sites, encoding)
        out.append((interp, mode, stage, _only(stage, wanted[interp.version])))
        trials.encodings.append(encoding)
    trials.planned += out
    return out


TRIAL = "trial-"        # the file names of a trial run in a rerun's copy: these prefixed


def in_place(trials, wanted):
    """fresh()'s trials, of the tests `wanted`, once the reruns ended: each in the copy of
    the rerun whose edit it tries (the other mode's), with its own mode, the copy's
    .pytest_cache the project's again (as for a rerun), its files named TRIAL...; added
    to trials.planned."""
    out = []
    for (interp, mode, encoding), first in trials.others:
        tests = wanted.get(interp.version)
        if not tests:
            continue
        edited = trials.edited[(interp.version, encoding)]
        copies.restore_cache(edited.project, edited.work)
        trial = suite.Stage(edited.folder, TRIAL)
        out.append((interp, mode, trial, _only(trial, tests, first.folder.make)))
        trials.encodings.append(encoding)
    trials.planned += out
    return out


def _only(stage, tests, make=None):
    """The Job of `stage` running only `tests` (--utf8env-only): its folder's run, or
    `make`'s (another folder's: its Python and mode)."""
    only = stage.path(ONLY)
    with open(only, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write("".join(t + "\n" for t in tests))
    return (make or stage.folder.make)(stage, extra=["--utf8env-only=" + stage.inside(only)])


def follow_up(planned, runs, workers, project, pythons, world, args, environ, timeout,
              execute, started, show_all=False, not_copied=(), scanned=None, cores=None):
    """The ReadinessResult of the first runs (`runs`, the Ran of `planned`): the tests
    that changed run again in both modes (with the trials that are reruns too, AS_RERUN)
    and the other trials of their fixes (`execute(jobs, unit)` -> ([Ran], workers): a
    batch, its progress counted in `unit`); then the calls no test exercised (untested();
    `scanned`: the Scan of the project started with the runs).

    Where the `cores` (default: this machine's) run every one of those runs at once, they
    are one batch (the other trials in fresh copies), and the trials of a change the
    reruns find unstable are dropped. Where they do not, the reruns run first, and the
    other trials then run in the reruns' copies (in_place), only for the changes the
    reruns confirm: the same number of rounds of runs when every change holds, one round
    fewer when none does, and no copy made while the reruns run."""
    if scanned is not None:
        scanned.thread.join()       # done before this process edits the trials' copies
    read = compare.read_runs(planned, runs)         # once: progress, outcomes, records

    def result_of(reruns):
        return compare.compare(args, world, planned, runs, workers, time.monotonic() - started,
                               show_all=show_all, reruns=reruns, not_copied=not_copied,
                               read=read)

    wanted = compare.rerun_wanted(planned, runs, read)
    offset = project_offset(planned)
    trials = Plan()
    try:
        if wanted:
            # Every test that differs is a change until its rerun says otherwise.
            trials = plan(project, offset, result_of(()), pythons, world, args, environ,
                          timeout, first=planned, reruns=wanted)
            merged = {interp.version for interp, _, _, _ in trials.planned}
            again = suite.plan_rerun(planned, {v: ids for v, ids in wanted.items()
                                               if v not in merged}) + trials.planned
            shared = len(again) - len(trials.planned)      # where the AS_RERUN trials start
            at_once = len(again) + len(trials.others) <= (cores or os.cpu_count() or 1)
            more = fresh(trials, wanted) if at_once else []
            ran = execute(again + more, RERUNS_AND_TRIALS if more else RERUNS)[0]
            reruns = list(zip(again, ran))
            result = result_of(reruns)
            trials.groups, trials.wanted = _wanted(result)
            if trials.planned and trials.wanted:
                if not at_once:
                    more = in_place(trials, trials.wanted)
                    ran = ran + (execute(more, TRIALS)[0] if more else [])
                result = measure(trials, ran[shared:], result, started)
        else:
            result = result_of(())
    finally:
        remove(trials)
    # A run that did not complete leaves calls unreached that a test would reach: the
    # untested calls are said only when every run completed.
    return result._replace(untested=untested(project, offset, result, scanned)
                           if result.complete else None)


def remove(trials):
    """Remove the trials' folders (their fresh copies)."""
    copies.remove_all(trials.folders)


def _state(x, y):
    """(verdict, phrase) of one changed test in a trial: its outcomes mode off, mode on."""
    if x is None or y is None:
        return NOT_RUN, "did not run in %s" % (
            "either mode" if x is None and y is None else
            "the run with UTF-8 mode %s" % ("off" if x is None else "on"))
    if x == y:
        if x.outcome == "passed":
            return PASSES, "passes in both modes"
        return FAILS, compare._said(x).replace(" (", " in both modes (", 1) if x.message \
            else compare._said(x) + " in both modes"
    return CHANGES, "still changes (%s)" % compare.first_difference(x, y)


def measure(trials, runs, result, started):
    """The result with each changed-test site's two fixes as measured by `runs` (the Ran
    of trials.planned), the trials, and the timing with those runs counted."""
    read = compare.read_runs(trials.planned, runs)
    shared = {id(read[i]) for i in trials.shared}      # counted as reruns already
    by = {}
    for r, encoding in zip(read, trials.encodings):
        by.setdefault((r.interp.version, encoding), {})[r.mode] = r
    states = {}             # (encoding, test) -> [(python, verdict, phrase)]
    made, counted = [], []
    in_groups = {w for ws, _ in trials.groups for w in ws}
    for (python, encoding), modes in sorted(by.items()):
        a, b = modes.get(TODAY), modes.get(PEP686)
        if a is None or b is None or not trials.wanted.get(python):
            continue
        out_a, out_b = compare._outcomes(a, b)
        rows = []
        for test in trials.wanted.get(python, ()):
            k = junit.key(test)
            x, y = out_a.get(k), out_b.get(k)
            states.setdefault((encoding, test), []).append((python,) + _state(x, y))
            rows.append([test, x, y])
        edited, refused = trials.edits.get(encoding, ({}, {}))
        suites = [r.suite(o) for r, o in zip((a, b), (out_a, out_b))]
        counted += [run for run, r in zip(suites, (a, b)) if id(r) not in shared]
        made.append(Trial(
            python=python, encoding=encoding,
            sites=sorted((w for w in edited if w in in_groups), key=compare._site_key),
            not_edited=[[w, refused[w]] for w in sorted(refused, key=compare._site_key)
                        if w in in_groups],
            tests=rows, runs=suites))
    fixes = {}
    for sites, tests in trials.groups:
        fixes.update(_group_fixes(sites, tests, trials, states))
    shown = [_with(s, fixes.get(s.where)) for s in result.call_sites]
    suites = counted
    t = result.timing
    timing = Timing(wall_seconds=round(time.monotonic() - started, 3),
                    cell_seconds=round(t.cell_seconds + sum(s.seconds for s in suites), 3),
                    workers=t.workers, jobs=t.jobs + len(suites))
    complete = result.complete     # a trial that did not complete is said per site only
    return result._replace(call_sites=shown, advice=made, timing=timing, complete=complete)


def _with(site, fixes):
    """The site with its measured fixes; a site of a group that changed nothing itself
    keeps its words (no test changes; fix them together) and gets the group's verdicts:
    `fix --from` gives the whole group the same encoding."""
    if fixes is None:
        return site
    if site.changed_tests:
        return site._replace(fixes=fixes)
    return site._replace(fixes=[f._replace(measured=m.measured)
                                for f, m in zip(site.fixes, fixes)])


def _phrases(states, tests):
    """"T passes in both modes; U still changes (...)", the Pythons named when several
    say different things; and the verdict of them all (the worst)."""
    pythons = {p for test in tests for p, _, _ in states.get(test, ())}
    out, verdicts = [], []
    for test in sorted(tests):
        seen = {}
        for python, verdict, phrase in states.get(test, ()):
            seen.setdefault((verdict, phrase), []).append(python)
            verdicts.append(verdict)
        for (verdict, phrase), where in seen.items():
            several = len(pythons) > 1 and len(seen) > 1
            out.append("%s %s%s" % (test, phrase, " on " + ", ".join(where) if several else ""))
    verdict = next((v for v in _WORST if v in verdicts), NOT_RUN)
    return "; ".join(out) or "no changed test ran", verdict


def _group_fixes(sites, tests, trials, states):
    """{where: [Fix utf-8, Fix locale]} of one group."""
    measured = {}
    for encoding in ENCODINGS:
        edited, refused = trials.edits.get(encoding, ({}, {}))
        phrases, verdict = _phrases({t: states.get((encoding, t), ()) for t in tests}, tests)
        if not any(w in edited for w in sites):
            verdict = NOT_EDITED if trials.edits else NOT_RUN
        measured[encoding] = (phrases, verdict, edited, refused)
    neither = all(measured[e][1] in (FAILS, CHANGES) for e in ENCODINGS)
    out = {}
    for where in sites:
        partners = [w for w in sites if w != where]
        together = ("; measured together with %s, which the same tests use: fix them together"
                    % ", ".join(partners)) if partners else ""
        fixes = []
        for encoding in ENCODINGS:
            phrases, verdict, edited, refused = measured[encoding]
            if where in refused:
                why = refused[where]
                if verdict in (NOT_EDITED, NOT_RUN) and not any(w in edited for w in sites):
                    means = NOT_MEASURED + why
                else:
                    means = "%s; measured with the rest of its group edited: %s%s" % (
                        why, phrases, together)
                fixes.append(Fix(encoding, means, NOT_EDITED))
                continue
            if verdict == NOT_RUN and not trials.edits:
                means = "not measured (no copy could be edited)"
            elif verdict == NOT_RUN and trials.unmade:
                means = NOT_MEASURED + trials.unmade
            else:
                means = "measured: " + phrases + together
                others = [w for w in partners if w in refused]
                if others:
                    means += "; not edited: %s (%s)" % (", ".join(others), refused[others[0]])
            if encoding == ENCODINGS[-1] and neither:
                means += ("; neither fix makes the tests pass in both modes: not the encoding "
                          "of these call sites")
            fixes.append(Fix(encoding, means, verdict))
        out[where] = fixes
    return out


# -- the calls no test exercised ---------------------------------------------------------

def scan(root):
    """[(file relative to `root`, [the scan's Site])]: the calls the fixer's scan finds
    in the files under `root` it walks (those of `utf8env fix`)."""
    out = []
    for path in files.walk(root):
        try:
            if not prefilter.candidate(edit.read_bytes(path)):
                continue
        except edit.Unreadable:
            continue
        sites, _ = apply.scan_file(path, "utf-8")
        if sites:
            out.append((os.path.relpath(path, root), sites))
    return out


class Scan(object):
    """scan(project) in a thread, started before the runs: they run in other processes,
    this one only waits for them. sites() waits for it, before any other use of the
    fixer in this process (scan_file's catch_warnings is this process's)."""

    def __init__(self, project):
        import threading
        self.project, self.found, self.error = project, None, None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        try:
            self.found = scan(self.project)
        except Exception as error:         # said where the result is asked for
            self.error = error

    def sites(self):
        self.thread.join()
        if self.error is not None:
            raise self.error
        return self.found


def untested(project, offset, result, scanned=None):
    """[UntestedSite]: the calls the fixer's scan finds under pytest's rootdir in the
    project (the folders `utf8env fix` walks) whose lines hold no call site that warned
    in either run; None when the rootdir is outside the project, or when no run could
    record a call site (every Python before 3.10: each call would seem untested).
    `scanned`: the Scan of the project, when the rootdir is the project."""
    if offset is None or not set(r.python for r in result.runs) - set(result.unrecorded):
        return None
    root = os.path.normpath(os.path.join(project, offset))
    found = scanned.sites() if scanned is not None and offset == "." else scan(root)
    warned = {}
    for s in result.call_sites:
        warned.setdefault(s.file, set()).add(s.line)
    out = []
    for name, sites in found:
        lines = warned.get(name, ())
        for site in sites:
            if not any(site.line <= line <= site.end for line in lines):
                out.append(UntestedSite(file=name, line=site.line, call=site.call,
                                        verdict=site.verdict))
    return out
