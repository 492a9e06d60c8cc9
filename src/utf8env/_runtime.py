"""The Py_Initialize half of PEP 538 and PEP 540, for this running interpreter.

- enable(): apply the UTF-8 mode now (reconfigure stdio, open(), getpreferredencoding);
- initialize(): the C locale warning CPython 3.7+ prints when LC_CTYPE is still C;
- current(): this interpreter's live configuration, in the schema of decide()'s Decision.

Nothing here calls locale.setlocale() with a locale: only queries.
"""
import locale
import os
import sys
import warnings

from ._child import reconfigure
from ._engine.policy import Decision, Reason, Stream
from ._engine.profiles import SHIPPED_LEGACY_WARNING, platform_name


def enable(mode=1, open_errors="strict"):
    """Apply the UTF-8 mode `mode` (1, or "strict": stdin/stdout strict) to this process;
    open() without an encoding then uses UTF-8 with `open_errors`. Returns the report of
    reconfigure.apply(): {"changed", "unchanged", "cannot"}. ValueError for another mode."""
    return reconfigure.apply(mode, open_errors=open_errors)


def initialize(environ=None):
    """If LC_CTYPE is still the C locale and PYTHONCOERCECLOCALE=warn, write the C locale
    warning of CPython 3.7+ to file descriptor 2 and return it; else return None.
    # PEP 538 "Legacy C locale warning"; Python/pylifecycle.c emit_stderr_warning_for_legacy_locale
    """
    if environ is None:
        if sys.flags.ignore_environment:    # -E/-I: _Py_GetEnv reads nothing
            return None
        # This process's own, where the caller runs: CPython reads its own environment.
        environ = os.environ
    if environ.get("PYTHONCOERCECLOCALE") != "warn":
        return None
    if locale.setlocale(locale.LC_CTYPE) != "C":
        return None
    # Straight to the file descriptor, as CPython's fprintf(stderr): not through
    # sys.stderr (which may be replaced or reconfigured) nor the warnings module.
    os.write(2, (SHIPPED_LEGACY_WARNING + "\n").encode("ascii"))
    return SHIPPED_LEGACY_WARNING


def current():
    """This interpreter's live text configuration as a policy.Decision."""
    version = "%d.%d" % sys.version_info[:2]
    lc_ctype = locale.setlocale(locale.LC_CTYPE)
    with warnings.catch_warnings():
        # EncodingWarning (PYTHONWARNDEFAULTENCODING, 3.10+) is not this call's business.
        warnings.simplefilter("ignore")
        with open(os.devnull) as f:     # utf8env: ignore (the default is what is observed)
            opened = Stream(f.encoding, f.errors)
        preferred = locale.getpreferredencoding(False)
        getencoding = getattr(locale, "getencoding", None)
        locale_encoding = getencoding() if getencoding else None
    fs_errors = getattr(sys, "getfilesystemencodeerrors", None)
    values = {
        "python": version,
        "platform": platform_name(sys.platform),
        "policy": version,
        "startup_error": None,
        "legacy_c_locale": lc_ctype == "C",
        "legacy_c_locale_source": None,
        "coercion": None,
        "coercion_warning": None,
        "c_locale_warning": None,
        "utf8_mode": reconfigure.native_utf8_mode(),
        "lc_ctype": lc_ctype,
        "filesystem": Stream(sys.getfilesystemencoding(),
                             fs_errors() if fs_errors else "surrogateescape"),
        "stdin": _stream(sys.stdin),
        "stdout": _stream(sys.stdout),
        "stderr": _stream(sys.stderr),
        "open": opened,
        "preferred_encoding": preferred,
        "locale_encoding": locale_encoding,
        "stderr_messages": (),
        "stderr_complete": True,
        "child_environ": {},
    }
    values["reasons"] = {field: Reason("observed", _DETAILS.get(field, "the live value"))
                         for field in values}
    return Decision(**values)


def _stream(stream):
    if stream is None:
        return None
    return Stream(getattr(stream, "encoding", None), getattr(stream, "errors", None))


_DETAILS = {
    "python": "sys.version_info",
    "platform": "sys.platform",
    "policy": "the running interpreter's own version",
    "startup_error": "the interpreter is running",
    "legacy_c_locale": "setlocale(LC_CTYPE, NULL) is C now (the locale before any coercion "
                       "is not observable)",
    "legacy_c_locale_source": "not observable once started",
    "coercion": "not observable once started (see LC_CTYPE)",
    "coercion_warning": "not observable once started",
    "c_locale_warning": "not observable once started",
    "utf8_mode": "sys.flags.utf8_mode (0 before 3.7; enable() does not change it)",
    "lc_ctype": "setlocale(LC_CTYPE, NULL)",
    "filesystem": "sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()",
    "stdin": "sys.stdin.encoding, sys.stdin.errors",
    "stdout": "sys.stdout.encoding, sys.stdout.errors",
    "stderr": "sys.stderr.encoding, sys.stderr.errors",
    "open": "open(os.devnull): the default of open() without an encoding",
    "preferred_encoding": "locale.getpreferredencoding(False)",
    "locale_encoding": "locale.getencoding() (3.11+)",
    "stderr_messages": "not observable once started",
    "stderr_complete": "not observable once started",
    "child_environ": "nothing is exported by observing",
}

__all__ = ["enable", "initialize", "current"]
