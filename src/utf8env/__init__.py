"""utf8env: PEP 538 locale coercion and PEP 540 UTF-8 mode for any CPython 3.6-3.15."""
from .policy import (Coercion, Decision, Inputs, InvalidInput, LocaleFacts, Reason,
                     StartupError, Stream, decide)

__version__ = "0.1.0"
__all__ = ["Coercion", "Decision", "Inputs", "InvalidInput", "LocaleFacts", "Reason",
           "StartupError", "Stream", "decide", "__version__"]
