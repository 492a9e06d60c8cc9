"""`utf8env fix`: find the calls that open text in the locale's encoding by default (the
ones PEP 686 changes when Python 3.15 turns UTF-8 mode on) and add `encoding=`.

    _prefilter.py  a file's bytes -> whether it can hold a call at all (else not parsed)
    _scan.py   source text -> the call sites (ast; which calls, which are fixable, where
               the keyword goes: tokenize); no file access
    _scope.py  Python's scopes: which binding a call's name has where it is used
    _edit.py   a file's bytes -> its text (PEP 263 cookie, BOM), the edits applied
               byte for byte in the file's encoding and newlines, the atomic write, the diff
    _cli.py    run(options, operands) -> exit status: the paths walked, the report,
               --check / --diff / --write (utf8env/_commands.py declares the options)
    _apply.py  the edit at chosen sites by file:line (readiness's trials, --from)
    _measured.py  --from REPORT.json: each site's encoding as readiness measured it
    _reported.py  --from: the report's sites the scan does not take (X.open() on any
               receiver at a warned line), applied or left with why
    _syntax.py the one line for a file that does not parse: whose parser, which Python
               the project requires

`fix --prove` (the fix in copies, the suite run in both modes) composes this with
readiness's runs: utf8env/_prove.py, above both.

Standard library only, CPython 3.6-3.15. Not on the launcher's path: `utf8env run`
imports nothing of this.
"""
