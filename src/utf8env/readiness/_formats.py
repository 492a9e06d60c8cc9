"""The pages of a readiness result (results.py): text, Markdown (the GitHub step
summary), GitHub workflow annotations, JUnit XML, JSON. Renders only; shares pages.py
with the matrix's reports."""
import json
import xml.etree.ElementTree as ElementTree

from .. import _pages as pages
from ..matrix._results import as_json
from . import FORMATS  # noqa: F401 (the formats render() knows)

def render(result, fmt, columns=pages.WIDTH):
    if fmt == "json":
        return json.dumps(as_json(result), indent=1, sort_keys=True, ensure_ascii=True) + "\n"
    return {"text": lambda r: text(r, columns), "markdown": markdown, "github": github,
            "junit": junit}[fmt](result)


def _flag(utf8_mode):
    return {0: "off", 1: "on"}.get(utf8_mode, "-")


def _counts(counts):
    return ", ".join("%d %s" % (n, k) for k, n in counts.items()) or "no tests"


def _site_line(s):
    return "%s in %s%s: %s, %s" % (
        s.where, s.function or "?", "" if s.origin == "user" else " [%s]" % s.origin,
        pages.plural(s.count, "warning"), pages.plural(len(s.tests), "test"))


def _verdict(result):
    active = [s for s in result.call_sites if s.changed_tests]
    if result.ready:
        return "Ready: no test changes with UTF-8 mode (%s, %s)." % (
            pages.plural(result.tests, "test"),
            pages.plural(len(result.call_sites), "call site") + " warned")
    return "Not ready: %d of %s change with UTF-8 mode; %d of %s active in them." % (
        len({c.test for c in result.changed}), pages.plural(result.tests, "test"),
        len(active), pages.plural(len(result.call_sites), "call site"))


def _variables(result):
    return " ".join("%s=%s" % kv for kv in sorted(result.variables.items())) or "nothing set"


def _title(result):
    return "utf8env readiness -- pytest %s" % " ".join(result.command)


def text(result, columns=pages.WIDTH):
    out = [_title(result)]
    out += pages.wrap("world %s: %s (%s)" % (result.world, result.environment, _variables(result)),
                      columns, "", "  ")
    out.append("")
    head = ["python", "run", "UTF-8 mode", "filesystem", "locale", "tests", "seconds"]
    body = [[r.python, r.mode, _flag(r.utf8_mode), r.filesystem_encoding or "-",
             r.locale_encoding or "-", _counts(r.counts), "%.1f" % r.seconds] for r in result.runs]
    out += [pages.table(head, body, columns, squeeze=5), ""]
    if result.changed:
        out.append("Tests that change with UTF-8 mode (Python 3.15's default):")
        for c in result.changed:
            out.append("  %s [%s]" % (c.test, c.python))
            out += pages.wrap(c.difference, columns, "    ", "      ")
            sites = ", ".join(c.call_sites) or "none warned: the change comes from elsewhere " \
                                                "(the filesystem encoding, stdio)"
            out += pages.wrap("call sites: " + sites, columns, "    ", "      ")
        out.append("")
    active = [s for s in result.call_sites if s.changed_tests]
    quiet = [s for s in result.call_sites if not s.changed_tests]
    if active:
        out.append("Call sites active in the tests that change, and the two fixes:")
        for s in active:
            out.append("  " + _site_line(s))
            for f in s.fixes:
                out += pages.wrap('encoding="%s": %s' % (f.encoding, f.means), columns,
                                  "    ", "      ")
        out.append("")
    if quiet:
        out.append("Call sites that warned but changed nothing in these tests:")
        for s in quiet:
            out.append("  " + _site_line(s))
            out += pages.wrap('encoding="utf-8" or "locale": %s' % s.fixes[1].means.partition(
                "; ")[2], columns, "    ", "      ")
        out.append("")
    if result.hidden_sites:
        out.append("%s in the standard library and site-packages not shown (--all shows them)"
                   % pages.plural(result.hidden_sites, "more call site"))
        out.append("")
    out.append(_verdict(result))
    t = result.timing
    out.append("%s on %s, %.1f s (their own time %.1f s)" % (
        pages.plural(t.jobs, "run"), pages.plural(t.workers, "worker"), t.wall_seconds,
        t.cell_seconds))
    return "\n".join(out) + "\n"


def markdown(result):
    out = ["## utf8env readiness: `pytest %s`" % " ".join(result.command), "",
           "World `%s`: %s (`%s`). %s" % (result.world, result.environment, _variables(result),
                                         _verdict(result)), ""]
    out += [pages.markdown_table(
        ["Python", "run", "UTF-8 mode", "tests", "seconds"],
        [[r.python, r.mode, _flag(r.utf8_mode), _counts(r.counts), "%.1f" % r.seconds]
         for r in result.runs]), ""]
    if result.changed:
        out += ["### Tests that change with UTF-8 mode", ""]
        out += [pages.markdown_table(
            ["test", "Python", "first difference", "call sites"],
            [["`%s`" % c.test, c.python, c.difference, ", ".join("`%s`" % s for s in c.call_sites)
              or "none warned"] for c in result.changed]), ""]
    if result.call_sites:
        out += ["### Call sites that use the locale encoding", ""]
        rows = []
        for s in result.call_sites:
            fixes = "<br>".join('`encoding="%s"`: %s' % (f.encoding, f.means) for f in s.fixes)
            rows.append(["`%s` in `%s`" % (s.where, s.function or "?"), s.count, len(s.tests),
                         ", ".join("`%s`" % t for t in s.changed_tests) or "none", fixes])
        out += [pages.markdown_table(["call site", "warnings", "tests", "changed tests", "fixes"],
                                     rows), ""]
    return "\n".join(out)


def github(result):
    """Workflow annotations: a warning at each call site, an error at each test file
    whose test changes; then the Markdown summary (for $GITHUB_STEP_SUMMARY)."""
    lines = []
    for s in result.call_sites:
        if s.origin != "user":
            continue
        said = "%s uses the locale encoding (%s)" % (s.function or "this code",
                                                      pages.plural(s.count, "EncodingWarning"))
        if s.changed_tests:
            said += "; with UTF-8 mode (Python 3.15) these tests change: " + ", ".join(s.changed_tests)
        else:
            said += "; no test changes with UTF-8 mode"
        said += "\n" + "\n".join('encoding="%s": %s' % (f.encoding, f.means) for f in s.fixes)
        lines.append(pages.github_command("warning", said, file=s.file, line=s.line,
                                          title="utf8env readiness: default encoding"))
    for c in result.changed:
        said = "%s changes with UTF-8 mode on Python %s: %s" % (c.test, c.python, c.difference)
        if c.call_sites:
            said += "\ncall sites: " + ", ".join(c.call_sites)
        lines.append(pages.github_command("error", said, file=c.test.split("::")[0],
                                          title="utf8env readiness: test changes"))
    return "\n".join(lines) + ("\n" if lines else "")


def junit(result):
    """JUnit XML: one case per changed test (a failure) and per call site (a failure
    when a changed test hit it)."""
    cases = []
    for c in result.changed:
        case = ElementTree.Element("testcase", classname="utf8env.readiness.tests",
                                   name="%s [%s]" % (c.test, c.python))
        failure = ElementTree.SubElement(case, "failure", message=c.difference)
        failure.text = "call sites: %s" % (", ".join(c.call_sites) or "none warned")
        cases.append(case)
    for s in result.call_sites:
        case = ElementTree.Element("testcase", classname="utf8env.readiness.call_sites",
                                   name="%s in %s" % (s.where, s.function or "?"),
                                   file=s.file, line=str(s.line))
        fixes = "\n".join('encoding="%s": %s' % (f.encoding, f.means) for f in s.fixes)
        if s.changed_tests:
            failure = ElementTree.SubElement(case, "failure", message="active in tests that change: "
                                             + ", ".join(s.changed_tests))
            failure.text = fixes
        else:
            ElementTree.SubElement(case, "system-out").text = fixes
        cases.append(case)
    suite = ElementTree.Element("testsuite", name="utf8env readiness", tests=str(len(cases)),
                                failures=str(sum(c.find("failure") is not None for c in cases)),
                                errors="0", skipped="0", time="%.3f" % result.timing.wall_seconds)
    suite.extend(cases)
    root = ElementTree.Element("testsuites")
    root.append(suite)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(
        root, encoding="unicode") + "\n"
