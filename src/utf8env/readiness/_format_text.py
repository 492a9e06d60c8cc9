"""The text page of a readiness result: compact, every line fits the terminal: the runs,
one line per call site with the tests it changes, how those tests change, what was not
compared and the verdict."""
from .. import _pages as pages
from .._engine.profiles import version_key
from ._format_words import (TRIED, advice_runs, all_runs, changes_by_test, counts_text, flag,
                            is_test_code, notes, run_name, sites_in_order, suite_command,
                            unstable_line, variables, verdict)
from ._results import NOT_MEASURED


def _title(result):
    return "utf8env readiness -- %s" % suite_command(result)


def text(result, columns=pages.WIDTH):
    """The compact page: the runs, one line per call site with the tests it changes
    (product code before test code), how those tests change, the changed tests no site
    warned in, then what was not compared and the verdict. Every line fits `columns`;
    the full detail (each fix's words, every test's outcomes) is --format json/markdown's."""
    out = [_title(result)]
    out += pages.wrap("world %s: %s (%s)" % (result.world, result.environment, variables(result)),
                      columns, "", "  ")
    out.append("")
    head = ["python", "run", "UTF-8 mode", "filesystem", "locale", "tests", "seconds"]
    body = [[r.python, r.mode, flag(r.utf8_mode), r.filesystem_encoding or "-",
             r.locale_encoding or "-", counts_text(r.counts), "%.1f" % r.seconds] for r in result.runs]
    out += [pages.table(head, body, columns, squeeze=5), ""]
    bad = [r for r in all_runs(result) if not r.complete]
    if bad:
        out.append("Runs that did not complete (only the tests both runs finished are compared):")
        for r in bad:
            out += pages.wrap("%s: %s" % (run_name(r, result), r.problem), columns, "  ", "    ")
            for line in r.output:
                line = "    | " + line
                out.append(line if len(line) <= columns else line[:columns - 3] + "...")
        out.append("")
    if result.call_sites:
        out.append("Call sites that use the locale encoding, and the tests each changes with "
                   "UTF-8 mode:")
        for s in sites_in_order(result):
            out += pages.wrap(_compact_site(s, result), columns, "  ", "      ")
        out += pages.wrap(_SITES_KEY, columns, "  ", "  ")
        out.append("")
    pythons = sorted({r.python for r in result.runs}, key=version_key)
    warned = [(t, cs) for t, cs in changes_by_test(result.changed)
              if any(c.call_sites for c in cs)]
    quiet = [(t, cs) for t, cs in changes_by_test(result.changed)
             if not any(c.call_sites for c in cs)]
    unseen = [(t, cs) for t, cs in quiet if all(c.python in result.unrecorded for c in cs)]
    quiet = [x for x in quiet if x not in unseen]
    # One python: nothing to name; more: a change is on all of them unless it names some.
    where = ", on %s unless named" % ", ".join(pythons) if len(pythons) > 1 else ""
    for heading, tests in (
            ("How they change (the first difference%s):" % where, warned),
            ("Tests that change with no call site warned (from elsewhere: the filesystem "
             "encoding, stdio)%s:" % where, quiet),
            ("Tests that change on Python %s, where no call site is recorded (what changes "
             "them is not known)%s:" % (", ".join(result.unrecorded), where), unseen)):
        if tests:
            out += pages.wrap(heading, columns, "", "  ")
            for test, changes in tests:
                out += _compact_change(test, changes, pythons, columns)
            out.append("")
    if result.unstable:
        out.append("Unstable tests (a different result in two runs of the same mode; not "
                   "counted as changes):")
        for u in result.unstable:
            out += pages.wrap("%s [%s]: %s" % (u.test, u.python, unstable_line(u)), columns,
                              "  ", "      ")
        out.append("")
    if result.filtered:
        out += pages.wrap("EncodingWarning made an error by the suite's own warning filters "
                          "(recorded here instead; with those filters, these tests fail wherever "
                          "the warning is raised: Python 3.10+ with -X warn_default_encoding):",
                          columns, "", "  ")
        for test, how in result.filtered:
            out += pages.wrap("%s%s" % (test, "" if how == "filter" else
                                        " (the test itself turns it into an error, and failed)"),
                              columns, "  ", "      ")
        out.append("")
    if result.hidden_sites:
        out += pages.wrap("%s in the standard library and site-packages not shown (--all shows "
                          "them)" % pages.plural(result.hidden_sites, "more call site"),
                          columns, "", "  ")
        out.append("")
    for line in notes(result) + [verdict(result)]:
        out += pages.wrap(line, columns, "", "  ")
    t = result.timing
    out += _untested_lines(result, columns)
    out += pages.wrap("%s on %s, %.1f s (their own time %.1f s)%s" % (
        pages.plural(t.jobs, "run"), pages.plural(t.workers, "worker"), t.wall_seconds,
        t.cell_seconds, advice_runs(result)), columns, "", "  ")
    return "\n".join(out) + "\n"


_SITES_KEY = ('(encoding="utf-8": the 3.15 behaviour on every version; encoding="locale": '
              "today's kept on 3.15, Python 3.10+; \"with\": the sites the same tests use, "
              "measured together: fix them together)")


def _partners(s, result):
    """The other sites the same tests use (measured together with this one): compare.py's
    words when it says them (hidden sites included), else from the sites shown."""
    for f in s.fixes or ():
        said = f.means.partition("measured together with ")[2]
        if said:
            return said.partition(", which the same tests use")[0].split(", ")
    mine = set(s.tests)
    return [o.where for o in result.call_sites if o is not s and mine & set(o.tests)]


def _tried(s):
    """What trying the two fixes gave (_advice.py), when they were tried."""
    measured = [(f.encoding, f.measured) for f in s.fixes or () if f.measured]
    if not measured:
        return ""
    said = "; tried: " + ", ".join('"%s" %s' % (e, TRIED.get(m, m)) for e, m in measured)
    if all(m in ("fails", "changes") for _, m in measured) and len(measured) > 1:
        said += " (not the encoding of these call sites)"
    # why the trials did not run, when they could not be made (_advice.others)
    why = {f.means for f in s.fixes if f.measured == "not run" and f.means.startswith(NOT_MEASURED)}
    if len(why) == 1:
        said += " (%s)" % why.pop()
    return said


def _compact_site(s, result):
    tags = [s.origin] if s.origin != "user" else []
    if is_test_code(s):
        tags.append("test code")
    partners = _partners(s, result)
    changes = ("changes " + ", ".join(s.changed_tests)) if s.changed_tests else "changes no test"
    return "%s in %s%s: %s, %s%s: %s%s" % (
        s.where, s.function or "?", "".join(" [%s]" % t for t in tags),
        pages.plural(s.count, "warning"), pages.plural(len(s.tests), "test"),
        ", with " + ", ".join(partners) if partners else "", changes, _tried(s))


def _compact_change(test, changes, pythons, columns):
    """A changed test once, its Pythons merged: "T: difference", or one line per
    difference with the Pythons named when they differ or are not all of the runs'."""
    by = {}
    for c in changes:
        by.setdefault(c.difference, []).append(c.python)
    out = []
    for difference, where in by.items():
        named = "" if sorted(where) == sorted(pythons) else " [%s]" % ", ".join(where)
        out += pages.wrap("%s%s: %s" % (test, named, difference), columns, "  ", "      ")
    return out


# -- measured advice and untested calls (readiness/_advice.py) ------------------------------

def _untested_lines(result, columns):
    """One line: the calls the fixer's scan finds that no test exercised, when any."""
    if not result.untested:
        return []
    where = ", ".join("%s:%d" % (u.file, u.line) for u in result.untested)
    return pages.wrap("Untested: %s the fixer's scan finds that no test exercised (no "
                      "EncodingWarning in either run), the 3.15 risk no test measures: %s"
                      % (pages.plural(len(result.untested), "call"), where),
                      columns, "", "  ")
