"""A user's program's result (matrix -- COMMAND) as its pages show it: the cells by
Python and environment set, why each failed, what UTF-8 mode and Python 3.15 change
(the engine's answer, in the result), the findings by place in the code, the Windows
row in words. Decides nothing."""
import os
import re

from ._page_parts import ranges
from ._windows import row as windows_row
from .. import _pages as pages
from .._worlds.cells import where as cell_where


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


def short(cell):
    if cell.status in ("ok", "timeout"):
        return cell.status
    line = failure_line(cell) or ""
    name = line.split(":", 1)[0]
    return name if _TRACEBACK_END.match(name) and " " not in name else cell.status


class ProgramView(object):
    """A ProgramResult as its pages show it: cells by (python, env set), paths inside the
    script's folder relative to it, outputs decoded for the cell's reader (or raw)."""

    def __init__(self, result, raw):
        self.result, self.raw = result, raw
        self.sets = list(result.env_sets)
        self.by = {(grid_row(c), c.env_set): c for c in result.cells}
        self.pythons = []
        for c in result.cells:
            if grid_row(c) not in self.pythons:
                self.pythons.append(grid_row(c))
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
        text = short(cell)
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
            return "on: no change (%s either way)" % short(cell)
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
        return ", ".join(([ranges(linux, order, ", ")] if linux else [])
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
            name = (grid_row(c), c.env_set)
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


CELL_LEGEND = "A cell: ok, the exception that ended the run (or exit N), wN: N EncodingWarnings."
_NOT_APPLICABLE = "n/a"
WINDOWS_HEAD = "Windows (matrix --windows):"


def grid_row(cell):
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


NOT_RUN_HEAD = "Not run here (their locale world cannot be made on this machine):"


def not_run_count(result):
    n = len(result.not_run)
    return "; %s not run" % pages.plural(n, "environment set") if n else ""


PEP686_HEAD = "Python 3.15 (PEP 686: UTF-8 mode on by default; still off with -X utf8=0):"
