"""doctor in the sessions that no start-up file reaches (utf8env/doctor/_sessions.py),
each in a real place of its kind, and every fix it prints there applied exactly as
printed, then a new session of that kind started and the problem seen gone: doctor says
"ok" and `printf 'é' | wc -m` counts 1 character (2 in the C locale: bytes).

  sudo    Debian's stock sudo and /etc/sudoers (env_reset), as root to root: plain,
          -i (a login shell) and -E; the fix's words put in front of the command.
  su      util-linux su with Debian's /etc/pam.d/su (pam_env reading /etc/default/locale)
          in a private mount namespace where a file of the test's folder is bound over
          /etc/default/locale: `su root -c` and `su - root -c`.
  at      Debian's at and atd: the spool folders and /run are tmpfs of a private mount
          namespace, the job submitted with `at now` and run by `atd -s` (the queue once).
  tmux    a tmux server on a socket of the test's folder, started in LANG=C: a new window
          with a command, and an interactive window (bash -i typing the command).
  screen  a screen session under a SCREENDIR of the test's folder, started in LANG=C.
  command `bash -c` in a root without /.dockerenv (test_doctor_places.no_container).

Each session's doctor is this checkout's (own_command), its JSON written to a file of the
test's folder by the session's own shell."""
import json
import os
import shlex
import subprocess
import time

import pytest

from utf8env._own_command import own_command

from support import machine
from test_doctor_places import no_container      # noqa: F401 (a fixture)

PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
SETUP = machine.SETUP


def _snippet(folder, name):
    """The shell words a session runs: doctor's JSON and wc -m's count into `folder`."""
    doctor = " ".join(shlex.quote(w) for w in own_command() + ["doctor", "--json",
                                                               "--no-pythons"])
    out = os.path.join(str(folder), name)
    return ("%s > %s.json 2> %s.err; printf '\\303\\251' | wc -m > %s.wc; echo done > %s.done"
            % (doctor, shlex.quote(out), shlex.quote(out), shlex.quote(out), shlex.quote(out)))


def _read(folder, name, wait=False):
    """(doctor's JSON, wc -m's count) a session wrote; `wait`: until it is there (a
    server's window runs on its own)."""
    done = os.path.join(str(folder), name + ".done")
    for _ in range(600 if wait else 1):
        if os.path.exists(done):
            break
        time.sleep(0.05)
    with open(os.path.join(str(folder), name + ".err"), "rb") as f:
        assert f.read() == b""
    with open(os.path.join(str(folder), name + ".json")) as f:
        data = json.load(f)
    with open(os.path.join(str(folder), name + ".wc")) as f:
        return data, f.read().strip()


def _problem(data, wc, context):
    assert (data["verdict"], wc) == ("1 problem", "2"), data
    assert data["contexts"][0]["name"] == context, data["contexts"]
    [finding] = data["findings"]
    # Never the image's fix for a session (this machine may well have /.dockerenv).
    assert not any("Dockerfile" in f["where"] for f in finding["fixes"]), finding
    return finding


def _ok(data, wc):
    assert (data["verdict"], data["problems"], wc) == ("ok", 0, "1"), data


def _fixes(finding):
    return [(f["option"], f["context"], f["where"], f["lines"]) for f in finding["fixes"]]


# -- sudo ---------------------------------------------------------------------------------

SUDO_WHERE = ("the sudo command line, in front of the command (sudo [-u USER] env "
              "LANG=C.UTF-8 COMMAND): sudo runs it with no shell, and keeps LANG and LC_* of "
              "the user who ran sudo")


@pytest.mark.parametrize("options", [["-u", "root"], ["-i", "-u", "root"], ["-E", "-u", "root"]])
def test_sudo(options, tmp_path):
    machine.root("sudo as root")
    sudo = machine.command("sudo", "sudo", "Debian's sudo")
    env = {"PATH": PATH, "HOME": str(tmp_path), "LANG": "C"}

    def session(name, fix=()):
        subprocess.run([sudo] + options + list(fix) + ["sh", "-c", _snippet(tmp_path, name)],
                       env=env, stdin=subprocess.DEVNULL, check=True, cwd=str(tmp_path))
        return _read(tmp_path, name)
    finding = _problem(*session("before"), context="sudo")
    assert finding["evidence"][0] == ("LANG=C (kept by sudo from the environment of root, who "
                                      "ran it: sudoers' env_reset keeps LANG and LC_*)")
    assert _fixes(finding) == [(1, "sudo", SUDO_WHERE, ["env LANG=C.UTF-8"])]
    _ok(*session("after", shlex.split(finding["fixes"][0]["lines"][0])))


# -- su -----------------------------------------------------------------------------------

SU_FILE = ("as root, the end of /etc/default/locale (/etc/pam.d/su: pam_env gives it to every "
           "su session, over the caller's variables)")
SU_COMMAND = ("the command su runs, in front of it (su USER -c 'env LANG=C.UTF-8 COMMAND'): "
              "su's shell -c reads no start-up file")
_BIND = 'mount --bind "$0" /etc/default/locale && exec "$@"'


def _su_session(tmp_path, locale_file, words, name, env):
    unshare = machine.command("unshare", "util-linux")
    subprocess.run([unshare, "--mount", "--propagation", "private", "sh", "-c", _BIND,
                    str(locale_file), "su"] + words + ["-c", _snippet(tmp_path, name)],
                   env=env, stdin=subprocess.DEVNULL, check=True, cwd=str(tmp_path))
    return _read(tmp_path, name)


@pytest.mark.parametrize("login", [False, True])
def test_su_default_locale(login, tmp_path):
    """/etc/default/locale says LANG=C: every su session gets it, over the caller's
    LANG=C.UTF-8; the line appended there fixes `su root -c` and `su - root -c`."""
    machine.mount_namespace("su with a test's /etc/default/locale")
    if not os.path.exists("/etc/pam.d/su"):
        pytest.skip("no /etc/pam.d/su: apt-get install util-linux (Debian's su)")
    locale_file = tmp_path / "locale"
    locale_file.write_text("LANG=C\n")
    env = {"PATH": PATH, "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    words = (["-"] if login else []) + ["root"]
    finding = _problem(*_su_session(tmp_path, locale_file, words, "before", env), context="su")
    assert finding["evidence"][0] == ("LANG=C (as /etc/default/locale sets it: su's PAM "
                                      "(pam_env) applies that file over the caller's variables)")
    assert _fixes(finding) == [(1, "su", SU_FILE, ["LANG=C.UTF-8"]),
                               (2, "su", SU_COMMAND, ["env LANG=C.UTF-8"])]
    with open(str(locale_file), "a") as f:
        f.write("".join(line + "\n" for line in finding["fixes"][0]["lines"]))
    for other in ([], ["-"]):
        _ok(*_su_session(tmp_path, locale_file, other + ["root"], "after%d" % len(other), env))


def test_su_command_from_the_caller(tmp_path):
    """/etc/default/locale empty, the caller's LANG=C: both fixes, each applied alone."""
    machine.mount_namespace("su with a test's /etc/default/locale")
    locale_file = tmp_path / "locale"
    locale_file.write_text("")
    env = {"PATH": PATH, "HOME": str(tmp_path), "LANG": "C"}
    finding = _problem(*_su_session(tmp_path, locale_file, ["root"], "before", env),
                       context="su")
    assert finding["evidence"][0] == "LANG=C (from the environment of the process that ran su)"
    assert _fixes(finding) == [(1, "su", SU_FILE, ["LANG=C.UTF-8"]),
                               (2, "su", SU_COMMAND, ["env LANG=C.UTF-8"])]
    # 2: the command su runs, the words in front of it.
    unshare = machine.command("unshare", "util-linux")
    subprocess.run([unshare, "--mount", "--propagation", "private", "sh", "-c", _BIND,
                    str(locale_file), "su", "root", "-c",
                    finding["fixes"][1]["lines"][0] + " sh -c " +
                    shlex.quote(_snippet(tmp_path, "command"))],
                   env=env, stdin=subprocess.DEVNULL, check=True, cwd=str(tmp_path))
    _ok(*_read(tmp_path, "command"))
    # 1: the file's line.
    locale_file.write_text(finding["fixes"][0]["lines"][0] + "\n")
    _ok(*_su_session(tmp_path, locale_file, ["root"], "file", env))


# -- at -----------------------------------------------------------------------------------

AT_WHERE = ("the job, above its commands (at(1) gives a job the environment of the shell that "
            "ran `at`; atd runs it with /bin/sh, which reads no start-up file)")
# The spool (daemon:daemon 1770 and its .SEQ, as the package makes them) and /run (atd's
# pid file) private to the namespace: no real job is read or written.
_ATD = """set -e
for d in atjobs atspool; do
  mount -t tmpfs -o mode=1770 tmpfs /var/spool/cron/$d; chown daemon:daemon /var/spool/cron/$d
done
install -o daemon -g daemon -m 600 /dev/null /var/spool/cron/atjobs/.SEQ
mount -t tmpfs tmpfs /run
at now < "$0" 2>/dev/null
exec /usr/sbin/atd -s
"""


def _at_session(tmp_path, job, name, env):
    unshare = machine.command("unshare", "util-linux")
    path = tmp_path / (name + ".job")
    path.write_text(job + "\n")
    subprocess.run([unshare, "--mount", "--propagation", "private", "sh", "-c", _ATD,
                    str(path)], env=env, stdin=subprocess.DEVNULL, check=True,
                   cwd=str(tmp_path))
    return _read(tmp_path, name, wait=True)


def test_at(tmp_path):
    machine.mount_namespace("atd with a private spool")
    machine.command("at", "at", "Debian's at")
    machine.command("atd", "at", "Debian's atd")
    env = {"PATH": PATH, "HOME": str(tmp_path), "LANG": "C", "SHELL": "/bin/sh"}
    finding = _problem(*_at_session(tmp_path, _snippet(tmp_path, "before"), "before", env),
                       context="at")
    assert finding["evidence"][0] == ("LANG=C (kept by at(1) from the environment of the "
                                      "shell that ran `at`)")
    assert _fixes(finding) == [(1, "at", AT_WHERE, ["export LANG=C.UTF-8"])]
    job = "\n".join(finding["fixes"][0]["lines"] + [_snippet(tmp_path, "after")])
    _ok(*_at_session(tmp_path, job, "after", env))


# -- tmux and screen ------------------------------------------------------------------------

TMUX_WHERE = ("the tmux server's global environment, then a new window (tmux new-window, or "
              "its key): every new window gets it, the windows already open keep theirs")
SCREEN_WHERE = ("the screen session's environment, then a new window (screen -X screen, or "
                "its key): every new window gets it, the windows already open keep theirs")


@pytest.mark.parametrize("unset", [False, True])
def test_tmux(unset, tmp_path):
    """The server started in LANG=C (or LC_ALL=C over LANG=C.UTF-8); the clients that open
    windows have a UTF-8 LANG, which a new window does not get."""
    tmux = machine.command("tmux", "tmux", "a tmux server")
    socket = str(tmp_path / "tmux.sock")
    home = tmp_path / "home"
    home.mkdir()
    started = {"PATH": PATH, "HOME": str(home), "SHELL": "/bin/bash", "TERM": "xterm"}
    started.update({"LC_ALL": "C", "LANG": "C.UTF-8"} if unset else {"LANG": "C"})
    client = {"PATH": PATH, "HOME": str(home), "LANG": "C.UTF-8"}
    subprocess.run([tmux, "-S", socket, "new-session", "-d", "-s", "t", "sleep 600"],
                   env=started, check=True, stdin=subprocess.DEVNULL)
    try:
        def window(name):
            subprocess.run([tmux, "-S", socket, "new-window", _snippet(tmp_path, name)],
                           env=client, check=True)
            return _read(tmp_path, name, wait=True)
        finding = _problem(*window("before"), context="tmux")
        variable = "LC_ALL" if unset else "LANG"
        assert finding["evidence"][1 if unset else 0] == (
            "%s=C (from the tmux server's global environment, the one tmux was first started "
            "in: tmux show-environment -g %s)" % (variable, variable))
        head = "tmux -S %s " % shlex.quote(socket)
        lines = [head + "set-environment -gu LC_ALL"] if unset else \
            [head + "set-environment -g LANG C.UTF-8"]
        assert _fixes(finding) == [(1, "tmux", TMUX_WHERE, lines)]
        for line in finding["fixes"][0]["lines"]:
            subprocess.run(shlex.split(line), env=client, check=True)
        _ok(*window("after"))
        # An interactive window: bash -i, the command typed.
        subprocess.run([tmux, "-S", socket, "new-window"], env=client, check=True)
        subprocess.run([tmux, "-S", socket, "send-keys", _snippet(tmp_path, "typed"), "Enter"],
                       env=client, check=True)
        _ok(*_read(tmp_path, "typed", wait=True))
    finally:
        subprocess.run([tmux, "-S", socket, "kill-server"], env=client,
                       stderr=subprocess.DEVNULL)


def test_screen(tmp_path):
    screen = machine.command("screen", "screen", "a screen session")
    screens = tmp_path / "screens"
    screens.mkdir(mode=0o700)
    env = {"PATH": PATH, "HOME": str(tmp_path), "SCREENDIR": str(screens), "LANG": "C"}
    subprocess.run([screen, "-dmS", "u8", "sleep", "600"], env=env, check=True,
                   stdin=subprocess.DEVNULL)
    client = dict(env, LANG="C.UTF-8")
    try:
        for _ in range(600):        # screen -dm returns before its socket is there
            if os.listdir(str(screens)):
                break
            time.sleep(0.05)
        [session] = os.listdir(str(screens))

        def window(name):
            subprocess.run([screen, "-S", "u8", "-X", "screen", "sh", "-c",
                            _snippet(tmp_path, name)], env=client, check=True)
            return _read(tmp_path, name, wait=True)
        finding = _problem(*window("before"), context="screen")
        assert finding["evidence"][0] == ("LANG=C (from the environment the screen session "
                                          "was started in)")
        assert _fixes(finding) == [(1, "screen", SCREEN_WHERE,
                                    ["screen -S %s -X setenv LANG C.UTF-8" % session])]
        for line in finding["fixes"][0]["lines"]:
            subprocess.run(shlex.split(line), env=client, check=True)
        _ok(*window("after"))
    finally:
        subprocess.run([screen, "-S", "u8", "-X", "quit"], env=client)


# -- a command run by sh -c ----------------------------------------------------------------

COMMAND_WHERE = ("the command line, in front of the command (env LANG=C.UTF-8 COMMAND): a "
                 "command run by sh -c, bash -c or nohup reads no start-up file")


def test_bash_c(tmp_path, no_container):
    env = {"PATH": PATH, "HOME": str(tmp_path), "LANG": "C", "SHELL": "/bin/bash"}

    def session(name, line=""):
        command = "sh -c " + shlex.quote(_snippet(tmp_path, name))
        subprocess.run(list(no_container) + ["bash", "-c", (line + " " if line else "") +
                                             command],
                       env=env, stdin=subprocess.DEVNULL, check=True, cwd=str(tmp_path))
        return _read(tmp_path, name)
    data, wc = session("before")
    finding = _problem(data, wc, context="command")
    assert finding["evidence"][0] == ("LANG=C (from the environment of the process that ran "
                                      "this command)")
    assert _fixes(finding) == [(1, "command", COMMAND_WHERE, ["env LANG=C.UTF-8"])]
    _ok(*session("after", finding["fixes"][0]["lines"][0]))
