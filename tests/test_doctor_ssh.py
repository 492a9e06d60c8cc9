"""doctor inside a real ssh session: Debian's sshd on 127.0.0.1 (a free port, keys made in
a temporary folder, `AcceptEnv LANG LC_*`) and a real `ssh -o SendEnv=LC_CTYPE` from a
client whose LC_CTYPE is macOS's `UTF-8`, or a locale the server lacks. doctor finds the
forwarded variable, names the client's and the server's fixes, and each fix, applied,
makes the finding go away. The servers are stopped whatever happens (finally)."""
import functools
import json
import os
import shlex

import pytest

from utf8env._own_command import own_command

from support import machine, sshd


def _need_sshd():
    ok, why = sshd.available()
    if not ok:
        pytest.skip(why)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    _need_sshd()
    running = sshd.Server(tmp_path_factory.mktemp("sshd"))
    try:
        yield running.start()
    finally:
        running.stop()


@pytest.fixture(scope="module")
def lang_only_server(tmp_path_factory):
    """The server-side fix applied: only LANG is accepted from clients."""
    _need_sshd()
    running = sshd.Server(tmp_path_factory.mktemp("sshd-lang"), accept_env="LANG")
    try:
        yield running.start()
    finally:
        running.stop()


def _client_env(**more):
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"]}
    env.update(more)
    return env


def _doctor(server, env, args=("--json", "--no-pythons"), options=("-o", "SendEnv=LC_CTYPE"),
            config="/dev/null"):
    # The session's HOME is the server's throw-away /root: the interpreter cache lands there.
    command = " ".join(shlex.quote(a) for a in own_command() + ["doctor"] + list(args))
    code, out, err = server.ssh(command, env, options, config=config)
    assert err == b"", err
    return code, out


def test_macos_lc_ctype_is_found_with_both_fixes(server):
    code, out = _doctor(server, _client_env(LC_CTYPE="UTF-8"))
    data = json.loads(out)
    assert code == 1
    assert data["contexts"][0]["name"] == "ssh"
    assert data["contexts"][0]["summary"] == "ssh session from 127.0.0.1"
    [finding] = data["findings"]
    assert finding["code"] == "locale-missing"
    assert finding["title"] == (
        "LC_CTYPE=UTF-8 is macOS's name for the UTF-8 character set, not a locale: glibc has "
        "none by that name: LC_CTYPE falls back to C (ASCII)")
    where = "%s:12" % server.config
    assert finding["evidence"][0] == (
        "LC_CTYPE=UTF-8 (most likely sent by the ssh client: SendEnv on the client, let in by "
        "AcceptEnv LANG LC_* at %s)" % where)
    assert finding["fixes"] == [
        {"where": "~/.ssh/config on the ssh client (ssh_config(5); Host * or this server's name)",
         "context": "ssh", "lines": ["Host *", "    SendEnv -LC_CTYPE", "    SetEnv LC_CTYPE=C.UTF-8"]},
        {"where": "%s on this server (sshd_config(5); then reload sshd)" % where, "context": "ssh",
         "lines": ["# was: AcceptEnv LANG LC_*", "AcceptEnv LANG"]},
        {"where": "/etc/default/locale on this server (pam_env gives it to every ssh session on "
                  "Debian/Ubuntu)", "context": "ssh", "lines": ["LC_CTYPE=C.UTF-8"]}]
    assert data["tools"][0] == {"name": "perl", "message": "perl: warning: Setting locale failed.",
                                "when": "at every start"}


def test_the_client_fix_applied_makes_it_go_away(server, tmp_path):
    code, out = _doctor(server, _client_env(LC_CTYPE="UTF-8"))
    client_fix = json.loads(out)["findings"][0]["fixes"][0]["lines"]
    config = tmp_path / "ssh_config"
    config.write_text("\n".join(client_fix) + "\n")     # the lines doctor printed, verbatim
    code, out = _doctor(server, _client_env(LC_CTYPE="UTF-8"), config=str(config))
    data = json.loads(out)
    assert (code, data["verdict"], data["findings"]) == (0, "ok", [])
    assert data["locale"]["variables"] == {"LC_CTYPE": "C.UTF-8"}


def test_the_server_fix_applied_makes_it_go_away(lang_only_server):
    code, out = _doctor(lang_only_server, _client_env(LC_CTYPE="UTF-8"))
    data = json.loads(out)
    # LC_CTYPE no longer gets in; the session has no locale variable at all (this test
    # server has no PAM, which would read /etc/default/locale, the fix's third part).
    assert "LC_CTYPE" not in data["environ"]
    assert [f["code"] for f in data["findings"]] == ["c-locale"]


def test_a_locale_the_server_lacks(server):
    code, out = _doctor(server, _client_env(LC_CTYPE="de_DE.UTF-8"))
    data = json.loads(out)
    [finding] = data["findings"]
    assert finding["title"] == ("LC_CTYPE=de_DE.UTF-8 names a locale this system does not have "
                                "(C.UTF-8 is installed): LC_CTYPE falls back to C (ASCII)")
    assert [f["where"].split(" ")[0] for f in finding["fixes"]] == [
        "~/.ssh/config", server.config + ":12", "/etc/default/locale", "install"]
    assert finding["fixes"][3]["lines"] == [
        "apt-get install -y locales",
        "sed -i 's/^# *de_DE\\.UTF-8 UTF-8$/de_DE.UTF-8 UTF-8/' /etc/locale.gen", "locale-gen"]


@functools.lru_cache(maxsize=None)
def _text_session(server):
    """doctor's text in a session whose client sends macOS's LC_CTYPE=UTF-8."""
    return _doctor(server, _client_env(LC_CTYPE="UTF-8"), args=())


def test_text_output_and_python_predictions_in_a_session(server):
    code, out = _text_session(server)
    text = out.decode("utf-8")
    assert code == 1
    lines = text.splitlines()
    assert lines[0].endswith("problems") or lines[0] == "1 problem"
    assert "warning LC_CTYPE=UTF-8 is macOS's name for the UTF-8 character set, not a locale: " \
           "glibc has none by that name: LC_CTYPE falls back to C (ASCII)" in lines
    assert "  LC_CTYPE   C (ANSI_X3.4-1968), from LC_CTYPE" in lines
    # 3.7+ coerce: under LC_CTYPE=UTF-8 their print("é") works.
    pythons = [l for l in lines if l.startswith("  3.")]
    assert all(l.endswith('print("\u00e9") ok') for l in pythons if not l.startswith("  3.6 "))


def test_python_36_in_a_session_is_predicted_to_fail(server):
    # 3.6 has no coercion: under LC_CTYPE=UTF-8 its print("é") fails.
    machine.python("3.6")
    lines = _text_session(server)[1].decode("utf-8").splitlines()
    assert [l.endswith('print("\u00e9") fails') for l in lines if l.startswith("  3.6 ")] == [True]


def test_fleet_recipe_over_ssh(server, tmp_path):
    """The README's fleet recipe: one `doctor --json` per host over ssh, one line each."""
    hosts = [("a", _client_env(LC_CTYPE="UTF-8")), ("b", _client_env(LANG="C.UTF-8"))]
    rows = []
    for name, env in hosts:
        code, out = _doctor(server, env, options=("-o", "SendEnv=LC_CTYPE LANG"))
        data = json.loads(out)
        rows.append((name, code, data["verdict"], [f["code"] for f in data["findings"]
                                                    if f["severity"] != "note"]))
    assert rows == [("a", 1, "1 problem", ["locale-missing"]), ("b", 0, "ok", [])]
