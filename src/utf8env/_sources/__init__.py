"""Python sources as `utf8env fix` and `utf8env readiness` read and edit them: the calls
that open text in the locale's encoding by default (the ones PEP 686 changes when Python
3.15 turns UTF-8 mode on), and the edit that adds `encoding=`. Below both tools: fix lists
and makes the edits, readiness tries them in its copies of a project and lists the calls
no test exercised. Private: nothing here is a documented API.

    files.py      which Python sources a folder holds (SKIPPED folders, git's ignores)
    calls.py      which calls open text in the locale's encoding: the one table
    prefilter.py  a file's bytes -> whether it can hold a call at all (else not parsed)
    literals.py   where a file's strings and comments are, by one pass of `re`
    chunks.py     which functions and classes of a file can hold a call (the rest left
                  out of the parse)
    scan.py       source text -> the call sites (ast: which calls, which are fixable);
                  no file access
    scope.py      Python's scopes: which binding a call's name has where it is used
    module_names.py  the names a module assigns a path or a ConfigParser (X.open())
    insertion.py  where `encoding=` goes in a call (tokenize) and the text that adds it
    nodes.py      what differs in the ast between 3.6 and 3.15 (end positions, literals)
    reported.py   the sites a readiness report saw that the scan does not take (X.open()
                  on any receiver at a warned line)
    edit.py       a file's bytes -> its text (PEP 263 cookie, BOM), the edits applied
                  byte for byte in the file's encoding and newlines, the atomic write,
                  the diff
    apply.py      the edit at chosen sites by file:line (readiness's trials, fix --from)

Standard library only, CPython 3.6-3.15.
"""
