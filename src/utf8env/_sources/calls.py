"""Which calls open text in the locale's encoding by default: the one table scan.py
judges calls by, and that prefilter.py and chunks.py derive what to search for from.

FUNCTIONS: qualified name -> (shown name, mode's position, text by default, encoding's
position, kind); METHODS: the same for the method calls known by their receiver."""

MODE, TEXT, SUBPROCESS, POPEN, FILEINPUT = "mode", "text", "subprocess", "popen", "fileinput"
FUNCTIONS = {
    "builtins.open": ("open", 1, True, 3, MODE),
    "io.open": ("io.open", 1, True, 3, MODE),
    "os.fdopen": ("os.fdopen", 1, True, 3, MODE),
    "io.TextIOWrapper": ("io.TextIOWrapper", None, True, 1, TEXT),
    "tempfile.TemporaryFile": ("tempfile.TemporaryFile", 0, False, 2, MODE),
    "tempfile.NamedTemporaryFile": ("tempfile.NamedTemporaryFile", 0, False, 2, MODE),
    "tempfile.SpooledTemporaryFile": ("tempfile.SpooledTemporaryFile", 1, False, 3, MODE),
    "os.popen": ("os.popen", None, True, None, POPEN),
    "fileinput.input": ("fileinput.input", None, True, None, FILEINPUT),
    "fileinput.FileInput": ("fileinput.FileInput", None, True, None, FILEINPUT),
}
for _name in ("run", "Popen", "check_output", "call", "check_call"):
    FUNCTIONS["subprocess." + _name] = ("subprocess." + _name, None, False, None, SUBPROCESS)
# The functions' own names: an attribute's call named otherwise is none of them.
LAST_NAMES = frozenset(name.rsplit(".", 1)[1] for name in FUNCTIONS)
READ_TEXT = ("Path.read_text", None, True, 0, TEXT)
WRITE_TEXT = ("Path.write_text", None, True, 1, TEXT)
PATH_OPEN = ("Path.open", 0, True, 2, MODE)
CONFIG_READ = ("ConfigParser.read", None, True, 1, TEXT)

PATH_CLASSES = ("Path", "PosixPath", "WindowsPath")
PATH_METHODS = ("with_name", "with_suffix", "with_stem", "joinpath", "resolve", "absolute",
                "expanduser", "relative_to", "home", "cwd", "readlink")
PATH_ITERATORS = ("glob", "rglob", "iterdir")
CONFIGPARSERS = ("ConfigParser", "RawConfigParser", "SafeConfigParser")

# What makes a subprocess call's output text (scan's _judge), and the method calls scan's
# _spec knows by their receiver: prefilter derives from these and FUNCTIONS which files
# need parsing, chunks which functions.
TEXT_KEYWORDS = ("text", "universal_newlines", "errors")
METHODS = (READ_TEXT, WRITE_TEXT, PATH_OPEN, CONFIG_READ)
