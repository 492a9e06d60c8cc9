"""`utf8env doctor [--verbose] [--fix [--dry-run]] [--json] [--save FILE] [--compare FILE]
[--no-pythons]`: the glue
between the options and the parts; cli.py's handler calls run()."""
from .. import _output as output
from . import _diagnose as diagnosing, _finding_records as finding_records, _place as places
from . import _render as render, _repair as repair, _session as session, _snapshot as snapshot
from ._contexts import primary
from ._render import SCHEMA
from ._verdict import finding_object, fix_lines
from .._errors import UsageError
from .._output import shown


def run(args):
    """Exit status: 0 no problems here, 1 problems found (usage errors are raised)."""
    if args.dry_run and not args.fix:
        raise UsageError("--dry-run goes with --fix (doctor --fix --dry-run: what --fix "
                         "would write, written nowhere)")
    there = snapshot.load(args.compare) if args.compare else None    # bad input first
    here = places.gather(pythons=not args.no_pythons)
    diagnosis = diagnosing.diagnose(here)
    if args.fix:
        return _fix(here, diagnosis, args)
    data = render.to_object(here, diagnosis) if (args.json or args.save or there) else None
    if args.save:
        snapshot.save(args.save, data)
    compared = snapshot.compare(there, here, diagnosis) if there is not None else None
    if args.json:
        import json
        if compared is not None:
            data = dict(data, compare=dict(compared, file=args.compare))
        out = json.dumps(data, indent=2) + "\n"
    else:
        out = render.to_text(here, diagnosis, args.verbose, _terminal_width())
        if compared is not None:
            out += snapshot.to_text(args.compare, compared,
                                    finding_records.problems(diagnosis.findings))
        out = output.for_terminal(out)
    # Whatever stdout's codec: bytes out, as UTF-8 (undecodable input as its own bytes).
    output.write_bytes(out.encode("utf-8", "surrogateescape"))
    return 1 if finding_records.problems(diagnosis.findings) else 0


def _fix(here, diagnosis, args):
    """--fix: the user's own fixes applied (or shown, --dry-run), then a new session of
    the kind doctor runs in started and asked (_session.py). Exit status 0 when those
    sessions say "ok", 1 when they have problems; unchecked, 1 when problems are left
    that are not the user's to change, else 3."""
    planned = repair.plan(diagnosis.findings)
    done = repair.apply(planned, here.environ, args.dry_run)
    # What is still wrong in a new session, as predicted (a finding without a fix of its
    # own may be gone by another's, as a Python's failure by the locale's): the problems
    # listed as not the user's to change.
    predicted = diagnosing.diagnose(here._replace(environ=repair.changed_environ(here.environ,
                                                                               planned)))
    still = set((f.code, f.title) for f in predicted.findings)
    left = [finding for finding, steps in planned
            if steps is None and (finding.code, finding.title) in still]
    after = session.check(primary(diagnosis.contexts), here.environ,
                          ["--no-pythons"] if args.no_pythons else [],
                          repair.session_user(here.environ), args.dry_run)
    if args.json:
        import json
        out = json.dumps(fix_object(diagnosis, done, left, after, args.dry_run),
                         indent=2) + "\n"
    else:
        out = output.for_terminal(fix_text(diagnosis, done, left, after, args.dry_run))
    output.write_bytes(out.encode("utf-8", "surrogateescape"))
    if after.checked:         # what was seen decides
        return 1 if after.problems else 0
    return 1 if left else 3


def fix_text(diagnosis, done, left, after, dry_run):
    lines = ["before: %s" % finding_records.verdict(diagnosis.findings), ""]
    lines.append("would change:" if dry_run else "changed:")
    for applied in done:
        lines.append("  %s%s" % (shown(applied.target), "" if applied.backup is None else
                                 ", %s %s" % ("backup to" if dry_run else "backup in",
                                              shown(applied.backup))))
        lines += ["      " + shown(line) for line in applied.lines]
    if not done:
        lines.append("  nothing")
    if left:
        lines += ["", "not the user's to change (each problem's first fix):"]
        for finding in left:
            lines.append("  %s" % shown(finding.title))
            lines += fix_lines([f for f in finding.fixes if f.option == 1])
    lines.append("")
    if after.sessions and after.checked:
        lines.append("new sessions: %s" % "; ".join(
            "%s: %s" % (s.invocation, s.verdict) for s in after.sessions))
    if after.checked:
        lines.append("after, in a new session: %s" % after.verdict)
    else:
        lines.append("after, in a new session: not checked: %s" % shown(after.not_checked))
    return "\n".join(lines) + "\n"


def fix_object(diagnosis, done, left, after, dry_run):
    """--fix --json (keys in docs/json.md)."""
    return {"schema": SCHEMA, "dry_run": bool(dry_run),
            "before": {"verdict": finding_records.verdict(diagnosis.findings),
                       "problems": finding_records.problems(diagnosis.findings)},
            "changed": [applied.to_object() for applied in done],
            "not_the_users": [finding_object(f._replace(fixes=tuple(
                fix for fix in f.fixes if fix.option == 1))) for f in left],
            "after": session.to_object(after)}


def _terminal_width():
    """The columns of the terminal stdout is, or None (a pipe, a file: lines whole, for
    grep and logs)."""
    import os
    try:
        if not os.isatty(1):
            return None
        return max(40, os.get_terminal_size(1).columns)
    except (OSError, ValueError):
        return None
