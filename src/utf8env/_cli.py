"""The command line: `utf8env explain|run|env|matrix ...`. The one place that prints
errors and picks exit codes: 0 ok, 1 a problem found, 2 usage error, and the error
class's own code otherwise (_errors.py); `run` passes the command's status through.

Each subcommand is a declaration (_options.Command) and a handler that takes the parsed
options and the operands (_commands.py lists them; each handler lives with its command:
_explain.py, _launch/run.py, _launch/env.py, matrix/, readiness/, doctor/). Here:
dispatching, and `run -- COMMAND`'s way to its handler without loading _commands.py or
_options.py. Everything written to stdout goes through _output.write."""
import sys

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


def main(argv=None):
    """argv None: this process's own command line; the process is then utf8env's alone and
    ends when main returns (explain and env ask libc's locales in it rather than in a fork)."""
    own_process = argv is None
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        return _dispatch(argv, own_process)
    except BrokenPipeError:
        # stdout's reader went away (output.write, which sent what was left in stdout's
        # buffer to /dev/null): status 1 and no message, as a filter ends in a pipeline.
        return 1
    except Exception as error:
        # _errors is imported only here and where raised: `run` must not pay for it.
        from ._errors import Utf8envError
        if not isinstance(error, Utf8envError):
            raise
        _say_error(error)
        return error.exit_code


def _dispatch(argv, own_process):
    if argv and argv[0] == "--version":
        _write("utf8env %s\n" % __version__)
        return 0
    if not argv or argv[0] in ("-h", "--help"):
        from ._commands import main_help
        _write(main_help())
        return 0 if argv else 2
    if argv[0] == "run":
        if own_process:
            from ._environment import launched
            if not launched():
                from ._launch.run import restart_safely
                restart_safely(argv)        # returns only where it cannot
        operands = _run_operands(argv[1:])
        if operands:
            # `run -- COMMAND`, as an ENTRYPOINT starts: no option, so no declaration to
            # parse with (tests/test_startup_imports.py holds run's imports without options.py).
            from ._launch.run import run
            return run(None, operands)
    from ._commands import COMMANDS
    from ._options import help_text, parse
    for name, declare, handler in COMMANDS:
        if name == argv[0]:
            spec = declare()
            args, operands = parse(spec, argv[1:])
            args.own_process = own_process
            if args.help:
                _write(help_text(spec))
                return 0
            return handler(args, operands)
    from ._errors import UsageError
    raise UsageError("unknown command %r: expected one of %s"
                     % (argv[0], ", ".join(sorted(name for name, _, _ in COMMANDS))))


def _write(text):
    from ._output import write      # not on run's path: run writes nothing to stdout
    write(text)


def _say_error(error):
    try:
        sys.stderr.write("utf8env: error: %s\n" % error)
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        # No stderr (closed, or None) or a full one: the exit status still tells. The
        # line left in a full stderr's buffer would fail again at exit, the interpreter's
        # flush turning the status into 120: it goes to /dev/null instead.
        from ._output import drop_pending
        drop_pending(2)
