"""_sources/prefilter.py on real trees: a file the filter leaves out is one no scan finds a
call in. Each CPython's whole standard library (its tests too: docstrings, f-strings,
3.12's nested quotes, files in koi8-r and latin-1) with its own interpreter, so that each
file parses as its version writes it; the filter must also leave out most of the files
that have no call, or `fix` parses them for nothing (benchmarks/bench_fix.py)."""

import pytest

from support import machine

# Run by the library's own interpreter: every file the filter leaves out, scanned (a file
# that does not parse on it, or that its cookie does not decode, is counted apart).
CHECK = r"""
import json, os, sys, sysconfig, warnings
from utf8env._sources import (edit as _edit, files as _files,
                              prefilter as _prefilter, scan as _scan)
library = sysconfig.get_paths()["stdlib"]
counts = {"files": 0, "left_out": 0, "left_out_bytes": 0, "parsed_bytes": 0,
          "unparsed": 0}
missed = []
warnings.simplefilter("ignore")
for path in _files.walk(library):
    counts["files"] += 1
    try:
        data = _edit.read_bytes(path)
        text = _edit.decode(path, data).text
    except _edit.Unreadable:
        counts["unparsed"] += 1
        continue
    passed = _prefilter.candidate(data)
    if passed:
        counts["parsed_bytes"] += len(data)
    try:
        sites = _scan.scan(text) if not passed else None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        counts["unparsed"] += 1
        continue
    if not passed:
        counts["left_out"] += 1
        counts["left_out_bytes"] += len(data)
        if sites:
            missed.append([os.path.relpath(path, library), [s.line for s in sites]])
print(json.dumps({"counts": counts, "missed": missed}))
"""


@pytest.mark.parametrize("version", ["3.6", "3.11", "3.13"])
def test_a_file_left_out_of_a_standard_library_has_no_call_site(version):
    found = machine.json_of(version, CHECK)
    assert found["missed"] == []
    counts = found["counts"]
    # most of the library is left out: of its bytes, less than a third is parsed
    assert counts["left_out"] > counts["files"] * 3 // 4, counts
    assert counts["parsed_bytes"] * 3 < counts["parsed_bytes"] + counts["left_out_bytes"], \
        counts
