"""Writing a command's output to this process's stdout, which may be closed (`>&-`: then
sys.stdout is None), full (/dev/full) or gone (a pipe whose reader exited): a one-line
error and status 1, or for the pipe status 1 alone (cli.main), never a traceback nor the
interpreter's status 120 from its own flush at exit. Every subcommand writes through here."""
import sys

from ._errors import Utf8envError


def shown(value):
    """`value` as a line of text for any terminal: undecodable bytes from the environment
    (surrogate escapes) as \\xNN; a value with any other lone surrogate (a hand-made
    snapshot, say) all in Python's backslash escapes. explain and doctor both show values so."""
    value = str(value)
    try:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return value.encode("utf-8", "backslashreplace").decode("utf-8")


# The C0 and C1 control characters and DEL, but for the newline and the tab that lay a
# page out: as \xNN.
_CONTROLS = {code: "\\x%02x" % code
             for code in list(range(0x20)) + [0x7f] + list(range(0x80, 0xa0))
             if code not in (0x09, 0x0a)}


def for_terminal(text):
    """A text page (explain's, doctor's) with every control character shown as \\xNN: a
    value from the environment (LANG=$'\\e]0;title\\a') must not drive the reader's
    terminal. Not for JSON, whose strings escape what they must themselves."""
    return text.translate(_CONTROLS)


# An error is one line: there the newline and the tab of a value are shown too.
_LINE_CONTROLS = dict(_CONTROLS)
_LINE_CONTROLS.update({0x09: "\\x09", 0x0a: "\\x0a"})


def error_line(text):
    """An error message as one line that cannot drive a terminal: every control character,
    the newline and the tab among them, as \\xNN (a file name the user gave, an unknown
    option, is shown as it was typed, never split nor obeyed)."""
    return text.translate(_LINE_CONTROLS)


def progress(label, unit):
    """A callback (done, total) that draws `LABEL: DONE/TOTAL UNIT` on stderr, redrawn in
    place, once the work has taken more than a second, the line ended when all is done;
    None when stderr is not a terminal (a pipe, a file, CI's log: nothing extra there)."""
    import time
    stream = sys.stderr
    try:
        if stream is None or not stream.isatty():
            return None
    except (OSError, ValueError):
        return None
    started = time.monotonic()

    def show(done, total):
        if time.monotonic() - started > 1:
            to_stderr("\r%s: %d/%d %s%s" % (label, done, total, unit,
                                            "\n" if done == total else ""))
    return show


def write(text):
    """`text` to stdout in stdout's own codec; where that codec cannot hold it, as UTF-8 (on
    Windows: what it lacks as escapes, in_code_page)."""
    stream = _stdout()
    try:
        stream.write(text)
        stream.flush()
    except UnicodeEncodeError:
        if sys.platform == "win32":
            # Windows reads stdout in its code page, lines ending in the text stream's
            # \r\n: UTF-8 bytes would be mojibake among cp932's.
            write(in_code_page(text, stream.encoding))
            return
        # Python 3.6 started in the C locale (`python3.6 -m utf8env explain`): an ASCII
        # stdout. utf8env's own output goes out as UTF-8 there, as 3.7's UTF-8 mode writes
        # it and as the launcher's start gives 3.6 (_cli.start). The wrapper encodes all
        # of `text` before it buffers any: nothing was written.
        write_bytes(text.encode("utf-8", "surrogateescape"))
    except (OSError, ValueError) as error:
        _failed(error)


def in_code_page(text, encoding):
    """`text` as a stdout in `encoding` can hold it: the characters it lacks as \\xNN,
    \\uNNNN (backslashreplace, as CPython writes its stderr on Windows)."""
    return text.encode(encoding, "backslashreplace").decode(encoding)


def write_bytes(data):
    """`data` to stdout byte for byte, whatever stdout's codec: what env and doctor print
    may hold bytes (undecodable input, surrogate escapes) no codec would write back."""
    stream = _stdout()
    if getattr(stream, "buffer", None) is None:      # replaced by a text-only stream
        write(data.decode("utf-8", "surrogateescape"))
        return
    try:
        stream.flush()              # text written before, in order
        stream.buffer.write(data)
        stream.buffer.flush()
    except (OSError, ValueError) as error:
        _failed(error)


def to_stderr(text):
    """`text` on stderr, for the person watching (a progress or error line): where stderr
    is closed (None), full or gone, nothing, and the exit status still tells. What a full
    stderr's buffer still holds would fail again at exit, the interpreter's flush turning
    the status into 120: it goes to /dev/null instead."""
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        drop_pending(2)


def _stdout():
    stream = sys.stdout
    if stream is None:      # started with fd 1 closed
        raise Utf8envError("cannot write the output: standard output is closed")
    return stream


def _failed(error):
    # What is left in the buffer would fail again when the interpreter flushes stdout at
    # exit, with a second message and status 120: it goes to /dev/null instead. (A
    # ValueError, a closed stream or a character its codec lacks, leaves nothing to fail.)
    if isinstance(error, OSError):
        drop_pending(1)
    if isinstance(error, BrokenPipeError):
        raise error     # the reader went away: cli.main ends quietly, as a filter does
    raise Utf8envError("cannot write the output: %s" % (getattr(error, "strerror", None) or error))


def drop_pending(fd):
    """Point `fd` (1: stdout, 2: stderr) at /dev/null, so that what its stream still
    buffers goes there when the interpreter flushes it at exit."""
    import os
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    except OSError:
        pass
