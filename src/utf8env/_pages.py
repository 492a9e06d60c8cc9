"""What the reports of `utf8env matrix` (PEP and user-program modes) and
`utf8env readiness` share: text tables that fit a terminal, wrapped lines, Markdown
tables, bytes shown as text, GitHub workflow commands, and the one self-contained HTML
page (no scripts, no links out). Renders only: every value comes from a result."""
import html
import shutil
import sys
import textwrap

WIDTH = 100


def width(stream=None):
    """The columns a text report may use: 100, or the terminal's when `stream` (stdout)
    is a terminal wider than that."""
    stream = stream or sys.stdout
    try:
        if stream.isatty():
            return max(WIDTH, shutil.get_terminal_size((WIDTH, 24)).columns)
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


def md_code(text):
    """`text` as Markdown inline code (longer fences when it holds backticks)."""
    text = str(text)
    fence = "`"
    while fence in text:
        fence += "`"
    # CommonMark strips one space inside each end when the content starts and ends with
    # one (not all spaces): a backtick or a space at either end gets one of its own.
    ends = text[:1] + text[-1:]
    pad = " " if ("`" in ends or " " in ends) and text.strip(" ") else ""
    return fence + pad + text + pad + fence


def text_of(data, encoding="utf-8", raw=False, limit=None):
    """Bytes for display: the text a reader decoding with `encoding` sees, as a quoted
    Python str; the bytes (repr) where they are the evidence: when they do not decode
    in `encoding`, or when they are UTF-8 that a reader of another encoding turns into
    other characters (mojibake), shown after the text; always the bytes with `raw`.
    `limit`: at most that many bytes, then "\u2026"."""
    if data is None:
        return "-"
    cut = limit is not None and len(data) > limit
    data = data[:limit] if cut else data
    more = "\u2026" if cut else ""
    text = None if raw else _decoded(data, encoding, cut)
    if text is None:
        return repr(data) + more
    if _other_reading(data, encoding):
        return "%r%s (bytes %r%s)" % (text, more, data, more)
    return repr(text) + more


def _decoded(data, encoding, cut):
    """`data` decoded, or None; a cut may have split the last character (up to 3 bytes)."""
    for trim in range(4 if cut else 1):
        try:
            return data[:len(data) - trim].decode(encoding)
        except UnicodeDecodeError:
            continue
        except LookupError:
            return None
    return None


def _other_reading(data, encoding):
    """Non-ASCII UTF-8 that a reader of `encoding` (not UTF-8) shows as other text."""
    import codecs
    if codecs.lookup(encoding).name == "utf-8":
        return False
    try:
        data.decode("ascii")
        return False
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("utf-8") != data.decode(encoding)
    except UnicodeDecodeError:
        return False


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
td.p686{background:#efe8fa}
.key{display:inline-block;padding:0 .5em;margin-right:.3em;border:1px solid #999}
.key.yes,.key.bad{background:#f4b6b6} .key.no,.key.ok{background:#bfe8bf} .key.error,.key.warn{background:#f7e08a}
.key.differ{outline:3px solid #333;outline-offset:-3px} .key.p686{background:#efe8fa}
.key.change{box-shadow:inset 0 -4px 0 #7a4cc2}
.badge.utf8{border-color:#7a4cc2;color:#4b2a85}
"""


def e(text):
    return html.escape("" if text is None else str(text))


def page(title, body):
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title>"
            "<style>%s</style></head><body>\n%s\n</body></html>\n" % (e(title), CSS, body))
