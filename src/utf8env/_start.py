"""The start of utf8env's own interpreter when the `utf8env` command (scripts/launcher.c,
the stub scripts/utf8env.sh) or a re-exec of utf8env itself (launch.restart_safely) started
it: `-I -S`, LC_ALL=C, the variables kept aside given as arguments.

Why that world: an interpreter started in the user's locale can die before a line of
utf8env runs (a codeset CPython has no codec for: ARMSCII-8, GEORGIAN-PS, EUC-TW), and in
a legacy CJK locale it decodes arguments with libc's tables and encodes them back with its
own codec, which differ (Big5 A\\xa1\\xfeB came back as A\\xa2AB). With LC_ALL=C, 3.7+ is
in UTF-8 mode and 3.6 in ASCII, both with surrogateescape: every byte decodes and encodes
back to itself. The user's environment is then rebuilt from what arrived, for utf8env to
reason about (environment.inherited)."""
import sys


def start():
    """sys.argv: [-c, the companion or the package's folder, the plan's descriptor or "",
    the mask of ignored signals or "", the command line of an earlier start that printed
    its warnings or "" (launch.restart_safely), N, N entries NAME=value, M, M pairs NAME,
    CODESET (the starter's answers to the locale question, locales.py; CODESET "": a name
    setlocale refused), utf8env's arguments] (scripts/start.py). Exits with main()'s
    status."""
    plan_fd, ignored, printed = sys.argv[2:5]
    kept_end = 6 + int(sys.argv[5])
    kept = sys.argv[6:kept_end]
    answers_end = kept_end + 1 + 2 * int(sys.argv[kept_end])
    answers = sys.argv[kept_end + 1:answers_end]
    del sys.argv[1:answers_end]
    from . import _environment as environment
    environment.start_launched(kept, ignored or None, printed.split()[1:] if printed else None,
                               dict(zip(answers[0::2], answers[1::2])))
    from ._cli import main
    if not plan_fd:
        _stdout_as_utf8_mode_writes()
        sys.exit(main())
    from ._launch import run as launch
    launch.plan_fd = int(plan_fd)
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
