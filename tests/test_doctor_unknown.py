"""Where doctor does not know, it says so (issue 30): a value no context, start-up file or
locale file gives is "not recognised", with the parent process as its evidence, and its
fix is still the one a test proved for the shell (tests/test_doctor_places.py: the top of
~/.bashrc for an interactive bash); an LC_CTYPE a parent CPython 3.7+ exported by its own
locale coercion (PEP 538) is named as that, and the place's own variables are diagnosed.
"""
import glob
import json
import os
import subprocess

import pytest

from utf8env._own_command import own_command


def _place(environ, *ancestors, **more):
    from utf8env._engine.policy import LocaleFacts
    from utf8env.doctor._place import Place, Process
    values = dict(files={}, markers=(), proc=True, ttys=(True, True, True),
                  sshd_configs=(), pythons=(),
                  facts=LocaleFacts({"C.UTF-8": "UTF-8", "C.utf8": "UTF-8"},
                                    c_codeset="ANSI_X3.4-1968"))
    values.update(more)
    return Place(environ=environ, ancestors=tuple(
        Process(pid, argv[0].rpartition("/")[2][:15], tuple(argv), exe)
        for pid, (exe, argv) in enumerate(ancestors, 100)), **values)


_BASHRC = ('the top of ~/.bashrc (above its "If not running interactively" line)',
           ("export LANG=C.UTF-8",), "shell")
_C_LOCALE = ("LC_CTYPE is the C locale (LANG=C): ASCII for every program but Python 3.7+, "
             "which coerces it")


@pytest.mark.fast
def test_a_value_nothing_gives_is_not_recognised_and_keeps_the_proven_fix():
    from utf8env.doctor._diagnose import diagnose
    place = _place({"LANG": "C", "SHELL": "/bin/bash", "TERM": "xterm"},
                   ("/usr/bin/xterm", ["xterm"]))
    [finding] = diagnose(place).findings
    assert (finding.code, finding.severity, finding.title, finding.evidence) == (
        "c-locale", "warning", _C_LOCALE,
        ("LANG=C (not recognised: no context found here, start-up file or locale file doctor "
         "reads sets it; parent process: xterm)",))
    assert [(f.where, f.lines, f.context) for f in finding.fixes] == [_BASHRC]
    # Without /proc, no parent to name: said.
    [finding] = diagnose(_place({"LANG": "C", "SHELL": "/bin/bash"}, proc=False)).findings[:1]
    assert finding.evidence == (
        "LANG=C (not recognised: no context found here, start-up file or locale file doctor "
        "reads sets it; the parent process is not known: no /proc)",)
    assert [(f.where, f.lines, f.context) for f in finding.fixes] == [_BASHRC]


@pytest.mark.fast
def test_a_parent_python_coercion_from_evidence():
    from utf8env.doctor._diagnose import diagnose
    python = ("/usr/bin/python3.11", ["/usr/bin/python3", "-m", "ansible"])
    environ = {"LANG": "C", "LC_CTYPE": "C.UTF-8", "SHELL": "/bin/bash", "TERM": "xterm"}
    found = diagnose(_place(environ, python, parent_locale={"LANG": "C"})).findings
    assert [(f.code, f.severity, f.title) for f in found] == [
        ("c-locale", "warning", _C_LOCALE),
        ("parent-coercion", "note", "LC_CTYPE=C.UTF-8 was set by the parent Python's locale "
         "coercion (PEP 538), not by this place: programs started elsewhere here get LANG=C")]
    assert [(f.where, f.lines, f.context) for f in found[0].fixes] == [_BASHRC]
    assert found[1].evidence == (
        "process 100 (/usr/bin/python3.11) is the parent and a Python: CPython 3.7+ started in "
        "the C locale exports LC_CTYPE set to the first of C.UTF-8, C.utf8, UTF-8 its libc has",
        "LANG=C, LC_ALL unset: the C locale that coercion replaces",
        "/proc/100/environ: the parent was started with LC_CTYPE unset",
        "the other findings are those of LANG=C")
    # /proc/PID/environ unreadable: the exe alone; a C LC_CTYPE it started with comes back.
    found = diagnose(_place(dict(environ, LANG="POSIX"), (None, ["python3"]))).findings
    assert found[-1].evidence[2:] == (
        "/proc/100/environ could not be read: LC_CTYPE is taken as unset where the parent "
        "started", "the other findings are those of LANG=POSIX")
    found = diagnose(_place(environ, python, parent_locale={"LC_CTYPE": "C"})).findings
    assert found[-1].title.endswith("get LC_CTYPE=C LANG=C")
    # A parent started with a LANG its libc lacks is in the C locale too: coerced.
    found = diagnose(_place(environ, python, parent_locale={"LANG": "en_US.UTF-8"})).findings
    assert found[-1].code == "parent-coercion"
    # Not a coercion: a parent that is no Python, or 3.6 (no PEP 538), or started with that
    # LC_CTYPE itself, or in a locale that is not C (a Python that passes an environment of
    # its own, as a test does); LC_ALL set (it exempts a start); LANG not C; a value that is
    # not the first target this libc has (C.UTF-8 here), or none's.
    for place in (_place(environ, ("/usr/bin/bash", ["bash", "-c", "doctor"])),
                  _place(environ, ("/usr/bin/python3.6", ["python3.6"])),
                  _place(environ, python, parent_locale={"LC_CTYPE": "C.UTF-8"}),
                  _place(environ, python, parent_locale={"LANG": "C.UTF-8"}),
                  _place(environ, python, parent_locale={"LANG": "C", "LC_ALL": "C"}),
                  _place(dict(environ, LC_CTYPE="UTF-8"), python, parent_locale={}),
                  _place(dict(environ, LC_CTYPE="C.utf8"), python, parent_locale={}),
                  _place(dict(environ, LC_ALL="C"), python),
                  _place(dict(environ, LANG="de_DE.UTF-8"), python),
                  _place(dict(environ, LC_CTYPE="C.UTF8"), python)):
        assert "parent-coercion" not in [f.code for f in diagnose(place).findings]


def _python311():
    """The newest pyenv CPython 3.11 (a real 3.7+ that coerces), or a skip."""
    found = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.11.*/bin/python3.11")) +
                   glob.glob("/root/.pyenv/versions/3.11.*/bin/python3.11"))
    if not found:
        pytest.skip("no pyenv CPython 3.11: pyenv install 3.11 (tests/setup.sh)")
    return found[-1]


# The parent: runs doctor as Ansible's command module does (subprocess, no shell).
_PARENT = ("import subprocess, sys; sys.stdout.buffer.write(subprocess.run(sys.argv[1:], "
           "stdout=subprocess.PIPE).stdout)")


def _run_under(tmp_path, parent, *assignments):
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = ["HOME=%s" % home, "TMPDIR=%s" % tmp_path, "XDG_CACHE_HOME=%s" % (tmp_path / "cache"),
           "PATH=/usr/bin:/bin"]
    process = subprocess.Popen(["env", "-i"] + env + list(assignments) + parent +
                               own_command() + ["doctor", "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate()
    assert err == b""
    return process.pid, json.loads(out.decode())


def test_a_real_coercing_python_parent_is_named(tmp_path):
    python = _python311()
    pid, data = _run_under(tmp_path, [python, "-c", _PARENT], "LANG=C")
    [note] = [f for f in data["findings"] if f["code"] == "parent-coercion"]
    assert note == {
        "code": "parent-coercion", "severity": "note",
        "title": "LC_CTYPE=C.UTF-8 was set by the parent Python's locale coercion (PEP 538), "
                 "not by this place: programs started elsewhere here get LANG=C",
        "evidence": [
            "process %d (%s) is the parent and a Python: CPython 3.7+ started in the C "
            "locale exports LC_CTYPE set to the first of C.UTF-8, C.utf8, UTF-8 its libc has"
            % (pid, os.path.realpath(python)),
            "LANG=C, LC_ALL unset: the C locale that coercion replaces",
            "/proc/%d/environ: the parent was started with LC_CTYPE unset" % pid,
            "the other findings are those of LANG=C"],
        "shared": None, "fixes": []}
    # The place's own LANG=C is diagnosed, with its fix: not "ok".
    assert data["verdict"] != "ok"
    assert [f["title"] for f in data["findings"] if f["code"] == "c-locale"] == [_C_LOCALE]
    assert data["locale"]["variables"] == {"LANG": "C"}


def test_a_non_python_parent_setting_lc_ctype_is_no_coercion(tmp_path):
    # bash sets it (`; true` keeps bash the parent: no exec of the last command).
    pid, data = _run_under(tmp_path, ["bash", "-c", 'LC_CTYPE=C.UTF-8 "$@"; true', "bash"],
                           "LANG=C")
    assert "parent-coercion" not in [f["code"] for f in data["findings"]]
    assert "c-locale" not in [f["code"] for f in data["findings"]]
    assert data["locale"]["variables"] == {"LANG": "C", "LC_CTYPE": "C.UTF-8"}
    # A Python started with that LC_CTYPE: its own start, not its coercion.
    pid, data = _run_under(tmp_path, [_python311(), "-c", _PARENT], "LANG=C", "LC_CTYPE=C.UTF-8")
    assert "parent-coercion" not in [f["code"] for f in data["findings"]]
    assert data["locale"]["variables"] == {"LANG": "C", "LC_CTYPE": "C.UTF-8"}
