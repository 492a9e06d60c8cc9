"""Per-test outcomes read back from a JUnit XML file (the unittest runner's, or pytest's
`--junitxml` with `-o junit_logging=all`, each test case with its captured output), and
the key every test's outcome is filed under, the XML's (classname, name): the pytest runs'
progress files give theirs under the same key (cases())."""
import re
import xml.etree.ElementTree as ElementTree

from ._progress import NOTHING_CAPTURED
from ._results import Outcome


def key(nodeid):
    """The (classname, name) pytest's junitxml gives the test `nodeid`
    (_pytest/junitxml.py mangle_test_address)."""
    path, bracket, params = nodeid.partition("[")
    names = path.split("::")
    names[0] = re.sub(r"\.py$", "", names[0].replace("/", "."))
    names[-1] += bracket + params
    return ".".join(names[:-1]), names[-1]


def outcomes(path, temporary=()):
    """{(classname, name): Outcome} of the JUnit XML file at `path`; None when it is
    missing or unreadable. Each folder of `temporary` is shown as <tmp> in the output and
    the message (each run has its own: a test failing alike in both modes with its tmp_path
    in the message is no change)."""
    try:
        tree = ElementTree.parse(path)
    except (OSError, ElementTree.ParseError):
        return None
    found = {}
    for case in tree.iter("testcase"):
        outcome, message = "passed", None
        for tag, name in (("failure", "failed"), ("error", "error"), ("skipped", "skipped")):
            element = case.find(tag)
            if element is not None:
                outcome = name
                message = _first_line(element.get("message") or element.text or "")
                break
        output = "".join((case.findtext(tag) or "") for tag in ("system-out", "system-err"))
        k = (case.get("classname") or "", case.get("name") or "")
        if k in found and found[k].outcome != "passed":
            continue            # a teardown error adds a second case: keep the first failure
        found[k] = hidden(outcome, message, output, temporary)
    return found


def cases(progress, temporary=()):
    """{(classname, name): Outcome} of every test and collection error or skip of a
    pytest run's _progress.Progress, each test with its output: what its JUnit XML would
    say, once the session ended; None before it did, or when the file holds no outputs
    (the unittest runner's: its XML says). Each folder of `temporary` is shown as <tmp>."""
    if not progress.start.get("outputs") or progress.finish is None:
        return None
    found = {}
    for nodeid, (outcome, message) in progress.collected_apart.items():
        found[key(nodeid)] = hidden(outcome, message, "", temporary)
    for nodeid, (outcome, message) in progress.tests.items():
        found[key(nodeid)] = hidden(outcome, message,
                                    progress.outputs.get(nodeid, NOTHING_CAPTURED), temporary)
    return found


def hidden(outcome, message, output, temporary):
    """The Outcome, each folder of `temporary` shown as <tmp> in its message and output."""
    for folder in temporary:
        output = output.replace(folder, "<tmp>")
        message = message.replace(folder, "<tmp>") if message else message
    return Outcome(outcome, message, output)


def _first_line(text):
    for line in text.strip().splitlines():
        if line.strip():
            return line.strip()
    return None
