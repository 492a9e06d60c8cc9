"""The pytest plugin of `utf8env readiness` (entry point pytest11
"utf8env.readiness.plugin").

Inert unless asked: loaded into every pytest run of an environment where utf8env is
installed, it only declares its options; `pytest --utf8env` (or --utf8env-json PATH)
registers the recorder (recorder.py), which records every EncodingWarning (PEP 597) with
its call site, the tests that hit it and a count, and writes a summary at the end.
readiness's runs load it from utf8env lent under a private name (_suite.LENT), the entry
point blocked: every import on its path is relative (or by file path), never `utf8env`.

The suite's own warning filters (`filterwarnings = error`, -W, filterwarnings marks) do
not hide it: EncodingWarning is recorded, not raised, and the record says which tests
those filters would have failed. The Python processes the tests start record theirs too
(their call sites in the user's code: origin "child process"): while the run lasts, the
environment holds PYTHONWARNDEFAULTENCODING=1, a record folder and utf8env's
_childsite/ on PYTHONPATH (a sitecustomize that runs any it hides).

EncodingWarning is only raised when the interpreter was started with
`-X warn_default_encoding` or PYTHONWARNDEFAULTENCODING=1 (3.10+); otherwise the
summary says how to turn it on. Imports nothing but the standard library at load time.
"""


def pytest_addoption(parser):
    group = parser.getgroup("utf8env", "utf8env: readiness for Python 3.15's UTF-8 mode")
    group.addoption("--utf8env", action="store_true", dest="utf8env", default=False,
                    help="record every EncodingWarning with its call site and the tests that "
                         "hit it; summary at the end (needs -X warn_default_encoding)")
    group.addoption("--utf8env-all", action="store_true", dest="utf8env_all", default=False,
                    help="with --utf8env: also show call sites in the standard library and "
                         "site-packages")
    group.addoption("--utf8env-json", action="store", dest="utf8env_json", default=None,
                    metavar="PATH", help="with or without --utf8env: write the record as JSON "
                                         "to PATH (\"schema\": 1)")


# readiness's runs of one invocation share a seed for pytest-randomly: both modes then
# run the tests in the same order (one order per mode would make changes of the order).
SEED_VARIABLE = "UTF8ENV_READINESS_SEED"


def pytest_cmdline_main(config):
    """Where pytest-randomly shuffles with a seed of its own choosing (no --randomly-seed
    given), the run's seed is readiness's; a seed the suite gives is kept."""
    import os
    # The suite's own process (readiness started it with the variable): its os.environ.
    seed = os.environ.get(SEED_VARIABLE, "")
    if seed.isdigit() and getattr(config.option, "randomly_seed", None) == "default":
        config.option.randomly_seed = int(seed)


def pytest_configure(config):
    if not (config.getoption("utf8env") or config.getoption("utf8env_json")):
        return
    from . import _recorder as recorder
    recorder.activate(config)
