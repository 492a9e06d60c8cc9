"""A readiness result as GitHub workflow annotations: an `::error` at each test that
changes, a `::warning` at each call site, within GitHub's per-step limits; the
Markdown page is the step summary."""
import os

from .. import _pages as pages
from .._environment import user_environ
from ._format_words import changes_by_test, no_sites, verdict


# -- GitHub workflow commands -------------------------------------------------------------
# GitHub shows at most 10 error, 10 warning and 10 notice annotations per step and 50 per
# job (the sum over its steps); what a step prints beyond that is dropped silently, in
# the order printed (actions/toolkit, docs/problem-matchers.md, "Limitations":
# https://github.com/actions/toolkit/blob/main/docs/problem-matchers.md#limitations).
# So the errors (the tests that change) come first, each kind is cut at 10 here, and one
# notice counts what was left out; the step summary (markdown(), which _cli.py appends
# to $GITHUB_STEP_SUMMARY) has everything. One step prints at most 21 of the job's 50.
GITHUB_PER_STEP = 10
GITHUB_MESSAGE = 500        # characters of a message as printed (escaped), "..." included
_FIXES = ('fix: encoding="utf-8" (the 3.15 behaviour on every version) or encoding="locale" '
          "(today's kept, Python 3.10+)")


def github(result, environ=None, cwd=None):
    """Workflow annotations, at most GITHUB_PER_STEP of each kind: an `::error` saying
    so when a run did not complete and one at the file of each test that changes (its
    Pythons merged), then a `::warning` at each call site, then one `::notice` counting
    those left out. `file=` is relative to $GITHUB_WORKSPACE (`cwd`, the project's
    folder, when that is not set), and left out for a file outside it; messages are one
    line of at most GITHUB_MESSAGE characters. The Markdown page (markdown()) is the
    step summary: _cli.py appends it to $GITHUB_STEP_SUMMARY (or prints it after)."""
    environ = user_environ() if environ is None else environ
    project = cwd or os.getcwd()
    workspace = environ.get("GITHUB_WORKSPACE") or project
    errors = [_test_annotation(test, changes, workspace, project, result)
              for test, changes in changes_by_test(result.changed)]
    if not getattr(result, "complete", True):   # a run that did not complete: said first
        errors.insert(0, _command("error", verdict(result), title="utf8env readiness: incomplete"))
    # Which call sites get a warning: those a changed test uses, first; the slots left
    # go to the sites that changed nothing in these tests, in file order. A site that
    # changed nothing still reads or writes text in the locale's encoding, which 3.15
    # changes: the tests just do not observe it, so it is a warning too, not an error.
    # But it must never push out a site that changes a test, and a ready project (say 65
    # such sites) shows at most 10 of them and a notice, the rest being in the summary.
    # (Leaving them out altogether would make a ready project's step show no warning;
    # tests/test_readiness.py expects a ready project's two sites as warnings.)
    # Shown in file order, as the summary lists them. Only the user's own code: the
    # standard library's and site-packages' sites (--all) are the summary's.
    sites = [s for s in result.call_sites if s.origin == "user"]
    ranked = sorted(range(len(sites)), key=lambda i: (not sites[i].changed_tests, i))
    chosen = sorted(ranked[:GITHUB_PER_STEP])
    warnings = [_site_annotation(sites[i], workspace, project) for i in chosen]
    lines = errors[:GITHUB_PER_STEP] + warnings
    more_errors = max(0, len(errors) - GITHUB_PER_STEP)
    more_warnings = len(sites) - len(chosen)
    if more_errors or more_warnings:
        said = " and ".join(
            pages.plural(n, "more " + word) for n, word in ((more_errors, "error"),
                                                            (more_warnings, "warning")) if n)
        where = ("see the step summary" if environ.get("GITHUB_STEP_SUMMARY")
                 else "see the Markdown report below")
        lines.append(_command("notice", said + ": " + where, title="utf8env readiness: not shown"))
    return "\n".join(lines) + ("\n" if lines else "")


def _test_annotation(test, changes, workspace, project, result):
    differences = {}
    for c in changes:
        differences.setdefault(c.difference, []).append(c.python)
    if len(differences) == 1:
        said = "%s changes with UTF-8 mode on Python %s: %s" % (
            test, ", ".join(c.python for c in changes), changes[0].difference)
    else:
        said = "%s changes with UTF-8 mode: %s" % (test, "; ".join(
            "on Python %s: %s" % (", ".join(pythons), difference)
            for difference, pythons in differences.items()))
    sites = []
    for c in changes:
        sites += [s for s in c.call_sites if s not in sites]
    said += " (call sites: %s)" % (", ".join(_where(s, workspace, project) for s in sites)
                                   or no_sites(changes[0], result))
    # The node id's file is relative to pytest's rootdir, taken as the project's folder.
    return _command(
        "error", said, file=_workspace_path(test.split("::")[0], workspace, project),
        title="utf8env readiness: test changes")


def _site_annotation(s, workspace, project):
    file = _workspace_path(s.file, workspace, project)
    said = "" if file else s.where + ": "
    said += "%s uses the locale encoding (%s): " % (
        s.function or "this code", pages.plural(s.count, "EncodingWarning"))
    if s.changed_tests:
        said += "with UTF-8 mode (Python 3.15) %s: %s; " % (
            "this test changes" if len(s.changed_tests) == 1
            else "%d tests change" % len(s.changed_tests), ", ".join(s.changed_tests))
    else:
        said += "no test changes with UTF-8 mode (Python 3.15); "
    # compare.py's words for the sites measured with this one (the same tests use them)
    together = s.fixes[0].means.partition("; measured together with ")[2].partition(
        ", which the same tests use")[0] if s.fixes else ""
    if together:
        said += "%s, together with %s (the same tests use them)" % (_FIXES, ", ".join(
            _where(w, workspace, project) for w in together.split(", ")))
    else:
        said += _FIXES
    return _command("warning", said, file=file, line=s.line if file else None,
                    title="utf8env readiness: default encoding")


def _where(where, workspace, project):
    """A call site's "file:line" with the file as _workspace_path() gives it (when it can)."""
    file, colon, line = where.rpartition(":")
    shown = _workspace_path(file, workspace, project) if colon and line.isdigit() else None
    return shown + ":" + line if shown else where


def _workspace_path(path, workspace, project):
    """`path` (absolute, or relative to the project's folder) relative to the workspace,
    with /. None for no file (<string>) or an absolute one outside the workspace
    (site-packages...): never an absolute path. A relative path stays relative to the
    project when the project is not under the workspace."""
    if not path or path.startswith("<"):
        return None
    full = path if os.path.isabs(path) else os.path.join(project, path)
    for f in (os.path.normpath, os.path.realpath):
        try:
            rel = os.path.relpath(f(full), f(workspace))
        except ValueError:              # another drive (Windows)
            continue
        if rel != os.curdir and rel != os.pardir and not rel.startswith(os.pardir + os.sep) \
                and not os.path.isabs(rel):
            return rel.replace(os.sep, "/")
    return None if os.path.isabs(path) else os.path.normpath(path).replace(os.sep, "/")


def _bounded(message, limit=GITHUB_MESSAGE):
    """`message` escaped, cut to at most `limit` characters (with "...", never inside an
    escape sequence): unescaped, a test's difference or a list of tests has no bound."""
    escaped = pages.github_data(message)
    if len(escaped) <= limit:
        return escaped
    out, size = [], 0
    for ch in message:
        piece = pages.github_data(ch)
        if size + len(piece) > limit - 3:
            break
        out.append(piece)
        size += len(piece)
    return "".join(out) + "..."


def _command(kind, message, **properties):
    """pages.github_command() with the message bounded (_bounded escapes it)."""
    return pages.github_command(kind, "", **properties) + _bounded(message)
