"""docs/embedded-and-windows.md is what docs/tables.py writes from the engine, now (so the
page can never say what the engine does not), and every row it calls measured is a cell of
the ground truth (tests/test_embedded_groundtruth.py, tests/test_windows_groundtruth.py),
which tests/test_embedded_predictions.py and tests/test_windows_predictions.py hold the
engine to, or a console cell of tests/test_windows_console.py (which compares them with the
engine itself). Pure: nothing is run. After a change of the engine: python3 docs/tables.py >
docs/embedded-and-windows.md"""
import importlib.util
import os

import pytest

from utf8env._engine.profiles import EMBEDDED, VERSIONS, embedded_kinds

import test_embedded_groundtruth as embedded_truth
import test_windows_console as console_truth
import test_windows_groundtruth as windows_truth

pytestmark = pytest.mark.fast

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "docs", "embedded-and-windows.md")


def _tables():
    spec = importlib.util.spec_from_file_location("utf8env_docs_tables",
                                                  os.path.join(ROOT, "docs", "tables.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_is_what_the_engine_says_now():
    with open(PAGE, encoding="utf-8") as f:
        committed = f.read()
    assert committed == _tables().page(), (
        "docs/embedded-and-windows.md differs from the engine: python3 docs/tables.py > "
        "docs/embedded-and-windows.md")


def test_every_embedded_row_was_measured():
    tables = _tables()
    for name, environ in tables.EMBEDDED_ENVS:
        assert embedded_truth.ENVS[name] == environ
        for kind in EMBEDDED:
            for version in VERSIONS:
                if kind in embedded_kinds(version):
                    assert (version, kind, name) in embedded_truth.EXPECTED


def test_every_windows_row_called_measured_was():
    tables = _tables()
    measured = 0
    for code_page in tables.CODE_PAGES:
        for setting, environ in tables.WINDOWS_SETTINGS:
            for console in (False, True):
                for version in VERSIONS:
                    if tables.windows_measured(version, code_page, setting, console):
                        if console:
                            assert console_truth.SETTINGS[setting] == (environ, [])
                            assert (version, code_page, setting) in console_truth.CELLS
                        else:
                            assert windows_truth.SETTINGS[setting] == (environ, [])
                            assert ("install", version, code_page,
                                    setting) in windows_truth.EXPECTED
                        measured += 1
    # pipes: 6 versions x 3 code pages x 2 settings; a console: 6 x 2 x 2
    assert measured == 36 + 24
