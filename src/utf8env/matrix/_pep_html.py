"""The PEP reproduction's HTML page (pages.py's self-contained page): every cell opens
on its evidence per environment, decoded for a reader of the cell's environment (or
the bytes, `raw`)."""
from ._pep import agreement_counts
from ._pep_view import (PEP686_LEGEND, Pep686, agreement_grid, cell, differences, plain,
                        row_envs, yn)
from .. import _pages as pages

_e = pages.e


def _literal(text):
    """The bytes of a repr() string the JSON keeps (b'...'), or None."""
    import ast
    try:
        value = ast.literal_eval(text) if text else None
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, bytes) else None


def _evidence(cells, col, raw):
    parts = []
    for c in cells:
        flag = "error" if c.error else ("Yes" if getattr(c, col) else "No")
        lines = ['<div class="ev"><b>%s</b>: %s' % (_e(c.environment), flag)]
        if c.error:
            lines.append("<pre>%s</pre>" % _e(c.error))
        if c.traceback:
            lines.append("<pre>%s (%s)</pre>" % (_e(c.traceback), _e(c.stage)))
        produced = _literal(c.produced)
        shown = "-" if produced is None else pages.text_of(produced, c.encoding or "utf-8", raw)
        if raw or c.mojibake or c.exception or c.error:
            lines.append("<pre>produced %s\nexpected %s (%s)\nshown    %s</pre>" % (
                _e(c.produced), _e(c.expected), _e(c.encoding), _e(shown)))
        else:
            lines.append("<pre>a %s reader shows %s</pre>" % (_e(c.encoding), _e(shown)))
        if c.read:
            lines.append("<pre>consumer read %s</pre>" % _e(c.read))
        lines.append("</div>")
        parts.append("".join(lines))
    return "".join(parts)


def _html_cell(entry, col, raw):
    value = getattr(entry, col)
    cls = "none" if value is None else ("yes" if value else "no")
    if entry.errors and value is None:
        cls = "error"
    a = getattr(entry.agreement, col)
    if a is not None and not a.agree:
        cls += " differ"
    why = "" if a is None or a.agree else "<p>%s</p>" % _e(plain(a.why))
    return ('<td class="%s" data-scenario-col="%s"><details><summary>%s</summary>%s%s</details></td>'
            % (cls, col, _e(cell(entry, col)), why, _evidence(entry.cells, col, raw)))


def _html_315(col315):
    cls = "p686 change" if col315.changes() else "p686"
    return ('<td class="%s" data-scenario-col="3.15"><details><summary>%s</summary><ul>%s</ul>'
            '</details></td>' % (cls, _e(col315.text()),
                                 "".join("<li>%s</li>" % _e(x) for x in col315.lines())))


def html(result, raw=False):
    agree, differ = agreement_counts(result)
    left_out = [e for e in result.environments if e.problem]
    tm = result.timing
    col315 = {row: Pep686(result, row) for row in result.rows}
    cells = sum(len(t.rows) for t in result.tables)
    out = ["<h1>utf8env matrix: the PEP 540 / PEP 538 use cases, measured</h1>",
           '<p class="summary" id="summary">%d scenarios \u00d7 %d rows: <b>%d cells agree</b> with '
           'the PEPs\' tables, <b>%d differ</b>; %d environments (%d left out), %d jobs, '
           '%.1f s.</p>' % (len(result.tables), len(result.rows), agree, differ,
                            len(result.environments), len(left_out), tm.jobs, tm.wall_seconds),
           "<h2>Legend</h2>",
           '<p><span class="key yes">Yes</span> <span class="key no">No</span> '
           '<span class="key error">no valid cell</span> <span class="key differ">differs from '
           'the PEP</span> <span class="key p686">3.15</span> <span class="key p686 change">'
           'UTF-8 mode changes on 3.15</span>. Open a cell for its evidence, per environment.</p>',
           "<p>%s</p>" % _e(PEP686_LEGEND),
           '<dl class="legend" id="legend">']
    for row, names in row_envs(result):
        out.append("<dt>%s</dt><dd>%s</dd>" % (_e(row), ", ".join("<code>%s</code>" % _e(n)
                                                                for n in names)))
    out.append("</dl>")
    for t in result.tables:
        out.append('<h2 id="%s">%s <small>(%s, %s)</small></h2>' % (
            _e(t.scenario), _e(t.title), _e(t.source), _e(t.scenario)))
        out.append("<p>Mojibake: %s.</p>" % _e(t.mojibake_definition))
        out.append('<table class="grid" data-scenario="%s"><tr><th>Python</th><th>Exception?</th>'
                   '<th>Mojibake?</th><th>3.15</th></tr>' % _e(t.scenario))
        for r in t.rows:
            out.append("<tr><th>%s</th>%s%s%s</tr>" % (
                _e(r.row), _html_cell(r, "exception", raw), _html_cell(r, "mojibake", raw),
                _html_315(col315[r.row])))
        out.append("</table>")
    head, body = agreement_grid(result)
    out.append("<h2>Agreement with the PEPs' tables</h2><p>%d agree, %d differ.</p>" % (agree, differ))
    out.append('<table id="agreement"><tr>%s</tr>' % "".join("<th>%s</th>" % _e(h) for h in head))
    for b in body:
        out.append("<tr>%s</tr>" % "".join("<td>%s</td>" % _e(x) for x in b))
    out.append("</table><ul>")
    for s, row, col, pep, got, why in differences(result):
        out.append("<li><code>%s</code> / %s / %s?: PEP %s, measured %s: %s</li>" % (
            _e(s), _e(row), _e(col.capitalize()), yn(pep), yn(got), _e(why)))
    out.append("</ul>")
    for e in left_out:
        out.append("<p>environment <code>%s</code> left out: %s</p>" % (
            _e(e.environment.name), _e(e.problem)))
    if cells == 0:
        out.append("<p>No scenario ran.</p>")
    return pages.page("utf8env matrix", "\n".join(out))
