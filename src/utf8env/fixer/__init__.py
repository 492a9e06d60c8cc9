"""`utf8env fix`: find the calls that open text in the locale's encoding by default (the
ones PEP 686 changes when Python 3.15 turns UTF-8 mode on) and add `encoding=`.

    _cli.py    run(options, operands) -> exit status: the paths walked, the report,
               --check / --diff / --write (utf8env/_commands.py declares the options)
    _measured.py  --from REPORT.json: each site's encoding as readiness measured it
    _syntax.py the one line for a file that does not parse: whose parser, which Python
               the project requires

The calls and the edits are utf8env/_sources/'s, which readiness shares.
`fix --prove` (the fix in copies, the suite run in both modes) composes this with
readiness's runs: utf8env/_prove.py, above both.

Standard library only, CPython 3.6-3.15. Not on the launcher's path: `utf8env run`
imports nothing of this.
"""
