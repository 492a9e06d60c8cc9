"""The PEP reproduction's result as its pages show it (text, Markdown, HTML): each cell
measured beside the PEP's value, the agreement with the PEPs' tables and its
differences, the "3.15" column (what Python 3.15 changes: the engine's answer, in the
result), the rows' environments. Decides nothing."""
import re

from ._page_parts import MODE, ranges
from ._pep import COLUMNS
from .._engine.profiles import VERSIONS, version_key


def yn(value):
    return "-" if value is None else ("Yes" if value else "No")


def _mark(entry, col):
    a = getattr(entry.agreement, col)
    return "" if a is None else ("" if a.agree else " *")


def cell(entry, col):
    got = yn(getattr(entry, col))
    if entry.errors and getattr(entry, col) is None:
        got = "!"
    pep = entry.pep
    want = "" if pep is None or getattr(pep, col) is None else " (PEP %s)" % yn(getattr(pep, col))
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


def agreement_grid(result):
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
        modes = sorted({MODE.get(m, str(m)) for _, m, _, _, _ in self.envs})
        sources = []
        for _, _, src, _, _ in self.envs:
            if src != "default" and src not in sources:
                sources.append(src)
        out = "/".join(modes) + (" (%s)" % ", ".join(sources) if sources else "")
        changed = [(today, m) for _, m, _, today, _ in self.envs if today is not None and today != m]
        if changed:
            was = sorted({MODE.get(t, str(t)) for t, _ in changed})
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
            name, "" if today is None or today == m else "%s today, " % MODE.get(today, today),
            MODE.get(m, m) + " on 3.15", src, detail) for name, m, src, today, detail in self.envs]


PEP686_LEGEND = ("3.15: UTF-8 mode on Python 3.15 (PEP 686: on by default, still off with "
                  "-X utf8=0) in the row's environments, as utf8env._engine.policy.decide says, and "
                  "what it is today where that differs (\"utf8env\": utf8env run --utf8 gives "
                  "it, today and on 3.15).")


def pep_pythons(result):
    """The PEP run's interpreters as program results list them, each once."""
    out = []
    for ce in result.environments:
        env = ce.environment
        p = {"version": env.version, "argv": list(env.argv), "origin": env.origin}
        if p not in out:
            out.append(p)
    return sorted(out, key=lambda p: version_key(p["version"]))


def row_envs(result):
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
            names.append(template.replace("\0", ranges(versions, VERSIONS)))
        out.append((row, names))
    return out
