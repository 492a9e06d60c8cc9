"""A user's program's Markdown page: the text page's grid and findings in
GitHub-flavoured Markdown."""
from ._page_parts import PYTHONS_HEAD, python_lines
from ._program_view import (CELL_LEGEND, NOT_RUN_HEAD, PEP686_HEAD, WINDOWS_HEAD, not_run_count,
                            windows_lines)
from .. import _pages as pages


def markdown(view):
    result = view.result
    head, body = view.grid()
    out = ["# utf8env matrix: %s" % pages.md_code(view.title), "",
           pages.markdown_table(head, body), "", "Environment sets:", ""]
    for es in view.sets:
        out.append("- `%s`: %s" % (es.name, es.description))
    out += ["", CELL_LEGEND]
    pythons = python_lines(result.pythons, result.pythons_left_out)
    if pythons:
        out += ["", "## " + PYTHONS_HEAD.rstrip(":"), ""]
        out += ["- " + pages.md_code(line) for line in pythons]
    if result.not_run:
        out += ["", "## " + NOT_RUN_HEAD.rstrip(":"), ""]
        out += ["- `%s`: %s" % (n.env_set, n.reason) for n in result.not_run]
    if result.windows:
        out += ["", "## " + WINDOWS_HEAD.rstrip(":"), ""]
        out += ["- " + line for line in windows_lines(result)]
    out += ["", "## " + PEP686_HEAD.rstrip(":"), ""]
    for change, names in view.pep686_groups():
        out.append("- %s: %s" % (names, pages.md_code(change)))
    groups = view.findings()
    if groups:
        out += ["", "## Findings, by place in the code", ""]
        for where, what, names, n in groups:
            out.append("- %s \u2014 %s: %s; %s" % (pages.md_code(where), pages.plural(n, "cell"),
                                                  pages.md_code(what), names))
    out += ["", "%s, %d with a problem%s." % (pages.plural(len(result.cells), "cell"),
                                               result.problems, not_run_count(result))]
    return "\n".join(out) + "\n"
