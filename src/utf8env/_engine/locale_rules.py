"""The rules of CPython's pre-initialisation (Python/preconfig.c): PEP 538, the legacy C
locale and its coercion, and PEP 540, UTF-8 mode. Each rule as policy.py's docstring says:
named after the Decision field it decides, `(context, the values it depends on)` in,
`(value, Reason)` out; decide() calls them in CPython's order."""
from . import preconfig
from .decision import Coercion, Failure, Reason, py_getenv
from .preconfig import C_LOCALE_NAMES as _C_LOCALE_NAMES
from .preconfig import UTF8_LOCALE_PLATFORMS as _UTF8_LOCALE_PLATFORMS
from .profiles import VERSIONS

# What nl_langinfo(CODESET) says in the C locale, where no facts say otherwise.
_C_CODESET = {"darwin": "US-ASCII", "freebsd": "US-ASCII", "openbsd": "US-ASCII",
              "netbsd": "646", "sunos": "646", "aix": "ISO8859-1", "android": "UTF-8"}

# -- PEP 538: the legacy C locale and its coercion --------------------------------------


def setlocale(context, environ):
    """setlocale(LC_CTYPE, "") (preconfig.setlocale). Returns (locale name, the
    "VAR=value" that decided it, or None). Without configure_locale (an embedded isolated
    configuration) nothing is set: the program's own locale, C for one that never calls
    setlocale() (the embedders modelled). On Windows the C runtime names the user's
    locale from the Windows settings, never from LANG or LC_*: only its code page part is
    modelled, and it decides no encoding there (the ANSI code page does)."""
    if context.windows:
        page = "utf8" if context.code_page == 65001 else str(context.code_page)
        return "<user locale>.%s" % page, None
    if not context.configures_locale:
        return "C", None
    return preconfig.setlocale(environ, context.inputs.locales.accepts, context.inputs.platform)


def codeset(context, name):
    """nl_langinfo(CODESET) once LC_CTYPE is `name`."""
    locales = context.inputs.locales
    if name == "C":
        if locales.c_codeset is not None:
            return locales.c_codeset
        return _C_CODESET.get(context.inputs.platform, "ANSI_X3.4-1968")
    if context.inputs.platform in _UTF8_LOCALE_PLATFORMS:
        return "UTF-8"
    return locales.codesets.get(name, "")


def coerce_c_locale(context):
    """PYTHONCOERCECLOCALE (preconfig.coerce_c_locale). Returns (coercion allowed,
    warnings printed)."""
    prof = context.profile
    # The PEP 538 draft reads it even under -E/-I (seed 002, "Specification").
    embedding = context.embedding
    read = embedding is None or embedding.reads_coerce_variable
    value = py_getenv(context, read and (context.use_environment or prof.coercion_env_ignores_E),
                       "PYTHONCOERCECLOCALE")
    allowed, warn = preconfig.coerce_c_locale(value, prof.coercion, prof.warn_by_default,
                                              prof.legacy_warning, context.inputs.warning_switch)
    if embedding is not None:
        # The compat and isolated configurations set coerce_c_locale=0 and
        # coerce_c_locale_warn=0; 3.7's Py_Initialize() warns but never coerces.
        allowed = allowed and embedding.coerces
        warn = warn and read
    return allowed, warn


def no_coercion_built(context):
    prof = context.profile
    return Reason("build", preconfig.NOT_BUILT
                  + (" (it predates PEP 538)" if prof.version < (3, 7) and prof.policy in VERSIONS
                     else ""))


def legacy_c_locale(context, lc_ctype, source):
    """_Py_LegacyLocaleDetected (preconfig.legacy_c_locale)."""
    legacy, reason = preconfig.legacy_c_locale(lc_ctype, source, context.windows)
    if legacy and not context.configures_locale:
        return legacy, Reason(context.embedding.api, _LOCALE_NOT_CONFIGURED)
    return legacy, Reason(*reason)


# Why explain shows no LC_CTYPE for Windows.
_WINDOWS_LC_CTYPE = ("the C runtime names the user's Windows locale and its ANSI code page "
                     "(such as English_United States.1252); the locale part, from the Windows "
                     "settings and never from LANG or LC_*, is not modelled; no encoding "
                     "depends on it (the ANSI code page decides)")

# Why an embedded interpreter's LC_CTYPE is C whatever the environment says.
_LOCALE_NOT_CONFIGURED = ("the isolated configuration never sets LC_CTYPE from the "
                          "environment (configure_locale=0): it keeps the program's own, C "
                          "for a program that never calls setlocale()")


def _embedded_coercion(embedding):
    """Why an embedded interpreter is not coerced, or None where it may be."""
    if embedding is None or embedding.coerces:
        return None
    if embedding.config is None:
        return Reason(embedding.api, "an embedded interpreter is never coerced: CPython 3.7 "
                                     "coerces the C locale only in the python command's main()")
    if embedding.config == "compat":
        return Reason(embedding.api, "the compat configuration: no coercion "
                                     "(coerce_c_locale=0); PYTHONCOERCECLOCALE is not read")
    return Reason(embedding.api, "the %s configuration: no coercion (configure_locale=0, "
                                 "coerce_c_locale=0)" % embedding.config)


def coercion(context, legacy, legacy_reason, allowed, warn, environ):
    """_Py_CoerceLegacyLocale (preconfig.coercion). Returns ((Coercion or None, the
    warning printed or None), Reason)."""
    prof = context.profile
    if not prof.coercion:
        return (None, None), no_coercion_built(context)
    embedded = _embedded_coercion(context.embedding)
    if embedded is not None:
        return (None, None), embedded
    (coerced, warning), reason = preconfig.coercion(
        legacy, legacy_reason.source, allowed, warn, environ, prof.targets,
        prof.lc_all_blocks_coercion,
        lambda name: context.inputs.locales.accepts(name) and bool(codeset(context, name)))
    return (Coercion(*coerced) if coerced else None, warning), Reason(*reason)


def lc_ctype(context, environ, coercion):
    """LC_CTYPE once started: setlocale(LC_CTYPE, "") again, after any coercion."""
    name, source = setlocale(context, environ)
    if context.windows:
        return name, Reason("platform", _WINDOWS_LC_CTYPE)
    if not context.configures_locale:
        return name, Reason(context.embedding.api, _LOCALE_NOT_CONFIGURED)
    if coercion:
        return name, Reason("coercion", "the coercion set %s" % " ".join(
            "%s=%s" % item for item in sorted(coercion.environ.items())))
    if source is None:
        return name, Reason("default", "no locale variable is set: the C locale")
    return name, Reason(source, "%s gives LC_CTYPE %s" % (source, name))


def c_locale_warning(context, lc_ctype, warn):
    """The warning when LC_CTYPE is still C once initialised (preconfig.c_locale_warning)."""
    prof = context.profile
    text, reason = preconfig.c_locale_warning(lc_ctype, warn, prof.legacy_warning,
                                              prof.warn_by_default, context.windows)
    return text, Reason(*reason) if reason else None


# -- PEP 540: UTF-8 mode ----------------------------------------------------------------

def legacy_windows_fs_encoding(context):
    """PYTHONLEGACYWINDOWSFSENCODING (preconfig_init_legacy_windows_fs_encoding): a
    setting, read by UTF-8 mode (which it beats) and the filesystem encoding; modelled
    only where a UTF-8 mode exists."""
    if not context.windows or not context.profile.utf8_mode:
        return False
    return env_flag(py_getenv(context, context.use_environment,
                                "PYTHONLEGACYWINDOWSFSENCODING"))


def env_flag(value):
    """A flag variable as _Py_get_env_flag reads it: unset is off, "0" is off; any other
    integer, or a non-integer, is on."""
    if value is None:
        return False
    try:
        return int(value) != 0
    except ValueError:
        return True


def utf8_mode(context, lc_ctype, source):
    """preconfig_init_utf8_mode, highest priority first, ending with the locale before
    coercion (PEP 540 "Proposal": the POSIX locale turns UTF-8 mode on). A value CPython
    refuses gives a Failure."""
    prof = context.profile
    if not prof.utf8_mode:
        return 0, Reason("version", "CPython %d.%d has no UTF-8 mode (PEP 540 is 3.7+)" % prof.version)
    if legacy_windows_fs_encoding(context):
        return 0, Reason("PYTHONLEGACYWINDOWSFSENCODING",
                         "the legacy Windows filesystem encoding beats UTF-8 mode"
                         + pth_note(context))
    embedding = context.embedding
    if embedding is not None and embedding.utf8_mode is not None:
        why = ("PEP 686" if embedding.utf8_mode else
               "bpo-36443" if embedding.config == "compat" else None)
        return embedding.utf8_mode, Reason(embedding.api, (
            "the %s configuration sets utf8_mode=%d%s: PYTHONUTF8 is not read"
            % (embedding.config, embedding.utf8_mode, " (%s)" % why if why else "")))
    valid = "(0 or 1%s)" % (" or strict" if prof.strict_mode else "")
    present, value = context.line.xoption("utf8")
    if present:
        option = "-X utf8" + ("" if value is None else "=" + value)
        mode = _mode_value(prof, value, bare=True)
        if mode is None:
            return (_refused(prof, option, "invalid -X utf8 option value"),
                    Reason(option, "not a valid -X utf8 value " + valid))
        return mode, Reason(option, "the first -X utf8 option decides"
                            + ("; PYTHONUTF8 is not read" if context.use_environment else ""))
    value = py_getenv(context, context.use_environment, "PYTHONUTF8")
    if value is not None:
        variable = "PYTHONUTF8=" + value
        mode = _mode_value(prof, value, bare=False)
        if mode is None:
            return (_refused(prof, variable, "invalid PYTHONUTF8 environment variable value"),
                    Reason(variable, "not a valid PYTHONUTF8 value " + valid))
        return mode, Reason(variable, "PYTHONUTF8 decides when no -X utf8 is given"
                            + pth_note(context))
    note = "" if context.use_environment else " (-E/-I: PYTHONUTF8 is ignored)"
    if prof.utf8_by_default:
        return 1, Reason("default", "PEP 686: UTF-8 mode is on unless -X utf8=0 or "
                                    "PYTHONUTF8=0 turns it off" + note)
    if context.windows:
        return 0, Reason("platform", "off: on Windows no locale or code page turns UTF-8 mode "
                                     "on, only -X utf8 or PYTHONUTF8=1%s" % note)
    if not context.windows and lc_ctype in _C_LOCALE_NAMES:
        return 1, Reason(source or "default", "the C/POSIX locale turns UTF-8 mode on" + note)
    return 0, Reason("locale", "off: the locale is %s, and no -X utf8 or PYTHONUTF8 asks "
                               "for it%s" % (lc_ctype, note))


def pth_note(context):
    """On Windows, what a ._pth file (the embeddable distribution) does to a PYTHON*
    variable read at start-up: nothing (tests/test_windows_groundtruth.py)."""
    if not context.windows or context.embedding is not None:
        return ""
    return ("; read even beside a ._pth file (the embeddable distribution): it makes "
            "the interpreter isolated only once the path configuration is computed, after "
            "the encodings are decided (measured on 3.8-3.13)")


def _mode_value(prof, value, bare):
    if value is None and bare:
        return 1
    if value == "1":
        return 1
    if value == "0":
        return 0
    if value == "strict" and prof.strict_mode:
        return "strict"
    return None


def _refused(prof, source, message):
    # Py_FatalError from preconfig (3.7: config_init_utf8_mode): status 1.
    lines = ["Fatal Python error: %s: %s" % (prof.utf8_error_function, message)]
    if prof.fatal_error_state:
        lines.append("Python runtime state: preinitializing")
    lines.append("")
    return Failure("\n".join(lines), 1,
                    Reason(source, "the value is refused before the interpreter starts"))
