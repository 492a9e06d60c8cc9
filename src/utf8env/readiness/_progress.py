"""The progress of a readiness run, as it happens: a pytest plugin loaded by readiness with
`-p utf8env.readiness._progress` (never an entry point: inert elsewhere).

`--utf8env-progress PATH` appends one JSON line to PATH, flushed at once, per event:
{"utf8_mode", "filesystem_encoding", "locale_encoding"} at the start, {"collected": N}
once collected, {"collect_error": nodeid, "message"} per collection
error, {"test": nodeid, "when": "setup"|"call"|"teardown", "outcome", "message"} per
test phase, {"exit": status, "shouldfail", "shouldstop"} at the end of the session.
A run killed at its timeout thus leaves the tests that finished (their teardown written).
`--utf8env-only PATH` deselects every test whose node id is not a line of PATH (the
reruns of the tests that changed: the suite's own arguments stay as given).

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
                "locale_encoding": getencoding() if getencoding else None})


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


def pytest_collection_modifyitems(session, config, items):
    path = config.getoption("utf8env_only")
    if not path:
        return
    with open(path, encoding="utf-8") as f:
        wanted = set(line.rstrip("\n") for line in f if line.strip())
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


def pytest_runtest_logreport(report):
    _write({"test": report.nodeid, "when": report.when, "outcome": report.outcome,
            "message": None if report.passed else _message(report)})


def pytest_sessionfinish(session, exitstatus):
    _write({"exit": int(exitstatus), "shouldfail": session.shouldfail or None,
            "shouldstop": session.shouldstop or None})


# -- readiness's side ------------------------------------------------------------------------

class Progress(object):
    """What a progress file says: `tests` {nodeid: (outcome, message)} of the tests that
    finished (teardown ended), `collected` (None: not said, or 0 under xdist's
    controller), `collect_errors` [nodeid], `finish` (the end-of-session entry, or None),
    `started` the node ids begun but not finished."""

    def __init__(self):
        self.tests, self.collected, self.collect_errors = {}, None, []
        self.finish, self.started, self.present = None, [], False
        self.start = {}


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
    progress.started = sorted(running)
    return progress
