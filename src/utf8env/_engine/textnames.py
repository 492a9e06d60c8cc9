"""How CPython spells and splits the names of text codecs, written once for the engine
(which predicts) and for the child-side code (which applies and observes).

STANDALONE, as _child/ is: standard library only, no relative imports, Python 3.6 syntax;
_child/reconfigure.py imports it from this folder inside child interpreters (a 3.6 child's
bootstrap puts the folder on sys.path for that import), and matrix/_pep.py sends its source.
"""
import codecs


def lookup(name):
    """codecs.lookup(), or None where CPython would find no codec (also for names that
    are not even encodable, such as undecodable bytes from the environment)."""
    try:
        return codecs.lookup(name)
    except (LookupError, UnicodeError, ValueError, TypeError):
        return None


def codec_name(name):
    """The Python codec name of `name` (Python/initconfig.c config_get_codec_name:
    codecs.lookup(name).name), or `name` itself when no codec has it."""
    codec = lookup(name)
    return codec.name if codec else name


def split_pythonioencoding(value):
    """PYTHONIOENCODING as Python/initconfig.c config_init_stdio_encoding reads it:
    (encoding or None, errors or None). "ENC" alone means ENC with strict; ":ERR" sets
    only the error handler; ":" and "" set nothing."""
    if not value:
        return None, None
    encoding, _, errors = value.partition(":")
    encoding = encoding or None
    errors = errors or None
    if encoding and not errors:
        errors = "strict"
    return encoding, errors
