"""The PEP reproduction's text page: the PEPs' tables with the value measured beside
each of the PEP's and the "3.15" column, then the agreement table, the differences, the
rows' environments, the interpreters and the timing; lines fit the terminal."""
from ._page_parts import python_lines, pythons_text
from ._pep import agreement_counts
from ._pep_view import (PEP686_LEGEND, Pep686, agreement_grid, cell, differences, pep_pythons,
                        row_envs, yn)
from .. import _pages as pages


def text(result, columns=pages.WIDTH):
    out = []
    col315 = {row: Pep686(result, row) for row in result.rows}
    for t in result.tables:
        out.append("%s (%s: %s)" % (t.title, t.source, t.scenario))
        body = [[r.row, cell(r, "exception"), cell(r, "mojibake"), col315[r.row].text()]
                for r in t.rows]
        out.append(pages.table(["Python", "Exception?", "Mojibake?", "3.15"], body, columns, squeeze=3))
        out.append("")
    head, body = agreement_grid(result)
    agree, differ = agreement_counts(result)
    out.append("Agreement with the PEPs' tables (Exception? Mojibake?: = agree, x differ, . not published)")
    out.append(pages.table(head, body, columns))
    out.append("%d cells agree, %d differ (* above)" % (agree, differ))
    diffs = differences(result)
    if diffs:
        out.append("")
        out.append("Differences:")
        for s, row, col, pep, got, why in diffs:
            out += pages.wrap("%s / %s / %s: PEP %s, measured %s: %s" % (
                s, row, col.capitalize() + "?", yn(pep), yn(got), why), columns, "  ", "    ")
    for e in result.environments:
        if e.problem:
            out += pages.wrap("environment %s left out: %s" % (e.environment.name, e.problem),
                              columns, "", "  ")
    out.append("")
    out.append("Rows, each a set of environments (Yes: at least one of them showed it):")
    for row, names in row_envs(result):
        out += pages.wrap("%s: %s" % (row, ", ".join(names)), columns, "  ", "    ")
    out += pages.wrap(PEP686_LEGEND, columns, "  ", "    ")
    out += pythons_text(python_lines(pep_pythons(result), result.pythons_left_out))
    tm = result.timing
    out.append("")
    out.append("%d environments, %d jobs, %.1f s (cells' own time %.1f s on %d workers)" % (
        len(result.environments), tm.jobs, tm.wall_seconds, tm.cell_seconds, tm.workers))
    return "\n".join(out) + "\n"
