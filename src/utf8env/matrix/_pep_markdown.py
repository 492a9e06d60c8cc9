"""The PEP reproduction's Markdown page: the text page's tables and findings in
GitHub-flavoured Markdown."""
from ._pep import agreement_counts
from ._pep_view import PEP686_LEGEND, Pep686, agreement_grid, cell, differences, row_envs, yn
from .. import _pages as pages


def markdown(result):
    out = ["# utf8env matrix: the PEP 540 / PEP 538 use cases, measured", ""]
    col315 = {row: Pep686(result, row) for row in result.rows}
    for t in result.tables:
        out.append("## %s (%s, `%s`)" % (t.title, t.source, t.scenario))
        out.append("")
        out.append("Mojibake: " + t.mojibake_definition + ".")
        out.append("")
        body = [[r.row, cell(r, "exception"), cell(r, "mojibake"), col315[r.row].text()]
                for r in t.rows]
        out.append(pages.markdown_table(["Python", "Exception?", "Mojibake?", "3.15"], body))
        out.append("")
    head, body = agreement_grid(result)
    agree, differ = agreement_counts(result)
    out.append("## Agreement with the PEPs' tables")
    out.append("")
    out.append("Exception? Mojibake?: `=` agree, `x` differ, `.` not published. "
               "%d agree, %d differ." % (agree, differ))
    out.append("")
    out.append(pages.markdown_table(head, body))
    diffs = differences(result)
    if diffs:
        out.append("")
        for s, row, col, pep, got, why in diffs:
            out.append("- `%s` / %s / %s?: PEP %s, measured %s: %s" % (
                s, row, col.capitalize(), yn(pep), yn(got), pages.md_code(why)))
    out += ["", "## Rows, each a set of environments", ""]
    for row, names in row_envs(result):
        out.append("- %s: %s" % (row, ", ".join(pages.md_code(n) for n in names)))
    out += ["", PEP686_LEGEND]
    return "\n".join(out) + "\n"
