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
from .._engine.policy import Inputs, decide
from .._engine.textnames import codec_name
from . import _fixes as fixing
from . import _locale_state as locale_state
from ._finding_records import SEVERITIES, UTF8_TO_INSTALL, Finding, Predicted, make_finding
from ._outcome import outcome
from ._locale_findings import locale_candidates, locale_findings, warning_tools


def for_decision(inputs, decision, here=False):
    """explain's findings: those of the Decision of `inputs`, with the fixes of its SHELL
    (explain describes an environment, not a place: no context). The locale findings are
    glibc's: made for linux only."""
    environ, facts = inputs.environ, inputs.locales
    state = locale_state.analyse(environ, facts) if decision.platform == "linux" else None
    later = None
    if decision.python != "3.15":
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


# -- the Pythons' findings --------------------------------------------------------------
# The findings of each Python predicted (pure): one that refuses to start, print() or
# open().write() of U+00E9 raising (the app's Python of a uWSGI or mod_wsgi host too), what
# Python 3.15 changes, undecodable names, what was not identified; each failure's fix is
# the first remedy that decide() says makes it go away.

def python_findings(state, found_contexts, predicted, environ, facts, info, remedies=()):
    out = []
    groups = {}
    for item in predicted:
        if item.decision is None:
            continue
        if item.host is not None:
            out += _embedded_findings(item, state, environ, facts, found_contexts, info,
                                      remedies)
            continue
        d, o = item.decision, item.outcome
        if d.startup_error is not None:
            out.append(make_finding("python-startup", "error", "%s refuses to start here: %s"
                                    % (item.label, d.startup_error.message.split("\n")[0]),
                                    ("%s: %s" % (d.reasons["startup_error"].source,
                                                 d.reasons["startup_error"].detail),),
                                    _python_remedies(item, environ, facts, state, remedies=remedies),
                                    found_contexts, info))
            continue
        for code, failed, what in (("print-fails", o.print_text == "fails", "stdout"),
                                   ("open-fails", o.open_text == "fails", "open")):
            if failed:
                stream = getattr(d, what)
                groups.setdefault((code, stream), []).append(item)
    for (code, stream), items in sorted(groups.items(), key=lambda kv: kv[0][0] != "print-fails"):
        action = 'print("\u00e9")' if code == "print-fails" else 'open(path, "w").write("\u00e9")'
        names = ", ".join(i.label for i in items)
        key = "stdout" if code == "print-fails" else "open"
        reason = items[0].decision.reasons.get(key)
        evidence = ["%s is %s/%s%s" % ("sys.stdout" if key == "stdout" else "open()'s default",
                                       stream.encoding, stream.errors,
                                       ": %s: %s" % (reason.source, reason.detail) if reason else "")]
        out.append(make_finding(code, "error", "%s raises UnicodeEncodeError on %s" % (action, names),
                                evidence, _python_remedies(items[0], environ, facts, state, key,
                                                           remedies), found_contexts, info))
    later = [i for i in predicted if i.outcome is not None and i.outcome.pep686]
    if later:
        changes = later[0].outcome.pep686
        out.append(Finding("pep686", "note",
                           "Python 3.15 turns UTF-8 mode on by default (PEP 686); here that changes "
                           + ", ".join("%s %s -> %s" % c for c in changes),
                           tuple("for %s" % i.label for i in later), ()))
    names = [i for i in predicted if i.host is None and i.outcome is not None
             and i.outcome.names != "round-trip"
             and i.decision.startup_error is None]
    if names:
        out.append(Finding("names", "note",
                           "%s printed by print(os.listdir()) %s" % (_sample_name(names), "; ".join(
                               "%s on %s" % ("raises UnicodeEncodeError" if i.outcome.names == "fails"
                                             else "comes out as other bytes (mojibake)", i.label)
                               for i in names)),
                           tuple("%s: filesystem %s/%s, stdout %s/%s"
                                 % (i.label, i.decision.filesystem.encoding,
                                    i.decision.filesystem.errors, i.decision.stdout.encoding,
                                    i.decision.stdout.errors) for i in names), ()))
    unknown = [i for i in predicted if i.decision is None and i.found is not None]
    for item in unknown:
        if item.found.commands and item.found.version is None:
            # The python3 a user's command runs, unanswered: no verdict can say "ok".
            out.append(Finding(
                "python-unknown", "warning", "%s, the %s on PATH, could not be identified: "
                "what it does with text here is not known" % (item.found.path,
                                                              " and ".join(item.found.commands)),
                ("%s (%s)" % (without_advice(item.found.error), item.found.how),), ()))
    if unknown:
        out.append(Finding("not-identified", "note",
                           "%d interpreter%s not predicted" % (len(unknown), "s" if len(unknown) > 1 else ""),
                           tuple("%s: %s (%s)" % (i.found.path, without_advice(i.found.error),
                                                  i.found.how) for i in unknown), ()))
    return out


def _sample_name(items):
    """The file name the names note speaks of: on Windows, where names are UTF-16 text and
    none is undecodable, one outside the ANSI code page (outcome.WINDOWS_NAME)."""
    if items[0].decision.platform == "win32":
        return "a file name outside the code page ('caf\\xe9-\\u65e5\\u672c')"
    return "an undecodable file name (b'caf\\xc3\\xa9-\\xff')"


def _embedded_findings(item, state, environ, facts, found_contexts, info, remedies=()):
    """The app's Python of an embedding host: one error where print("\u00e9") or
    open(path, "w").write("\u00e9") raises there, saying what it gets and why, and the
    first locale change that decide() says makes both work (servers.py writes it in the
    host's config). PYTHONUTF8 is named where it changes nothing (Py_Initialize()
    3.8-3.14 does not read it)."""
    from ._embedding import host_name, host_stdio
    d, o = item.decision, item.outcome
    if d.startup_error is not None:
        return [Finding("python-startup", "error", "%s refuses to start here: %s" % (
            item.label, d.startup_error.message.split("\n")[0]), (item.found.how,), ())]
    failing = [action for action, result in (('print("\u00e9")', o.print_text),
                                             ('open(path, "w").write("\u00e9")', o.open_text))
               if result == "fails"]
    if not failing:
        return []
    title = "%s: file system %s, sys.stdout %s/%s, open() %s: %s raise%s UnicodeEncodeError" % (
        item.label, codec_name(d.filesystem.encoding), codec_name(d.stdout.encoding),
        d.stdout.errors, codec_name(d.open.encoding), " and ".join(failing),
        "" if len(failing) > 1 else "s")
    evidence = ["%s (%s)" % (item.found.path, item.found.how)]
    for key, name in (("utf8_mode", "UTF-8 mode"), ("coercion", "locale coercion"),
                      ("lc_ctype", "LC_CTYPE"), ("filesystem", "the file system encoding"), ("stdout", "sys.stdout"),
                      ("open", "open()'s default")):
        value = getattr(d, key)
        shown = ("on" if value else "off") if key == "utf8_mode" else \
            "%s/%s" % (value.encoding, value.errors) if hasattr(value, "errors") else \
            (value.target if value else "none") if key == "coercion" else value
        reason = d.reasons.get(key)
        evidence.append("%s %s%s" % (name, shown, ": %s: %s" % (reason.source, reason.detail)
                                     if reason else ""))
    host = host_name(item.host)
    if not d.utf8_mode and "PYTHONUTF8" not in environ:
        again = decide(item.inputs._replace(environ=dict(environ, PYTHONUTF8="1")))
        if not again.utf8_mode:
            evidence.append("PYTHONUTF8=1 changes nothing here (decide() with it: UTF-8 mode "
                            "still off): only the locale %s gives its process before it "
                            "starts Python does" % host)
    candidates = locale_candidates(remedies, state, environ, facts)
    chosen = ()
    for remedy in candidates:
        env = fixing.applied(environ, remedy.changes)
        again = host_stdio(decide(item.inputs._replace(environ=env)), item.host)
        result = outcome(again)
        if again.startup_error is None and result.print_text == result.open_text == "ok":
            chosen = (remedy,)
            break
    return [make_finding("embedded-python", "error", title, evidence, chosen, found_contexts, info)]


def without_advice(error):
    """The interpreter module's error without its advice for explain and run (--version
    X.Y), an option doctor does not have."""
    return (error or "").partition("; give --version")[0]


def _python_remedies(item, environ, facts, state, key="stdout", remedies=()):
    """The first remedy that decide() says makes this Python's failure go away: the locale
    findings' own fixes first (one change for everything), then the Python ones; for 3.6,
    `utf8env run` in front of it too, where that removes the failure (_wrapped)."""
    d = item.decision
    good = state.utf8_locale if state is not None else None
    candidates = locale_candidates(remedies, state, environ, facts)
    for name in ("PYTHONIOENCODING", "PYTHONUTF8", "PYTHONCOERCECLOCALE"):
        if name in environ:
            candidates.append(fixing.Remedy(changes=((name, None),)))
    if d.python != "3.6":
        candidates.append(fixing.Remedy(changes=(("PYTHONUTF8", "1"),)))
    for remedy in candidates:
        env = fixing.applied(environ, remedy.changes)
        again = decide(item.inputs._replace(environ=env) if item.inputs is not None else
                       Inputs(environ=env, args=(), version=d.python, platform=d.platform,
                              locales=facts))
        result = outcome(again)
        if again.startup_error is None and getattr(result, "print_text" if key == "stdout"
                                                   else "open_text") == "ok":
            return (remedy,) + _wrapped(item, environ, facts, good, key)
    return _wrapped(item, environ, facts, good, key)


def _wrapped(item, environ, facts, good, key):
    """(the Remedy that starts a 3.6 through `utf8env run`,) where that removes the
    failure, or (). run gives 3.6 what 3.7 gets in the same start (PEP 538 and 540's
    rules): decide() for 3.7 says whether that is enough (PYTHONIOENCODING=ascii, say,
    fails 3.7 too)."""
    d = item.decision
    if d.python != "3.6" or getattr(item.inputs, "embedded", None):
        return ()       # `utf8env run` starts a python command, not an embedding program
    inputs = (item.inputs._replace(version="3.7", policy=None) if item.inputs is not None else
              Inputs(environ=dict(environ), args=(), version="3.7", platform=d.platform,
                     locales=facts))
    as_37 = decide(inputs)
    result = outcome(as_37)
    if as_37.startup_error is not None or getattr(
            result, "print_text" if key == "stdout" else "open_text") != "ok":
        return ()
    python = item.found.path if item.found is not None else "python3.6"
    return (fixing.Remedy(wrap=python, install=None if good else UTF8_TO_INSTALL),)
