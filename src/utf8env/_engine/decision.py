"""The engine's records: the Inputs decide() reads, the Decision it gives with a Reason
for every value, and what its rules share (policy.py's docstring): the RuleContext every
rule reads, the Preconfig that pre-initialisation leaves, the Failure of a rule that makes
the interpreter refuse to start, and PYTHON* variables read as start-up reads them."""
from .records import Record, field
from . import UsageError
from .profiles import DEFAULT_CODE_PAGE


class LocaleFacts(Record):
    """Which locale names the target's libc accepts for LC_CTYPE, with the codeset
    (nl_langinfo(CODESET)) of each. Names absent from `codesets` are refused."""
    codesets = field()                  # {name: codeset}
    c_codeset = field(None)             # the C locale's codeset; None: the platform default

    def accepts(self, name):
        return name in self.codesets


class Inputs(Record):
    environ = field()                   # the target's environment
    args = field(())                    # the interpreter command line after argv[0]
    version = field("3.13")             # "3.6" ... "3.15"
    platform = field("linux")
    locales = field(LocaleFacts({}))
    policy = field(None)                # None: the version's own policy
    coercion_switch = field(None)       # --with[out]-c-locale-coercion; None: as built
    warning_switch = field(None)        # --with[out]-c-locale-warning; None: as built
    argv0 = field("python3")            # names the program in usage errors
    windows_console = field(False)      # win32: stdio is a console, not a pipe or file
    ansi_code_page = field(None)        # win32: GetACP(), one of profiles.CODE_PAGES; None:
                                        # not given, 1252 assumed (and said in the Reasons)
    embedded = field(None)              # None: the python command; else how a C program starts
                                        # it: "initialize", "python-config", "isolated-config"
    pth_files = field(None)             # the site module finds a .pth file in a site-packages
                                        # folder it reads: True, False; None: not known, True
                                        # assumed (and said in the Reasons)


class Reason(Record):
    source = field()  # the input that decided ("PYTHONUTF8=1", "-X utf8", "LANG=C", "default")
    detail = field()  # why, in words a user understands


class Stream(Record):
    encoding = field()
    errors = field()


class Coercion(Record):
    target = field()            # the locale name
    environ = field()           # the variables set, as a child sees them


class StartupError(Record):
    message = field()
    exit_code = field()


class Decision(Record):
    python = field()
    platform = field()
    policy = field()
    startup_error = field()                 # a StartupError, or None: it starts
    legacy_c_locale = field()               # bool
    legacy_c_locale_source = field()        # the variable that gave the C locale, or None
    coercion = field()                      # a Coercion, or None
    coercion_warning = field()              # the text printed, or None
    c_locale_warning = field()              # the text printed, or None
    utf8_mode = field()                     # 0, 1 or "strict"
    lc_ctype = field()                      # setlocale(LC_CTYPE, NULL) once started
    filesystem = field()                    # a Stream (encoding, errors); None when it does not start
    stdin = field()                         # Streams, likewise
    stdout = field()
    stderr = field()
    open = field()                          # open()'s default
    preferred_encoding = field()            # locale.getpreferredencoding(False)
    locale_encoding = field()               # locale.getencoding(), 3.11+
    stderr_messages = field()               # the lines printed at start-up, in order
    stderr_complete = field()               # False: the interpreter prints more (a traceback)
    child_environ = field()                 # {name: value, or None if removed}: what a child inherits
    reasons = field()                       # {field: Reason}


class InvalidInput(UsageError, ValueError):
    """An input decide() cannot model (unknown version, policy or platform). A UsageError
    (exit status 2), and still a ValueError for callers written before the error tree."""


class RuleContext(Record):
    """What every rule may read: the inputs, the profile of the interpreter they describe
    (redistributor switches applied) and its parsed command line. Nothing decided."""
    inputs = field()
    profile = field()
    line = field()                      # cmdline.CommandLine
    windows = field()                   # sys.platform == "win32"
    embedding = field(None)             # profiles._Embedding, None for the python command

    @property
    def use_environment(self):
        """PyConfig.use_environment: false under -E or -I, and in the isolated
        configuration of an embedded interpreter."""
        return not self.line.ignore_environment and (
            self.embedding is None or self.embedding.use_environment)

    @property
    def code_page(self):
        """GetACP() on the target: the ANSI code page given, else the one assumed."""
        given = self.inputs.ansi_code_page
        return DEFAULT_CODE_PAGE if given is None else given

    @property
    def code_page_source(self):
        """The input that names the code page, for the Reasons it decides."""
        return "code page %d" % self.code_page

    @property
    def code_page_detail(self):
        """The ANSI code page in words, saying when it is assumed rather than given."""
        if self.inputs.ansi_code_page is None:
            return "the ANSI code page, GetACP() = %d (assumed: no code page was given)" % (
                DEFAULT_CODE_PAGE)
        return "the ANSI code page, GetACP() = %d" % self.code_page

    @property
    def configures_locale(self):
        """PyPreConfig.configure_locale: LC_CTYPE is set from the environment (and may be
        coerced); false in the isolated configuration of an embedded interpreter."""
        return self.embedding is None or self.embedding.configure_locale


class Preconfig(Record):
    """What pre-initialisation leaves for the configuration to read (Python/preconfig.c
    _PyPreConfig_Read and _PyPreConfig_Write: UTF-8 mode, then LC_CTYPE as set)."""
    utf8_mode = field()                 # 0, 1 or "strict"
    utf8_reason = field()               # the Reason of utf8_mode: what the encodings cite
    lc_ctype = field()                  # after any coercion
    codeset = field()                   # nl_langinfo(CODESET) of lc_ctype


class Failure(Record):
    """The value of a rule that makes the interpreter refuse to start."""
    message = field()                   # what it prints, lines joined by "\n"
    exit_code = field()
    reason = field()                    # the Reason of Decision.startup_error
    complete = field(True)              # False: a traceback follows the message
    before = field(())                  # lines printed before the message (stderr_messages only)


def py_getenv(context, use_environment, name):
    """Python/initconfig.c _Py_GetEnv(use_environment, name): a PYTHON* variable as
    start-up reads it. -E/-I (use_environment false) hide it; empty counts as unset."""
    if not use_environment:
        return None
    return context.inputs.environ.get(name) or None


def present_lines(*lines):
    """The lines that are not empty, in order."""
    return tuple(line for line in lines if line)
