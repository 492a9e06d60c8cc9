"""Where the string literals and comments of Python source bytes are, found by one pass of
`re` and no parse: prefilter leaves out the words there (a docstring's `open(`), since
no call is made inside them. Only triple-quoted strings and those comments and strings
that hold a "(" are regions; the others are read as part of the code around them (see
_TOKEN), so a word there counts as code: more parsing, never a call missed.

A region is only ever one the compiler would also read as a string or a comment; where
the pass cannot be sure, it stops, and what follows counts as code:
    - a string that does not end (on its line, for one quote);
    - an f- or t-string (its fields hold code: never a region) whose fields do not close
      within it, or that holds its own quote in a field: 3.12's nested quotes
      (f"{x["a"]}") end it elsewhere than this pass does;
    - a coding cookie other than UTF-8's: in Shift_JIS, Big5 or GBK a character's
      second byte can be a backslash or a quote."""
import bisect
import re

# A comment runs to its line's end (\r alone ends a line too). A string: its quotes,
# a backslash escaping any byte (a line break too), a triple-quoted one over lines. A
# lone quote (the alternatives before it failed) is a string that does not end.
# Comments and strings of one quote with no "(" (most of them; no call is spelt without
# one, and a word there counting as code only means more parsing) are read with the code
# around them inside `re`, not one by one: each token costs a turn of _read_past's loop.
_QUIET = (br"""(?<![fFtT])(?<![fFtT][rRbB])%s(?!%s%s)"""
          br"""[^%s\\\r\n(]*(?:\\(?:\r\n|[^(])[^%s\\\r\n(]*)*%s""")
_TOKEN = re.compile(br"""((?:[^#'"]+|#[^(\r\n]*(?![^\r\n])|%s|%s)+)"""
                    br"""|#[^\r\n]*"""
                    br"""|'''[^'\\]*(?:(?:\\[\s\S]|'(?!''))[^'\\]*)*'''"""
                    br'''|"""[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*"""'''
                    br"""|'[^'\\\r\n]*(?:\\(?:\r\n|[\s\S])[^'\\\r\n]*)*'"""
                    br'''|"[^"\\\r\n]*(?:\\(?:\r\n|[\s\S])[^"\\\r\n]*)*"'''
                    br"""|['"]""" % tuple(_QUIET % ((quote,) * 6) for quote in (b"'", b'"')))
# The prefix letters that make a string's text hold code; a word byte, or a prefix's
# other letter, may stand before them (`rf"`, `Tr'`): any letter in the two bytes before
# the quote counts (an `if"x"` taken for an f-string is only more code).
_CODE_PREFIX = frozenset(bytearray(b"fFtT"))
_COOKIE = re.compile(br"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.M)
_UTF8 = ("utf-8", "utf8", "utf_8")
_HASH = ord("#")


class Literals(object):
    """The regions of `data` (strings, not f- or t-strings, and comments: as the module
    says), found as far as a question needs (a file's first call is often early in it)."""

    def __init__(self, data):
        self.data = data
        self._starts, self._ends = [], []
        self._code_starts, self._code_ends = [], []     # f- and t-strings (chunks asks)
        self._tokens = _TOKEN.finditer(data) if _sure_of_encoding(data) else None
        self._read_to = 0               # the tokens before it are in the lists
        self._stopped_at = None if self._tokens is not None else 0

    def _read_past(self, position):
        data, starts, ends = self.data, self._starts, self._ends
        while self._stopped_at is None and self._read_to <= position:
            token = next(self._tokens, None)
            if token is None:
                self._stopped_at = len(data)
                break
            start, end = token.span()
            self._read_to = end
            if token.lastindex:
                continue                # code (and quiet comments and strings)
            if data[start] == _HASH:
                starts.append(start)
                ends.append(end)
            elif end - start == 1:
                self._stopped_at = start    # a lone quote: a string that does not end
            elif start and data[start - 1] in _CODE_PREFIX or \
                    start > 1 and data[start - 2] in _CODE_PREFIX:
                if not _fields_close(token.group(0)):
                    self._stopped_at = start
                else:
                    self._code_starts.append(start)
                    self._code_ends.append(end)
            else:
                starts.append(start)
                ends.append(end)

    def holds(self, position):
        """Whether the byte at `position` is inside a string or a comment."""
        self._read_past(position)
        index = bisect.bisect_right(self._starts, position) - 1
        return index >= 0 and position < self._ends[index]

    def read_to_end(self):
        """Whether the pass reads the whole file without being unsure anywhere."""
        self._read_past(len(self.data))
        return self._stopped_at == len(self.data)

    def in_code_string(self, position):
        """Whether the byte at `position` is inside an f- or t-string (as far as read)."""
        index = bisect.bisect_right(self._code_starts, position) - 1
        return index >= 0 and position < self._code_ends[index]


def _sure_of_encoding(data):
    """Whether the file's bytes are ASCII-compatible throughout (no cookie, or UTF-8's:
    PEP 263 reads the cookie on the first two lines only)."""
    head = b"\n".join(data.split(b"\n", 2)[:2])
    cookie = _COOKIE.search(head)
    return cookie is None or cookie.group(1).decode("ascii").lower() in _UTF8 or \
        cookie.group(1).decode("ascii").lower().startswith(("utf-8-", "utf_8_"))


def _fields_close(token):
    """Whether an f- or t-string token, as the pass cut it, is one the compiler would cut
    there too: each field closes in it, and no field holds the token's own quote (a
    field's strings are of the other quote; of either, in a triple-quoted token)."""
    quote = token[-1:]
    triple = len(token) >= 6 and token.startswith(quote * 3)
    body = token[3:-3] if triple else token[1:-1]
    if b"{" not in body:
        return True
    depth = index = 0
    while index < len(body):
        byte = body[index:index + 1]
        if byte in (b"{", b"}") and not depth and body[index + 1:index + 2] == byte:
            index += 2                  # {{ or }} of the text: a brace, no field
            continue
        if byte == b"{":
            depth += 1
        elif byte == b"}":
            depth -= 1
            if depth < 0:
                return False
        elif depth and byte in (b"'", b'"'):
            if byte == quote and not triple:
                return False
            end = body.find(byte, index + 1)
            if end < 0:
                return False
            index = end
        index += 1
    return depth == 0
