"""Ground truth for CPython embedded in a C program (issue 21): every CPython 3.6-3.15 this
machine has, linked from a small C program (tests/support/embedding.py) and initialized
three ways (Py_Initialize(); PyConfig_InitPythonConfig and PyConfig_InitIsolatedConfig
+ Py_InitializeFromConfig, 3.8+), run under each environment of ENVS with the installed
locales, and under WORLD_ENVS in the locale world WORLD (no compiled locale: nothing to
coerce to). EXPECTED and WORLD_EXPECTED are what those runs report, measured here and
written down: the tables ARE the ground truth, and each test asserts that the real
libpython still gives them.

Fields of a cell (a run that exits 0; the program never calls setlocale() itself):
    utf8      sys.flags.utf8_mode (None: 3.6 has no such flag)
    ctype     locale.setlocale(LC_CTYPE), once initialized
    LC_CTYPE  os.environ.get("LC_CTYPE"): set by PEP 538 coercion, else the given value
    fs, stdin, stdout, stderr   "encoding/errors"
    pref      locale.getpreferredencoding(False)
    open      io.TextIOWrapper(io.BytesIO()).encoding (open()'s default)
    devnull   open(os.devnull).encoding
    msgs      the program's stderr lines (coercion warnings), omitted when there are none
    exit      the exit status, only when the run did not report (then the other fields
              are missing)

To re-measure (as root, for the chroot's 3.14 and 3.15):
    python3 tests/test_embedded_groundtruth.py > /tmp/table.py
and replace EXPECTED and WORLD_EXPECTED with the two tables it prints (about 10 s).
"""
import os
import sys

import pytest

if __name__ == "__main__":
    HERE = os.path.dirname(os.path.abspath(__file__))
    sys.path[:0] = [os.path.join(os.path.dirname(HERE), "src"), HERE]

from support import embedding, machine  # noqa: E402

VERSIONS = ("3.6", "3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14", "3.15")
KINDS = embedding.KINDS
# name -> environment (env -i, then exactly these); "-" is the empty environment.
ENVS = {
    "-": {},
    "LANG=C": {"LANG": "C"},
    "LC_ALL=C": {"LC_ALL": "C"},
    "LANG=C PYTHONUTF8=1": {"LANG": "C", "PYTHONUTF8": "1"},
    "LANG=C PYTHONUTF8=0": {"LANG": "C", "PYTHONUTF8": "0"},
    "LANG=C PYTHONCOERCECLOCALE=warn": {"LANG": "C", "PYTHONCOERCECLOCALE": "warn"},
    "LANG=C.UTF-8": {"LANG": "C.UTF-8"},
    "LANG=C PYTHONIOENCODING=utf-8": {"LANG": "C", "PYTHONIOENCODING": "utf-8"},
}
# The same programs in the locale world without any compiled locale (no C.UTF-8 to coerce
# to, LANG=C.UTF-8 unknown to glibc), applied to the chroot's root as well.
WORLD = "no-locales"
WORLD_ENVS = ("LANG=C", "LANG=C PYTHONCOERCECLOCALE=warn", "LANG=C.UTF-8")
FIELDS = (("utf8", "utf8_mode"), ("ctype", "lc_ctype"), ("LC_CTYPE", "env_lc_ctype"),
          ("fs", "fs"), ("stdin", "stdin"), ("stdout", "stdout"), ("stderr", "stderr"),
          ("pref", "preferred"), ("open", "open"), ("devnull", "devnull"))


def cell(result):
    """The table's form of one run: FIELDS, plus msgs (when any) and exit (when not 0)."""
    out = {}
    if result["exit_code"] != 0 or result["report"] is None:
        out["exit"] = result["exit_code"]
    report = result["report"] or {}
    for short, name in FIELDS:
        if name in report:
            out[short] = report[name]
    if result["messages"]:
        out["msgs"] = result["messages"]
    return out


def cells(version):
    return [(version, kind, name) for kind in embedding.kinds_for(version) for name in ENVS]


def measure(embedder, version):
    """{(version, kind, env name): cell} of every cell of `version`, run in parallel."""
    todo = cells(version)
    results = embedder.run_all([(v, k, ENVS[e]) for v, k, e in todo])
    return {key: cell(r) for key, r in zip(todo, results)}


def measure_world(embedder, versions):
    """{(version, kind, env name): cell} of WORLD_ENVS in WORLD, one batch for `versions`."""
    todo = [(v, k, e) for v in versions for k in embedding.kinds_for(v) for e in WORLD_ENVS]
    results = embedder.run_all([(v, k, ENVS[e]) for v, k, e in todo], world=WORLD)
    return {key: cell(r) for key, r in zip(todo, results)}


@pytest.fixture(scope="session")
def embedder(tmp_path_factory):
    made = embedding.Embedder(tmp_path_factory.mktemp("embedding"))
    yield made
    made.close()


@pytest.fixture(scope="session")
def measured(embedder):
    """measure() per version, once per session (a skip names what a version lacks)."""
    done = {}

    def get(version):
        if version not in done:
            embedder.built(version)     # skips, naming what is missing
            done[version] = measure(embedder, version)
        return done[version]
    return get


@pytest.fixture(scope="session")
def measured_in_world(embedder):
    """measure_world() of every version this machine can build, once per session."""
    done = {}

    def get(version):
        embedder.built(version)         # skips, naming what is missing
        if not done:
            machine.worlds()            # skips where the world cannot be made
            available = []
            for v in VERSIONS:
                try:
                    embedder.built(v)
                    available.append(v)
                except pytest.skip.Exception:
                    pass
            done.update(measure_world(embedder, available))
        return done
    return get


def _params():
    for version in VERSIONS:
        for kind in embedding.kinds_for(version):
            yield pytest.param(version, kind, id="%s-%s" % (version, kind))


@pytest.mark.fast
def test_table_covers_every_cell():
    want = {key for version in VERSIONS for key in cells(version)}
    assert sorted(set(EXPECTED) ^ want) == []
    want = {(v, k, e) for v, k, _ in want for e in WORLD_ENVS}
    assert sorted(set(WORLD_EXPECTED) ^ want) == []


@pytest.mark.parametrize("version,kind", list(_params()))
def test_embedded_interpreter_matches_table(measured, version, kind):
    seen = measured(version)
    failures = []
    for name in ENVS:
        key = (version, kind, name)
        if seen[key] != EXPECTED[key]:
            failures.append("%s:\n  table: %r\n  real:  %r" % (name, EXPECTED[key], seen[key]))
    assert not failures, "%s %s differs from the table:\n%s" % (
        version, kind, "\n".join(failures))


@pytest.mark.parametrize("version,kind", list(_params()))
def test_embedded_interpreter_in_world_matches_table(measured_in_world, version, kind):
    seen = measured_in_world(version)
    failures = []
    for name in WORLD_ENVS:
        key = (version, kind, name)
        if seen[key] != WORLD_EXPECTED[key]:
            failures.append("%s:\n  table: %r\n  real:  %r" % (
                name, WORLD_EXPECTED[key], seen[key]))
    assert not failures, "%s %s in world %s differs from the table:\n%s" % (
        version, kind, WORLD, "\n".join(failures))


# Measured December 2026 on Debian 12 (glibc 2.36): pyenv 3.6.15, 3.7.16, 3.8.18, 3.9.18, 3.10.13,
# 3.11.7, 3.12.1, 3.13.0; Debian sid's libpython3.14 3.14.10-1 and experimental's
# libpython3.15 3.15.2-1 (glibc 2.43) in the suite's chroot.
EXPECTED = {
    # 3.6: /root/.pyenv/versions/3.6.15/lib/libpython3.6m.so (sysconfig Py_ENABLE_SHARED=1), flags from python3.6-config --cflags --ldflags
    ('3.6', 'initialize', '-'): dict(utf8=None, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ANSI_X3.4-1968/surrogateescape', stdout='ANSI_X3.4-1968/surrogateescape', stderr='ANSI_X3.4-1968/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.6', 'initialize', 'LANG=C'): dict(utf8=None, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ANSI_X3.4-1968/surrogateescape', stdout='ANSI_X3.4-1968/surrogateescape', stderr='ANSI_X3.4-1968/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.6', 'initialize', 'LC_ALL=C'): dict(utf8=None, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ANSI_X3.4-1968/surrogateescape', stdout='ANSI_X3.4-1968/surrogateescape', stderr='ANSI_X3.4-1968/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.6', 'initialize', 'LANG=C PYTHONUTF8=1'): dict(utf8=None, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ANSI_X3.4-1968/surrogateescape', stdout='ANSI_X3.4-1968/surrogateescape', stderr='ANSI_X3.4-1968/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.6', 'initialize', 'LANG=C PYTHONUTF8=0'): dict(utf8=None, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ANSI_X3.4-1968/surrogateescape', stdout='ANSI_X3.4-1968/surrogateescape', stderr='ANSI_X3.4-1968/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.6', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=None, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ANSI_X3.4-1968/surrogateescape', stdout='ANSI_X3.4-1968/surrogateescape', stderr='ANSI_X3.4-1968/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.6', 'initialize', 'LANG=C.UTF-8'): dict(utf8=None, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='UTF-8/strict', stdout='UTF-8/strict', stderr='UTF-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.6', 'initialize', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=None, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    # 3.7: /root/.pyenv/versions/3.7.16/lib/libpython3.7m.so (sysconfig Py_ENABLE_SHARED=1), flags from python3.7-config --cflags --ldflags
    ('3.7', 'initialize', '-'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.7', 'initialize', 'LANG=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.7', 'initialize', 'LC_ALL=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.7', 'initialize', 'LANG=C PYTHONUTF8=1'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.7', 'initialize', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ANSI_X3.4-1968/surrogateescape', stdout='ANSI_X3.4-1968/surrogateescape', stderr='ANSI_X3.4-1968/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.7', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8', msgs=['Python runtime initialized with LC_CTYPE=C (a locale with default ASCII encoding), which may cause Unicode compatibility problems. Using C.UTF-8, C.utf8, or UTF-8 (if available) as alternative Unicode-compatible locales is recommended.']),
    ('3.7', 'initialize', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='UTF-8/surrogateescape', stdout='UTF-8/surrogateescape', stderr='UTF-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.7', 'initialize', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    # 3.8: /root/.pyenv/versions/3.8.18/lib/libpython3.8.so (sysconfig Py_ENABLE_SHARED=1), flags from python3.8-config --cflags --ldflags --embed
    ('3.8', 'initialize', '-'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'initialize', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'initialize', 'LC_ALL=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'initialize', 'LANG=C PYTHONUTF8=1'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'initialize', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'initialize', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.8', 'initialize', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'python-config', '-'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.8', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.8', 'python-config', 'LC_ALL=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.8', 'python-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.8', 'python-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.8', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8', msgs=['Python detected LC_CTYPE=C: LC_CTYPE coerced to C.UTF-8 (set another locale or PYTHONCOERCECLOCALE=0 to disable this locale coercion behavior).']),
    ('3.8', 'python-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.8', 'python-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.8', 'isolated-config', '-'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'isolated-config', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'isolated-config', 'LC_ALL=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'isolated-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'isolated-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'isolated-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    # 3.9: /root/.pyenv/versions/3.9.18/lib/libpython3.9.so (sysconfig Py_ENABLE_SHARED=1), flags from python3.9-config --cflags --ldflags --embed
    ('3.9', 'initialize', '-'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'initialize', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'initialize', 'LC_ALL=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'initialize', 'LANG=C PYTHONUTF8=1'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'initialize', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'initialize', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.9', 'initialize', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'python-config', '-'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.9', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.9', 'python-config', 'LC_ALL=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.9', 'python-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.9', 'python-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.9', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8', msgs=['Python detected LC_CTYPE=C: LC_CTYPE coerced to C.UTF-8 (set another locale or PYTHONCOERCECLOCALE=0 to disable this locale coercion behavior).']),
    ('3.9', 'python-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.9', 'python-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.9', 'isolated-config', '-'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'isolated-config', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'isolated-config', 'LC_ALL=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'isolated-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'isolated-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'isolated-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    # 3.10: /root/.pyenv/versions/3.10.13/lib/libpython3.10.so (sysconfig Py_ENABLE_SHARED=1), flags from python3.10-config --cflags --ldflags --embed
    ('3.10', 'initialize', '-'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'initialize', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'initialize', 'LC_ALL=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'initialize', 'LANG=C PYTHONUTF8=1'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'initialize', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'initialize', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.10', 'initialize', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'python-config', '-'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.10', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.10', 'python-config', 'LC_ALL=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.10', 'python-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.10', 'python-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.10', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8', msgs=['Python detected LC_CTYPE=C: LC_CTYPE coerced to C.UTF-8 (set another locale or PYTHONCOERCECLOCALE=0 to disable this locale coercion behavior).']),
    ('3.10', 'python-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.10', 'python-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.10', 'isolated-config', '-'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'isolated-config', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'isolated-config', 'LC_ALL=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'isolated-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'isolated-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'isolated-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    # 3.11: /root/.pyenv/versions/3.11.7/lib/libpython3.11.so (sysconfig Py_ENABLE_SHARED=1), flags from python3.11-config --cflags --ldflags --embed
    ('3.11', 'initialize', '-'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'initialize', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'initialize', 'LC_ALL=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'initialize', 'LANG=C PYTHONUTF8=1'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'initialize', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'initialize', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.11', 'initialize', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'python-config', '-'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.11', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.11', 'python-config', 'LC_ALL=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.11', 'python-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.11', 'python-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.11', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8', msgs=['Python detected LC_CTYPE=C: LC_CTYPE coerced to C.UTF-8 (set another locale or PYTHONCOERCECLOCALE=0 to disable this locale coercion behavior).']),
    ('3.11', 'python-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.11', 'python-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.11', 'isolated-config', '-'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'isolated-config', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'isolated-config', 'LC_ALL=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'isolated-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'isolated-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'isolated-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    # 3.12: /root/.pyenv/versions/3.12.1/lib/libpython3.12.so (sysconfig Py_ENABLE_SHARED=1), flags from python3.12-config --cflags --ldflags --embed
    ('3.12', 'initialize', '-'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'initialize', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'initialize', 'LC_ALL=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'initialize', 'LANG=C PYTHONUTF8=1'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'initialize', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'initialize', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.12', 'initialize', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'python-config', '-'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.12', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.12', 'python-config', 'LC_ALL=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.12', 'python-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.12', 'python-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.12', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8', msgs=['Python detected LC_CTYPE=C: LC_CTYPE coerced to C.UTF-8 (set another locale or PYTHONCOERCECLOCALE=0 to disable this locale coercion behavior).']),
    ('3.12', 'python-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.12', 'python-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.12', 'isolated-config', '-'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'isolated-config', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'isolated-config', 'LC_ALL=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'isolated-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'isolated-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'isolated-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    # 3.13: /root/.pyenv/versions/3.13.0/lib/libpython3.13.so (sysconfig Py_ENABLE_SHARED=1), flags from python3.13-config --cflags --ldflags --embed
    ('3.13', 'initialize', '-'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'initialize', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'initialize', 'LC_ALL=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'initialize', 'LANG=C PYTHONUTF8=1'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'initialize', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'initialize', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.13', 'initialize', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'python-config', '-'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.13', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.13', 'python-config', 'LC_ALL=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.13', 'python-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.13', 'python-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.13', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8', msgs=['Python detected LC_CTYPE=C: LC_CTYPE coerced to C.UTF-8 (set another locale or PYTHONCOERCECLOCALE=0 to disable this locale coercion behavior).']),
    ('3.13', 'python-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.13', 'python-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.13', 'isolated-config', '-'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'isolated-config', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'isolated-config', 'LC_ALL=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'isolated-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'isolated-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'isolated-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    # 3.14: /var/cache/utf8env/debian-sid/usr/lib/x86_64-linux-gnu/libpython3.14.so (chroot; sysconfig Py_ENABLE_SHARED=1), flags from /usr/bin/x86_64-linux-gnu-python3.14-config --cflags --ldflags --embed
    ('3.14', 'initialize', '-'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'initialize', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'initialize', 'LC_ALL=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'initialize', 'LANG=C PYTHONUTF8=1'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'initialize', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'initialize', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.14', 'initialize', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'python-config', '-'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.14', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.14', 'python-config', 'LC_ALL=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.14', 'python-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.14', 'python-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.14', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8', msgs=['Python detected LC_CTYPE=C: LC_CTYPE coerced to C.UTF-8 (set another locale or PYTHONCOERCECLOCALE=0 to disable this locale coercion behavior).']),
    ('3.14', 'python-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.14', 'python-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.14', 'isolated-config', '-'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'isolated-config', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'isolated-config', 'LC_ALL=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'isolated-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'isolated-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'isolated-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    # 3.15: /var/cache/utf8env/debian-sid/usr/lib/x86_64-linux-gnu/libpython3.15.so (chroot; sysconfig Py_ENABLE_SHARED=1), flags from /usr/bin/x86_64-linux-gnu-python3.15-config --cflags --ldflags --embed
    ('3.15', 'initialize', '-'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'initialize', 'LANG=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'initialize', 'LC_ALL=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'initialize', 'LANG=C PYTHONUTF8=1'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'initialize', 'LANG=C PYTHONUTF8=0'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'initialize', 'LANG=C.UTF-8'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'initialize', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'python-config', '-'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'python-config', 'LC_ALL=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'python-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'python-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=0, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.15', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8', msgs=['Python detected LC_CTYPE=C: LC_CTYPE coerced to C.UTF-8 (set another locale or PYTHONCOERCECLOCALE=0 to disable this locale coercion behavior).']),
    ('3.15', 'python-config', 'LANG=C.UTF-8'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'python-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=1, ctype='C.UTF-8', LC_CTYPE='C.UTF-8', fs='utf-8/surrogateescape', stdin='utf-8/strict', stdout='utf-8/strict', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'isolated-config', '-'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'isolated-config', 'LANG=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'isolated-config', 'LC_ALL=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'isolated-config', 'LANG=C PYTHONUTF8=1'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'isolated-config', 'LANG=C PYTHONUTF8=0'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'isolated-config', 'LANG=C PYTHONIOENCODING=utf-8'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
}
# In WORLD (no compiled locale at all), the same programs and measurement.
WORLD_EXPECTED = {
    ('3.6', 'initialize', 'LANG=C'): dict(utf8=None, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ANSI_X3.4-1968/surrogateescape', stdout='ANSI_X3.4-1968/surrogateescape', stderr='ANSI_X3.4-1968/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.6', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=None, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ANSI_X3.4-1968/surrogateescape', stdout='ANSI_X3.4-1968/surrogateescape', stderr='ANSI_X3.4-1968/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.6', 'initialize', 'LANG=C.UTF-8'): dict(utf8=None, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ANSI_X3.4-1968/surrogateescape', stdout='ANSI_X3.4-1968/surrogateescape', stderr='ANSI_X3.4-1968/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.7', 'initialize', 'LANG=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.7', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8', msgs=['Python runtime initialized with LC_CTYPE=C (a locale with default ASCII encoding), which may cause Unicode compatibility problems. Using C.UTF-8, C.utf8, or UTF-8 (if available) as alternative Unicode-compatible locales is recommended.']),
    ('3.7', 'initialize', 'LANG=C.UTF-8'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.8', 'initialize', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'initialize', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.8', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8', msgs=['Python runtime initialized with LC_CTYPE=C (a locale with default ASCII encoding), which may cause Unicode compatibility problems. Using C.UTF-8, C.utf8, or UTF-8 (if available) as alternative Unicode-compatible locales is recommended.']),
    ('3.8', 'python-config', 'LANG=C.UTF-8'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.8', 'isolated-config', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.8', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'initialize', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'initialize', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.9', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8', msgs=['Python runtime initialized with LC_CTYPE=C (a locale with default ASCII encoding), which may cause Unicode compatibility problems. Using C.UTF-8, C.utf8, or UTF-8 (if available) as alternative Unicode-compatible locales is recommended.']),
    ('3.9', 'python-config', 'LANG=C.UTF-8'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.9', 'isolated-config', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.9', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'initialize', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'initialize', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.10', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8', msgs=['Python runtime initialized with LC_CTYPE=C (a locale with default ASCII encoding), which may cause Unicode compatibility problems. Using C.UTF-8, C.utf8, or UTF-8 (if available) as alternative Unicode-compatible locales is recommended.']),
    ('3.10', 'python-config', 'LANG=C.UTF-8'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='UTF-8', open='UTF-8', devnull='UTF-8'),
    ('3.10', 'isolated-config', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.10', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'initialize', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'initialize', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.11', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8', msgs=['Python runtime initialized with LC_CTYPE=C (a locale with default ASCII encoding), which may cause Unicode compatibility problems. Using C.UTF-8, C.utf8, or UTF-8 (if available) as alternative Unicode-compatible locales is recommended.']),
    ('3.11', 'python-config', 'LANG=C.UTF-8'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.11', 'isolated-config', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.11', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'initialize', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'initialize', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.12', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8', msgs=['Python runtime initialized with LC_CTYPE=C (a locale with default ASCII encoding), which may cause Unicode compatibility problems. Using C.UTF-8, C.utf8, or UTF-8 (if available) as alternative Unicode-compatible locales is recommended.']),
    ('3.12', 'python-config', 'LANG=C.UTF-8'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.12', 'isolated-config', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.12', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'initialize', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'initialize', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.13', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8', msgs=['Python runtime initialized with LC_CTYPE=C (a locale with default ASCII encoding), which may cause Unicode compatibility problems. Using C.UTF-8, C.utf8, or UTF-8 (if available) as alternative Unicode-compatible locales is recommended.']),
    ('3.13', 'python-config', 'LANG=C.UTF-8'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.13', 'isolated-config', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.13', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'initialize', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'initialize', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.14', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8', msgs=['Python runtime initialized with LC_CTYPE=C (a locale with default ASCII encoding), which may cause Unicode compatibility problems. Using C.UTF-8, C.utf8, or UTF-8 (if available) as alternative Unicode-compatible locales is recommended.']),
    ('3.14', 'python-config', 'LANG=C.UTF-8'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.14', 'isolated-config', 'LANG=C'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.14', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=0, ctype='C', LC_CTYPE=None, fs='ascii/surrogateescape', stdin='ascii/surrogateescape', stdout='ascii/surrogateescape', stderr='ascii/backslashreplace', pref='ANSI_X3.4-1968', open='ANSI_X3.4-1968', devnull='ANSI_X3.4-1968'),
    ('3.15', 'initialize', 'LANG=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'initialize', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'initialize', 'LANG=C.UTF-8'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'python-config', 'LANG=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'python-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8', msgs=['Python runtime initialized with LC_CTYPE=C (a locale with default ASCII encoding), which may cause Unicode compatibility problems. Using C.UTF-8, C.utf8, or UTF-8 (if available) as alternative Unicode-compatible locales is recommended.']),
    ('3.15', 'python-config', 'LANG=C.UTF-8'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'isolated-config', 'LANG=C'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'isolated-config', 'LANG=C PYTHONCOERCECLOCALE=warn'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
    ('3.15', 'isolated-config', 'LANG=C.UTF-8'): dict(utf8=1, ctype='C', LC_CTYPE=None, fs='utf-8/surrogateescape', stdin='utf-8/surrogateescape', stdout='utf-8/surrogateescape', stderr='utf-8/backslashreplace', pref='utf-8', open='utf-8', devnull='utf-8'),
}


def _entries(table):
    for key, value in table.items():
        print("    %r: dict(%s)," % (key, ", ".join("%s=%r" % kv for kv in value.items())))


def _record():
    import shutil
    import tempfile
    os.environ.setdefault("UTF8ENV_DEBIAN_ROOT", machine.CHROOT)
    scratch = tempfile.mkdtemp(prefix="utf8env-embedding-")
    # The world's compiled locales go to a cache of this run's own, like the suite's.
    os.environ.setdefault("XDG_CACHE_HOME", os.path.join(scratch, "cache"))
    made = embedding.Embedder(os.path.join(scratch, "programs"))
    available = []
    try:
        print("EXPECTED = {")
        for version in VERSIONS:
            try:
                made.built(version)
            except pytest.skip.Exception as skipped:
                print("    # %s: %s" % (version, skipped))
                continue
            available.append(version)
            print("    # %s: %s" % (version, made.built(version).how))
            _entries(measure(made, version))
        print("}")
        print("WORLD_EXPECTED = {")
        _entries(measure_world(made, available))
        print("}")
    finally:
        made.close()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    _record()
