"""The Markdown page of a readiness result (GitHub-flavoured tables, CommonMark-safe code
spans), and the same kept under GitHub's 1 MiB limit for $GITHUB_STEP_SUMMARY
(step_summary())."""
from .. import _pages as pages
from ._format_words import (advice_runs, all_runs, brief, counts_text, flag, is_test_code,
                            measured, no_sites, notes, run_name, sites_in_order, suite_command,
                            unstable_line, variables, verdict)


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
    blocks = [(None, ["## utf8env readiness: %s" % _code(suite_command(result)), "",
                      "World %s: %s (%s). %s" % (_code(result.world), result.environment,
                                                 _code(variables(result)), verdict(result)),
                      ""], [], [])]
    top, rows = _table_rows(
        ["Python", "run", "UTF-8 mode", "filesystem", "locale", "tests", "seconds"],
        [[r.python, r.mode, flag(r.utf8_mode), r.filesystem_encoding or "-",
          r.locale_encoding or "-", counts_text(r.counts), "%.1f" % r.seconds] for r in result.runs])
    blocks.append(("runs", top, rows, [""]))
    bad = [r for r in all_runs(result) if not r.complete]
    if bad:
        blocks.append(("runs that did not complete", ["### Runs that did not complete", ""],
                       ["\n".join(["%s: %s" % (run_name(r, result), r.problem), ""] +
                                  (_fenced(list(r.output)) + [""] if r.output else []))
                        for r in bad], []))
    if result.changed:
        blocks.append(_table_block(
            "changed tests", "Tests that change with UTF-8 mode",
            ["test", "Python", "first difference", "call sites"],
            [[_code(c.test), c.python, _code(c.difference),
              ", ".join(_code(s) for s in c.call_sites) or no_sites(c, result)]
             for c in result.changed]))
    if result.call_sites:
        rows = []
        for s in sites_in_order(result):
            tags = ([s.origin] if s.origin != "user" else []) + (
                ["test code"] if is_test_code(s) else [])
            fixes = "<br>".join("%s: %s%s" % (_code('encoding="%s"' % f.encoding), f.means,
                                              measured(f)) for f in s.fixes or ())
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
            [[_code(u.test), u.python, unstable_line(u)] for u in result.unstable]))
    if result.advice:
        blocks.append(_table_block(
            "fixes tried", "Fixes tried in copies of the project",
            ["Python", "fix", "sites edited", "not edited", "tests (UTF-8 mode off; on)"],
            [[t.python, _code('encoding="%s"' % t.encoding),
              ", ".join(_code(w) for w in t.sites) or "none",
              ", ".join("%s (%s)" % (_code(w), why) for w, why in t.not_edited) or "none",
              ", ".join("%s: %s; %s" % (_code(test), brief(off), brief(on))
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
    tail = notes(result)
    if result.hidden_sites:
        tail.append("%s in the standard library and site-packages not shown (`--all` shows "
                    "them)." % pages.plural(result.hidden_sites, "more call site"))
    t = result.timing
    tail.append("%s on %s, %.1f s (their own time %.1f s)%s." % (
        pages.plural(t.jobs, "run"), pages.plural(t.workers, "worker"), t.wall_seconds,
        t.cell_seconds, advice_runs(result)))
    blocks.append(("notes", [" ".join(tail)], [], []))
    return blocks
