"""Where `encoding=` goes in a call, and the text that adds it: the call's parentheses found
by tokenize from the end of the callee (3.8+, ast end positions) or from the call's start
(3.6, 3.7: the callee a chain of names, attributes, calls and subscripts), the keyword
placed after the last argument, keeping a trailing comma, a closing parenthesis on a line
of its own, the file's quotes and indentation. Columns are characters (ast's are bytes of
UTF-8)."""
import ast
import tokenize

from .nodes import HAS_END


def split_lines(text):
    """The lines as the compiler counts them (\\r\\n, \\r, \\n), each with its ending."""
    lines = text.splitlines(True)
    if len(lines) == text.count("\n") + text.count("\r") - text.count("\r\n") + \
            (0 if not text or text.endswith(("\n", "\r")) else 1):
        return lines
    # Other characters splitlines() breaks at (\x0c, \x1c, \u2028...) are not line breaks
    # for the compiler: join them back.
    out, current = [], ""
    for piece in lines:
        current += piece
        if piece.endswith(("\n", "\r")):
            out.append(current)
            current = ""
    if current:
        out.append(current)
    return out


def char_col(line, byte_col):
    try:
        return len(line.encode("utf-8")[:byte_col].decode("utf-8"))
    except UnicodeError:
        return byte_col


def _trailers(func):
    """(the bracket groups of the callee's chain of calls and subscripts, whether the
    chain starts at a name: else at an expression in parentheses)."""
    count = 0
    while True:
        if isinstance(func, ast.Call):
            count += 1
            func = func.func
        elif isinstance(func, ast.Subscript):
            count += 1
            func = func.value
        elif isinstance(func, ast.Attribute):
            func = func.value
        else:
            return count, isinstance(func, ast.Name)


class _Token(object):
    __slots__ = ("type", "string", "line", "col", "end_line", "end_col")

    def __init__(self, token, line0, col0):
        self.type, self.string = token[0], token[1]
        (row, col), (end_row, end_col) = token[2], token[3]
        self.line = line0 + row - 1
        self.col = col + (col0 if row == 1 else 0)
        self.end_line = line0 + end_row - 1
        self.end_col = end_col + (col0 if end_row == 1 else 0)


_OPEN, _CLOSE = "([{", ")]}"
_SKIP = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE)


def _call_tokens(lines, call):
    """(the call's "(" token, its ")" token, the first significant token after "(", the
    last before ")", the call's STRING tokens), or None where it cannot be found. 3.8+:
    tokenize from the end of the callee to the first "(" (a callee in parentheses leaves
    ")" before it), which must close at the call's end. 3.6, 3.7: from the call's start,
    the callee a chain of names, attributes, calls and subscripts, the call's "(" the
    bracket group after those of the chain."""
    if HAS_END:
        func = call.func
        line0 = func.end_lineno - 1
        col0 = char_col(lines[line0], func.end_col_offset)
        target = (call.end_lineno - 1,
                  char_col(lines[call.end_lineno - 1], call.end_col_offset) - 1)
        last_line = call.end_lineno
        wanted = 1
        named = True
    else:
        line0 = call.lineno - 1
        col0 = char_col(lines[line0], call.col_offset)
        target = None
        last_line = len(lines)
        wanted, named = _trailers(call.func)
        wanted += 1
    feed = iter([lines[line0][col0:]] + lines[line0 + 1:last_line])
    depth = 0
    groups = 0
    in_base = not named         # 3.6, 3.7: inside the parentheses the callee starts in
    swallowed = 0
    opened = first = previous = None
    strings = []
    try:
        for raw in tokenize.generate_tokens(lambda: next(feed, "")):
            kind = raw[0]
            if kind in _SKIP or kind == tokenize.INDENT or kind == tokenize.DEDENT:
                continue
            if kind == tokenize.ENDMARKER:
                return None
            string = raw[1]
            if kind == tokenize.OP and string in _OPEN:
                token = _Token(raw, line0, col0)
                if depth == 0:
                    groups += 1
                    opened = token
                    first = None
                depth += 1
            elif kind == tokenize.OP and string in _CLOSE:
                if depth == 0 and (in_base or groups == 0):
                    in_base = False         # the end of a callee in parentheses
                    groups = 0
                    swallowed += 1
                    continue
                token = _Token(raw, line0, col0)
                depth -= 1
                if depth < 0:
                    return None
                if depth == 0 and groups == wanted and not in_base:
                    if opened.string != "(" or string != ")" or (
                            target is not None and (token.line, token.col) != target):
                        return None
                    return opened, token, first or token, previous, strings, swallowed
            elif depth == 0 and not in_base and not (
                    target is None and (kind == tokenize.NAME or string == ".")):
                return None
            else:
                token = _Token(raw, line0, col0)
                if kind == tokenize.STRING:
                    strings.append(string)
            if depth >= 1 and first is None and token is not opened:
                first = token
            previous = token
    except (tokenize.TokenError, IndentationError, SyntaxError, StopIteration):
        return None
    return None


def _indent(line):
    return line[:len(line) - len(line.lstrip(" \t"))]


def edits(lines, call, value):
    """([(line index, char column, text)] that add encoding=VALUE, the parentheses
    around the callee's start that 3.6 and 3.7 leave out of the call's column), or None."""
    found = _call_tokens(lines, call)
    if found is None:
        return None
    opened, closed, first, last, strings, swallowed = found
    return _inserts(lines, opened, closed, first, last, strings, value), \
        0 if HAS_END else swallowed


def _inserts(lines, opened, closed, first, last, strings, value):
    quote = '"'
    if strings and not any(s.lstrip("bBrRuUfF").startswith('"') for s in strings):
        quote = "'"
    keyword = "encoding=%s%s%s" % (quote, value, quote)
    if last is opened:                                    # no argument
        return [(closed.line, closed.col, keyword)]
    if last.string == "," and last.type == tokenize.OP:  # a trailing comma
        close_line = lines[closed.line]
        if closed.line != last.line and not close_line[:closed.col].strip():
            if last.line > opened.line:
                indent = _indent(lines[last.line])
            else:
                indent = " " * first.col if not _indent(lines[opened.line]).count("\t") \
                    else _indent(lines[opened.line]) + "    "
            above = lines[closed.line - 1]
            newline = above[len(above.rstrip("\r\n")):] or "\n"
            return [(closed.line, 0, indent + keyword + "," + newline)]
        return [(last.end_line, last.end_col, " " + keyword + ",")]
    return [(last.end_line, last.end_col, ", " + keyword)]


def outside(line, col, parentheses):
    """The 1-based column of the parenthesis `parentheses` levels out from `col` on `line`
    (3.6 and 3.7 start `(a / b).open()` at a), or col where it is not on that line."""
    at = col - 1
    for _ in range(parentheses):
        before = line[:at].rstrip(" \t")
        if not before.endswith("("):
            return col
        at = len(before) - 1
    return at + 1
