"""Writing a command's output to this process's stdout, which may be closed (`>&-`: then
sys.stdout is None), full or gone: a one-line error and status 1, never a traceback."""
import sys

from .errors import Utf8envError


def shown(value):
    """`value` as a line of text for any terminal: undecodable bytes from the environment
    (surrogate escapes) as \\xNN; a value with any other lone surrogate (a hand-made
    snapshot, say) all in Python's backslash escapes. explain and doctor both show values so."""
    value = str(value)
    try:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return value.encode("utf-8", "backslashreplace").decode("utf-8")


def write(text):
    stream = sys.stdout
    if stream is None:
        raise Utf8envError("cannot write the output: standard output is closed")
    try:
        stream.write(text)
        stream.flush()
    except BrokenPipeError:
        raise       # the reader went away: cli.main ends quietly, as a filter does
    except (OSError, ValueError) as error:
        _drop_the_rest()
        raise Utf8envError("cannot write the output: %s" % (getattr(error, "strerror", None) or error))


def _drop_the_rest():
    """What is left in the buffer would fail again when the interpreter flushes stdout at
    exit, with a second message and status 120: it goes to /dev/null instead."""
    import os
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except OSError:
        pass
