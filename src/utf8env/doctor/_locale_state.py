"""The locale variables of a place and what the libc makes of them (pure).

What LC_CTYPE becomes for a program that is not Python (a shell, perl, ls) is asked of
the engine, not re-derived: utf8env._engine.preconfig.setlocale() is glibc's
setlocale(LC_CTYPE, "") (LC_ALL beats LC_CTYPE beats LANG; a name the libc refuses leaves
C), and its codeset is the libc's answer (LocaleFacts). Not a Decision of some Python's:
one may never start in the locale (a codeset without a codec, ARMSCII-8), and the
locale is the libc's all the same.

Spellings, as glibc 2.36 (this project's machines) treats them, verified by experiment
with `localedef -i en_US -f UTF-8 DIR/en_US.utf8` and LOCPATH=DIR (tests/test_doctor.py
repeats the experiment): the codeset part is compared without case or '-' ("en_US.UTF-8",
"en_US.utf-8", "en_US.UTF8", "en_US.utf8" all find en_US.utf8, as "C.UTF-8", "C.utf-8",
"C.UTF8" and "C.utf8" find C.utf8), and a modifier falls back to the name without it
("en_US.UTF-8@euro" works); but language and territory are case-sensitive ("en_us.UTF-8",
"EN_US.UTF-8", "c.utf8" are refused), "en_US" alone is not "en_US.UTF-8", "UTF-8" alone
(macOS's LC_CTYPE) is no locale, and neither is "en_US.Utf_8".
"""
from .._engine.preconfig import C_LOCALE_NAMES
from .._engine.records import Record, field

# glibc's categories (locale(7)); any other LC_ variable is only reported.
CATEGORIES = ("LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY", "LC_MESSAGES",
              "LC_PAPER", "LC_NAME", "LC_ADDRESS", "LC_TELEPHONE", "LC_MEASUREMENT",
              "LC_IDENTIFICATION")
# The UTF-8 locales worth recommending, best first: C.UTF-8 has no language of its own
# (it changes only the character set), and every 3.7+ coerces to it.
_UTF8_CANDIDATES = ("C.UTF-8", "C.utf8", "en_US.UTF-8")
_MAX_VALUE = 256    # a longer "locale name" is not one; glibc refuses it anyway


class Missing(Record):
    variable = field()          # "LC_CTYPE"
    value = field()             # "UTF-8"
    spellings = field()         # other spellings of the same locale that the libc has
    utf8_variants = field()     # the same language in UTF-8, when the libc has it


class LocaleState(Record):
    variables = field()         # ((name, value), ...): LC_ALL, LC_*, LANG, LANGUAGE as set
    decided_by = field()        # the variable that gives LC_CTYPE, or None (none set)
    lc_ctype = field()          # what setlocale(LC_CTYPE, "") gives: a name, or "C"
    codeset = field()           # nl_langinfo(CODESET) of it
    missing = field()           # Missings: locale variables naming locales the libc lacks
    overridden = field()        # ((name, value), ...) that LC_ALL hides from LC_CTYPE
    utf8_locale = field()       # the best UTF-8 locale this libc has, or None
    startups = field(())        # ((version, Decision), ...) of `python` started here, every
                                # CPython, where some version has no codec for `codeset`


def is_utf8(codeset):
    return (codeset or "").upper().replace("-", "").replace("_", "") == "UTF8"


def variables(environ):
    """The locale variables set (LC_ALL, LC_CTYPE, the other LC_*, LANG, LANGUAGE), in
    order of precedence."""
    names = [n for n in ("LC_ALL", "LC_CTYPE") if n in environ]
    names += sorted(n for n in environ if n.startswith("LC_") and n not in ("LC_ALL", "LC_CTYPE"))
    names += [n for n in ("LANG", "LANGUAGE") if n in environ]
    return tuple((name, environ[name]) for name in names)


def _locale_values(environ):
    """(variable, value) of the variables glibc reads as locale names (not LANGUAGE:
    a list of languages for gettext, never a locale)."""
    return [(name, value) for name, value in variables(environ)
            if name != "LANGUAGE" and value and value not in C_LOCALE_NAMES and len(value) <= _MAX_VALUE]


def spellings(name):
    """Other names that may be the locale `name` meant, in order: the case fixed, the
    codeset given as UTF-8, a bare codeset ("UTF-8", macOS) read as C.UTF-8."""
    base, at, modifier = name.partition("@")
    language_territory, dot, codeset = base.partition(".")
    out = []
    if not dot and is_utf8(language_territory):
        out += ["C.UTF-8", "C.utf8"]
    language, underscore, territory = language_territory.partition("_")
    fixed = language.lower() + ("_" + territory.upper() if underscore else "")
    if fixed and fixed not in C_LOCALE_NAMES and not is_utf8(fixed):
        if dot:
            out.append(fixed + "." + codeset + (at + modifier))
            if at:
                out.append(fixed + "." + codeset)
        out.append(fixed + ".UTF-8")
    elif fixed.upper() in C_LOCALE_NAMES:
        out += ["C.UTF-8", "C.utf8"]
    return [n for i, n in enumerate(out) if n != name and n not in out[:i]]


def names_to_ask(environ):
    """Every name whose answer doctor needs from the libc."""
    from .._locales import candidate_names
    names = candidate_names({k: v for k, v in environ.items()
                             if k in ("LC_ALL", "LC_CTYPE", "LANG") and len(v) <= _MAX_VALUE})
    for _, value in _locale_values(environ):
        names.append(value)
        names += spellings(value)
    names += list(_UTF8_CANDIDATES)
    return [n for i, n in enumerate(names) if n not in names[:i] and "\0" not in n]


# musl (1.2, measured with a static musl-gcc program in tests/test_doctor_sessions.py):
# setlocale(LC_CTYPE, "") with no locale variable gives C.UTF-8 (MB_CUR_MAX 4), where
# glibc gives C; C and POSIX are its only ASCII locales, and it accepts any other name as
# UTF-8.
MUSL_DEFAULT = "C.UTF-8"


def analyse(environ, facts, libc=None):
    """The LocaleState of `environ` on a libc with `facts`; `libc`: "musl" applies musl's
    default (MUSL_DEFAULT) where no variable decides, else glibc's rules (the engine's)."""
    from .._engine.preconfig import setlocale
    lc_ctype, source = setlocale(environ, facts.accepts, "linux")
    decided_by = source.partition("=")[0] if source else None
    codeset = (facts.c_codeset or "ANSI_X3.4-1968") if lc_ctype == "C" \
        else facts.codesets.get(lc_ctype, "")
    if libc == "musl" and decided_by is None and lc_ctype == "C":
        lc_ctype, codeset = MUSL_DEFAULT, "UTF-8"
    missing = []
    for name, value in _locale_values(environ):
        if facts.accepts(value):
            continue
        alternatives = [n for n in spellings(value) if facts.accepts(n)]
        same = [n for n in alternatives if _same_locale(n, value)]
        missing.append(Missing(name, value, tuple(same),
                               tuple(n for n in alternatives if n not in same
                                     and is_utf8(facts.codesets.get(n)))))
    overridden = ()
    if environ.get("LC_ALL"):
        overridden = tuple((n, environ[n]) for n in ("LC_CTYPE", "LANG") if environ.get(n))
    return LocaleState(variables=variables(environ), decided_by=decided_by,
                       lc_ctype=lc_ctype, codeset=codeset,
                       missing=tuple(missing), overridden=overridden,
                       utf8_locale=best_utf8_locale(environ, facts, missing),
                       startups=_startups(environ, facts, codeset))


def _minor(version):
    return tuple(int(part) for part in version.split("."))


def _startups(environ, facts, codeset):
    """The engine's Decision for `python` started plainly in `environ`, each CPython,
    where the codeset has no codec in some version (codecs_by_version); else ()."""
    from .._engine.codecs_by_version import codec_name
    from .._engine.profiles import VERSIONS
    if not codeset or all(codec_name(codeset, _minor(v)) for v in VERSIONS):
        return ()
    from .._engine.policy import Inputs, decide
    return tuple((version, decide(Inputs(environ=environ, version=version, locales=facts)))
                 for version in VERSIONS)


# The failures that come of the locale's codeset (encoding_rules._locale_codec_failure; 3.11 and
# 3.12 reading .pth files with it, encoding_rules.site_import), by their Reason's source.
_CODEC_FAILURES = ("locale", "site")


def _spans(versions):
    """"3.6-3.12", "3.6, 3.11-3.12": `versions` (in VERSIONS' order) as runs of VERSIONS."""
    from .._engine.profiles import VERSIONS
    runs = []
    for version in versions:
        if runs and VERSIONS.index(version) == VERSIONS.index(runs[-1][-1]) + 1:
            runs[-1].append(version)
        else:
            runs.append([version])
    return ", ".join(run[0] if len(run) == 1 else "%s-%s" % (run[0], run[-1]) for run in runs)


def no_codec(state):
    """(title, evidence) of the locale whose codeset some CPython has no codec for, where
    the engine says a CPython stops at start-up for it here; else None."""
    stops = [(v, d) for v, d in state.startups if d.startup_error is not None
             and d.reasons["startup_error"].source in _CODEC_FAILURES]
    if not stops:
        return None
    from .._engine.codecs_by_version import codec_name, versions_with_codec
    starts = [(v, d) for v, d in state.startups if d.startup_error is None]
    every = [v for v, _ in state.startups]
    having = [v for v in every if codec_name(state.codeset, _minor(v))]
    when = ("" if not having else " before %s" % having[0] if every[-len(having):] == having
            else " in %s" % _spans([v for v in every if v not in having]))
    title = ("LC_CTYPE %s uses %s, which has no Python codec%s: CPython %s stop%s at start-up "
             "here" % (state.lc_ctype, state.codeset, when, _spans([v for v, _ in stops]),
                       "s" if len(stops) == 1 else ""))
    evidence = ["CPython looks up a codec named %s, nl_langinfo(CODESET), for its file system "
                "encoding unless UTF-8 mode is on (codecs of that name: %s)"
                % (state.codeset, versions_with_codec(state.codeset) or "none in 3.6-3.15")]
    evidence += ["CPython %s: exit %d: %s" % (_spans(versions), status, first)
                 for (first, status), versions in _grouped(
                     (v, (d.startup_error.message.split("\n")[0], d.startup_error.exit_code))
                     for v, d in stops)]
    evidence += ["CPython %s start%s: file system encoding %s (%s)" % (
        _spans(versions), "s" if len(versions) == 1 else "", encoding, detail)
                 for (encoding, detail), versions in _grouped(
                     (v, (d.filesystem.encoding, d.reasons["filesystem"].detail))
                     for v, d in starts)]
    return title, tuple(evidence)


def _grouped(pairs):
    """[(key, [version, ...])] of (version, key) pairs, in order of first appearance."""
    out = []
    for version, key in pairs:
        for known, versions in out:
            if known == key:
                versions.append(version)
                break
        else:
            out.append((key, [version]))
    return out


def _same_locale(candidate, value):
    """The same language, territory and codeset, spelled differently."""
    def key(name):
        base = name.partition("@")[0]
        language_territory, _, codeset = base.partition(".")
        return language_territory.lower(), codeset.lower().replace("-", "").replace("_", "")
    return key(candidate) == key(value)


def best_utf8_locale(environ, facts, missing=()):
    """The UTF-8 locale to recommend: what the user meant, if the libc has it under
    another spelling; else the UTF-8 locale the variables already name; else C.UTF-8."""
    for entry in missing:
        for name in entry.spellings + entry.utf8_variants:
            if is_utf8(facts.codesets.get(name)):
                return name
    for name, value in _locale_values(environ):
        if facts.accepts(value) and is_utf8(facts.codesets.get(value)):
            return value
    for name in _UTF8_CANDIDATES:
        if is_utf8(facts.codesets.get(name)):
            return name
    for name in sorted(facts.codesets):
        if is_utf8(facts.codesets[name]):
            return name
    return None
