"""`utf8env fix --prove [--encoding E | --from REPORT.json] PATH... -- pytest ARGS...`:
the fix applied in copies of the project (never the user's files), the suite run through
readiness's machinery (utf8env.readiness._suite: a copy per run, a locale world, the
runs at once, each supervised) three times per Python:

    unfixed, UTF-8 mode off     today's behaviour: the reference
    fixed,   UTF-8 mode off     the fix on today's Pythons
    fixed,   UTF-8 mode on      the fix on 3.15

A test whose outcome or output in a fixed run differs from the reference is a change
the fix makes (or does not prevent). Exit 0: no test changed; 1: the tests that changed
(each with the first difference); 2: bad input; 3: a run did not complete; 130:
interrupted. The project is the current folder; every PATH must be inside it.

It composes two tools, the fixer's edits (utf8env/fixer/) and readiness's runs
(utf8env/readiness/), so it sits above both, beside _commands.py, which dispatches
--prove here: neither tool imports the other for it."""
import os
import time

from ._engine.profiles import version_key
from ._environment import user_environ
from ._errors import UsageError
from .readiness._guard import INCOMPLETE, INTERRUPTED, RERUNS
from .readiness._results import PEP686, TODAY
from . import _pages as pages
from ._output import to_stderr, write
from .fixer import _measured
from .fixer._cli import LEFT, encodings_text, named, paths as source_files, process
from .readiness import _compare as compare, _format_words as format_words, _guard as guarded
from .readiness import _copies as copies, _suite as suite
from .readiness._guard import checked_pythons
from .readiness._unittest_runner import Args

UNFIXED, FIXED = "unfixed", "fixed"


def _split(operands):
    if "--" not in operands:
        raise UsageError("fix --prove: no suite given: expected PATH... -- pytest ARGS...")
    at = operands.index("--")
    paths, command = operands[:at], operands[at + 1:]
    if not command:
        raise UsageError("fix --prove: no COMMAND after --: expected pytest ARGS...")
    return paths, command


def run(options, operands, usage=None):
    paths, command = _split(operands)
    if (options.mode or "list") != "list":
        raise UsageError("fix --prove changes copies only: --check, --diff and --write do "
                         "not go with it")
    source_files(paths, usage=usage)         # the usage errors of a bad PATH
    project = os.path.realpath(guarded.project("fix --prove"))
    for path in paths:
        real = os.path.realpath(path)
        if real != project and not real.startswith(project + os.sep):
            raise UsageError("fix --prove: %s is not inside the project (the current "
                             "folder, which is copied)" % path)
    args = guarded.pytest_args(command)
    world = options.world or suite.DEFAULT_WORLD
    suite.env_set(world)
    timeout = guarded.checked_timeout(options.timeout)
    try:
        with guarded.Guard("fix --prove") as guard:
            return _prove(options, paths, args, world, timeout, project, guard)
    except (guarded.Interrupted, KeyboardInterrupt):
        to_stderr("utf8env: fix --prove: interrupted; the runs were stopped\n")
        return INTERRUPTED


def _prove(options, paths, args, world, timeout, project, guard):
    pythons = checked_pythons(options.python, user_environ(), not isinstance(args, Args))
    problem = suite.world_problem(world, pythons)
    if problem:
        raise UsageError("fix --prove: " + problem)
    encoding = options.encoding or "utf-8"
    report = None
    if options.report:
        report = _measured.load(options.report)
    started = time.monotonic()
    environ = user_environ()
    reference, folders = suite.plan(project, pythons, world, args, environ, timeout, [],
                                    modes=(TODAY,))
    try:
        fixed, more = suite.plan(project, pythons, world, args, environ, timeout, [])
        folders += more
        tally = None
        for _, _, stage, _ in fixed:
            counted = _fix_copy(stage.work, project, paths, encoding, report,
                                getattr(options, "exclude", None) or ())
            tally = tally or counted
        planned = reference + fixed
        kinds = [UNFIXED] * len(reference) + [FIXED] * len(fixed)
        runs, workers = guard.execute(planned, world)
        # The tests that differ run again in all three runs, in the same copies: one whose
        # rerun differs from its own first run is unstable, as readiness calls it, and
        # not a change the fix makes (a timestamp in its output, a race).
        wanted = _differing(_compared(compare.read_runs(planned, runs), kinds))
        reruns = []
        if wanted:
            again = suite.plan_rerun(planned, wanted)
            reruns = list(zip(again, guard.execute(again, world, RERUNS)[0]))
        page, status = _report(planned, kinds, runs, workers, time.monotonic() - started,
                               args, world, tally, encoding, report is not None, reruns)
    finally:
        copies.remove_all(folders)
    write(page)
    return status


def _fix_copy(work, project, paths, encoding, report, exclude=()):
    """Fix the PATHs in the copy `work` (as --write would); (sites fixed, to review,
    files edited, {encoding: sites fixed}, [(name, line, why)] of --from's report not
    applied), as `fix --write` counts and lists them."""
    copies = [os.path.join(work, os.path.relpath(os.path.realpath(p), project)) for p in paths]
    fixed = review = edited = 0
    used, left = {}, []
    here = os.getcwd()
    os.chdir(work)                  # --from names files relative to the project
    try:
        files = source_files(copies, exclude)
        for path in files:
            error, rows, _ = process(path, encoding, "write", report, True)
            if any(row[3] == "fix" for row in rows):
                edited += 1
            for row in rows:
                if row[3] == LEFT:
                    left.append((named(os.path.relpath(path, work)), row[0], row[4]))
                elif row[3] == "review":
                    review += 1
                else:
                    fixed += 1
                    used[row[5]] = used.get(row[5], 0) + 1
        if report is not None:
            left += [(named(where), line, "not among the files given")
                     for where, line in _measured.not_given(report, files)]
    finally:
        os.chdir(here)
    return fixed, review, edited, used, left


def _plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


# The three runs of each Python, in the order compared: the first is the reference.
ORDER = ((UNFIXED, TODAY), (FIXED, TODAY), (FIXED, PEP686))
NAMES = {ORDER[0]: "unfixed, UTF-8 mode off", ORDER[1]: "fixed, UTF-8 mode off",
         ORDER[2]: "fixed, UTF-8 mode on"}


def _compared(read, kinds):
    """{python: ([its three runs read, in ORDER], [their outcomes by test key])}: their
    cases (with each test's output) when all three ended, else their progress files."""
    by = {}
    for r, kind in zip(read, kinds):
        by.setdefault(r.interp.version, {})[(kind, r.mode)] = r
    out = {}
    for python, runs_of in by.items():
        got = [runs_of.get(key) for key in ORDER]
        if any(r is None for r in got):
            continue
        if all(r.cases is not None for r in got):
            out[python] = (got, [r.cases for r in got])
        else:
            out[python] = (got, [r.by_progress() for r in got])
    return out


def _differing(compared):
    """{python: [node id]} of the tests whose outcome or output in a fixed run is not the
    reference's."""
    out = {}
    for python, (got, outcomes) in compared.items():
        ids = [compare.node_id(k, got[1], got[2]) for k in sorted(set().union(*outcomes))
               if any(o.get(k, compare.ABSENT) != outcomes[0].get(k, compare.ABSENT)
                      for o in outcomes[1:])]
        if ids:
            out[python] = ids
    return out


def _report(planned, kinds, runs, workers, wall, args, world, tally, encoding, measured,
            reruns=()):
    """(the page, the exit status). `reruns`: [(planned, Ran)] of the differing tests run
    again, in the order of `planned`."""
    read = compare.read_runs(planned, runs)
    again = compare.read_runs([p for p, _ in reruns], [r for _, r in reruns])
    kind_of = {id(p[2].folder): kind for p, kind in zip(planned, kinds)}
    rerun_of = {}           # (python, kind, mode): the rerun read (in its first run's copy)
    for (p, _), r in zip(reruns, again):
        rerun_of[(r.interp.version, kind_of[id(p[2].folder)], r.mode)] = r
    es = suite.env_set(world)
    fixed, review, files, used, left = tally or (0, 0, 0, {}, [])
    runner = "python -m unittest" if type(args).__name__ == "Args" else "pytest"
    out = ["utf8env fix --prove -- %s" % " ".join([runner] + list(args))]
    out += pages.wrap("fixed in copies: %s (%s%s) in %s; %d to review, left as they are" % (
        _plural(fixed, "call site"), encodings_text(used, encoding),
        ", as the report measured" if measured else "", _plural(files, "file"), review),
        pages.WIDTH, "", "  ")
    if left:
        out.append("%s of the report not applied, left as they are:" % _plural(len(left),
                                                                           "call site"))
        for name, line, why in left:
            out += pages.wrap("%s:%d: %s" % (name, line, why), pages.WIDTH, "  ", "    ")
    out += pages.wrap("world %s: %s (%s)" % (es.name, es.description, ", ".join(
        "%s=%s" % kv for kv in sorted(dict(es.variables).items()))), pages.WIDTH, "", "  ")
    out.append("")
    body, changed, unstable, bad, tests = [], [], [], [], set()
    for python, (got, outcomes) in sorted(_compared(read, kinds).items(),
                                          key=lambda item: version_key(item[0])):
        for key, r, o in zip(ORDER, got, outcomes):
            counts = {}
            for x in o.values():
                counts[x.outcome] = counts.get(x.outcome, 0) + 1
            counts = {k: counts[k] for k in compare.OUTCOME_ORDER if k in counts}
            body.append([python, NAMES[key], r.ran.returncode if r.ran.returncode is not None
                         else "-", format_words.counts_text(counts), "%.1f" % r.ran.seconds])
            if r.problem:
                bad.append("%s, %s: %s" % (python, NAMES[key], r.problem))
        second = [rerun_of.get((python,) + key) for key in ORDER]
        for key, r in zip(ORDER, second):
            if r is not None and r.problem:
                bad.append("%s, %s, run again: %s" % (python, NAMES[key], r.problem))
        second = [None if r is None else (r.cases if r.cases is not None else r.by_progress())
                  for r in second]
        base = outcomes[0]
        for k in sorted(set().union(*outcomes)):
            tests.add(k)
            was = base.get(k, compare.ABSENT)
            diffs = []
            for key, o in zip(ORDER[1:], outcomes[1:]):
                now = o.get(k, compare.ABSENT)
                if now != was:
                    diffs.append("%s: %s" % (NAMES[key], compare.first_difference(was, now)))
            if not diffs:
                continue
            name = "%s [%s]" % (compare.node_id(k, got[1], got[2]), python)
            moved = [(key, o.get(k, compare.ABSENT), s[k]) for key, o, s in
                     zip(ORDER, outcomes, second) if s is not None and k in s
                     and s[k] != o.get(k, compare.ABSENT)]
            if moved:
                unstable.append((name, ["%s: %s" % (NAMES[key], format_words.unstable_pair(
                    (first, then))) for key, first, then in moved]))
            else:
                changed.append((name, diffs))
    out += [pages.table(["python", "run", "exit", "tests", "seconds"], body, pages.WIDTH), ""]
    if bad:
        out.append("Runs that did not complete:")
        for line in bad:
            out += pages.wrap(line, pages.WIDTH, "  ", "    ")
        out.append("")
    if unstable:
        out += pages.wrap("Unstable tests (a different result when run again, the same code in "
                          "the same mode; not counted as changes):", pages.WIDTH, "", "  ")
        for name, lines in unstable:
            out.append("  " + name)
            for line in lines:
                out += pages.wrap(line, pages.WIDTH, "    ", "      ")
        out.append("")
    if changed:
        out.append("Tests that change with the fix (against the unfixed code, UTF-8 mode off):")
        for name, diffs in changed:
            out.append("  " + name)
            for line in diffs:
                out += pages.wrap(line, pages.WIDTH, "    ", "      ")
        out.append("")
    if again:
        out += pages.wrap("The tests that differ ran again in the same copies (%s): %d differ "
                          "again, %d unstable." % (_plural(len(again), "run"), len(changed),
                                                   len(unstable)), pages.WIDTH, "", "  ")
    if changed:
        out.append("The fix changes %d of %s.%s" % (
            len(changed), _plural(len(tests), "test"), " %s not counted (unstable)." % _plural(
                len(unstable), "test") if unstable else ""))
    else:
        out += pages.wrap("No test changed: the fixed code gives every test (%d) the unfixed "
                          "code's outcome and output, with UTF-8 mode off and on.%s" % (
                              len(tests), " %s not counted (unstable)." % _plural(
                                  len(unstable), "test") if unstable else ""),
                          pages.WIDTH, "", "")
    out.append("%s on %s, %.1f s" % (_plural(len(read) + len(again), "run"),
                                     _plural(workers, "worker"), wall))
    status = INCOMPLETE if bad else (1 if changed else 0)
    return "\n".join(out) + "\n", status
