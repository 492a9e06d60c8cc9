"""What one Python does with text in an environment, read from the engine's Decision:
print("é"), an undecodable file name listed, open().write("é"), and what Python 3.15's
UTF-8 default would change. No discovery here (pythons.py finds the Pythons): explain
needs this alone, cheaply."""
from .._engine.textnames import codec_name      # loaded with the engine: free here
from .._engine.records import Record, field

_SAMPLE_TEXT = "\u00e9"                       # print("é")
# A file name as `ls` prints it: UTF-8 "café" and a byte no UTF-8 decoder accepts.
SAMPLE_NAME = b"caf\xc3\xa9-\xff"
# Windows names are UTF-16: os.listdir() gets them as text from the system, never as bytes
# to decode, so no name is undecodable there. What fails is a name outside the code page
# stdout writes: "café" and "日本" are in no single ANSI code page (measured under Wine,
# tests/test_windows_wording.py).
WINDOWS_NAME = "caf\u00e9-\u65e5\u672c"


class Outcome(Record):
    """What one Python does in this environment, from its Decision."""
    print_text = field()        # "ok" or "fails": print("é")
    names = field()             # "round-trip", "mojibake" or "fails": print(os.listdir()) of SAMPLE_NAME
    open_text = field()         # "ok" or "fails": open(path, "w").write("é")
    pep686 = field()            # ((field, now, with 3.15), ...): what UTF-8 by default changes


def outcome(decision_here, decision_315=None):
    """What the Decision means for text: print("é"), a listed undecodable file name,
    open().write("é"); and what 3.15 (PEP 686) would change."""
    d = decision_here
    if d.startup_error is not None:
        return Outcome(print_text="fails", names="fails", open_text="fails", pep686=())
    print_text = "ok" if _encodes(_SAMPLE_TEXT, d.stdout) else "fails"
    open_text = "ok" if _encodes(_SAMPLE_TEXT, d.open) else "fails"
    names = (_windows_names(d.stdout) if d.platform == "win32"
             else _names(d.filesystem, d.stdout))
    changes = []
    if decision_315 is not None and d.python != "3.15" and decision_315.startup_error is None:
        for key in ("utf8_mode", "filesystem", "stdout", "open", "preferred_encoding"):
            now, then = getattr(d, key), getattr(decision_315, key)
            if _shown(now) != _shown(then):
                changes.append((key, _shown(now), _shown(then)))
    return Outcome(print_text=print_text, names=names, open_text=open_text, pep686=tuple(changes))


def _shown(value):
    """A field as the comparison with 3.15 sees it: codec names normalised."""
    if hasattr(value, "encoding"):
        return "%s/%s" % (codec_name(value.encoding), value.errors)
    if value in (0, 1) and not isinstance(value, str):
        return "on" if value else "off"
    return codec_name(value) if value else value


def _encodes(text, stream):
    try:
        text.encode(stream.encoding, stream.errors)
        return True
    except (UnicodeError, LookupError):
        return False


def _names(filesystem, stdout):
    """print() of a name os.listdir() returned, read back as the bytes `ls` would show."""
    try:
        name = SAMPLE_NAME.decode(filesystem.encoding, filesystem.errors)
    except (UnicodeError, LookupError):
        return "fails"
    try:
        shown = name.encode(stdout.encoding, stdout.errors)
    except (UnicodeError, LookupError):
        return "fails"
    return "round-trip" if shown == SAMPLE_NAME else "mojibake"


def _windows_names(stdout):
    """print() of WINDOWS_NAME, as os.listdir() returns it on Windows (text already)."""
    try:
        shown = WINDOWS_NAME.encode(stdout.encoding, stdout.errors)
    except (UnicodeError, LookupError):
        return "fails"
    return "round-trip" if shown.decode(stdout.encoding, "replace") == WINDOWS_NAME else "mojibake"
