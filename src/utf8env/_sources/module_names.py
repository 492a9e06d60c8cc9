"""What the whole module says about names, for `X.open()`, `X.read_text()` and
`X.read(...)`: the names assigned a path or a ConfigParser anywhere in it (a heuristic;
which binding a call's name resolves to is its scope's: scope.py), and where parts of the
module were left out of the parse (chunks.py), the names that may be assigned one there
(Partial: the scan then parses the whole file)."""
import ast

from .calls import CONFIGPARSERS, PATH_CLASSES, PATH_METHODS
from .nodes import HAS_END, literal
from .scope import LOCAL


class Partial(Exception):
    """A question about the whole module asked of a parse that left parts of it out."""


class ModuleNames(object):
    """What the whole module says about names: the names assigned a path or a
    ConfigParser (anywhere: a heuristic). Which name a call's name is bound to is its
    scope's (Scope.lookup)."""

    def __init__(self):
        self.assigned = []          # (target's name, value, scope)
        self.path_names = set()
        self.config_names = set()
        self.imported_names = set()  # the names an import binds, in any scope
        self.settled = False
        # What the parse left out (chunks.LeftOut), if anything: a name the parse did not
        # see assigned a path or a ConfigParser may be one there.
        self.left_out = None
        self.unsure = set()         # ... names whose value may be one of those

    @staticmethod
    def qualname(node, scope, strict=True):
        """The dotted name of a Name or Attribute chain, its base resolved in `scope`: an
        import's module, "builtins.open" for an unbound open. A base bound otherwise
        (a local, a parameter, `open = ...`) gives None if strict, else its own name."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        base = scope.lookup(node.id)
        if base is None:
            base = "builtins.open" if node.id == "open" else node.id
        elif base is LOCAL:
            if strict:
                return None
            base = node.id
        parts.append(base)
        return ".".join(reversed(parts))

    @staticmethod
    def imported(node, scope):
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and isinstance(scope.lookup(node.id), str)

    def is_path(self, node, scope):
        if isinstance(node, ast.BinOp):
            return isinstance(node.op, ast.Div)
        if isinstance(node, ast.Call):
            func = node.func
            name = self.qualname(func, scope, False)
            if name is not None and name.rsplit(".", 1)[-1] in PATH_CLASSES:
                return True
            if isinstance(func, ast.Attribute) and func.attr in PATH_METHODS:
                return self.is_path(func.value, scope) or (
                    name is not None and name.rsplit(".", 2)[-2] in PATH_CLASSES)
            return False
        if isinstance(node, ast.Name):
            return (not self.imported(node, scope) and node.id.lower().endswith("path")) or \
                self._named(node.id, self.path_names)
        if isinstance(node, ast.Attribute):
            if node.attr == "parent":
                return self.is_path(node.value, scope)
            return (not self.imported(node, scope) and node.attr.lower().endswith("path")) \
                or self._named(node.attr, self.path_names)
        return False

    def _named(self, name, names):
        """Whether `name` is one of `names` (assigned a path or a ConfigParser somewhere);
        raises Partial where it is not but is in the bytes the parse left out."""
        if name in names:
            return True
        if self.left_out is not None and (
                name in self.unsure or self.left_out.may_bind(name, names is self.path_names)):
            raise Partial
        return False

    def is_config(self, node, scope):
        if isinstance(node, ast.Call):
            name = self.qualname(node.func, scope, False)
            return name is not None and name.rsplit(".", 1)[-1] in CONFIGPARSERS
        if isinstance(node, ast.Name):
            return self._named(node.id, self.config_names)
        if isinstance(node, ast.Attribute):
            return self._named(node.attr, self.config_names)
        return False

    def settle(self):
        """The names assigned a path or a ConfigParser (twice: `b = a.parent` after `a`):
        once the walk is over, and only where a call's receiver asks (most modules have
        no `X.open(`: their assignments are not looked at)."""
        if self.settled:
            return
        self.settled = True
        for _ in range(2):
            found = len(self.path_names) + len(self.config_names)
            self._settle_once()
            if len(self.path_names) + len(self.config_names) == found:
                break           # nothing new: a second pass would find the same
        # A parse that left parts out: the names assigned from a name that may be bound
        # in those parts are unsure too (to the end of the chain), never taken for no path.
        # These passes only mark names unsure: a path or ConfigParser name they added
        # would be one the whole file's two passes never find (`c = b`, `b = a`, ...).
        while self.left_out is not None:
            unsure = len(self.unsure)
            self._settle_once(adding=False)
            if len(self.unsure) == unsure:
                break

    def _settle_once(self, adding=True):
        for name, value, scope in self.assigned:
            try:
                if self.is_path(value, scope):
                    if adding:
                        self.path_names.add(name)
                elif self.is_config(value, scope):
                    if adding:
                        self.config_names.add(name)
            except Partial:
                self.unsure.add(name)   # (only ever raised where parts were left out)


def target_names(target):
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Attribute):
        return [target.attr]
    return []


def annotation_is_path(node):
    if isinstance(node, ast.Name):
        return node.id in PATH_CLASSES
    if isinstance(node, ast.Attribute):
        return node.attr in PATH_CLASSES
    if not HAS_END and isinstance(node, ast.Str) or HAS_END and isinstance(
            node, ast.Constant) and isinstance(node.value, str):
        return literal(node) in PATH_CLASSES
    return False
