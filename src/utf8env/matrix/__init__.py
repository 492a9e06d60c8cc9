"""`utf8env matrix`: the PEPs' use cases, or the user's own command, under real
interpreters x real locale worlds, each cell classified Exception?/Mojibake? with its
evidence. Not on the launcher's path: nothing here is imported by `utf8env run`.

    _cli.py           run(options, command) -> exit status (_commands.py declares it)
    _scenarios.py     the PEPs' use cases as data, each with its classifier and the PEP's values
    _pep.py           the PEP reproduction: jobs, judging, the agreement with the PEPs
    _program.py       the user's own command under every environment set
    _windows.py       --windows: a row of real Windows CPython under Wine, in the code pages
    _pep686.py        what Python 3.15 decides in each environment (the engine, asked once)
    _results.py       the results as records (as_json(), records.py's, at the JSON boundary)
    _report.py        the page of a result in the format asked (JSON there); renders only
    _page_parts.py    what the pages share: the interpreters and where found, version ranges
    _pep_view.py      the PEP reproduction's result as its pages show it (agreement, 3.15)
    _pep_text.py, _pep_markdown.py, _pep_html.py            its pages
    _program_view.py  a user's program's result as its pages show it (failures, findings)
    _program_text.py, _program_markdown.py, _program_html.py  its pages
The locale worlds, the jobs run in them, the environment sets (_worlds/env_sets.py) and
the per-cell sandbox (_worlds/cells.py) are utf8env._worlds, and the interpreters found
utf8env._discovery, shared with readiness.
"""

# The report formats: the command line offers them (utf8env/_commands.py), _report.py renders them.
FORMATS = ("text", "markdown", "html", "json")
# --env-set's help (utf8env/_commands.py); the names are _environments.ENV_SET_NAMES.
ENV_SET_HELP = ("the environment sets to run COMMAND in (repeatable, comma-separated): "
                "utf8-locale, c-locale, c-legacy, utf8-mode, latin1 (the default five), "
                "gb18030, no-locales, and cp1252, cp1251, gbk, cp932, big5: stand-ins for "
                "Windows' ANSI code page (files, pipes, open()), built from glibc's charmaps; "
                "not Windows' console or file-system encoding")
