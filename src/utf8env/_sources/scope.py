"""Python's scopes, as far as the fixer needs them: which binding a name has where it is
used (scan's walk records the bindings). Pure, no ast."""

# What a name is bound to in a scope: an import's qualified name (a str), or LOCAL for any
# other binding (assignment, parameter, for/with/except target, del, def, class, match).
LOCAL = object()
MODULE, FUNCTION, CLASS, COMPREHENSION = range(4)


class Scope(object):
    """One of Python's scopes: the names it binds, those it declares global or nonlocal."""
    __slots__ = ("parent", "kind", "bound", "declared")

    def __init__(self, parent, kind):
        self.parent, self.kind = parent, kind
        self.bound = {}
        self.declared = None        # name -> "global" / "nonlocal", made on the first

    def bind(self, name, value):
        # An import wins over the scope's other bindings of the name (`try: import x /
        # except ImportError: x = None`): the call is that module's on the import's path.
        if value is LOCAL:
            self.bound.setdefault(name, LOCAL)
        else:
            self.bound[name] = value

    def lookup(self, name):
        """The binding `name` has in this scope per Python's rules (its own, else the
        enclosing functions', never an enclosing class's, else the module's), or None
        (a builtin, or unbound)."""
        scope, first = self, True
        while scope is not None:
            if first or scope.kind != CLASS:
                declared = scope.declared.get(name) if scope.declared else None
                if declared == "global":
                    while scope.parent is not None:
                        scope = scope.parent
                    return scope.bound.get(name)
                if declared is None:
                    value = scope.bound.get(name)
                    if value is not None:
                        return value
            first = False
            scope = scope.parent
        return None
