"""The guard around a suite's runs, and what a command checks before it starts them:
what every command that runs a suite with readiness's machinery shares, readiness (in a
Linux locale world, under Wine, on Windows itself) and `fix --prove`, which composes it
with the fixer (utf8env/_prove.py). The Guard stops the runs on SIGINT and SIGTERM;
pytest_args, checked_timeout, checked_pythons and project read the command, its options
and its folder; INCOMPLETE and INTERRUPTED are the exit statuses they share."""
import os
import signal

from .._errors import UsageError
from .. import _discovery as discovery, _output as output
from .._options import seconds
from . import _suite as suite, _targets as targets
from ._unittest_runner import unittest_args

INCOMPLETE = 3          # a run did not complete
INTERRUPTED = 130       # SIGINT or SIGTERM: the runs were stopped
# What the progress line counts in the batches after the first runs (Guard.execute).
RERUNS, TRIALS = "runs again", "trials of the fixes"
RERUNS_AND_TRIALS = "runs again and trials of the fixes"


def pytest_args(command):
    """The arguments after `pytest` (or `python -m pytest`) in COMMAND."""
    words = list(command)
    if words[:1] in (["pytest"], ["py.test"]):
        return words[1:]
    if len(words) >= 3 and os.path.basename(words[0]).startswith("python") and words[1:3] == ["-m", "pytest"]:
        return words[3:]
    if unittest_args(words) is not None:        # `python -m unittest ARGS`: Args(ARGS)
        return unittest_args(words)
    raise UsageError("readiness: COMMAND %r: expected pytest ARGS... (it runs as PYTHON -m "
                     "pytest ARGS... under each --python)" % " ".join(words[:3]))


def checked_timeout(word):
    """--timeout SECONDS, in seconds (the default without it)."""
    return seconds(word, suite.DEFAULT_TIMEOUT)


def checked_pythons(named, environ, need_pytest=True):
    """The interpreters to run, each with pytest of its own; UsageError otherwise."""
    pythons = discovery.named(named) if named else targets.default_pythons(environ)
    for p in pythons:
        if p.version == "2.7":
            raise UsageError("--python %r: Python 2.7 has no UTF-8 mode" % p.argv[-1])
    for p in (pythons if need_pytest else ()):       # unittest's runner needs no pytest
        problem = targets.pytest_problem(p, targets.base_environ(environ))
        if problem:
            raise UsageError(problem)
    return pythons


def project(command="readiness"):
    """The project: the current folder; UsageError, naming `command`, where it is gone."""
    try:
        return os.getcwd()
    except OSError as error:
        raise UsageError("%s: the current folder is gone (%s): cd into the project "
                         "and run again" % (command, error.strerror or error))


class Interrupted(Exception):
    """SIGINT or SIGTERM came (Guard): the command ends with INTERRUPTED."""


class Guard(object):
    """SIGINT (and SIGTERM) while readiness runs: before and after the runs, an
    interruption at once; while they run, they are stopped (suite.stop: their trees
    killed) and the interruption follows once the world runners have returned."""

    def __init__(self, name="readiness"):
        self.running, self.signalled = None, None
        self.name = name            # the command, as its progress line names it

    def __enter__(self):
        self.old = {}
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                self.old[signum] = signal.signal(signum, self._handle)
            except ValueError:          # not the main thread: no handler of ours
                pass
        return self

    def __exit__(self, *exc):
        for signum, old in self.old.items():
            signal.signal(signum, old)

    def _handle(self, signum, frame):
        first = self.signalled is None
        self.signalled = self.signalled or signum
        if self.running is None:
            raise Interrupted()
        if first:
            suite.stop(self.running)

    def run_batch(self, planned, world, progress):
        """The runs themselves: suite.execute() (in a Linux locale world)."""
        return suite.execute(planned, world, progress=progress)

    def execute(self, planned, world, unit="runs"):
        """run_batch(), with a progress line on a terminal: utf8env NAME: 2/4 UNIT."""
        self.running = planned
        try:
            done = self.run_batch(planned, world,
                                  progress=output.progress("utf8env " + self.name, unit))
        except Exception:
            if self.signalled:
                raise Interrupted()
            raise
        finally:
            self.running = None
        if self.signalled:
            raise Interrupted()
        return done
