"""What is wrong, with its evidence and the fix for the context found: the one findings
module of `utf8env doctor` (a whole place) and `utf8env explain` (one Decision). Pure.

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
from .._engine.preconfig import C_LOCALE_NAMES, COERCION_TARGET_NAMES
from .._engine.records import Record, field
from . import _fixes as fixing
from . import _locale_state as locale_state
from ._records import Tool, parse_assignments

SEVERITIES = ("error", "warning", "note")

# The locale installed (and named) where this system has no UTF-8 locale: the first that
# 3.7+ coerces to, which changes only the character set (no language of its own).
_UTF8_TO_INSTALL = COERCION_TARGET_NAMES[0]


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
    host = field(None)          # servers.Embedding: the Python a uWSGI or mod_wsgi ancestor started


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


def diagnose(place):
    """The Diagnosis of a place.Place."""
    from . import _contexts as detecting, _pythons as predicting
    from ._place import this_platform
    from ._coercion import parent_coercion
    coercion = parent_coercion(place)
    if coercion is not None:
        # The place's own variables, not the ones the parent Python exported (coercion.py).
        place = place._replace(environ=coercion.environ)
    environ = place.environ
    state = locale_state.analyse(environ, place.facts, place.libc[0] if place.libc else None)
    found_contexts = detecting.detect(place)
    platform = this_platform()
    predicted = []
    for found in place.pythons:
        decision = outcome = None
        if found.version is not None and found.error is None:
            decision = predicting.decision(found, environ, place.facts, platform)
            later = predicting.decision(found, environ, place.facts, platform, version="3.15")
            outcome = predicting.outcome(decision, later)
        label = "Python %s (%s)" % (found.version or "?", found.path)
        predicted.append(Predicted(label, found, decision, outcome))
    # The app's Python where the server context is the host read (not a CGI script's).
    if place.embedding is not None and any(c.name == "server" and c.details.get("kind") ==
                                           place.embedding.kind for c in found_contexts):
        predicted.insert(0, _embedded(place, platform))
    info = _info(place, found_contexts)
    tools = _tools(state, environ)
    findings = _findings(state, found_contexts, predicted, environ, place.facts, info, tools)
    from ._programs import tools as program_tools   # click 7's and ansible's start-up checks
    # (their start-up checks were measured with the python command, not in a host)
    tools += program_tools([p for p in predicted if p.host is None], environ, place.facts,
                           state, findings)
    if not place.proc:
        # environment.inherited() falls back to os.environ, which a CPython 3.7+ running
        # doctor has already changed by its own coercion (PEP 538: LC_CTYPE exported).
        from .._engine.preconfig import SHIPPED_TARGETS
        coerced = [n for target, names, _ in SHIPPED_TARGETS for n in names
                   if environ.get(n) == target]
        findings += (Finding("no-proc", "note", "/proc is not readable: the environment is "
                             "os.environ, not the one this process was started with",
                             tuple("%s=%s may be this Python's own locale coercion (PEP 538); "
                                   "the value it replaced cannot be known" % (n, environ[n])
                                   for n in coerced), ()),)
    if coercion is not None:
        from ._coercion import finding_parts
        title, evidence = finding_parts(coercion)
        findings += (Finding("parent-coercion", "note", title, evidence, ()),)
    return Diagnosis(state=state, contexts=found_contexts, pythons=tuple(predicted), tools=tools,
                     findings=findings, distribution=info["distribution"])


def _embedded(place, platform):
    """The Predicted of the app's Python that a uWSGI or mod_wsgi ancestor started: the
    engine's Decision for the embedding read from the host's binary (servers.py)."""
    from . import _servers as servers
    from ._outcome import outcome
    host = place.embedding._replace(stdin_tty=bool(place.ttys and place.ttys[0]))
    found, decision, inputs = servers.embedded_python(host, place.environ, place.facts, platform)
    label = "the app's Python %s (%s in %s)" % (
        found.version, servers.call_name(inputs.embedded), servers.host_name(host)) \
        if inputs is not None else "the app's Python (in %s)" % servers.host_name(host)
    return Predicted(label, found, decision, outcome(decision) if decision else None, inputs,
                     host)


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
    found = _findings(state, (), predicted, environ, facts, info, _tools(state, environ)
                      if state else ())
    if decision.platform != "linux":
        # Every fix line is one a test applied on Linux (tests/test_doctor_*.py): none is
        # written for Windows or macOS, whose own ways (setx, launchd) no test has tried.
        found = tuple(f._replace(fixes=()) for f in found)
    return found


def _info(place, found_contexts):
    from .._own_command import installed_command
    from ._sshd import use_pam
    return {"distribution": fixing.distribution(place.files.get("/etc/os-release")),
            "locale_gen": place.files.get("/etc/locale.gen"), "files": place.files,
            "utf8env": installed_command(), "use_pam": use_pam(place.sshd_configs),
            "libc": place.libc, "apache_envvars": _envvars_line(place),
            "parent": place.ancestors[0] if place.ancestors else None}


def _envvars_line(place):
    """(path, line number, line) of the `export LANG=VALUE` line of Apache's envvars
    that gave this process its LANG (the last that sets it), or None."""
    if place.apache_envvars is None or not place.environ.get("LANG"):
        return None
    path, text = place.apache_envvars
    found = None
    for number, line in enumerate(text.splitlines(), 1):
        if parse_assignments(line).get("LANG") is not None:
            found = (path, number, line.strip(), parse_assignments(line)["LANG"])
    if found is None or found[3] != place.environ["LANG"]:
        return None
    return found[:3]


def _finding(code, severity, title, evidence, remedies, found_contexts, info):
    """A Finding with the fixes of `remedies`; a remedy whose value no line may carry is
    said in the evidence instead (doctor never writes a newline into /etc/locale.gen)."""
    remedies = tuple(r for r in remedies if r is not None)
    refused = [fixing.unsafe(r) for r in remedies]
    evidence = tuple(evidence) + tuple(
        "no fix is written with %r: a fix line holds only letters, digits and _.@+-" % value
        for value in refused if value is not None)
    return Finding(code, severity, title, evidence,
                   fixing.for_remedies(remedies, found_contexts, info), remedies)


def _tools(state, environ):
    """perl and bash, which warn about a locale the libc lacks (verified here: glibc 2.36,
    perl 5.36, bash 5.2). perl calls setlocale(LC_ALL, "") at start-up, which fails when
    any of LC_ALL, LC_* or LANG names a missing locale; bash warns at start-up only for
    LC_ALL, and for the others when a script or rc file assigns an LC_* variable (then
    `export LC_CTYPE=` under a bad LANG prints "setlocale: LC_CTYPE: cannot change locale
    (LANG's value)")."""
    if not state.missing:
        return ()
    first = state.missing[0]
    out = [Tool("perl", "perl: warning: Setting locale failed.", "at every start")]
    lc_all = [m for m in state.missing if m.variable == "LC_ALL"]
    if lc_all:
        out.append(Tool("bash", "bash: warning: setlocale: LC_ALL: cannot change locale (%s)"
                        % lc_all[0].value, "at every start"))
    else:
        # bash re-resolves a category when an LC_* variable is assigned, and names the
        # category; a bad LANG shows up as LC_CTYPE's (`export LC_CTYPE=` is enough).
        category = first.variable if first.variable.startswith("LC_") else "LC_CTYPE"
        out.append(Tool("bash", "bash: warning: setlocale: %s: cannot change locale (%s)"
                        % (category, first.value),
                        "when a script or rc file assigns %s" % category))
    return tuple(out)


# -- the findings -------------------------------------------------------------------------

def _findings(state, found_contexts, predicted, environ, facts, info, tools):
    out = []
    if state is not None:
        out += _locale_findings(state, found_contexts, environ, facts, info, tools)
    remedies = [f.remedies[0].changes for f in out if f.remedies and f.remedies[0].changes]
    codes = [f.code for f in out if f.remedies and f.remedies[0].changes]
    for finding in _python_findings(state, found_contexts, predicted, environ, facts, info,
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


def _locale_findings(state, found_contexts, environ, facts, info, tools):
    out = []
    good = state.utf8_locale
    for missing in state.missing:
        out.append(_missing(missing, state, found_contexts, environ, info, tools, good))
    lc_all = environ.get("LC_ALL")
    if lc_all in C_LOCALE_NAMES and state.overridden:
        hidden = [(n, v) for n, v in state.overridden if facts.accepts(v)
                  and locale_state.is_utf8(facts.codesets.get(v))]
        if hidden:
            shown = " ".join("%s=%s" % nv for nv in hidden)
            out.append(_finding(
                "lc-all-overrides", "warning",
                "LC_ALL=%s overrides %s: every program gets the C locale (ASCII)" % (lc_all, shown),
                ("LC_ALL=%s: LC_ALL beats LC_CTYPE beats LANG (glibc, POSIX)" % lc_all,
                 "LC_ALL=%s %s" % (lc_all, _origin("LC_ALL", lc_all, found_contexts, info))),
                (fixing.Remedy(changes=(("LC_ALL", None),)),), found_contexts, info))
            return out
    if not state.missing and state.lc_ctype == "C":
        variable = state.decided_by
        why = ("no locale variable is set (LC_ALL, LC_CTYPE, LANG)" if variable is None
               else "%s=%s" % (variable, environ.get(variable)))
        evidence = [why + (" %s" % _origin(variable, environ.get(variable), found_contexts, info)
                           if variable else "")]
        evidence += _context_evidence(found_contexts, info)
        changes = _c_locale_changes(state, environ, facts, good) if good else ()
        libc = info.get("libc")
        musl = ""
        if libc and libc[0] != "glibc":
            # Named where it is not glibc: musl's rules are not glibc's (locale_state).
            musl = " (%s: only C and POSIX are ASCII)" % libc[0]
            evidence.append("the C library is %s (%s): C and POSIX are its only ASCII "
                            "locales; with no locale variable, or any other name, a program "
                            "gets UTF-8 (%s)" % (libc[0], libc[1], locale_state.MUSL_DEFAULT))
        out.append(_finding(
            "c-locale", "warning",
            "LC_CTYPE is the C locale (%s): ASCII for every program but Python 3.7+, which "
            "coerces it%s" % (why, musl), evidence,
            _locale_remedies(variable or "LANG", good, changes=changes), found_contexts, info))
    elif not state.missing and not locale_state.is_utf8(state.codeset):
        variable = state.decided_by
        # A codeset without a Python codec (ARMSCII-8): which CPythons stop, per the engine.
        title, evidence = locale_state.no_codec(state) or (
            "LC_CTYPE %s uses %s, not UTF-8: text outside it cannot be printed or saved"
            % (state.lc_ctype, state.codeset), ())
        out.append(_finding(
            "legacy-codeset", "warning", title,
            ("%s=%s %s" % (variable, environ.get(variable),
                           _origin(variable, environ.get(variable), found_contexts, info)),)
            + evidence, _locale_remedies(variable, good), found_contexts, info))
    return out


def _missing(missing, state, found_contexts, environ, info, tools, good):
    variable, value = missing.variable, missing.value
    decides = variable == state.decided_by or variable == "LC_ALL"
    if not missing.spellings and locale_state.is_utf8(value):
        title = ("%s=%s is macOS's name for the UTF-8 character set, not a locale: glibc has "
                 "none by that name" % (variable, value))
    elif missing.spellings:
        title = ("%s=%s is not a locale here, but %s is (glibc compares the language and "
                 "territory case-sensitively, the codeset without case or '-')"
                 % (variable, value, missing.spellings[0]))
    elif good and locale_state.is_utf8(value.partition(".")[2].partition("@")[0]):
        title = "%s=%s names a locale this system does not have (%s is installed)" % (
            variable, value, good)
    else:
        title = "%s=%s names a locale this system does not have" % (variable, value)
    title += (": LC_CTYPE falls back to C (ASCII)" if decides
              else ": %s stays C" % (variable if variable != "LANG" else "every category LANG sets"))
    evidence = ["%s=%s %s" % (variable, value, _origin(variable, value, found_contexts, info))]
    if decides:
        evidence.append("%s decides LC_CTYPE (LC_ALL > LC_CTYPE > LANG); setlocale() refuses "
                        "it, so LC_CTYPE is C" % variable)
    evidence += ["%s prints %r %s" % (t.name, t.message, t.when) for t in tools]
    evidence += _context_evidence(found_contexts, info)
    replacement = missing.spellings[0] if missing.spellings else good
    install = None
    if not missing.spellings and not locale_state.is_utf8(value) and "." in value:
        install = value
    untested = fixing.untested_install(install, info) if install else None
    if untested and fixing.unsafe(fixing.Remedy(install=install)) is None:
        evidence.append("to install it instead, the distribution documents: %s (not applied "
                        "by utf8env's tests, so not printed as a fix)" % untested)
    return _finding("locale-missing", "warning", title, evidence,
                    _locale_remedies(variable, replacement, install=install), found_contexts,
                    info)


def _locale_candidates(remedies, state, environ, facts):
    """[Remedy]: the locale findings' own fixes, then the place's UTF-8 locale, if any."""
    candidates = [fixing.Remedy(changes=changes) for changes in remedies]
    good = state.utf8_locale if state is not None else None
    if good:
        candidates.append(fixing.Remedy(changes=_c_locale_changes(state, environ, facts, good)))
    return candidates


def _c_locale_changes(state, environ, facts, good):
    """The variables that give LC_CTYPE the UTF-8 locale `good`: LANG (or the variable that
    decides), and LC_ALL unset rather than set (it would override every category)."""
    if state.decided_by == "LC_ALL":
        lang = environ.get("LANG")
        keep = lang and facts.accepts(lang) and locale_state.is_utf8(facts.codesets.get(lang))
        return (("LC_ALL", None),) + (() if keep else (("LANG", good),))
    changes = ((state.decided_by or "LANG", good),)
    if environ.get("LC_ALL"):
        changes += (("LC_ALL", None),)
    return changes


def _locale_remedies(variable, good, install=None, changes=None):
    """The alternative Remedies that give `variable` a UTF-8 locale: the installed `good`
    named, or the locale `install` (the one the variable names) installed; with no UTF-8
    locale at all, C.UTF-8 installed and named (installed alone, nothing would use it)."""
    if good:
        out = [fixing.Remedy(changes=changes or ((variable, good),))]
        if install:
            out.append(fixing.Remedy(install=install))
        return tuple(out)
    if install:
        return (fixing.Remedy(install=install),)
    return (fixing.Remedy(install=_UTF8_TO_INSTALL,
                          changes=changes or ((variable, _UTF8_TO_INSTALL),)),)


def _context_evidence(found_contexts, info):
    out = []
    for context in found_contexts:
        if context.name == "systemd":
            for path, text in context.details.get("locale_files", ()):
                values = parse_assignments(text)
                if values:
                    # systemd.exec(5): the manager passes on the locale it read when it
                    # started ($LANG, from locale.conf(5)); the unit's Environment= wins.
                    out.append("%s sets %s, which this service's environment does not have: "
                               "systemd passes on the locale it read when it started "
                               "(systemd.exec(5), $LANG), and the unit's Environment= overrides "
                               "it" % (path, " ".join("%s=%s" % kv for kv in sorted(values.items()))))
        if context.name == "cron":
            out.append("cron(8) gives a job only SHELL, PATH, HOME and LOGNAME (and, on Debian, "
                       "what pam_env reads from /etc/environment and /etc/default/locale)")
    return out


def _origin(variable, value, found_contexts, info):
    """Where the variable most likely came from, in words (one parenthesis): a start-up
    file that sets it to this value first (what the user's own shell did is no image's or
    client's doing), then pam_env's /etc/default/locale where PAM applies it after the
    ssh client's variables, then what the client sent, then the context's usual source;
    with none of these, "not recognised" and the evidence there is (_not_recognised)."""
    files = info.get("files", {})
    by_name = {c.name: c for c in found_contexts}
    ssh = by_name.get("ssh")
    if variable and value:
        setter = _set_by(variable, value, files)
        if setter is not None:
            return "(set by %s)" % setter
    envvars = info.get("apache_envvars")
    if envvars is not None and variable == "LANG":
        return ("(set by %s line %d, `%s`: apache2ctl, and Debian's apache2.service through "
                "it, reads that file before it starts Apache)" % envvars)
    for context in found_contexts:
        from ._sessions import NAMES, origin    # not for explain: it has no context
        if context.name not in NAMES:
            break       # a place that sets the environment itself comes first
        # The nearest session gave this process its environment (contexts.detect's
        # order); the places after it (an ssh client, a container's image) did not.
        return origin(context, variable, value, files)
    if ssh is not None:
        if variable in ssh.details.get("from_pam", ()):
            return ("(as /etc/default/locale sets it: sshd's PAM (pam_env) applies that file "
                    "after the variables the ssh client sent)")
        directive = ssh.details["forwarded"].get(variable)
        if directive is not None:
            return ("(most likely sent by the ssh client: SendEnv on the client, let in by "
                    "AcceptEnv %s at %s%s)" % (" ".join(directive.patterns), directive.where,
                                               ", in a Match block" if directive.conditional else ""))
        if ssh.details.get("config") is None and (variable or "").startswith(("LC_", "LANG")):
            return ("(most likely sent by the ssh client: Debian's and macOS's ssh_config have "
                    "SendEnv LANG LC_*; the server's sshd_config could not be read to confirm)")
    for path in ("/etc/default/locale", "/etc/locale.conf"):
        if parse_assignments(files.get(path)).get(variable) == value and value:
            return "(as %s sets it)" % path
    for name, words in (("systemd", "the unit's Environment= or systemd's own locale"),
                        ("cron", "the crontab, or /etc/default/locale through pam_env"),
                        ("ci", "the CI configuration"),
                        ("container", "the image (Dockerfile ENV) or docker run -e")):
        if name in by_name:
            return "(most likely from %s)" % words
    return _not_recognised(info)


def _not_recognised(info):
    """The parenthesis of a value no context, start-up file or locale file gives: what
    doctor looked at, and the process that started this one (its nearest evidence), never
    a cause it cannot show. explain has no place: it says where to look instead."""
    if "parent" not in info:
        return ("(where it came from is not looked for: explain describes an environment, "
                "not a place; utf8env doctor looks in the place)")
    parent = info["parent"]
    return ("(not recognised: no context found here, start-up file or locale file doctor "
            "reads sets it; %s)" % ("parent process: %s" % parent.name if parent is not None
                                    else "the parent process is not known: no /proc"))


def _set_by(variable, value, files):
    """"~/.bashrc line 12" for the first shell start-up file that assigns `value` to
    `variable` (NAME=VALUE, export NAME=VALUE, quoted or not), or None."""
    if not files:
        return None         # explain: no place, and no _place module to load
    from ._place import RC_FILES
    for path in RC_FILES:
        for number, line in enumerate((files.get(path) or "").splitlines(), 1):
            found = parse_assignments(line)
            if found.get(variable) == value:
                return "%s line %d" % (path, number)
    return None


def _python_findings(state, found_contexts, predicted, environ, facts, info, remedies=()):
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
            out.append(_finding("python-startup", "error", "%s refuses to start here: %s"
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
        out.append(_finding(code, "error", "%s raises UnicodeEncodeError on %s" % (action, names),
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
    from .._engine.textnames import codec_name
    from .._engine.policy import decide
    from . import _servers as servers
    from ._outcome import outcome
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
    host = servers.host_name(item.host)
    if not d.utf8_mode and "PYTHONUTF8" not in environ:
        again = decide(item.inputs._replace(environ=dict(environ, PYTHONUTF8="1")))
        if not again.utf8_mode:
            evidence.append("PYTHONUTF8=1 changes nothing here (decide() with it: UTF-8 mode "
                            "still off): only the locale %s gives its process before it "
                            "starts Python does" % host)
    candidates = _locale_candidates(remedies, state, environ, facts)
    chosen = ()
    for remedy in candidates:
        env = fixing.applied(environ, remedy.changes)
        again = servers.host_stdio(decide(item.inputs._replace(environ=env)), item.host)
        result = outcome(again)
        if again.startup_error is None and result.print_text == result.open_text == "ok":
            chosen = (remedy,)
            break
    return [_finding("embedded-python", "error", title, evidence, chosen, found_contexts, info)]


def without_advice(error):
    """The interpreter module's error without its advice for explain and run (--version
    X.Y), an option doctor does not have."""
    return (error or "").partition("; give --version")[0]


def _python_remedies(item, environ, facts, state, key="stdout", remedies=()):
    """The first remedy that decide() says makes this Python's failure go away: the locale
    findings' own fixes first (one change for everything), then the Python ones; for 3.6,
    `utf8env run` in front of it too, where that removes the failure (_wrapped)."""
    from .._engine.policy import Inputs, decide
    d = item.decision
    good = state.utf8_locale if state is not None else None
    candidates = _locale_candidates(remedies, state, environ, facts)
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
        from ._outcome import outcome
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
    from .._engine.policy import Inputs, decide
    from ._outcome import outcome
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
    return (fixing.Remedy(wrap=python, install=None if good else _UTF8_TO_INSTALL),)
