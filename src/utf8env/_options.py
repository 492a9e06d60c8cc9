"""The one option parser of every subcommand: declared options in, parsed values out,
`--help` and the usage line generated from the same declarations.

A small parser of our own rather than argparse: argparse and the gettext and locale
modules it pulls in would double the start-up cost of `utf8env run` and `explain`, which
are meant to be cheap enough to put in front of every process. The error wording follows
argparse's, which users of Python tools already know.
"""
import sys

from ._errors import UsageError
from ._engine.records import Record, field


class Option(Record):
    names = field()             # ("--env",) or ("-h", "--help")
    dest = field()              # the attribute of the parsed options
    kind = field()              # "flag", "value", "append", "list" (comma-separated, appended)
                                # or "optional" (a value when given with = or when the next
                                # word is one of `choices`, else `const`)
    help = field()              # one line for --help
    metavar = field(None)       # the value's name in --help and the usage line
    const = field(True)         # what a flag stores
    default = field(None)       # the value when not given ([] for append and list)
    usage = field("")           # this option's part of the usage line; None: in another's part
    choices = field(None)       # the accepted values, checked after parsing
    expected = field(None)      # how a refusal describes the accepted values


class Command(Record):
    name = field()              # "explain"
    summary = field()           # one line for `utf8env --help`
    options = field()           # Options, in --help order
    operands = field()          # the usage line's tail: "[--] COMMAND [ARGS...]"
    error = field(UsageError)   # the class of this command's usage errors (its exit code)
    dash_is_operand = field(False)  # "-" alone starts the operands (a command reading stdin)


HELP = Option(("-h", "--help"), "help", "flag", "show this help and exit", usage=None)


# The parsed options: one attribute per option's dest. types.SimpleNamespace, which is
# sys.implementation's type: a class of our own costs a command's start-up more than
# parsing its options, and importing types more still.
_Namespace = type(sys.implementation)


def _parsed(command):
    parsed = _Namespace()
    for option in command.options:
        if not hasattr(parsed, option.dest):        # --warning and --no-warning share one
            setattr(parsed, option.dest, [] if option.kind in ("append", "list") else option.default)
    return parsed


def usage(command):
    return " ".join(["utf8env", command.name] + _usage_parts(command))


def _usage_parts(command):
    return [o.usage for o in command.options if o.usage] + [command.operands]


def _wrap_parts(parts):
    """Lines of at most _WIDTH columns that never break inside one option's part."""
    lines = [parts[0]]
    for part in parts[1:]:
        if len(lines[-1]) + 1 + len(part) > _WIDTH:
            lines.append("    " + part)
        else:
            lines[-1] += " " + part
    return lines


def help_text(command):
    """The whole --help page: the usage line, the summary, every option on one line."""
    import textwrap     # only for --help: it imports re
    lines = _wrap_parts(["usage: utf8env " + command.name] + _usage_parts(command))
    lines += [""] + textwrap.wrap(command.summary, _WIDTH) + ["", "options:"]
    labels = [_label(option) for option in command.options]
    width = min(max(len(label) for label in labels), 24) + 4
    for label, option in zip(labels, command.options):
        head = "  " + label
        if len(head) + 2 > width:       # a long label gets the text on the next line
            lines.append(head)
            head = ""
        lines += textwrap.wrap(option.help, _WIDTH, initial_indent=head.ljust(width),
                               subsequent_indent=" " * width, break_on_hyphens=False)
    return "\n".join(lines) + "\n"


_WIDTH = 79


def _label(option):
    names = ", ".join(option.names)
    return names + (" " + option.metavar if option.metavar else "")


def parse(command, argv):
    """(the parsed options, operands): the operands start at the first word that is not an
    option of `command`, or after "--". Raises command.error for bad input."""
    by_name = {name: option for option in command.options for name in option.names}
    parsed = _parsed(command)
    seen = {}
    index = 0
    words = list(argv)
    while index < len(words):
        word = words[index]
        if word == "--":
            return _checked(command, parsed), words[index + 1:]
        if not word.startswith("-") or (word == "-" and command.dash_is_operand):
            return _checked(command, parsed), words[index:]
        name, has_value, value = word.partition("=") if word.startswith("--") else (word, "", "")
        option = by_name.get(name)
        if option is None:
            raise command.error("unrecognized arguments: %s" % " ".join(words[index:]))
        if option.kind == "flag":
            if has_value:
                raise command.error("argument %s: ignored explicit argument %r" % (name, value))
            if option.dest in seen and seen[option.dest] != name:
                raise command.error("argument %s: not allowed with argument %s"
                                    % (name, seen[option.dest]))
            seen[option.dest] = name
            setattr(parsed, option.dest, option.const)
        elif option.kind == "optional" and not has_value:
            following = words[index + 1] if index + 1 < len(words) else None
            if following is not None and following in (option.choices or ()):
                index += 1
                setattr(parsed, option.dest, following)
            elif following is not None and _looks_like_version(following):
                # `--windows 3.7`: a version it does not offer, never the command's word.
                raise command.error("%s %r: expected %s" % (
                    option.names[-1], following,
                    option.expected or "one of " + ", ".join(option.choices)))
            else:
                setattr(parsed, option.dest, option.const)
        else:
            if not has_value:
                index += 1
                if index >= len(words):
                    raise command.error("argument %s: expected one argument" % name)
                value = words[index]
            if option.kind == "append":
                getattr(parsed, option.dest).append(value)
            elif option.kind == "list":
                getattr(parsed, option.dest).extend(item for item in value.split(",") if item)
            else:
                setattr(parsed, option.dest, value)
        index += 1
    return _checked(command, parsed), []


# The longest wait a --timeout may ask for: poll() takes a C int of milliseconds (2**31 - 1:
# 24.8 days); a longer one ends the wait in OverflowError, not at its deadline.
MAX_SECONDS = (2 ** 31 - 1) // 1000


def seconds(word, default):
    """A --timeout value: a positive number of seconds up to MAX_SECONDS (`default` when
    not given). nan, inf and 1e400 (which is inf) are refused: a cell or run would never
    end; so is a wait the system cannot make."""
    if word is None:
        return default
    try:
        value = float(word)
    except ValueError:
        value = -1
    if not 0 < value <= MAX_SECONDS:
        raise UsageError("--timeout %r: expected a positive number of seconds, at most %d"
                         % (word, MAX_SECONDS))
    return value


def _checked(command, parsed):
    if getattr(parsed, "help", None):
        return parsed        # --help answers whatever else is wrong
    for option in command.options:
        value = getattr(parsed, option.dest)
        if option.choices is None or value is None:
            continue
        for item in (value if isinstance(value, list) else [value]):
            if item not in option.choices:
                raise command.error("%s %r: expected %s" % (
                    option.names[-1], item, option.expected or "one of " + ", ".join(option.choices)))
    return parsed


def _looks_like_version(word):
    """X.Y or X.Y.Z: digits and dots, at least one dot."""
    parts = word.split(".")
    return len(parts) > 1 and all(part.isdigit() for part in parts)
