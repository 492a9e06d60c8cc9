"""One discovery for every command that looks for Pythons (src/utf8env/_discovery.py):
pyenv, PATH, uv's managed Pythons, the distribution's /usr/bin, the chroot, each found
interpreter once, each with where it came from; matrix's report and readiness's default
3.15 from it. The places are built in the test's folder with links to real interpreters,
for a user without pyenv (PYENV_ROOT an empty folder)."""
import glob
import json
import os
import subprocess

import pytest

from utf8env import _cli as utf8env_cli
from utf8env._errors import UsageError
from utf8env._own_command import own_command
from utf8env import _discovery as discovery
from utf8env.readiness import _targets as targets

from support import machine

APP = 'print("caf\\u00e9")\n'


def _distribution():
    """This machine kind's /usr/bin: Debian's 3.11 alone (its expected lines name it)."""
    found = sorted(glob.glob("/usr/bin/python3.[0-9]*"))
    if [p for p in found if not p.endswith("-config")] != ["/usr/bin/python3.11"]:
        pytest.skip("the expected output names Debian's /usr/bin/python3.11 alone; here: %s"
                    % ", ".join(found))


def _script(path, text):
    path.write_text(text)
    path.chmod(0o755)


def _places(tmp_path):
    """A user's places: a PATH folder with python3.9 (a link to a real 3.9) and python3 (a
    second link to it), a python3.10 that exits 1; uv's folder with a real 3.12; no pyenv.
    The environment that names them, and the paths."""
    _distribution()
    py39, py312 = machine.python("3.9"), machine.python("3.12")
    bin_, home, uv, pyenv = (tmp_path / n for n in ("bin", "home", "uv", "pyenv"))
    for folder in (bin_, home, pyenv, tmp_path / "tmp"):
        folder.mkdir()
    (bin_ / "python3.9").symlink_to(py39)
    (bin_ / "python3").symlink_to(bin_ / "python3.9")        # the same file, found once
    _script(bin_ / "python3.10", "#!/bin/sh\nexit 1\n")
    exe = uv / "cpython-3.12.0-linux-x86_64-gnu" / "bin" / "python3.12"
    exe.parent.mkdir(parents=True)
    exe.symlink_to(py312)
    env = {"PATH": str(bin_), "HOME": str(home), "PYENV_ROOT": str(pyenv),
           "UV_PYTHON_INSTALL_DIR": str(uv), "TMPDIR": str(tmp_path / "tmp"),
           "XDG_CACHE_HOME": str(home / ".cache"), "XDG_DATA_HOME": str(home / "data")}
    return env, {"bin": str(bin_), "uv": str(exe), "pyenv": str(pyenv)}


def _looked(pyenv, uv):
    return ["pyenv (%s/versions)" % pyenv, "python3.N on PATH", "uv (%s)" % uv,
            "/usr/bin/python3.N"]


def test_each_place_is_looked_in_and_each_interpreter_found_once(tmp_path):
    env, at = _places(tmp_path)
    assert [tuple(i) for i in discovery.every("", env)] == [
        ("3.9", [at["bin"] + "/python3.9"], "/", "PATH"),
        ("3.12", [at["uv"]], "/", "uv"),
        ("3.11", ["/usr/bin/python3.11"], "/", "/usr/bin")]
    assert [i.version for i in discovery.interpreters("", env)] == ["3.9", "3.11", "3.12"]
    assert [tuple(u) for u in discovery.unusable("", env)] == [
        (at["bin"] + "/python3.10", "PATH", "did not start (exit status 1)")]
    assert discovery.looked("", env) == _looked(at["pyenv"], env["UV_PYTHON_INSTALL_DIR"])
    # Without UV_PYTHON_INSTALL_DIR: $XDG_DATA_HOME/uv/python, else ~/.local/share/uv/python.
    del env["UV_PYTHON_INSTALL_DIR"]
    assert discovery.looked("", env)[2] == "uv (%s/data/uv/python)" % env["HOME"]
    del env["XDG_DATA_HOME"]
    assert discovery.looked("", env)[2] == "uv (%s/.local/share/uv/python)" % env["HOME"]


def _matrix(argv, env, cwd):
    proc = subprocess.run(own_command() + ["matrix"] + argv, env=env, cwd=cwd,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


def test_matrix_says_where_each_interpreter_came_from(tmp_path):
    env, at = _places(tmp_path)
    (tmp_path / "app.py").write_text(APP)
    argv = ["--env-set", "c-locale", "--", "app.py"]
    text = _matrix(argv, env, str(tmp_path))
    assert text == (0, """\
utf8env matrix -- app.py

python  c-locale
======  ========
3.9     ok
3.11    ok
3.12    ok

Environment sets:
  c-locale: LANG=C, as shipped (3.7+ coerce the locale and turn on UTF-8 mode)
  A cell: ok, the exception that ended the run (or exit N), wN: N EncodingWarnings.

Pythons, where each was found (the first found of each version runs):
  3.9: {bin}/python3.9 (PATH)
  3.11: /usr/bin/python3.11 (/usr/bin)
  3.12: {uv} (uv)
  {bin}/python3.10 (PATH) left out: did not start (exit status 1)

Python 3.15 (PEP 686: UTF-8 mode on by default; still off with -X utf8=0):
  c-locale (3.9-3.12): on: no change

3 cells, 0 with a problem
""".format(**at), "")
    status, out, err = _matrix(["--format", "json"] + argv, env, str(tmp_path))
    data = json.loads(out)
    assert (status, err) == (0, "")
    assert data["pythons"] == [
        {"version": "3.9", "argv": [at["bin"] + "/python3.9"], "origin": "PATH"},
        {"version": "3.11", "argv": ["/usr/bin/python3.11"], "origin": "/usr/bin"},
        {"version": "3.12", "argv": [at["uv"]], "origin": "uv"}]
    assert data["pythons_left_out"] == [
        {"path": at["bin"] + "/python3.10", "origin": "PATH",
         "why": "did not start (exit status 1)"}]
    assert [(c["python"], c["interpreter"], c["status"]) for c in data["cells"]] == [
        (p["version"], p["argv"], "ok") for p in data["pythons"]]


def test_readiness_looks_for_its_315_in_the_same_places(tmp_path):
    env, at = _places(tmp_path)
    looked = ", ".join(_looked(at["pyenv"], env["UV_PYTHON_INSTALL_DIR"]))
    assert targets.python_315(env) == (None, _looked(at["pyenv"], env["UV_PYTHON_INSTALL_DIR"]))
    with pytest.raises(UsageError) as e:
        targets.default_pythons(env)
    assert str(e.value) == ("readiness: no Python 3.15 found (looked in %s); give --python "
                            "PATH (3.10+ for EncodingWarning)" % looked)
    # A python3.15 is asked its version like any other: one that is not 3.15 is said.
    named = os.path.join(at["bin"], "python3.15")
    os.symlink(at["uv"], named)
    with pytest.raises(UsageError) as e:
        targets.default_pythons(env)
    assert str(e.value) == ("readiness: %s (python3.15 from PATH) is Python 3.12, not 3.15; "
                            "give --python PATH" % named)
    os.remove(named)
    _script(tmp_path / "bin" / "python3.15", "#!/bin/sh\nexit 3\n")
    with pytest.raises(UsageError) as e:
        targets.default_pythons(env)
    assert str(e.value) == ("readiness: %s (python3.15 from PATH) did not start (exit status "
                            "3); give --python PATH" % named)


@pytest.mark.fast
@pytest.mark.parametrize("argv", [["--", "app.py"], []], ids=["program", "pep"])
def test_nothing_found_is_one_line_naming_every_place(tmp_path, monkeypatch, capsys, argv):
    # No interpreter anywhere: the distribution's folder too is one of the test's.
    for name in ("bin", "home", "pyenv", "usr-bin"):
        (tmp_path / name).mkdir()
    monkeypatch.setattr(discovery, "DISTRIBUTION", str(tmp_path / "usr-bin"))
    for name, value in (("PATH", "bin"), ("HOME", "home"), ("PYENV_ROOT", "pyenv")):
        monkeypatch.setenv(name, str(tmp_path / value))
    for name in ("UTF8ENV_DEBIAN_ROOT", "UV_PYTHON_INSTALL_DIR", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_text(APP)
    assert utf8env_cli.main(["matrix"] + argv) == 2
    assert capsys.readouterr() == ("", (
        "utf8env: error: matrix: no interpreter found (looked in pyenv ({0}/pyenv/versions), "
        "python3.N on PATH, uv ({0}/home/.local/share/uv/python), {0}/usr-bin/python3.N); "
        "give --python PATH\n".format(tmp_path)))


def test_doctor_lists_uvs_pythons_from_the_same_place(tmp_path):
    """doctor finds Pythons where a user's command would (PATH, pyenv, /usr/bin), and
    uv's managed ones where the one discovery looks for them."""
    env, at = _places(tmp_path)
    proc = subprocess.run(own_command() + ["doctor", "--json"], env=env, cwd=str(tmp_path),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stderr == b""
    found = [(p["path"], p["version"], p["sources"])
             for p in json.loads(proc.stdout.decode())["pythons"]]
    assert [f for f in found if f[2] == ["uv"]] == [(at["uv"], "3.12", ["uv"])]
