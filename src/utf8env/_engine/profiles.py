"""The data that differs between CPython versions and the seeds' drafts.

A _Profile is a flat record: policy.py holds the rules, this module only says which
variant of each rule a version uses. A draft ("pep538-draft", "pep540-draft") is an
overlay on the profile of the target version: "this Python, had the PEP shipped as
drafted".
"""
from . import preconfig
from .records import Record, field

VERSIONS = ("3.6", "3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14", "3.15")
_DRAFTS = ("pep538-draft", "pep540-draft")
POLICIES = VERSIONS + _DRAFTS
# How a C program starts an embedded interpreter (`explain --embedded KIND`): Py_Initialize()
# (every version), and the PEP 587 configurations (3.8+) given to Py_InitializeFromConfig().
EMBEDDED = ("initialize", "python-config", "isolated-config")
PLATFORMS = ("linux", "android", "darwin", "freebsd", "openbsd", "netbsd", "sunos",
             "aix", "cygwin", "win32")
# The ANSI code pages GetACP() returns on Windows (a system locale's code page; 65001 with
# "Beta: Use Unicode UTF-8 for worldwide language support"), and the one assumed when none
# is given: 1252, Western Europe and the Americas. OEM code pages (437, 850...) are the
# console's, never GetACP()'s.
CODE_PAGES = (874, 932, 936, 949, 950, 1250, 1251, 1252, 1253, 1254, 1255, 1256, 1257,
              1258, 65001)
DEFAULT_CODE_PAGE = 1252
# The console's code page (GetConsoleOutputCP()) a system locale of each ANSI code page
# starts with: its OEM code page (the US one for 1252; Western Europe has 850).
OEM_CODE_PAGES = {874: 874, 932: 932, 936: 936, 949: 949, 950: 950, 1250: 852, 1251: 866,
                  1252: 437, 1253: 737, 1254: 857, 1255: 862, 1256: 720, 1257: 775,
                  1258: 1258, 65001: 65001}

# The legacy-locale warning as shipped: preconfig.py holds PEP 538's texts and targets.
SHIPPED_LEGACY_WARNING = preconfig.SHIPPED_LEGACY_WARNING


def platform_name(platform):
    """A sys.platform value as a policy platform name ("linux2", "freebsd13" -> "linux", "freebsd")."""
    for prefix in ("linux", "freebsd", "openbsd", "netbsd", "sunos", "aix", "cygwin"):
        if platform.startswith(prefix):
            return prefix
    return platform


class _Profile(Record):
    policy = field()                # "3.9", "pep538-draft", ...
    version = field()               # the interpreter the profile describes
    source = field()                # what the rules of this profile were read from
    # PEP 538
    coercion = field()              # the interpreter coerces the legacy C locale at all
    targets = field()               # (locale, variables set, warning): preconfig.SHIPPED_TARGETS
    warn_by_default = field()       # W1/W2 printed without PYTHONCOERCECLOCALE=warn
    coercion_env_ignores_E = field()  # PYTHONCOERCECLOCALE read even under -E/-I
    lc_all_blocks_coercion = field()  # a non-empty LC_ALL means "the user chose": no coercion
    legacy_warning = field()        # W2 text, None where the version has none
    # PEP 540
    utf8_mode = field()             # -X utf8 / PYTHONUTF8 exist
    utf8_by_default = field()       # PEP 686: on unless turned off
    strict_mode = field()           # -X utf8=strict / PYTHONUTF8=strict (draft only)
    open_errors_in_utf8_mode = field()  # open()'s error handler in UTF-8 mode
    utf8_error_function = field()   # the C function named by the fatal error
    fatal_error_state = field()     # the fatal error adds "Python runtime state: ..."
    # Names as this version reports them
    normalizes_stdio_names = field()  # 3.8+: sys.std*.encoding is a codec name
    utf8_spelling = field()         # getpreferredencoding()/open() in UTF-8 mode
    has_getencoding = field()       # locale.getencoding() (3.11+)
    stdio_errors_rule = field()     # "3.6" or "3.7": which strict/surrogateescape rule
    empty_codeset_is_utf8 = field()  # 3.10+: an empty nl_langinfo(CODESET) means UTF-8
    preconfig_first = field()       # 3.8+: UTF-8 mode and coercion happen before usage errors


def _released(minor):
    version = (3, minor)
    after_pep538 = minor >= 7
    # Before PEP 538: the settings of 3.7 where they mean nothing, no targets, no warning.
    pep538 = preconfig.SHIPPED if after_pep538 else dict(preconfig.SHIPPED, targets=(),
                                                         legacy_warning=None)
    return _Profile(
        policy="3.%d" % minor,
        version=version,
        source="CPython 3.%d as released" % minor,
        coercion=after_pep538,
        utf8_mode=after_pep538,
        utf8_by_default=minor >= 15,
        strict_mode=False,
        open_errors_in_utf8_mode="strict",
        utf8_error_function="config_init_utf8_mode" if minor == 7 else "preconfig_init_utf8_mode",
        fatal_error_state=minor >= 8,
        normalizes_stdio_names=minor >= 8,
        utf8_spelling="utf-8" if minor >= 11 else "UTF-8",
        has_getencoding=minor >= 11,
        stdio_errors_rule="3.7" if after_pep538 else "3.6",
        empty_codeset_is_utf8=minor >= 10,
        preconfig_first=minor >= 8,
        **pep538)


def version_key(version):
    """A Python version ("3.9", "3.13") as versions sort: by number; a name that is not
    one (never from an interpreter asked) after them, by its text."""
    try:
        return 0, tuple(int(n) for n in version.split(".")), ""
    except ValueError:
        return 1, (), version


def warns_default_encoding(version):
    """-X warn_default_encoding and EncodingWarning exist (PEP 597, 3.10): "3.9", "2.7"."""
    major, minor = (int(n) for n in version.split(".")[:2])
    return (major, minor) >= (3, 10)


_RELEASED = {}      # made on first use: a launch needs one or two of the ten


def released(version):
    """The Profile of CPython `version` ("3.9") as released; KeyError for another."""
    prof = _RELEASED.get(version)
    if prof is None:
        if version not in VERSIONS:
            raise KeyError(version)
        prof = _RELEASED[version] = _released(int(version.split(".")[1]))
    return prof


def profile(policy, version):
    """The Profile for `policy` ("3.9" or a draft name) applied to `version` ("3.9")."""
    base = released(version)
    if policy in VERSIONS:
        return released(policy)
    if policy == "pep538-draft":
        # Seed 002: targets C.UTF-8, C.utf8, en_US.UTF-8; LANG and LC_ALL for the first
        # two (preconfig.DRAFT).
        return base._replace(
            policy=policy, source="PEP 538 draft (seed 002) on CPython %s" % version,
            coercion=True, **preconfig.DRAFT)
    if policy == "pep540-draft":
        # Seed 006 (PEP 540 v2): a strict UTF-8 mode, and open() with surrogateescape
        # in UTF-8 mode (the "Encoding and error handler" annex).
        return base._replace(
            policy=policy, source="PEP 540 v2 draft (seed 006) on CPython %s" % version,
            utf8_mode=True, strict_mode=True, open_errors_in_utf8_mode="surrogateescape",
            stdio_errors_rule="3.7",
            utf8_error_function=("preconfig_init_utf8_mode" if base.version >= (3, 8)
                                 else "config_init_utf8_mode"))
    raise KeyError(policy)


class _Embedding(Record):
    """The pre-configuration an embedding application gets (Python/preconfig.c
    _PyPreConfig_InitCompatConfig, _PyPreConfig_InitPythonConfig,
    _PyPreConfig_InitIsolatedConfig; 3.6/3.7 Py_Initialize()): which of the python
    command's inputs it reads. policy.py holds the rules; this says which apply."""
    kind = field()                  # "initialize", "python-config", "isolated-config"
    api = field()                   # the C call that names it ("Py_Initialize()")
    config = field()                # "compat", "Python", "isolated"; None before PEP 587 (3.6/3.7)
    configure_locale = field()      # setlocale(LC_CTYPE, "") from the environment
    coerces = field()               # PEP 538 coercion possible (coerce_c_locale not forced to 0)
    reads_coerce_variable = field()  # PYTHONCOERCECLOCALE read (its "warn" prints the warning)
    utf8_mode = field()             # UTF-8 mode set by the configuration; None: decided as the command decides it
    use_environment = field()       # PYTHON* variables read (PYTHONUTF8, PYTHONIOENCODING...)
    parse_argv = field()            # PyConfig.argv parsed as the python command line


_EMBEDDED_SINCE = {"initialize": (3, 6), "python-config": (3, 8), "isolated-config": (3, 8)}


def embedded_kinds(version):
    """The EMBEDDED kinds CPython `version` ("3.7") has."""
    minor = (3, int(version.split(".")[1]))
    return tuple(kind for kind in EMBEDDED if _EMBEDDED_SINCE[kind] <= minor)


def embedding(kind, version):
    """The _Embedding of `kind` on CPython `version`; KeyError for a kind it lacks."""
    if kind not in embedded_kinds(version):
        raise KeyError(kind)
    minor = int(version.split(".")[1])
    # PEP 686 (3.15): the compat and isolated configurations set UTF-8 mode on.
    fixed_utf8 = 1 if minor >= 15 else 0
    if kind == "python-config":
        # The configuration of the python command itself: every rule as for `python3`.
        return _Embedding(kind, "PyConfig_InitPythonConfig()", "Python", True, True, True,
                          None, True, True)
    if kind == "isolated-config":
        return _Embedding(kind, "PyConfig_InitIsolatedConfig()", "isolated", False, False,
                          False, fixed_utf8, False, False)
    if minor < 8:
        # 3.6/3.7: the locale is set from the environment; 3.7 reads PYTHONUTF8, and the C
        # locale turns UTF-8 mode on, but only the command's main() coerces.
        return _Embedding(kind, "Py_Initialize()", None, True, False, minor == 7, None, True,
                          False)
    # bpo-36443: the compat configuration disables coercion and UTF-8 mode's variable.
    return _Embedding(kind, "Py_Initialize()", "compat", True, False, False, fixed_utf8, True,
                      False)
