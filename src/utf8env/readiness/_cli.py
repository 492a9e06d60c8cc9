"""`utf8env readiness`: run(options, command) -> exit status: 0 ready (every run
complete, no test changes with UTF-8 mode), 1 findings (tests that change), 2 usage
error, 3 a run did not complete (collection errors, -x/--maxfail, pytest's status 2-5, a
signal, a timeout: the report says which and its first lines; the changes among the tests
both runs finished are still listed), 130 interrupted (SIGINT: the runs are stopped and
their process trees killed, one line). utf8env/_cli.py declares and parses the options;
this checks what only readiness knows and raises UsageError for bad input."""
import sys
import time

from .._environment import user_environ
from .._errors import UsageError
from .._output import to_stderr
from . import _advice as advice, _copies as copies, _native as native, _suite as suite
from . import _windows as windows
from ._guard import (INTERRUPTED, TRIALS, Guard, Interrupted, checked_pythons,
                     checked_timeout, project as current_project, pytest_args)
from ._report import INTERRUPTED_LINE, report
from ._unittest_runner import Args


def run(options, command):
    if sys.platform == "win32":                   # Windows itself: its code page
        return native.run(options, command)
    if getattr(options, "windows", None):         # real Windows CPython under Wine
        return windows.run(options, command)
    for name, dest in (("--code-page", "code_page"),
                       ("--windows-requirements", "windows_requirements")):
        if getattr(options, dest, None):
            raise UsageError("readiness: %s goes with --windows" % name)
    if not command:
        raise UsageError("readiness: no COMMAND given: expected -- pytest ARGS...")
    args = pytest_args(command)
    world = options.world or suite.DEFAULT_WORLD
    suite.env_set(world)
    timeout = checked_timeout(options.timeout)
    project = current_project()
    try:
        with Guard() as guard:
            return _run(options, args, world, timeout, project, guard)
    except (Interrupted, KeyboardInterrupt):
        to_stderr(INTERRUPTED_LINE)
        return INTERRUPTED


def _run(options, args, world, timeout, project, guard):
    pythons = checked_pythons(options.python, user_environ(), not isinstance(args, Args))
    problem = suite.world_problem(world, pythons)
    if problem:
        raise UsageError("readiness: " + problem)
    started = time.monotonic()
    skipped = []
    planned, folders = suite.plan(project, pythons, world, args, user_environ(), timeout,
                                  skipped)
    try:
        scanned = advice.Scan(project)      # the static scan (untested) while the runs run
        runs, workers = guard.execute(planned, world)
        # the reruns of the changed tests, then the trials of the fixes of those that held
        result = advice.follow_up(planned, runs, workers, project, pythons, world, args,
                                  user_environ(), timeout,
                                  lambda jobs, unit: guard.execute(jobs, world, unit), started,
                                  show_all=options.all, not_copied=skipped, scanned=scanned)
    finally:
        copies.remove_all(folders)
    return report(result, options)


def _advise(result, planned, project, pythons, world, args, timeout, guard, started):
    """The result with the fixes of the changed tests' call sites measured (_advice.py:
    tried in copies, in both modes) and the calls no test exercised."""
    offset = advice.project_offset(planned)
    trials = advice.plan(project, offset, result, pythons, world, args, user_environ(),
                         timeout)
    try:
        if trials.planned:
            result = advice.measure(trials, guard.execute(trials.planned, world, TRIALS)[0],
                                    result,
                                    started)
    finally:
        advice.remove(trials)
    # A run that did not complete leaves calls unreached that a test would reach: the
    # untested calls are said only when every run completed.
    return result._replace(untested=advice.untested(project, offset, result)
                           if result.complete else None)
