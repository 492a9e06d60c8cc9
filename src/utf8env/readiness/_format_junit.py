"""A readiness result as JUnit XML: one case per changed test (a failure), per call site
(a failure when a changed test hit it), per unstable test and untested call (skipped),
per run that did not complete (an error)."""
import xml.etree.ElementTree as ElementTree

from ._format_words import all_runs, measured, no_sites, run_name, unstable_line


_UNTESTED = ("untested: no test exercised this call (no EncodingWarning in either run), the "
             "3.15 risk no test measures; %s")


def junit(result):
    """JUnit XML: one case per changed test (a failure) and per call site (a failure
    when a changed test hit it)."""
    cases = []
    for r in all_runs(result):
        if r.complete:
            continue
        case = ElementTree.Element("testcase", classname="utf8env.readiness.runs",
                                   name=run_name(r, result))
        error = ElementTree.SubElement(case, "error", message=r.problem)
        error.text = "\n".join(r.output)
        cases.append(case)
    for u in result.unstable:
        case = ElementTree.Element("testcase", classname="utf8env.readiness.tests",
                                   name="%s [%s]" % (u.test, u.python))
        ElementTree.SubElement(case, "skipped", message="unstable: " + unstable_line(u))
        cases.append(case)
    for c in result.changed:
        case = ElementTree.Element("testcase", classname="utf8env.readiness.tests",
                                   name="%s [%s]" % (c.test, c.python))
        failure = ElementTree.SubElement(case, "failure", message=c.difference)
        failure.text = "call sites: %s" % (", ".join(c.call_sites) or no_sites(c, result))
        cases.append(case)
    for s in result.call_sites:
        case = ElementTree.Element("testcase", classname="utf8env.readiness.call_sites",
                                   name="%s in %s" % (s.where, s.function or "?"),
                                   file=s.file, line=str(s.line))
        fixes = "\n".join('encoding="%s": %s%s' % (f.encoding, f.means, measured(f))
                          for f in s.fixes or ())
        if s.changed_tests:
            failure = ElementTree.SubElement(case, "failure", message="active in tests that change: "
                                             + ", ".join(s.changed_tests))
            failure.text = fixes
        else:
            ElementTree.SubElement(case, "system-out").text = fixes
        cases.append(case)
    for u in result.untested or ():
        # a call no test exercised: nothing measured, so neither passed nor failed
        case = ElementTree.Element("testcase", classname="utf8env.readiness.untested",
                                   name="%s:%d %s" % (u.file, u.line, u.call),
                                   file=u.file, line=str(u.line))
        ElementTree.SubElement(case, "skipped", message=_UNTESTED % (
            "the fixer adds encoding=" if u.verdict == "fix" else "review it"))
        cases.append(case)
    suite = ElementTree.Element("testsuite", name="utf8env readiness", tests=str(len(cases)),
                                failures=str(sum(c.find("failure") is not None for c in cases)),
                                errors=str(sum(c.find("error") is not None for c in cases)),
                                skipped=str(sum(c.find("skipped") is not None for c in cases)),
                                time="%.3f" % result.timing.wall_seconds)
    suite.extend(cases)
    root = ElementTree.Element("testsuites")
    root.append(suite)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(
        root, encoding="unicode") + "\n"
