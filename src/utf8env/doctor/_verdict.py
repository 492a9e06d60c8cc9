"""The verdict and each finding with its evidence and fixes, as text lines and as JSON
keys: what doctor prints first and explain prints last. Apart from render.py (the rest of
doctor's page) because explain needs this alone: every module it imports costs its
start-up. Decides nothing."""
from .._output import shown as text
from ._findings import problems, verdict


def verdict_lines(findings):
    """The verdict line, then each finding with its evidence and fixes."""
    lines = [verdict(findings)]
    for finding in findings:
        lines.append("")
        lines.append("%-7s %s" % (finding.severity, text(finding.title)))
        lines += ["        - " + text(line) for line in finding.evidence]
        for fix in finding.fixes:
            lines.append("        fix: %s:" % text(fix.where))
            lines += ["            " + text(line) for line in fix.lines]
    return lines


def finding_object(finding):
    return {"code": finding.code, "severity": finding.severity, "title": finding.title,
            "evidence": list(finding.evidence),
            "fixes": [{"where": f.where, "context": f.context, "lines": list(f.lines)}
                      for f in finding.fixes]}


def verdict_object(findings):
    """The keys explain's JSON gains: "verdict", "problems", "findings"."""
    return {"verdict": verdict(findings), "problems": problems(findings),
            "findings": [finding_object(f) for f in findings]}
