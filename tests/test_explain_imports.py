"""`utf8env explain` ends with doctor's verdict for its one Decision, and loads only the
part of doctor that verdict needs: not the place, its contexts, the Pythons found, the
snapshots or the rest of doctor's page, and none of the standard library's heavier
modules. Each module is paid for at explain's start-up (benchmarks/bench_engine.py
measures it against `python -c pass`): a new import on explain's text path fails here,
so that the cost is a decision, not an accident."""
import os

import pytest

from support import machine

from test_startup_imports import _INTERPRETER, _imports, _pythons

# What the verdict of one Decision needs of doctor (doctor/__init__.py says why).
_VERDICT = {"utf8env.doctor", "utf8env.doctor._findings", "utf8env.doctor._finding_records",
            "utf8env.doctor._locale_findings", "utf8env.doctor._fixes",
            "utf8env.doctor._records", "utf8env.doctor._locale_state", "utf8env.doctor._outcome",
            "utf8env.doctor._verdict"}
# Outside utf8env: the C module of the locale question (asked anew for --empty-env), and
# the codec of the C locale, which the locale state's decision looks up.
_OTHERS = {"_locale", "encodings.ascii"}

_CASES = (
    # the benchmark's case: the C locale, its warning and the fix in a shell rc file
    ["--version", "3.7", "--empty-env", "--env", "LANG=C"],
    # a locale this libc lacks (perl's and bash's warnings, a spelling, a UTF-8 locale)
    ["--version", "3.11", "--empty-env", "--env", "LC_CTYPE=UTF-8", "--env", "SHELL=/bin/bash",
     "--locales", "C.UTF-8"],
    # a Python that fails: its fixes are asked of the engine; a locale to install
    ["--version", "3.6", "--empty-env", "--env", "LANG=C", "--env", "PYTHONIOENCODING=ascii",
     "--locales", "en_US.ISO-8859-1"],
)


@pytest.mark.parametrize("python", _pythons())
@pytest.mark.parametrize("case", range(len(_CASES)))
def test_explain_imports_only_the_verdict_of_doctor(python, case, tmp_path):
    python = machine.python(python)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    names = _imports(python, ["explain"] + _CASES[case], env) - _INTERPRETER
    ours = {n for n in names if n == "utf8env" or n.startswith("utf8env.")}
    doctor = {n for n in ours if n == "utf8env.doctor" or n.startswith("utf8env.doctor.")}
    assert doctor <= _VERDICT
    assert names - ours <= _OTHERS                      # no os, re, json, shlex, textwrap...
    if "--locales" not in _CASES[case]:
        assert "utf8env._engine.locale_model" not in ours
