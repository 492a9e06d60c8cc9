"""`utf8env readiness`: is a test suite ready for Python 3.15's UTF-8 mode (PEP 686)?

    plugin.py     the pytest plugin (entry point pytest11 "utf8env"): inert unless
                  `pytest --utf8env`; records every EncodingWarning with its call site
    _recorder.py   what the plugin does once asked (imported only then)
    _junit.py      per-test outcomes read back: a pytest run's progress file, the
                  unittest runner's JUnit XML
    _suite.py      the two runs (UTF-8 mode off: today; on: 3.15) in a locale world
    _copies.py     the project's copies the runs use (special files left out, listed)
    _targets.py    the interpreters they run (a Python 3.15 by default), each one's pytest,
                  its src-layout imports, the environment they start from
    _supervise.py  each run's keeper: output to files, its process tree (setsid daemons
                  included, by a marker variable; on Windows, a job object) killed at the
                  end, timeout or Ctrl-C
    _progress.py   a pytest plugin of the runs: one line per test phase, as it happens
                  (what a run that did not finish still tells), each test's captured
                  output with its teardown
    _compare.py    what changes between them, per test and per call site, with the fixes
    _results.py    the records; as_json() at the JSON boundary
    _formats.py    the page of a result in the format asked (JSON there), by the modules of
                  each format: _format_text.py, _format_markdown.py (and GitHub's step
                  summary), _format_github.py (workflow annotations), _format_junit.py,
                  over _format_words.py (what they share: the verdict, the runs in words)
    _report.py     the page written (and GitHub's step summary), the exit status, the
                  lines every way of running readiness prints
    _windows.py    --windows: the runs on real Windows CPython under Wine (utf8env/_windows/)
    _native.py     on Windows itself: the runs in its own code page, with its own Python
    _guard.py      the Guard around the runs (SIGINT, SIGTERM) and the checks of the
                  command before them: readiness's and `fix --prove`'s (utf8env/_prove.py)
    _cli.py        run(options, command) -> exit status (utf8env/_commands.py declares it):
                  in a Linux locale world; _windows and _native as asked
Not on the launcher's path: `utf8env run` imports nothing of this.
"""

# The report formats: the command line offers them (utf8env/_commands.py), _formats.py renders them.
FORMATS = ("text", "markdown", "github", "junit", "json")
