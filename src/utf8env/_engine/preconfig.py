"""PEP 538, the half of CPython's pre-initialisation that concerns the locale: which
locale setlocale() gives, whether it is the legacy C locale, whether and to what it is
coerced, and the two warnings (Python/preconfig.c, Python/pylifecycle.c
_Py_CoerceLegacyLocale and emit_stderr_warning_for_legacy_locale).

Plain values in and out: no records, no profile, nothing imported. policy.decide()
calls these rules for every interpreter it predicts, with the values of its profile;
`utf8env run` calls them alone (for_any_program) for a program that is not Python,
whose start-up cannot afford the rest of the engine (benchmarks/bench_launch.py). A
reason is a (source, detail) pair, which policy.py makes a Reason.
"""

C_LOCALE_NAMES = ("C", "POSIX")
LOCALE_VARIABLES = ("LC_ALL", "LC_CTYPE", "LANG")  # glibc's order for LC_CTYPE
UTF8_LOCALE_PLATFORMS = ("android",)

# Python/pylifecycle.c _C_LOCALE_WARNING and _Py_CoerceLegacyLocale (3.7+ as shipped).
SHIPPED_LEGACY_WARNING = (
    "Python runtime initialized with LC_CTYPE=C (a locale with default ASCII "
    "encoding), which may cause Unicode compatibility problems. Using C.UTF-8, "
    "C.utf8, or UTF-8 (if available) as alternative Unicode-compatible locales is "
    "recommended.")
_SHIPPED_COERCION_WARNING = (
    "Python detected LC_CTYPE=C: LC_CTYPE coerced to {target} (set another locale "
    "or PYTHONCOERCECLOCALE=0 to disable this locale coercion behavior).")
# Seed 002 (PEP 538 draft of 2017-01-07), "Specification": one text per kind of target.
DRAFT_LEGACY_WARNING = (
    "Python runtime initialized with LC_CTYPE=C (a locale with default ASCII "
    "encoding), which may cause Unicode compatibility problems. Using C.UTF-8 "
    "(if available) as an alternative Unicode-compatible locale is recommended.")
_DRAFT_COERCION_WARNING_LANG_LC_ALL = (
    "Python detected LC_CTYPE=C, LC_ALL & LANG set to {target} (set "
    "PYTHONCOERCECLOCALE=0 to disable this locale coercion behaviour).")
_DRAFT_COERCION_WARNING_LC_CTYPE = (
    "Python detected LC_CTYPE=C, LC_CTYPE set to {target} (set "
    "PYTHONCOERCECLOCALE=0 to disable this locale coercion behaviour).")

# The locales 3.7+ coerces to, in the order tried (Python/pylifecycle.c
# _C_LOCALE_COERCION_TARGETS); stdio gets surrogateescape in them as in the C locale
# (Python/initconfig.c config_get_stdio_errors, _Py_IsLocaleCoercionTarget).
COERCION_TARGET_NAMES = ("C.UTF-8", "C.utf8", "UTF-8")
# The coercion targets, in the order tried: (the name passed to setlocale(LC_CTYPE, ...),
# the environment variables the coercion exports, the coercion warning with {target}).
SHIPPED_TARGETS = tuple((name, ("LC_CTYPE",), _SHIPPED_COERCION_WARNING)
                        for name in COERCION_TARGET_NAMES)
DRAFT_TARGETS = (
    ("C.UTF-8", ("LANG", "LC_ALL"), _DRAFT_COERCION_WARNING_LANG_LC_ALL),
    ("C.utf8", ("LANG", "LC_ALL"), _DRAFT_COERCION_WARNING_LANG_LC_ALL),
    ("en_US.UTF-8", ("LC_CTYPE",), _DRAFT_COERCION_WARNING_LC_CTYPE),
)

# The PEP 538 settings of a profile (profiles.py takes them from here): the coercion
# targets, the warnings printed by default, PYTHONCOERCECLOCALE read even under -E/-I,
# a non-empty LC_ALL exempt from the coercion, the legacy-locale warning.
SHIPPED = dict(targets=SHIPPED_TARGETS, warn_by_default=False, coercion_env_ignores_E=False,
               lc_all_blocks_coercion=True, legacy_warning=SHIPPED_LEGACY_WARNING)
# Seed 002: both warnings on by default; PYTHONCOERCECLOCALE read even under -E/-I. It
# does not exempt an explicit LC_ALL: it sets LC_ALL itself.
DRAFT = dict(targets=DRAFT_TARGETS, warn_by_default=True, coercion_env_ignores_E=True,
             lc_all_blocks_coercion=False, legacy_warning=DRAFT_LEGACY_WARNING)


# Why a build that does not coerce does not.
NOT_BUILT = "this interpreter has no C locale coercion"


def built(coercion, warn_by_default, legacy_warning, coercion_switch, warning_switch, platform):
    """A redistributor's build (configure --without-c-locale-coercion,
    --with[out]-c-locale-warning; PEP 538 "Platform Support Changes"): (coercion,
    warn_by_default, legacy_warning) once the switches given (None: as built) apply."""
    if coercion_switch is not None:
        coercion = coercion_switch and platform != "win32"
    if warning_switch is not None:
        warn_by_default = warning_switch
        if warning_switch and legacy_warning is None:
            legacy_warning = DRAFT_LEGACY_WARNING
    return coercion, warn_by_default, legacy_warning


def setlocale(environ, accepts, platform):
    """setlocale(LC_CTYPE, "") as glibc does it: the first non-empty of LC_ALL, LC_CTYPE,
    LANG; POSIX is reported as C; a name the libc refuses (`accepts(name)` false) leaves
    the C locale. Returns (locale name, the "VAR=value" that decided it, or None)."""
    if platform in UTF8_LOCALE_PLATFORMS:
        return _android_locale(environ)
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable)
        if value:
            source = "%s=%s" % (variable, value)
            if value in C_LOCALE_NAMES:
                return "C", source
            if accepts(value):
                return value, source
            return "C", source
    return "C", None


def _android_locale(environ):
    # Python/pylifecycle.c _Py_SetLocaleFromEnv on Android: C or POSIX, else C.UTF-8.
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable)
        if value:
            return ("C" if value in C_LOCALE_NAMES else "C.UTF-8"), "%s=%s" % (variable, value)
    return "C.UTF-8", None


def coerce_c_locale(value, coercion, warn_by_default, legacy_warning, warning_switch):
    """PYTHONCOERCECLOCALE (preconfig_init_coerce_c_locale), `value` as start-up reads it
    (None: unset, empty, or hidden by -E/-I): a setting, not a Decision field. Returns
    (coercion allowed, warnings printed)."""
    if not coercion:
        allowed, warn = False, warn_by_default and legacy_warning is not None
    elif value == "0":
        allowed, warn = False, warn_by_default
    elif value == "warn":
        allowed, warn = True, True
    else:
        allowed, warn = True, warn_by_default
    # Built --without-c-locale-warning: never printed, whatever the variable says.
    return allowed, warn and warning_switch is not False


def legacy_c_locale(lc_ctype, source, windows):
    """_Py_LegacyLocaleDetected: LC_CTYPE is exactly "C" (never on Windows).
    Returns (bool, reason)."""
    if windows:
        return False, ("platform", "Windows has no legacy C locale")
    if lc_ctype != "C":
        return False, (source or "default", "LC_CTYPE is %s, not the C locale" % lc_ctype)
    if source is None:
        detail = "no locale variable is set (LC_ALL, LC_CTYPE and LANG are unset or empty)"
    elif source.split("=", 1)[1] in C_LOCALE_NAMES:
        detail = "%s selects the legacy C locale" % source
    else:
        detail = "%s names a locale the libc does not have, so LC_CTYPE stays C" % source
    return True, (source or "default", detail)


def coercion(legacy, legacy_source, allowed, warn, environ, targets, lc_all_blocks_coercion,
             usable):
    """_Py_CoerceLegacyLocale, where the build coerces: try each target in order, export
    the first that works (`usable(name)`: setlocale accepts it and it has a codeset).
    Returns (((target, {variable: value}) or None, the warning printed or None), reason)."""
    if not legacy:
        return (None, None), (legacy_source,
                              "nothing to coerce: the locale is not the legacy C locale")
    if not allowed:
        source = "PYTHONCOERCECLOCALE=0"
        return (None, None), (source, "%s turns the coercion off" % source)
    if lc_all_blocks_coercion and environ.get("LC_ALL"):
        return (None, None), ("LC_ALL=%s" % environ["LC_ALL"], "a non-empty LC_ALL is an "
                              "explicit choice: CPython never overrides it")
    tried = ", ".join(target for target, _, _ in targets)
    for target, sets, warning in targets:
        if usable(target):
            text = warning.format(target=target[:20]) if warn else None
            return ((target, {variable: target for variable in sets}), text), (
                legacy_source, "the legacy C locale is coerced to %s, the first available "
                "of %s; %s exported" % (target, tried, " and ".join(sets)))
    return (None, None), ("locales", "no coercion target is installed (tried %s)" % tried)


def c_locale_warning(lc_ctype, warn, legacy_warning, warn_by_default, windows):
    """The runtime warning when LC_CTYPE is still C once initialised
    (pylifecycle.c emit_stderr_warning_for_legacy_locale). Returns (text, reason), or
    (None, None) where none is printed."""
    if legacy_warning is None or not warn or windows or lc_ctype != "C":
        return None, None
    return legacy_warning, ("PYTHONCOERCECLOCALE=warn" if not warn_by_default else "build",
                            "LC_CTYPE is still C after start-up")


# The categories that setlocale(LC_ALL, "") loads, each named by LC_ALL, else its own
# variable, else LANG (glibc's locale/setlocale.c; "C" for none).
_CATEGORIES = ("LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY", "LC_MESSAGES",
               "LC_PAPER", "LC_NAME", "LC_ADDRESS", "LC_TELEPHONE", "LC_MEASUREMENT",
               "LC_IDENTIFICATION")


def whole_locale(environ, accepts, target):
    """What a program that asks for every category (setlocale(LC_ALL, ""): most C
    programs, and CPython 3.6 for its command line) needs beside PEP 538's coercion to
    `target`, which sets LC_CTYPE alone: glibc's setlocale fails as a whole, leaving every
    category C, where any one names a locale the libc lacks (LANG=de_DE.UTF-8, not
    installed). Each locale variable that names one is given `target` too; a variable the
    libc accepts, and LC_ALL (never overridden), are left as they are.
    Returns ({variable: target}, why in words, or "")."""
    if environ.get("LC_ALL"):
        return {}, ""
    changes = {}
    for variable in ("LANG",) + _CATEGORIES:
        value = environ.get(variable)
        if value and value not in C_LOCALE_NAMES and not accepts(value):
            changes[variable] = target
    if not changes:
        return {}, ""
    return changes, ("%s %s a locale the libc does not have, which would keep a program that "
                     "asks for every category (setlocale(LC_ALL, \"\")) in the C locale: %s "
                     "set to %s too" % (", ".join("%s=%s" % (v, environ[v]) for v in changes),
                                        "names" if len(changes) == 1 else "name",
                                        " and ".join(changes), target))


def for_any_program(environ, codesets, draft=False, coercion_switch=None, warning_switch=None):
    """What `utf8env run` does for a program that is not Python on Linux: the coercion of
    CPython 3.7+ as shipped (or of the PEP 538 draft), with the build switches given.
    `codesets`: {locale name setlocale accepts: its codeset}. A program that is not Python
    asks for every category: where one names a missing locale, whole_locale() too.
    Returns (the variables set, the lines printed, why in words)."""
    settings = DRAFT if draft else SHIPPED
    # As decide() orders them for CPython 3.7 with no command line (policy.py).
    coercion_built, warn_by_default, legacy_warning = built(
        True, settings["warn_by_default"], settings["legacy_warning"], coercion_switch,
        warning_switch, "linux")
    allowed, warn = coerce_c_locale(environ.get("PYTHONCOERCECLOCALE") or None, coercion_built,
                                    warn_by_default, legacy_warning, warning_switch)
    initial, source = setlocale(environ, codesets.__contains__, "linux")
    legacy, (legacy_source, _) = legacy_c_locale(initial, source, False)
    coerced, warning, why = None, None, NOT_BUILT
    if coercion_built:
        (coerced, warning), (_, why) = coercion(
            legacy, legacy_source, allowed, warn, environ, settings["targets"],
            settings["lc_all_blocks_coercion"], lambda name: bool(codesets.get(name)))
    changes = dict(coerced[1]) if coerced else {}
    lc_ctype, _ = setlocale(dict(environ, **changes), codesets.__contains__, "linux")
    c_warning, _ = c_locale_warning(lc_ctype, warn, legacy_warning, warn_by_default, False)
    if coerced:
        whole, whole_why = whole_locale(dict(environ, **changes), codesets.__contains__,
                                        coerced[0])
        changes.update(whole)
        why = "; ".join(part for part in (why, whole_why) if part)
    return changes, [line for line in (warning, c_warning) if line], why
