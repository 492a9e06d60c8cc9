"""doctor's findings as records: a Finding (its severity, evidence and fixes) and how one
is made with the fixes of its remedies, a Python found with what the engine predicts
for it (Predicted), a place's Diagnosis, and what a verdict counts. Pure; below the
modules that find them (_locale_findings.py, _findings.py)."""
from .._engine.preconfig import COERCION_TARGET_NAMES
from .._engine.records import Record, field
from . import _fixes as fixing


SEVERITIES = ("error", "warning", "note")

# The locale installed (and named) where this system has no UTF-8 locale: the first that
# 3.7+ coerces to, which changes only the character set (no language of its own).
UTF8_TO_INSTALL = COERCION_TARGET_NAMES[0]


class Finding(Record):
    code = field()              # stable, for --json: "locale-missing", "print-fails", ...
    severity = field()          # one of SEVERITIES
    title = field()             # one line
    evidence = field()          # lines: the variable, its value, where it most likely came from
    fixes = field()             # _records.Fix, option 1 first (see _fixes.py)
    remedies = field(())        # the alternative fixes.Remedy the fixes write (not in JSON)
    shared = field(None)        # the code of the finding whose first fix removes this one too


class Predicted(Record):
    """One Python and what the engine predicts for it here."""
    label = field()             # "Python 3.6 (/usr/bin/python3.6)"
    found = field()             # pythons.Found, or None (explain)
    decision = field()          # its Decision, or None (not identified or not modelled)
    outcome = field()           # pythons.Outcome, or None
    inputs = field(None)        # the Inputs of the decision (explain's command line, policy...)
    host = field(None)          # _embedding.Embedding: the Python a uWSGI or mod_wsgi ancestor started


class Diagnosis(Record):
    state = field()             # locale_state.LocaleState
    contexts = field()          # contexts.Contexts
    pythons = field()           # Predicted
    tools = field()             # Tools that will warn here
    findings = field()          # Findings, by severity
    distribution = field()      # fixes.distribution(): "debian", ...


def verdict(findings):
    """"ok", "1 problem" or "N problems" (errors and warnings; notes do not count)."""
    count = problems(findings)
    return "ok" if not count else "1 problem" if count == 1 else "%d problems" % count


def problems(findings):
    return sum(1 for f in findings if f.severity != "note")


def make_finding(code, severity, title, evidence, remedies, found_contexts, info):
    """A Finding with the fixes of `remedies`; a remedy whose value no line may carry is
    said in the evidence instead (doctor never writes a newline into /etc/locale.gen)."""
    remedies = tuple(r for r in remedies if r is not None)
    refused = [fixing.unsafe(r) for r in remedies]
    evidence = tuple(evidence) + tuple(
        "no fix is written with %r: a fix line holds only letters, digits and _.@+-" % value
        for value in refused if value is not None)
    return Finding(code, severity, title, evidence,
                   fixing.for_remedies(remedies, found_contexts, info), remedies)
