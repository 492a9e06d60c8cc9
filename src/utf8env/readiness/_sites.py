"""Where a call site belongs and what function it is in: the parts of the recorder that
need neither pytest nor a running test (3.6 syntax, standard library only)."""
import ast
import os
import sys
import warnings


def origin(path, places=None):
    """"user", "site-packages" or "stdlib": where the file of a call site belongs."""
    if path.startswith("<"):              # <frozen ...>, <string>
        return "stdlib" if path.startswith("<frozen") else "user"
    sites, stdlib = places or places_of_this_python()
    real = os.path.realpath(path)
    parts = real.split(os.sep)
    if "site-packages" in parts or "dist-packages" in parts or under(real, sites):
        return "site-packages"
    return "stdlib" if under(real, stdlib) else "user"


def under(path, folders):
    return any(path == f or path.startswith(f.rstrip(os.sep) + os.sep) for f in folders)


def places_of_this_python():
    """([site-packages folders], [standard library folders]) of this interpreter, real paths."""
    import sysconfig
    paths = sysconfig.get_paths()
    sites = {paths.get("purelib"), paths.get("platlib")}
    stdlib = {paths.get("stdlib"), paths.get("platstdlib")}
    return ([os.path.realpath(p) for p in sites if p],
            [os.path.realpath(p) for p in stdlib if p])


def function_at(path, line, _cache={}):
    """The qualified name of the innermost function or class around `line` of `path`
    ("<module>" at the top level), or None when the source cannot be read."""
    if path not in _cache:
        try:
            with open(path, "rb") as f:
                _cache[path] = ast.parse(f.read(), path)
        except (OSError, SyntaxError, ValueError):
            _cache[path] = None
    tree = _cache[path]
    if tree is None:
        return None
    names = []
    node = tree
    while True:
        inner = [child for child in ast.iter_child_nodes(node)
                 if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                 and child.lineno <= line <= getattr(child, "end_lineno", child.lineno)]
        if not inner:
            return ".".join(names) or "<module>"
        node = inner[0]
        names.append(node.name)


SCHEMA = 1
CHILD = "child process"


def add(sites, path, line, message, test, origin=None):
    """Count one EncodingWarning at (path, line) in test `test` into `sites`
    {(path, line): site}; `origin` given (a child's "user" is CHILD) or found later."""
    site = sites.get((path, line))
    if site is None:
        site = sites[(path, line)] = {"path": path, "line": line, "message": message,
                                      "count": 0, "tests": {}, "origin": origin}
    elif site["origin"] == CHILD and origin != CHILD:
        site["origin"] = origin       # seen in the suite's own process too
    site["count"] += 1
    site["tests"][test] = site["tests"].get(test, 0) + 1


def add_children(sites, entries, outside="(child process)"):
    """Count the entries of children's record files (_childsite) into `sites`: a call
    site in the user's code is "child process"; the standard library's and site-packages'
    keep theirs."""
    for e in entries:
        where = e.get("origin") or "user"
        add(sites, e["path"], e["line"], e["message"], e.get("test") or outside,
            CHILD if where == "user" else where)


def record_of(sites, tests, rootdir, extra=None):
    """The JSON record (schema 1) of `sites` (add()) and `tests` {test id: outcome}."""
    import locale
    import sys
    places = places_of_this_python()
    root = os.path.realpath(rootdir)
    out = []
    for (path, line), site in sorted(sites.items(), key=lambda kv: (str(kv[0][0]), kv[0][1])):
        where = site.get("origin") or origin(path, places)
        shown = path
        if where in ("user", CHILD) and under(os.path.realpath(path), [root]):
            shown = os.path.relpath(os.path.realpath(path), root)
        out.append({"file": shown, "line": line, "function": function_at(path, line),
                    "origin": where, "message": site["message"], "count": site["count"],
                    "tests": dict(sorted(site["tests"].items()))})
    getencoding = getattr(locale, "getencoding", None)
    flag = None if sys.version_info < (3, 10) else bool(sys.flags.warn_default_encoding)
    record = {"schema": SCHEMA, "python": "%d.%d.%d" % sys.version_info[:3],
              "utf8_mode": getattr(sys.flags, "utf8_mode", 0), "warn_default_encoding": flag,
              "filesystem_encoding": sys.getfilesystemencoding(),
              "locale_encoding": getencoding() if getencoding else None,
              "rootdir": rootdir, "sites": out, "tests": dict(sorted(tests.items()))}
    record.update(extra or {})
    return record


def filter_action(filters, warning_message, _modules={}):
    """The action `filters` (warnings.filters' tuples) take for the recorded warning: what
    warnings.warn_explicit would do with them (module: the name of the module whose file
    it is, as warn() gives; else the file name less ".py")."""
    path = warning_message.filename
    if path not in _modules:
        real = os.path.realpath(path)
        _modules[path] = next(
            (name for name, m in list(sys.modules.items())
             if isinstance(getattr(m, "__file__", None), str)
             and os.path.realpath(m.__file__) == real),
            path[:-3] if path.lower().endswith(".py") else path)
    text = str(warning_message.message)
    for action, msg, category, module, line in filters:
        if ((msg is None or msg.match(text)) and issubclass(warning_message.category, category)
                and (module is None or module.match(_modules[path]))
                and (line == 0 or line == warning_message.lineno)):
            return action
    return warnings.defaultaction
