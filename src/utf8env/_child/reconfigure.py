"""Apply the UTF-8 mode (PEP 540) inside a running interpreter.

STANDALONE: this module imports only the standard library and nothing relative, because
the bootstrap (bootstrap/sitecustomize.py) loads it by file path inside a child
interpreter that cannot import utf8env; it loads ../_engine/textnames.py the same way.
It must stay valid Python 3.6. runtime.enable() imports it as utf8env._child.reconfigure.

What CPython decides at start-up and what can still be changed later:
- sys.stdin/stdout/stderr: reconfigured in place (3.7+ reconfigure(), 3.6 __init__ again),
  unless that would lose text or the stream is not the interpreter's own;
- open() without an encoding, locale.getpreferredencoding(): wrapped;
- the filesystem encoding (os.fsdecode, os.listdir, sys.argv): fixed at start-up.
"""
import builtins
import codecs
import io
import os
import sys

# The spelling CPython's UTF-8 mode gives getpreferredencoding() and open():
# "UTF-8" up to 3.10 (_bootlocale/locale.py), "utf-8" from 3.11 (_Py_GetLocaleEncoding).
_UTF8 = "utf-8" if sys.version_info >= (3, 11) else "UTF-8"
# 3.8+ report a stdio encoding as its codec name (initconfig.c config_get_codec_name);
# 3.6 and 3.7 keep the name as typed in PYTHONIOENCODING.
_NORMALIZES_STDIO_NAMES = sys.version_info >= (3, 8)
_ROLES = ("stdin", "stdout", "stderr")
_MODES = (1, "strict")


def _load_engines(name):
    """The module NAME.py of ../_engine (standalone, as this file is): the package's own
    utf8env._engine.NAME where this is utf8env._child.reconfigure (runtime.enable()), else
    the top-level NAME that the bootstrap's import finds there (bootstrap/sitecustomize.py
    puts that folder on sys.path for the moment)."""
    package = __name__.rpartition(".")[0]
    full = package.rpartition(".")[0] + "._engine." + name if package else name
    __import__(full)
    return sys.modules[full]


_textnames = _load_engines("textnames")


def native_utf8_mode():
    """sys.flags.utf8_mode of this interpreter: 0 before 3.7, which has no such flag; apply()
    does not change it."""
    return getattr(sys.flags, "utf8_mode", 0)


def apply(mode=1, environ=None, ignore_environment=None, open_errors="strict"):
    """Make this interpreter behave as in the UTF-8 mode `mode` (1 or "strict").

    stdin/stdout: utf-8 with surrogateescape (mode 1) or strict ("strict"); stderr:
    utf-8 with backslashreplace; PYTHONIOENCODING keeps its priority as in CPython.
    open() without an encoding: UTF-8 with `open_errors`. Returns
    {"changed": {field: [old, new]}, "unchanged": [field, ...], "cannot": {field: reason}}.
    Raises ValueError for an unknown mode, LookupError for an unknown codec or error
    handler; nothing is changed then.
    """
    if mode not in _MODES or isinstance(mode, bool):
        raise ValueError("mode %r: expected 1 or 'strict'" % (mode,))
    codecs.lookup_error(open_errors)        # LookupError before anything changes
    if ignore_environment is None:
        ignore_environment = bool(sys.flags.ignore_environment)
    if environ is None:
        environ = os.environ
    targets = _stdio_targets(mode, None if ignore_environment else environ.get("PYTHONIOENCODING"))
    report = {"changed": {}, "unchanged": [], "cannot": {}}
    for role in _ROLES:
        _apply_stream(role, targets[role], report)
    _apply_open(open_errors, report)
    _apply_filesystem(report)
    return report


def apply_stdio_errors(errors):
    """Give stdin and stdout the error handler `errors`, keeping their encoding: PEP 538's
    surrogateescape, which 3.7 gives the coercion target locales and 3.6 only the C locale.
    The caller (the launcher's plan) has already kept PYTHONIOENCODING's priority."""
    codecs.lookup_error(errors)
    report = {"changed": {}, "unchanged": [], "cannot": {}}
    for role in ("stdin", "stdout"):
        stream = getattr(sys, role, None)
        encoding = getattr(stream, "encoding", None)
        if encoding is None:
            report["cannot"][role] = "sys.%s has no encoding" % role
            continue
        _apply_stream(role, (encoding, errors), report)
    return report


def _stdio_targets(mode, pythonioencoding):
    """{role: (encoding, errors)} as CPython's UTF-8 mode fills them in around
    PYTHONIOENCODING (Python/initconfig.c config_init_stdio_encoding): an encoding part
    makes errors strict unless an errors part is given; stderr is always
    backslashreplace (pylifecycle.c init_sys_streams)."""
    encoding, errors = _textnames.split_pythonioencoding(pythonioencoding)
    if encoding is None:
        encoding = "utf-8"
    else:
        codec = codecs.lookup(encoding)     # LookupError: CPython would not even start
        if _NORMALIZES_STDIO_NAMES:
            encoding = codec.name
    if errors is None:
        errors = "strict" if mode == "strict" else "surrogateescape"
    codecs.lookup_error(errors)
    return {"stdin": (encoding, errors), "stdout": (encoding, errors),
            "stderr": (encoding, "backslashreplace")}


def _apply_stream(role, target, report):
    stream = getattr(sys, role, None)
    if stream is None:
        report["cannot"][role] = "sys.%s is None" % role
        return
    if stream is not getattr(sys, "__%s__" % role, None):
        # pytest's capture, contextlib.redirect_stdout, an IDE: the object belongs to the
        # code that put it there, which decoded its bytes (or will) with its own encoding.
        report["cannot"][role] = (
            "sys.%s is not the interpreter's own stream (sys.__%s__) but another object "
            "(%s) put there by other code, whose encoding is its owner's: it stays %s/%s"
            % (role, role, type(stream).__name__, getattr(stream, "encoding", None),
               getattr(stream, "errors", None)))
        return
    old = [getattr(stream, "encoding", None), getattr(stream, "errors", None)]
    if (old[1] == target[1] and old[0] is not None
            and _textnames.codec_name(old[0]) == _textnames.codec_name(target[0])):
        report["unchanged"].append(role)
        return
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is None and type(stream) is not io.TextIOWrapper:
        report["cannot"][role] = ("sys.%s is a %s, not an io.TextIOWrapper"
                                  % (role, type(stream).__name__))
        return
    try:
        if reconfigure is not None:
            try:
                reconfigure(encoding=target[0], errors=target[1])
            except io.UnsupportedOperation:
                # "not possible to set the encoding or newline of stream after the
                # first read": decoded text may be waiting in it.
                if not _seek_back(stream):
                    report["cannot"][role] = _READ_AHEAD % tuple(old)
                    return
                reconfigure(encoding=target[0], errors=target[1])
        else:
            if _waiting_36(stream, role) and not (_seek_back(stream)
                                                  and not _waiting_36(stream, role)):
                report["cannot"][role] = _READ_AHEAD % tuple(old)
                return
            _reinit(role, stream, target)
    except (io.UnsupportedOperation, ValueError, OSError, AttributeError) as error:
        report["cannot"][role] = "%s: %s" % (type(error).__name__, error)
        return
    report["changed"][role] = [old, [stream.encoding, stream.errors]]


_READ_AHEAD = ("sys.stdin was read from (readline(), read(n) or iteration) and may hold "
               "text decoded ahead of the program; it cannot seek back, and a new "
               "encoding would lose that text: it stays %s/%s")


def _waiting_36(stream, role):
    """Whether 3.6's C TextIOWrapper may hold decoded text the program has not read yet, as
    3.7's reconfigure() asks it (decoded_chars != NULL, Modules/_io/textio.c). No attribute
    shows that field, but tp_traverse visits it (textiowrapper_traverse): among
    gc.get_referents(), the str objects other than the encoding are readnl ("\\n" as
    create_stdio passes it; none for stdin on Windows) and decoded_chars once a read has
    decoded a chunk (read() to the end and seek() drop it again). The decoder's own state
    holds the bytes of an incomplete character."""
    import gc
    readnl = 0 if (role == "stdin" and sys.platform == "win32") else 1
    texts = pending = 0
    for referent in gc.get_referents(stream):
        if type(referent) is str and referent is not stream.encoding:
            texts += 1
        elif hasattr(referent, "decode") and hasattr(referent, "getstate"):
            pending += bool(referent.getstate()[0])
    return texts > readnl or pending > 0


def _seek_back(stream):
    """On a seekable stream (stdin redirected from a file), move the file back to the first
    character not yet read, so the new encoding decodes the rest. Only for a plain byte
    position: a larger tell() cookie carries decoder state a new codec could not resume."""
    try:
        if not stream.seekable():
            return False
        cookie = stream.tell()
        if cookie >> 64:
            return False
        stream.seek(cookie)
    except (OSError, ValueError):
        return False
    return True


def _reinit(role, stream, target):
    """3.6 has no reconfigure(): TextIOWrapper.__init__ again on the same object and its
    binary buffer (the C type clears and rebuilds its state), with the arguments of
    Python/pylifecycle.c create_stdio. The object stays sys.__stdout__ and whatever else
    holds it (a logging.StreamHandler, a saved reference) writes with the new encoding;
    a second wrapper would share the buffer with a stale first one, and close it when
    collected."""
    stream.flush()      # text pending in the wrapper is encoded by its old codec
    buffer = stream.buffer
    # create_stdio: write_through when unbuffered (-u gives a raw FileIO buffer);
    # newline "\n", except for stdin on Windows (translate \r\n).
    write_through = isinstance(buffer, io.RawIOBase)
    newline = None if (role == "stdin" and sys.platform == "win32") else "\n"
    old = (stream.encoding, stream.errors)
    arguments = dict(newline=newline, line_buffering=stream.line_buffering,
                     write_through=write_through)
    try:
        io.TextIOWrapper.__init__(stream, buffer, encoding=target[0], errors=target[1],
                                  **arguments)
    except Exception:
        # A half-initialised wrapper refuses all I/O: put the old configuration back.
        io.TextIOWrapper.__init__(stream, buffer, encoding=old[0], errors=old[1], **arguments)
        raise


# -- open() and locale.getpreferredencoding() ------------------------------------------

def _apply_open(open_errors, report):
    """open() without an encoding: locale.getpreferredencoding(False) unless the UTF-8
    mode is on (Lib/_pyio.py, 3.10+ io.text_encoding)."""
    current = builtins.open
    original = getattr(current, "__utf8env_original__", None)
    if native_utf8_mode() and open_errors == "strict":
        # The interpreter does it natively; undo an earlier apply() if there was one.
        if original is None:
            report["unchanged"].append("open")
        else:
            report["changed"]["open"] = [[_UTF8, current.__utf8env_errors__], [_UTF8, "strict"]]
            builtins.open = io.open = original
            _restore_text_encoding()
        _restore_preferred(report)
        return
    if original is not None:
        old = [_UTF8, current.__utf8env_errors__]
        if old == [_UTF8, open_errors]:
            report["unchanged"].append("open")
            report["unchanged"].append("preferred_encoding")
            return
    else:
        original = current
        old = [_UTF8 if native_utf8_mode() else _locale_encoding(), "strict"]
        if old == [_UTF8, open_errors]:
            # A UTF-8 locale already gives the very same default: nothing to wrap.
            report["unchanged"].append("open")
            report["unchanged"].append("preferred_encoding")
            return
    if open_errors == "strict" and _IO_ASKS_BOOTLOCALE:
        if _preferred_is_patched() and original is current:
            report["unchanged"].append("open")
            report["unchanged"].append("preferred_encoding")
            return
        # io takes a TextIOWrapper's default encoding from _bootlocale, which
        # _patch_preferred() makes UTF-8: open() stays the built-in, so a traceback through
        # it shows no frame of ours (python -m zipfile -e, as without utf8env).
        builtins.open = io.open = original
    else:
        builtins.open = io.open = _make_open(original, open_errors)
        _patch_text_encoding()
    report["changed"]["open"] = [old, [_UTF8, open_errors]]
    if native_utf8_mode():
        report["unchanged"].append("preferred_encoding")
    else:
        _patch_preferred(report)


# 3.6-3.9: the C io asks _bootlocale.getpreferredencoding(False) for the default encoding
# of a TextIOWrapper (Modules/_io/textio.c, _PyIO_get_locale_module).
_IO_ASKS_BOOTLOCALE = sys.version_info < (3, 10)


def _preferred_is_patched():
    return hasattr(_locale_modules()[0].getpreferredencoding, "__utf8env_original__")


def _make_open(original, open_errors):
    def open(file, mode="r", buffering=-1, encoding=None, errors=None, newline=None,
             closefd=True, opener=None):
        if encoding is None and isinstance(mode, str) and "b" not in mode:
            encoding = _UTF8
            if errors is None:
                errors = open_errors
        return original(file, mode, buffering, encoding, errors, newline, closefd, opener)
    open.__doc__ = original.__doc__
    open.__wrapped__ = original
    open.__utf8env_original__ = original
    open.__utf8env_errors__ = open_errors
    return open


def _patch_text_encoding():
    # 3.10+: pathlib and others resolve encoding=None through io.text_encoding(), which
    # returns "locale" outside the UTF-8 mode and then bypasses open()'s default.
    original = getattr(io, "text_encoding", None)
    if original is None or hasattr(original, "__utf8env_original__"):
        return

    def text_encoding(encoding, stacklevel=2):
        if encoding is None:
            original(encoding, stacklevel + 1)      # keeps EncodingWarning
            return "utf-8"
        return encoding
    text_encoding.__doc__ = original.__doc__
    text_encoding.__utf8env_original__ = original
    io.text_encoding = text_encoding


def _restore_text_encoding():
    original = getattr(getattr(io, "text_encoding", None), "__utf8env_original__", None)
    if original is not None:
        io.text_encoding = original


def _locale_modules():
    """Where getpreferredencoding() lives. 3.6-3.9: _bootlocale, which io itself calls
    for a TextIOWrapper without an encoding and locale.getpreferredencoding() delegates
    to at each call, so locale need not be imported (it imports re: ~5 ms on 3.6);
    locale too when already imported. 3.10+: locale. _bootlocale is the one private
    CPython module utf8env touches, on purpose: 3.6-3.9's C io asks it and nothing
    public (Modules/_io/textio.c), and 3.7's UTF-8 mode changes what it answers."""
    modules = []
    if sys.version_info < (3, 10):
        bootlocale = sys.modules.get("_bootlocale")
        if bootlocale is None:
            try:
                import _bootlocale as bootlocale
            except ImportError:
                bootlocale = None
        if bootlocale is not None:
            modules.append(bootlocale)
    locale = sys.modules.get("locale")
    if locale is None and not modules:
        import locale
    if locale is not None:
        modules.append(locale)
    return modules


def _locale_encoding():
    """The encoding open() uses now outside the UTF-8 mode."""
    function = _locale_modules()[0].getpreferredencoding
    return getattr(function, "__utf8env_original__", function)(False)


def _patch_preferred(report):
    modules = _locale_modules()
    old = None
    for module in modules:
        function = module.getpreferredencoding
        original = getattr(function, "__utf8env_original__", None)
        if original is None:
            original = function
        if module is modules[0]:
            old = function(False)
        if original is function:
            module.getpreferredencoding = _make_preferred(original)
    if old == _UTF8:
        report["unchanged"].append("preferred_encoding")
    else:
        report["changed"]["preferred_encoding"] = [old, _UTF8]


def _make_preferred(original):
    def getpreferredencoding(do_setlocale=True):
        return _UTF8
    getpreferredencoding.__doc__ = original.__doc__
    getpreferredencoding.__utf8env_original__ = original
    return getpreferredencoding


def _restore_preferred(report):
    restored = None
    for name in ("_bootlocale", "locale"):
        module = sys.modules.get(name)
        original = getattr(getattr(module, "getpreferredencoding", None), "__utf8env_original__", None)
        if original is not None:
            module.getpreferredencoding = original
            restored = original
    if restored is None:
        report["unchanged"].append("preferred_encoding")
    else:
        report["changed"]["preferred_encoding"] = [_UTF8, restored(False)]


# -- the filesystem encoding -------------------------------------------------------------

def _apply_filesystem(report):
    encoding = sys.getfilesystemencoding()
    errors = sys.getfilesystemencodeerrors() if hasattr(sys, "getfilesystemencodeerrors") else None
    if _textnames.codec_name(encoding) == "utf-8" and errors in ("surrogateescape", "surrogatepass"):
        report["unchanged"].append("filesystem")
        return
    remedy = ("start it in a UTF-8 locale (3.6 has no UTF-8 mode)" if sys.version_info < (3, 7)
              else "start it with -X utf8 or in a UTF-8 locale")
    report["cannot"]["filesystem"] = (
        "sys.getfilesystemencoding() is fixed at start-up (%s/%s): os.fsdecode(), "
        "os.listdir() and sys.argv keep it; %s" % (encoding, errors, remedy))


__all__ = ["apply", "apply_stdio_errors", "native_utf8_mode"]
