"""readiness on Windows itself (utf8env/readiness/_native.py), as rules: each run's command
line and environment, the world line, and the supervisor that claims no process by /proc
there. Its real runs are tests/test_windows_install.py's (the installed utf8env.exe under
Wine, in code pages 1252 and 932)."""
import os
import sys
import types

import pytest

from utf8env import _discovery as discovery
from utf8env.readiness import _native as native, _suite as suite, _supervise as supervise
from utf8env.readiness import _windows as windows

pytestmark = pytest.mark.fast


@pytest.fixture
def stage(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    folder = suite.Folder("/", "today")
    yield suite.Stage(folder, "")
    folder.remove()


def _native(monkeypatch, python, environ):
    monkeypatch.setattr(native, "user_environ", lambda: dict(environ))
    here = native.Native(1252, [python])
    here.lent = "LENT"
    return here


def _tail(stage):
    return ["--utf8env-seen=" + stage.path("seen.json"),
            "--utf8env-json=" + stage.path("record.json"),
            "--utf8env-progress=" + stage.path("progress.jsonl"),
            "--basetemp=" + stage.folder.path("tmp"), "-q"]


def test_a_run_is_the_python_behind_the_supervisor_with_the_lent_plugins(monkeypatch, stage):
    python = discovery.Interpreter(version="3.12", argv=["C:\\py\\python.exe"], root="/")
    here = _native(monkeypatch, python, {"PATH": "C:\\bin", "PYTHONPATH": "C:\\mine",
                                         "LANG": "C", "PYTHONUTF8": "1"})
    job = here.job(python, "0", stage, ["-q"], here.run_environ(), 60)
    assert job.argv[:4] == [sys.executable, "-I", "-S", windows.SUPERVISOR]
    assert job.argv[job.argv.index("--") + 1:] == [
        "C:\\py\\python.exe", "-X", "utf8=0", "-X", "warn_default_encoding", "-m", "pytest",
        "-p", "no:utf8env.readiness.plugin", "-p", "_utf8env_lent.readiness.plugin",
        "-p", "_utf8env_lent.readiness._progress", "-p", "_utf8env_lent._windows.seen"
    ] + _tail(stage)
    tmp = stage.folder.path("tmpdir")
    assert job.env == {"PATH": "C:\\bin", "PYTHONUTF8": "0",
                       "UTF8ENV_READINESS_SEED": suite.run_seed(),
                       "PYTHONPATH": os.pathsep.join(["LENT", "C:\\mine"]),
                       "TMPDIR": tmp, "TEMP": tmp, "TMP": tmp}
    assert (job.cwd, job.timeout) == (stage.work, 120.0)


def test_the_embeddable_build_running_utf8env_gets_its_own_plugins(monkeypatch, stage):
    # Its ._pth file: isolated mode, no PYTHONPATH read; the installed utf8env's plugins.
    monkeypatch.setattr(sys, "flags", types.SimpleNamespace(ignore_environment=1))
    python = native.this_python()
    here = _native(monkeypatch, python, {})
    job = here.job(python, "1", stage, ["-q"], {}, 60)
    assert job.argv[job.argv.index("--") + 1:] == [
        sys.executable, "-X", "utf8=1", "-X", "warn_default_encoding", "-m", "pytest",
        "-p", "utf8env.readiness.plugin", "-p", "utf8env.readiness._progress",
        "-p", "utf8env._windows.seen"] + _tail(stage)
    # A Python before 3.10 has no EncodingWarning to ask for.
    old = discovery.Interpreter(version="3.9", argv=["C:\\py39\\python.exe"], root="/")
    assert "warn_default_encoding" not in here.job(old, "1", stage, [], {}, 60).argv


def test_the_world_is_the_code_page_and_the_pythons_that_ran(monkeypatch):
    pythons = [discovery.Interpreter(version=v, argv=["p" + v], root="/")
               for v in ("3.12", "3.13")]
    here = _native(monkeypatch, pythons[0], {})
    here.pythons = pythons
    assert here.describe() == ("this Windows' ANSI code page (GetACP()); the runs: Python "
                               "3.12, 3.13 with -X utf8=0 and -X utf8=1")
    assert here.describe(["the today run: stdout cp932/strict seen, cp1252/strict by "
                          "utf8env's rules"]).endswith(
        "; the encodings seen differ from utf8env's win32 rules: the today run: stdout "
        "cp932/strict seen, cp1252/strict by utf8env's rules")
    # A code page utf8env's rules do not model: nothing compared, nothing claimed.
    here.code_page = 437
    assert here.differences([]) == []


def test_plain_options_are_not_refused():
    options = types.SimpleNamespace(world=None, windows=None, code_page=None,
                                    windows_requirements=None, python=["py"], all=True)
    assert native.refusal(options) is None


def test_on_windows_no_process_is_claimed_by_proc(monkeypatch):
    # Under Wine "/proc" may be Linux's, whose pids are not Windows'.
    monkeypatch.setattr(supervise, "WINDOWS", True)
    assert supervise.marked(["any"]) == [] and supervise.kill_marked(["any"]) == 0
