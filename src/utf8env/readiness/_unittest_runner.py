"""`utf8env readiness -- python -m unittest ARGS`: each run starts

    PYTHON -X warn_default_encoding -m utf8env.readiness._unittest_runner \
        --utf8env-json=RECORD --junitxml=JUNIT ARGS

which is `python -m unittest ARGS` (unittest.main, its own arguments and discovery) with a
result class that keeps each test's outcome (by its unittest id), its output (file
descriptors 1 and 2, the tests' child processes' too: sys.stdout stays the real stream,
with its real encoding) and its EncodingWarnings: the JUnit XML _junit.py reads (each
case's classname empty and name the id, as _junit.key(id) gives) and the record of the
pytest plugin (schema 1). EncodingWarnings are recorded as in a child process
(_children.py): this process's own are its call sites, its children's "child process";
always recorded, never raised by the suite's filters (-W error, PYTHONWARNINGS), the
record says where those would have raised ("warning_errors", as the plugin's).

`--utf8env-seen=PATH` (readiness --windows) writes the encodings the run has, as the
pytest plugin _windows/seen.py does.

Exit status: 0 all passed, 1 failures, 5 no test ran (as pytest), unittest's own (2) for
its usage errors. Standard library only, 3.6 syntax.
"""
import builtins
import os
import sys
import threading
import traceback
import unittest
import warnings
import xml.etree.ElementTree as ElementTree

from . import _children as children
from ._sites import add, add_children, filter_action, record_of

OPTIONS = ("--utf8env-json=", "--junitxml=", "--utf8env-only=", "--utf8env-progress=",
           "--utf8env-seen=")
MODULE = "utf8env.readiness._unittest_runner"
_CATEGORY = getattr(builtins, "EncodingWarning", None)


class Args(list):
    """The arguments of `python -m unittest ARGS` (what _suite runs with this runner)."""


def unittest_args(command):
    """Args(ARGS) when COMMAND is `python -m unittest ARGS` (any python*), else None."""
    words = list(command)
    if (len(words) >= 3 and os.path.basename(words[0]).startswith("python")
            and words[1:3] == ["-m", "unittest"]):
        return Args(words[3:])
    return None


def _only(suite, ids):
    """`suite` with only the tests whose id is in `ids` (a rerun's --utf8env-only)."""
    if isinstance(suite, unittest.TestSuite):
        kept = [t for t in (_only(t, ids) for t in suite) if t is not None]
        return type(suite)(kept) if kept else None
    return suite if suite.id() in ids else None


def command(record, junit, progress):
    """The words after the interpreter's options that start this runner."""
    return ["-m", MODULE, OPTIONS[0] + record, OPTIONS[1] + junit, OPTIONS[3] + progress]


_PROGRESS = []


def _progress(entry):
    """One line of _progress.py's file (the readiness pytest plugin's): as it happens."""
    import json
    for f in _PROGRESS:
        f.write(json.dumps(entry) + "\n")
        f.flush()


def _progress_of(test, outcome, message):
    if outcome == "error":
        _progress({"test": test, "when": "setup", "outcome": "failed", "message": message})
    else:
        _progress({"test": test, "when": "call", "outcome": outcome, "message": message})
    _progress({"test": test, "when": "teardown", "outcome": "passed", "message": None})


def _message(err):
    lines = traceback.format_exception_only(err[0], err[1])
    return lines[-1].strip() if lines else err[0].__name__


def _xml_text(text):
    return "".join(c if c in "\t\n\r" or (" " <= c <= "\ud7ff") or ("\ue000" <= c <= "\ufffd")
                   or c > "\uffff" else "\\x%02x" % ord(c) for c in text)


class _Capture(object):
    """File descriptors 1 and 2 into one pipe while a test runs. A pipe, as a terminal or
    CI gives `python -m unittest`, never a regular file, which a test can tell (polib's
    _is_file(True) is os.path.isfile(1)). A thread drains it, so a test that writes much
    never blocks; a mark written through it at the test's end says when all the test's
    process wrote has been read, even while a child the test left holds the pipe."""

    def start(self):
        for stream in (sys.stdout, sys.stderr):
            _flush(stream)
        read_fd, self.write_fd = os.pipe()
        self.saved = [os.dup(1), os.dup(2)]
        os.dup2(self.write_fd, 1)
        os.dup2(self.write_fd, 2)
        self.mark = os.urandom(16)
        self.chunks = []
        self.marked = threading.Event()
        threading.Thread(target=self._drain, args=(read_fd,), daemon=True).start()

    def _drain(self, read_fd):
        try:
            while True:
                block = os.read(read_fd, 65536)
                if not block:
                    break
                self.chunks.append(block)
                if not self.marked.is_set() and self.mark in b"".join(self.chunks[-2:]):
                    self.marked.set()
        finally:
            os.close(read_fd)
            self.marked.set()

    def stop(self):
        for stream in (sys.stdout, sys.stderr):
            _flush(stream)
        os.dup2(self.saved[0], 1)
        os.dup2(self.saved[1], 2)
        for fd in self.saved:
            os.close(fd)
        os.write(self.write_fd, self.mark)
        os.close(self.write_fd)
        self.marked.wait()
        data = b"".join(self.chunks)
        data = data[:data.find(self.mark)] if self.mark in data else data
        return data.decode("utf-8", "backslashreplace")


def _flush(stream):
    try:
        stream.flush()
    except Exception:
        pass


class Session(object):
    """What one run records: outcomes, outputs and call sites per test id."""

    def __init__(self):
        self.outcomes = {}        # id -> (outcome, message)
        self.outputs = {}         # id -> output
        self.errors = {}          # id -> "filter" / "raised"
        self.filters = None       # the suite's filters while the current test runs
        self.current = None


SESSION = Session()


class Result(unittest.TextTestResult):
    def startTest(self, test):
        super(Result, self).startTest(test)
        SESSION.current = test.id()
        os.environ[children.TEST] = test.id()
        SESSION.filters = list(warnings.filters)
        if _CATEGORY is not None:
            warnings.filterwarnings("always", category=_CATEGORY)
        self._capture = _Capture()
        self._capture.start()

    def stopTest(self, test):
        output = self._capture.stop()
        SESSION.outputs[test.id()] = SESSION.outputs.get(test.id(), "") + output
        SESSION.outcomes.setdefault(test.id(), ("passed", None))
        _progress_of(test.id(), *SESSION.outcomes[test.id()])
        os.environ.pop(children.TEST, None)
        SESSION.current = SESSION.filters = None
        super(Result, self).stopTest(test)

    def _set(self, test, outcome, message, err=None):
        if err is not None and _CATEGORY is not None and issubclass(err[0], _CATEGORY):
            SESSION.errors[test.id()] = "raised"
            tb = err[2]
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            if tb is not None:
                with warnings.catch_warnings():
                    warnings.simplefilter("always", _CATEGORY)
                    warnings.warn_explicit(str(err[1]), _CATEGORY,
                                           tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        old = SESSION.outcomes.get(test.id())
        if old is None or old[0] == "passed":
            SESSION.outcomes[test.id()] = (outcome, message)

    def addSuccess(self, test):
        super(Result, self).addSuccess(test)
        self._set(test, "passed", None)

    def addFailure(self, test, err):
        super(Result, self).addFailure(test, err)
        self._set(test, "failed", _message(err), err)

    def addError(self, test, err):
        super(Result, self).addError(test, err)
        # a class or module fixture (_ErrorHolder) errs; a test's own exception fails it
        holder = not isinstance(test, unittest.TestCase)
        self._set(test, "error" if holder else "failed", _message(err), err)
        if holder:          # no startTest/stopTest for it
            _progress_of(test.id(), "error", _message(err))

    def addSkip(self, test, reason):
        super(Result, self).addSkip(test, reason)
        self._set(test, "skipped", reason)

    def addExpectedFailure(self, test, err):
        super(Result, self).addExpectedFailure(test, err)
        self._set(test, "skipped", "expected failure: " + _message(err))

    def addUnexpectedSuccess(self, test):
        super(Result, self).addUnexpectedSuccess(test)
        self._set(test, "failed", "unexpected success")

    def addSubTest(self, test, subtest, err):
        super(Result, self).addSubTest(test, subtest, err)
        if err is not None:
            self._set(test, "failed", "%s: %s" % (subtest.id()[len(test.id()):].strip(),
                                                  _message(err)), err)


def _runner_class(stream, only=None):
    class Runner(unittest.TextTestRunner):
        resultclass = Result

        def __init__(self, *args, **kwargs):
            kwargs["stream"] = stream
            super(Runner, self).__init__(*args, **kwargs)

        def run(self, test):
            if only is not None:
                test = _only(test, only) or unittest.TestSuite()
            _progress({"collected": test.countTestCases()})
            return super(Runner, self).run(test)
    return Runner


def _showwarning(inner):
    def showwarning(message, category, filename, lineno, file=None, line=None):
        if (_CATEGORY is not None and isinstance(category, type) and issubclass(category, _CATEGORY)
                and SESSION.filters is not None and SESSION.current):
            if filter_action(SESSION.filters, warnings.WarningMessage(
                    message, category, filename, lineno)) == "error":
                SESSION.errors.setdefault(SESSION.current, "filter")
        return inner(message, category, filename, lineno, file, line)
    return showwarning


def write_junit(path, outcomes, outputs):
    suites = ElementTree.Element("testsuites")
    suite = ElementTree.SubElement(suites, "testsuite", name="unittest", tests=str(len(outcomes)))
    tags = {"failed": "failure", "error": "error", "skipped": "skipped"}
    for test in sorted(outcomes):
        outcome, message = outcomes[test]
        case = ElementTree.SubElement(suite, "testcase", classname="", name=_xml_text(test))
        if outcome in tags:
            ElementTree.SubElement(case, tags[outcome], message=_xml_text(message or ""))
        if outputs.get(test):
            ElementTree.SubElement(case, "system-out").text = _xml_text(outputs[test])
    ElementTree.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    paths = {}
    while argv and argv[0].startswith(OPTIONS):
        name, _, value = argv.pop(0).partition("=")
        paths[name] = value
    only = None
    if paths.get("--utf8env-only"):
        with open(paths["--utf8env-only"], encoding="utf-8", errors="surrogateescape") as f:
            only = {line.rstrip("\n") for line in f if line.strip()}
    if paths.get("--utf8env-progress"):
        import locale
        _PROGRESS.append(open(paths["--utf8env-progress"], "a", encoding="utf-8"))
        getencoding = getattr(locale, "getencoding", None)
        _progress({"utf8_mode": getattr(sys.flags, "utf8_mode", 0),
                   "filesystem_encoding": sys.getfilesystemencoding(),
                   "locale_encoding": getencoding() if getencoding else None})
    if paths.get("--utf8env-seen"):       # readiness --windows: the encodings this run has
        import json
        from .._windows.seen import seen
        with open(paths["--utf8env-seen"], "w", encoding="utf-8") as f:
            json.dump(seen(), f, sort_keys=True)
    recording = children.Recording()
    on = _CATEGORY is not None and bool(sys.flags.warn_default_encoding)
    if on:
        recording.start()
        child = children.child_module()
        child.start()
        warnings.showwarning = _showwarning(warnings.showwarning)
    stream = os.fdopen(os.dup(2), "w", encoding=getattr(sys.stderr, "encoding", None) or "utf-8",
                       errors="backslashreplace", buffering=1)
    try:
        try:
            program = unittest.main(module=None, argv=["python -m unittest"] + argv,
                                    testRunner=_runner_class(stream, only), exit=False)
        except SystemExit as stop:
            return stop.code
        result = program.result
        sites = {}
        if on:
            others, own = recording.entries(but=os.getpid())
            for e in own:
                add(sites, e["path"], e["line"], e["message"], e.get("test") or "(unittest)",
                    e.get("origin"))
            add_children(sites, others)
        tests = {t: o for t, (o, _) in SESSION.outcomes.items()}
        if paths.get("--junitxml"):
            write_junit(paths["--junitxml"], SESSION.outcomes, SESSION.outputs)
        if paths.get("--utf8env-json"):
            import json
            errors = dict(sorted(SESSION.errors.items()))
            with open(paths["--utf8env-json"], "w", encoding="utf-8") as f:
                json.dump(record_of(sites, tests, os.getcwd(),
                                    {"warning_errors": errors} if errors else None),
                          f, indent=1, sort_keys=True)
                f.write("\n")
        status = 5 if not result.testsRun else 0 if result.wasSuccessful() else 1
        _progress({"exit": status, "shouldfail": None, "shouldstop": None})
        return status
    finally:
        while _PROGRESS:
            _PROGRESS.pop().close()
        recording.finish()
        stream.close()


if __name__ == "__main__":
    sys.exit(main())
