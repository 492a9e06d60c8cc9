"""_sources/chunks.py on real trees: for every file of a CPython's standard library (its
tests too) that `fix` parses, the parse of its chunks finds exactly the sites, edits and
messages of a parse of the whole file, with the library's own interpreter (3.6 and 3.7
place the edit by tokenize, 3.12 reads nested f-string quotes). And it leaves out most of
the text: else `fix` parses it for nothing (benchmarks/bench_fix.py)."""

import pytest

from support import machine

CHECK = r"""
import json, os, sys, sysconfig, warnings
from utf8env._sources import (chunks as _chunks, edit as _edit, files as _files,
                              prefilter as _prefilter, scan as _scan)
library = sysconfig.get_paths()["stdlib"]
counts = {"parsed": 0, "bytes": 0, "left_out_bytes": 0}
differ = []
warnings.simplefilter("ignore")

def sites(text, data, whole):
    try:
        return [[s.line, s.col, s.call, s.verdict, s.message, s.edits, s.end]
                for s in _scan.scan(text, "utf-8", data, whole=whole)]
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        return type(error).__name__

for path in _files.walk(library):
    try:
        data = _edit.read_bytes(path)
        text = _edit.decode(path, data).text
    except _edit.Unreadable:
        continue
    if not _prefilter.candidate(data):
        continue
    counts["parsed"] += 1
    counts["bytes"] += len(data)
    cut = _chunks.skeleton(data)
    if cut is not None:
        counts["left_out_bytes"] += len(data) - len(cut[0])
    if sites(text, data, False) != sites(text, data, True):
        differ.append(os.path.relpath(path, library))
print(json.dumps({"counts": counts, "differ": differ}))
"""


@pytest.mark.parametrize("version", ["3.6", "3.8", "3.12", "3.13"])
def test_the_chunks_of_a_standard_library_give_the_whole_files_sites(version):
    found = machine.json_of(version, CHECK)
    assert found["differ"] == []
    counts = found["counts"]
    # of the bytes of the files parsed, more than half are left out of the parse
    assert counts["parsed"] > 100 and counts["left_out_bytes"] * 2 > counts["bytes"], counts
