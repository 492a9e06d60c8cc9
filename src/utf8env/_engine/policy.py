"""The pure engine: decide(inputs) -> Decision.

Nothing here reads the process: no os.environ, no locale, no subprocess, no sys.flags.
The structure follows CPython's own start-up (Python/preconfig.c, Python/initconfig.c,
Python/pylifecycle.c): read the inputs, decide one field at a time with the
precedence written as an ordered chain of early returns, and remember for every value
the input that decided it (a Reason).

Every rule is named after the Decision field it decides, takes `(context, the values
it depends on)` and returns `(value, Reason)`; `(None, None)` where the field does not
apply. A rule that makes the interpreter refuse to start returns a _Failure as its
value. No rule reads another's result except through its arguments: decide() alone
calls them in CPython's order, collects the Reasons, and hands everything to
_decision(), the one place a Decision is made.
"""
from .records import Record, field
from . import UsageError

from . import cmdline, preconfig
from .textnames import lookup as _lookup, split_pythonioencoding as _split_pythonioencoding
from .codecs_by_version import SITE_FAILURE as _SITE_FAILURE
from .codecs_by_version import codec_name as _version_codec, no_codec as _no_codec
from .codecs_by_version import startup_failure as _codec_failure
from .preconfig import C_LOCALE_NAMES as _C_LOCALE_NAMES
from .preconfig import COERCION_TARGET_NAMES as _COERCION_TARGET_NAMES
from .preconfig import UTF8_LOCALE_PLATFORMS as _UTF8_LOCALE_PLATFORMS
from .profiles import EMBEDDED, POLICIES, PLATFORMS, VERSIONS, profile as _profile
from .profiles import CODE_PAGES, DEFAULT_CODE_PAGE, OEM_CODE_PAGES
from .profiles import embedded_kinds as _embedded_kinds, embedding as _embedding

# What nl_langinfo(CODESET) says in the C locale, where no facts say otherwise.
_C_CODESET = {"darwin": "US-ASCII", "freebsd": "US-ASCII", "openbsd": "US-ASCII",
              "netbsd": "646", "sunos": "646", "aix": "ISO8859-1", "android": "UTF-8"}
# Platforms whose libc decodes bytes 0x80-0xff as Latin-1 in a locale that claims
# ASCII: CPython forces ASCII there (Python/fileutils.c check_force_ascii).
_FORCE_ASCII_PLATFORMS = ("freebsd", "sunos")
# Platforms where CPython hard-codes UTF-8 (Include/pyport.h _Py_FORCE_UTF8_FS_ENCODING;
# 3.6/3.7 bltinmodule.c on Apple). Android's locale: preconfig.UTF8_LOCALE_PLATFORMS.
_UTF8_FS_PLATFORMS = ("darwin", "android")


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
    ansi_code_page = field(None)        # win32: GetACP(), one of profiles.CODE_PAGES; None:
                                        # not given, 1252 assumed (and said in the Reasons)
    embedded = field(None)              # None: the python command; else how a C program starts
                                        # it: "initialize", "python-config", "isolated-config"
    pth_files = field(None)             # the site module finds a .pth file in a site-packages
                                        # folder it reads: True, False; None: not known, True
                                        # assumed (and said in the Reasons)


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


class InvalidInput(UsageError, ValueError):
    """An input decide() cannot model (unknown version, policy or platform). A UsageError
    (exit status 2), and still a ValueError for callers written before the error tree."""


class _Context(Record):
    """What every rule may read: the inputs, the profile of the interpreter they describe
    (redistributor switches applied) and its parsed command line. Nothing decided."""
    inputs = field()
    profile = field()
    line = field()                      # cmdline.CommandLine
    windows = field()                   # sys.platform == "win32"
    embedding = field(None)             # profiles._Embedding, None for the python command

    @property
    def use_environment(self):
        """PyConfig.use_environment: false under -E or -I, and in the isolated
        configuration of an embedded interpreter."""
        return not self.line.ignore_environment and (
            self.embedding is None or self.embedding.use_environment)

    @property
    def code_page(self):
        """GetACP() on the target: the ANSI code page given, else the one assumed."""
        given = self.inputs.ansi_code_page
        return DEFAULT_CODE_PAGE if given is None else given

    @property
    def code_page_source(self):
        """The input that names the code page, for the Reasons it decides."""
        return "code page %d" % self.code_page

    @property
    def code_page_detail(self):
        """The ANSI code page in words, saying when it is assumed rather than given."""
        if self.inputs.ansi_code_page is None:
            return "the ANSI code page, GetACP() = %d (assumed: no code page was given)" % (
                DEFAULT_CODE_PAGE)
        return "the ANSI code page, GetACP() = %d" % self.code_page

    @property
    def configures_locale(self):
        """PyPreConfig.configure_locale: LC_CTYPE is set from the environment (and may be
        coerced); false in the isolated configuration of an embedded interpreter."""
        return self.embedding is None or self.embedding.configure_locale


class _Preconfig(Record):
    """What pre-initialisation leaves for the configuration to read (Python/preconfig.c
    _PyPreConfig_Read and _PyPreConfig_Write: UTF-8 mode, then LC_CTYPE as set)."""
    utf8_mode = field()                 # 0, 1 or "strict"
    utf8_reason = field()               # the Reason of utf8_mode: what the encodings cite
    lc_ctype = field()                  # after any coercion
    codeset = field()                   # nl_langinfo(CODESET) of lc_ctype


class _Failure(Record):
    """The value of a rule that makes the interpreter refuse to start."""
    message = field()                   # what it prints, lines joined by "\n"
    exit_code = field()
    reason = field()                    # the Reason of Decision.startup_error
    complete = field(True)              # False: a traceback follows the message
    before = field(())                  # lines printed before the message (stderr_messages only)


def decide(inputs):
    """Decide the text configuration a CPython would start with, from `inputs` alone."""
    context = _context(inputs)
    reasons = {}
    if context.line.error and not context.profile.preconfig_first:
        # 3.6/3.7 parse the whole command line before reading any configuration.
        return _decision(context, reasons, _usage_error(context))

    # Python/preconfig.c: UTF-8 mode and the coercion, both decided on the locale
    # before coercion (PEP 538 "Interaction with PEP 540").
    if not context.profile.coercion:
        # Decided when the interpreter was built: shown even when preconfig fails.
        reasons["coercion"] = _no_coercion_built(context)
    allowed, warn = _coerce_c_locale(context)
    environ = dict(inputs.environ)          # the locale variables, as setlocale() reads them
    initial, source = _setlocale(context, environ)
    mode, reasons["utf8_mode"] = _utf8_mode(context, initial, source)
    if isinstance(mode, _Failure):
        return _decision(context, reasons, mode)
    legacy, reasons["legacy_c_locale"] = _legacy_c_locale(context, initial, source)
    (coercion, coercion_warning), reasons["coercion"] = _coercion(
        context, legacy, reasons["legacy_c_locale"], allowed, warn, environ)
    printed = _printed(coercion_warning)
    if context.line.error:
        # 3.8+ pre-initialise before they parse the whole command line
        # (Python/preconfig.c _PyPreCmdline_Read tolerates errors).
        return _decision(context, reasons, _usage_error(context), utf8_mode=mode,
                         coercion=coercion, stderr_messages=printed)
    if coercion:
        environ.update(coercion.environ)
    lc_ctype, reasons["lc_ctype"] = _lc_ctype(context, environ, coercion)
    c_warning, reasons["c_locale_warning"] = _c_locale_warning(context, lc_ctype, warn)
    printed += _printed(c_warning)
    pre = _Preconfig(mode, reasons["utf8_mode"], lc_ctype, _codeset(context, lc_ctype))
    # What preconfig decided stands when a codec lookup after it stops the start-up.
    reached = dict(legacy_c_locale=legacy, legacy_c_locale_source=source if legacy else None,
                   coercion=coercion, coercion_warning=coercion_warning,
                   c_locale_warning=c_warning, utf8_mode=mode, lc_ctype=lc_ctype,
                   stderr_messages=printed)

    # Python/initconfig.c: the encodings, from what preconfig left; their codecs are
    # looked up filesystem first, then stdio (pylifecycle.c, _PyUnicode_InitEncodings).
    filesystem, reasons["filesystem"] = _filesystem(context, pre)
    if isinstance(filesystem, _Failure):
        return _decision(context, reasons, filesystem, **reached)
    stdout, reasons["stdout"] = _stdio(context, pre)
    if isinstance(stdout, _Failure):
        return _decision(context, reasons, stdout, **reached)
    reasons["stdin"] = reasons["stdout"]
    stderr, reasons["stderr"] = _stderr(context, stdout, reasons["stdout"])
    open_default, reasons["open"] = _open(context, pre)
    preferred, reasons["preferred_encoding"] = _preferred_encoding(context, pre)
    locale_encoding, reasons["locale_encoding"] = _locale_encoding(context, pre)
    # Python/pylifecycle.c init_import_site, the last step of start-up.
    site = _site_import(context, pre)
    if site is not None:
        return _decision(context, reasons, site, **reached)
    child, reasons["child_environ"] = _child_environ(context, environ)
    printed, reasons["stderr_messages"] = _stderr_messages(context, printed)
    return _decision(
        context, reasons, None, legacy_c_locale=legacy,
        legacy_c_locale_source=source if legacy else None, coercion=coercion,
        coercion_warning=coercion_warning, c_locale_warning=c_warning, utf8_mode=mode,
        lc_ctype=lc_ctype, filesystem=filesystem, stdin=stdout, stdout=stdout,
        stderr=stderr, open=open_default, preferred_encoding=preferred,
        locale_encoding=locale_encoding, stderr_messages=printed, child_environ=child)


# What a start-up that fails reports for the fields it never reached.
_NOT_STARTED = {
    "legacy_c_locale": False, "legacy_c_locale_source": None, "coercion": None,
    "coercion_warning": None, "c_locale_warning": None, "utf8_mode": 0, "lc_ctype": None,
    "filesystem": None, "stdin": None, "stdout": None, "stderr": None, "open": None,
    "preferred_encoding": None, "locale_encoding": None, "stderr_messages": ()}


_ENCODINGS = ("filesystem", "stdin", "stdout", "stderr", "open", "preferred_encoding",
              "locale_encoding")


def _decision(context, reasons, failure, **fields):
    """The one place a Decision is made. With a `failure`, `fields` holds only what
    preconfig did before it (UTF-8 mode, the coercion a child would see, the lines
    already printed); the rest is what a start-up that never ran reports."""
    reasons = {key: reason for key, reason in reasons.items() if reason is not None}
    startup_error = None
    if failure is not None:
        # Start-up stopped before any encoding was reported: none has a reason.
        reasons = {key: reason for key, reason in reasons.items() if key not in _ENCODINGS}
        startup_error = StartupError(failure.message, failure.exit_code)
        reasons["startup_error"] = failure.reason
        fields = dict(_NOT_STARTED, child_environ={}, **fields)
        fields["stderr_messages"] += failure.before + tuple(failure.message.split("\n"))
    fields.update(python=context.inputs.version, platform=context.inputs.platform,
                  policy=context.profile.policy, startup_error=startup_error,
                  stderr_complete=failure is None or failure.complete, reasons=reasons)
    # By name, without Record's keyword path: a launch makes this once, decide() callers
    # such as the matrix thousands of times.
    return Decision._make([fields[name] for name in Decision._fields])


def _context(inputs):
    if inputs.version not in VERSIONS:
        raise InvalidInput("version %r: expected one of %s" % (inputs.version, ", ".join(VERSIONS)))
    if inputs.policy is not None and inputs.policy not in POLICIES:
        raise InvalidInput("policy %r: expected one of %s" % (inputs.policy, ", ".join(POLICIES)))
    if inputs.platform not in PLATFORMS:
        raise InvalidInput("platform %r: expected one of %s" % (inputs.platform, ", ".join(PLATFORMS)))
    embedding = None
    if inputs.embedded is not None:
        if inputs.embedded not in EMBEDDED:
            raise InvalidInput("embedded %r: expected one of %s"
                               % (inputs.embedded, ", ".join(EMBEDDED)))
        kinds = _embedded_kinds(inputs.version)
        if inputs.embedded not in kinds:
            raise InvalidInput("embedded %r: CPython %s has no PyConfig (PEP 587 is 3.8+): "
                               "expected %s" % (inputs.embedded, inputs.version, " or ".join(kinds)))
        embedding = _embedding(inputs.embedded, inputs.version)
    if inputs.ansi_code_page is not None and inputs.ansi_code_page not in CODE_PAGES:
        raise InvalidInput("code page %r: not an ANSI code page of Windows: expected one of %s"
                           % (inputs.ansi_code_page, ", ".join(str(cp) for cp in CODE_PAGES)))
    prof = _profile(inputs.policy or inputs.version, inputs.version)
    if inputs.coercion_switch is not None or inputs.warning_switch is not None:
        coercion, warn_by_default, legacy_warning = preconfig.built(
            prof.coercion, prof.warn_by_default, prof.legacy_warning, inputs.coercion_switch,
            inputs.warning_switch, inputs.platform)
        prof = prof._replace(coercion=coercion, warn_by_default=warn_by_default,
                             legacy_warning=legacy_warning)
    # The command line is parsed as the target version parses it, whatever the policy; an
    # embedded interpreter parses one only from the Python configuration (parse_argv=1).
    args = inputs.args if embedding is None or embedding.parse_argv else ()
    line = cmdline.parse(list(args), tuple(int(part) for part in inputs.version.split(".")))
    return _Context(inputs, prof, line, inputs.platform == "win32", embedding)


def _py_getenv(context, use_environment, name):
    """Python/initconfig.c _Py_GetEnv(use_environment, name): a PYTHON* variable as
    start-up reads it. -E/-I (use_environment false) hide it; empty counts as unset."""
    if not use_environment:
        return None
    return context.inputs.environ.get(name) or None


def _printed(*lines):
    return tuple(line for line in lines if line)


# -- PEP 538: the legacy C locale and its coercion --------------------------------------

def _setlocale(context, environ):
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


def _codeset(context, name):
    """nl_langinfo(CODESET) once LC_CTYPE is `name`."""
    locales = context.inputs.locales
    if name == "C":
        if locales.c_codeset is not None:
            return locales.c_codeset
        return _C_CODESET.get(context.inputs.platform, "ANSI_X3.4-1968")
    if context.inputs.platform in _UTF8_LOCALE_PLATFORMS:
        return "UTF-8"
    return locales.codesets.get(name, "")


def _coerce_c_locale(context):
    """PYTHONCOERCECLOCALE (preconfig.coerce_c_locale). Returns (coercion allowed,
    warnings printed)."""
    prof = context.profile
    # The PEP 538 draft reads it even under -E/-I (seed 002, "Specification").
    embedding = context.embedding
    read = embedding is None or embedding.reads_coerce_variable
    value = _py_getenv(context, read and (context.use_environment or prof.coercion_env_ignores_E),
                       "PYTHONCOERCECLOCALE")
    allowed, warn = preconfig.coerce_c_locale(value, prof.coercion, prof.warn_by_default,
                                              prof.legacy_warning, context.inputs.warning_switch)
    if embedding is not None:
        # The compat and isolated configurations set coerce_c_locale=0 and
        # coerce_c_locale_warn=0; 3.7's Py_Initialize() warns but never coerces.
        allowed = allowed and embedding.coerces
        warn = warn and read
    return allowed, warn


def _no_coercion_built(context):
    prof = context.profile
    return Reason("build", preconfig.NOT_BUILT
                  + (" (it predates PEP 538)" if prof.version < (3, 7) and prof.policy in VERSIONS
                     else ""))


def _legacy_c_locale(context, lc_ctype, source):
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


def _coercion(context, legacy, legacy_reason, allowed, warn, environ):
    """_Py_CoerceLegacyLocale (preconfig.coercion). Returns ((Coercion or None, the
    warning printed or None), Reason)."""
    prof = context.profile
    if not prof.coercion:
        return (None, None), _no_coercion_built(context)
    embedded = _embedded_coercion(context.embedding)
    if embedded is not None:
        return (None, None), embedded
    (coerced, warning), reason = preconfig.coercion(
        legacy, legacy_reason.source, allowed, warn, environ, prof.targets,
        prof.lc_all_blocks_coercion,
        lambda name: context.inputs.locales.accepts(name) and bool(_codeset(context, name)))
    return (Coercion(*coerced) if coerced else None, warning), Reason(*reason)


def _lc_ctype(context, environ, coercion):
    """LC_CTYPE once started: setlocale(LC_CTYPE, "") again, after any coercion."""
    name, source = _setlocale(context, environ)
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


def _c_locale_warning(context, lc_ctype, warn):
    """The warning when LC_CTYPE is still C once initialised (preconfig.c_locale_warning)."""
    prof = context.profile
    text, reason = preconfig.c_locale_warning(lc_ctype, warn, prof.legacy_warning,
                                              prof.warn_by_default, context.windows)
    return text, Reason(*reason) if reason else None


# -- PEP 540: UTF-8 mode ----------------------------------------------------------------

def _legacy_windows_fs_encoding(context):
    """PYTHONLEGACYWINDOWSFSENCODING (preconfig_init_legacy_windows_fs_encoding): a
    setting, read by UTF-8 mode (which it beats) and the filesystem encoding; modelled
    only where a UTF-8 mode exists."""
    if not context.windows or not context.profile.utf8_mode:
        return False
    return _env_flag(_py_getenv(context, context.use_environment,
                                "PYTHONLEGACYWINDOWSFSENCODING"))


def _env_flag(value):
    """A flag variable as _Py_get_env_flag reads it: unset is off, "0" is off; any other
    integer, or a non-integer, is on."""
    if value is None:
        return False
    try:
        return int(value) != 0
    except ValueError:
        return True


def _utf8_mode(context, lc_ctype, source):
    """preconfig_init_utf8_mode, highest priority first, ending with the locale before
    coercion (PEP 540 "Proposal": the POSIX locale turns UTF-8 mode on). A value CPython
    refuses gives a _Failure."""
    prof = context.profile
    if not prof.utf8_mode:
        return 0, Reason("version", "CPython %d.%d has no UTF-8 mode (PEP 540 is 3.7+)" % prof.version)
    if _legacy_windows_fs_encoding(context):
        return 0, Reason("PYTHONLEGACYWINDOWSFSENCODING",
                         "the legacy Windows filesystem encoding beats UTF-8 mode"
                         + _pth_note(context))
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
    value = _py_getenv(context, context.use_environment, "PYTHONUTF8")
    if value is not None:
        variable = "PYTHONUTF8=" + value
        mode = _mode_value(prof, value, bare=False)
        if mode is None:
            return (_refused(prof, variable, "invalid PYTHONUTF8 environment variable value"),
                    Reason(variable, "not a valid PYTHONUTF8 value " + valid))
        return mode, Reason(variable, "PYTHONUTF8 decides when no -X utf8 is given"
                            + _pth_note(context))
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


def _pth_note(context):
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
    return _Failure("\n".join(lines), 1,
                    Reason(source, "the value is refused before the interpreter starts"))


# -- Encodings --------------------------------------------------------------------------

def _filesystem(context, pre):
    """config_init_fs_encoding (3.8+), initfsencoding (3.6/3.7)."""
    platform = context.inputs.platform
    if context.windows:
        if _legacy_windows_fs_encoding(context):
            return Stream("mbcs", "replace"), Reason(
                "PYTHONLEGACYWINDOWSFSENCODING",
                "the legacy mbcs encoding (PEP 529)" + _pth_note(context))
        return Stream("utf-8", "surrogatepass"), Reason(
            "platform", "Windows uses UTF-8 for the filesystem (PEP 529)")
    if platform in _UTF8_FS_PLATFORMS:
        return Stream("utf-8", "surrogateescape"), Reason(
            "platform", "%s always uses UTF-8 for the filesystem" % platform)
    if pre.utf8_mode:
        return Stream("utf-8", "surrogateescape"), Reason(pre.utf8_reason.source, "UTF-8 mode")
    if platform in _FORCE_ASCII_PLATFORMS and pre.lc_ctype in _C_LOCALE_NAMES \
            and context.profile.version >= (3, 7):
        return Stream("ascii", "surrogateescape"), Reason(
            "platform", "the libc claims ASCII but decodes Latin-1: CPython forces ASCII")
    if not pre.codeset and context.profile.empty_codeset_is_utf8:
        return Stream("utf-8", "surrogateescape"), Reason("locale", "the locale has no codeset: UTF-8")
    codec = _version_codec(pre.codeset, context.profile.version) if pre.codeset else pre.codeset
    if codec is None:
        return _locale_codec_failure(context, pre), None
    return Stream(codec, "surrogateescape"), Reason(
        "locale", "the locale encoding of LC_CTYPE %s" % pre.lc_ctype)


def _locale_codec_failure(context, pre):
    """The locale's codeset has no codec in this version (measured: codecs_by_version)."""
    before, lines, exit_code = _codec_failure(pre.codeset, context.profile.version)
    why = ("%s, the codeset of LC_CTYPE %s: the filesystem encoding comes from the locale "
           "when UTF-8 mode is off" % (_no_codec(pre.codeset, context.inputs.version),
                                      pre.lc_ctype))
    return _Failure("\n".join(lines), exit_code, Reason("locale", why), complete=False,
                    before=before)


def _site_import(context, pre):
    """init_import_site: 3.11 and 3.12 read every .pth file of site-packages with the locale
    encoding even in UTF-8 mode (Lib/site.py addpackage: encoding="locale"; 3.13 tries
    UTF-8 first), so a codeset without a codec stops them there. None where it starts."""
    version = context.profile.version
    if not (3, 11) <= version < (3, 13) or not pre.utf8_mode or context.windows \
            or context.line.no_site or not pre.codeset or context.inputs.pth_files is False \
            or _version_codec(pre.codeset, version) is not None:
        return None
    why = ("%s, the codeset of LC_CTYPE %s, and 3.11 and 3.12 read the .pth files of "
           "site-packages with it even in UTF-8 mode: the traceback ends in LookupError: "
           "unknown encoding: %s (-S avoids it)%s" % (
               _no_codec(pre.codeset, context.inputs.version), pre.lc_ctype, pre.codeset,
               "" if context.inputs.pth_files else
               "; assumed: a .pth file is there (whether one is was not given)"))
    return _Failure("\n".join(_SITE_FAILURE), 1, Reason("site", why), complete=False)


def _stdio(context, pre):
    """stdin and stdout: config_init_stdio_encoding and config_get_stdio_errors (3.8+),
    init_sys_streams (3.7), initstdio (3.6). A codec CPython cannot use gives a _Failure."""
    prof = context.profile
    source = None
    detail = []
    value = _py_getenv(context, context.use_environment, "PYTHONIOENCODING")
    encoding, errors = _split_pythonioencoding(value)
    if encoding or errors:              # ":" alone sets nothing
        source = "PYTHONIOENCODING=" + value
        detail.append("PYTHONIOENCODING comes first" + _pth_note(context))
    elif context.embedding is not None and not context.use_environment \
            and context.inputs.environ.get("PYTHONIOENCODING"):
        detail.append("PYTHONIOENCODING is not read (use_environment=0)")
    if pre.utf8_mode:
        if encoding is None:
            encoding = "utf-8"
        if errors is None:
            errors = "strict" if pre.utf8_mode == "strict" else "surrogateescape"
        detail.append("UTF-8 mode fills in what PYTHONIOENCODING leaves" if source else "UTF-8 mode")
        source = source or pre.utf8_reason.source
    from_locale = encoding is None
    if from_locale and context.windows:
        encoding = _locale_stdio_encoding(context, pre.codeset)
        detail.append(context.code_page_detail)
        source = source or context.code_page_source
    elif from_locale:
        encoding = _locale_stdio_encoding(context, pre.codeset)
        detail.append("the encoding of the locale")
        source = source or "locale"
    else:
        if _version_codec(encoding, prof.version, context.inputs.platform) is None:
            return _stdio_codec_failure(prof, "LookupError: unknown encoding: %s" % encoding), None
        # Whether a codec is a text encoding is the same in every version 3.6-3.15.
        codec = _lookup(encoding)
        if codec is not None and not getattr(codec, "_is_text_encoding", True):
            # 3.6/3.7 name the codec as typed, 3.8+ by its codec name.
            shown = codec.name if prof.normalizes_stdio_names else encoding
            return _stdio_codec_failure(prof, _not_text_message(prof, shown), streams=True), None
    if context.windows and context.inputs.windows_console:
        encoding, why, decided = _console_encoding(context, encoding, from_locale)
        if decided and from_locale:
            detail.pop()                # not the code page, then
        detail.append(why)
        source = "console" if decided else source
    if errors is None:
        errors, why = _default_stdio_errors(context, pre.lc_ctype)
        detail.append(why)
    if prof.normalizes_stdio_names:
        encoding = _version_codec(encoding, prof.version, context.inputs.platform) or encoding
    return Stream(encoding, errors), Reason(source or "locale", "; ".join(detail))


def _legacy_windows_stdio(context):
    """PYTHONLEGACYWINDOWSSTDIO (PEP 528): a console is read and written as bytes, as
    before 3.6. Parsed as _Py_get_env_flag does (3.8+): "0" is off."""
    return _env_flag(_py_getenv(context, context.use_environment, "PYTHONLEGACYWINDOWSSTDIO"))


# Console values are read from CPython's source, and were measured for CPython 3.8-3.13 at
# code pages 1252 and 932 in the console Wine 8 gives a program started under a terminal
# (tests/test_windows_console.py): Wine's console is not conhost, but CPython takes its
# console path there. Elsewhere they are modelled.
_CONSOLE_MEASURED = (("3.8", "3.9", "3.10", "3.11", "3.12", "3.13"), (1252, 932))
_MODELLED = "modelled from CPython's source, not measured"
_MEASURED = "measured in Wine's console with CPython 3.8-3.13 at code pages 1252 and 932"


def _console_known(context):
    """How a console value is known for this start: measured or modelled."""
    versions, pages = _CONSOLE_MEASURED
    inputs = context.inputs
    if (inputs.version in versions and inputs.policy in (None, inputs.version)
            and context.code_page in pages):
        return _MEASURED
    return _MODELLED


def _console_encoding(context, encoding, from_locale):
    """stdin and stdout on a Windows console (create_stdio, Modules/_io/_iomodule.c).
    Returns (encoding, why, whether the console decided it)."""
    if _legacy_windows_stdio(context):
        if from_locale and context.profile.version < (3, 8):
            # 3.6/3.7 give TextIOWrapper no encoding: it asks os.device_encoding(fd).
            oem = OEM_CODE_PAGES[context.code_page]
            return "cp%d" % oem, (
                "PYTHONLEGACYWINDOWSSTDIO: the console as bytes (FileIO), and TextIOWrapper "
                "takes the console's code page, GetConsoleOutputCP(): the OEM code page %d "
                "that goes with code page %d unless chcp changed it (%s)"
                % (oem, context.code_page, _console_known(context))), True
        return encoding, ("PYTHONLEGACYWINDOWSSTDIO: the console as bytes (FileIO) with this "
                          "encoding (%s)" % _console_known(context)), False
    return "utf-8", ("a console: stdio is _WindowsConsoleIO, which reports utf-8 and writes "
                     "UTF-16 through WriteConsoleW whatever the code page (PEP 528; %s)"
                     % _console_known(context)), True


def _stderr(context, stdout, stdout_reason):
    """Every version, whatever PYTHONIOENCODING says: create_stdio(..., "backslashreplace")."""
    return Stream(stdout.encoding, "backslashreplace"), Reason(
        stdout_reason.source, "stderr uses the stdout encoding with backslashreplace, always")


def _locale_stdio_encoding(context, codeset):
    if context.windows:
        return "cp%d" % context.code_page
    if not codeset and context.profile.empty_codeset_is_utf8:
        return "utf-8"
    return codeset


def _default_stdio_errors(context, lc_ctype):
    if context.windows:
        return "surrogateescape", "Windows stdio uses surrogateescape whatever the locale"
    if context.profile.stdio_errors_rule == "3.6":
        # 3.6 initstdio: surrogateescape only in the C locale and only when
        # PYTHONIOENCODING names no encoding (bpo-19977).
        if lc_ctype == "C":
            return "surrogateescape", "the C locale gets surrogateescape"
        return "strict", "strict outside the C locale"
    if lc_ctype in _C_LOCALE_NAMES or lc_ctype in _COERCION_TARGET_NAMES:
        return "surrogateescape", ("LC_CTYPE %s is the C locale or a coercion target: "
                                   "surrogateescape" % lc_ctype)
    return "strict", "LC_CTYPE %s is an ordinary locale: strict" % lc_ctype


def _not_text_message(prof, name):
    text = "LookupError: '%s' is not a text encoding" % name
    # 3.14 dropped the advice from the message (Lib/codecs.py / _PyCodec_LookupTextEncoding).
    return text if prof.version >= (3, 14) else text + "; use codecs.open() to handle arbitrary codecs"


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
    return _Failure("\n".join(lines), 134 if prof.version < (3, 8) else 1,
                    Reason("PYTHONIOENCODING", "the stdio codec cannot be used"), complete=False)


def _open(context, pre):
    """open() without an encoding: io.text_encoding / locale.getpreferredencoding(False)."""
    if pre.utf8_mode:
        errors = "strict" if pre.utf8_mode == "strict" else context.profile.open_errors_in_utf8_mode
        return Stream(context.profile.utf8_spelling, errors), Reason(pre.utf8_reason.source, "UTF-8 mode")
    if context.windows:
        return Stream(_locale_encoding_name(context, pre.codeset), "strict"), Reason(
            context.code_page_source, context.code_page_detail + "; open() is always strict"
            + ("" if not context.inputs.windows_console else
               ", and a console changes nothing for files"))
    return Stream(_locale_encoding_name(context, pre.codeset), "strict"), Reason(
        "locale", "the locale encoding; open() is always strict")


def _preferred_encoding(context, pre):
    """locale.getpreferredencoding(False)."""
    if pre.utf8_mode:
        return context.profile.utf8_spelling, Reason(pre.utf8_reason.source, "UTF-8 mode")
    if context.windows:
        return _locale_encoding_name(context, pre.codeset), Reason(
            context.code_page_source, context.code_page_detail)
    return _locale_encoding_name(context, pre.codeset), Reason(
        "locale", "nl_langinfo(CODESET) of LC_CTYPE")


def _locale_encoding(context, pre):
    """locale.getencoding() (3.11+): the locale encoding, whatever UTF-8 mode says."""
    if not context.profile.has_getencoding:
        return None, None
    if context.windows:
        return _locale_encoding_name(context, pre.codeset), Reason(
            context.code_page_source, context.code_page_detail + ", ignoring UTF-8 mode")
    return _locale_encoding_name(context, pre.codeset), Reason(
        "locale", "nl_langinfo(CODESET), ignoring UTF-8 mode")


def _locale_encoding_name(context, codeset):
    if context.windows:
        return "cp%d" % context.code_page
    if context.inputs.platform in _UTF8_LOCALE_PLATFORMS:
        return "utf-8"
    if not codeset and context.profile.empty_codeset_is_utf8:
        return "utf-8"
    return codeset


# -- What the start-up leaves behind ----------------------------------------------------

def _child_environ(context, environ):
    """What differs from the given environment once started: the coerced locale."""
    given = context.inputs.environ
    child = {key: value for key, value in environ.items() if given.get(key) != value}
    if child:
        return child, Reason("coercion", "the coerced locale is exported to every child process")
    return child, Reason("default", "nothing is exported: UTF-8 mode reaches a child only "
                                    "through PYTHONUTF8 or -X utf8 on its own command line")


def _stderr_messages(context, printed):
    """The locale warnings, in the order start-up prints them."""
    if printed:
        return printed, Reason("PYTHONCOERCECLOCALE", "the locale warnings printed at start-up")
    return printed, Reason("default", "nothing is printed at start-up")


def _usage_error(context):
    # Python/getopt.c prints the error, then usage() two lines (Modules/main.c); status 2.
    message = "\n".join([
        context.line.error,
        "usage: %s [option] ... [-c cmd | -m mod | file | -] [arg] ..." % context.inputs.argv0,
        "Try `python -h' for more information."])
    return _Failure(message, 2, Reason("command line", "CPython rejects the command line"))
