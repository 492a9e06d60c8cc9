"""The functions and classes of a module that can hold none of scan's calls, left out of
its parse: parsing is most of `fix`'s time, and in a file that holds a call most of the
text is elsewhere (in the standard library's, two thirds).

A chunk is a `def` or `class` (with its decorators) at the module's level, or a method
at a class's, up to the next line at its level or less that starts with code. It is left
out where its bytes hold none of the names scan's calls end with followed by "("
(strings and comments included: more parsing, never a call missed), no `global` and no
`:=` (which may bind names of the module), and where the file has no `NAME as` of those
names outside strings and comments (an alias could be called by any name). Its lines
become blank but its first, which becomes `def NAME(): pass` (`class NAME: pass`), so
that the name is still bound where it was and every other line keeps its number. A class
that holds a call is kept, and its methods are chunks.

That text means what the file means only where each chunk starts and ends where a
statement does. A line that starts with `def` or `class` outside a string is one (both
are keywords, never inside brackets); strings are found by literals' pass, which must
read to the file's end without being unsure; a chunk's line after one that ends with a
backslash makes the whole file parsed. What is left:
    - a chunk that ends inside brackets: the text after it then closes a bracket it
      never opened, which no parser accepts: scan() parses the whole file instead;
    - a stub that is not the statement it should be (its line inside a string the pass
      did not see, or a decorator's line inside brackets): scan() checks that each stub
      is a def or class of the module's or a class's at its line, and parses the whole
      file where one is not.
So a syntax error in a chunk left out is not reported, as in a file that cannot hold a
call at all (prefilter): only the calls' parse is told."""
import bisect
import re

from . import calls, prefilter
from .literals import Literals

# {a word the file must hold: the last names of the calls that need it (a module's
# import, ConfigParser's class)}, and the names every file's calls may end with.
_NEEDED = {}
_ALWAYS = set(["open"])
for _qualified in calls.FUNCTIONS:
    _module, _name = _qualified.rsplit(".", 1)
    if _name != "open":
        _NEEDED.setdefault(_module.encode(), set()).add(_name)
for _method in calls.METHODS:
    _name = _method[0].rsplit(".", 1)[1]
    if _name == "read":
        _NEEDED.setdefault(prefilter.CONFIG_CLASS, set()).add(_name)
    else:
        _ALWAYS.add(_name)
# {name: its pattern: the name called, or `NAME as` (group 1 None)} (prefilter's)
_PATTERNS = dict((name.decode(), pattern) for name, pattern in
                 prefilter.call_patterns(_ALWAYS.union(*_NEEDED.values())))
_NAME = br"[A-Za-z_\x80-\xff][\w\x80-\xff]*"
# ... `NAME as ALIAS` (an import's, or text's: `run as root`): the alias may be called.
_ALIAS = re.compile(br"(?:[\s\\]|#[^\r\n]*)+(%s)" % _NAME)
_WORD_BYTE = re.compile(br"\w")
_BINDS_MODULE_NAMES = (b"global", b":=")
# A line that starts with code at a level (the module's: no indentation; a class body's:
# at most its indentation): a decorator (group 1), a def or class (group 2: which; 3:
# its name), or anything else but a closing bracket (a statement's continuation, never
# its start).
_HEAD = br"[ \t]{0,%d}(?:(@)|(?:async[ \t]+)?(def|class)[ \t]+(" + _NAME + \
    br")|[^ \t\f\r\n#)\]}])"
_HEADS = {}
_INDENTED = re.compile(br"^([ \t]+)[^ \t\f\r\n#]", re.M)
_STUB = {b"def": b"def %s(): pass", b"class": b"class %s: pass"}


class _Unsure(Exception):
    """A chunk's line after a backslash: where its statement starts is not read."""


def skeleton(data, literals=None):
    """(the bytes to parse instead of `data`, [(line, name)] of its stubs, the bytes left
    out), or None where no chunk is left out or where the file cannot be read so (the
    module's docstring). `literals`: data's Literals, if made already."""
    if b"\r" in data and data.count(b"\r") != data.count(b"\r\n"):
        return None                     # lone \r line breaks: `^` does not see them
    if literals is None:
        literals = Literals(data)
    if not literals.read_to_end():
        return None
    names = set(_ALWAYS)
    for word, needing in _NEEDED.items():
        if word in data:
            names.update(needing)
    starts = []             # of the calls' names, aliases' too
    for match in _matches(data, [(name, _PATTERNS[name]) for name in sorted(names)]):
        if match.group(1) is not None:
            starts.append(match.start())
            continue
        alias = _ALIAS.match(data, match.end())
        if alias is None:
            return None                 # `as` then no name: unsure of what it binds
        starts.extend(match.start() for match in _matches(
            data, prefilter.call_patterns([alias.group(1)])))
    starts.sort()
    cuts = []
    try:
        _cut(data, literals, starts, 0, len(data), 0, cuts)
    except _Unsure:
        return None
    if not cuts:
        return None
    cuts.sort()
    out, stubs = [], []
    kept_to = counted_to = 0
    line = 1
    for begin, keyword, end, kind, name in cuts:
        out.append(data[kept_to:begin])
        out.append(b"\n" * data.count(b"\n", begin, keyword))
        # the line's indentation (and `async`), then the stub
        out.append(data[data.rfind(b"\n", 0, keyword) + 1:keyword] + _STUB[kind] % name)
        out.append(b"\n" * data.count(b"\n", keyword, end))
        kept_to = end
        line += data.count(b"\n", counted_to, keyword)
        counted_to = keyword
        stubs.append((line, name.decode("utf-8", "surrogateescape")))
    out.append(data[kept_to:])
    return b"".join(out), stubs, LeftOut(data, [(cut[0], cut[2]) for cut in cuts])


def _matches(data, patterns):
    """The matches of the (name, pattern)s where a word starts."""
    for name, pattern in patterns:
        if (name if isinstance(name, bytes) else name.encode()) in data:
            for match in pattern.finditer(data):
                start = match.start()
                if not start or not _WORD_BYTE.match(data, start - 1):
                    yield match


def _heads(data, literals, begin, end, indentation):
    """[(line's start, what starts it: b"@", b"def", b"class" or None, name)] of the
    lines from `begin` to `end` that start with code at most `indentation` bytes in,
    outside strings; raises _Unsure for one after a line ending with a backslash."""
    patterns = _HEADS.get(indentation)
    if patterns is None:
        # (the line at `begin`, then those after a line break: `re` finds those by a fast
        # search, where `^` would be tried at every byte)
        patterns = _HEADS[indentation] = (re.compile(_HEAD % indentation),
                                          re.compile(br"\n" + _HEAD % indentation))
    first = patterns[0].match(data, begin, end)
    heads = []
    for match in ([first] if first is not None else []) + list(
            patterns[1].finditer(data, begin, end)):
        start = match.start() if match is first else match.start() + 1
        if literals.holds(start) or literals.in_code_string(start):
            continue                    # a line of a string's
        if start and data[max(0, start - 3):start].rstrip(b"\r\n").endswith(b"\\"):
            raise _Unsure
        heads.append((start, match.group(1) or match.group(2), match.group(3),
                      match.start(2) if match.group(2) else start))
    return heads


def _cut(data, literals, starts, begin, end, indentation, cuts):
    """Add to `cuts` (first byte, its def or class keyword's, end, kind, name) the chunks
    at the level of `indentation` from `begin` to `end` that can hold no call."""
    heads = _heads(data, literals, begin, end, indentation)
    index = 0
    while index < len(heads):
        first = index
        while heads[index][1] == b"@" and index + 1 < len(heads):
            index += 1                  # decorators: with what they decorate
        _, kind, name, keyword = heads[index]
        index += 1
        if kind not in _STUB:
            continue
        start = heads[first][0]
        stop = heads[index][0] if index < len(heads) else end
        at = bisect.bisect_left(starts, start)
        if at < len(starts) and starts[at] < stop:
            if kind == b"class":
                _methods(data, literals, starts, keyword, stop, cuts)
            continue
        chunk = data[start:stop]
        if not any(word in chunk for word in _BINDS_MODULE_NAMES):
            cuts.append((start, keyword, stop, kind, name))


def _methods(data, literals, starts, keyword, stop, cuts):
    """The chunks of the body of the class whose keyword is at `keyword`: at the
    indentation of its first indented line of code after a line ending with ":" (a
    header's continuation taken for it makes stubs that do not stand: the whole file is
    parsed)."""
    line_end = data.find(b"\n", keyword)
    if line_end < 0:
        return
    for match in _INDENTED.finditer(data, line_end + 1, stop):
        if literals.holds(match.start()) or literals.in_code_string(match.start()):
            continue
        code = [line.split(b"#", 1)[0].rstrip() for line in
                data[keyword:match.start()].splitlines()]
        if not [line for line in code if line][-1].endswith(b":"):
            continue                    # the header's continuation
        body = match.group(1)
        if body.strip(b" ") and body.strip(b"\t"):
            return                      # spaces and tabs mixed: left whole
        _cut(data, literals, starts, match.start(), stop, len(body), cuts)
        return


# A name, then "=" (also `(X) =`), ":" or `in`: where it may be assigned a value,
# annotated or looped over (the name where a word starts: checked by hand, so that `re`
# finds it by a fast search).
_BINDING = br"%s(?![\w\x80-\xff])(?:(?:[\s\\)]|#[^\r\n]*)*(=)(?!=)|" \
           br"(?:[\s\\]|#[^\r\n]*)*(?:(:)|in\b))"
_LINE_END = re.compile(br"[\r\n]")


class LeftOut(object):
    """The chunks a parse left out: whether they may give a name the value scan's
    module_names.ModuleNames asks about (a path, a ConfigParser), by prefilter's reading of the text."""

    def __init__(self, data, spans):
        self.data, self.spans = data, spans
        self._answers = {}

    def may_bind(self, name, path):
        """Whether a chunk left out may assign `name` a path (`path`) or a ConfigParser,
        annotate it a path or loop over it: the name then "=" and a value that may be
        one, ":" and a path class, or `in`."""
        answer = self._answers.get((name, path))
        if answer is None:
            answer = self._answers[(name, path)] = self._may_bind(name, path)
        return answer

    def _may_bind(self, name, path):
        data = self.data
        if not path and prefilter.CONFIG_CLASS not in data:
            return False                # no ConfigParser made in the module at all
        word = name.encode("utf-8", "surrogatepass")
        pattern = re.compile(_BINDING % re.escape(word))
        for begin, end in self.spans:
            if word not in data[begin:end]:
                continue
            for match in pattern.finditer(data, begin, end):
                start = match.start()
                if start and _WORD_BYTE.match(data, start - 1):
                    continue
                if match.group(1) is None and match.group(2) is None:
                    return True         # `for NAME in`
                line_end = _LINE_END.search(data, match.end())
                rest = data[match.end():line_end.start() if line_end else len(data)]
                if match.group(2) is not None:
                    if not path:
                        continue        # (an annotation makes no ConfigParser)
                    if prefilter.ANNOTATION.search(rest):
                        return True
                elif prefilter.ASSIGNED.search(rest) or prefilter.CONFIG_CLASS in rest or \
                        sum(rest.count(b) for b in b"([{") > sum(rest.count(b) for b in b")]}"):
                    return True
        return False
