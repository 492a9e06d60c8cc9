"""The verdict and each finding with its evidence and fixes, as text lines and as JSON
keys: what doctor prints first and explain prints last. Apart from render.py (the rest of
doctor's page) because explain needs this alone: every module it imports costs its
start-up. Decides nothing."""
from .._output import shown as text
from ._finding_records import problems, verdict


def verdict_lines(findings, verbose=True, width=None):
    """The verdict line, then each finding: with its evidence and every fix (`verbose`), or
    each problem's title and its first fix, notes counted on one line. `width`: titles and
    evidence folded to it (a terminal's); a fix's lines never are, they are to be copied."""
    lines = [verdict(findings)]
    notes = 0
    for finding in findings:
        if not verbose and finding.severity == "note":
            notes += 1
            continue
        lines.append("")
        lines += _folded("%-7s " % finding.severity, text(finding.title), 8, width)
        if verbose:
            for line in finding.evidence:
                lines += _folded("        - ", text(line), 10, width)
        if finding.shared is not None:
            # One change for all: said once, at the finding it belongs to; plain, verbose
            # and JSON (the evidence's last line) name the same options: that change,
            # then the finding's own.
            shared = [f for f in findings if f.code == finding.shared][0]
            lines.append("        fix: the first fix of the %s below (%s)" % (
                shared.severity, shared.code))
            others = len(set(fix.option for fix in finding.fixes))
            if verbose:
                lines += ["        or" + line[len("        fix"):] if index == 0 else line
                          for index, line in enumerate(fix_lines(finding.fixes))]
            elif others:
                lines.append("        (or %d other fix%s, and the evidence: utf8env doctor "
                             "--verbose)" % (others, "es" if others > 1 else ""))
        elif verbose:
            lines += fix_lines(finding.fixes)
        else:
            first = [fix for fix in finding.fixes if fix.option == 1]
            lines += fix_lines(first)
            others = len(set(fix.option for fix in finding.fixes)) - 1
            if others > 0:
                lines.append("        (or %d other fix%s, and the evidence: utf8env doctor "
                             "--verbose)" % (others, "es" if others > 1 else ""))
    if notes:
        lines += ["", "%d note%s: utf8env doctor --verbose" % (notes, "s" if notes > 1 else "")]
    return lines


def _folded(head, words, indent, width):
    if width is None or len(head) + len(words) <= width:
        return [head + words]
    import textwrap
    return textwrap.wrap(words, width, initial_indent=head, subsequent_indent=" " * indent,
                         break_long_words=False, break_on_hyphens=False)


def fix_lines(fixes):
    """The fixes as text: one fix as `fix: where:` and its lines; several options as
    "fix, any one of:" numbered; the steps of one option as "all of:" lettered."""
    if not fixes:
        return []
    options = []
    for fix in fixes:
        if options and options[-1][0].option == fix.option:
            options[-1].append(fix)
        else:
            options.append([fix])
    if len(options) == 1 and len(options[0]) == 1:
        fix = options[0][0]
        return ["        fix: %s:" % text(fix.where)] + ["            " + text(line)
                                                      for line in fix.lines]
    lines = ["        fix, any one of:" if len(options) > 1 else "        fix:"]
    for number, steps in enumerate(options, 1):
        head = "        %d. " % number if len(options) > 1 else "        "
        if len(steps) == 1:
            lines.append(head + text(steps[0].where) + ":")
            lines += ["               " + text(line) for line in steps[0].lines]
            continue
        lines.append(head + "all of:")
        for letter, step in zip("abcdefghij", steps):
            lines.append("           %s. %s:" % (letter, text(step.where)))
            lines += ["               " + text(line) for line in step.lines]
    return lines


def finding_object(finding):
    """A finding's JSON; "shared": the code of the finding whose first fix is this one's
    first option too (the text's "fix: the first fix of the ... below"), else null: the
    options are then that fix, then "fixes"."""
    return {"code": finding.code, "severity": finding.severity, "title": finding.title,
            "evidence": list(finding.evidence), "shared": finding.shared,
            "fixes": [{"option": f.option, "where": f.where, "context": f.context,
                       "lines": list(f.lines)} for f in finding.fixes]}


def verdict_object(findings):
    """The keys explain's JSON gains: "verdict", "problems", "findings"."""
    return {"verdict": verdict(findings), "problems": problems(findings),
            "findings": [finding_object(f) for f in findings]}
