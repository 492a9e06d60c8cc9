"""A user's program's text page: the Python x environment-set grid (cut into tables
that fit the terminal), the sets, the interpreters, what was not run, the Windows row,
what Python 3.15 changes, the findings by place in the code."""
from ._page_parts import python_lines, pythons_text
from ._program_view import (CELL_LEGEND, NOT_RUN_HEAD, PEP686_HEAD, WINDOWS_HEAD, not_run_count,
                            windows_lines)
from .. import _pages as pages


def _grid_chunks(head, body, columns):
    """The grid as tables that each fit `columns`, the first column repeated."""
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    chunks, current, used = [], [], widths[0]
    for i in range(1, len(head)):
        if current and used + 2 + widths[i] > columns:
            chunks.append(current)
            current, used = [], widths[0]
        current.append(i)
        used += 2 + widths[i]
    chunks.append(current)
    return [pages.table([head[0]] + [head[i] for i in chunk],
                        [[row[0]] + [row[i] for i in chunk] for row in body], columns)
            for chunk in chunks if chunk]


def text(view, columns=pages.WIDTH):
    result = view.result
    out = ["utf8env matrix -- " + view.title, ""]
    head, body = view.grid()
    for table in _grid_chunks(head, body, columns):
        out += [table, ""]
    out.append("Environment sets:")
    for es in view.sets:
        out += pages.wrap("%s: %s" % (es.name, es.description), columns, "  ", "    ")
    out += pages.wrap(CELL_LEGEND, columns, "  ", "    ")
    out += pythons_text(python_lines(result.pythons, result.pythons_left_out))
    if result.not_run:
        out.append("")
        out.append(NOT_RUN_HEAD)
        for n in result.not_run:
            out += pages.wrap("%s: %s" % (n.env_set, n.reason), columns, "  ", "    ")
    if result.windows:
        out.append("")
        out.append(WINDOWS_HEAD)
        for line in windows_lines(result):
            out += pages.wrap(line, columns, "  ", "    ")
    out.append("")
    out.append(PEP686_HEAD)
    for change, names in view.pep686_groups():
        out += pages.wrap("%s: %s" % (names, change), columns, "  ", "    ")
    groups = view.findings()
    if groups:
        out.append("")
        out.append("Findings, by place in the code:")
        for where, what, names, n in groups:
            out += pages.wrap("%s \u2014 %s: %s" % (where, pages.plural(n, "cell"), what),
                              columns, "  ", "    ")
            out += pages.wrap(names, columns, "    ", "    ")
    out.append("")
    out.append("%s, %d with a problem%s" % (pages.plural(len(result.cells), "cell"),
                                            result.problems, not_run_count(result)))
    return "\n".join(out) + "\n"
