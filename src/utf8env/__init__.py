"""utf8env: PEP 538 locale coercion and PEP 540 UTF-8 mode for any CPython 3.6-3.15.

The documented API, and nothing else: every name here is in docs/api.md (tests/test_api.py
holds the two to each other). The modules behind it are private by their names (a leading
underscore) and may change; the pytest plugin utf8env.readiness.plugin is public too.
"""
__version__ = "0.1.0"

import sys as _sys

_ENGINE_NAMES = ("Coercion", "Decision", "Inputs", "InvalidInput", "LocaleFacts", "Reason",
                 "StartupError", "Stream", "decide")

if _sys.version_info >= (3, 7):
    # The engine is loaded on first use (PEP 562): `utf8env run` imports this package to
    # reach its own modules, and a program that is not Python needs no engine.
    def __getattr__(name):
        if name in _ENGINE_NAMES:
            from ._engine import policy
            return getattr(policy, name)
        raise AttributeError("module 'utf8env' has no attribute %r" % name)

    def __dir__():
        return sorted(set(globals()) | set(_ENGINE_NAMES))
else:       # 3.6 has no module __getattr__
    from ._engine.policy import (Coercion, Decision, Inputs, InvalidInput, LocaleFacts, Reason,
                                 StartupError, Stream, decide)


# These load their modules on first use: the locale probe and the runtime (which imports
# locale, warnings and the stdio machinery) are too much for the start-up of
# `utf8env run` and `utf8env explain`, which import this package.
def probe_locales(environ, names=None):
    """The real libc's LocaleFacts under `environ` (see utf8env._locales.facts)."""
    from . import _locales as locales
    return locales.facts(environ, names)


def enable(mode=1, open_errors="strict"):
    """Apply the UTF-8 mode to this running interpreter (see utf8env._runtime.enable)."""
    from . import _runtime as runtime
    return runtime.enable(mode, open_errors)


def initialize(environ=None):
    """Print the C locale warning if LC_CTYPE is still C (see utf8env._runtime.initialize).

    For a program that embeds CPython, once Py_Initialize() has returned: writes CPython
    3.7+'s legacy-locale warning to file descriptor 2 and returns it when LC_CTYPE is C
    and PYTHONCOERCECLOCALE=warn (in `environ`, default os.environ), else returns None.
    It changes nothing: Py_Initialize() never coerces the locale (only 3.7's prints this
    warning itself), and the file system encoding is fixed by then. Under LANG=C an
    embedded 3.6 and 3.8-3.14 get ASCII throughout, 3.7 and 3.15 UTF-8 (UTF-8 mode);
    enable() then makes stdio and open() UTF-8, never the file system encoding
    (docs/api.md; measured in tests/test_embedded_runtime.py)."""
    from . import _runtime as runtime
    return runtime.initialize(environ)


def current():
    """This interpreter's live configuration as a Decision (see utf8env._runtime.current)."""
    from . import _runtime as runtime
    return runtime.current()


__all__ = ["Coercion", "Decision", "Inputs", "InvalidInput", "LocaleFacts", "Reason",
           "StartupError", "Stream", "current", "decide", "enable", "initialize",
           "probe_locales", "__version__"]
