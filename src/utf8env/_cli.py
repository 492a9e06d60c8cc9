"""The command line: `utf8env explain|run|env|matrix ...`. The one place that prints
errors and picks exit codes: 0 ok, 1 a problem found, 2 usage error, and the error
class's own code otherwise (_errors.py); `run` passes the command's status through.

Each subcommand is a declaration (_options.Command) and a handler that takes the parsed
options and the operands (_commands.py lists them; each handler lives with its command:
_explain.py, _run.py, _env.py, matrix/, readiness/, doctor/). Here:
dispatching, and `run -- COMMAND`'s way to its handler without loading _commands.py or
_options.py. Everything written to stdout goes through _output.write.

start() is where utf8env's own interpreter begins when the `utf8env` command (the
compiled launcher, scripts/launcher.c, or the stub, scripts/utf8env.sh) or a re-exec of
utf8env itself (_run.py restart_safely) started it: `-I -S`, LC_ALL=C, the
variables kept aside given as arguments. Why that world: an interpreter started in the
user's locale can die before a line of utf8env runs (a codeset CPython has no codec for:
ARMSCII-8, GEORGIAN-PS, EUC-TW), and in a legacy CJK locale it decodes arguments with
libc's tables and encodes them back with its own codec, which differ (Big5 A\\xa1\\xfeB
came back as A\\xa2AB). With LC_ALL=C, 3.7+ is in UTF-8 mode and 3.6 in ASCII, both with
surrogateescape: every byte decodes and encodes back to itself. The user's environment
is then rebuilt from what arrived, for utf8env to reason about (_environment.inherited).
It lives here, not in a module of its own, because every module costs `run`'s start-up
(benchmarks/bench_launch.py)."""
import sys

from . import __version__


def _run_operands(words):
    """run's operands where `words` (what follows `run`) gives none of its options: `--
    COMMAND...` or `COMMAND...` (a first word without a dash), as options.parse() finds
    them; else None, and _options.parse() decides. tests/test_launch.py holds the two together."""
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
        # stdout's reader went away (_output.write, which sent what was left in stdout's
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
    if sys.platform == "win32":
        from ._commands import windows_refusal
        refusal = windows_refusal(argv[0])
        if refusal:
            from ._errors import UsageError
            raise UsageError(refusal)
    if argv[0] == "run":
        if own_process:
            from ._environment import launched
            if not launched():
                from ._run import restart_safely
                restart_safely(argv)        # returns only where it cannot
        operands = _run_operands(argv[1:])
        if operands:
            # `run -- COMMAND`, as an ENTRYPOINT starts: no option, so no declaration to
            # parse with (tests/test_startup_imports.py holds run's imports without options.py).
            from ._run import run
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
    from ._output import error_line, to_stderr      # not on run's path until an error is said
    to_stderr("utf8env: error: %s\n" % error_line(str(error)))


launched_by = None   # the installed command that started us, its real path (start() sets it)


def start():
    """sys.argv: [-c, the installed command's path or "", the folder it found utf8env in
    (lib/pythonX.Y) or the package's folder, the plan's descriptor or "", the mask of
    ignored signals or "", the command line of an earlier start that printed its warnings
    or "" (_run.restart_safely), N, N entries NAME=value, M, M pairs NAME, CODESET (the
    starter's answers to the locale question, _environment.py; CODESET "": a name
    setlocale refused), utf8env's arguments] (scripts/start.py). Exits with main()'s
    status."""
    global launched_by
    launched_by = sys.argv[1] or None
    plan_fd, ignored, printed = sys.argv[3:6]
    kept_end = 7 + int(sys.argv[6])
    kept = sys.argv[7:kept_end]
    answers_end = kept_end + 1 + 2 * int(sys.argv[kept_end])
    answers = sys.argv[kept_end + 1:answers_end]
    del sys.argv[1:answers_end]
    from . import _environment as environment
    environment.start_launched(kept, ignored or None, printed.split()[1:] if printed else None,
                               dict(zip(answers[0::2], answers[1::2])))
    if not plan_fd:
        _stdout_as_utf8_mode_writes()
        sys.exit(main())
    environment.plan_fd = int(plan_fd)
    try:
        status = main()
    except SystemExit:
        raise
    except BaseException:
        # A failure of utf8env's own, never to be taken for the command's status.
        import traceback
        traceback.print_exc()
        status = 125
    sys.exit(status)


def _stdout_as_utf8_mode_writes():
    """3.7+ in LC_ALL=C is in UTF-8 mode: stdout writes UTF-8, and the bytes of the user's
    environment that arrived undecodable go out as they came (surrogateescape). 3.6 there
    writes ASCII, and would fail on utf8env's own "\u2026": it gets the same stdout."""
    if sys.version_info >= (3, 7) or sys.stdout is None:
        return
    import io
    stream = sys.stdout
    try:
        stream.flush()
        sys.stdout = io.TextIOWrapper(stream.detach(), "utf-8", "surrogateescape",
                                      line_buffering=stream.line_buffering)
    except (OSError, ValueError):
        pass        # a stdout that cannot be used: output.write says so at the first write
