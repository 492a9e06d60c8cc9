"""The progress of a readiness run, as it happens: a pytest plugin loaded by readiness with
`-p utf8env.readiness._progress` (never an entry point: inert elsewhere).

`--utf8env-progress PATH` appends one JSON line to PATH, flushed at once, per event:
{"utf8_mode", "filesystem_encoding", "locale_encoding"} at the start, {"collected": N}
once collected, {"collect_error": nodeid, "message"} per collection
error, {"test": nodeid, "when": "setup"|"call"|"teardown", "outcome", "message"} per
test phase, {"exit": status, "shouldfail", "shouldstop"} at the end of the session.
A run killed at its timeout thus leaves the tests that finished (their teardown written).
The teardown line holds the test's captured log, stdout and stderr ("output", laid out
as pytest's --junitxml with junit_logging=all gives them) when it captured any: what
readiness compares besides the outcome, without the cost of the XML; {"outputs": true}
at the start says so (the unittest runner writes its JUnit XML instead).
`--utf8env-only PATH` deselects every test whose node id is not a line of PATH (the
reruns of the tests that changed: the suite's own arguments stay as given), and leaves
out of the collection the files none of them is in.

Loaded into the interpreter under test: Python 3.6 syntax, standard library only
(readiness imports it too). Under pytest-xdist the controller writes (the workers' reports reach it); the
workers only deselect. read() is readiness's side.
"""
import json

_FILE = []


def pytest_addoption(parser):
    group = parser.getgroup("utf8env-progress", "utf8env readiness: progress of a run")
    group.addoption("--utf8env-progress", action="store", dest="utf8env_progress",
                    default=None, metavar="PATH",
                    help="append one JSON line per test phase to PATH as it ends")
    group.addoption("--utf8env-only", action="store", dest="utf8env_only", default=None,
                    metavar="PATH", help="run only the tests whose node ids are lines of PATH")


def pytest_configure(config):
    path = config.getoption("utf8env_progress")
    if path and getattr(config, "workerinput", None) is None:
        _FILE.append(open(path, "a", encoding="utf-8"))
        import locale
        import sys
        getencoding = getattr(locale, "getencoding", None)
        _write({"utf8_mode": getattr(sys.flags, "utf8_mode", 0),
                "filesystem_encoding": sys.getfilesystemencoding(),
                "locale_encoding": getencoding() if getencoding else None, "outputs": True})


def pytest_unconfigure(config):
    while _FILE:
        _FILE.pop().close()


def _write(entry):
    for f in _FILE:
        f.write(json.dumps(entry) + "\n")
        f.flush()


def _message(report):
    longrepr = report.longrepr
    if longrepr is None:
        return None
    if getattr(report, "wasxfail", None) is not None:       # the reason, as pytest says it
        text = report.wasxfail
        return (text[len("reason: "):] if text.startswith("reason: ") else text).strip() or None
    if isinstance(longrepr, tuple) and len(longrepr) == 3:      # a skip: (path, line, reason)
        text = str(longrepr[2])
        if text.startswith("Skipped: "):
            text = text[len("Skipped: "):]
    else:
        crash = getattr(longrepr, "reprcrash", None)
        text = crash.message if crash is not None else str(longrepr)
    for line in text.strip().splitlines():
        if line.strip():
            return line.strip()
    return None


def _wanted(config):
    """The node ids of --utf8env-only's file (None without it), read once."""
    path = config.getoption("utf8env_only")
    if not path:
        return None
    if not hasattr(config, "_utf8env_wanted"):
        # written by readiness with surrogateescape: a node id holds a file's name as
        # the file system gives it, which may not be UTF-8
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            config._utf8env_wanted = set(line.rstrip("\n") for line in f if line.strip())
    return config._utf8env_wanted


def _wanted_files(config):
    """The files the wanted node ids are in, each as given and as resolved; None where
    one is not a file this process sees (a node id of another shape): then nothing is
    left out of the collection, the deselection alone chooses."""
    if not hasattr(config, "_utf8env_files"):
        import os
        root = str(getattr(config, "rootpath", None) or config.rootdir)
        files = set()
        for nodeid in _wanted(config):
            path = os.path.normpath(os.path.join(root, nodeid.split("::", 1)[0]))
            if not os.path.isfile(path):
                files = None
                break
            files.update((path, os.path.realpath(path)))
        config._utf8env_files = files
    return config._utf8env_files


def _leave_out(path, config):
    """True where --utf8env-only's tests cannot be in the file `path` (collecting a whole
    suite again for a few tests costs as long as running most of them); None elsewhere,
    so that pytest and the suite's other plugins decide. Never a folder (one walk is
    cheap), __init__.py or conftest.py (a package's, its fixtures)."""
    import os
    if _wanted(config) is None or not os.path.isfile(path) or \
            os.path.basename(path) in ("__init__.py", "conftest.py"):
        return None
    files = _wanted_files(config)
    if files is None or os.path.normpath(path) in files or os.path.realpath(path) in files:
        return None
    return True


def _pytest_major():
    """pytest's major version where it runs this module as a plugin; None in readiness's
    own process (which reads progress files, and imports no pytest for it)."""
    import sys
    pytest = sys.modules.get("pytest")
    try:
        return int(pytest.__version__.split(".")[0]) if pytest is not None else None
    except (AttributeError, ValueError):
        return 0


# The hook's argument is collection_path (pathlib) from pytest 7, path (py.path) before;
# pytest 8 has no `path` any more: the one this pytest has.
if (_pytest_major() or 0) >= 7:
    def pytest_ignore_collect(collection_path, config):
        return _leave_out(str(collection_path), config)
elif _pytest_major() is not None:
    def pytest_ignore_collect(path, config):
        return _leave_out(str(path), config)


def pytest_collection_modifyitems(session, config, items):
    wanted = _wanted(config)
    if wanted is None:
        return
    keep = [item for item in items if item.nodeid in wanted]
    drop = [item for item in items if item.nodeid not in wanted]
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_collection_finish(session):
    _write({"collected": len(session.items)})


def pytest_collectreport(report):
    if report.failed:
        _write({"collect_error": report.nodeid, "message": _message(report)})
    elif report.skipped:            # a module skipped as it was collected: one test, skipped
        _write({"collect_skip": report.nodeid, "message": _message(report)})


def pytest_runtest_logreport(report):
    if not _FILE:
        return              # an xdist worker's: its controller writes
    entry = {"test": report.nodeid, "when": report.when, "outcome": report.outcome,
             "message": None if report.passed else _message(report)}
    if report.when == "teardown" and (report.caplog or report.capstdout or report.capstderr):
        entry["output"] = output(report.caplog, report.capstdout, report.capstderr)
    _write(entry)


# The headers pytest's junitxml gives each part of a test's captured output.
_PARTS = (" Captured Log ", " Captured Out ", " Captured Err ")


def output(log, out, err):
    """A test's captured log, stdout and stderr (of all its phases) in one text, as pytest's
    --junitxml with junit_logging=all lays them out (a header line centred in 80 dashes,
    the part, an empty line), each part written even when empty."""
    return "".join("%s\n%s\n" % (header.center(80, "-"), part)
                   for header, part in zip(_PARTS, (log, out, err)))


NOTHING_CAPTURED = output("", "", "")


def pytest_sessionfinish(session, exitstatus):
    _write({"exit": int(exitstatus), "shouldfail": session.shouldfail or None,
            "shouldstop": session.shouldstop or None})


# -- readiness's side ------------------------------------------------------------------------

class Progress(object):
    """What a progress file says: `tests` {nodeid: (outcome, message)} of the tests that
    finished (teardown ended), `collected` (None: not said, or 0 under xdist's
    controller), `collect_errors` [nodeid], `finish` (the end-of-session entry, or None),
    `started` the node ids begun but not finished; `outputs` {nodeid: output} of the tests
    that captured any, `collected_apart` {nodeid: (outcome, message)} of the collection's
    errors and skips (_junit.cases() reads them all as the XML would say them)."""

    def __init__(self):
        self.tests, self.collected, self.collect_errors = {}, None, []
        self.finish, self.started, self.present = None, [], False
        self.start, self.outputs, self.collected_apart = {}, {}, {}


def read(path):
    progress = Progress()
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return progress
    progress.present = True
    running = {}
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue            # the last line of a run killed mid-write
        if "utf8_mode" in entry:
            progress.start = entry
        elif "collected" in entry:
            progress.collected = entry["collected"]
        elif "collect_error" in entry:
            progress.collect_errors.append(entry["collect_error"])
            progress.collected_apart[entry["collect_error"]] = ("error", entry.get("message"))
        elif "collect_skip" in entry:
            progress.collected_apart[entry["collect_skip"]] = ("skipped", entry.get("message"))
        elif "exit" in entry:
            progress.finish = entry
        elif "test" in entry:
            nodeid, when, outcome = entry["test"], entry["when"], entry["outcome"]
            so_far = running.get(nodeid)
            if when == "setup":
                running[nodeid] = None if outcome == "passed" else (
                    "error" if outcome == "failed" else "skipped", entry.get("message"))
            elif when == "call":
                running[nodeid] = (outcome, entry.get("message"))
            elif when == "teardown":
                result = so_far or ("passed", None)
                if outcome == "failed" and result[0] == "passed":
                    result = ("error", entry.get("message"))
                running.pop(nodeid, None)
                progress.tests[nodeid] = result
                if "output" in entry:
                    progress.outputs[nodeid] = entry["output"]
    progress.started = sorted(running)
    return progress
