"""`utf8env fix --from REPORT.json`: the encoding of each call site as `utf8env readiness
--format json` MEASURED it (readiness/_advice.py: each fix tried in copies, the changed
tests run again in both modes). Per call site the fixer finds:

    a fix measured "passes"           that encoding (encoding="utf-8" when both pass:
                                      the 3.15 behaviour); the sites of one group all
                                      get the group's (the report gives them the same)
    measured, neither passes          review: not the encoding of this call (the report
                                      says what the tests did)
    not measured (the fixer could     review
    not edit it, a run did not end)
    warned, no test changed with it   the --encoding default (utf-8): both fixes keep
                                      every test as it is
    not in the report                 review: no test exercised it; readiness measured
                                      nothing there (`utf8env fix` without --from fixes it)

The report's files are relative to pytest's rootdir: run `fix --from` from there."""
import json
import os

from .._errors import UsageError

PASSES = "passes"


def load(path):
    """{file (as the report names it): [(line, encoding or None, why)]}; UsageError for
    a file that is not a readiness JSON report."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        sites = data["call_sites"]
        out = {}
        for site in sites:
            out.setdefault(site["file"], []).append((site["line"],) + choice(site["fixes"]))
    except OSError as error:
        raise UsageError("fix: --from %s: %s" % (path, error.strerror or error))
    except (ValueError, KeyError, TypeError) as error:
        raise UsageError("fix: --from %s: not a JSON report of `utf8env readiness --format "
                         "json` (%s)" % (path, error))
    return out


def choice(fixes):
    """(encoding or None for review or "default", why) of one call site's measured fixes."""
    measured = {f["encoding"]: f.get("measured") for f in fixes}
    for encoding in ("utf-8", "locale"):
        if measured.get(encoding) == PASSES:
            return encoding, "measured: the changed tests pass in both modes with it"
    verdicts = set(measured.values())
    if verdicts == {None}:
        return "default", "warned in the tests, none changed with it"
    if verdicts <= {"fails", "changes"}:
        return None, ("measured: neither fix makes the changed tests pass in both modes: "
                      "not the encoding of this call (see the report)")
    return None, "not measured (%s)" % ", ".join(sorted(v for v in verdicts if v))


UNSEEN = (None, "no test exercised it (not in the report): not measured")


def for_file(report, path, cwd=None):
    """The report's entries [(line, encoding, why)] for the file at `path`."""
    name = os.path.relpath(os.path.realpath(path), os.path.realpath(cwd or os.getcwd()))
    return report.get(name, [])


def pick(site, entries, default):
    """(encoding or None, why) for the scan's `site` of a file with report `entries`."""
    for line, encoding, why in entries:
        if site.line <= line <= site.end:
            return (default if encoding == "default" else encoding), why
    return UNSEEN
