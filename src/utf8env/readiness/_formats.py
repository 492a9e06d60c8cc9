"""The pages of a readiness result (results.py): text, Markdown (the GitHub step
summary), GitHub workflow annotations, JUnit XML, JSON. Renders only; shares pages.py
with the matrix's reports."""
import json
import os
import re
import xml.etree.ElementTree as ElementTree

from .. import _pages as pages
from .._environment import user_environ
from .._engine.records import as_json
from . import FORMATS  # noqa: F401 (the formats render() knows)


def render(result, fmt, columns=pages.WIDTH):
    if fmt == "json":
        return json.dumps(as_json(result), indent=1, sort_keys=True, ensure_ascii=True) + "\n"
    return {"text": lambda r: text(r, columns), "markdown": markdown, "github": github,
            "junit": junit}[fmt](result)


def _flag(utf8_mode):
    return {0: "off", 1: "on"}.get(utf8_mode, "-")


def counts_text(counts):
    """A run's counts by outcome, in words: "3 passed, 1 failed"."""
    return ", ".join("%d %s" % (n, k) for k, n in counts.items()) or "no tests"


def _site_line(s):
    return "%s in %s%s: %s, %s" % (
        s.where, s.function or "?", "" if s.origin == "user" else " [%s]" % s.origin,
        pages.plural(s.count, "warning"), pages.plural(len(s.tests), "test"))


def _verdict(result):
    active = [s for s in result.call_sites if s.changed_tests]
    unstable = len({(u.python, u.test) for u in result.unstable})
    tail = (" %s not counted (unstable)." % pages.plural(unstable, "test")) if unstable else ""
    if not result.complete:
        bad = [r for r in _all_runs(result) if not r.complete]
        changes = len({c.test for c in result.changed})
        return "Incomplete: %d of %s did not complete; %s.%s" % (
            len(bad), pages.plural(len(_all_runs(result)), "run"),
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


def _no_sites(change, result):
    """What a changed test's empty list of call sites means on its Python."""
    if change.python in getattr(result, "unrecorded", ()):
        return "not recorded (Python %s has no EncodingWarning)" % change.python
    return "none warned"


def _all_runs(result):
    return list(result.runs) + list(result.reruns)


def _run_name(run, result):
    return "%s %s%s (UTF-8 mode %s)" % (run.python, run.mode, " rerun" if run in result.reruns
                                        and run not in result.runs else "",
                                        "on" if run.mode != "today" else "off")


def _brief(outcome):
    return outcome.outcome + (" (%s)" % outcome.message if outcome.message and
                              outcome.outcome != "passed" else "")


def unstable_pair(pair):
    """A test's two outcomes in the same mode (readiness's runs, fix --prove's), in words."""
    if pair[0] == pair[1]:
        return "%s twice" % _brief(pair[0])
    if (pair[0].outcome, pair[0].message) == (pair[1].outcome, pair[1].message):
        return "%s twice, the output differing" % _brief(pair[0])
    return "%s, then %s" % (_brief(pair[0]), _brief(pair[1]))


def _unstable_line(u):
    return "UTF-8 mode off: %s; on: %s" % (unstable_pair(u.today), unstable_pair(u.utf8_mode))


def _notes(result):
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


def _variables(result):
    return " ".join("%s=%s" % kv for kv in sorted(result.variables.items())) or "nothing set"


def _suite_command(result):
    """The suite's command as the user gave it."""
    runner = "python -m unittest" if result.runner == "unittest" else "pytest"
    return " ".join([runner] + list(result.command))


def _title(result):
    return "utf8env readiness -- %s" % _suite_command(result)


def text(result, columns=pages.WIDTH):
    """The compact page: the runs, one line per call site with the tests it changes
    (product code before test code), how those tests change, the changed tests no site
    warned in, then what was not compared and the verdict. Every line fits `columns`;
    the full detail (each fix's words, every test's outcomes) is --format json/markdown's."""
    out = [_title(result)]
    out += pages.wrap("world %s: %s (%s)" % (result.world, result.environment, _variables(result)),
                      columns, "", "  ")
    out.append("")
    head = ["python", "run", "UTF-8 mode", "filesystem", "locale", "tests", "seconds"]
    body = [[r.python, r.mode, _flag(r.utf8_mode), r.filesystem_encoding or "-",
             r.locale_encoding or "-", counts_text(r.counts), "%.1f" % r.seconds] for r in result.runs]
    out += [pages.table(head, body, columns, squeeze=5), ""]
    bad = [r for r in _all_runs(result) if not r.complete]
    if bad:
        out.append("Runs that did not complete (only the tests both runs finished are compared):")
        for r in bad:
            out += pages.wrap("%s: %s" % (_run_name(r, result), r.problem), columns, "  ", "    ")
            for line in r.output:
                line = "    | " + line
                out.append(line if len(line) <= columns else line[:columns - 3] + "...")
        out.append("")
    if result.call_sites:
        out.append("Call sites that use the locale encoding, and the tests each changes with "
                   "UTF-8 mode:")
        for s in _sites_in_order(result):
            out += pages.wrap(_compact_site(s, result), columns, "  ", "      ")
        out += pages.wrap(_SITES_KEY, columns, "  ", "  ")
        out.append("")
    pythons = sorted({r.python for r in result.runs}, key=_version_key)
    warned = [(t, cs) for t, cs in _changes_by_test(result.changed)
              if any(c.call_sites for c in cs)]
    quiet = [(t, cs) for t, cs in _changes_by_test(result.changed)
             if not any(c.call_sites for c in cs)]
    unseen = [(t, cs) for t, cs in quiet if all(c.python in result.unrecorded for c in cs)]
    quiet = [x for x in quiet if x not in unseen]
    if warned:
        out.append("How they change (the first difference%s):" % (
            ", on %s unless named" % ", ".join(pythons) if len(pythons) > 1 else ""))
        for test, changes in warned:
            out += _compact_change(test, changes, pythons, columns)
        out.append("")
    if quiet:
        out += pages.wrap("Tests that change with no call site warned (from elsewhere: the "
                          "filesystem encoding, stdio)%s:" % (
                              ", on %s unless named" % ", ".join(pythons)
                              if len(pythons) > 1 else ""), columns, "", "  ")
        for test, changes in quiet:
            out += _compact_change(test, changes, pythons, columns)
        out.append("")
    if unseen:
        out += pages.wrap("Tests that change on Python %s, where no call site is recorded (what "
                          "changes them is not known)%s:" % (
                              ", ".join(result.unrecorded),
                              ", on %s unless named" % ", ".join(pythons)
                              if len(pythons) > 1 else ""), columns, "", "  ")
        for test, changes in unseen:
            out += _compact_change(test, changes, pythons, columns)
        out.append("")
    if result.unstable:
        out.append("Unstable tests (a different result in two runs of the same mode; not "
                   "counted as changes):")
        for u in result.unstable:
            out += pages.wrap("%s [%s]: %s" % (u.test, u.python, _unstable_line(u)), columns,
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
    for line in _notes(result) + [_verdict(result)]:
        out += pages.wrap(line, columns, "", "  ")
    t = result.timing
    out += _untested_lines(result, columns)
    out += pages.wrap("%s on %s, %.1f s (their own time %.1f s)%s" % (
        pages.plural(t.jobs, "run"), pages.plural(t.workers, "worker"), t.wall_seconds,
        t.cell_seconds, _advice_runs(result)), columns, "", "  ")
    return "\n".join(out) + "\n"


_SITES_KEY = ('(encoding="utf-8": the 3.15 behaviour on every version; encoding="locale": '
              "today's kept on 3.15, Python 3.10+; \"with\": the sites the same tests use, "
              "measured together: fix them together)")
_TEST_FILE = re.compile(r"(^|/)(tests/|test_[^/]*\.py$|[^/]*_test\.py$|conftest\.py$)")


def _is_test_code(s):
    """A site in the suite's own code: under a tests/ folder, in a test_*.py, *_test.py or
    conftest.py file, or in the file of one of the tests that hit it."""
    file = s.file.replace(os.sep, "/")
    return bool(_TEST_FILE.search(file)) or any(t.split("::")[0] == file for t in s.tests)


def _sites_in_order(result):
    """The call sites, product code before test code, those that change a test first in
    each, else in the result's (file) order."""
    sites = list(result.call_sites)
    return [sites[i] for i in sorted(range(len(sites)), key=lambda i: (
        _is_test_code(sites[i]), not sites[i].changed_tests, i))]


def _partners(s, result):
    """The other sites the same tests use (measured together with this one): compare.py's
    words when it says them (hidden sites included), else from the sites shown."""
    for f in s.fixes or ():
        said = f.means.partition("measured together with ")[2]
        if said:
            return said.partition(", which the same tests use")[0].split(", ")
    mine = set(s.tests)
    return [o.where for o in result.call_sites if o is not s and mine & set(o.tests)]


_TRIED = {"passes": "passes in both modes", "fails": "fails in both modes",
          "changes": "still changes", "not run": "not run", "not edited": "not edited"}


def _tried(s):
    """What trying the two fixes gave (_advice.py), when they were tried."""
    measured = [(f.encoding, f.measured) for f in s.fixes or () if f.measured]
    if not measured:
        return ""
    said = "; tried: " + ", ".join('"%s" %s' % (e, _TRIED.get(m, m)) for e, m in measured)
    if all(m in ("fails", "changes") for _, m in measured) and len(measured) > 1:
        said += " (not the encoding of these call sites)"
    return said


def _compact_site(s, result):
    tags = [s.origin] if s.origin != "user" else []
    if _is_test_code(s):
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


def _version_key(version):
    try:
        return tuple(int(x) for x in version.split("."))
    except ValueError:
        return (version,)


def markdown(result):
    """The whole report as Markdown (GitHub-flavoured tables, CommonMark-safe code spans):
    every finding text and JSON have, in the order step_summary() keeps them."""
    lines = []
    for _what, head, rows, tail in _markdown_blocks(result):
        lines += head + rows + tail
    return "\n".join(lines) + "\n"


# GitHub refuses a step summary over 1 MiB ("$GITHUB_STEP_SUMMARY upload aborted,
# supports content up to a size of 1024k", and shows none of it); a step's summary is
# everything written to the file, so an earlier command of the same step shares it:
# readiness keeps its own part under this, leaving the rest to those.
GITHUB_SUMMARY_BYTES = 1024 * 1024 - 64 * 1024
_LEFT_OUT_ROOM = 4096       # bytes kept for the line that says what was left out


def step_summary(result, limit=GITHUB_SUMMARY_BYTES):
    """(page, cut): markdown() kept under `limit` bytes (UTF-8) for $GITHUB_STEP_SUMMARY.
    Every block keeps its head (most important first: the verdict, the runs, the tests
    that change, the call sites, ...); the room left is shared among their rows, a block
    that needs less than an equal share taking what it needs and the others the rest
    equally (so 5,000 changed tests never push out every call site); each keeps its first
    rows that fit. When any row is left out, a last line counts them per kind and says
    where the whole report is."""
    whole = _markdown_blocks(result)
    blocks = [(what, [_clipped(l) for l in head], rows, [_clipped(l) for l in tail])
              for what, head, rows, tail in whole]
    clipped = sum(a != b for w, c in zip(whole, blocks)
                  for a, b in zip(w[1] + w[3], c[1] + c[3]))
    room = limit - _LEFT_OUT_ROOM - sum(_bytes(head) + _bytes(tail)
                                         for _, head, _, tail in blocks)
    shares = _shares([[_bytes([row]) for row in rows] for _, _, rows, _ in blocks], room)
    lines, left = [], []
    for (what, head, rows, tail), share in zip(blocks, shares):
        kept, used = [], 0
        for row in rows:
            used += _bytes([row])
            if used > share:
                break
            kept.append(row)
        if len(kept) < len(rows):
            left.append("%d of %d %s" % (len(rows) - len(kept), len(rows), what))
        if kept or not rows:
            lines += head + kept + tail
    if clipped:
        left.append("the end of %s" % pages.plural(clipped, "long line"))
    if left:
        lines.append("**Left out** to keep this summary under GitHub's 1 MiB limit: %s. The "
                     "whole report is in this step's log, after the annotations (or run "
                     "`utf8env readiness --format json`, which has every finding)."
                     % "; ".join(left))
    return "\n".join(lines) + "\n", bool(left)


def _clipped(line):
    """A heading or note line cut to _LINE_BYTES (UTF-8), so that the lines every summary
    keeps (a suite command of any length, the special files not copied) fit whatever
    they hold; the whole line is in the whole report."""
    if len(line.encode("utf-8", "surrogateescape")) <= _LINE_BYTES:
        return line
    cut = line.encode("utf-8", "surrogateescape")[:_LINE_BYTES - 64].decode(
        "utf-8", "ignore")
    return cut + " ... (cut here: the whole line is in the whole report)"


_LINE_BYTES = 16 * 1024     # a kept line's most: the heads of ten blocks stay far under


def _shares(sizes, room):
    """The bytes each list of row sizes gets of `room`: max-min fair (a list needing less
    than an equal share of what is left gets all it needs, the others share the rest)."""
    shares = [0] * len(sizes)
    wanting = sorted(range(len(sizes)), key=lambda i: sum(sizes[i]))
    room = max(room, 0)
    while wanting:
        equal = room // len(wanting)
        i = wanting[0]
        need = sum(sizes[i])
        if need > equal:
            for j in wanting:
                shares[j] = equal
            break
        shares[i] = need
        room -= need
        wanting.pop(0)
    return shares


def _bytes(lines):
    return sum(len(line.encode("utf-8", "surrogateescape")) + 1 for line in lines)


def _code(text):
    """`text` as a CommonMark code span: pages.md_code() (a fence longer than any run of
    backticks in it, a space inside each end when it starts or ends with one)."""
    return pages.md_code(text)


def _fenced(lines):
    """`lines` as a fenced code block whose fence (3 or more backticks) is longer than any
    run of backticks at the start of a line in them (CommonMark 4.5: a fence closes only
    on as many backticks or more)."""
    longest = max([len(l) - len(l.lstrip("`")) for l in lines] + [2])
    fence = "`" * (longest + 1)
    return [fence] + [l for l in lines] + [fence]


def _table_rows(head, body):
    """(the head and separator lines, [one line per row]) of pages.markdown_table()."""
    lines = pages.markdown_table(head, body).split("\n")
    return lines[:2], lines[2:]


def _table_block(what, title, head, body, tail=()):
    top, rows = _table_rows(head, body)
    return (what, ["### " + title, ""] + top, rows, [""] + list(tail))


def _markdown_blocks(result):
    """[(what the rows are, head lines, row lines, tail lines)], most important first:
    step_summary() keeps a block's head only with a row of it (or when it has none)."""
    blocks = [(None, ["## utf8env readiness: %s" % _code(_suite_command(result)), "",
                      "World %s: %s (%s). %s" % (_code(result.world), result.environment,
                                                 _code(_variables(result)), _verdict(result)),
                      ""], [], [])]
    top, rows = _table_rows(
        ["Python", "run", "UTF-8 mode", "filesystem", "locale", "tests", "seconds"],
        [[r.python, r.mode, _flag(r.utf8_mode), r.filesystem_encoding or "-",
          r.locale_encoding or "-", counts_text(r.counts), "%.1f" % r.seconds] for r in result.runs])
    blocks.append(("runs", top, rows, [""]))
    bad = [r for r in _all_runs(result) if not r.complete]
    if bad:
        blocks.append(("runs that did not complete", ["### Runs that did not complete", ""],
                       ["\n".join(["%s: %s" % (_run_name(r, result), r.problem), ""] +
                                  (_fenced(list(r.output)) + [""] if r.output else []))
                        for r in bad], []))
    if result.changed:
        blocks.append(_table_block(
            "changed tests", "Tests that change with UTF-8 mode",
            ["test", "Python", "first difference", "call sites"],
            [[_code(c.test), c.python, _code(c.difference),
              ", ".join(_code(s) for s in c.call_sites) or _no_sites(c, result)]
             for c in result.changed]))
    if result.call_sites:
        rows = []
        for s in _sites_in_order(result):
            tags = ([s.origin] if s.origin != "user" else []) + (
                ["test code"] if _is_test_code(s) else [])
            fixes = "<br>".join("%s: %s%s" % (_code('encoding="%s"' % f.encoding), f.means,
                                              _measured(f)) for f in s.fixes or ())
            rows.append(["%s in %s%s" % (_code(s.where), _code(s.function or "?"),
                                         "".join(" [%s]" % t for t in tags)),
                         s.count, len(s.tests),
                         ", ".join(_code(t) for t in s.changed_tests) or "none", fixes])
        blocks.append(_table_block(
            "call sites", "Call sites that use the locale encoding",
            ["call site", "warnings", "tests", "changed tests", "fixes"], rows))
    if result.untested:
        blocks.append(_table_block(
            "untested calls", "Untested: calls no test exercised",
            ["call", "what", "fixer"],
            [[_code("%s:%d" % (u.file, u.line)), _code(u.call),
              "adds encoding=" if u.verdict == "fix" else "review"] for u in result.untested],
            ["The fixer's scan finds these calls; no test exercised them (no EncodingWarning "
             "in either run): the 3.15 risk no test measures.", ""]))
    if result.unstable:
        blocks.append(_table_block(
            "unstable tests", "Unstable tests (not counted as changes)",
            ["test", "Python", "runs"],
            [[_code(u.test), u.python, _unstable_line(u)] for u in result.unstable]))
    if result.advice:
        blocks.append(_table_block(
            "fixes tried", "Fixes tried in copies of the project",
            ["Python", "fix", "sites edited", "not edited", "tests (UTF-8 mode off; on)"],
            [[t.python, _code('encoding="%s"' % t.encoding),
              ", ".join(_code(w) for w in t.sites) or "none",
              ", ".join("%s (%s)" % (_code(w), why) for w, why in t.not_edited) or "none",
              ", ".join("%s: %s; %s" % (_code(test), _brief(off), _brief(on))
                        for test, off, on in t.tests) or "none"]
             for t in result.advice]))
    if result.filtered:
        blocks.append(_table_block(
            "tests with EncodingWarning made an error", "EncodingWarning made an error by the "
            "suite's own warning filters",
            ["test", "how"],
            [[_code(test), "recorded here instead" if how == "filter" else
              "the test itself turns it into an error, and failed"]
             for test, how in result.filtered],
            ["With those filters, these tests fail wherever the warning is raised: Python "
             "3.10+ with -X warn_default_encoding.", ""]))
    tail = _notes(result)
    if result.hidden_sites:
        tail.append("%s in the standard library and site-packages not shown (`--all` shows "
                    "them)." % pages.plural(result.hidden_sites, "more call site"))
    t = result.timing
    tail.append("%s on %s, %.1f s (their own time %.1f s)%s." % (
        pages.plural(t.jobs, "run"), pages.plural(t.workers, "worker"), t.wall_seconds,
        t.cell_seconds, _advice_runs(result)))
    blocks.append(("notes", [" ".join(tail)], [], []))
    return blocks


def _measured(fix):
    """What trying `fix` gave, in the words of the text's "tried:", when it was tried."""
    return " (tried: %s)" % _TRIED.get(fix.measured, fix.measured) if fix.measured else ""


# -- GitHub workflow commands -------------------------------------------------------------
# GitHub shows at most 10 error, 10 warning and 10 notice annotations per step and 50 per
# job (the sum over its steps); what a step prints beyond that is dropped silently, in
# the order printed (actions/toolkit, docs/problem-matchers.md, "Limitations":
# https://github.com/actions/toolkit/blob/main/docs/problem-matchers.md#limitations).
# So the errors (the tests that change) come first, each kind is cut at 10 here, and one
# notice counts what was left out; the step summary (markdown(), which _cli.py appends
# to $GITHUB_STEP_SUMMARY) has everything. One step prints at most 21 of the job's 50.
GITHUB_PER_STEP = 10
GITHUB_MESSAGE = 500        # characters of a message as printed (escaped), "..." included
_FIXES = ('fix: encoding="utf-8" (the 3.15 behaviour on every version) or encoding="locale" '
          "(today's kept, Python 3.10+)")


def github(result, environ=None, cwd=None):
    """Workflow annotations, at most GITHUB_PER_STEP of each kind: an `::error` saying
    so when a run did not complete and one at the file of each test that changes (its
    Pythons merged), then a `::warning` at each call site, then one `::notice` counting
    those left out. `file=` is relative to $GITHUB_WORKSPACE (`cwd`, the project's
    folder, when that is not set), and left out for a file outside it; messages are one
    line of at most GITHUB_MESSAGE characters. The Markdown page (markdown()) is the
    step summary: _cli.py appends it to $GITHUB_STEP_SUMMARY (or prints it after)."""
    environ = user_environ() if environ is None else environ
    project = cwd or os.getcwd()
    workspace = environ.get("GITHUB_WORKSPACE") or project
    errors = [_test_annotation(test, changes, workspace, project, result)
              for test, changes in _changes_by_test(result.changed)]
    if not getattr(result, "complete", True):   # a run that did not complete: said first
        errors.insert(0, _command("error", _verdict(result), title="utf8env readiness: incomplete"))
    # Which call sites get a warning: those a changed test uses, first; the slots left
    # go to the sites that changed nothing in these tests, in file order. A site that
    # changed nothing still reads or writes text in the locale's encoding, which 3.15
    # changes: the tests just do not observe it, so it is a warning too, not an error.
    # But it must never push out a site that changes a test, and a ready project (say 65
    # such sites) shows at most 10 of them and a notice, the rest being in the summary.
    # (Leaving them out altogether would make a ready project's step show no warning;
    # tests/test_readiness.py expects a ready project's two sites as warnings.)
    # Shown in file order, as the summary lists them. Only the user's own code: the
    # standard library's and site-packages' sites (--all) are the summary's.
    sites = [s for s in result.call_sites if s.origin == "user"]
    ranked = sorted(range(len(sites)), key=lambda i: (not sites[i].changed_tests, i))
    chosen = sorted(ranked[:GITHUB_PER_STEP])
    warnings = [_site_annotation(sites[i], workspace, project) for i in chosen]
    lines = errors[:GITHUB_PER_STEP] + warnings
    more_errors = max(0, len(errors) - GITHUB_PER_STEP)
    more_warnings = len(sites) - len(chosen)
    if more_errors or more_warnings:
        said = " and ".join(
            pages.plural(n, "more " + word) for n, word in ((more_errors, "error"),
                                                            (more_warnings, "warning")) if n)
        where = ("see the step summary" if environ.get("GITHUB_STEP_SUMMARY")
                 else "see the Markdown report below")
        lines.append(_command("notice", said + ": " + where, title="utf8env readiness: not shown"))
    return "\n".join(lines) + ("\n" if lines else "")


def _changes_by_test(changed):
    """[(node id, [TestChange])], a test once with each Python it changed on, in order."""
    out = {}
    for c in changed:
        out.setdefault(c.test, []).append(c)
    return list(out.items())


def _test_annotation(test, changes, workspace, project, result):
    differences = {}
    for c in changes:
        differences.setdefault(c.difference, []).append(c.python)
    if len(differences) == 1:
        said = "%s changes with UTF-8 mode on Python %s: %s" % (
            test, ", ".join(c.python for c in changes), changes[0].difference)
    else:
        said = "%s changes with UTF-8 mode: %s" % (test, "; ".join(
            "on Python %s: %s" % (", ".join(pythons), difference)
            for difference, pythons in differences.items()))
    sites = []
    for c in changes:
        sites += [s for s in c.call_sites if s not in sites]
    said += " (call sites: %s)" % (", ".join(_where(s, workspace, project) for s in sites)
                                   or _no_sites(changes[0], result))
    # The node id's file is relative to pytest's rootdir, taken as the project's folder.
    return _command(
        "error", said, file=_workspace_path(test.split("::")[0], workspace, project),
        title="utf8env readiness: test changes")


def _site_annotation(s, workspace, project):
    file = _workspace_path(s.file, workspace, project)
    said = "" if file else s.where + ": "
    said += "%s uses the locale encoding (%s): " % (
        s.function or "this code", pages.plural(s.count, "EncodingWarning"))
    if s.changed_tests:
        said += "with UTF-8 mode (Python 3.15) %s: %s; " % (
            "this test changes" if len(s.changed_tests) == 1
            else "%d tests change" % len(s.changed_tests), ", ".join(s.changed_tests))
    else:
        said += "no test changes with UTF-8 mode (Python 3.15); "
    # compare.py's words for the sites measured with this one (the same tests use them)
    together = s.fixes[0].means.partition("; measured together with ")[2].partition(
        ", which the same tests use")[0] if s.fixes else ""
    if together:
        said += "%s, together with %s (the same tests use them)" % (_FIXES, ", ".join(
            _where(w, workspace, project) for w in together.split(", ")))
    else:
        said += _FIXES
    return _command("warning", said, file=file, line=s.line if file else None,
                    title="utf8env readiness: default encoding")


def _where(where, workspace, project):
    """A call site's "file:line" with the file as _workspace_path() gives it (when it can)."""
    file, colon, line = where.rpartition(":")
    shown = _workspace_path(file, workspace, project) if colon and line.isdigit() else None
    return shown + ":" + line if shown else where


def _workspace_path(path, workspace, project):
    """`path` (absolute, or relative to the project's folder) relative to the workspace,
    with /. None for no file (<string>) or an absolute one outside the workspace
    (site-packages...): never an absolute path. A relative path stays relative to the
    project when the project is not under the workspace."""
    if not path or path.startswith("<"):
        return None
    full = path if os.path.isabs(path) else os.path.join(project, path)
    for f in (os.path.normpath, os.path.realpath):
        try:
            rel = os.path.relpath(f(full), f(workspace))
        except ValueError:              # another drive (Windows)
            continue
        if rel != os.curdir and rel != os.pardir and not rel.startswith(os.pardir + os.sep) \
                and not os.path.isabs(rel):
            return rel.replace(os.sep, "/")
    return None if os.path.isabs(path) else os.path.normpath(path).replace(os.sep, "/")


def _bounded(message, limit=GITHUB_MESSAGE):
    """`message` escaped, cut to at most `limit` characters (with "...", never inside an
    escape sequence): unescaped, a test's difference or a list of tests has no bound."""
    escaped = pages.github_data(message)
    if len(escaped) <= limit:
        return escaped
    out, size = [], 0
    for ch in message:
        piece = pages.github_data(ch)
        if size + len(piece) > limit - 3:
            break
        out.append(piece)
        size += len(piece)
    return "".join(out) + "..."


def _command(kind, message, **properties):
    """pages.github_command() with the message bounded (_bounded escapes it)."""
    return pages.github_command(kind, "", **properties) + _bounded(message)


_UNTESTED = ("untested: no test exercised this call (no EncodingWarning in either run), the "
             "3.15 risk no test measures; %s")


def junit(result):
    """JUnit XML: one case per changed test (a failure) and per call site (a failure
    when a changed test hit it)."""
    cases = []
    for r in _all_runs(result):
        if r.complete:
            continue
        case = ElementTree.Element("testcase", classname="utf8env.readiness.runs",
                                   name=_run_name(r, result))
        error = ElementTree.SubElement(case, "error", message=r.problem)
        error.text = "\n".join(r.output)
        cases.append(case)
    for u in result.unstable:
        case = ElementTree.Element("testcase", classname="utf8env.readiness.tests",
                                   name="%s [%s]" % (u.test, u.python))
        ElementTree.SubElement(case, "skipped", message="unstable: " + _unstable_line(u))
        cases.append(case)
    for c in result.changed:
        case = ElementTree.Element("testcase", classname="utf8env.readiness.tests",
                                   name="%s [%s]" % (c.test, c.python))
        failure = ElementTree.SubElement(case, "failure", message=c.difference)
        failure.text = "call sites: %s" % (", ".join(c.call_sites) or _no_sites(c, result))
        cases.append(case)
    for s in result.call_sites:
        case = ElementTree.Element("testcase", classname="utf8env.readiness.call_sites",
                                   name="%s in %s" % (s.where, s.function or "?"),
                                   file=s.file, line=str(s.line))
        fixes = "\n".join('encoding="%s": %s%s' % (f.encoding, f.means, _measured(f))
                          for f in s.fixes or ())
        if s.changed_tests:
            failure = ElementTree.SubElement(case, "failure", message="active in tests that change: "
                                             + ", ".join(s.changed_tests))
            failure.text = fixes
        else:
            ElementTree.SubElement(case, "system-out").text = fixes
        cases.append(case)
    for u in result.untested or ():
        # a call no test exercised: nothing measured, so neither passed nor failed
        case = ElementTree.Element("testcase", classname="utf8env.readiness.untested",
                                   name="%s:%d %s" % (u.file, u.line, u.call),
                                   file=u.file, line=str(u.line))
        ElementTree.SubElement(case, "skipped", message=_UNTESTED % (
            "the fixer adds encoding=" if u.verdict == "fix" else "review it"))
        cases.append(case)
    suite = ElementTree.Element("testsuite", name="utf8env readiness", tests=str(len(cases)),
                                failures=str(sum(c.find("failure") is not None for c in cases)),
                                errors=str(sum(c.find("error") is not None for c in cases)),
                                skipped=str(sum(c.find("skipped") is not None for c in cases)),
                                time="%.3f" % result.timing.wall_seconds)
    suite.extend(cases)
    root = ElementTree.Element("testsuites")
    root.append(suite)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(
        root, encoding="unicode") + "\n"


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


def _advice_runs(result):
    """The timing line's part about the runs that tried the fixes, when any."""
    runs = sum(len(t.runs) for t in result.advice)
    if not runs:
        return ""
    return "; %d of them tried the two fixes in copies of the project" % runs
