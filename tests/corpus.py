"""The shared case corpus: inputs -> expected start-up configuration.

Every case runs twice: through utf8env.decide() in-process (tests/test_policy_corpus.py)
and through the real interpreter in the real locale world (tests/test_ground_truth.py).
An expectation therefore states what CPython really does, never what the engine says.
"""
from typing import NamedTuple

WORLDS = ("installed", "no-locales", "en_US-only", "latin1", "gb18030")

# The fields an expectation may assert; the probe reports every one of them.
#   utf8_mode          0 or 1 (3.6 reports 0: it has no UTF-8 mode)
#   filesystem         (encoding, errors) of sys.getfilesystemencoding/getfilesystemencodeerrors
#   stdin/stdout/stderr (encoding, errors)
#   open               (encoding, errors) of open(os.devnull) with no encoding argument
#   preferred_encoding locale.getpreferredencoding(False)
#   locale_encoding    locale.getencoding() (3.11+), None before
#   lc_ctype           locale.setlocale(LC_CTYPE, None) once started
#   child_environ      {name: value or None (removed)}: what differs from the given env in os.environ
#   stderr_messages    list of the lines the interpreter printed at start-up
#   exit_code          the exit status
# Encodings are compared after codecs.lookup() normalisation.
FIELDS = ("utf8_mode", "filesystem", "stdin", "stdout", "stderr", "open",
          "preferred_encoding", "locale_encoding", "lc_ctype", "child_environ",
          "stderr_messages", "exit_code")


class Case(NamedTuple):
    name: str        # unique id
    world: str       # one of WORLDS
    env: dict        # the complete environment of the interpreter (env -i semantics)
    options: tuple   # interpreter options before "-c PROBE", e.g. ("-X", "utf8=0")
    versions: str    # "3.7-3.13", "3.8+", "3.6", "all" (3.6 to 3.15)
    expect: dict     # field -> expected value, only the fields this case asserts
    source: str      # where the expectation comes from


def version_in(version, spec):
    """True when "3.9" is covered by a spec such as "3.7-3.13", "3.8+", "3.6" or "all"."""
    def key(text):
        return tuple(int(part) for part in text.split("."))
    if spec == "all":
        return True
    if spec.endswith("+"):
        return key(version) >= key(spec[:-1])
    if "-" in spec:
        low, high = spec.split("-")
        return key(low) <= key(version) <= key(high)
    return key(version) == key(spec)
