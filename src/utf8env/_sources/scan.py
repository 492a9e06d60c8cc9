"""Source text -> the calls that open text in the locale's encoding by default, each with
the edit that adds `encoding=` or the reason it is left for review. No file access.

Which calls (each call's name resolved in its own scope by Python's rules: through the
imports there, `import subprocess as sp`, `from io import open` (io.open is the builtin);
any other binding of the name hides it where it is in scope: a function's local
(assignment, parameter, for/with/except target, import, del, def, class, :=, match
capture), a comprehension's variable in the comprehension, a class body's in the class
body only, a module-level one (or a function's `global`) in the module and the functions
that do not rebind it; an attribute or subscript assignment never; an import of the name
wins over the same scope's other bindings, as in `try: import x / except: x = None`):

    open, io.open, os.fdopen          text unless the literal mode has "b"; encoding is
                                      the 4th positional
    tempfile.TemporaryFile,           text only with a literal mode without "b" (binary by
    NamedTemporaryFile,               default)
    SpooledTemporaryFile
    io.TextIOWrapper                  always text; encoding is the 2nd positional
    subprocess.run, Popen,            text with text=True, universal_newlines=True or
    check_output, call, check_call    errors= (encoding= is keyword-only)
    os.popen                          always text, and it has no encoding parameter:
                                      reported for review, never edited
    fileinput.input, FileInput        text unless mode= has "b"; left alone with
                                      openhook=; encoding= is Python 3.10+
    X.read_text(), X.write_text()     "likely pathlib.Path": any receiver but an imported
                                      name (importlib.resources.read_text is not a Path's);
                                      a positional argument there is the encoding
    X.open()                          "likely pathlib.Path" only when X is evidently a
                                      path: a Path(...) call, an `a / b` expression, a
                                      name ending in "path", or a name the module assigns
                                      one of those (or Path.home(), .parent, ...), or
                                      a parameter annotated Path (zipfile and tarfile
                                      objects have an .open of their own that takes none)
    X.read(...)                       configparser's, when X is a ConfigParser(...) call
                                      or a name the module assigns one

A call with an explicit encoding (keyword or positional) is left alone, and so is one
with a comment on any of its lines saying the default is meant: `# utf8env: ignore`, or
the linters' own for this rule (`# noqa: PLW1514`, a bare `# noqa`, `# pylint:
disable=unspecified-encoding`). Review, never
edited: a mode or text= that is not a literal, `**kwargs` (may carry encoding=), `*args`
that may reach the encoding's position, a call inside an f-string, os.popen. The edit
inserts `encoding="utf-8"` (or "locale") before the call's closing parenthesis (ast end
positions on 3.8+; on 3.6 and 3.7, which have none, the call's parenthesis is found by
tokenize: a receiver in parentheses is then left for review), keeping trailing commas,
line breaks and comments (insertion.py)."""
import ast
import re
import sys
import tokenize

from . import insertion
from .calls import (CONFIG_READ, FILEINPUT, FUNCTIONS, LAST_NAMES, MODE, PATH_ITERATORS,
                    PATH_OPEN, POPEN, READ_TEXT, SUBPROCESS, TEXT_KEYWORDS, WRITE_TEXT)
from .chunks import skeleton
from .insertion import char_col, outside, split_lines
from .module_names import ModuleNames, Partial, annotation_is_path, target_names
from .nodes import HAS_END, literal
from .scope import CLASS, COMPREHENSION, FUNCTION, LOCAL, MODULE, Scope

FIX, REVIEW = "fix", "review"

# A comment on any line of a call that says the locale's encoding is meant there: ours,
# and the linters' own for this rule (ruff PLW1514, pylint unspecified-encoding/W1514,
# a bare noqa), so a site already annotated for a linter is not reported twice.
_KEEP = re.compile(r"\butf8env:\s*ignore\b|\bnoqa\b(?!\s*:)|\bnoqa\s*:[\w\s,]*\bPLW1514\b|"
                   r"\bpylint:\s*disable\s*=[\w\s,-]*\b(?:unspecified-encoding|W1514)\b",
                   re.IGNORECASE)
_KEEP_WORDS = re.compile(r"utf8env|noqa|pylint", re.IGNORECASE)      # what _KEEP needs


class Site(object):
    """One call: line and col (1-based; col in characters), call (its shown name),
    verdict FIX or REVIEW, message, edits [(line index, char column, text)] for FIX."""
    __slots__ = ("line", "col", "call", "verdict", "message", "edits", "end")

    def __init__(self, line, col, call, verdict, message, edits=(), end=None):
        self.line, self.col, self.call = line, col, call
        self.verdict, self.message, self.edits = verdict, message, list(edits)
        self.end = end if end is not None else line     # the call's last line (1-based)

    def __repr__(self):
        return "Site(%d, %d, %r, %r, %r)" % (self.line, self.col, self.call, self.verdict,
                                             self.message)


# Fields that never hold a node (names, numbers, the Load/Store contexts): ast.walk's
# visits of those are a third of its time.
_NOT_NODES = frozenset(("ctx", "id", "attr", "name", "arg", "module", "level", "n", "s",
                        "kind", "type_comment", "asname", "is_async", "conversion", "simple",
                        "op"))
_FIELDS = {}


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEFINITIONS = _FUNCTIONS + (ast.ClassDef,)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_IMPORTS = (ast.Import, ast.ImportFrom)
_DECLARATIONS = {ast.Global: "global", ast.Nonlocal: "nonlocal"}
# match's capture patterns (3.10+): their name (MatchMapping: rest) is bound.
_CAPTURES = tuple(getattr(ast, name) for name in ("MatchAs", "MatchStar", "MatchMapping")
                  if hasattr(ast, name))
_ANN_ASSIGN = getattr(ast, "AnnAssign", None)
_NAMED_EXPR = getattr(ast, "NamedExpr", None)
# The kinds _collect does more for than walk their children.
_SPECIAL = frozenset(_FUNCTIONS + _COMPREHENSIONS + _IMPORTS + tuple(_DECLARATIONS) +
                     _CAPTURES + (ast.Lambda, ast.ClassDef, ast.ExceptHandler, ast.Assign,
                                  ast.For, ast.AsyncFor, ast.JoinedStr) +
                     tuple(kind for kind in (_ANN_ASSIGN, _NAMED_EXPR) if kind is not None))


def _arguments(arguments):
    every = list(getattr(arguments, "posonlyargs", ())) + list(arguments.args) + \
        list(arguments.kwonlyargs)
    return every + [arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None]


def collect(tree):
    """(the module's names, every Call node with its scope, the ids of the calls inside
    f-strings). Each scope's own nodes are walked with that scope (parents before
    children, no recursion); a def, lambda, class or comprehension met there binds its
    name and leaves what runs there (decorators, defaults, annotations, bases, the first
    iterable) in it, and its body for a scope of its own."""
    module = ModuleNames()
    root = Scope(None, MODULE)
    calls = []
    in_fstring = set()
    declaring = []                  # the scopes with a global or nonlocal statement
    node_type, fields, local = ast.AST, _FIELDS, LOCAL
    load, name_type, call_type, special = ast.Load, ast.Name, ast.Call, _SPECIAL
    constant_type = ast.Constant if HAS_END else None
    pending = [(tree.body, root)]
    while pending:
        nodes, scope = pending.pop()
        stack = list(nodes)
        pop, push, extend = stack.pop, stack.append, stack.extend
        while stack:
            node = pop()
            if not isinstance(node, node_type):
                continue                # None in Dict.keys and kw_defaults
            kind = type(node)
            if kind is name_type:
                if type(node.ctx) is not load:
                    scope.bind(node.id, local)          # assigned, a for/with target, del
                continue
            if kind is constant_type:
                continue
            if kind is call_type:
                calls.append((node, scope))
            elif kind not in special:
                pass                    # most nodes: only their children matter
            elif kind in _FUNCTIONS or kind is ast.Lambda:
                inner = Scope(scope, FUNCTION)
                arguments = node.args
                extend(arguments.defaults)
                extend(arguments.kw_defaults)
                for arg in _arguments(arguments):
                    inner.bound[arg.arg] = local
                    if arg.annotation is not None:
                        push(arg.annotation)
                        if annotation_is_path(arg.annotation):
                            module.path_names.add(arg.arg)
                if kind is ast.Lambda:
                    pending.append(([node.body], inner))
                    continue
                scope.bind(node.name, local)
                extend(node.decorator_list)
                if node.returns is not None:
                    push(node.returns)
                pending.append((node.body, inner))
                continue
            elif kind is ast.ClassDef:
                scope.bind(node.name, local)
                extend(node.decorator_list)
                extend(node.bases)
                extend(node.keywords)
                pending.append((node.body, Scope(scope, CLASS)))
                continue
            elif kind in _COMPREHENSIONS:
                # The first iterable is evaluated where the comprehension is; the rest,
                # and its variables, in a scope of its own.
                inner = Scope(scope, COMPREHENSION)
                body = [node.key, node.value] if kind is ast.DictComp else [node.elt]
                for index, generator in enumerate(node.generators):
                    body.append(generator.target)
                    body.extend(generator.ifs)
                    if index:
                        body.append(generator.iter)
                    else:
                        push(generator.iter)
                    _path_iterator(module, generator, inner)
                pending.append((body, inner))
                continue
            elif kind in _IMPORTS:
                if kind is ast.Import:
                    for alias in node.names:
                        if alias.asname:
                            scope.bind(alias.asname, alias.name)
                            module.imported_names.add(alias.asname)
                        else:
                            top = alias.name.split(".", 1)[0]
                            scope.bind(top, top)
                            module.imported_names.add(top)
                else:
                    prefix = "." * (node.level or 0) + (node.module or "")
                    for alias in node.names:
                        if alias.name != "*":
                            scope.bind(alias.asname or alias.name, prefix + "." + alias.name)
                            module.imported_names.add(alias.asname or alias.name)
                continue
            elif kind in _DECLARATIONS:
                if scope.declared is None:
                    scope.declared = {}
                    declaring.append(scope)
                for name in node.names:
                    scope.declared[name] = _DECLARATIONS[kind]
                continue
            elif kind is ast.ExceptHandler or kind in _CAPTURES:
                name = node.rest if kind.__name__ == "MatchMapping" else node.name
                if name is not None:
                    scope.bind(name, local)
            elif kind is ast.Assign:
                for target in node.targets:
                    for name in target_names(target):
                        module.assigned.append((name, node.value, scope))
            elif kind is _ANN_ASSIGN:
                for name in target_names(node.target):
                    if annotation_is_path(node.annotation):
                        module.path_names.add(name)
                    if node.value is not None:
                        module.assigned.append((name, node.value, scope))
            elif kind is ast.For or kind is ast.AsyncFor:
                _path_iterator(module, node, scope)
            elif kind is _NAMED_EXPR:
                # := in a comprehension binds in the scope around it.
                target = scope
                while target.kind == COMPREHENSION:
                    target = target.parent
                target.bind(node.target.id, local)
            elif kind is ast.JoinedStr:
                for inner in ast.walk(node):
                    if type(inner) is call_type:
                        in_fstring.add(id(inner))
            names = fields.get(kind)
            if names is None:
                names = fields[kind] = tuple(name for name in kind._fields
                                             if name not in _NOT_NODES)
            for name in names:
                value = getattr(node, name, None)
                if value is None:
                    continue
                if type(value) is list:
                    extend(value)
                elif isinstance(value, node_type):
                    push(value)
    for scope in declaring:
        if scope is root:
            continue                    # `global x` at module level changes nothing
        # What a function assigns to a name it declares global is bound in the module
        # (nonlocal: in the function around, which must bind it already).
        for name, declared in scope.declared.items():
            value = scope.bound.pop(name, None)
            if declared == "global" and value is not None:
                root.bind(name, value)
    return module, calls, in_fstring


def _path_iterator(module, node, scope):
    """`for p in X.glob(...)`: p is a path where X is."""
    source = node.iter
    if isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute) and \
            source.func.attr in PATH_ITERATORS:
        for name in target_names(node.target):
            module.assigned.append((name, source.func.value, scope))


def _spec(call, scope, module):
    """(shown name, mode's position, text by default, encoding's position, kind, likely)
    of a call of interest in `scope`, or None."""
    func = call.func
    if isinstance(func, ast.Attribute):
        attr = func.attr
        if attr in ("read_text", "write_text", "open", "read"):
            receiver = func.value
            if attr == "read":
                if not call.args:
                    return None
                module.settle()
                return CONFIG_READ + (False,) if module.is_config(receiver, scope) else None
            if attr == "open":
                if not module.imported(receiver, scope):
                    module.settle()
                    if module.is_path(receiver, scope):
                        return PATH_OPEN + (True,)
            elif not module.imported(receiver, scope):
                return (READ_TEXT if attr == "read_text" else WRITE_TEXT) + (True,)
        if attr not in LAST_NAMES:
            return None         # the name FUNCTIONS would need (most calls: methods)
    elif type(func) is ast.Name and func.id != "open" and func.id not in module.imported_names:
        return None             # neither open nor an import's: no name of FUNCTIONS
    name = module.qualname(func, scope)
    spec = FUNCTIONS.get(name) if name is not None else None
    return spec + (False,) if spec is not None else None


_NOT_LITERAL = object()


def _truth(node):
    try:
        return bool(literal(node))
    except ValueError:
        return _NOT_LITERAL


def _ordinal(number):
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(number, "%dth" % number)


def judge(call, spec, module):
    """None (not text in the locale's encoding, or an explicit encoding), or (REVIEW,
    message), or (FIX, None)."""
    enc_pos = spec[3]
    keywords = {}
    double_star = False
    for keyword in call.keywords:
        if keyword.arg is None:
            double_star = True
        else:
            keywords[keyword.arg] = keyword.value
    starred = [i for i, arg in enumerate(call.args) if isinstance(arg, ast.Starred)]
    first_star = starred[0] if starred else len(call.args)
    encoding = keywords.get("encoding")
    if encoding is None and enc_pos is not None and first_star > enc_pos:
        encoding = call.args[enc_pos]                       # a positional encoding
    if encoding is not None and not _is_none(encoding):
        return None
    judged = _judge_text(call, spec, keywords, double_star, starred, first_star)
    if judged is not None and encoding is not None:
        # encoding=None is the default said aloud: the locale's encoding, which 3.15's
        # UTF-8 mode changes (pylint's W1514 says so too).
        return REVIEW, "encoding=None is the locale's encoding: give the one the data " \
                       "is in (encoding=\"utf-8\")"
    return judged


def _is_none(node):
    try:
        return literal(node) is None
    except ValueError:
        return False


def _judge_text(call, spec, keywords, double_star, starred, first_star):
    """_judge's answer for a call that gives no encoding."""
    shown, mode_pos, text_default, enc_pos, kind, _ = spec
    text = text_default
    if kind == MODE or kind == FILEINPUT:
        if kind == FILEINPUT:
            if "openhook" in keywords:
                return None
            if len(call.args) > 3 or starred:
                return REVIEW, "positional arguments past backup: mode and openhook unknown"
        mode = keywords.get("mode")
        if mode is None and mode_pos is not None and len(call.args) > mode_pos:
            mode = call.args[mode_pos] if first_star > mode_pos else _NOT_LITERAL
        if mode is _NOT_LITERAL:
            return REVIEW, "*args may carry the mode and the encoding"
        if mode is not None:
            try:
                value = literal(mode)
            except ValueError:
                value = None
            if not isinstance(value, str):
                return REVIEW, "the mode is not a literal: if it is a text mode, the " \
                               "encoding is the locale's"
            text = "b" not in value
        elif double_star:
            text = True             # the mode may be in **kwargs: review below
    elif kind == SUBPROCESS:
        text = False
        for word in TEXT_KEYWORDS[:2]:
            if word in keywords:
                truth = _truth(keywords[word])
                if truth is _NOT_LITERAL:
                    return REVIEW, "%s= is not a literal: if true, the output is decoded " \
                                   "with the locale's encoding" % word
                text = text or truth
        if TEXT_KEYWORDS[2] in keywords:
            text = True
        if not text:
            return None
    if not text:
        return None
    if double_star:
        return REVIEW, "**kwargs may carry encoding="
    if starred and enc_pos is not None:
        return REVIEW, "*args may carry the encoding (%s's %s positional)" % (
            shown.rsplit(".", 1)[-1], _ordinal(enc_pos + 1))
    if kind == POPEN:
        return REVIEW, "os.popen has no encoding parameter: use subprocess.run(..., " \
                       "text=True, encoding=\"utf-8\")"
    if len(call.args) == 1 and not call.keywords and isinstance(call.args[0], ast.GeneratorExp):
        return REVIEW, "a bare generator argument: add encoding= by hand"
    return FIX, None


def scan(text, encoding="utf-8", data=None, whole=False, literals=None):
    """The Sites of the source `text`, in order; raises SyntaxError (ValueError for a NUL
    byte on older Pythons) where it does not parse. `data`: the bytes `text` was decoded
    from (the BOM or cookie's encoding, as the compiler reads them), parsed instead: the
    same tree, a tenth faster than from text (no encoding back to UTF-8), without the
    functions and classes that can hold no call (chunks) unless `whole` (`literals`:
    data's literals.Literals, if made already)."""
    tree, left_out = _parsed(text, data, whole, literals)
    module, calls, in_fstring = collect(tree)
    module.left_out = left_out
    lines = None
    sites = []
    for call, scope in calls:
        try:
            spec = _spec(call, scope, module)
        except Partial:
            return scan(text, encoding, data, whole=True)
        if spec is None:
            continue
        judged = judge(call, spec, module)
        if judged is None:
            continue
        if lines is None:
            lines = split_lines(text)
        shown, likely = spec[0], spec[5]
        line, col = call.lineno, char_col(lines[call.lineno - 1], call.col_offset) + 1
        verdict, message = judged
        if verdict == FIX and id(call) in in_fstring:
            verdict, message = REVIEW, "inside an f-string: add encoding= by hand"
        edits = None
        if verdict == FIX:
            edits = insertion.edits(lines, call, encoding)
            if edits is not None:
                edits, swallowed = edits
                col = outside(lines[line - 1], col, swallowed)
            if edits is None:
                verdict = REVIEW
                message = ("the call's parenthesis cannot be placed on Python %d.%d (a "
                           "receiver in parentheses): fix with Python 3.8+ or by hand"
                           % sys.version_info[:2]) if not HAS_END else \
                    "the call's parenthesis cannot be placed: add encoding= by hand"
        if verdict == FIX:
            message = _fix_message(spec, encoding)
        elif likely:
            message += " (likely a pathlib.Path)"
        end = getattr(call, "end_lineno", None) or max(
            [line] + [edit[0] + 1 for edit in (edits or ())])
        sites.append(Site(line, col, shown, verdict, message, edits or (), end))
    if sites and any(_KEEP_WORDS.search("".join(lines[site.line - 1:site.end]))
                     for site in sites):
        # Tokenizing (to tell a comment from a string) costs as much as parsing: only
        # where such a comment's words are on a call's lines at all (and only these:
        # a search of the whole text ignoring case costs a tenth of the parse).
        kept = kept_lines(text)
        sites = [site for site in sites
                 if not any(n in kept for n in range(site.line, site.end + 1))]
    sites.sort(key=lambda site: (site.line, site.col))
    return sites


def _parsed(text, data, whole=False, literals=None):
    """(the tree, what was left out of it: chunks.LeftOut, or None)."""
    if data is None:
        return ast.parse(text), None
    if not whole:
        cut = skeleton(data, literals)
        if cut is not None:
            try:
                tree = ast.parse(cut[0])
            except (SyntaxError, ValueError):
                tree = None     # (the whole file's parse says where, if it is the file's)
            if tree is not None and _stubs_stand(tree, cut[1]):
                return tree, cut[2]
    return ast.parse(data), None


def _stubs_stand(tree, stubs):
    """Whether each stub of chunks is a def or class of the module's or of a class's (at
    any depth) at its line."""
    standing = set()
    bodies = [tree.body]
    while bodies:
        for node in bodies.pop():
            if isinstance(node, _DEFINITIONS):
                standing.add((node.lineno, node.name))
                if type(node) is ast.ClassDef:
                    bodies.append(node.body)
    return all(stub in standing for stub in stubs)


def kept_lines(text):
    """The numbers (1-based) of the lines whose comment keeps a call as it is (_KEEP)."""
    import io
    kept = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT and _KEEP.search(token.string):
                kept.add(token.start[0])
    except (tokenize.TokenError, SyntaxError):     # what parsed always tokenizes: belt
        pass
    return kept


def _fix_message(spec, encoding):
    kind, likely = spec[4], spec[5]
    if kind == SUBPROCESS:
        what = "decodes its output with the locale's encoding"
    else:
        what = "text in the locale's encoding"
    if likely:
        what += " (likely a pathlib.Path)"
    notes = []
    if encoding == "locale":
        notes.append('encoding="locale" is Python 3.10+')
    if kind == FILEINPUT:
        notes.append("fileinput's encoding= is Python 3.10+")
    return "%s; fix: encoding=\"%s\"%s" % (what, encoding,
                                          " (%s)" % "; ".join(notes) if notes else "")


def apply(text, sites):
    """`text` with the edits of the FIX sites made."""
    lines = split_lines(text)
    edits = sorted((edit for site in sites if site.verdict == FIX for edit in site.edits),
                   reverse=True)
    for line, col, insert in edits:
        lines[line] = lines[line][:col] + insert + lines[line][col:]
    return "".join(lines)
