"""What the pytest plugin does once asked (`pytest --utf8env`): record every
EncodingWarning of the run with its call site (file:line, function), the tests that hit
it and a count; keep the user's own code apart from site-packages and the standard
library; print a summary at the end; write the JSON record `utf8env readiness` reads.

Runs inside the interpreter under test (3.6 syntax: the plugin can be loaded by any
pytest; EncodingWarning itself exists from 3.10). Under pytest-xdist, the workers'
warnings reach the controller through pytest_warning_recorded, where they are counted
once; a worker only makes every occurrence count and starts with the flag on.

Whatever the suite's own warning filters say (ini `filterwarnings = error`, -W,
`@pytest.mark.filterwarnings`, the interpreter's -W), EncodingWarning is recorded, not
raised: in each test (and at collection) a filter "always::EncodingWarning" goes in front
of the suite's, inside pytest's own catch_warnings (Guard). With the flag off, as the
suite normally runs, there is no EncodingWarning to raise: letting it through keeps the
tests' outcomes theirs. The record says which tests the suite's filters would have
failed ("warning_errors": "filter"), and which failed on an EncodingWarning raised as an
error anyway, by a filter set in the test itself ("raised").

The processes the tests start record theirs too (_children.py: PYTHONPATH, a record
folder, the flag), with the test that started them; their call sites in the user's code
have the origin "child process".
"""
import os
import sys
import warnings

import pytest

from . import _children as children
from ._sites import (CHILD, SCHEMA, add, add_children, filter_action, function_at,  # noqa: F401
                     origin, places_of_this_python as _places, record_of, under as _under)

ENV_FLAG = "PYTHONWARNDEFAULTENCODING"
HOW_TO = ("start the interpreter with -X warn_default_encoding (python -X "
          "warn_default_encoding -m pytest --utf8env) or set PYTHONWARNDEFAULTENCODING=1")
FILTER, RAISED = "filter", "raised"
_WORKER_KEY = "utf8env_warning_errors"


def warns_default_encoding():
    """True/False: this interpreter raises EncodingWarning; None: it has none (< 3.10)."""
    if sys.version_info < (3, 10):
        return None
    return bool(sys.flags.warn_default_encoding)


def _encoding_warning():
    import builtins
    return getattr(builtins, "EncodingWarning", None)


def activate(config):
    child = sys.modules.get("_utf8env_readiness_child")
    if child is not None:       # this process started as a child of a recording: it records
        child.stop()
    if sys.version_info >= (3, 10):
        # Every occurrence counts, not the first per location; Guard makes it win.
        config.getini("filterwarnings").insert(0, "always::EncodingWarning")
    guard = Guard(config)
    config.pluginmanager.register(guard, "utf8env-guard")
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:       # an xdist worker: the controller records
        if workerinput.get("utf8env_unset_flag"):
            os.environ.pop(ENV_FLAG, None)      # it was set for this worker's start only
        return
    config.pluginmanager.register(Recorder(config, guard), "utf8env-recorder")


class Guard(object):
    """In every process that runs tests (xdist workers too): EncodingWarning always
    recorded, never raised by the suite's filters; what those filters would have done."""

    def __init__(self, config):
        self.config = config
        self.category = _encoding_warning()
        self.filters = {}           # nodeid ("" at collection) -> the suite's filters
        self.errors = {}            # nodeid -> FILTER or RAISED

    def _through(self, nodeid):
        self.filters = {nodeid: list(warnings.filters)}
        catcher = warnings.catch_warnings()
        catcher.__enter__()
        if self.category is not None:
            warnings.filterwarnings("always", category=self.category)
        return catcher

    @pytest.hookimpl(hookwrapper=True)
    def pytest_collection(self, session):
        catcher = self._through("")
        try:
            yield
        finally:
            catcher.__exit__(None, None, None)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        # Inside the warnings plugin's wrapper (tryfirst), after its filters and marks.
        catcher = self._through(item.nodeid)
        try:
            with children.running_test(item.nodeid):
                yield
        finally:
            catcher.__exit__(None, None, None)

    def pytest_warning_recorded(self, warning_message, when, nodeid, location):
        if self.category is None or not issubclass(warning_message.category, self.category):
            return
        filters = self.filters.get(nodeid)
        if filters is not None and filter_action(filters, warning_message) == "error":
            self.errors.setdefault(nodeid or "(%s)" % when, FILTER)

    def pytest_runtest_makereport(self, item, call):
        excinfo = call.excinfo
        if self.category is not None and excinfo is not None and excinfo.errisinstance(self.category):
            self.errors[item.nodeid] = RAISED
            # Its call site counts too: the innermost Python frame of the exception (open()
            # and io.text_encoding() are C), shown again as the warning it was, into
            # pytest's record of this test (and so to an xdist controller).
            tb = excinfo.tb
            while tb.tb_next is not None:
                tb = tb.tb_next
            with warnings.catch_warnings():
                warnings.simplefilter("always", self.category)
                warnings.warn_explicit(str(excinfo.value), self.category,
                                       tb.tb_frame.f_code.co_filename, tb.tb_lineno)

    def pytest_sessionfinish(self, session):
        workeroutput = getattr(self.config, "workeroutput", None)
        if workeroutput is not None:
            workeroutput[_WORKER_KEY] = dict(self.errors)


class Recorder(object):
    def __init__(self, config, guard=None):
        self.config = config
        self.guard = guard
        self.sites = {}           # (path, line) -> site dict (_sites.add)
        self.tests = {}           # nodeid -> outcome
        self.rootdir = str(config.rootdir)
        self.warnings_plugin = config.pluginmanager.has_plugin("warnings")
        self.children = children.Recording()
        if warns_default_encoding():
            self.children.start()

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

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error):
        found = getattr(node, "workeroutput", {}).get(_WORKER_KEY) or {}
        for nodeid, what in found.items():
            if self.guard is not None and self.guard.errors.get(nodeid) != RAISED:
                self.guard.errors[nodeid] = what

    # -- recording --------------------------------------------------------------------

    def pytest_warning_recorded(self, warning_message, when, nodeid, location):
        category = warning_message.category
        if getattr(category, "__name__", "") != "EncodingWarning":
            return
        add(self.sites, warning_message.filename, warning_message.lineno,
            str(warning_message.message), nodeid or "(%s)" % when)

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
        sites = {k: dict(v, tests=dict(v["tests"])) for k, v in self.sites.items()}
        if self.children.folder:
            add_children(sites, self.children.entries()[0])
        errors = dict(sorted(self.guard.errors.items())) if self.guard else {}
        return record_of(sites, self.tests, self.rootdir,
                         {"warning_errors": errors} if errors else None)

    def pytest_sessionfinish(self, session):
        path = self.config.getoption("utf8env_json")
        if path:
            import json
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

    def pytest_unconfigure(self, config):
        self.children.finish()


def _plural(n, word, many=None):
    return "%d %s" % (n, word if n == 1 else (many or word + "s"))


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
    shown = [s for s in sites if show_all or s["origin"] in ("user", CHILD)]
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
    errors = record.get("warning_errors") or {}
    filtered = [t for t, what in errors.items() if what == FILTER]
    raised = [t for t, what in errors.items() if what == RAISED]
    if filtered:
        lines.append("%s: the suite's warning filters make EncodingWarning an error there; "
                     "recorded instead (without the flag there is none to raise)"
                     % _plural(len(filtered), "test"))
        lines += ["    " + t for t in filtered]
    if raised:
        lines.append("%s on an EncodingWarning raised as an error (a filter the test sets "
                     "itself): not the outcome without the flag"
                     % _plural(len(raised), "test failed", "tests failed"))
        lines += ["    " + t for t in raised]
    return lines
