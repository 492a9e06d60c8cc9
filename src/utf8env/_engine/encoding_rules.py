"""The rules of CPython's configuration (Python/initconfig.c, Python/pylifecycle.c): the
filesystem encoding, stdio, open()'s default, the preferred and the locale encodings,
after pre-initialisation has left UTF-8 mode and LC_CTYPE (locale_rules.py). Each rule as
policy.py's docstring says."""
from .decision import Failure, Reason, Stream, py_getenv
from .locale_rules import env_flag, legacy_windows_fs_encoding, pth_note
from .textnames import lookup as _lookup, split_pythonioencoding as _split_pythonioencoding
from .codecs_by_version import SITE_FAILURE as _SITE_FAILURE
from .codecs_by_version import codec_name as _version_codec, no_codec as _no_codec
from .codecs_by_version import startup_failure as _codec_failure
from .preconfig import C_LOCALE_NAMES as _C_LOCALE_NAMES
from .preconfig import COERCION_TARGET_NAMES as _COERCION_TARGET_NAMES
from .preconfig import UTF8_LOCALE_PLATFORMS as _UTF8_LOCALE_PLATFORMS
from .profiles import OEM_CODE_PAGES

# Platforms whose libc decodes bytes 0x80-0xff as Latin-1 in a locale that claims
# ASCII: CPython forces ASCII there (Python/fileutils.c check_force_ascii).
_FORCE_ASCII_PLATFORMS = ("freebsd", "sunos")
# Platforms where CPython hard-codes UTF-8 (Include/pyport.h _Py_FORCE_UTF8_FS_ENCODING;
# 3.6/3.7 bltinmodule.c on Apple). Android's locale: preconfig.UTF8_LOCALE_PLATFORMS.
_UTF8_FS_PLATFORMS = ("darwin", "android")


# -- Encodings --------------------------------------------------------------------------

def filesystem(context, pre):
    """config_init_fs_encoding (3.8+), initfsencoding (3.6/3.7)."""
    platform = context.inputs.platform
    if context.windows:
        if legacy_windows_fs_encoding(context):
            return Stream("mbcs", "replace"), Reason(
                "PYTHONLEGACYWINDOWSFSENCODING",
                "the legacy mbcs encoding (PEP 529)" + pth_note(context))
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
    return Failure("\n".join(lines), exit_code, Reason("locale", why), complete=False,
                    before=before)


def site_import(context, pre):
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
    return Failure("\n".join(_SITE_FAILURE), 1, Reason("site", why), complete=False)


def stdio(context, pre):
    """stdin and stdout: config_init_stdio_encoding and config_get_stdio_errors (3.8+),
    init_sys_streams (3.7), initstdio (3.6). A codec CPython cannot use gives a Failure."""
    prof = context.profile
    source = None
    detail = []
    value = py_getenv(context, context.use_environment, "PYTHONIOENCODING")
    encoding, errors = _split_pythonioencoding(value)
    if encoding or errors:              # ":" alone sets nothing
        source = "PYTHONIOENCODING=" + value
        detail.append("PYTHONIOENCODING comes first" + pth_note(context))
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
    return env_flag(py_getenv(context, context.use_environment, "PYTHONLEGACYWINDOWSSTDIO"))


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


def stderr(context, stdout, stdout_reason):
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
    return Failure("\n".join(lines), 134 if prof.version < (3, 8) else 1,
                    Reason("PYTHONIOENCODING", "the stdio codec cannot be used"), complete=False)


def open_encoding(context, pre):
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


def preferred_encoding(context, pre):
    """locale.getpreferredencoding(False)."""
    if pre.utf8_mode:
        return context.profile.utf8_spelling, Reason(pre.utf8_reason.source, "UTF-8 mode")
    if context.windows:
        return _locale_encoding_name(context, pre.codeset), Reason(
            context.code_page_source, context.code_page_detail)
    return _locale_encoding_name(context, pre.codeset), Reason(
        "locale", "nl_langinfo(CODESET) of LC_CTYPE")


def locale_encoding(context, pre):
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
