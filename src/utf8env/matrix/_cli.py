"""`utf8env matrix`: run(options, command) -> exit status, which runs the PEP reproduction
or the user's command and prints report.py's page. utf8env/_cli.py declares and parses the
options (the one parser); this checks what only the matrix knows. Raises UsageError for
bad input; utf8env._cli.main prints it."""
import sys
import time

from .._errors import UsageError
from .. import _output as output

def _progress():
    """A callback printing one progress line on stderr once the run takes more than a
    second, when stderr is a terminal; None otherwise."""
    if not sys.stderr.isatty():
        return None
    started = time.monotonic()

    def show(done, total):
        if time.monotonic() - started > 1:
            sys.stderr.write("\rutf8env matrix: %d/%d jobs" % (done, total))
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()
    return show


def _timeout(word):
    from .._options import seconds
    from ._pep import DEFAULT_TIMEOUT
    return seconds(word, DEFAULT_TIMEOUT)


def run(options, command):
    """Run the matrix the parsed `options` ask for on the operands `command`; the exit
    status (1: a cell of the user's command has a problem, or an environment set asked
    for could not be made here). A locale world that cannot be made here leaves out its
    environments, each said in one line of the report; the others still run."""
    from . import _discovery as discovery
    command = tuple(command or ())
    timeout = _timeout(options.timeout)
    pythons = discovery.named(options.python)
    if not command:
        return _pep(options, pythons, timeout)
    return _program(options, command, pythons, timeout)


def _pep(options, pythons, timeout):
    from . import _environments as environments, _pep as pep, _report as report
    if options.env_set:
        raise UsageError("matrix: --env-set applies to a COMMAND (the PEP reproduction has "
                         "its own environments)")
    if options.stdin:
        raise UsageError("matrix: --stdin applies to a COMMAND (the PEP reproduction has "
                         "its own environments)")
    if options.hostile_files:
        raise UsageError("matrix: --hostile-files applies to a COMMAND")
    envs = None
    if pythons:
        py27 = [p for p in pythons if p.version == "2.7"]
        envs = environments.pep_environments([p for p in pythons if p.version != "2.7"],
                                             py27[0] if py27 else None)
    result = pep.run_pep(envs, timeout=timeout, progress=_progress())
    output.write(report.render(result, options.format, raw=bool(options.bytes)))
    return 0


def _program(options, command, pythons, timeout):
    from . import (_discovery as discovery, _environments as environments, _program as program,
                   _report as report)
    stdin = b""
    if options.stdin is not None:
        try:
            with open(options.stdin, "rb") as f:
                stdin = f.read()
        except OSError as error:
            raise UsageError("--stdin %r: %s" % (options.stdin, error.strerror))
    if not pythons:
        pythons = discovery.interpreters()      # the Debian chroot's 3.14 and 3.15 too
        if not pythons:
            raise UsageError("matrix: no interpreter found; give --python PATH")
    result = program.run_program(list(command), pythons,
                                 options.env_set or environments.DEFAULT_ENV_SETS, stdin,
                                 options.hostile_files, timeout=timeout, progress=_progress())
    output.write(report.render(result, options.format, raw=bool(options.bytes)))
    return 1 if result.problems or result.not_run else 0
