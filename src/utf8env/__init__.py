"""utf8env: PEP 538 locale coercion and PEP 540 UTF-8 mode for any CPython 3.6-3.15."""
from .policy import (Coercion, Decision, Inputs, InvalidInput, LocaleFacts, Reason,
                     StartupError, Stream, decide)



# The runtime imports locale, warnings and the stdio machinery: too much for the start-up
# of `utf8env explain`, so these load it on first use.
def enable(mode=1, open_errors="strict"):
    """Apply the UTF-8 mode to this running interpreter (see utf8env.runtime.enable)."""
    from . import runtime
    return runtime.enable(mode, open_errors)


def initialize(environ=None):
    """Print the C locale warning if LC_CTYPE is still C (see utf8env.runtime.initialize)."""
    from . import runtime
    return runtime.initialize(environ)


def current():
    """This interpreter's live configuration as a Decision (see utf8env.runtime.current)."""
    from . import runtime
    return runtime.current()

__version__ = "0.1.0"
__all__ = ["Coercion", "Decision", "Inputs", "InvalidInput", "LocaleFacts", "Reason",
           "StartupError", "Stream", "current", "decide", "enable", "initialize",
           "__version__"]
