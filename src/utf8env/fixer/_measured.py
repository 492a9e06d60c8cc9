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


MAX_BYTES = 64 * 1024 * 1024        # a report of thousands of changed tests is a few MiB
_ACCEPTED = "a JSON report of `utf8env readiness --format json`"


def load(path):
    """{file (as the report names it): [(line, encoding or None, why)]}, the sites of the
    project's own files (origin "user"); UsageError, one line, for a file that is not a
    readiness JSON report: every key used is checked for its type (a bool is no line)."""
    named = for_terminal(shown(path))

    def refuse(what):
        raise UsageError("fix: --from %s: not %s (%s)" % (named, _ACCEPTED, what))
    data = _read(path, named, refuse)
    try:
        data = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        refuse("not UTF-8: byte 0x%02x at offset %d" % (data[error.start], error.start))
    except ValueError as error:         # json.JSONDecodeError: msg, lineno, colno
        refuse("not JSON: %s at line %s column %s" % (
            getattr(error, "msg", error), getattr(error, "lineno", "?"),
            getattr(error, "colno", "?")))
    except RecursionError:
        refuse("not JSON: nested too deeply")
    return _sites(data, refuse)


def _read(path, named, refuse):
    """The report's bytes: a regular file's, at most MAX_BYTES (_userfile.read_bounded)."""
    try:
        return read_bounded(path, MAX_BYTES)
    except Unreadable as error:
        if error.reason == "not regular":
            refuse("not a regular file")
        if error.reason == "too large":
            refuse("larger than %d MiB" % (MAX_BYTES // (1024 * 1024)))
        raise UsageError("fix: --from %s: %s" % (named, error.detail))


from .._userfile import json_kind as _kind
from .._output import for_terminal, shown
from .._userfile import Unreadable, read_bounded


def _sites(data, refuse):
    if not isinstance(data, dict):
        refuse("the top level is %s, not an object" % _kind(data))
    if "call_sites" not in data:
        refuse("no \"call_sites\" key")
    sites = data["call_sites"]
    if not isinstance(sites, list):
        refuse("call_sites is %s, not a list" % _kind(sites))
    out = {}
    for index, site in enumerate(sites):
        where = "call_sites[%d]" % index
        if not isinstance(site, dict):
            refuse("%s is %s, not an object" % (where, _kind(site)))
        for key in ("file", "line", "fixes"):
            if key not in site:
                refuse("%s has no \"%s\" key" % (where, key))
        file, line, fixes, origin = site["file"], site["line"], site["fixes"], \
            site.get("origin", "user")
        if not isinstance(file, str) or not file or "\0" in file:
            refuse("%s.file is %s, not a file name" % (where, _kind(file)))
        if type(line) is not int or line < 1:
            refuse("%s.line is %s, not a line number (an integer from 1)" % (
                where, _kind(line) if type(line) is not int else line))
        if not isinstance(origin, str):
            refuse("%s.origin is %s, not a string" % (where, _kind(origin)))
        if not isinstance(fixes, list):
            refuse("%s.fixes is %s, not a list" % (where, _kind(fixes)))
        for number, fix in enumerate(fixes):
            at = "%s.fixes[%d]" % (where, number)
            if not isinstance(fix, dict):
                refuse("%s is %s, not an object" % (at, _kind(fix)))
            if not isinstance(fix.get("encoding"), str):
                refuse("%s.encoding is %s, not a string" % (at, _kind(fix.get("encoding"))))
            measured = fix.get("measured")
            if measured is not None and not isinstance(measured, str):
                refuse("%s.measured is %s, not a string or null" % (at, _kind(measured)))
        if origin == "user":            # the standard library's, site-packages': not ours
            out.setdefault(file, []).append((line,) + choice(fixes))
    return out


def choice(fixes):
    """(encoding or None for review or "default", why) of one call site's measured fixes."""
    measured = {f["encoding"]: f.get("measured") for f in fixes}
    for encoding in ("utf-8", "locale"):
        if measured.get(encoding) == PASSES:
            return encoding, "measured: the changed tests pass in both modes with it"
    verdicts = set(measured.values())
    if not verdicts - {None}:          # none measured (or none listed)
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


def not_given(report, files, cwd=None):
    """[(file, line)] of the report's sites in files other than `files` (the paths walked)."""
    given = set(os.path.relpath(os.path.realpath(path), os.path.realpath(cwd or os.getcwd()))
                for path in files)
    return [(file, line) for file in sorted(report) if file not in given
            for line in sorted(set(entry[0] for entry in report[file]))]


def pick(site, entries, default):
    """(encoding or None, why) for the scan's `site` of a file with report `entries`."""
    for line, encoding, why in entries:
        if site.line <= line <= site.end:
            return (default if encoding == "default" else encoding), why
    return UNSEEN
