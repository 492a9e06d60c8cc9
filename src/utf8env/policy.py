"""The pure engine: decide(inputs) -> Decision.

Nothing here reads the process: no os.environ, no locale, no subprocess, no sys.flags.
The structure follows CPython's own start-up (Python/preconfig.c, Python/initconfig.c,
Python/pylifecycle.c): read the inputs, decide one field at a time with the
precedence written as an ordered chain of early returns, and remember for every value
the input that decided it (a Reason).
"""
import codecs

from .records import Record, field

from . import cmdline
from .profiles import POLICIES, PLATFORMS, VERSIONS, profile as _profile

C_LOCALE_NAMES = ("C", "POSIX")
LOCALE_VARIABLES = ("LC_ALL", "LC_CTYPE", "LANG")   # glibc's order for LC_CTYPE
# The names 3.7+ compare the locale with to pick surrogateescape for stdio
# (Python/initconfig.c config_get_stdio_errors; pylifecycle.c _C_UTF8_LOCALES).
_STDIO_TARGET_NAMES = ("C.UTF-8", "C.utf8", "UTF-8")
# What nl_langinfo(CODESET) says in the C locale, where no facts say otherwise.
_C_CODESET = {"darwin": "US-ASCII", "freebsd": "US-ASCII", "openbsd": "US-ASCII",
              "netbsd": "646", "sunos": "646", "aix": "ISO8859-1", "android": "UTF-8"}
# Platforms whose libc decodes bytes 0x80-0xff as Latin-1 in a locale that claims
# ASCII: CPython forces ASCII there (Python/fileutils.c check_force_ascii).
_FORCE_ASCII_PLATFORMS = ("freebsd", "sunos")
# Platforms where CPython hard-codes UTF-8 (Include/pyport.h _Py_FORCE_UTF8_FS_ENCODING,
# _Py_FORCE_UTF8_LOCALE; 3.6/3.7 bltinmodule.c on Apple).
_UTF8_FS_PLATFORMS = ("darwin", "android")
_UTF8_LOCALE_PLATFORMS = ("android",)


class LocaleFacts(Record):
    """Which locale names the target's libc accepts for LC_CTYPE, with the codeset
    (nl_langinfo(CODESET)) of each. Names absent from `codesets` are refused."""
    codesets = field()                  # {name: codeset}
    c_codeset = field(None)             # the C locale's codeset; None: the platform default

    def accepts(self, name):
        return name in self.codesets


class Inputs(Record):
    environ = field()                   # the target's environment
    args = field(())                    # the interpreter command line after argv[0]
    version = field("3.13")             # "3.6" ... "3.15"
    platform = field("linux")
    locales = field(LocaleFacts({}))
    policy = field(None)                # None: the version's own policy
    coercion_switch = field(None)       # --with[out]-c-locale-coercion; None: as built
    warning_switch = field(None)        # --with[out]-c-locale-warning; None: as built
    argv0 = field("python3")            # names the program in usage errors
    windows_console = field(False)      # win32: stdio is a console, not a pipe or file
    ansi_code_page = field(1252)        # win32: GetACP()


class Reason(Record):
    source = field()  # the input that decided ("PYTHONUTF8=1", "-X utf8", "LANG=C", "default")
    detail = field()  # why, in words a user understands


class Stream(Record):
    encoding = field()
    errors = field()


class Coercion(Record):
    target = field()            # the locale name
    environ = field()           # the variables set, as a child sees them


class StartupError(Record):
    message = field()
    exit_code = field()


class Decision(Record):
    python = field()
    platform = field()
    policy = field()
    startup_error = field()                 # a StartupError, or None: it starts
    legacy_c_locale = field()               # bool
    legacy_c_locale_source = field()        # the variable that gave the C locale, or None
    coercion = field()                      # a Coercion, or None
    coercion_warning = field()              # the text printed, or None
    c_locale_warning = field()              # the text printed, or None
    utf8_mode = field()                     # 0, 1 or "strict"
    lc_ctype = field()                      # setlocale(LC_CTYPE, NULL) once started
    filesystem = field()                    # a Stream (encoding, errors); None when it does not start
    stdin = field()                         # Streams, likewise
    stdout = field()
    stderr = field()
    open = field()                          # open()'s default
    preferred_encoding = field()            # locale.getpreferredencoding(False)
    locale_encoding = field()               # locale.getencoding(), 3.11+
    stderr_messages = field()               # the lines printed at start-up, in order
    stderr_complete = field()               # False: the interpreter prints more (a traceback)
    child_environ = field()                 # {name: value, or None if removed}: what a child inherits
    reasons = field()                       # {field: Reason}


class InvalidInput(ValueError):
    """An input decide() cannot model (unknown version, policy or platform)."""


class _Facts(Record):
    """What start-up has found so far; passed from one rule to the next."""
    profile = field()
    inputs = field()
    line = field()
    windows = field()


def decide(inputs):
    """Decide the text configuration a CPython would start with, from `inputs` alone."""
    _check(inputs)
    version = tuple(int(part) for part in inputs.version.split("."))
    policy = inputs.policy or inputs.version
    prof = _profile(policy, inputs.version)
    if inputs.coercion_switch is not None:
        prof = prof._replace(coercion=inputs.coercion_switch and inputs.platform != "win32")
    if inputs.warning_switch is not None:
        prof = prof._replace(warn_by_default=inputs.warning_switch)
        if inputs.warning_switch and prof.legacy_warning is None:
            prof = prof._replace(legacy_warning=_profile("pep538-draft", inputs.version).legacy_warning)
    line = cmdline.parse(list(inputs.args), version)
    facts = _Facts(prof, inputs, line, inputs.platform == "win32")
    reasons = {}
    environ = dict(inputs.environ)

    if line.error and not prof.preconfig_first:
        return _usage_failure(facts, reasons)

    env = _env_reader(facts, environ)
    coerce_setting, warn = coercion_setting(facts, env, reasons)
    if inputs.warning_switch is False:      # built --without-c-locale-warning: never printed
        warn = False
    mode, error = utf8_mode(facts, env, reasons)
    if error:
        return _failed(facts, reasons, error, 1, reasons["utf8_mode"].source,
                       "the value is refused before the interpreter starts")

    # PEP 538: the locale before coercion decides both the coercion and UTF-8 mode.
    name, source = resolve_lc_ctype(environ, facts)
    legacy = legacy_c_locale(facts, name, source, environ, reasons)
    if mode is None:
        mode = automatic_utf8_mode(facts, name, reasons)
    coercion, coercion_warning = coerce(facts, legacy, coerce_setting, warn, environ, reasons)
    if line.error:
        # 3.8+ pre-initialises (UTF-8 mode, coercion and its warning) before it parses
        # the whole command line (Python/preconfig.c _PyPreCmdline_Read tolerates errors).
        return _usage_failure(facts, reasons, mode, coercion, before=(coercion_warning,))
    if coercion:
        environ.update(coercion.environ)
    final_name, final_source = resolve_lc_ctype(environ, facts)
    codeset = codeset_of(facts, final_name)
    c_warning = c_locale_warning(facts, final_name, warn, reasons)
    reasons["lc_ctype"] = _lc_ctype_reason(final_name, final_source, coercion)

    stdio_encoding, stdio_errors, stdio_failure = stdio(facts, env, mode, final_name, codeset, reasons)
    messages = [line for line in (coercion_warning, c_warning) if line]
    if stdio_failure:
        message, code = stdio_failure
        return _failed(facts, reasons, message, code, "PYTHONIOENCODING",
                       "the stdio codec cannot be used", mode=mode, coercion=coercion,
                       before=tuple(messages), complete=False)
    streams = {
        "stdin": Stream(stdio_encoding, stdio_errors),
        "stdout": Stream(stdio_encoding, stdio_errors),
        # Every version, whatever PYTHONIOENCODING says: create_stdio(..., "backslashreplace").
        "stderr": Stream(stdio_encoding, "backslashreplace"),
    }
    reasons["stderr"] = Reason(reasons["stdout"].source,
                               "stderr uses the stdout encoding with backslashreplace, always")
    reasons["stdin"] = reasons["stdout"]
    child = {key: value for key, value in environ.items() if inputs.environ.get(key) != value}
    reasons["child_environ"] = (
        Reason("coercion", "the coerced locale is exported to every child process")
        if child else
        Reason("default", "nothing is exported: UTF-8 mode reaches a child only "
                          "through PYTHONUTF8 or -X utf8 on its own command line"))
    reasons["stderr_messages"] = Reason(
        "PYTHONCOERCECLOCALE" if messages else "default",
        "the locale warnings printed at start-up" if messages else "nothing is printed at start-up")
    return Decision(
        python=inputs.version, platform=inputs.platform, policy=prof.policy,
        startup_error=None,
        legacy_c_locale=legacy, legacy_c_locale_source=source if legacy else None,
        coercion=coercion, coercion_warning=coercion_warning, c_locale_warning=c_warning,
        utf8_mode=mode, lc_ctype=final_name,
        filesystem=filesystem(facts, mode, final_name, codeset, reasons),
        open=open_default(facts, mode, codeset, reasons),
        preferred_encoding=preferred_encoding(facts, mode, codeset, reasons),
        locale_encoding=locale_encoding(facts, codeset, reasons),
        stderr_messages=tuple(messages), stderr_complete=True,
        child_environ=child, reasons=reasons, **streams)


def _check(inputs):
    if inputs.version not in VERSIONS:
        raise InvalidInput("version %r: expected one of %s" % (inputs.version, ", ".join(VERSIONS)))
    if inputs.policy is not None and inputs.policy not in POLICIES:
        raise InvalidInput("policy %r: expected one of %s" % (inputs.policy, ", ".join(POLICIES)))
    if inputs.platform not in PLATFORMS:
        raise InvalidInput("platform %r: expected one of %s" % (inputs.platform, ", ".join(PLATFORMS)))


def _env_reader(facts, environ):
    """getenv() as CPython's _Py_GetEnv: empty counts as unset, and -E/-I hide PYTHON*."""
    def read(name, honours_E=True):
        if honours_E and facts.line.ignore_environment:
            return None
        return environ.get(name) or None
    return read


# -- PEP 538: the legacy C locale and its coercion --------------------------------------

def resolve_lc_ctype(environ, facts):
    """setlocale(LC_CTYPE, "") as glibc does it: the first non-empty of LC_ALL, LC_CTYPE,
    LANG; POSIX is reported as C; a name the libc refuses leaves the C locale.
    Returns (locale name, the "VAR=value" that decided it)."""
    if facts.inputs.platform in _UTF8_LOCALE_PLATFORMS:
        return _android_locale(environ)
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable)
        if value:
            source = "%s=%s" % (variable, value)
            if value in C_LOCALE_NAMES:
                return "C", source
            if facts.inputs.locales.accepts(value):
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


def codeset_of(facts, name):
    locales = facts.inputs.locales
    if name == "C":
        if locales.c_codeset is not None:
            return locales.c_codeset
        return _C_CODESET.get(facts.inputs.platform, "ANSI_X3.4-1968")
    if facts.inputs.platform in _UTF8_LOCALE_PLATFORMS:
        return "UTF-8"
    return locales.codesets.get(name, "")


def coercion_setting(facts, env, reasons):
    """PYTHONCOERCECLOCALE (Python/preconfig.c preconfig_init_coerce_c_locale).
    Returns (coercion allowed, warnings on)."""
    prof = facts.profile
    value = env("PYTHONCOERCECLOCALE", honours_E=not prof.coercion_env_ignores_E)
    if not prof.coercion:
        reasons["coercion"] = Reason("build", "this interpreter has no C locale coercion"
                                     + (" (it predates PEP 538)" if prof.version < (3, 7) and
                                        prof.policy == prof.policy.split("-")[0] else ""))
        return False, prof.warn_by_default and prof.legacy_warning is not None
    if value == "0":
        return False, prof.warn_by_default
    if value == "warn":
        return True, True
    return True, prof.warn_by_default


def legacy_c_locale(facts, name, source, environ, reasons):
    """_Py_LegacyLocaleDetected: LC_CTYPE is exactly "C" (never on Windows)."""
    if facts.windows:
        reasons["legacy_c_locale"] = Reason("platform", "Windows has no legacy C locale")
        return False
    if name != "C":
        reasons["legacy_c_locale"] = Reason(source or "default", "LC_CTYPE is %s, not the C locale" % name)
        return False
    if source is None:
        detail = "no locale variable is set (LC_ALL, LC_CTYPE and LANG are unset or empty)"
    elif source.split("=", 1)[1] in C_LOCALE_NAMES:
        detail = "%s selects the legacy C locale" % source
    else:
        detail = "%s names a locale the libc does not have, so LC_CTYPE stays C" % source
    reasons["legacy_c_locale"] = Reason(source or "default", detail)
    return True


def coerce(facts, legacy, allowed, warn, environ, reasons):
    """_Py_CoerceLegacyLocale: try each target in order, export the first that works."""
    prof = facts.profile
    if "coercion" in reasons:       # decided already: not built in
        return None, None
    if not legacy:
        reasons["coercion"] = Reason(reasons["legacy_c_locale"].source,
                                     "nothing to coerce: the locale is not the legacy C locale")
        return None, None
    if not allowed:
        source = "PYTHONCOERCECLOCALE=0"
        reasons["coercion"] = Reason(source, "%s turns the coercion off" % source)
        return None, None
    if prof.lc_all_blocks_coercion and environ.get("LC_ALL"):
        reasons["coercion"] = Reason("LC_ALL=%s" % environ["LC_ALL"],
                                     "a non-empty LC_ALL is an explicit choice: CPython never overrides it")
        return None, None
    for target in prof.targets:
        if facts.inputs.locales.accepts(target.locale) and codeset_of(facts, target.locale):
            changes = {variable: target.locale for variable in target.sets}
            reasons["coercion"] = Reason(
                reasons["legacy_c_locale"].source,
                "the legacy C locale is coerced to %s, the first available of %s; %s exported"
                % (target.locale, ", ".join(t.locale for t in prof.targets),
                   " and ".join(target.sets)))
            text = target.warning.format(target=target.locale[:20]) if warn else None
            return Coercion(target.locale, changes), text
    reasons["coercion"] = Reason(
        "locales", "no coercion target is installed (tried %s)"
        % ", ".join(t.locale for t in prof.targets))
    return None, None


def c_locale_warning(facts, name, warn, reasons):
    """The runtime warning when LC_CTYPE is still C once initialised
    (pylifecycle.c emit_stderr_warning_for_legacy_locale)."""
    text = facts.profile.legacy_warning
    if text is None or not warn or facts.windows or name != "C":
        return None
    reasons["c_locale_warning"] = Reason("PYTHONCOERCECLOCALE=warn" if not facts.profile.warn_by_default
                                         else "build", "LC_CTYPE is still C after start-up")
    return text


def _lc_ctype_reason(name, source, coercion):
    if coercion:
        return Reason("coercion", "the coercion set %s" % " ".join(
            "%s=%s" % item for item in sorted(coercion.environ.items())))
    if source is None:
        return Reason("default", "no locale variable is set: the C locale")
    return Reason(source, "%s gives LC_CTYPE %s" % (source, name))


# -- PEP 540: UTF-8 mode ----------------------------------------------------------------

def utf8_mode(facts, env, reasons):
    """preconfig_init_utf8_mode, highest priority first. Returns (mode or None, error):
    None means "not set": the locale decides later."""
    prof = facts.profile
    if not prof.utf8_mode:
        reasons["utf8_mode"] = Reason("version", "CPython %d.%d has no UTF-8 mode (PEP 540 is 3.7+)"
                                      % prof.version)
        return 0, None
    if facts.windows and _legacy_windows_fs(env):
        reasons["utf8_mode"] = Reason("PYTHONLEGACYWINDOWSFSENCODING",
                                      "the legacy Windows filesystem encoding beats UTF-8 mode")
        return 0, None
    present, value = facts.line.xoption("utf8")
    if present:
        source = "-X utf8" + ("" if value is None else "=" + value)
        mode = _mode_value(prof, value, bare=True)
        if mode is None:
            reasons["utf8_mode"] = Reason(source, "not a valid -X utf8 value (0 or 1%s)"
                                          % (" or strict" if prof.strict_mode else ""))
            return None, _fatal(prof, "invalid -X utf8 option value")
        reasons["utf8_mode"] = Reason(source, "the first -X utf8 option decides"
                                      + ("" if facts.line.ignore_environment else "; PYTHONUTF8 is not read"))
        return mode, None
    value = env("PYTHONUTF8")
    if value is not None:
        source = "PYTHONUTF8=" + value
        mode = _mode_value(prof, value, bare=False)
        if mode is None:
            reasons["utf8_mode"] = Reason(source, "not a valid PYTHONUTF8 value (0 or 1%s)"
                                          % (" or strict" if prof.strict_mode else ""))
            return None, _fatal(prof, "invalid PYTHONUTF8 environment variable value")
        reasons["utf8_mode"] = Reason(source, "PYTHONUTF8 decides when no -X utf8 is given")
        return mode, None
    if prof.utf8_by_default:
        reasons["utf8_mode"] = Reason("default", "PEP 686: UTF-8 mode is on unless -X utf8=0 or "
                                      "PYTHONUTF8=0 turns it off"
                                      + _ignored_note(facts, env))
        return 1, None
    return None, None


def _ignored_note(facts, env):
    if facts.line.ignore_environment:
        return " (-E/-I: PYTHONUTF8 is ignored)"
    return ""


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


def _legacy_windows_fs(env):
    # _Py_get_env_flag: "0" is off; any other integer > 0, or a non-integer, is on.
    value = env("PYTHONLEGACYWINDOWSFSENCODING")
    if value is None:
        return False
    try:
        return int(value) != 0
    except ValueError:
        return True


def automatic_utf8_mode(facts, name, reasons):
    """PEP 540: the POSIX (C) locale turns UTF-8 mode on, before any coercion."""
    note = _ignored_note(facts, None)
    if not facts.windows and name in C_LOCALE_NAMES:
        reasons["utf8_mode"] = Reason(reasons["legacy_c_locale"].source if "legacy_c_locale" in reasons
                                      else "locale", "the C/POSIX locale turns UTF-8 mode on" + note)
        return 1
    reasons["utf8_mode"] = Reason("locale", "off: the locale is %s, and no -X utf8 or "
                                            "PYTHONUTF8 asks for it%s" % (name, note))
    return 0


def _fatal(prof, message):
    lines = ["Fatal Python error: %s: %s" % (prof.utf8_error_function, message)]
    if prof.fatal_error_state:
        lines.append("Python runtime state: preinitializing")
    lines.append("")
    return "\n".join(lines)


# -- Encodings --------------------------------------------------------------------------

def _lookup(name):
    """codecs.lookup(), or None where CPython would find no codec (also for names that
    are not even encodable, such as undecodable bytes from the environment)."""
    try:
        return codecs.lookup(name)
    except (LookupError, UnicodeError, ValueError, TypeError):
        return None


def codec_name(name):
    """The Python codec name CPython reports (config_get_codec_name): codecs.lookup().name."""
    codec = _lookup(name)
    return codec.name if codec else name


def _not_text_message(prof, name):
    text = "LookupError: '%s' is not a text encoding" % name
    # 3.14 dropped the advice from the message (Lib/codecs.py / _PyCodec_LookupTextEncoding).
    return text if prof.version >= (3, 14) else text + "; use codecs.open() to handle arbitrary codecs"


def filesystem(facts, mode, name, codeset, reasons):
    """config_init_fs_encoding (3.8+), initfsencoding (3.6/3.7)."""
    platform = facts.inputs.platform
    if facts.windows:
        if mode == 0 and reasons["utf8_mode"].source == "PYTHONLEGACYWINDOWSFSENCODING":
            reasons["filesystem"] = Reason("PYTHONLEGACYWINDOWSFSENCODING", "the legacy mbcs encoding (PEP 529)")
            return Stream("mbcs", "replace")
        reasons["filesystem"] = Reason("platform", "Windows uses UTF-8 for the filesystem (PEP 529)")
        return Stream("utf-8", "surrogatepass")
    if platform in _UTF8_FS_PLATFORMS:
        reasons["filesystem"] = Reason("platform", "%s always uses UTF-8 for the filesystem" % platform)
        return Stream("utf-8", "surrogateescape")
    if mode:
        reasons["filesystem"] = Reason(reasons["utf8_mode"].source, "UTF-8 mode")
        return Stream("utf-8", "surrogateescape")
    if platform in _FORCE_ASCII_PLATFORMS and name in C_LOCALE_NAMES and facts.profile.version >= (3, 7):
        reasons["filesystem"] = Reason("platform", "the libc claims ASCII but decodes Latin-1: "
                                                   "CPython forces ASCII")
        return Stream("ascii", "surrogateescape")
    if not codeset and facts.profile.empty_codeset_is_utf8:
        reasons["filesystem"] = Reason("locale", "the locale has no codeset: UTF-8")
        return Stream("utf-8", "surrogateescape")
    reasons["filesystem"] = Reason("locale", "the locale encoding of LC_CTYPE %s" % name)
    return Stream(codec_name(codeset), "surrogateescape")


def stdio(facts, env, mode, name, codeset, reasons):
    """config_init_stdio_encoding and config_get_stdio_errors (3.8+), init_sys_streams (3.7),
    initstdio (3.6). Returns (encoding, errors, failure or None)."""
    prof = facts.profile
    encoding = errors = source = None
    detail = []
    value = env("PYTHONIOENCODING")
    if value is not None:
        enc_part, _, err_part = value.partition(":")
        encoding = enc_part or None
        errors = err_part or None
        if encoding and not errors:
            errors = "strict"
        if encoding or errors:          # ":" alone sets nothing
            source = "PYTHONIOENCODING=" + value
            detail.append("PYTHONIOENCODING comes first")
    if mode:
        if encoding is None:
            encoding = "utf-8"
        if errors is None:
            errors = "strict" if mode == "strict" else "surrogateescape"
        detail.append("UTF-8 mode fills in what PYTHONIOENCODING leaves" if source else "UTF-8 mode")
        source = source or reasons["utf8_mode"].source
    if encoding is None:
        encoding = _locale_stdio_encoding(facts, codeset)
        detail.append("the encoding of the locale")
        source = source or "locale"
    else:
        codec = _lookup(encoding)
        if codec is None:
            return None, None, _stdio_codec_failure(prof, "LookupError: unknown encoding: %s" % encoding)
        if not getattr(codec, "_is_text_encoding", True):
            # 3.6/3.7 name the codec as typed, 3.8+ by its codec name.
            shown = codec.name if prof.normalizes_stdio_names else encoding
            return None, None, _stdio_codec_failure(prof, _not_text_message(prof, shown), streams=True)
    if facts.windows and facts.inputs.windows_console:
        encoding = "utf-8"
        detail.append("a Windows console is always UTF-8")
    if errors is None:
        errors, why = _default_stdio_errors(facts, name)
        detail.append(why)
    if prof.normalizes_stdio_names:
        encoding = codec_name(encoding)
    reasons["stdout"] = Reason(source or "locale", "; ".join(detail))
    return encoding, errors, None


def _locale_stdio_encoding(facts, codeset):
    if facts.windows:
        return "cp%d" % facts.inputs.ansi_code_page
    if not codeset and facts.profile.empty_codeset_is_utf8:
        return "utf-8"
    return codeset


def _default_stdio_errors(facts, name):
    if facts.windows:
        return "surrogateescape", "Windows stdio uses surrogateescape"
    if facts.profile.stdio_errors_rule == "3.6":
        # 3.6 initstdio: surrogateescape only in the C locale and only when
        # PYTHONIOENCODING names no encoding (bpo-19977).
        if name == "C":
            return "surrogateescape", "the C locale gets surrogateescape"
        return "strict", "strict outside the C locale"
    if name in C_LOCALE_NAMES or name in _STDIO_TARGET_NAMES:
        return "surrogateescape", "LC_CTYPE %s is the C locale or a coercion target: surrogateescape" % name
    return "strict", "LC_CTYPE %s is an ordinary locale: strict" % name


def _stdio_codec_failure(prof, lookup_line, streams=False):
    if prof.version < (3, 8) or streams:
        head = "can't initialize sys standard streams"
        function = {(3, 6): "Py_Initialize"}.get(prof.version, "init_sys_streams")
    else:
        head = "failed to get the Python codec name of the stdio encoding"
        function = "init_stdio_encoding"
    lines = ["Fatal Python error: %s: %s" % (function, head)]
    if prof.version >= (3, 8):
        lines.append("Python runtime state: core initialized")
    lines.append(lookup_line)
    # 3.6 and 3.7 abort() (SIGABRT: the shell shows 134); 3.8+ exit with status 1.
    return "\n".join(lines), (134 if prof.version < (3, 8) else 1)


def open_default(facts, mode, codeset, reasons):
    """open() without an encoding: io.text_encoding / locale.getpreferredencoding(False)."""
    prof = facts.profile
    if mode:
        errors = "strict" if mode == "strict" else prof.open_errors_in_utf8_mode
        reasons["open"] = Reason(reasons["utf8_mode"].source, "UTF-8 mode")
        return Stream(prof.utf8_spelling, errors)
    reasons["open"] = Reason("locale", "the locale encoding; open() is always strict")
    return Stream(_locale_encoding_name(facts, codeset), "strict")


def preferred_encoding(facts, mode, codeset, reasons):
    """locale.getpreferredencoding(False)."""
    if mode:
        reasons["preferred_encoding"] = Reason(reasons["utf8_mode"].source, "UTF-8 mode")
        return facts.profile.utf8_spelling
    reasons["preferred_encoding"] = Reason("locale", "nl_langinfo(CODESET) of LC_CTYPE")
    return _locale_encoding_name(facts, codeset)


def locale_encoding(facts, codeset, reasons):
    """locale.getencoding() (3.11+): the locale encoding, whatever UTF-8 mode says."""
    if not facts.profile.has_getencoding:
        return None
    reasons["locale_encoding"] = Reason("locale", "nl_langinfo(CODESET), ignoring UTF-8 mode")
    return _locale_encoding_name(facts, codeset)


def _locale_encoding_name(facts, codeset):
    if facts.windows:
        return "cp%d" % facts.inputs.ansi_code_page
    if facts.inputs.platform in _UTF8_LOCALE_PLATFORMS:
        return "utf-8"
    if not codeset and facts.profile.empty_codeset_is_utf8:
        return "utf-8"
    return codeset


# -- Refusal to start -------------------------------------------------------------------

def _usage_error(facts):
    return "\n".join([
        facts.line.error,
        "usage: %s [option] ... [-c cmd | -m mod | file | -] [arg] ..." % facts.inputs.argv0,
        "Try `python -h' for more information."])


def _usage_failure(facts, reasons, mode=None, coercion=None, before=()):
    return _failed(facts, reasons, _usage_error(facts), 2, "command line",
                   "CPython rejects the command line", mode=mode, coercion=coercion,
                   before=tuple(line for line in before if line))


def _failed(facts, reasons, message, code, source, detail, mode=None, coercion=None,
            before=(), complete=True):
    reasons["startup_error"] = Reason(source, detail)
    lines = tuple(before) + tuple(message.split("\n"))
    return Decision(
        python=facts.inputs.version, platform=facts.inputs.platform, policy=facts.profile.policy,
        startup_error=StartupError(message, code), legacy_c_locale=False,
        legacy_c_locale_source=None, coercion=coercion, coercion_warning=None,
        c_locale_warning=None, utf8_mode=mode if mode is not None else 0, lc_ctype=None,
        filesystem=None, stdin=None, stdout=None, stderr=None, open=None,
        preferred_encoding=None, locale_encoding=None, stderr_messages=lines,
        stderr_complete=complete, child_environ={}, reasons=reasons)
