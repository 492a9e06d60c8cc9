"""doctor inside a real ssh session, and every fix it prints there applied, as printed, in
a real place of its kind, with a new session's doctor then saying "ok".

The place (tests/support/sshd.py): Debian's sshd on 127.0.0.1, its sshd_config written by
the harness (`UsePAM yes` with the system's own /etc/pam.d/sshd, or `UsePAM no`;
`AcceptEnv LANG LC_*`, Debian's stock value), a test's /etc/default/locale bound over the
real one inside the server's namespace only, and a throw-away session home (a tmpfs) for
~/.bashrc. The client is run as a user runs it: the SYSTEM /etc/ssh/ssh_config (Debian's
`Host *` / `SendEnv LANG LC_*`) sends the client's locale variables, and the test's text
is the user's ~/.ssh/config; no -o SendEnv, no -F.

doctor is started in the session by own_command() + ["doctor", ...] (this checkout,
-I -S). It finds the sshd_config of the sshd it descends from (/proc ancestors: the
harness's `-f FILE`, not /etc/ssh/sshd_config) and whether PAM runs (its UsePAM).

A fix is applied by its "where": the ssh client's ~/.ssh/config (the user config text),
the sshd_config line named by path:line (replaced by the printed lines in a new server's
copy of the config: the harness writes the same line there), /etc/default/locale (the
printed lines added to the server's file), the top of ~/.bashrc on the server (Debian's
stock /etc/skel/.bashrc with the printed lines above it). A "where" no test knows how to
apply fails the test: a fix that no test has applied is not printed. An install option is
not run (it would change this machine): its lines are checked exactly, and its sed line
is run on a copy of /etc/locale.gen. The servers are stopped whatever happens (finally)."""
import json
import os
import re
import shlex
import subprocess

import pytest

from utf8env._own_command import own_command

from support import machine, printed, sshd, sshd_sessions

SEND_ENV = re.compile(r"^\s*SendEnv\s+LANG\s+LC_\*\s*$", re.M)
SKEL_BASHRC = "/etc/skel/.bashrc"
LOCALE_GEN = printed.LOCALE_GEN
BACKUP = ".bashrc.utf8env-backup"
MARK = "# utf8env doctor --fix: a UTF-8 locale for every program"

# The "where" of each fix doctor prints in an ssh session, whole.
CLIENT = ("the top of ~/.ssh/config on the ssh client (ssh_config(5): Host * or this "
          "server's name)")
SERVER_BASHRC = ('on this server, the top of ~/.bashrc (above its "If not running '
                 'interactively" line)')
BASHRC = 'the top of ~/.bashrc (above its "If not running interactively" line)'
DEFAULT_LOCALE = ("as root on this server, /etc/default/locale (pam_env gives it to every "
                  "ssh session)")
DEFAULT_LOCALE_OVER = ("as root on this server, /etc/default/locale (pam_env gives it to "
                       "every ssh session, over what the client sends)")
SSHD_CONFIG = re.compile(r"\Aas root on this server, (/\S+):(\d+) \(sshd_config\(5\); then "
                         r"reload sshd\)\Z")


def _need_place():
    ok, why = sshd.pam_available()
    if not ok:
        pytest.skip(why)
    try:
        with open(sshd.SSH_CONFIG) as f:
            system = f.read()
    except OSError:
        system = ""
    if not SEND_ENV.search(system):
        pytest.skip("%s has no `SendEnv LANG LC_*` (Debian's openssh-client has it under "
                    "Host *): the client would send no locale variable" % sshd.SSH_CONFIG)
    if not os.path.isfile(SKEL_BASHRC):
        pytest.skip("no %s (Debian's bash package installs it)" % SKEL_BASHRC)


def _skel():
    with open(SKEL_BASHRC) as f:
        return f.read()


def _running(folder, **options):
    _need_place()
    server = sshd.Server(folder, **options)
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture(scope="module")
def _pam_sshd(tmp_path_factory):
    yield from _running(tmp_path_factory.mktemp("sshd-pam"), use_pam=True, default_locale="")


@pytest.fixture(scope="module")
def _plain_sshd(tmp_path_factory):
    yield from _running(tmp_path_factory.mktemp("sshd-plain"), use_pam=False)


def _clean(server):
    sshd_sessions.ended(server)     # the last test's sessions over (not this one's to leave)
    if server.default_locale is not None:
        server.set_default_locale("")
    server.put_home_files({".bashrc": None, BACKUP: None})


@pytest.fixture
def server(_pam_sshd):
    """UsePAM yes (Debian's stock sshd_config has it), AcceptEnv LANG LC_*, an empty
    /etc/default/locale and no ~/.bashrc, before and after each test."""
    _clean(_pam_sshd)
    yield _pam_sshd
    _clean(_pam_sshd)


@pytest.fixture
def plain_server(_plain_sshd):
    """UsePAM no (OpenSSH's default), AcceptEnv LANG LC_*, no ~/.bashrc."""
    _clean(_plain_sshd)
    yield _plain_sshd
    _clean(_plain_sshd)


SERVERS = {"pam": "server", "no-pam": "plain_server"}


def _client(**more):
    """The ssh client's whole environment: no locale variable unless given."""
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"]}
    env.update(more)
    return env


def _ssh(server, command, client, user_config=""):
    code, out, err = server.ssh_as_user(command, client, user_config)
    assert err == b"", (code, err, server.read_log())
    return code, out.decode("utf-8")


def _doctor(server, client, args=("--json", "--no-pythons"), user_config=""):
    # The session's HOME is the server's throw-away /root: the interpreter cache lands there.
    command = " ".join(shlex.quote(a) for a in own_command() + ["doctor"] + list(args))
    return _ssh(server, command, client, user_config)


def _json(server, client, user_config="", pythons=False):
    args = ("--json",) if pythons else ("--json", "--no-pythons")
    code, out = _doctor(server, client, args, user_config)
    return code, json.loads(out)


def _ok(server, client, user_config="", variables=None, pythons=False):
    """A new session's doctor says ok: no problem (with the Pythons, only their notes;
    without them, no finding at all); and, given, the session's locale variables."""
    code, data = _json(server, client, user_config, pythons)
    findings = [f for f in data["findings"] if f["severity"] != "note"] if pythons \
        else data["findings"]
    assert (code, data["verdict"], data["problems"], findings) == (0, "ok", 0, []), \
        data["findings"]
    if variables is not None:
        assert data["locale"]["variables"] == variables
    return data


def _config_lines(server):
    with open(server.config) as f:
        return f.read().splitlines()


def _sshd_where(server):
    return "as root on this server, %s:12 (sshd_config(5); then reload sshd)" % server.config


def _client_sent_fixes(server, name, value):
    """Every fix doctor prints for `name` sent by the client with the bad `value`: the
    client's SetEnv; with PAM, the server's /etc/default/locale alone (its value wins over
    the client's; without PAM the server has no file of its own to offer); the top of
    ~/.bashrc on the server; the locale installed."""
    fixes = [{"option": 1, "where": CLIENT, "context": "ssh",
              "lines": ["Host *", "    SetEnv %s=C.UTF-8" % name]}]
    if server.use_pam:
        fixes.append({"option": 2, "where": DEFAULT_LOCALE, "context": "ssh",
                      "lines": ["%s=C.UTF-8" % name]})
    fixes.append({"option": len(fixes) + 1, "where": SERVER_BASHRC, "context": "ssh",
                  "lines": ["export %s=C.UTF-8" % name]})
    if value != "UTF-8":
        fixes.append(printed.install_option(value, len(fixes) + 1))
    return fixes


def _options(server):
    return [1, 2, 3] if server.use_pam else [1, 2]


TITLES = {
    "UTF-8": ("LC_CTYPE=UTF-8 is macOS's name for the UTF-8 character set, not a locale: glibc "
              "has none by that name: LC_CTYPE falls back to C (ASCII)"),
    "de_DE.UTF-8": ("LC_CTYPE=de_DE.UTF-8 names a locale this system does not have (C.UTF-8 "
                    "is installed): LC_CTYPE falls back to C (ASCII)"),
}


# --- applying a printed option ------------------------------------------------------

def _apply(server, steps, tmp_path_factory, client):
    """Apply the steps of one option exactly as printed, each where it says, and return
    the doctor JSON of a new session (the server itself, or a new one made with the
    changed sshd_config: "then reload sshd")."""
    user_config = ""
    sshd_change = None
    default_locale = []
    bashrc = []
    for step in steps:
        where, lines = step["where"], step["lines"]
        assert step["context"] == "ssh", step
        if where == CLIENT:
            assert lines[0] == "Host *"
            user_config = "\n".join(lines) + "\n"       # the whole ~/.ssh/config: its top
        elif SSHD_CONFIG.match(where):
            path, number = SSHD_CONFIG.match(where).groups()
            assert path == server.config                # the harness's, found via /proc
            sshd_change = (int(number), lines)
        elif where in (DEFAULT_LOCALE, DEFAULT_LOCALE_OVER):
            assert server.use_pam
            default_locale += lines
        elif where in (SERVER_BASHRC, BASHRC):
            bashrc += lines
        else:
            pytest.fail("doctor printed a fix no test knows how to apply: %r" % (step,))
    home = {".bashrc": "\n".join(bashrc) + "\n" + _skel()} if bashrc else {}
    if sshd_change is None:
        if default_locale:
            with open(server.default_locale) as f:
                old = f.read()
            server.set_default_locale(old + "\n".join(default_locale) + "\n")
        server.put_home_files(home)
        return _ok(server, client, user_config, variables=None)
    # A new server: the same config, with the named line replaced by the printed lines.
    number, lines = sshd_change
    old_locale = None
    if server.default_locale is not None:
        with open(server.default_locale) as f:
            old_locale = f.read()
    if default_locale:
        old_locale = (old_locale or "") + "\n".join(default_locale) + "\n"
    changed = sshd.Server(tmp_path_factory.mktemp("sshd-applied"), use_pam=server.use_pam,
                          default_locale=old_locale, home_files=home)
    config = _config_lines(changed)
    assert lines[0] == "# was: " + config[number - 1], (lines, config)
    config[number - 1:number] = lines
    with open(changed.config, "w") as f:
        f.write("\n".join(config) + "\n")
    try:
        changed.start()
        data = _ok(changed, client, user_config)
        # Each step does its part: without the other one, the new sshd_config alone
        # keeps the client's values out (the session has none of the variables).
        if default_locale:
            changed.set_default_locale("")
        changed.put_home_files({".bashrc": None})
        code, alone = _json(changed, client, user_config)
        sent = [n for n in client if n.startswith("LC_") or n == "LANG"]
        assert [n for n in sent if n in alone["environ"]] == [], alone["environ"]
        return data
    finally:
        changed.stop()


# --- a variable the ssh client sent -------------------------------------------------

def test_the_harness_config_is_the_one_doctor_reads(server, plain_server):
    """The sshd_config each server runs with: UsePAM as asked, AcceptEnv on line 12 (the
    line doctor names)."""
    for running, pam in ((server, "yes"), (plain_server, "no")):
        lines = _config_lines(running)
        assert "UsePAM %s" % pam in lines
        assert lines[11] == "AcceptEnv LANG LC_*"
    code, data = _json(server, _client())
    ssh = data["contexts"][0]
    assert ssh["name"] == "ssh"
    assert re.match(r"\Aprocess \d+ \(sshd: root@notty\) is an ancestor\Z", ssh["evidence"][-1])


@pytest.mark.parametrize("value", sorted(TITLES))
@pytest.mark.parametrize("kind", sorted(SERVERS))
def test_a_client_sent_lc_ctype_is_found_with_every_fix(request, kind, value):
    running = request.getfixturevalue(SERVERS[kind])
    code, data = _json(running, _client(LC_CTYPE=value))
    assert (code, data["verdict"]) == (1, "1 problem")
    assert data["contexts"][0]["name"] == "ssh"
    assert data["contexts"][0]["summary"] == "ssh session from 127.0.0.1"
    assert data["locale"]["variables"] == {"LC_CTYPE": value}
    [finding] = data["findings"]
    assert (finding["code"], finding["severity"]) == ("locale-missing", "warning")
    assert finding["title"] == TITLES[value]
    assert finding["evidence"][0] == (
        "LC_CTYPE=%s (most likely sent by the ssh client: SendEnv on the client, let in by "
        "AcceptEnv LANG LC_* at %s:12)" % (value, running.config))
    assert finding["fixes"] == _client_sent_fixes(running, "LC_CTYPE", value)
    assert data["tools"][0] == {"name": "perl", "message": "perl: warning: Setting locale failed.",
                                "when": "at every start"}


@pytest.mark.parametrize("option", [1, 2, 3])
@pytest.mark.parametrize("value", sorted(TITLES))
@pytest.mark.parametrize("kind", sorted(SERVERS))
def test_each_client_sent_option_applied_makes_it_go_away(request, tmp_path_factory, kind,
                                                          value, option):
    running = request.getfixturevalue(SERVERS[kind])
    if option not in _options(running):
        pytest.skip("a server without PAM has two options: no file of its own gives a locale")
    client = _client(LC_CTYPE=value)
    code, data = _json(running, client)
    [finding] = data["findings"]
    steps = [f for f in finding["fixes"] if f["option"] == option]
    assert steps == [f for f in _client_sent_fixes(running, "LC_CTYPE", value)
                     if f["option"] == option]
    after = _apply(running, steps, tmp_path_factory, client)
    assert after["locale"]["variables"] == {"LC_CTYPE": "C.UTF-8"}
    assert after["locale"]["lc_ctype"] == "C.UTF-8"


def test_the_install_option_is_exact_and_its_sed_line_works(server, tmp_path):
    """The install lines are not run here (they would change this machine); the one that
    edits a file is, on a copy: it uncomments that locale's line and nothing else."""
    if not os.path.isfile(LOCALE_GEN):
        pytest.skip("no %s (Debian's locales package)" % LOCALE_GEN)
    code, data = _json(server, _client(LC_CTYPE="de_DE.UTF-8"))
    install = data["findings"][0]["fixes"][-1]
    assert install == printed.install_option("de_DE.UTF-8", len(_options(server)) + 1)
    edit = install["lines"][2]
    if not edit.startswith("sed -i "):
        pytest.skip("%s has no commented de_DE.UTF-8 line: doctor appends it" % LOCALE_GEN)
    copy = tmp_path / "locale.gen"
    with open(LOCALE_GEN) as f:
        old = f.read()
    copy.write_text(old)
    subprocess.run(["sh", "-c", edit.replace("/etc/locale.gen", shlex.quote(str(copy)))],
                   check=True)
    changed = [(a, b) for a, b in zip(old.splitlines(), copy.read_text().splitlines()) if a != b]
    assert changed == [("# de_DE.UTF-8 UTF-8", "de_DE.UTF-8 UTF-8")]


# --- a variable PAM set from /etc/default/locale ------------------------------------

PAM_TITLE = ("LANG=de_DE.UTF-8 names a locale this system does not have (C.UTF-8 is "
             "installed): LC_CTYPE falls back to C (ASCII)")


def _pam_origin(server):
    server.set_default_locale("LANG=de_DE.UTF-8\n")
    return _json(server, _client(LANG="C.UTF-8"))


def test_a_pam_set_lang_is_found_with_its_fixes(server):
    code, data = _pam_origin(server)
    assert (code, data["verdict"]) == (1, "1 problem")
    assert data["locale"]["variables"] == {"LANG": "de_DE.UTF-8"}
    [finding] = data["findings"]
    assert finding["title"] == PAM_TITLE
    assert finding["evidence"][0] == (
        "LANG=de_DE.UTF-8 (as /etc/default/locale sets it: sshd's PAM (pam_env) applies that "
        "file after the variables the ssh client sent)")
    assert finding["fixes"] == [
        {"option": 1, "where": DEFAULT_LOCALE_OVER, "context": "ssh", "lines": ["LANG=C.UTF-8"]},
        {"option": 2, "where": SERVER_BASHRC, "context": "ssh",
         "lines": ["export LANG=C.UTF-8"]},
        printed.install_option("de_DE.UTF-8", 3)]


@pytest.mark.parametrize("option", [1, 2])
def test_each_pam_origin_option_applied_makes_it_go_away(server, tmp_path_factory, option):
    """Option 1's line added to /etc/default/locale below the old LANG line (what the
    printed "where" says: the file, no line to replace): pam_env's later line wins."""
    code, data = _pam_origin(server)
    steps = [f for f in data["findings"][0]["fixes"] if f["option"] == option]
    after = _apply(server, steps, tmp_path_factory, _client(LANG="C.UTF-8"))
    assert after["locale"]["variables"] == {"LANG": "C.UTF-8"}


def test_pam_origin_option_1_replacing_the_line_also_works(server):
    code, data = _pam_origin(server)
    assert data["findings"][0]["fixes"][0]["lines"] == ["LANG=C.UTF-8"]
    server.set_default_locale("LANG=C.UTF-8\n")
    _ok(server, _client(LANG="C.UTF-8"), variables={"LANG": "C.UTF-8"})


def test_the_client_fix_does_not_work_where_pam_set_it(server):
    """Why doctor prints no client fix there: the very lines it prints for a LANG the
    client sent (SetEnv on the client) change nothing once /etc/default/locale sets LANG."""
    code, data = _json(server, _client(LANG="de_DE.UTF-8"))     # the client sends it
    [client_fix] = [f for f in data["findings"][0]["fixes"] if f["where"] == CLIENT]
    assert client_fix["lines"] == ["Host *", "    SetEnv LANG=C.UTF-8"]
    code, data = _pam_origin(server)
    assert all(f["where"] != CLIENT for f in data["findings"][0]["fixes"])
    user_config = "\n".join(client_fix["lines"]) + "\n"
    code, after = _json(server, _client(LANG="C.UTF-8"), user_config)
    assert (code, after["verdict"]) == (1, "1 problem")
    assert after["locale"]["variables"] == {"LANG": "de_DE.UTF-8"}
    assert [f["title"] for f in after["findings"]] == [PAM_TITLE]


# --- doctor --fix -------------------------------------------------------------------

FIX_CASES = {
    # case: (the client's variables, /etc/default/locale, the variable the fix sets)
    "client-sent": (dict(LC_CTYPE="UTF-8"), "", "LC_CTYPE"),
    "pam-origin": (dict(LANG="C.UTF-8"), "LANG=de_DE.UTF-8\n", "LANG"),
}


def _fix_output(lines, dry_run):
    return "\n".join(
        ["before: 1 problem", "", "would change:" if dry_run else "changed:",
         "  /root/.bashrc (at its top), %s /root/%s" % ("backup to" if dry_run else "backup in",
                                                          BACKUP)]
        + ["      " + line for line in lines]
        + ["", "after, in a new session: not checked: " + (
            "--dry-run changes nothing: `utf8env doctor --fix` writes the lines and starts a "
            "new session" if dry_run else
            "a new ssh session starts at the client: `ssh HOST utf8env doctor` there says it"),
           ""])


def _read(path):
    with open(path, "rb") as f:
        return f.read()


@pytest.mark.parametrize("case", sorted(FIX_CASES))
def test_doctor_fix_in_a_session(server, case):
    more, default_locale, name = FIX_CASES[case]
    client = _client(**more)
    server.set_default_locale(default_locale)
    skel = _skel()
    server.put_home_files({".bashrc": skel})
    bashrc = server.home_path(".bashrc")
    code, data = _json(server, client)
    [printed] = [f["lines"] for f in data["findings"][0]["fixes"] if f["where"] == SERVER_BASHRC]
    assert printed == ["export %s=C.UTF-8" % name]

    code, out = _doctor(server, client, ("--fix", "--dry-run", "--no-pythons"))
    assert (code, out) == (3, _fix_output(printed, dry_run=True))
    assert _read(bashrc) == skel.encode()
    assert not os.path.lexists(server.home_path(BACKUP))

    code, out = _doctor(server, client, ("--fix", "--no-pythons"))
    assert (code, out) == (3, _fix_output(printed, dry_run=False))
    assert _read(server.home_path(BACKUP)) == skel.encode()
    assert _read(bashrc) == ("\n".join([MARK] + printed) + "\n" + skel).encode()

    # The next session: ok, the Pythons included (3.6's failures were the locale's).
    after = _ok(server, client, variables={name: "C.UTF-8"}, pythons=True)
    assert all(p["prediction"]["print"] == "ok" for p in after["pythons"] if p["prediction"])
    # And once more: nothing left to write.
    code, out = _doctor(server, client, ("--fix", "--no-pythons"))
    assert (code, out) == (3, "before: ok\n\nchanged:\n  nothing\n\nafter, in a new session: "
                              "not checked: a new ssh session starts at the client: "
                              "`ssh HOST utf8env doctor` there says it\n")
    assert _read(bashrc) == ("\n".join([MARK] + printed) + "\n" + skel).encode()


# --- text output, Python predictions, the fleet recipe ------------------------------

_TEXT = {}


def _text_session(server):
    """doctor --verbose's text in a session whose client sends macOS's LC_CTYPE=UTF-8."""
    if server not in _TEXT:
        _TEXT[server] = _doctor(server, _client(LC_CTYPE="UTF-8"), args=("--verbose",))
    return _TEXT[server]


def test_text_output_in_a_session(server):
    code, text = _text_session(server)
    assert code == 1
    lines = text.splitlines()
    assert re.match(r"\A\d+ problems?\Z", lines[0])
    assert "warning " + TITLES["UTF-8"] in lines
    assert "  variables  LC_CTYPE=UTF-8" in lines
    assert "  LC_CTYPE   C (ANSI_X3.4-1968), from LC_CTYPE" in lines
    start = lines.index("        fix, any one of:")
    assert lines[start:start + 9] == [
        "        fix, any one of:",
        "        1. %s:" % CLIENT,
        "               Host *",
        "                   SetEnv LC_CTYPE=C.UTF-8",
        "        2. %s:" % DEFAULT_LOCALE,
        "               LC_CTYPE=C.UTF-8",
        "        3. %s:" % SERVER_BASHRC,
        "               export LC_CTYPE=C.UTF-8",
        ""]
    # 3.7+ coerce the C locale: under LC_CTYPE=UTF-8 their print("é") works.
    pythons = [l for l in lines if l.startswith("  3.")]
    assert pythons
    assert all(l.endswith('print("\u00e9") ok') for l in pythons if not l.startswith("  3.6 "))


def test_python_36_in_a_session_is_predicted_to_fail(server):
    # 3.6 has no coercion: under LC_CTYPE=UTF-8 its print("é") fails.
    machine.python("3.6")
    lines = _text_session(server)[1].splitlines()
    assert [l.endswith('print("\u00e9") fails') for l in lines if l.startswith("  3.6 ")] == [True]


PRINT = 'print("\\u00e9")'


def test_python_predictions_match_the_pythons_run_in_a_session(server):
    """Each Python doctor predicts, run in a session of the same client: print("é")
    succeeds exactly where doctor says "ok"."""
    client = _client(LC_CTYPE="UTF-8")
    code, data = _json(server, client, pythons=True)
    predicted = {p["path"]: p["prediction"]["print"] for p in data["pythons"]
                 if p["prediction"] is not None}
    assert "fails" in predicted.values() or not machine.has_python("3.6")
    command = "; ".join("%s -c %s >/dev/null 2>&1; echo $?" % (shlex.quote(path),
                                                                shlex.quote(PRINT))
                        for path in sorted(predicted))
    code, out = _ssh(server, command, client)
    seen = dict(zip(sorted(predicted), ["ok" if s == "0" else "fails" for s in out.split()]))
    assert seen == predicted


def test_fleet_recipe_over_ssh(server):
    """The README's fleet recipe: one `doctor --json` per host over ssh, one line each."""
    hosts = [("a", _client(LC_CTYPE="UTF-8")), ("b", _client(LANG="C.UTF-8"))]
    rows = []
    for name, env in hosts:
        code, data = _json(server, env)
        rows.append((name, code, data["verdict"], [f["code"] for f in data["findings"]
                                                    if f["severity"] != "note"]))
    assert rows == [("a", 1, "1 problem", ["locale-missing"]), ("b", 0, "ok", [])]
