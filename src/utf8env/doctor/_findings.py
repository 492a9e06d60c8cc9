"""What is wrong, with its evidence and the fix for the context found: the findings put
together (collect(): the locale's, then each Python's, a fix said once), for `utf8env
doctor` (a whole place: _diagnose.py) and `utf8env explain` (one Decision: for_decision()).
Pure.

Severities: "error" (text breaks: a Python found refuses to start, or print("é") or
open().write("é") raise), "warning" (a setting that is wrong: a locale variable naming a
locale this libc lacks, LC_ALL=C over a good LANG, the C locale or a non-UTF-8 one for
every program that is not Python 3.7+), "note" (worth knowing, not a problem: what 3.15
changes, undecodable names, what was not identified). The verdict counts errors and
warnings.

Fixes are counterfactuals checked with the engine, not rules of thumb: a Python's
failure gets the locale fix when decide() says the locale fix makes it go away, else
the next remedy that does (unsetting PYTHONIOENCODING, PYTHONUTF8=1, `utf8env run`).
"""
from . import _fixes as fixing
from . import _locale_state as locale_state
from ._finding_records import SEVERITIES, Predicted
from ._locale_findings import locale_findings, warning_tools
from ._python_findings import python_findings


def for_decision(inputs, decision, here=False):
    """explain's findings: those of the Decision of `inputs`, with the fixes of its SHELL
    (explain describes an environment, not a place: no context). The locale findings are
    glibc's: made for linux only."""
    from ._outcome import outcome
    environ, facts = inputs.environ, inputs.locales
    state = locale_state.analyse(environ, facts) if decision.platform == "linux" else None
    later = None
    if decision.python != "3.15":
        from .._engine.policy import decide
        later = decide(inputs._replace(version="3.15", policy=None))
    predicted = [Predicted("Python %s" % decision.python, None, decision,
                           outcome(decision, later), inputs)]
    # `here`: the environment is this machine's, where this utf8env's path is the one to
    # write; a described one (--empty-env, --locales) gets the command's name.
    from .._own_command import installed_command
    info = {"distribution": None, "locale_gen": None, "files": {},
            "shell": environ.get("SHELL") or "/bin/sh",
            "utf8env": installed_command() if here else ("utf8env",)}
    found = collect(state, (), predicted, environ, facts, info, warning_tools(state, environ)
                    if state else ())
    if decision.platform != "linux":
        # Every fix line is one a test applied on Linux (tests/test_doctor_*.py): none is
        # written for Windows or macOS, whose own ways (setx, launchd) no test has tried.
        found = tuple(f._replace(fixes=()) for f in found)
    return found


def collect(state, found_contexts, predicted, environ, facts, info, tools):
    out = []
    if state is not None:
        out += locale_findings(state, found_contexts, environ, facts, info, tools)
    remedies = [f.remedies[0].changes for f in out if f.remedies and f.remedies[0].changes]
    codes = [f.code for f in out if f.remedies and f.remedies[0].changes]
    for finding in python_findings(state, found_contexts, predicted, environ, facts, info,
                                   remedies):
        first = finding.remedies[0] if finding.remedies else None
        if first is not None and first.changes and first.changes in remedies:
            # The same change as a locale finding's fix: said once, there.
            changes = " ".join("%s=%s" % (n, v) if v is not None else "%s unset" % n
                               for n, v in first.changes)
            # Its other ways (`utf8env run` in front of a 3.6) stay.
            finding = finding._replace(
                fixes=fixing.for_remedies(finding.remedies[1:], found_contexts, info),
                remedies=finding.remedies[1:], shared=codes[remedies.index(first.changes)],
                evidence=finding.evidence + (
                    "the locale finding's fix makes it go away (decide() with %s)" % changes,))
        out.append(finding)
    order = {severity: index for index, severity in enumerate(SEVERITIES)}
    return tuple(sorted(out, key=lambda f: order[f.severity]))     # stable: by severity
