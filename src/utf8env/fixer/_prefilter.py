"""Whether a file's bytes can hold one of _scan's calls at all: a file that cannot is not
parsed (parsing is most of `fix`'s time). Every condition here is one the call needs in
its source text, derived from _scan's own tables, so a file is left out only where no
scan of it could find a call; where a condition is unsure it lets the file through.

    mod.func of FUNCTIONS       the word mod (an import names the module), and func
                                called (the word, then "(" with spaces, comments or ")"
                                between) or imported under another name (`func as`);
                                subprocess's also a keyword that makes text (`text=`)
    open (builtins, io)         open called, as above
    X.read_text, X.write_text   the method's word
    X.read (ConfigParser)       the word read and a ConfigParser class's name

A call found so is left out where it cannot be a site: `def open(`; on a line that starts
with "#" (a comment's, or a string's); with an `encoding=` keyword of its own (_judge
leaves those); `open(ARGUMENT, 'rb')` (a binary mode and nothing else); `X.open(` where X
can be neither a module of those (nor its alias) nor a path (_scan's Path.open: a
receiver ending in ")", a name ending in "path" or "parent", a name the file assigns,
annotates or loops over)."""
import re

from . import _scan


def _tables():
    """(the modules whose `open` is an open-like, {module: its other functions}, the
    methods' names), from _scan.FUNCTIONS and _scan.METHODS."""
    open_modules = set()
    others = {}
    for qualified in _scan.FUNCTIONS:
        module, function = qualified.rsplit(".", 1)
        if function == "open":
            open_modules.add(module)
        else:
            others.setdefault(module, set()).add(function)
    methods = set(spec[0].rsplit(".", 1)[1] for spec in _scan.METHODS)
    return sorted(open_modules), others, methods


# Between the words of a statement: spaces, line breaks, backslashes, comments (each to
# its line's end: a comment that could end anywhere would make `re` try every way of
# cutting a line of #s, 2**n). Each pattern starts with a literal word, which `re` finds
# by a fast search; the word's start (no word character before it) is checked by hand.
_COMMENT = br"#[^\n]*\n"
_GAP = br"(?:[\s\\]|%s)" % _COMMENT


def _calls(names):
    """[(name, a pattern of the name called (then spaces, line breaks, backslashes,
    comments or ")" from `(open)(...)`, then "("), or imported under another name
    (`NAME as`))]."""
    return [(name.encode(), re.compile(br"%s(?:(?:[\s\\)]|%s)*(\()|%s+as\b)" % (
        re.escape(name.encode()), _COMMENT, _GAP))) for name in sorted(names)]


_OPEN_MODULES, _OTHERS, _METHODS = _tables()
_OPEN_CALLS = _calls(["open"])
_SUBPROCESS_CALLS = _calls(_OTHERS.pop("subprocess"))
_MODULE_CALLS = [(module.encode(), _calls(functions)) for module, functions in
                 sorted(_OTHERS.items())]
# The functions whose mode is binary unless given (tempfile's): called with no argument,
# no site.
_BINARY_BY_DEFAULT = frozenset(qualified.rsplit(".", 1)[1].encode()
                               for qualified, spec in _scan.FUNCTIONS.items()
                               if spec[4] == _scan.MODE and not spec[2])
_NO_ARGUMENT = re.compile(br"\(\s*\)")
_TEXT_WORDS = [word.encode() for word in _scan.TEXT_KEYWORDS]
_TEXT_KEYWORD = re.compile(br"(?:%s)%s*=(?!=)" % (b"|".join(_TEXT_WORDS), _GAP))
_METHOD_WORDS = [name.encode() for name in sorted(_METHODS) if name not in ("open", "read")]
_CONFIG_CLASS = b"ConfigParser"         # the end of every name in _scan.CONFIGPARSERS
assert all(name.endswith(_CONFIG_CLASS.decode()) for name in _scan.CONFIGPARSERS)

# A call's arguments up to an `encoding=` keyword of its own (then no site: _judge): plain
# text, strings of one line with no escape and no f prefix, and brackets one level deep
# of the same; a comment, a backslash, a lambda's ":" or a deeper bracket make it unsure.
_PLAIN = br"[^()\[\]{}'\"#\\:]"
_STRING = br"(?<![fF])(?<![fF][rRbB])(?:'[^'\\\n]*'|\"[^\"\\\n]*\")"
_NESTED = br"\((?:%s|%s)*\)|\[(?:%s|%s)*\]|\{(?:%s|%s)*\}" % ((_PLAIN, _STRING) * 3)
_ENCODING = re.compile(br"\((?:%s|%s|%s)*?\bencoding\s*=(?!=)" % (_PLAIN, _STRING, _NESTED))
# ... a keyword of subprocess's that makes text (else its output is bytes: no site), and
# the whole of the arguments so read (where it is not, unsure).
_TEXT_ARGUMENT = re.compile(br"\((?:%s|%s|%s)*?\b(?:%s)\s*=(?!=)" % (
    _PLAIN, _STRING, _NESTED, b"|".join(_TEXT_WORDS)))
_ARGUMENTS = re.compile(br"\((?:%s|%s|%s)*\)" % (_PLAIN, _STRING, _NESTED))
# `open(ARGUMENT, 'rb', ...)`: binary (the mode is the 2nd positional), unless a mode=
# keyword follows (it would win): the rest is checked for the word.
_BINARY = re.compile(br"\(\s*(?:[^()\[\]{}'\"#\\:,*]|%s|%s)+,\s*(['\"])[rwax+]*b[rwax+b]*\1\s*"
                     br"(?:\)|,(?:%s|%s|%s)*?\))" % (_STRING, _NESTED, _PLAIN, _STRING, _NESTED))
# The bytes of a receiver's last name before `.open(` (non-ASCII ones kept: then unsure),
# or of the ")" that ends a call or parentheses.
_RECEIVER = frozenset(bytearray(b"_)0123456789abcdefghijklmnopqrstuvwxyz"
                                b"ABCDEFGHIJKLMNOPQRSTUVWXYZ") + bytearray(range(128, 256)))
_DEF = re.compile(br"\bdef[ \t]+\Z")
_IDENTIFIER = re.compile(br"[A-Za-z_]\w*\Z")
_WORD_BYTE = re.compile(br"\w")      # ASCII: a byte above (a BOM, UTF-8) may start one


def candidate(data):
    """Whether the bytes of a file may hold one of _scan's calls."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if b"open" in data and _open_may_be_called(data):
        return True
    for module, calls in _MODULE_CALLS:
        if module in data and _called(data, calls):
            return True
    if b"subprocess" in data and any(word in data for word in _TEXT_WORDS) and \
            _TEXT_KEYWORD.search(data) is not None and \
            _called(data, _SUBPROCESS_CALLS, text_only=True):
        return True
    if any(word in data for word in _METHOD_WORDS):
        return True
    return _CONFIG_CLASS in data and b"read" in data


def _matches(data, calls):
    """(name, match) for the matches of _calls()'s patterns that start a word."""
    for name, pattern in calls:
        if name in data:
            for match in pattern.finditer(data):
                start = match.start()
                if not start or not _WORD_BYTE.match(data, start - 1):
                    yield name, match   # (else the end of another word: `reopen(`)


def _called(data, calls, text_only=False):
    """Whether one of the names of `calls` may be called without an encoding= of its own
    (`text_only`: subprocess's, with a keyword that makes text)."""
    for name, match in _matches(data, calls):
        before = _plain_call(data, match)
        if before is False or (before is not True and name in _BINARY_BY_DEFAULT and
                               _NO_ARGUMENT.match(data, match.end() - 1)):
            continue                    # tempfile.TemporaryFile(): binary
        if before is not True and text_only:
            parenthesis = match.end() - 1
            if _TEXT_ARGUMENT.match(data, parenthesis) is None and \
                    _ARGUMENTS.match(data, parenthesis) is not None:
                continue                # subprocess.run(args): bytes
        return True
    return False


def _plain_call(data, match):
    """For a match of _calls(): False where it is no call or a call with its own
    encoding=; else the text before it on its line (True for an alias: `NAME as`)."""
    if match.group(1) is None:
        return True                     # imported under another name
    start = match.start()
    before = data[data.rfind(b"\n", 0, start) + 1:start]
    if _DEF.search(before) or before.lstrip().startswith(b"#"):
        return False                    # a definition; a comment's line (or a string's)
    if b"#" in data[start:match.end()]:
        return True                     # the "(" may be a comment's
    keyword = _ENCODING.match(data, match.end() - 1)
    if keyword is not None and b"lambda" not in keyword.group(0):
        return False                    # its own encoding=
    return before


def _open_may_be_called(data):
    receivers = {}
    for _, match in _matches(data, _OPEN_CALLS):
        if _open_may_be_site(data, match, receivers):
            return True
    return False


def _open_may_be_site(data, match, receivers):
    before = _plain_call(data, match)
    if before is False or before is True:
        return before
    dot = _dot(before)
    if dot is None:
        # open(...) by its name; `open(NAME, 'rb')` cannot be text (nor, with nothing
        # else, encoding=), unless a dot before it on an earlier line makes it a Path's
        # method, whose mode comes first: only with a word before it on its line.
        if before.endswith((b"'", b'"')):
            return False                # `"open(`: in a string (else a syntax error)
        stripped = before.rstrip()
        if not stripped or stripped.endswith(b"\\"):
            return True
        binary = _BINARY.match(data, match.end() - 1)
        return binary is None or b"mode" in binary.group(0)
    receiver, head = dot
    if not receiver and not head.strip():
        return True                     # `.open(` starts the line: unsure of what it is on
    if receiver not in receivers:
        receivers[receiver] = _may_be_path_or_module(receiver, data)
    return receivers[receiver]


def _dot(before):
    """(the receiver's last name (_RECEIVER), what is before it) where `before` (a line
    up to `open`) ends with a dot, else None. By hand: a pattern searched from every
    start of a long line of word characters takes its length squared."""
    text = before.rstrip(b" \t")
    if not text.endswith(b"."):
        return None
    text = text[:-1].rstrip(b" \t")
    start = len(text)
    while start and text[start - 1] in _RECEIVER:
        start -= 1
    return text[start:], text[:start]


def _may_be_path_or_module(receiver, data):
    """Whether `X.open(` may be a call _scan reports, X the name before the dot (ending
    in ")" for a call or parentheses; b"" for anything else: a subscript, a literal)."""
    if not receiver:
        return False
    if receiver.endswith(b")") or not _IDENTIFIER.match(receiver):
        return True
    name = receiver.decode("ascii")
    if name in _OPEN_MODULES or name.lower().endswith(("path", "parent")):
        return True
    word = re.escape(receiver)
    # an alias of an open-like's module (`import io as X`); or a name the file assigns,
    # annotates (`X: Path`, `(X) = ...`, `a.X = ...`) or loops over (`for a.X in`): a
    # path by _scan's heuristic
    patterns = [br"%s%s+as%s+%s\b" % (re.escape(module.encode()), _GAP, _GAP, word)
                for module in _OPEN_MODULES]
    patterns.append(br"%s(?:%s|\))*(?:=(?!=)|:(?!=))" % (word, _GAP))
    patterns.append(br"for(?:%s|[\w.(])+?%s(?:%s|\))+in\b" % (_GAP, word, _GAP))
    return any(_word_starts(re.compile(pattern), data) for pattern in patterns)


def _word_starts(pattern, data):
    """Whether `pattern` matches `data` where a word starts."""
    for match in pattern.finditer(data):
        start = match.start()
        if not start or not _WORD_BYTE.match(data, start - 1):
            return True
    return False
