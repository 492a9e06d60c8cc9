"""A user's program's HTML page (pages.py's self-contained page): the grid, each cell
opening on its evidence (the failure, the EncodingWarnings, what changes between UTF-8
mode off and on, the output and files left), then the sets, what was not run, the
Windows row, what Python 3.15 changes and the findings."""
from ._page_parts import MODE
from ._program_view import (NOT_RUN_HEAD, PEP686_HEAD, WINDOWS_HEAD, failure_line, grid_row,
                            short, windows_lines)
from .. import _pages as pages

_e = pages.e


def _program_cell_html(view, cell, es):
    cls = {"ok": "ok", "timeout": "warn"}.get(cell.status, "bad")
    changes = view.changes(cell)
    badges = ""
    if cell.encoding_warnings:
        badges += '<span class="badge warns">%s</span>' % _e(
            pages.plural(len(cell.encoding_warnings), "EncodingWarning"))
    if view.changed_by_315(cell, es):
        cls += " change"
        badges += '<span class="badge utf8">3.15 changes it</span>'
    body = []
    line = failure_line(cell)
    if line:
        where = view.where(cell)
        body.append("<p><b>%s</b>%s</p>" % (_e(line), " at <code>%s</code>" % _e(where) if where else ""))
    body.append("<p>exit status %s, %.2f s</p>" % (_e(cell.exit), cell.seconds or 0))
    if cell.encoding_warnings:
        body.append('<p>EncodingWarnings:</p><ul class="warnings">%s</ul>' % "".join(
            "<li><code>%s:%s</code>: %s</li>" % (_e(view.path(w.file)), w.line, _e(w.message))
            for w in cell.encoding_warnings))
    elif cell.encoding_warnings is None:
        body.append("<p>EncodingWarnings: not available before Python 3.10</p>")
    if cell.python != "2.7":
        mode, source = view.on_315(es)
        body.append("<p>Python 3.15: UTF-8 mode %s (%s)</p>" % (MODE.get(mode, mode), _e(source)))
        if changes:
            body.append('<p>measured, UTF-8 mode off \u2192 on:</p><ul class="changes">%s</ul>'
                        % "".join("<li>%s</li>" % _e(x) for x in changes))
        else:
            body.append("<p>measured: nothing changes between UTF-8 mode off and on</p>")
    body.append("<p>stdout</p><pre>%s</pre>" % _e(view.output(cell, "stdout")))
    stderr = view.output(cell, "stderr")
    if stderr:
        body.append("<p>stderr</p><pre>%s</pre>" % _e(stderr))
    files = view.files(cell)
    if files:
        body.append("<p>files left</p><pre>%s</pre>" % _e("\n".join("%s: %s" % f for f in files)))
    return ('<td class="cell %s" data-python="%s" data-env-set="%s"><details><summary>%s%s'
            '</summary><div class="ev">%s</div></details></td>' % (
                cls, _e(grid_row(cell)), _e(cell.env_set), _e(short(cell)), badges, "".join(body)))


def html(view):
    result = view.result
    out = ["<h1>utf8env matrix: <code>%s</code></h1>" % _e(view.title),
           '<p class="summary" id="summary">%s.</p>' % _e(", ".join(view.counts())),
           '<p><span class="key ok">ok</span> <span class="key bad">failed</span> '
           '<span class="key warn">timed out</span> <span class="key ok change">Python 3.15 '
           '(UTF-8 mode on by default) changes it</span>; a badge counts EncodingWarnings, green '
           'cells too. Open a cell for its evidence: the failure, the EncodingWarnings, what '
           'changes between UTF-8 mode off and on, the output.</p>',
           '<table class="grid" data-program="%s"><tr><th>Python</th>%s</tr>' % (
               _e(view.title), "".join("<th>%s</th>" % _e(es.name) for es in view.sets))]
    for py in view.pythons:
        tds = []
        for es in view.sets:
            c = view.by.get((py, es.name))
            tds.append('<td class="none">%s</td>' % _e(view.absent(py, es)) if c is None
                       else _program_cell_html(view, c, es))
        out.append("<tr><th>%s</th>%s</tr>" % (_e(py), "".join(tds)))
    out.append("</table>")
    out.append('<h2>Environment sets</h2><dl class="legend" id="legend">')
    for es in view.sets:
        out.append("<dt>%s</dt><dd>%s</dd>" % (_e(es.name), _e(es.description)))
    out.append("</dl>")
    if result.not_run:
        out.append('<h2>%s</h2><ul id="not-run">' % _e(NOT_RUN_HEAD.rstrip(":")))
        out += ["<li><code>%s</code>: %s</li>" % (_e(n.env_set), _e(n.reason))
                for n in result.not_run]
        out.append("</ul>")
    if result.windows:
        out.append('<h2>%s</h2><ul id="windows">' % _e(WINDOWS_HEAD.rstrip(":")))
        out += ["<li>%s</li>" % _e(line) for line in windows_lines(result)]
        out.append("</ul>")
    out.append("<h2>%s</h2><ul>" % _e(PEP686_HEAD.rstrip(":")))
    for change, names in view.pep686_groups():
        out.append("<li>%s: %s</li>" % (_e(names), _e(change)))
    out.append("</ul>")
    groups = view.findings()
    if groups:
        out.append('<h2>Findings, by place in the code</h2><ul id="findings">')
        for where, what, names, n in groups:
            out.append("<li><code>%s</code> \u2014 %s: %s<br><small>%s</small></li>" % (
                _e(where), _e(pages.plural(n, "cell")), _e(what), _e(names)))
        out.append("</ul>")
    return pages.page("utf8env matrix", "\n".join(out))
