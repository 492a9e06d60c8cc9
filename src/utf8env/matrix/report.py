"""Rendering of matrix results (results.py's records): text (the PEP's layout, the
PEP's value beside each measured one, then the agreement table), Markdown, one
self-contained HTML page, JSON. Never decides anything: every value comes from the result."""
import html
import json
import re

from .pep import COLUMNS, agreement_counts
from . import FORMATS  # noqa: F401 (the formats render() knows)
from .results import as_json


def render(result, fmt):
    if fmt == "json":
        return json.dumps(as_json(result), indent=1, sort_keys=True, ensure_ascii=True) + "\n"
    if result.mode == "program":
        return {"text": _program_text, "markdown": _program_markdown, "html": _program_html}[fmt](result)
    return {"text": _text, "markdown": _markdown, "html": _html}[fmt](result)


def _yn(value):
    return "-" if value is None else ("Yes" if value else "No")


def _mark(entry, col):
    a = getattr(entry.agreement, col)
    return "" if a is None else ("" if a.agree else " *")


def _cell(entry, col):
    got = _yn(getattr(entry, col))
    if entry.errors and getattr(entry, col) is None:
        got = "!"
    pep = entry.pep
    want = "" if pep is None or getattr(pep, col) is None else " (PEP %s)" % _yn(getattr(pep, col))
    return got + want + _mark(entry, col)


_NO_FORM = re.compile(r", a (\S+) reader expects None$")


def plain(why):
    """A difference's evidence in plain words (pep.py words it for the JSON)."""
    return _NO_FORM.sub(lambda m: ": the intended text has no %s form, so a %s reader shows "
                        "mojibake whatever is written" % (m.group(1), m.group(1)), why)


def differences(result):
    """[(scenario, row, column, pep, measured, why)] for every cell that differs; `why`
    in plain words."""
    out = []
    for t in result.tables:
        for r in t.rows:
            for col in COLUMNS:
                a = getattr(r.agreement, col)
                if a and not a.agree:
                    out.append((t.scenario, r.row, col, getattr(r.pep, col), getattr(r, col),
                                plain(a.why)))
    return out


def _pep_rows(result):
    return [r for r in result.rows if any(
        row.row == r and row.pep is not None for t in result.tables for row in t.rows)]


def _agreement_grid(result):
    rows = _pep_rows(result)
    head = ["scenario"] + rows
    body = []
    for t in result.tables:
        line = [t.scenario]
        for row in rows:
            entry = next((e for e in t.rows if e.row == row), None)
            marks = []
            for col in COLUMNS:
                a = getattr(entry.agreement, col) if entry else None
                marks.append("." if a is None else ("=" if a.agree else "x"))
            line.append(" ".join(marks))
        body.append(line)
    return head, body


def _table_text(head, body):
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    fmt = "  ".join("%%-%ds" % w for w in widths)
    lines = [fmt % tuple(head), fmt % tuple("=" * w for w in widths)]
    lines += [fmt % tuple(b) for b in body]
    return "\n".join(line.rstrip() for line in lines)


def _text(result):
    out = []
    for t in result.tables:
        out.append("%s (%s: %s)" % (t.title, t.source, t.scenario))
        body = [[r.row, _cell(r, "exception"), _cell(r, "mojibake")] for r in t.rows]
        out.append(_table_text(["Python", "Exception?", "Mojibake?"], body))
        out.append("")
    head, body = _agreement_grid(result)
    agree, differ = agreement_counts(result)
    out.append("Agreement with the PEPs' tables (Exception? Mojibake?: = agree, x differ, . not published)")
    out.append(_table_text(head, body))
    out.append("%d cells agree, %d differ (* above)" % (agree, differ))
    diffs = differences(result)
    if diffs:
        out.append("")
        out.append("Differences:")
        for s, row, col, pep, got, why in diffs:
            out.append("  %s / %s / %s: PEP %s, measured %s: %s" % (
                s, row, col.capitalize() + "?", _yn(pep), _yn(got), why))
    for e in result.environments:
        if e.problem:
            out.append("environment %s left out: %s" % (e.environment.name, e.problem))
    tm = result.timing
    out.append("")
    out.append("%d environments, %d jobs, %.1f s (cells' own time %.1f s on %d workers)" % (
        len(result.environments), tm.jobs, tm.wall_seconds, tm.cell_seconds, tm.workers))
    return "\n".join(out) + "\n"


def _md_table(head, body):
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    lines += ["| " + " | ".join(str(x).replace("|", "\\|") for x in b) + " |" for b in body]
    return "\n".join(lines)


def _markdown(result):
    out = ["# utf8env matrix: the PEP 540 / PEP 538 use cases, measured", ""]
    for t in result.tables:
        out.append("## %s (%s, `%s`)" % (t.title, t.source, t.scenario))
        out.append("")
        out.append("Mojibake: " + t.mojibake_definition + ".")
        out.append("")
        body = [[r.row, _cell(r, "exception"), _cell(r, "mojibake")] for r in t.rows]
        out.append(_md_table(["Python", "Exception?", "Mojibake?"], body))
        out.append("")
    head, body = _agreement_grid(result)
    agree, differ = agreement_counts(result)
    out.append("## Agreement with the PEPs' tables")
    out.append("")
    out.append("Exception? Mojibake?: `=` agree, `x` differ, `.` not published. "
               "%d agree, %d differ." % (agree, differ))
    out.append("")
    out.append(_md_table(head, body))
    diffs = differences(result)
    if diffs:
        out.append("")
        for s, row, col, pep, got, why in diffs:
            out.append("- `%s` / %s / %s?: PEP %s, measured %s: %s" % (
                s, row, col.capitalize(), _yn(pep), _yn(got), why.replace("|", "\\|")))
    return "\n".join(out) + "\n"


_CSS = """
body{font-family:sans-serif;margin:1.5em;max-width:80em}
table{border-collapse:collapse;margin:.5em 0 1.5em}
th,td{border:1px solid #999;padding:.25em .5em;vertical-align:top;text-align:left}
td.yes{background:#f4b6b6} td.no{background:#bfe8bf} td.none{background:#ddd} td.error{background:#f7e08a}
td.differ{outline:3px solid #333;outline-offset:-3px}
summary{cursor:pointer;font-weight:bold}
pre{white-space:pre-wrap;margin:.2em 0;font-size:90%}
.ev{font-size:85%;border-top:1px dotted #777;margin-top:.3em;padding-top:.3em}
"""


def _e(text):
    return html.escape("" if text is None else str(text))


def _evidence(cells, col):
    parts = []
    for c in cells:
        flag = "error" if c.error else ("Yes" if getattr(c, col) else "No")
        lines = ["<div class=\"ev\"><b>%s</b>: %s" % (_e(c.environment), flag)]
        if c.error:
            lines.append("<pre>%s</pre>" % _e(c.error))
        if c.traceback:
            lines.append("<pre>%s (%s)</pre>" % (_e(c.traceback), _e(c.stage)))
        lines.append("<pre>produced %s\nexpected %s (%s)\nshown    %s</pre>" % (
            _e(c.produced), _e(c.expected), _e(c.encoding), _e(c.shown)))
        if c.read:
            lines.append("<pre>consumer read %s</pre>" % _e(c.read))
        lines.append("</div>")
        parts.append("".join(lines))
    return "".join(parts)


def _html_cell(entry, col):
    value = getattr(entry, col)
    cls = "none" if value is None else ("yes" if value else "no")
    if entry.errors and value is None:
        cls = "error"
    a = getattr(entry.agreement, col)
    if a is not None and not a.agree:
        cls += " differ"
    why = "" if a is None or a.agree else "<p>%s</p>" % _e(plain(a.why))
    return ('<td class="%s" data-scenario-col="%s"><details><summary>%s</summary>%s%s</details></td>'
            % (cls, col, _e(_cell(entry, col)), why, _evidence(entry.cells, col)))


def _page(title, body):
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title>"
            "<style>%s</style></head><body>\n%s\n</body></html>\n" % (_e(title), _CSS, body))


def _html(result):
    out = ["<h1>utf8env matrix: the PEP 540 / PEP 538 use cases, measured</h1>",
           "<p>Red: yes; green: no; a framed cell differs from the PEP's published value. "
           "Open a cell for its evidence, per environment.</p>"]
    for t in result.tables:
        out.append('<h2 id="%s">%s <small>(%s, %s)</small></h2>' % (
            _e(t.scenario), _e(t.title), _e(t.source), _e(t.scenario)))
        out.append("<p>Mojibake: %s.</p>" % _e(t.mojibake_definition))
        out.append('<table class="grid"><tr><th>Python</th><th>Exception?</th><th>Mojibake?</th></tr>')
        for r in t.rows:
            out.append("<tr><th>%s</th>%s%s</tr>" % (_e(r.row), _html_cell(r, "exception"),
                                                     _html_cell(r, "mojibake")))
        out.append("</table>")
    head, body = _agreement_grid(result)
    agree, differ = agreement_counts(result)
    out.append("<h2>Agreement with the PEPs' tables</h2><p>%d agree, %d differ.</p>" % (agree, differ))
    out.append('<table id="agreement"><tr>%s</tr>' % "".join("<th>%s</th>" % _e(h) for h in head))
    for b in body:
        out.append("<tr>%s</tr>" % "".join("<td>%s</td>" % _e(x) for x in b))
    out.append("</table><ul>")
    for s, row, col, pep, got, why in differences(result):
        out.append("<li><code>%s</code> / %s / %s?: PEP %s, measured %s: %s</li>" % (
            _e(s), _e(row), _e(col.capitalize()), _yn(pep), _yn(got), _e(why)))
    out.append("</ul>")
    return _page("utf8env matrix", "\n".join(out))


# -- the user's own program --------------------------------------------------------

# What each world's libc has, for the engine's prediction of the "3.15" column
# (worlds.py builds these folders).
_WORLD_LOCALES = {"installed": "C.UTF-8,C.utf8", "en_US-only": "en_US.UTF-8",
                  "latin1": "C.UTF-8,C.utf8,en_US.ISO-8859-1",
                  "gb18030": "C.UTF-8,C.utf8,zh_CN.GB18030", "no-locales": None}
_TRACEBACK_END = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Failure)"
                            r"\b.*|[A-Za-z_][\w.]*Error)$")


def pep686(env_set):
    """What Python 3.15 (PEP 686) decides for UTF-8 mode in `env_set`: (mode, source),
    from the engine (utf8env.policy.decide), never re-derived here."""
    from ..locale_model import modelled
    from ..policy import Inputs, LocaleFacts, decide
    names = _WORLD_LOCALES.get(env_set.world)
    facts = modelled(names) if names else LocaleFacts({})
    args = {"0": ("-X", "utf8=0"), "1": ("-X", "utf8")}.get(env_set.utf8, ())
    d = decide(Inputs(environ=dict(env_set.variables), args=args, version="3.15",
                      platform="linux", locales=facts))
    return d.utf8_mode, d.reasons["utf8_mode"].source


def failure_line(cell):
    """The line that says why a cell failed: a traceback's exception line (any exception:
    a click RuntimeError, a UnicodeError), else the last line on stderr (a SystemExit
    message), else "exit N"; None for a cell that is ok."""
    if cell.status == "ok":
        return None
    if cell.status == "timeout":
        return "timed out"
    lines = [l for l in (cell.stderr or "").splitlines() if l.strip()]
    if "Traceback (most recent call last):" in lines or any(l.startswith("Traceback") for l in lines):
        for line in reversed(lines):
            if _TRACEBACK_END.match(line.strip()):
                return line.strip()
    if lines:
        return lines[-1].strip()
    return "exit %s" % cell.exit


def _where_line(cell):
    """file:line of a cell's failure (the last traceback frame), or None."""
    if cell.where:
        return cell.where
    from .cells import where
    return where((cell.stderr or "").encode("utf-8", "surrogateescape")) if cell.status != "ok" else None


def _short(cell):
    if cell.status == "ok":
        return "ok"
    if cell.status == "timeout":
        return "timeout"
    line = failure_line(cell) or ""
    name = line.split(":", 1)[0]
    return name if _TRACEBACK_END.match(name) and " " not in name else cell.status


def _grid_cell(cell):
    text = _short(cell)
    if cell.encoding_warnings:
        text += " w%d" % len(cell.encoding_warnings)
    return text


def _pep686_text(cell, env_set):
    mode, source = pep686(env_set)
    if not mode:
        return "off (%s)" % source
    if env_set.utf8 == "1":
        return "on already"
    return "on: " + (cell.utf8_mode_changes or "no change") if cell.python != "2.7" else "-"


def _program_rows(result):
    body = []
    for c in result.cells:
        warn = "%d" % len(c.encoding_warnings) if c.encoding_warnings is not None else "-"
        body.append([c.python, c.env_set, c.status, c.exit,
                     c.unicode_error or "", warn, c.utf8_mode_changes or ""])
    return ["python", "environment", "status", "exit", "UnicodeError", "EncodingWarnings",
            "changes with UTF-8 mode"], body


def _by(result):
    return {(c.python, c.env_set): c for c in result.cells}


def findings(result):
    """[(file:line, what, [cell names])]: the failures and EncodingWarnings of every
    cell, grouped by the place in the code, most cells first."""
    groups = {}
    for c in result.cells:
        name = "%s %s" % (c.python, c.env_set)
        line = failure_line(c)
        if line:
            groups.setdefault((_where_line(c) or "?", line), []).append(name)
        for w in c.encoding_warnings or ():
            groups.setdefault(("%s:%s" % (w.file, w.line), "EncodingWarning: " + w.message),
                              []).append(name)
    return sorted(((where, what, names) for (where, what), names in groups.items()),
                  key=lambda g: (-len(g[2]), g[0], g[1]))


def _program_text(result, columns=None):
    from .. import pages
    columns = columns or pages.width()
    sets = list(result.env_sets)
    by = _by(result)
    pythons = []
    for c in result.cells:
        if c.python not in pythons:
            pythons.append(c.python)
    out = ["utf8env matrix -- " + " ".join(result.command), ""]
    head = ["python"] + [es.name for es in sets]
    body = [[py] + [_grid_cell(by[(py, es.name)]) if (py, es.name) in by else "-" for es in sets]
            for py in pythons]
    out += [pages.table(head, body, columns), ""]
    out.append("Environment sets:")
    for es in sets:
        out += pages.wrap("%s: %s" % (es.name, es.description), columns, "  ", "    ")
    out += pages.wrap("A cell: ok, the exception that ended the run (or exit N), wN: N "
                      "EncodingWarnings.", columns, "  ", "    ")
    out.append("")
    out.append("Python 3.15 (PEP 686: UTF-8 mode on by default; still off with -X utf8=0):")
    said = {}
    for es in sets:
        for py in pythons:
            c = by.get((py, es.name))
            if c is not None and py != "2.7":
                said.setdefault(_pep686_text(c, es), []).append("%s %s" % (py, es.name))
    for text, names in said.items():
        out += pages.wrap("%s: %s" % (", ".join(names), text), columns, "  ", "    ")
    groups = findings(result)
    if groups:
        out.append("")
        out.append("Findings, by place in the code:")
        for where, what, names in groups:
            out += pages.wrap("%s \u2014 %s: %s" % (where, pages.plural(len(names), "cell"), what),
                              columns, "  ", "    ")
            out += pages.wrap(", ".join(names), columns, "    ", "    ")
    out.append("")
    out.append("%s, %d with a problem" % (pages.plural(len(result.cells), "cell"), result.problems))
    return "\n".join(out) + "\n"


def _program_markdown(result):
    head, body = _program_rows(result)
    return "# utf8env matrix: `%s`\n\n%s\n" % (" ".join(result.command), _md_table(head, body))


def _program_html(result):
    out = ["<h1>utf8env matrix: <code>%s</code></h1>" % _e(" ".join(result.command)),
           '<table class="grid"><tr><th>Python</th><th>environment</th><th>result</th></tr>']
    for c in result.cells:
        cls = "no" if c.status == "ok" else "yes"
        detail = "<pre>exit %s\n%s\n%s</pre><pre>stdout %s</pre><pre>%s</pre>" % (
            _e(c.exit), _e(c.unicode_error or ""), _e(c.where or ""), _e(c.stdout),
            _e(c.stderr))
        out.append('<tr><th>%s</th><td>%s</td><td class="%s"><details><summary>%s</summary>%s'
                   '</details></td></tr>' % (_e(c.python), _e(c.env_set), cls, _e(c.status), detail))
    out.append("</table>")
    return _page("utf8env matrix", "\n".join(out))
