"""`utf8env matrix`: run(options, command) -> exit status, which runs the PEP reproduction
or the user's command and prints report.py's page. utf8env/_cli.py declares and parses the
options (the one parser); this checks what only the matrix knows. Raises UsageError for
bad input; utf8env._cli.main prints it."""
import signal

from .._errors import UsageError
from .. import _output as output
from .. import _discovery as discovery
from .._options import seconds
from .._worlds import env_sets as environments
from . import _pep as pep, _program as program, _report as report, _windows
from ._pep import DEFAULT_TIMEOUT

INTERRUPTED = 130


class _Ended(KeyboardInterrupt):
    """SIGTERM or SIGHUP (`timeout`, `kill`, a closed terminal): the run ends as Ctrl-C
    ends it (a KeyboardInterrupt, which the runners' pool already answers by stopping
    them), so that its cells' processes and folders go with it."""


class _EndedBySignals(object):
    """SIGTERM and SIGHUP raise _Ended while the matrix runs, where they would otherwise
    kill it at once and leave its runners, their jobs and the cells' folders behind. A
    signal ignored on entry (nohup's SIGHUP) stays ignored; outside the main thread (a
    library caller's thread) nothing is changed. After the first, the others are ignored
    until the run has ended, so that nothing cuts the clean-up short."""

    NAMES = ("SIGTERM", "SIGHUP")

    def __enter__(self):
        self.old = {}
        for name in self.NAMES:
            signum = getattr(signal, name)
            if signal.getsignal(signum) is not signal.SIG_DFL:
                continue
            try:
                self.old[signum] = signal.signal(signum, self._handle)
            except ValueError:          # not the main thread
                pass
        return self

    def _handle(self, signum, frame):
        for other in self.old:
            signal.signal(other, signal.SIG_IGN)
        raise _Ended(signum)

    def __exit__(self, *exc):
        for signum, old in self.old.items():
            signal.signal(signum, old)


def _progress():
    """matrix's progress line on a terminal (_output.progress)."""
    return output.progress("utf8env matrix", "jobs")


def _timeout(word):
    return seconds(word, DEFAULT_TIMEOUT)


def run(options, command):
    """Run the matrix the parsed `options` ask for on the operands `command`; the exit
    status (1: a cell of the user's command has a problem, or an environment set asked
    for could not be made here). A locale world that cannot be made here leaves out its
    environments, each said in one line of the report; the others still run."""
    command = tuple(command or ())
    timeout = _timeout(options.timeout)
    pythons = discovery.named(options.python)
    try:
        with _EndedBySignals():
            if not command:
                return _pep(options, pythons, timeout)
            return _program(options, command, pythons, timeout)
    except _Ended as ended:
        # As the shell reports a command a signal ended: 128 + its number.
        output.to_stderr("utf8env: matrix: ended by %s\n" % signal.Signals(ended.args[0]).name)
        return 128 + ended.args[0]
    except KeyboardInterrupt:
        # The cells are in the terminal's process group: Ctrl-C reached them too. Wine's
        # prefixes were closed on the way out (_program's finally).
        output.to_stderr("utf8env: matrix: interrupted\n")
        return INTERRUPTED


def _pep(options, pythons, timeout):
    if options.env_set:
        raise UsageError("matrix: --env-set applies to a COMMAND (the PEP reproduction has "
                         "its own environments)")
    if options.stdin:
        raise UsageError("matrix: --stdin applies to a COMMAND (the PEP reproduction has "
                         "its own environments)")
    if options.hostile_files:
        raise UsageError("matrix: --hostile-files applies to a COMMAND")
    if getattr(options, "windows", None):
        raise UsageError("matrix: --windows applies to a COMMAND (the PEP reproduction's "
                         "environments are Linux's)")
    envs = None
    if pythons:
        py27 = [p for p in pythons if p.version == "2.7"]
        envs = environments.pep_environments([p for p in pythons if p.version != "2.7"],
                                             py27[0] if py27 else None)
    result = pep.run_pep(envs, timeout=timeout, progress=_progress())
    if not pythons:
        result = result._replace(pythons_left_out=discovery.unusable())
    output.write(report.render(result, options.format, raw=bool(options.bytes)))
    return 0


def _program(options, command, pythons, timeout):
    stdin = b""
    if options.stdin is not None:
        try:
            with open(options.stdin, "rb") as f:
                stdin = f.read()
        except OSError as error:
            raise UsageError("--stdin %r: %s" % (options.stdin, error.strerror))
    windows = getattr(options, "windows", None)
    sets = options.env_set or environments.DEFAULT_ENV_SETS
    if windows:
        sets = _windows_sets(options.env_set)
    discovered = not pythons
    if discovered:
        pythons = discovery.interpreters()      # the Debian chroot's 3.14 and 3.15 too
        if not pythons and not windows:
            raise UsageError(discovery.nothing_found("matrix"))
    if not windows:
        result = program.run_program(list(command), pythons, sets, stdin, options.hostile_files,
                                     timeout=timeout, progress=_progress())
    else:
        program.check_command(list(command))        # refused before Wine is started
        rows = _windows.Windows(windows, [_windows.code_page(es)
                                          for es in _windows.code_page_sets(
                                              program.chosen_sets(sets))])
        if not pythons:
            rows.no_linux = _windows.NO_LINUX % ", ".join(discovery.looked())
        try:
            rows.open()
            result = program.run_program(list(command), pythons, sets, stdin,
                                         options.hostile_files, timeout=timeout,
                                         progress=_progress(), windows=rows)
        finally:
            rows.close()
    if discovered:
        result = result._replace(pythons_left_out=discovery.unusable())
    output.write(report.render(result, options.format, raw=bool(options.bytes)))
    not_run = result.not_run or (windows and (result.windows["not_run"]
                                              or result.windows["left_out"]))
    return 1 if result.problems or not_run else 0


def _windows_sets(names):
    """The environment sets of --windows: those named, of which one at least stands for a
    Windows code page; without --env-set, the five that do."""
    if not names:
        return tuple(es.name for es in _windows.code_page_sets(environments.ENV_SETS))
    if not _windows.code_page_sets(program.chosen_sets(names)):
        raise UsageError("matrix: --windows runs in the environment sets that stand for a "
                         "Windows ANSI code page (%s); --env-set named none of them" % ", ".join(
                             es.name for es in _windows.code_page_sets(environments.ENV_SETS)))
    return names
