"""Whether a file's bytes can hold one of scan's calls at all: a file that cannot is not
parsed (parsing is most of `fix`'s time). Every condition here is one the call needs in
its source text, derived from calls.py's table, so a file is left out only where no
scan of it could find a call; where a condition is unsure it lets the file through.

    mod.func of FUNCTIONS       the word mod (an import names the module), and func
                                called (the word, then "(" with spaces, comments or ")"
                                between) or imported under another name (`func as`);
                                subprocess's also a keyword that makes text (`text=`)
    open (builtins, io)         open called, as above
    X.read_text, X.write_text   the method called (`.read_text(`)
    X.read (ConfigParser)       `.read(` called and a ConfigParser class's name

Words inside strings and comments (literals) are no call. A call found so is left out
where it cannot be a site: `def open(` or `class TextIOWrapper(`; on a line that starts
with "#"; with an `encoding=` keyword of its own or an encoding at its position (_judge
leaves those); with a literal binary mode (a keyword, at the mode's position, or
tempfile's default with no mode given); `func as` imported from another module; `X.open(`
where X can be neither a module of those (mode 2nd) nor a path (scan's Path.open, mode
1st: a call's result, a name ending in "path", `Y.parent` of a path, a name assigned a
value that may be a path, annotated a path, or looped over)."""
import re

from . import calls
from .literals import Literals


def _tables():
    """(the modules whose `open` is an open-like, {module: its other functions}, the
    methods' names), from calls.FUNCTIONS and calls.METHODS."""
    open_modules = set()
    others = {}
    for qualified in calls.FUNCTIONS:
        module, function = qualified.rsplit(".", 1)
        if function == "open":
            open_modules.add(module)
        else:
            others.setdefault(module, set()).add(function)
    methods = set(spec[0].rsplit(".", 1)[1] for spec in calls.METHODS)
    return sorted(open_modules), others, methods


# Between the words of a statement: spaces, line breaks, backslashes, comments (each to
# its line's end: a comment that could end anywhere would make `re` try every way of
# cutting a line of #s, 2**n). Each pattern starts with a literal word, which `re` finds
# by a fast search; the word's start (no word character before it) is checked by hand.
_COMMENT = br"#[^\n]*\n"
_GAP = br"(?:[\s\\]|%s)" % _COMMENT


def call_patterns(names):
    """[(name, a pattern of the name called (then spaces, line breaks, backslashes,
    comments or ")" from `(open)(...)`, then "("), or imported under another name
    (`NAME as`))]."""
    words = sorted(name if isinstance(name, bytes) else name.encode() for name in names)
    return [(word, re.compile(br"%s(?:(?:[\s\\)]|%s)*(\()|%s+as\b)" % (
        re.escape(word), _COMMENT, _GAP))) for word in words]


_OPEN_MODULES, _OTHERS, _METHODS = _tables()
_OPEN_CALLS = call_patterns(["open"])
_SUBPROCESS_CALLS = call_patterns(_OTHERS.pop("subprocess"))
_MODULE_CALLS = [(module.encode(), call_patterns(functions)) for module, functions in
                 sorted(_OTHERS.items())]
# The functions whose mode is binary unless given (tempfile's): called with no argument,
# no site.
_BINARY_BY_DEFAULT = frozenset(qualified.rsplit(".", 1)[1].encode()
                               for qualified, spec in calls.FUNCTIONS.items()
                               if spec[4] == calls.MODE and not spec[2])
_NO_ARGUMENT = re.compile(br"\(\s*\)")
# {a function's name: (its mode's position or None, its encoding's or None)}, but open's
# (whose X.open( may be a Path's, with other positions).
_POSITIONS = dict((qualified.rsplit(".", 1)[1].encode(),
                   (spec[1] if spec[4] == calls.MODE else None, spec[3]))
                  for qualified, spec in calls.FUNCTIONS.items()
                  if qualified.rsplit(".", 1)[1] != "open")
_OPEN_POSITIONS = calls.FUNCTIONS["builtins.open"][1::2]
assert _OPEN_POSITIONS == calls.FUNCTIONS["io.open"][1::2]
_PATH_OPEN_POSITIONS = [spec for spec in calls.METHODS if spec[0] == "Path.open"][0][1::2]
_TEXT_WORDS = [word.encode() for word in calls.TEXT_KEYWORDS]
_TEXT_KEYWORD = re.compile(br"(?:%s)%s*=(?!=)" % (b"|".join(_TEXT_WORDS), _GAP))
_METHOD_WORDS = [name.encode() for name in sorted(_METHODS) if name not in ("open", "read")]
CONFIG_CLASS = b"ConfigParser"         # the end of every name in calls.CONFIGPARSERS
assert all(name.endswith(CONFIG_CLASS.decode()) for name in calls.CONFIGPARSERS)

# A call's arguments up to an `encoding=` keyword of its own (then no site: _judge): plain
# text, strings of one line with no escape and no f or t prefix, and brackets two levels
# deep of the same; a comment, a backslash, a lambda's ":" or a deeper bracket make it
# unsure.
_PLAIN = br"[^()\[\]{}'\"#\\:]"
_STRING = br"(?<![fFtT])(?<![fFtT][rRbB])(?:'[^'\\\n]*'|\"[^\"\\\n]*\")"
# (Any closing bracket closes any opening one: in code that parses, the first closing
# one at the depth is the match; one pattern, a third of three, compiles faster.)
_NESTED = br"[(\[{](?:%s|%s)*[)\]}]" % (_PLAIN, _STRING)
# ... two levels deep: open(os.path.join(a, f(b)), 'rb')
_NESTED = br"[(\[{](?:%s|%s|%s)*[)\]}]" % (_PLAIN, _STRING, _NESTED)
# (encoding=None is the locale's: _judge lists it.)
_ENCODING = re.compile(br"\((?:%s|%s|%s)*?\bencoding\s*=(?!=)(?!\s*None\b)" % (
    _PLAIN, _STRING, _NESTED))
# ... a keyword of subprocess's that makes text (else its output is bytes: no site), and
# the whole of the arguments so read (where it is not, unsure).
_TEXT_ARGUMENT = re.compile(br"\((?:%s|%s|%s)*?\b(?:%s)\s*=(?!=)" % (
    _PLAIN, _STRING, _NESTED, b"|".join(_TEXT_WORDS)))
_ARGUMENTS = re.compile(br"\((?:%s|%s|%s)*\)" % (_PLAIN, _STRING, _NESTED))
# A binary mode: `open(ARGUMENT, 'rb', ...)` (the mode the 2nd positional; the 1st for
# tempfile's), unless a mode= keyword follows (it would win: the rest is checked for the
# word); or a mode= keyword of the call's own (not a lambda's default before it).
_BINARY_MODE = br"(['\"])[rwax+]*b[rwax+b]*\1"
_BINARY = [re.compile(br"\(\s*%s%s\s*(?:\)|,(?:%s|%s|%s)*?\))" % (
    br"(?:(?:[^()\[\]{}'\"#\\:,*]|%s|%s)+,\s*)" % (_STRING, _NESTED) * position,
    _BINARY_MODE, _PLAIN, _STRING, _NESTED)) for position in (0, 1)]
_BINARY_KEYWORD = re.compile(br"\((?:%s|%s|%s)*?\bmode\s*=\s*%s" % (
    _PLAIN, _STRING, _NESTED, _BINARY_MODE))
# Positional arguments (none starred, none a keyword, no lambda), one more than a number:
# an encoding given at that position (None there is the locale's: no encoding).
_POSITIONAL = br"(?:[^()\[\]{}'\"#\\:,*=]|%s|%s)+" % (_STRING, _NESTED)
_PAST = dict((position, re.compile(br"\(\s*(?:%s,\s*){%d}(?!\s*None\s*[,)])%s\s*[,)]" % (
    _POSITIONAL, position, _POSITIONAL))) for position in (1, 2, 3))
# ... at most a number of them, then the end or a keyword: no positional past them.
_AT_MOST = dict((position, re.compile(br"\(\s*(?:%s,\s*){0,%d}(?:\)|\w+\s*=(?!=))" % (
    _POSITIONAL, position))) for position in (0, 1))
# The bytes of a receiver's last name before `.open(` (non-ASCII ones kept: then unsure),
# or of the ")" that ends a call or parentheses.
_RECEIVER = frozenset(bytearray(b"_)0123456789abcdefghijklmnopqrstuvwxyz"
                                b"ABCDEFGHIJKLMNOPQRSTUVWXYZ") + bytearray(range(128, 256)))
_DEF = re.compile(br"\b(?:def|class)[ \t]+\Z")
# `from M import (a, b,` up to a name: names, commas, brackets, spaces, line breaks,
# backslashes, comments (within _IMPORT_REACH bytes; farther: unsure).
_FROM_IMPORT = re.compile(br"\bfrom[ \t]+([\w.]+)[ \t]+import[ \t]*\(?"
                          br"(?:[\w \t,\\\r\n]|#[^\r\n]*)*\Z")
_IMPORT_REACH = 4096
_IDENTIFIER = re.compile(br"[A-Za-z_]\w*\Z")
_WORD_BYTE = re.compile(br"\w")      # ASCII: a byte above (a BOM, UTF-8) may start one
_WORD_OR_CLOSING = re.compile(br"[\w)\]]")
_LINE_END = re.compile(br"[\r\n]")
_TARGET_BYTES = frozenset(bytearray(b"._ \t0123456789abcdefghijklmnopqrstuvwxyz"
                                    b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
_COMMA, _OPENING = ord(","), ord("(")
# After `X:`, an annotation a path class's name, or an "=" (a value assigned: ASSIGNED's
# question); after `X =`, a value that may be a path: a name or an attribute alone (a
# name the module may assign a path), or one with "/" (a / b), a word with "path" (Path,
# config_path), parent, or a path's method; or another "=" (`a = b = c`: unsure).
ANNOTATION = re.compile(br"=(?!=)|\\|\b(?:%s)\b" % b"|".join(
    name.encode() for name in calls.PATH_CLASSES))
ASSIGNED = re.compile(
    br"\A[ \t(]*(?!(?:None|True|False)\b)[A-Za-z_\x80-\xff][^\s()\[\]{}'\"#;,+\-*/%%@<>=!&|^~:`]*"
    br"[ \t)]*(?:[#;]|\Z)|[/\\=]|(?i:path)|\b(?:%s)\b" % b"|".join(
        name.encode() for name in ("parent",) + calls.PATH_METHODS))
_BETWEEN = frozenset(bytearray(b" \t\x0c\r\n\\"))
_DOT = ord(".")
_MODULE, _PATH, _EITHER = "module", "path", "either"     # what X of `X.open(` may be


def candidate(data, literals=None):
    """Whether the bytes of a file may hold one of scan's calls (`literals`: their
    Literals, if made already: chunks reads them on)."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
        literals = None
    if literals is None:
        literals = Literals(data)
    if b"open" in data and _open_may_be_called(data, literals):
        return True
    for module, patterns in _MODULE_CALLS:
        if module in data and _called(data, patterns, literals, (module.decode(),)):
            return True
    if b"subprocess" in data and any(word in data for word in _TEXT_WORDS) and \
            _TEXT_KEYWORD.search(data) is not None and \
            _called(data, _SUBPROCESS_CALLS, literals, ("subprocess",), text_only=True):
        return True
    if any(word in data and _method_called(data, word, literals) for word in _METHOD_WORDS):
        return True
    return b"read" in data and _in_code(data, CONFIG_CLASS, literals) and \
        _method_called(data, b"read", literals)


def _method_called(data, name, literals):
    """Whether `.name(` is called somewhere outside strings and comments (the pattern
    makes it a whole word: a dot, spaces or a comment before it, no word byte after)."""
    pattern = re.compile(br"\.%s*%s(?:[\s\\)]|%s)*\(" % (_GAP, re.escape(name), _COMMENT))
    return any(not literals.holds(match.start()) for match in pattern.finditer(data))


def _in_code(data, word, literals):
    """Whether `word` is in `data` outside its strings and comments."""
    start = data.find(word)
    while start >= 0:
        if not literals.holds(start):
            return True
        start = data.find(word, start + 1)
    return False


def _matches(data, patterns):
    """(name, match) for the matches of call_patterns()'s patterns that start a word."""
    for name, pattern in patterns:
        if name in data:
            for match in pattern.finditer(data):
                start = match.start()
                if not start or not _WORD_BYTE.match(data, start - 1):
                    yield name, match   # (else the end of another word: `reopen(`)


def _called(data, patterns, literals, modules, text_only=False):
    """Whether one of the names of `patterns` (functions of `modules`) may be called without
    an encoding= of its own (`text_only`: subprocess's, with a keyword that makes text)."""
    for name, match in _matches(data, patterns):
        before = _plain_call(data, match, modules)
        if before is False or before is not True and (
                name in _BINARY_BY_DEFAULT and _no_mode(data, match.end() - 1,
                                                        _POSITIONS[name][0]) or
                name in _POSITIONS and _not_text(data, match.end() - 1, *_POSITIONS[name])):
            continue                    # tempfile.TemporaryFile(), os.fdopen(f, 'rb')
        if before is not True and text_only:
            parenthesis = match.end() - 1
            if _TEXT_ARGUMENT.match(data, parenthesis) is None and \
                    _ARGUMENTS.match(data, parenthesis) is not None:
                continue                # subprocess.run(args): bytes
        if not literals.holds(match.start()):
            return True                 # (outside strings and comments: asked last)
    return False


def _plain_call(data, match, modules):
    """For a match of call_patterns(): False where it is no call or a call with its own
    encoding=; else the text before it on its line (for `NAME as`, an alias, whether it
    may be imported from one of `modules`)."""
    if match.group(1) is None:
        return _imported_from(data, match.start(), modules)
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


def _imported_from(data, position, modules):
    """Whether the `NAME as` at `position` may be in `from M import ..., NAME as X` with
    M one of `modules` (elsewhere, or where the statement is not read for sure: yes)."""
    statement = _FROM_IMPORT.search(data, max(0, position - _IMPORT_REACH), position)
    return statement is None or statement.group(1).decode("ascii") in modules


def _open_may_be_called(data, literals):
    receivers = {}
    for _, match in _matches(data, _OPEN_CALLS):
        # (outside strings and comments: asked last, the dearest question)
        if _open_may_be_site(data, match, receivers, literals) and \
                not literals.holds(match.start()):
            return True
    return False


def _open_may_be_site(data, match, receivers, literals):
    before = _plain_call(data, match, _OPEN_MODULES)
    if before is False or before is True:
        return before
    parenthesis = match.end() - 1
    if _binary(data, parenthesis, None):
        return False                    # mode='rb': binary, whatever open it is
    dot = _dot(before)
    if dot is None:
        # open(...) by its name; `open(NAME, 'rb')` cannot be text (nor, with nothing
        # else, encoding=), unless a dot ending an earlier line makes it a Path's method,
        # whose mode comes first.
        if before.endswith((b"'", b'"')):
            return False                # `"open(`: in a string (else a syntax error)
        stripped = before.rstrip()
        if (not stripped or stripped.endswith(b"\\")) and \
                _after_dot(data, match.start() - len(before)):
            return True
        return not _not_text(data, parenthesis, *_OPEN_POSITIONS)
    receiver, head = dot
    if not receiver and not head.strip():
        return True                     # `.open(` starts the line: unsure of what it is on
    kind = _kind(receiver, head, data, literals, receivers)
    if kind is _MODULE:
        return not _not_text(data, parenthesis, *_OPEN_POSITIONS)
    if kind is _PATH:
        return not _not_text(data, parenthesis, *_PATH_OPEN_POSITIONS)
    return kind is _EITHER


def _no_mode(data, parenthesis, position):
    """Whether the call whose "(" is at `parenthesis` gives no mode: no positional at
    `position`, no mode= keyword, no * or ** (that may carry one)."""
    arguments = _ARGUMENTS.match(data, parenthesis)
    return arguments is not None and b"*" not in arguments.group(0) and \
        b"mode" not in arguments.group(0) and \
        _AT_MOST[position].match(data, parenthesis) is not None


def _not_text(data, parenthesis, mode, encoding):
    """Whether the call whose "(" is at `parenthesis` is binary (_binary) or has an
    encoding at the positional `encoding`."""
    return _binary(data, parenthesis, mode) or encoding is not None and \
        _PAST[encoding].match(data, parenthesis) is not None


def _binary(data, parenthesis, position):
    """Whether the call whose "(" is at `parenthesis` has a literal binary mode: its own
    mode= keyword, or the positional argument `position` (None: none)."""
    keyword = _BINARY_KEYWORD.match(data, parenthesis)
    if keyword is not None and b"lambda" not in keyword.group(0):
        return True
    if position is None:
        return False
    positional = _BINARY[position].match(data, parenthesis)
    return positional is not None and b"mode" not in positional.group(0)


def _after_dot(data, line_start):
    """Whether what comes before the line starting at `line_start` may end with a dot,
    past line breaks, backslashes and lines that are a comment alone; a line with a "#"
    after code may end in a comment (the literals do not hold every comment): yes."""
    position = line_start - 1
    while position >= 0:
        if data[position] in _BETWEEN:
            position -= 1
            continue
        begins = data.rfind(b"\n", 0, position) + 1
        line = data[begins:position + 1]
        if not line.lstrip().startswith(b"#"):
            return data[position] == _DOT or b"#" in line
        position = begins - 1
    return False


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


def _kind(receiver, head, data, literals, receivers):
    """_receiver_kind() of the receiver X of `X.open(` (`head`: the line before it), with
    the receivers' kinds known so far."""
    if receiver.endswith(b")") and head.endswith(b"(") and head[-2:-1] and \
            _WORD_OR_CLOSING.match(head, len(head) - 2):
        return _PATH                    # `f().open(`: a call's result, never a module
    if receiver == b"parent":
        before = _dot(head)
        if before is not None and before[0]:
            # `Y.parent`: a path where Y may be one (scan's is_path), never a module
            kind = _kind(before[0], before[1], data, literals, receivers)
            return _PATH if kind in (_PATH, _EITHER) else None
    if receiver not in receivers:
        receivers[receiver] = _receiver_kind(receiver, data, literals)
    return receivers[receiver]


def _receiver_kind(receiver, data, literals):
    """For `X.open(`, X the name before the dot (ending in ")" for a call or parentheses;
    b"" for anything else: a subscript, a literal): _PATH where it may be a path (scan's
    Path.open), _MODULE where it may be an open-like's module (or its alias), _EITHER
    where it may be both, None where it is neither."""
    if not receiver:
        return None
    if not _IDENTIFIER.match(receiver):
        return _EITHER                  # `(io).open(`, `a[0](x).open(`...
    name = receiver.decode("ascii")
    word = re.escape(receiver)
    # an open-like's module, or its alias (`import io as X`)
    module = name in _OPEN_MODULES or any(_word_starts(re.compile(
        br"%s%s+as%s+%s\b" % (re.escape(other.encode()), _GAP, _GAP, word)), data, literals)
        for other in _OPEN_MODULES)
    # a name ending in path, or one the file assigns (not a keyword argument's `f(X=a)`),
    # annotates (`X: Path`, `(X) = ...`, `a.X = ...`) or loops over (`for a.X in`): a
    # path by scan's heuristic
    path = name.lower().endswith("path") or _word_starts(re.compile(
        br"for(?:%s|[\w.(])+?%s(?:%s|\))+in\b" % (_GAP, word, _GAP)), data, literals) or \
        _rest_may_be_path(re.compile(br"%s(?:%s|\))*=(?!=)" % (word, _GAP)), data,
                          literals, ASSIGNED) or \
        _rest_may_be_path(re.compile(br"%s(?:%s|\))*:(?!=)" % (word, _GAP)), data,
                          literals, ANNOTATION)
    if module and path:
        return _EITHER
    return _MODULE if module else _PATH if path else None


def _rest_may_be_path(pattern, data, literals, path_like):
    """Whether a match of `pattern` (a name, then "=" or ":") may assign or annotate it
    a path (module_names.ModuleNames), by the rest of its line: `path_like` found there, or a
    bracket that the line leaves open, or a backslash (unsure where it ends). Not a
    def's `self):`, a dict's `{a: 1}`, a slice's `[a:]`, `x = build_opener()`."""
    for match in pattern.finditer(data):
        start = match.start()
        if start and _WORD_BYTE.match(data, start - 1) or literals.holds(start) or \
                path_like is ASSIGNED and _in_arguments(data, match):
            continue
        end = _LINE_END.search(data, match.end())
        rest = data[match.end():end.start() if end else len(data)]
        if path_like.search(rest) or sum(rest.count(b) for b in b"([{") > \
                sum(rest.count(b) for b in b")]}"):
            return True
    return False


def _in_arguments(data, match):
    """Whether the `X =` of `match` follows a "," or "(" on its line (past an attribute's
    `a.`): a keyword argument, a parameter's default, or a tuple's name (`a, X = ...`),
    which ModuleNames takes for no assignment; not `(X) = ...`."""
    position = match.start() - 1
    while position >= 0 and data[position] in _TARGET_BYTES:
        position -= 1
    if position < 0:
        return False
    if data[position] == _COMMA:
        return True
    return data[position] == _OPENING and b")" not in match.group(0)


def _word_starts(pattern, data, literals):
    """Whether `pattern` matches `data` where a word starts, outside strings and comments."""
    for match in pattern.finditer(data):
        start = match.start()
        if (not start or not _WORD_BYTE.match(data, start - 1)) and not literals.holds(start):
            return True
    return False
