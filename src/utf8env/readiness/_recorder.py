"""What the pytest plugin does once asked (`pytest --utf8env`): record every
EncodingWarning of the run with its call site (file:line, function), the tests that hit
it and a count; keep the user's own code apart from site-packages and the standard
library; print a summary at the end; write the JSON record `utf8env readiness` reads.

Runs inside the interpreter under test (3.6 syntax: the plugin can be loaded by any
pytest; EncodingWarning itself exists from 3.10). Under pytest-xdist, the workers'
warnings reach the controller through pytest_warning_recorded, where they are counted
once; a worker only makes every occurrence count and starts with the flag on.
"""
import ast
import json
import os
import sys

import pytest

SCHEMA = 1
ENV_FLAG = "PYTHONWARNDEFAULTENCODING"
HOW_TO = ("start the interpreter with -X warn_default_encoding (python -X "
          "warn_default_encoding -m pytest --utf8env) or set PYTHONWARNDEFAULTENCODING=1")


def warns_default_encoding():
    """True/False: this interpreter raises EncodingWarning; None: it has none (< 3.10)."""
    if sys.version_info < (3, 10):
        return None
    return bool(sys.flags.warn_default_encoding)


def activate(config):
    if sys.version_info >= (3, 10):
        # Every occurrence counts, not the first per location. First in the list, so the
        # user's own filters (ini, then -W) still decide: `error::EncodingWarning` stays.
        config.getini("filterwarnings").insert(0, "always::EncodingWarning")
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:       # an xdist worker: the controller records
        if workerinput.get("utf8env_unset_flag"):
            os.environ.pop(ENV_FLAG, None)      # it was set for this worker's start only
        return
    config.pluginmanager.register(Recorder(config), "utf8env-recorder")


def origin(path, places=None):
    """"user", "site-packages" or "stdlib": where the file of a call site belongs."""
    if path.startswith("<"):              # <frozen ...>, <string>
        return "stdlib" if path.startswith("<frozen") else "user"
    sites, stdlib = places or _places()
    real = os.path.realpath(path)
    parts = real.split(os.sep)
    if "site-packages" in parts or "dist-packages" in parts or _under(real, sites):
        return "site-packages"
    return "stdlib" if _under(real, stdlib) else "user"


def _under(path, folders):
    return any(path == f or path.startswith(f.rstrip(os.sep) + os.sep) for f in folders)


def _places():
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


class Recorder(object):
    def __init__(self, config):
        self.config = config
        self.sites = {}           # (path, line) -> site dict
        self.tests = {}           # nodeid -> outcome
        self.places = _places()
        self.rootdir = str(config.rootdir)
        self.warnings_plugin = config.pluginmanager.has_plugin("warnings")

    # -- xdist: the workers start with the flag on, then drop it for their tests ----------

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_setupnodes(self, config, specs):
        if warns_default_encoding() and ENV_FLAG not in os.environ:
            os.environ[ENV_FLAG] = "1"
            self.set_for_workers = True

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node):
        if getattr(self, "set_for_workers", False):
            node.workerinput["utf8env_unset_flag"] = True

    # -- recording --------------------------------------------------------------------

    def pytest_warning_recorded(self, warning_message, when, nodeid, location):
        category = warning_message.category
        if getattr(category, "__name__", "") != "EncodingWarning":
            return
        key = (warning_message.filename, warning_message.lineno)
        site = self.sites.get(key)
        if site is None:
            site = self.sites[key] = {
                "path": warning_message.filename, "line": warning_message.lineno,
                "message": str(warning_message.message), "count": 0, "tests": {}}
        site["count"] += 1
        test = nodeid or "(%s)" % when
        site["tests"][test] = site["tests"].get(test, 0) + 1

    def pytest_runtest_logreport(self, report):
        if report.when == "call":
            self.tests[report.nodeid] = report.outcome
        elif report.failed:
            self.tests[report.nodeid] = "error"
        elif report.skipped:
            self.tests[report.nodeid] = "skipped"
        else:
            self.tests.setdefault(report.nodeid, "passed")

    # -- the record -------------------------------------------------------------------

    def record(self):
        sites = []
        for (path, line), site in sorted(self.sites.items(), key=lambda kv: (str(kv[0][0]), kv[0][1])):
            where = origin(path, self.places)
            shown = path
            if where == "user" and _under(os.path.realpath(path), [os.path.realpath(self.rootdir)]):
                shown = os.path.relpath(os.path.realpath(path), os.path.realpath(self.rootdir))
            sites.append({"file": shown, "line": line, "function": function_at(path, line),
                          "origin": where, "message": site["message"], "count": site["count"],
                          "tests": dict(sorted(site["tests"].items()))})
        import locale
        getencoding = getattr(locale, "getencoding", None)
        return {"schema": SCHEMA, "python": "%d.%d.%d" % sys.version_info[:3],
                "utf8_mode": getattr(sys.flags, "utf8_mode", 0),
                "warn_default_encoding": warns_default_encoding(),
                "filesystem_encoding": sys.getfilesystemencoding(),
                "locale_encoding": getencoding() if getencoding else None,
                "rootdir": self.rootdir, "sites": sites, "tests": dict(sorted(self.tests.items()))}

    def pytest_sessionfinish(self, session):
        path = self.config.getoption("utf8env_json")
        if path:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(self.record(), f, indent=1, sort_keys=True)
                f.write("\n")

    def pytest_terminal_summary(self, terminalreporter):
        if not self.config.getoption("utf8env"):
            return
        for line in summary_lines(self.record(), self.config.getoption("utf8env_all"),
                                  self.warnings_plugin):
            if line.startswith("="):
                terminalreporter.write_sep("=", line.strip("= "))
            else:
                terminalreporter.write_line(line)


def summary_lines(record, show_all=False, warnings_plugin=True):
    """The plugin's end-of-run summary, as lines ("=" lines are pytest separators)."""
    flag = record["warn_default_encoding"]
    if flag is None:
        return ["= utf8env: default text encodings =",
                "Python %s has no EncodingWarning (PEP 597, Python 3.10+): run the suite on "
                "3.10 or later, or with utf8env readiness" % record["python"]]
    if not flag:
        return ["= utf8env: default text encodings =",
                "EncodingWarning is off in this interpreter: " + HOW_TO + "; "
                "utf8env readiness turns it on itself"]
    if not warnings_plugin:
        return ["= utf8env: default text encodings =",
                "pytest's warnings plugin is disabled (-p no:warnings): no warning is recorded"]
    sites = record["sites"]
    shown = [s for s in sites if show_all or s["origin"] == "user"]
    hidden = len(sites) - len(shown)
    tests = {t for s in shown for t in s["tests"]}
    head = "= utf8env: %d call site%s use%s the locale encoding (%d EncodingWarning%s in %d test%s) =" % (
        len(shown), "" if len(shown) == 1 else "s", "s" if len(shown) == 1 else "",
        sum(s["count"] for s in shown), "" if sum(s["count"] for s in shown) == 1 else "s",
        len(tests), "" if len(tests) == 1 else "s")
    lines = [head]
    for s in shown:
        where = "" if s["origin"] == "user" else " [%s]" % s["origin"]
        lines.append("%s:%d in %s%s: %d warning%s, %d test%s" % (
            s["file"], s["line"], s["function"] or "?", where, s["count"],
            "" if s["count"] == 1 else "s", len(s["tests"]), "" if len(s["tests"]) == 1 else "s"))
        lines += ["    " + t for t in s["tests"]]
    if hidden:
        lines.append("%d more in the standard library and site-packages (--utf8env-all shows them)"
                     % hidden)
    return lines
