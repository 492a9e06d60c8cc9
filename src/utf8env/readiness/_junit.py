"""Per-test outcomes read back from pytest's `--junitxml` file (run with
`-o junit_logging=all`, so each test case carries its captured output)."""
import re
import xml.etree.ElementTree as ElementTree

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
        for folder in temporary:
            output = output.replace(folder, "<tmp>")
            message = message.replace(folder, "<tmp>") if message else message
        k = (case.get("classname") or "", case.get("name") or "")
        if k in found and found[k].outcome != "passed":
            continue            # a teardown error adds a second case: keep the first failure
        found[k] = Outcome(outcome, message, output)
    return found


def _first_line(text):
    for line in text.strip().splitlines():
        if line.strip():
            return line.strip()
    return None
