"""The command line: `utf8env explain|run|env|matrix ...`. The one place that prints
errors and picks exit codes: 0 ok, 1 a problem found, 2 usage error, and the error
class's own code otherwise (errors.py); `run` passes the command's status through.

Each subcommand is a declaration (options.Command) and a handler that takes the parsed
options and the operands (commands.py); the handlers only connect the parts that do the
work. Here: dispatching, and `run`'s handler, which `run -- COMMAND` reaches without
loading commands.py (its declarations and handlers, 22 KB of bytecode on 3.11)."""
import sys

from .errors import UsageError, Utf8envError
from . import __version__


def _run_operands(words):
    """run's operands where `words` (what follows `run`) gives none of its options: `--
    COMMAND...` or `COMMAND...` (a first word without a dash), as options.parse() finds
    them; else None, and parse() decides. tests/test_launch.py holds the two together."""
    if words and words[0] == "--":
        return words[1:]
    if words and not words[0].startswith("-"):
        return words
    return None


def run(args, command):
    """args None: no option was given (_run_operands)."""
    if not command:
        from .errors import LaunchUsageError
        from .options import usage
        from .commands import declaration
        raise LaunchUsageError("run: no COMMAND given (usage: %s)" % usage(declaration("run")))
    from . import launch
    plan = launch.plan_command(command, launch_switches(args), about_to_exec=True)
    return launch.execute(plan)     # returns only when the launch is refused


def launch_switches(args):
    from .launch import Switches
    if args is None:        # no option given: every switch as declared by default
        return Switches()
    return Switches(utf8=args.utf8, policy=None if args.policy == "default" else args.policy,
                    coercion=args.coercion, warning=args.warning)


def main(argv=None):
    """argv None: this process's own command line; the process is then utf8env's alone and
    ends when main returns (explain and env ask libc's locales in it rather than in a fork)."""
    own_process = argv is None
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        return _dispatch(argv, own_process)
    except Utf8envError as error:
        _say_error(error)
        return error.exit_code
    except BrokenPipeError:
        # stdout's reader went away (output.write, which sent what was left in stdout's
        # buffer to /dev/null): status 1 and no message, as a filter ends in a pipeline.
        return 1


def _dispatch(argv, own_process):
    if argv and argv[0] == "--version":
        write("utf8env %s\n" % __version__)
        return 0
    if not argv or argv[0] in ("-h", "--help"):
        from .commands import main_help
        write(main_help())
        return 0 if argv else 2
    if argv[0] == "run":
        if own_process:
            from .environment import launched
            if not launched():
                from .launch import restart_safely
                restart_safely(argv)        # returns only where it cannot
        operands = _run_operands(argv[1:])
        if operands is not None:
            # `run -- COMMAND`, as an ENTRYPOINT starts: no option, so no declaration to
            # parse with (tests/test_startup_imports.py holds run's imports without options.py).
            return run(None, operands)
    from .commands import COMMANDS
    from .options import help_text, parse
    for name, declare, handler in COMMANDS:
        if name == argv[0]:
            spec = declare()
            args, operands = parse(spec, argv[1:])
            args.own_process = own_process
            if args.help:
                write(help_text(spec))
                return 0
            return handler(args, operands)
    raise UsageError("unknown command %r: expected one of %s"
                     % (argv[0], ", ".join(sorted(name for name, _, _ in COMMANDS))))


def write(text):
    from . import output        # not on run's path: run writes nothing to stdout
    output.write(text)


def _say_error(error):
    try:
        sys.stderr.write("utf8env: error: %s\n" % error)
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        # No stderr (closed, or None) or a full one: the exit status still tells. The
        # line left in a full stderr's buffer would fail again at exit, the interpreter's
        # flush turning the status into 120: it goes to /dev/null instead.
        from .output import drop_pending
        drop_pending(2)
