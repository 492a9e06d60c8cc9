"""Rendering of matrix results (results.py's records): text (the PEP's layout, the
PEP's value beside each measured one and what Python 3.15 changes, then the agreement
table; for a user's program a Python x environment-set grid), Markdown, one
self-contained HTML page (pages.py's), JSON. Never decides anything: every value comes
from the result, what Python 3.15 does too (the engine's answer, _pep686.py, asked when the
result was built).
Text is decoded for a reader of the cell's environment, with the bytes where they are
the evidence, or everywhere with `raw` (--bytes)."""
import json
import os
import re

from ._pep import COLUMNS, agreement_counts
from . import FORMATS  # noqa: F401 (the formats render() knows)
from .._engine.records import as_json
from .. import _output as output, _pages as pages
from .._discovery import NAMED
from .._engine.profiles import VERSIONS
from ._windows import row as windows_row
from .._worlds.cells import where as cell_where

_e = pages.e


def render(result, fmt, columns=None, raw=False):
    """The page of `result` in `fmt`; text lines fit `columns` (default: pages.width());
    `raw`: the bytes (repr) of outputs and files everywhere."""
    if fmt == "json":
        return json.dumps(as_json(result), indent=1, sort_keys=True, ensure_ascii=True) + "\n"
    columns = columns or pages.width()
    if result.mode == "program":
        view = _ProgramView(result, raw)
        return {"text": lambda: _program_text(view, columns), "markdown": lambda: _program_markdown(view),
                "html": lambda: _program_html(view)}[fmt]()
    return {"text": lambda: _text(result, columns), "markdown": lambda: _markdown(result),
            "html": lambda: _html(result, raw)}[fmt]()


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


# -- what Python 3.15 changes (PEP 686), from the engine -------------------------------

_MODE = {0: "off", 1: "on", "strict": "strict"}


class Pep686(object):
    """The "3.15" column of one PEP row: per environment, UTF-8 mode today (measured by
    the configuration check; for a cell of `utf8env run` the launcher's request) and on
    Python 3.15 in the same environment (the engine's, in the result)."""

    def __init__(self, result, row):
        self.envs = []
        for ce in result.environments:
            env, on = ce.environment, ce.python_3_15
            if env.row != row:
                continue
            seen = ce.observed
            today = on.utf8_mode if env.launcher else (None if not seen else seen.get("utf8_mode"))
            self.envs.append((env.name, on.utf8_mode, on.source, today, on.detail))

    def text(self):
        """E.g. "on; was off", "off (-X utf8=0)", "on; 2 of 5 were off"."""
        if not self.envs:
            return "-"
        modes = sorted({_MODE.get(m, str(m)) for _, m, _, _, _ in self.envs})
        sources = []
        for _, _, src, _, _ in self.envs:
            if src != "default" and src not in sources:
                sources.append(src)
        out = "/".join(modes) + (" (%s)" % ", ".join(sources) if sources else "")
        changed = [(today, m) for _, m, _, today, _ in self.envs if today is not None and today != m]
        if changed:
            was = sorted({_MODE.get(t, str(t)) for t, _ in changed})
            if len(changed) == len(self.envs):
                out += "; was " + "/".join(was)
            else:
                out += "; %d of %d were %s" % (len(changed), len(self.envs), "/".join(was))
        return out

    def changes(self):
        return any(today is not None and today != m for _, m, _, today, _ in self.envs)

    def lines(self):
        """One line per environment."""
        return ["%s: %s%s (%s: %s)" % (
            name, "" if today is None or today == m else "%s today, " % _MODE.get(today, today),
            _MODE.get(m, m) + " on 3.15", src, detail) for name, m, src, today, detail in self.envs]


_PEP686_LEGEND = ("3.15: UTF-8 mode on Python 3.15 (PEP 686: on by default, still off with "
                  "-X utf8=0) in the row's environments, as utf8env._engine.policy.decide says, and "
                  "what it is today where that differs (\"utf8env\": utf8env run --utf8 gives "
                  "it, today and on 3.15).")


# -- where the interpreters came from ----------------------------------------------------

_PYTHONS_HEAD = "Pythons, where each was found (the first found of each version runs):"


def python_lines(pythons, left_out):
    """Each interpreter run, "3.9: PATH (where it was found)", then each found that runs
    nowhere, with why; [] when --python named them all and nothing was left out. Paths
    with their control characters as \\xNN (a folder name must not drive the terminal)."""
    shown = [p for p in pythons if p.get("origin")]
    if all(p["origin"] == NAMED for p in shown) and not left_out:
        return []
    # A chroot's interpreter by its path there: its origin names the chroot.
    return (["%s: %s (%s)" % (p["version"], _line(p["argv"][-1]), _line(p["origin"]))
             for p in shown]
            + ["%s (%s) left out: %s" % (_line(u.path), _line(u.origin), _line(u.why))
               for u in left_out])


def _pythons_text(lines):
    """The text page's block: each line whole, however long (a path is never cut, so that
    it can be copied)."""
    return ["", _PYTHONS_HEAD] + ["  " + line for line in lines] if lines else []


def _line(text):
    """A value of the page (a path, a reason) as one line for any terminal."""
    return output.error_line(output.shown(text))


def _pep_pythons(result):
    """The PEP run's interpreters as program results list them, each once."""
    out = []
    for ce in result.environments:
        env = ce.environment
        p = {"version": env.version, "argv": list(env.argv), "origin": env.origin}
        if p not in out:
            out.append(p)
    return sorted(out, key=lambda p: [int(n) for n in p["version"].split(".")])


# -- the PEP reproduction's pages ---------------------------------------------------------

def _row_envs(result):
    """[(row, [environment names])], in the rows' order; the environments that differ only
    by their Python's version as one name with the versions (3.7-3.15 LANG=C -X utf8)."""
    out = []
    for row in result.rows:
        groups = []
        for ce in result.environments:
            env = ce.environment
            if env.row != row:
                continue
            words = env.name.split(" ")
            at = words.index(env.version) if env.version in words else None
            template = env.name if at is None else " ".join(words[:at] + ["\0"] + words[at + 1:])
            found = next((g for g in groups if g[0] == template), None)
            if found is None:
                groups.append((template, [env.version]))
            elif env.version not in found[1]:
                found[1].append(env.version)
        names = []
        for template, versions in groups:
            if template.split(" [")[0] == "\0":        # no variable, no option
                template = "\0 (nothing set)" + template[1:]
            names.append(template.replace("\0", _ranges(versions, VERSIONS)))
        out.append((row, names))
    return out


def _ranges(versions, order, sep="/"):
    """"3.7-3.15" for three or more consecutive versions of `order`, else "3.6/3.10"."""
    if len(versions) < 3 or any(v not in order for v in versions):
        return sep.join(versions)
    at = [order.index(v) for v in versions]
    if at == list(range(at[0], at[0] + len(at))):
        return "%s-%s" % (versions[0], versions[-1])
    return sep.join(versions)


def _text(result, columns=pages.WIDTH):
    out = []
    col315 = {row: Pep686(result, row) for row in result.rows}
    for t in result.tables:
        out.append("%s (%s: %s)" % (t.title, t.source, t.scenario))
        body = [[r.row, _cell(r, "exception"), _cell(r, "mojibake"), col315[r.row].text()]
                for r in t.rows]
        out.append(pages.table(["Python", "Exception?", "Mojibake?", "3.15"], body, columns, squeeze=3))
        out.append("")
    head, body = _agreement_grid(result)
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
                s, row, col.capitalize() + "?", _yn(pep), _yn(got), why), columns, "  ", "    ")
    for e in result.environments:
        if e.problem:
            out += pages.wrap("environment %s left out: %s" % (e.environment.name, e.problem),
                              columns, "", "  ")
    out.append("")
    out.append("Rows, each a set of environments (Yes: at least one of them showed it):")
    for row, names in _row_envs(result):
        out += pages.wrap("%s: %s" % (row, ", ".join(names)), columns, "  ", "    ")
    out += pages.wrap(_PEP686_LEGEND, columns, "  ", "    ")
    out += _pythons_text(python_lines(_pep_pythons(result), result.pythons_left_out))
    tm = result.timing
    out.append("")
    out.append("%d environments, %d jobs, %.1f s (cells' own time %.1f s on %d workers)" % (
        len(result.environments), tm.jobs, tm.wall_seconds, tm.cell_seconds, tm.workers))
    return "\n".join(out) + "\n"


def _markdown(result):
    out = ["# utf8env matrix: the PEP 540 / PEP 538 use cases, measured", ""]
    col315 = {row: Pep686(result, row) for row in result.rows}
    for t in result.tables:
        out.append("## %s (%s, `%s`)" % (t.title, t.source, t.scenario))
        out.append("")
        out.append("Mojibake: " + t.mojibake_definition + ".")
        out.append("")
        body = [[r.row, _cell(r, "exception"), _cell(r, "mojibake"), col315[r.row].text()]
                for r in t.rows]
        out.append(pages.markdown_table(["Python", "Exception?", "Mojibake?", "3.15"], body))
        out.append("")
    head, body = _agreement_grid(result)
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
                s, row, col.capitalize(), _yn(pep), _yn(got), pages.md_code(why)))
    out += ["", "## Rows, each a set of environments", ""]
    for row, names in _row_envs(result):
        out.append("- %s: %s" % (row, ", ".join(pages.md_code(n) for n in names)))
    out += ["", _PEP686_LEGEND]
    return "\n".join(out) + "\n"


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
            % (cls, col, _e(_cell(entry, col)), why, _evidence(entry.cells, col, raw)))


def _html_315(col315):
    cls = "p686 change" if col315.changes() else "p686"
    return ('<td class="%s" data-scenario-col="3.15"><details><summary>%s</summary><ul>%s</ul>'
            '</details></td>' % (cls, _e(col315.text()),
                                 "".join("<li>%s</li>" % _e(x) for x in col315.lines())))


def _html(result, raw=False):
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
           "<p>%s</p>" % _e(_PEP686_LEGEND),
           '<dl class="legend" id="legend">']
    for row, names in _row_envs(result):
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
    head, body = _agreement_grid(result)
    out.append("<h2>Agreement with the PEPs' tables</h2><p>%d agree, %d differ.</p>" % (agree, differ))
    out.append('<table id="agreement"><tr>%s</tr>' % "".join("<th>%s</th>" % _e(h) for h in head))
    for b in body:
        out.append("<tr>%s</tr>" % "".join("<td>%s</td>" % _e(x) for x in b))
    out.append("</table><ul>")
    for s, row, col, pep, got, why in differences(result):
        out.append("<li><code>%s</code> / %s / %s?: PEP %s, measured %s: %s</li>" % (
            _e(s), _e(row), _e(col.capitalize()), _yn(pep), _yn(got), _e(why)))
    out.append("</ul>")
    for e in left_out:
        out.append("<p>environment <code>%s</code> left out: %s</p>" % (
            _e(e.environment.name), _e(e.problem)))
    if cells == 0:
        out.append("<p>No scenario ran.</p>")
    return pages.page("utf8env matrix", "\n".join(out))


# -- the user's own program --------------------------------------------------------

_TRACEBACK_END = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Failure)"
                            r"\b.*|[A-Za-z_][\w.]*Error)$")
_LIMIT = 60         # bytes of an output shown in a line


def failure_line(cell):
    """The line that says why a cell failed: a traceback's exception line (any exception:
    a click RuntimeError, a UnicodeError), else the last line on stderr (a SystemExit
    message), else "exit N"; None for a cell that is ok."""
    if cell.status == "ok":
        return None
    if cell.status == "timeout":
        return "timed out"
    lines = [l for l in (cell.stderr or "").splitlines() if l.strip()]
    fatal = [i for i, l in enumerate(lines) if l.startswith("Fatal Python error: ")]
    if fatal:
        # The interpreter did not start (a locale codeset without a codec of that name):
        # the exception it names, and CPython's own words.
        said = lines[fatal[0]]
        for line in lines[fatal[0] + 1:]:
            if _TRACEBACK_END.match(line.strip()):
                return "%s (%s)" % (line.strip(), said)
        return said
    if any(l.startswith("Traceback") for l in lines):
        for line in reversed(lines):
            if _TRACEBACK_END.match(line.strip()):
                return line.strip()
    if lines:
        return lines[-1].strip()
    return "exit %s" % cell.exit


def _short(cell):
    if cell.status in ("ok", "timeout"):
        return cell.status
    line = failure_line(cell) or ""
    name = line.split(":", 1)[0]
    return name if _TRACEBACK_END.match(name) and " " not in name else cell.status


class _ProgramView(object):
    """A ProgramResult as its pages show it: cells by (python, env set), paths inside the
    script's folder relative to it, outputs decoded for the cell's reader (or raw)."""

    def __init__(self, result, raw):
        self.result, self.raw = result, raw
        self.sets = list(result.env_sets)
        self.by = {(_row(c), c.env_set): c for c in result.cells}
        self.pythons = []
        for c in result.cells:
            if _row(c) not in self.pythons:
                self.pythons.append(_row(c))
        self.windows = result.windows or None
        command = list(result.command)
        self.base = os.path.dirname(command[0]) + os.sep if command else None
        self.title = " ".join([self.path(command[0])] + command[1:]) if command else ""

    def path(self, path):
        if self.base and path and path.startswith(self.base):
            return path[len(self.base):]
        return path

    def where(self, cell):
        """file:line of a cell's failure (the last traceback frame), or None."""
        if cell.where:
            return self.path(cell.where)
        if cell.status == "ok":
            return None
        found = cell_where((cell.stderr or "").encode("utf-8", "surrogateescape"))
        return self.path(found) if found else None

    def grid_cell(self, cell):
        text = _short(cell)
        if cell.encoding_warnings:
            text += " w%d" % len(cell.encoding_warnings)
        return text

    def grid(self):
        head = ["python"] + [es.name for es in self.sets]
        body = [[py] + [self.grid_cell(self.by[(py, es.name)]) if (py, es.name) in self.by
                        else self.absent(py, es) for es in self.sets] for py in self.pythons]
        return head, body

    def absent(self, py, es):
        """What the grid shows where a row has no cell: "n/a" for a Windows row in a set
        that stands for no code page, else "-"."""
        if self.windows and py == self.windows["row"] and es.name in self.windows["not_applicable"]:
            return _NOT_APPLICABLE
        return "-"

    def _show(self, data, reader):
        return pages.text_of(data, reader, self.raw, _LIMIT)

    def _name(self, name, reader):
        """A file name: as the reader decodes it, the bytes when it does not decode."""
        if not self.raw:
            try:
                return name.decode(reader)
            except UnicodeDecodeError:
                pass
        return repr(name)

    def changes(self, cell):
        """[what differs between UTF-8 mode off and on], decoded for the cell's reader."""
        ev = cell.evidence
        if ev is None or ev.off is None or ev.on is None:
            return [x for x in (cell.utf8_mode_changes or "").split("; ") if x]
        (s0, out0, files0), (s1, out1, files1) = ev.off, ev.on
        said = []
        if s0 != s1:
            said.append("status %s -> %s" % (s0, s1))
        if out0 != out1:
            said.append("stdout %s -> %s" % (self._show(out0, ev.reader), self._show(out1, ev.reader)))
        for name in sorted(set(files0) | set(files1)):
            a, b = files0.get(name), files1.get(name)
            if a != b:
                said.append("file %s %s -> %s" % (self._name(name, ev.reader),
                                                  self._show(a, ev.reader), self._show(b, ev.reader)))
        return said

    def pep686_text(self, cell, env_set):
        """What Python 3.15 changes for the cell: UTF-8 mode there (the engine), and what
        the runs with it forced off and on showed."""
        mode, source = self.on_315(env_set)
        if not mode:
            return "off (%s)" % source
        if env_set.utf8 == "1":
            return "on already"
        changes = "; ".join(self.changes(cell))
        if not changes and cell.status != "ok":
            return "on: no change (%s either way)" % _short(cell)
        return "on: " + (changes or "no change")

    def on_315(self, env_set):
        """(UTF-8 mode on Python 3.15, what decides it) in `env_set`, from the result."""
        on = self.result.python_3_15[env_set.name]
        return on.utf8_mode, on.source

    def pep686_groups(self):
        """[(text, [cell names])] in the order of the sets and the pythons; 2.7 left out."""
        said = {}
        for es in self.sets:
            for py in self.pythons:
                c = self.by.get((py, es.name))
                if c is not None and py != "2.7":
                    said.setdefault(self.pep686_text(c, es), []).append((py, es.name))
        return [(text, self.named(cells)) for text, cells in said.items()]

    def named(self, cells):
        """(python, env set) pairs in words: the sets with the same Pythons together, the
        Pythons as ranges of this run's ("c-legacy (3.6-3.15), c-locale (3.6)")."""
        by_set = []
        for es in self.sets:
            pys = [py for py in self.pythons if (py, es.name) in cells]
            if pys:
                found = next((g for g in by_set if g[1] == pys), None)
                if found:
                    found[0].append(es.name)
                else:
                    by_set.append(([es.name], pys))
        return ", ".join("%s (%s)" % (", ".join(names), self._ranges(pys))
                         for names, pys in by_set)

    def _ranges(self, pys):
        """The Linux Pythons as ranges of this run's, then the Windows row's label."""
        row = self.windows["row"] if self.windows else None
        linux = [py for py in pys if py != row]
        order = [py for py in self.pythons if py != row]
        return ", ".join(([_ranges(linux, order, ", ")] if linux else [])
                         + [py for py in pys if py == row])

    def output(self, cell, what):
        ev = cell.evidence
        if ev is None:
            return getattr(cell, what)
        if what == "stderr" and not self.raw:
            return ev.stderr.decode("utf-8", "backslashreplace")
        return self._show(getattr(ev, what), ev.reader) if what == "stdout" else repr(ev.stderr)

    def files(self, cell):
        ev = cell.evidence
        if ev is None:
            return sorted(cell.files.items())
        return [(self._name(n, ev.reader), pages.text_of(v, ev.reader, self.raw, _LIMIT))
                for n, v in sorted(ev.files.items())]

    def findings(self):
        """[(file:line, what, the cells in words, how many)]: the failures and
        EncodingWarnings of every cell, grouped by the place in the code, most cells first."""
        groups = {}
        for c in self.result.cells:
            name = (_row(c), c.env_set)
            line = failure_line(c)
            if line:
                where = self.where(c) or ("start-up" if line.endswith(")") and
                                          "(Fatal Python error: " in line else "?")
                groups.setdefault((where, line), []).append(name)
            for w in c.encoding_warnings or ():
                groups.setdefault(("%s:%s" % (self.path(w.file), w.line),
                                   "EncodingWarning: " + w.message), []).append(name)
        return sorted(((where, what, self.named(cells), len(cells))
                       for (where, what), cells in groups.items()),
                      key=lambda g: (-g[3], g[0], g[1]))

    def changed_by_315(self, cell, env_set):
        """Python 3.15 turns UTF-8 mode on where this cell ran without it, and that
        changes what the cell does (the 3.15 interpreter's own cells are that already; on
        Windows too, PEP 686: the run with UTF-8 mode off is the cell's)."""
        if cell.python in ("2.7", "3.15") or env_set.utf8 == "1":
            return False
        return bool(self.on_315(env_set)[0]) and bool(self.changes(cell))

    def counts(self):
        cells = self.result.cells
        return [pages.plural(len(cells), "cell"),
                "%d ok" % sum(c.status == "ok" for c in cells),
                "%d with a problem" % self.result.problems,
                "%d with EncodingWarnings" % sum(bool(c.encoding_warnings) for c in cells),
                "%d that Python 3.15 changes" % sum(self.changed_by_315(c, es) for c in cells
                                                     for es in self.sets if es.name == c.env_set)
                ] + (["%s not run" % pages.plural(len(self.result.not_run), "environment set")]
                     if self.result.not_run else [])


def findings(result):
    """[(file:line, what, the cells in words, how many)], grouped by the place in the code."""
    return _ProgramView(result, False).findings()


_CELL_LEGEND = "A cell: ok, the exception that ended the run (or exit N), wN: N EncodingWarnings."
_NOT_APPLICABLE = "n/a"
_WINDOWS_HEAD = "Windows (matrix --windows):"


def _row(cell):
    """The grid's row of a cell: its Python's version, "3.13 win" for a Windows row's."""
    if cell.platform == "win32":
        return windows_row(cell.python)
    return cell.python


def windows_lines(result):
    """The Windows row in words: who stood in and what Wine cannot show, where it runs
    and where it is "n/a"; or why it was not run. [] without --windows."""
    w = result.windows
    if not w:
        return []
    linux = [w["no_linux_rows"]] if w.get("no_linux_rows") else []
    if w["not_run"]:
        return ["%s not run: %s" % (w["row"], w["not_run"])] + linux
    out = [w["world"]]
    out.append("%s runs in the code page each set stands for (%s)%s" % (
        w["row"], ", ".join("%s %d" % kv for kv in w["code_pages"].items()),
        "; %s: the set stands for no Windows code page (%s)" % (
            _NOT_APPLICABLE, ", ".join(w["not_applicable"])) if w["not_applicable"] else ""))
    out += ["%s not run in %s (code page %d): %s" % (w["row"], name, w["code_pages"][name], why)
            for name, why in w.get("left_out", {}).items()]
    return out + linux


_NOT_RUN_HEAD = "Not run here (their locale world cannot be made on this machine):"


def _not_run_count(result):
    n = len(result.not_run)
    return "; %s not run" % pages.plural(n, "environment set") if n else ""


_PEP686_HEAD = "Python 3.15 (PEP 686: UTF-8 mode on by default; still off with -X utf8=0):"


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


def _program_text(view, columns=pages.WIDTH):
    result = view.result
    out = ["utf8env matrix -- " + view.title, ""]
    head, body = view.grid()
    for table in _grid_chunks(head, body, columns):
        out += [table, ""]
    out.append("Environment sets:")
    for es in view.sets:
        out += pages.wrap("%s: %s" % (es.name, es.description), columns, "  ", "    ")
    out += pages.wrap(_CELL_LEGEND, columns, "  ", "    ")
    out += _pythons_text(python_lines(result.pythons, result.pythons_left_out))
    if result.not_run:
        out.append("")
        out.append(_NOT_RUN_HEAD)
        for n in result.not_run:
            out += pages.wrap("%s: %s" % (n.env_set, n.reason), columns, "  ", "    ")
    if result.windows:
        out.append("")
        out.append(_WINDOWS_HEAD)
        for line in windows_lines(result):
            out += pages.wrap(line, columns, "  ", "    ")
    out.append("")
    out.append(_PEP686_HEAD)
    for text, names in view.pep686_groups():
        out += pages.wrap("%s: %s" % (names, text), columns, "  ", "    ")
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
                                            result.problems, _not_run_count(result)))
    return "\n".join(out) + "\n"


def _program_markdown(view):
    result = view.result
    head, body = view.grid()
    out = ["# utf8env matrix: %s" % pages.md_code(view.title), "",
           pages.markdown_table(head, body), "", "Environment sets:", ""]
    for es in view.sets:
        out.append("- `%s`: %s" % (es.name, es.description))
    out += ["", _CELL_LEGEND]
    pythons = python_lines(result.pythons, result.pythons_left_out)
    if pythons:
        out += ["", "## " + _PYTHONS_HEAD.rstrip(":"), ""]
        out += ["- " + pages.md_code(line) for line in pythons]
    if result.not_run:
        out += ["", "## " + _NOT_RUN_HEAD.rstrip(":"), ""]
        out += ["- `%s`: %s" % (n.env_set, n.reason) for n in result.not_run]
    if result.windows:
        out += ["", "## " + _WINDOWS_HEAD.rstrip(":"), ""]
        out += ["- " + line for line in windows_lines(result)]
    out += ["", "## " + _PEP686_HEAD.rstrip(":"), ""]
    for text, names in view.pep686_groups():
        out.append("- %s: %s" % (names, pages.md_code(text)))
    groups = view.findings()
    if groups:
        out += ["", "## Findings, by place in the code", ""]
        for where, what, names, n in groups:
            out.append("- %s \u2014 %s: %s; %s" % (pages.md_code(where), pages.plural(n, "cell"),
                                                  pages.md_code(what), names))
    out += ["", "%s, %d with a problem%s." % (pages.plural(len(result.cells), "cell"),
                                               result.problems, _not_run_count(result))]
    return "\n".join(out) + "\n"


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
        body.append("<p>Python 3.15: UTF-8 mode %s (%s)</p>" % (_MODE.get(mode, mode), _e(source)))
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
                cls, _e(_row(cell)), _e(cell.env_set), _e(_short(cell)), badges, "".join(body)))


def _program_html(view):
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
        out.append('<h2>%s</h2><ul id="not-run">' % _e(_NOT_RUN_HEAD.rstrip(":")))
        out += ["<li><code>%s</code>: %s</li>" % (_e(n.env_set), _e(n.reason))
                for n in result.not_run]
        out.append("</ul>")
    if result.windows:
        out.append('<h2>%s</h2><ul id="windows">' % _e(_WINDOWS_HEAD.rstrip(":")))
        out += ["<li>%s</li>" % _e(line) for line in windows_lines(result)]
        out.append("</ul>")
    out.append("<h2>%s</h2><ul>" % _e(_PEP686_HEAD.rstrip(":")))
    for text, names in view.pep686_groups():
        out.append("<li>%s: %s</li>" % (_e(names), _e(text)))
    out.append("</ul>")
    groups = view.findings()
    if groups:
        out.append('<h2>Findings, by place in the code</h2><ul id="findings">')
        for where, what, names, n in groups:
            out.append("<li><code>%s</code> \u2014 %s: %s<br><small>%s</small></li>" % (
                _e(where), _e(pages.plural(n, "cell")), _e(what), _e(names)))
        out.append("</ul>")
    return pages.page("utf8env matrix", "\n".join(out))
