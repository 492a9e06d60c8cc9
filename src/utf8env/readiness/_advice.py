"""Measured advice: the two fixes TRIED, not predicted. For the tests that changed, the
call sites their warnings came from (with the sites the same tests use: one group, fixed
together) get encoding="utf-8" in fresh copies of the project, and encoding="locale" in
others, by the fixer's own edit (utf8env.fixer._apply, by file:line); the changed tests
then run again (--utf8env-only) in both modes in each copy, every run at once through the
world runner: 4 runs per Python with changed tests (2 fixes x 2 modes), whatever the
number of groups (each group's sites are edited in the same copies; no test of one group
uses a site of another). What each gave is what the report says per site:

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

from ..matrix._results import Timing
from . import _compare as compare, _junit as junit, _suite as suite
from ._results import PEP686, TODAY, Fix, Trial, UntestedSite

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
    encoding of each, the folders to remove, the groups, the edits per encoding."""

    def __init__(self):
        self.planned, self.encodings, self.folders = [], [], []
        self.groups, self.edits, self.wanted = [], {}, {}


def plan(project, offset, result, pythons, world, args, environ, timeout):
    """The Plan of the trials: for each encoding, the project copied for both modes of
    each Python with changed tests in a group, the group's sites edited in every copy,
    the changed tests to run (--utf8env-only)."""
    out = Plan()
    out.groups = groups(result)
    in_groups = set().union(*(tests for _, tests in out.groups)) if out.groups else set()
    for c in result.changed:
        if c.test in in_groups and c.test not in out.wanted.get(c.python, []):
            out.wanted.setdefault(c.python, []).append(c.test)
    sites = sorted({w for ws, _ in out.groups for w in ws}, key=compare._site_key)
    chosen = [p for p in pythons if p.version in out.wanted]
    if not chosen or not sites or offset is None:
        return out
    from ..fixer import _apply
    try:
        for encoding in ENCODINGS:
            planned, folders = suite.plan(project, chosen, world, args, environ, timeout, [])
            out.folders += folders
            for interp, mode, stage, _ in planned:
                out.edits[encoding] = _apply.at_sites(
                    os.path.join(stage.work, offset), sites, encoding)
                only = stage.path(ONLY)
                with open(only, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write("".join(t + "\n" for t in out.wanted[interp.version]))
                job = stage.folder.make(stage, extra=["--utf8env-only=" + stage.inside(only)])
                out.planned.append((interp, mode, stage, job))
                out.encodings.append(encoding)
    except BaseException:
        remove(out)
        raise
    return out


def remove(trials):
    for folder in trials.folders:
        folder.remove()


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
    return CHANGES, "still changes (%s)" % compare._first_difference(x, y)


def measure(trials, runs, result, started):
    """The result with each changed-test site's two fixes as measured by `runs` (the Ran
    of trials.planned), the trials, and the timing with those runs counted."""
    read = compare._read(trials.planned, runs)
    by = {}
    for r, encoding in zip(read, trials.encodings):
        by.setdefault((r.interp.version, encoding), {})[r.mode] = r
    states = {}             # (encoding, test) -> [(python, verdict, phrase)]
    made = []
    for (python, encoding), modes in sorted(by.items()):
        a, b = modes.get(TODAY), modes.get(PEP686)
        if a is None or b is None:
            continue
        out_a, out_b = compare._outcomes(a, b)
        rows = []
        for test in trials.wanted.get(python, ()):
            k = junit.key(test)
            x, y = out_a.get(k), out_b.get(k)
            states.setdefault((encoding, test), []).append((python,) + _state(x, y))
            rows.append([test, x, y])
        edited, refused = trials.edits.get(encoding, ({}, {}))
        made.append(Trial(
            python=python, encoding=encoding, sites=sorted(edited, key=compare._site_key),
            not_edited=[[w, refused[w]] for w in sorted(refused, key=compare._site_key)],
            tests=rows,
            runs=[r.suite(compare._outcomes(a, b)[i]) for i, r in enumerate((a, b))]))
    fixes = {}
    for sites, tests in trials.groups:
        fixes.update(_group_fixes(sites, tests, trials, states))
    shown = [_with(s, fixes.get(s.where)) for s in result.call_sites]
    suites = [run for t in made for run in t.runs]
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
                    means = "not measured: %s" % why
                else:
                    means = "%s; measured with the rest of its group edited: %s%s" % (
                        why, phrases, together)
                fixes.append(Fix(encoding, means, NOT_EDITED))
                continue
            if verdict == NOT_RUN and not trials.edits:
                means = "not measured (no copy could be edited)"
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

def untested(project, offset, result):
    """[UntestedSite]: the calls the fixer's scan finds under pytest's rootdir in the
    project (the folders `utf8env fix` walks) whose lines hold no call site that warned
    in either run; None when the rootdir is outside the project."""
    if offset is None:
        return None
    from ..fixer import _apply, _cli as fixer_cli, _edit, _scan
    root = os.path.normpath(os.path.join(project, offset))
    warned = {}
    for s in result.call_sites:
        warned.setdefault(s.file, set()).add(s.line)
    out = []
    for path in fixer_cli._walk(root):
        try:
            if not _scan.candidate(_edit.read_bytes(path)):
                continue
        except _edit.Unreadable:
            continue
        sites, _ = _apply.scan_file(path, "utf-8")
        if not sites:
            continue
        name = os.path.relpath(path, root)
        lines = warned.get(name, ())
        for site in sites:
            if not any(site.line <= line <= site.end for line in lines):
                out.append(UntestedSite(file=name, line=site.line, call=site.call,
                                        verdict=site.verdict))
    return out
