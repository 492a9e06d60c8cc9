"""`utf8env readiness`: run(options, command) -> exit status: 0 ready (no test changes
with UTF-8 mode), 1 findings. utf8env/_cli.py declares and parses the options; this
checks what only readiness knows and raises UsageError for bad input."""
import os
import time

from .._errors import UsageError, Utf8envError


def pytest_args(command):
    """The arguments after `pytest` (or `python -m pytest`) in COMMAND."""
    words = list(command)
    if words[:1] in (["pytest"], ["py.test"]):
        return words[1:]
    if len(words) >= 3 and os.path.basename(words[0]).startswith("python") and words[1:3] == ["-m", "pytest"]:
        return words[3:]
    raise UsageError("readiness: COMMAND %r: expected pytest ARGS... (it runs as PYTHON -m "
                     "pytest ARGS... under each --python)" % " ".join(words[:3]))


def _timeout(word):
    from .._options import seconds
    from ._suite import DEFAULT_TIMEOUT
    return seconds(word, DEFAULT_TIMEOUT)


def _pythons(named, environ):
    """The interpreters to run, each with pytest of its own; UsageError otherwise."""
    from ..matrix import _discovery as discovery
    from ._suite import base_environ, default_pythons, pytest_problem
    pythons = discovery.named(named) if named else default_pythons(environ)
    for p in pythons:
        if p.version == "2.7":
            raise UsageError("--python %r: Python 2.7 has no UTF-8 mode" % p.argv[-1])
    for p in pythons:
        problem = pytest_problem(p, base_environ(environ))
        if problem:
            raise UsageError(problem)
    return pythons


def run(options, command):
    from . import _compare as compare, _formats as formats, _suite as suite
    if not command:
        raise UsageError("readiness: no COMMAND given: expected -- pytest ARGS...")
    args = pytest_args(command)
    world = options.world or suite.DEFAULT_WORLD
    suite.env_set(world)
    timeout = _timeout(options.timeout)
    pythons = _pythons(options.python, dict(os.environ))
    problem = suite.world_problem(world, pythons)
    if problem:
        raise UsageError("readiness: " + problem)
    started = time.monotonic()
    planned, folders = suite.plan(os.getcwd(), pythons, world, args, dict(os.environ), timeout)
    try:
        runs, workers = suite.execute(planned, world)
        result = compare.compare(args, world, planned, runs, workers,
                                 time.monotonic() - started, show_all=options.all)
    finally:
        for folder in folders:
            folder.remove()
    from .. import _pages as pages
    page = formats.render(result, options.format, pages.width())
    if options.format == "github":
        summary = os.environ.get("GITHUB_STEP_SUMMARY")
        if summary:
            try:
                with open(summary, "a", encoding="utf-8") as f:
                    f.write(formats.markdown(result))
            except OSError as error:
                raise Utf8envError("cannot write the output: GITHUB_STEP_SUMMARY %s: %s"
                                   % (summary, error.strerror or error))
        else:
            page += "\n" + formats.markdown(result)
    from .. import _output as output
    output.write(page)
    return 0 if result.ready else 1
