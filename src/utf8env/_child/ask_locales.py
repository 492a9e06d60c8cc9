"""The locale question, asked of the real libc: which of these names does
setlocale(LC_CTYPE, name) accept, and what is the nl_langinfo(CODESET) of each.

utf8env._locales calls ask() in a process about to exec or in a fork of itself (this module
imports nothing at import time: the launcher pays for it), and sends this file's source
to a fresh interpreter of any version from 3.6 as `python -I -S -c SOURCE NAME...`
(locales.child_program()), which prints the answer as one JSON object on stdout.
ASCII only: 3.6 decodes its command line with the locale's codec.
"""


def ask(names):
    """{name: nl_langinfo(CODESET)} for each name setlocale(LC_CTYPE, name) accepts, in
    this process."""
    import _locale
    out = {}
    for name in names:
        try:
            _locale.setlocale(_locale.LC_CTYPE, name)
        except (_locale.Error, UnicodeError, ValueError):
            # UnicodeError: a name holding undecodable bytes (LANG=$'\xe9'), which Python
            # cannot pass; ValueError: an embedded NUL. glibc has no such locale either: a
            # name it cannot find leaves it in C, as for any missing locale.
            continue
        out[name] = _locale.nl_langinfo(_locale.CODESET)
        _locale.setlocale(_locale.LC_CTYPE, "C")
    return out


if __name__ == "__main__":
    import json
    import sys
    sys.stdout.write(json.dumps(ask(sys.argv[1:])))
