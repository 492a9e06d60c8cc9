"""A file's bytes in and out: its text as the compiler reads it (the PEP 263 coding cookie
or the UTF-8 BOM, tokenize.detect_encoding), the fixed text written back in the same
encoding with the same newlines (the edits add ASCII only, and never a line break but in
the file's own), atomically (a temporary file in the same folder, the mode and owner
kept, os.replace; a symlink's target is replaced, the link kept), and the unified diff."""
import difflib
import io
import os
import stat
import tokenize
from .insertion import split_lines


class Unreadable(Exception):
    """A file utf8env leaves alone, with the one line that says why."""


class Source(object):
    __slots__ = ("path", "data", "encoding", "text")

    def __init__(self, path, data, encoding, text):
        self.path, self.data, self.encoding, self.text = path, data, encoding, text


def read_bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as error:
        raise Unreadable("cannot read: %s" % (error.strerror or error))


def decode(path, data):
    """The Source of `data`; Unreadable for a bad cookie or bytes its encoding refuses."""
    try:
        encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    except SyntaxError as error:
        raise Unreadable("cannot read: %s" % (error.msg if hasattr(error, "msg") else error))
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        raise Unreadable("cannot decode as %s: byte 0x%02x at offset %d" % (
            encoding, bytearray(error.object[error.start:error.start + 1])[0], error.start))
    return Source(path, data, encoding, text)


def encoded(source, text):
    """`text` in the source's encoding; Unreadable when the file would not round-trip."""
    try:
        data = text.encode(source.encoding)
        if source.text.encode(source.encoding) != source.data:
            raise UnicodeError
    except UnicodeError:
        raise Unreadable("its %s text does not encode back to the same bytes: left alone"
                         % source.encoding)
    return data


def write(path, data):
    """`data` in place of `path`'s content, atomically; the mode and owner kept (where
    the system has them)."""
    import tempfile
    real = os.path.realpath(path)
    folder = os.path.dirname(real)
    try:
        before = os.stat(real)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(real) + ".",
                                             suffix=".utf8env")
    except OSError as error:
        raise Unreadable("cannot write: %s" % (error.strerror or error))
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(data)
            f.flush()
            # Windows has no owner to give, and fchmod() only from 3.13 (its
            # read-only bit): a file there keeps what the new one has.
            if hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), stat.S_IMODE(before.st_mode))
            if hasattr(os, "fchown"):
                try:
                    os.fchown(f.fileno(), before.st_uid, before.st_gid)
                except OSError:
                    pass            # not ours to give: the new file is the writer's
        os.replace(temporary, real)
    except OSError as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise Unreadable("cannot write: %s" % (error.strerror or error))


def diff(source, text):
    """The unified diff (bytes) from the source to `text`: the file's own encoding and
    newlines, so that `patch -p0` applies it byte for byte."""
    bom = u"\ufeff" if source.encoding == "utf-8-sig" else u""   # line 1's bytes hold it
    before, after = split_lines(bom + source.text), split_lines(bom + text)
    name = quoted(source.path)
    lines = []
    for line in difflib.unified_diff(before, after, name, name):
        if not line.endswith(("\n", "\r")):
            line += "\n\\ No newline at end of file\n"
        lines.append(line)
    if not lines:
        return b""
    head = "".join(lines[:2]).encode("utf-8", "surrogateescape")
    codec = "utf-8" if source.encoding == "utf-8-sig" else source.encoding
    return head + "".join(lines[2:]).encode(codec)


# What a diff header's name may not hold raw: the terminal's control characters (C0, DEL,
# C1) and the quoting's own; an undecodable byte (a surrogate escape) is quoted too.
_UNSAFE = frozenset(list(range(0x20)) + [0x7f, 0x22, 0x5c] + list(range(0x80, 0xa0)))


def quoted(path):
    """`path` for a diff header: as it is, or, where it holds a control character (a name
    must not drive the reader's terminal), an undecodable byte, a quote or a backslash, in
    GNU diff's and git's C-style quotes ("d/\\033[2J.py", every non-ASCII byte in
    octal), which GNU patch reads back to the same name."""
    if not any(ord(c) in _UNSAFE or 0xd800 <= ord(c) <= 0xdfff for c in path):
        return path
    out = []
    for byte in bytearray(path.encode("utf-8", "surrogateescape")):
        if byte in (0x22, 0x5c):
            out.append("\\" + chr(byte))
        elif byte == 0x09:
            out.append("\\t")
        elif byte == 0x0a:
            out.append("\\n")
        elif byte < 0x20 or byte >= 0x7f:
            out.append("\\%03o" % byte)
        else:
            out.append(chr(byte))
    return '"%s"' % "".join(out)
