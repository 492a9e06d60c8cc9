"""The use cases of PEP 540 ("Use Cases", seed 004) and PEP 538 ("Motivation", seed 002)
as data: each scenario's program in the PEP's words, what it is fed, who reads its
output and in which encoding, what counts as mojibake; and the PEPs' published
Exception?/Mojibake? tables, to compare the measurement with.

Pure data; matrix.py runs and judges it.
"""
from .records import Record, field

# The PEP's row names, then the rows it could not have (what shipped after it).
PEP_ROWS = ("Python 2", "Python 3", "Python 3.5, POSIX locale", "UTF-8 mode", "UTF-8 Strict mode")
EXTRA_ROWS = ("3.7+ C locale, as shipped", "3.7+ C locale, coercion and UTF-8 mode off",
              "3.15 default (PEP 686)", "no locale installed")
ROWS = PEP_ROWS + EXTRA_ROWS

HOSTILE_NAME = b"xxx\xff"           # PEP 540: "the byte 0xFF is invalid in UTF-8"
REPLACE_INPUT = b"I like apple pie \xff\n"
REPLACE_OUTPUT = b"I like orange pie \xff\n"
LEGACY_BYTES = "apple caf\u00e9\n".encode("latin-1")   # what the bytes producer writes
EURO = "euro: \u20ac\n"
PYTHONIC = "\u2119\u01b4\u2602\u210c\u00f8\u1f24"    # PEP 538: print("ℙƴ☂ℌøἤ")


class Scenario(Record):
    name = field()
    title = field()            # the PEP's section title
    source = field()           # where the scenario is written
    program = field()          # Python 3 source, the PEP's words (None: `command`, or no Python producer)
    program2 = field()         # the same for Python 2 (unicode literal where the PEP means text)
    command = field()          # extra interpreter arguments instead of a script (PEP 538's -c)
    command2 = field()         # the same for Python 2
    producer = field()         # "python" or "bytes" (printf)
    consumer = field()         # "terminal", "file", "bytes" (cat), "python", "iconv-gb18030"
    stdin = field()            # bytes fed to the producer
    files = field()            # names created in the working directory
    terminal = field()         # the consumer's encoding when the scenario fixes it
    meant = field()            # the text the consumer should get (str), or the bytes for `replace`
    mojibake = field()         # the definition, in words (the README's)


_LS = "import os\nfor name in os.listdir(os.curdir):\n    print(name)\n"
_LS_FILE = ('import os\nnames = os.listdir(os.curdir)\nwith open("../content.txt", "w") as fp:\n'
            '    for name in names:\n        fp.write("%s\\n" % name)\n')
_EURO = 'print("euro: \\u20ac")\n'
_EURO_2 = 'print(u"euro: \\u20ac")\n'
_REPLACE = 'import sys\ntext = sys.stdin.read()\nsys.stdout.write(text.replace("apple", "orange"))\n'
# The PEP's Python consumer, plus one line: it reports what it decoded, in ASCII, to a
# file beside its working directory (the evidence of mojibake).
CONSUMER = ('import sys\ntext = sys.stdin.read()\nresult = text.replace("apple", "orange")\n'
            '# ignore the result\nopen("../read.txt", "w").write(ascii(text))\n')
CONSUMER2 = CONSUMER.replace("ascii(text)", "repr(text)")
# The PEP's bytes producer: a real command writing Latin-1 bytes.
BYTES_PRODUCER = ("printf", "apple caf\\351\\n")

SCENARIOS = (
    Scenario("ls-stdout", "List a directory into stdout", "PEP 540", _LS, _LS, (), (),
             "python", "terminal", b"", (HOSTILE_NAME,), None, HOSTILE_NAME,
             "the terminal (its encoding) cannot show the listed name as the name decoded in "
             "that encoding: b'xxx\\xff' has no UTF-8 text at all, so a UTF-8 terminal shows "
             "mojibake for any output of it; a Latin-1 terminal shows 'xxx\u00ff' correctly"),
    Scenario("ls-file", "List a directory into a text file", "PEP 540", _LS_FILE, _LS_FILE, (), (),
             "python", "file", b"", (HOSTILE_NAME,), None, HOSTILE_NAME,
             "the same test as ls-stdout on the bytes of the written file, read in the "
             "declared encoding of the environment"),
    Scenario("euro", "Display Unicode characters into stdout", "PEP 540", _EURO, _EURO_2, (), (),
             "python", "terminal", b"", (), None, EURO,
             "stdout does not decode (strictly, in the terminal's encoding) to 'euro: \u20ac\\n'"),
    Scenario("replace", "Replace a word in a text", "PEP 540", _REPLACE, _REPLACE, (), (),
             "python", "terminal", REPLACE_INPUT, (), None, REPLACE_OUTPUT,
             "stdout is not the input bytes with apple replaced by orange, or it does not "
             "decode in the terminal's encoding (the input's 0xFF is invalid UTF-8)"),
    Scenario("py-to-bytes", "Python producer, Bytes consumer", "PEP 540", _EURO, _EURO_2, (), (),
             "python", "bytes", b"", (), None, EURO,
             "what cat stores does not decode, in the environment's encoding, to 'euro: \u20ac\\n'"),
    Scenario("bytes-to-py", "Bytes producer, Python consumer", "PEP 540", None, None, (), (),
             "bytes", "python", b"", (), None, "apple caf\u00e9\n",
             "the text the consumer read is not 'apple caf\u00e9\\n' (printf writes it in "
             "Latin-1, as a legacy program would); Python 2 reads bytes: mojibake unless they "
             "are that text in the environment's encoding"),
    Scenario("py-to-py", "Python producer, Python consumer", "PEP 540",
             _EURO, _EURO_2, (), (), "python", "python", b"", (), None, EURO,
             "the text the consumer read is not 'euro: \u20ac\\n'"),
    Scenario("pep538", "print(\"\u2119\u01b4\u2602\u210c\u00f8\u1f24\") in a container", "PEP 538",
             None, None, ("-c", 'print("%s")' % PYTHONIC), ("-c", 'print(u"%s")' % PYTHONIC),
             "python", "terminal", b"", (), None, PYTHONIC + "\n",
             "stdout does not decode, in the terminal's encoding, to the six characters"),
    Scenario("gb18030", "A GB-18030 terminal (iconv -f gb18030 -t utf8)", "PEP 540", _EURO, _EURO_2,
             (), (), "python", "iconv-gb18030", b"", (), "gb18030", EURO,
             "stdout does not decode as GB-18030 to 'euro: \u20ac\\n' (iconv's own output "
             "is kept as evidence)"),
)
BY_NAME = {s.name: s for s in SCENARIOS}

# The PEP's tables: scenario -> row -> (Exception?, Mojibake?); True/False, None when the
# PEP says nothing. "No(!)" of py-to-py is False.
Y, N = True, False
_T = {
    "ls-stdout": ((N, Y), (Y, N), (N, Y), (N, Y), (Y, N)),
    "ls-file": ((N, Y), (Y, N), (Y, N), (N, Y), (Y, N)),
    "euro": ((Y, N), (Y, N), (Y, N), (N, Y), (N, Y)),
    "replace": ((N, Y), (Y, N), (N, Y), (N, Y), (Y, N)),
    "py-to-bytes": ((Y, N), (Y, N), (Y, N), (N, Y), (N, Y)),
    "bytes-to-py": ((N, Y), (Y, N), (N, Y), (N, Y), (Y, N)),
    "py-to-py": ((Y, N), (Y, N), (Y, N), (N, N), (N, N)),
    # Seed 002 "Motivation": fails in the POSIX locale of a container, works under C.UTF-8
    # and locally (a UTF-8 locale). Nothing about Python 2 or the UTF-8 modes.
    "pep538": ((None, None), (N, N), (Y, N), (None, None), (None, None)),
    # PEP 540 under "Display Unicode characters": the UTF-8 modes "always encode the euro
    # sign as UTF-8. If the terminal uses a different encoding, we get mojibake."
    "gb18030": ((None, None), (None, None), (None, None), (None, Y), (None, Y)),
}
PEP_TABLES = {name: dict(zip(PEP_ROWS, rows)) for name, rows in _T.items()}


def pep_value(scenario: str, row: str):
    """(exception, mojibake) published for this cell, each True/False/None; None when the
    row is not one of the PEP's."""
    return PEP_TABLES.get(scenario, {}).get(row)
