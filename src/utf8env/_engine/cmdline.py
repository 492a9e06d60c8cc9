"""Parse a CPython command line the way CPython's own getopt does.

Only what decides the text configuration is kept (-E, -I, the -X options in order),
but every option is walked, so that bundled flags (-IE, -bbX utf8) and the end of
the interpreter options (-c, -m, -, a script name, --) are found exactly where
CPython finds them: Python/getopt.c, Python/initconfig.c (config_parse_cmdline).
"""
from .records import Record, field

# Short options that take an argument; it may be glued on (-Xutf8, -cpass) or be the
# next word. -c and -m also end the interpreter options.
_WITH_ARGUMENT = "cmWX"
# Flags that take no argument, per version (-P arrived in 3.11).
_FLAGS_BEFORE_311 = "bBdEhiIOqRsStuvVx?"
_FLAGS_311 = _FLAGS_BEFORE_311 + "P"
# Long options CPython accepts (with the minimum version where they appeared).
_LONG_OPTIONS = {
    "help": (3, 0), "version": (3, 0),
    "check-hash-based-pycs": (3, 7),
    "help-env": (3, 11), "help-xoptions": (3, 11), "help-all": (3, 11),
}


class CommandLine(Record):
    ignore_environment = field()    # -E or -I: PYTHON* variables are not read
    isolated = field()              # -I
    no_site = field()               # -S: site (and so any sitecustomize) is not imported
    xoptions = field()              # every -X value, in order ("utf8", "utf8=0", "dev")
    error = field()                 # the usage error CPython reports, if any
    rest = field()                  # what follows the interpreter options (-c CMD ..., script ...)
    # Where -c or -m was found: (index of the word, position of the letter in it), so that
    # a rewrite keeps the flags bundled before it (-Oc) and its glued argument (-cCODE).
    command_at = field(None)

    def xoption(self, name):
        """The first -X NAME or -X NAME=VALUE, as CPython's config_get_xoption finds it:
        (True, None) for a bare -X NAME, (True, VALUE) with a value, (False, None) if absent."""
        for option in self.xoptions:
            key, sep, value = option.partition("=")
            if key == name:
                return True, (value if sep else None)
        return False, None


def parse(args, version=(3, 13)):
    """Parse the interpreter options of `args` (the command line without argv[0])."""
    flags = _FLAGS_311 if tuple(version) >= (3, 11) else _FLAGS_BEFORE_311
    ignore_environment = isolated = no_site = False
    xoptions = []
    index = 0
    while index < len(args):
        word = args[index]
        if word == "--":
            return _done(ignore_environment, isolated, no_site, xoptions, None, args[index + 1:])
        if word.startswith("--"):
            name = word[2:].partition("=")[0]
            since = _LONG_OPTIONS.get(name)
            if since is None or tuple(version) < since:
                # 3.6's getopt knows no long options but --help/--version: it reads
                # the second dash as an unknown short option.
                message = ("unknown option --%s" % name if tuple(version) >= (3, 7)
                           else "Unknown option: --")
                return _done(ignore_environment, isolated, no_site, xoptions, message, args[index:])
            index += 1
            if name == "check-hash-based-pycs" and "=" not in word:
                index += 1
            continue
        if word == "-" or not word.startswith("-"):
            return _done(ignore_environment, isolated, no_site, xoptions, None, args[index:])
        position = 1
        while position < len(word):
            letter = word[position]
            if letter in _WITH_ARGUMENT:
                argument = word[position + 1:]
                consumed = 1
                if not argument:
                    if index + 1 >= len(args):
                        return _done(ignore_environment, isolated, no_site, xoptions,
                                     "Argument expected for the -%s option" % letter,
                                     args[index:])
                    argument = args[index + 1]
                    consumed = 2
                if letter in "cm":
                    return _done(ignore_environment, isolated, no_site, xoptions, None,
                                 ("-" + letter, argument) + tuple(args[index + consumed:]),
                                 command_at=(index, position))
                if letter == "X":
                    xoptions.append(argument)
                index += consumed
                break
            if letter not in flags:
                return _done(ignore_environment, isolated, no_site, xoptions,
                             "Unknown option: -%s" % letter, args[index:])
            if letter == "E":
                ignore_environment = True
            elif letter == "I":
                ignore_environment = isolated = True
            elif letter == "S":
                no_site = True
            position += 1
        else:
            index += 1
    return _done(ignore_environment, isolated, no_site, xoptions, None, ())


def _done(ignore_environment, isolated, no_site, xoptions, error, rest, command_at=None):
    # Every field, in order: a record's quick way in (every decide() parses a command line).
    return CommandLine(ignore_environment, isolated, no_site, tuple(xoptions), error, tuple(rest),
                       command_at)
