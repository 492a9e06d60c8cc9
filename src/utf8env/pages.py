"""What the reports of `utf8env matrix` (PEP and user-program modes) and
`utf8env readiness` share: text tables that fit a terminal, wrapped lines, Markdown
tables, bytes shown as text, GitHub workflow commands, and the one self-contained HTML
page (no scripts, no links out). Renders only: every value comes from a result."""
import html
import os
import sys
import textwrap

WIDTH = 100


def width(stream=None):
    """The columns a text report may use: 100, or the terminal's when it is wider."""
    stream = stream or sys.stdout
    try:
        if stream.isatty():
            return max(WIDTH, os.get_terminal_size(stream.fileno()).columns)
    except (AttributeError, OSError, ValueError):
        pass
    return WIDTH


def wrap(text, columns, indent="", subsequent=None):
    """`text` in lines of at most `columns`, the first starting with `indent`."""
    subsequent = indent + "  " if subsequent is None else subsequent
    return textwrap.wrap(text, columns, initial_indent=indent, subsequent_indent=subsequent,
                         break_on_hyphens=False, break_long_words=True) or [indent.rstrip()]


def table(head, body, columns=WIDTH, squeeze=None):
    """A text table under an underline of "=", columns two spaces apart, trailing spaces
    removed; the column `squeeze` (an index) is cut with "…" so a line fits `columns`."""
    body = [[str(x) for x in row] for row in body]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    if squeeze is not None:
        over = sum(widths) + 2 * (len(widths) - 1) - columns
        if over > 0:
            keep = max(len(head[squeeze]), widths[squeeze] - over, 8)
            widths[squeeze] = keep
            body = [row[:squeeze] + [_cut(row[squeeze], keep)] + row[squeeze + 1:] for row in body]
    fmt = "  ".join("%%-%ds" % w for w in widths)
    lines = [fmt % tuple(head), fmt % tuple("=" * w for w in widths)]
    lines += [fmt % tuple(row) for row in body]
    return "\n".join(line.rstrip() for line in lines)


def _cut(text, size):
    return text if len(text) <= size else text[:size - 1] + "\u2026"


def markdown_table(head, body):
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    lines += ["| " + " | ".join(md_cell(x) for x in row) + " |" for row in body]
    return "\n".join(lines)


def md_cell(value):
    return str(value).replace("|", "\\|").replace("\n", " ")


def shown(data, encoding="utf-8"):
    """Bytes as a reader sees them: decoded (`encoding`), undecodable bytes as \\xNN."""
    if data is None:
        return ""
    if isinstance(data, str):
        return data
    return data.decode(encoding, "backslashreplace")


def plural(n, word, words=None):
    return "%d %s" % (n, word if n == 1 else (words or word + "s"))


# -- GitHub workflow commands ----------------------------------------------------------
# The escaping of @actions/core (toolkit, packages/core/src/command.ts): the message
# escapes %, \r and \n; a property also escapes : and ,.

def github_data(text):
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text):
    return github_data(text).replace(":", "%3A").replace(",", "%2C")


def github_command(command, message, **properties):
    """`::command key=value,...::message`, properties in the order file, line, title."""
    order = [k for k in ("file", "line", "endLine", "col", "title") if properties.get(k) is not None]
    props = ",".join("%s=%s" % (k, github_property(str(properties[k]))) for k in order)
    return "::%s%s::%s" % (command, " " + props if props else "", github_data(message))


# -- HTML --------------------------------------------------------------------------------

CSS = """
body{font-family:sans-serif;margin:1.5em;max-width:90em;color:#111}
table{border-collapse:collapse;margin:.5em 0 1.5em}
th,td{border:1px solid #999;padding:.25em .5em;vertical-align:top;text-align:left}
td.yes,td.bad{background:#f4b6b6} td.no,td.ok{background:#bfe8bf} td.none{background:#ddd}
td.error,td.warn{background:#f7e08a}
td.differ{outline:3px solid #333;outline-offset:-3px}
td.change{box-shadow:inset 0 -4px 0 #7a4cc2}
summary{cursor:pointer;font-weight:bold}
pre{white-space:pre-wrap;margin:.2em 0;font-size:90%}
.ev{font-size:85%;border-top:1px dotted #777;margin-top:.3em;padding-top:.3em}
.badge{font-size:80%;font-weight:normal;background:#fff;border:1px solid #777;border-radius:.6em;padding:0 .35em;margin-left:.3em}
dl.legend{display:grid;grid-template-columns:max-content auto;gap:.15em 1em}
dl.legend dt{font-weight:bold} dl.legend dd{margin:0}
.summary{font-size:110%;padding:.4em .6em;background:#eef;border:1px solid #99c;display:inline-block}
"""


def e(text):
    return html.escape("" if text is None else str(text))


def page(title, body):
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title>"
            "<style>%s</style></head><body>\n%s\n</body></html>\n" % (e(title), CSS, body))
