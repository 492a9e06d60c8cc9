"""A file a user names for a command to read (doctor --compare FILE, fix --from FILE):
its bytes, bounded, and only if it is a regular file; and how a JSON value's type is
named in the one-line refusals of what it holds. Shared by tools, so it lives below
them (CONTRIBUTING, "How the code is organised")."""
import os
import stat


class Unreadable(Exception):
    """Why the file was not read: `reason` is "open" or "read" (with `detail`, the
    system's words), "not regular", or "too large"."""

    def __init__(self, reason, detail=None):
        Exception.__init__(self, reason, detail)
        self.reason, self.detail = reason, detail


def read_bounded(path, limit):
    """At most `limit` bytes of the regular file `path`, or Unreadable. Opened without
    blocking (a FIFO that nobody writes would block for ever), then asked what it is
    (fstat), so that nothing but a regular file is read; never more than limit + 1 bytes
    (/dev/zero is not regular, and a huge file is read no further than that)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError) as error:
        raise Unreadable("open", getattr(error, "strerror", None) or str(error))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Unreadable("not regular")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise Unreadable("read", error.strerror or str(error))
    finally:
        os.close(fd)
    if size > limit:
        raise Unreadable("too large")
    return b"".join(chunks)


def json_kind(value):
    """A JSON value's type as a refusal names it: null, true, false, a string, a number,
    a list, an object."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return {str: "a string", int: "a number", float: "a number", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)
