"""The use cases of PEP 540 ("Use Cases", seed 004) and PEP 538 ("Motivation", seed 002)
as data: each scenario's program in the PEP's words, what it is fed, who reads its
output and in which encoding, what counts as mojibake and the classifier that decides
it; and the PEPs' published Exception?/Mojibake? values, to compare the measurement with.

pep.py runs the scenarios; each classifier here says, from the evidence of one cell,
what was produced, what the consumer should have got, and whether it is mojibake.
"""
from .._engine.records import Record, field

# The PEP's row names, then the rows it could not have (what shipped after it).
PEP_ROWS = ("Python 2", "Python 3", "Python 3.5, POSIX locale", "UTF-8 mode", "UTF-8 Strict mode")
_EXTRA_ROWS = ("3.7+ C locale, as shipped", "3.7+ C locale, coercion and UTF-8 mode off",
              "3.15 default (PEP 686)", "no locale installed")
ROWS = PEP_ROWS + _EXTRA_ROWS

HOSTILE_NAME = b"xxx\xff"           # PEP 540: "the byte 0xFF is invalid in UTF-8"
_REPLACE_INPUT = b"I like apple pie \xff\n"
_REPLACE_OUTPUT = b"I like orange pie \xff\n"
_LEGACY_BYTES = "apple caf\u00e9\n".encode("latin-1")   # what the bytes producer writes
_EURO_TEXT = "euro: \u20ac\n"
_PYTHONIC = "\u2119\u01b4\u2602\u210c\u00f8\u1f24"    # PEP 538: print("ℙƴ☂ℌøἤ")


class Scenario(Record):
    name = field()
    title = field()            # the PEP's section title
    source = field()           # where the scenario is written
    producer = field()         # "python" or "bytes" (printf)
    consumer = field()         # "terminal", "file", "bytes" (cat), "python", "iconv-gb18030"
    meant = field()            # the text the consumer should get (str), or the bytes for `replace`
    mojibake = field()         # the definition, in words (docs/matrix.md's)
    classify = field()         # classify(scenario, Evidence) -> _Verdict: the definition, as code
    published = field()        # (Exception?, Mojibake?) per PEP_ROWS, each True/False/None
    program = field(None)      # Python 3 source, the PEP's words (None: `command`, or no Python producer)
    program2 = field(None)     # the same for Python 2 (unicode literal where the PEP means text)
    command = field(())        # extra interpreter arguments instead of a script (PEP 538's -c)
    command2 = field(())       # the same for Python 2
    stdin = field(b"")         # bytes fed to the producer
    files = field(())          # names created in the working directory
    terminal = field(None)     # the consumer's encoding when the scenario fixes it


class Evidence(Record):
    """What one cell left for its classifier."""
    encoding = field()         # the consumer's encoding (the scenario's, else the environment's)
    stdout = field()           # the producer's stdout (bytes)
    files = field()            # {name: bytes or None} of content.txt and read.txt
    version = field()          # the interpreter's "X.Y"


class _Verdict(Record):
    produced = field()         # the bytes the consumer got (None: nothing to show)
    expected = field()         # the bytes it should have got (None: none in its encoding)
    mojibake = field()


# -- what the classifiers share ---------------------------------------------------------

def _shown_wrong(produced, meant, encoding):
    """Mojibake at a consumer that decodes `produced` with `encoding`: it does not get
    `meant` (None: no text in that encoding is right). Nothing produced: nothing wrong."""
    if not produced:
        return False
    if meant is None:
        return True
    try:
        return produced.decode(encoding) != meant
    except UnicodeDecodeError:
        return True


def _text_in(data, encoding):
    """`data` decoded with `encoding`, or None where it does not decode."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None


def _encoded(text, encoding):
    try:
        return text.encode(encoding)
    except UnicodeEncodeError:
        return None     # no bytes in that encoding show this text


def _shown_text(s, ev):
    """The consumer (a terminal, cat's file, iconv) decodes stdout strictly."""
    return _Verdict(produced=ev.stdout, expected=_encoded(s.meant, ev.encoding),
                   mojibake=_shown_wrong(ev.stdout, s.meant, ev.encoding))


def _listing(s, ev, produced):
    """b'xxx\\xff' listed: right only as the name decoded in the consumer's encoding."""
    name = _text_in(s.meant, ev.encoding)
    meant = None if name is None else name + "\n"
    return _Verdict(produced=produced, expected=s.meant + b"\n",
                   mojibake=_shown_wrong(produced, meant, ev.encoding))


def _listed_on_stdout(s, ev):
    return _listing(s, ev, ev.stdout)


def _listed_in_file(s, ev):
    return _listing(s, ev, ev.files.get("content.txt"))


def _replaced(s, ev):
    """The bytes must come back with only the word replaced, and still decode."""
    produced = ev.stdout
    mojibake = bool(produced) and (produced != s.meant or _text_in(produced, ev.encoding) is None)
    return _Verdict(produced=produced, expected=s.meant, mojibake=mojibake)


def _consumer_read(s, ev):
    """The PEP's Python consumer reports what it decoded (read.txt, its ascii())."""
    import ast
    expected = _encoded(s.meant, ev.encoding) if s.producer == "python" else _LEGACY_BYTES
    report = ev.files.get("read.txt")
    read = None
    if report:
        try:
            read = ast.literal_eval(report.decode("ascii"))
        except (ValueError, SyntaxError, UnicodeDecodeError):
            read = None
    if isinstance(read, str) and ev.version == "2.7":
        read = _text_in(read.encode("latin-1"), ev.encoding)   # Python 2 read bytes: in its locale
        mojibake = read != s.meant
    else:   # no report: the consumer did not get to the end
        mojibake = report is not None and read != s.meant
    if not ev.stdout:   # the consumer cannot misread what the producer never wrote
        mojibake = False
    return _Verdict(produced=ev.stdout, expected=expected, mojibake=mojibake)


# -- the scenarios ----------------------------------------------------------------------

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

# The PEP's tables, per scenario: (Exception?, Mojibake?) for each of PEP_ROWS; None
# where the PEP says nothing. "No(!)" of py-to-py is False.
Y, N = True, False
_SILENT = (None, None)

SCENARIOS = (
    Scenario(
        name="ls-stdout", title="List a directory into stdout", source="PEP 540",
        program=_LS, program2=_LS, producer="python", consumer="terminal",
        files=(HOSTILE_NAME,), meant=HOSTILE_NAME, classify=_listed_on_stdout,
        mojibake="the terminal (its encoding) cannot show the listed name as the name decoded in "
                 "that encoding: b'xxx\\xff' has no UTF-8 text at all, so a UTF-8 terminal shows "
                 "mojibake for any output of it; a Latin-1 terminal shows 'xxx\u00ff' correctly",
        published=((N, Y), (Y, N), (N, Y), (N, Y), (Y, N))),
    Scenario(
        name="ls-file", title="List a directory into a text file", source="PEP 540",
        program=_LS_FILE, program2=_LS_FILE, producer="python", consumer="file",
        files=(HOSTILE_NAME,), meant=HOSTILE_NAME, classify=_listed_in_file,
        mojibake="the same test as ls-stdout on the bytes of the written file, read in the "
                 "declared encoding of the environment",
        published=((N, Y), (Y, N), (Y, N), (N, Y), (Y, N))),
    Scenario(
        name="euro", title="Display Unicode characters into stdout", source="PEP 540",
        program=_EURO, program2=_EURO_2, producer="python", consumer="terminal",
        meant=_EURO_TEXT, classify=_shown_text,
        mojibake="stdout does not decode (strictly, in the terminal's encoding) to 'euro: \u20ac\\n'",
        published=((Y, N), (Y, N), (Y, N), (N, Y), (N, Y))),
    Scenario(
        name="replace", title="Replace a word in a text", source="PEP 540",
        program=_REPLACE, program2=_REPLACE, producer="python", consumer="terminal",
        stdin=_REPLACE_INPUT, meant=_REPLACE_OUTPUT, classify=_replaced,
        mojibake="stdout is not the input bytes with apple replaced by orange, or it does not "
                 "decode in the terminal's encoding (the input's 0xFF is invalid UTF-8)",
        published=((N, Y), (Y, N), (N, Y), (N, Y), (Y, N))),
    Scenario(
        name="py-to-bytes", title="Python producer, Bytes consumer", source="PEP 540",
        program=_EURO, program2=_EURO_2, producer="python", consumer="bytes",
        meant=_EURO_TEXT, classify=_shown_text,
        mojibake="what cat stores does not decode, in the environment's encoding, to 'euro: \u20ac\\n'",
        published=((Y, N), (Y, N), (Y, N), (N, Y), (N, Y))),
    Scenario(
        name="bytes-to-py", title="Bytes producer, Python consumer", source="PEP 540",
        producer="bytes", consumer="python", meant="apple caf\u00e9\n", classify=_consumer_read,
        mojibake="the text the consumer read is not 'apple caf\u00e9\\n' (printf writes it in "
                 "Latin-1, as a legacy program would); Python 2 reads bytes: mojibake unless they "
                 "are that text in the environment's encoding",
        published=((N, Y), (Y, N), (N, Y), (N, Y), (Y, N))),
    Scenario(
        name="py-to-py", title="Python producer, Python consumer", source="PEP 540",
        program=_EURO, program2=_EURO_2, producer="python", consumer="python",
        meant=_EURO_TEXT, classify=_consumer_read,
        mojibake="the text the consumer read is not 'euro: \u20ac\\n'",
        published=((Y, N), (Y, N), (Y, N), (N, N), (N, N))),
    Scenario(
        name="pep538", title="print(\"\u2119\u01b4\u2602\u210c\u00f8\u1f24\") in a container",
        source="PEP 538",
        command=("-c", 'print("%s")' % _PYTHONIC), command2=("-c", 'print(u"%s")' % _PYTHONIC),
        producer="python", consumer="terminal", meant=_PYTHONIC + "\n", classify=_shown_text,
        mojibake="stdout does not decode, in the terminal's encoding, to the six characters",
        # Seed 002 "Motivation": fails in the POSIX locale of a container, works under
        # C.UTF-8 and locally (a UTF-8 locale). Nothing about Python 2 or the UTF-8 modes.
        published=(_SILENT, (N, N), (Y, N), _SILENT, _SILENT)),
    Scenario(
        name="gb18030", title="A GB-18030 terminal (iconv -f gb18030 -t utf8)", source="PEP 540",
        program=_EURO, program2=_EURO_2, producer="python", consumer="iconv-gb18030",
        terminal="gb18030", meant=_EURO_TEXT, classify=_shown_text,
        mojibake="stdout does not decode as GB-18030 to 'euro: \u20ac\\n' (iconv's own output "
                 "is kept as evidence)",
        # PEP 540 under "Display Unicode characters": the UTF-8 modes "always encode the
        # euro sign as UTF-8. If the terminal uses a different encoding, we get mojibake."
        published=(_SILENT, _SILENT, _SILENT, (None, Y), (None, Y))),
)
BY_NAME = {s.name: s for s in SCENARIOS}

# scenario -> row -> (Exception?, Mojibake?)
_PEP_TABLES = {s.name: dict(zip(PEP_ROWS, s.published)) for s in SCENARIOS}


def pep_value(scenario, row):
    """(exception, mojibake) published for this cell, each True/False/None; None when the
    row is not one of the PEP's."""
    return _PEP_TABLES.get(scenario, {}).get(row)
