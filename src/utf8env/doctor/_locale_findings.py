"""The findings of the locale (pure): a locale variable naming a locale this libc lacks,
LC_ALL=C over a good LANG, the C locale or a non-UTF-8 one for every program that is
not Python 3.7+; the remedies that give LC_CTYPE a UTF-8 locale, and the tools (perl,
bash) that warn about a missing locale; where a locale variable most likely came from, in
words, for a finding's evidence (origin_of): a shell start-up file, pam_env's
/etc/default/locale, the ssh client, a session, the context's usual source, else what
doctor looked at."""
from .._engine.preconfig import C_LOCALE_NAMES
from . import _fixes as fixing
from . import _locale_state as locale_state
from ._finding_records import UTF8_TO_INSTALL, make_finding
from ._records import Tool, parse_assignments


def warning_tools(state, environ):
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


def locale_findings(state, found_contexts, environ, facts, info, tools):
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
            out.append(make_finding(
                "lc-all-overrides", "warning",
                "LC_ALL=%s overrides %s: every program gets the C locale (ASCII)" % (lc_all, shown),
                ("LC_ALL=%s: LC_ALL beats LC_CTYPE beats LANG (glibc, POSIX)" % lc_all,
                 "LC_ALL=%s %s" % (lc_all, origin_of("LC_ALL", lc_all, found_contexts, info))),
                (fixing.Remedy(changes=(("LC_ALL", None),)),), found_contexts, info))
            return out
    if not state.missing and state.lc_ctype == "C":
        variable = state.decided_by
        why = ("no locale variable is set (LC_ALL, LC_CTYPE, LANG)" if variable is None
               else "%s=%s" % (variable, environ.get(variable)))
        evidence = [why + (" %s" % origin_of(variable, environ.get(variable), found_contexts, info)
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
        out.append(make_finding(
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
        out.append(make_finding(
            "legacy-codeset", "warning", title,
            ("%s=%s %s" % (variable, environ.get(variable),
                           origin_of(variable, environ.get(variable), found_contexts, info)),)
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
    evidence = ["%s=%s %s" % (variable, value, origin_of(variable, value, found_contexts, info))]
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
    return make_finding("locale-missing", "warning", title, evidence,
                        _locale_remedies(variable, replacement, install=install), found_contexts,
                        info)


def locale_candidates(remedies, state, environ, facts):
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
    return (fixing.Remedy(install=UTF8_TO_INSTALL,
                          changes=changes or ((variable, UTF8_TO_INSTALL),)),)


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


# -- where a variable came from ---------------------------------------------------------

def origin_of(variable, value, found_contexts, info):
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
