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
          namespace, the job submitted with `at now`, or `batch`, and run by `atd -s -l
          1000` (the queue once, batch jobs whatever the load).
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
import test_doctor_servers as servers
from support.fixtures import no_container  # noqa: F401 (a fixture)
from support.shell_roots import stock_home

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
@pytest.mark.parametrize("lc_all", [False, True])
def test_sudo(options, lc_all, tmp_path):
    """The caller's LANG=C (or LC_ALL=C over LANG=C.UTF-8), kept by sudo."""
    machine.root("sudo as root")
    sudo = machine.command("sudo", "sudo", "Debian's sudo")
    env = {"PATH": PATH, "HOME": str(tmp_path), "LANG": "C"}
    if lc_all:
        env.update(LANG="C.UTF-8", LC_ALL="C")

    def session(name, fix=()):
        subprocess.run([sudo] + options + list(fix) + ["sh", "-c", _snippet(tmp_path, name)],
                       env=env, stdin=subprocess.DEVNULL, check=True, cwd=str(tmp_path))
        return _read(tmp_path, name)
    finding = _problem(*session("before"), context="sudo")
    variable, line = ("LC_ALL", "env -u LC_ALL") if lc_all else ("LANG", "env LANG=C.UTF-8")
    assert finding["evidence"][1 if lc_all else 0] == (
        "%s=C (kept by sudo from the environment of root, who ran it: sudoers' env_reset "
        "keeps LANG and LC_*)" % variable)
    assert _fixes(finding) == [(1, "sudo", SUDO_WHERE.replace("env LANG=C.UTF-8", line),
                                [line])]
    _ok(*session("after", shlex.split(finding["fixes"][0]["lines"][0])))


# root's HOME a copy of Debian's stock start-up files, private to a mount namespace; the
# interpreters under /root/.pyenv bound back in (as tests/support/crond.py does).
_ROOT_HOME = """set -e
keep=$(mktemp -d); [ -d /root/.pyenv ] && mount --bind /root/.pyenv "$keep"
mount -t tmpfs -o mode=700 tmpfs /root
cp -a "$0"/. /root/
if [ -d "$keep/versions" ]; then mkdir /root/.pyenv; mount --move "$keep" /root/.pyenv; fi
exec "$@"
"""


def test_sudo_login_shell(tmp_path):
    """`sudo -i` with no command: the target's login shell reads its start-up files, and
    the commands are typed into it; the fix is that HOME's ~/.bashrc (Debian's stock
    ~/.profile reads it), written where doctor says."""
    machine.mount_namespace("root's HOME private to a mount namespace")
    sudo = machine.command("sudo", "sudo", "Debian's sudo")
    home = stock_home(tmp_path / "home")
    env = {"PATH": PATH, "HOME": str(tmp_path), "LANG": "C"}

    def session(name):
        subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                        _ROOT_HOME, str(home), sudo, "-i", "-u", "root"], env=env,
                       input=(_snippet(tmp_path, name) + "\n").encode(), check=True,
                       cwd=str(tmp_path))
        return _read(tmp_path, name)
    finding = _problem(*session("before"), context="sudo")
    fix = finding["fixes"][0]
    assert _fixes(finding) == [(1, "sudo", "in the HOME of the user sudo runs the shell as, the "
                                "top of ~/.bashrc (above its \"If not running interactively\" "
                                "line)", ["export LANG=C.UTF-8"])]
    bashrc = home / ".bashrc"
    bashrc.write_text("".join(line + "\n" for line in fix["lines"]) + bashrc.read_text())
    _ok(*session("after"))


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
# pid file) private to the namespace: no real job is read or written. The job is
# submitted with the words $1 (`at now`, or `batch`); atd -s runs the queue once, and
# -l 1000 lets it start a batch job whatever the machine's load (its limit is 1.5).
_ATD = """set -e
for d in atjobs atspool; do
  mount -t tmpfs -o mode=1770 tmpfs /var/spool/cron/$d; chown daemon:daemon /var/spool/cron/$d
done
install -o daemon -g daemon -m 600 /dev/null /var/spool/cron/atjobs/.SEQ
mount -t tmpfs tmpfs /run
$1 < "$0" 2>/dev/null
exec /usr/sbin/atd -s -l 1000
"""


def _at_session(tmp_path, job, name, env, submit):
    unshare = machine.command("unshare", "util-linux")
    path = tmp_path / (name + ".job")
    path.write_text(job + "\n")
    subprocess.run([unshare, "--mount", "--propagation", "private", "sh", "-c", _ATD,
                    str(path), submit], env=env, stdin=subprocess.DEVNULL, check=True,
                   cwd=str(tmp_path))
    return _read(tmp_path, name, wait=True)


@pytest.mark.parametrize("submit", ["at now", "batch"])
def test_at(submit, tmp_path):
    """An at job and a batch job (the same spool and atd, another queue): the same
    finding and fix, each applied to a job of its kind."""
    machine.mount_namespace("atd with a private spool")
    machine.command("at", "at", "Debian's at")
    machine.command("batch", "at", "Debian's batch")
    machine.command("atd", "at", "Debian's atd")
    env = {"PATH": PATH, "HOME": str(tmp_path), "LANG": "C", "SHELL": "/bin/sh"}
    finding = _problem(*_at_session(tmp_path, _snippet(tmp_path, "before"), "before", env,
                                    submit), context="at")
    assert finding["evidence"][0] == ("LANG=C (kept by at(1) from the environment of the "
                                      "shell that ran `at`)")
    assert _fixes(finding) == [(1, "at", AT_WHERE, ["export LANG=C.UTF-8"])]
    job = "\n".join(finding["fixes"][0]["lines"] + [_snippet(tmp_path, "after")])
    _ok(*_at_session(tmp_path, job, "after", env, submit))


def _gone(pid):
    """Waits until the server `pid` (a daemon: not this process's child) has ended."""
    for _ in range(600):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError("process %d still runs" % pid)


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
        server = subprocess.run([tmux, "-S", socket, "display-message", "-p", "#{pid}"],
                                env=client, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        subprocess.run([tmux, "-S", socket, "kill-server"], env=client,
                       stderr=subprocess.DEVNULL)
        if server.stdout.strip().isdigit():
            _gone(int(server.stdout))


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
        names = os.listdir(str(screens))            # PID.NAME (screen(1), -ls)
        subprocess.run([screen, "-S", "u8", "-X", "quit"], env=client)
        for name in names:
            _gone(int(name.partition(".")[0]))


# -- a command run by sh -c ----------------------------------------------------------------

COMMAND_WHERE = ("the command line, in front of the command (env LANG=C.UTF-8 COMMAND): a "
                 "command run by sh -c, bash -c, a shell script or nohup reads no "
                 "start-up file")


@pytest.mark.parametrize("how", ["-c", "script"])
def test_bash_c(how, tmp_path, no_container):
    """`bash -c COMMAND` and `bash SCRIPT`: the fix's words in front of the command."""
    env = {"PATH": PATH, "HOME": str(tmp_path), "LANG": "C", "SHELL": "/bin/bash"}

    def session(name, line=""):
        command = (line + " " if line else "") + "sh -c " + shlex.quote(_snippet(tmp_path, name))
        if how == "script":
            (tmp_path / "job.sh").write_text(command + "\n")
            words = ["bash", str(tmp_path / "job.sh")]
        else:
            words = ["bash", "-c", command]
        subprocess.run(list(no_container) + words, env=env, stdin=subprocess.DEVNULL,
                       check=True, cwd=str(tmp_path))
        return _read(tmp_path, name)
    data, wc = session("before")
    finding = _problem(data, wc, context="command")
    assert finding["evidence"][0] == ("LANG=C (from the environment of the process that ran "
                                      "this command)")
    assert _fixes(finding) == [(1, "command", COMMAND_WHERE, ["env LANG=C.UTF-8"])]
    _ok(*session("after", finding["fixes"][0]["lines"][0]))


# -- nohup ----------------------------------------------------------------------------------

def test_nohup(tmp_path, no_container):
    """A program relaunched under nohup by a program that is no shell (here pytest):
    SIGHUP ignored is the evidence, the command line the fix."""
    env = {"PATH": PATH, "HOME": str(tmp_path), "LANG": "C"}

    def session(words):
        result = subprocess.run(list(no_container) + ["nohup"] + words + own_command() + [
            "doctor", "--json", "--no-pythons"], env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=str(tmp_path))
        return json.loads(result.stdout.decode("utf-8"))
    data = session([])
    assert data["contexts"][0]["name"] == "command" and data["verdict"] == "1 problem", data
    assert data["contexts"][0]["evidence"][0] == "SIGHUP is ignored, as nohup(1) leaves it"
    [finding] = data["findings"]
    assert _fixes(finding) == [(1, "command", COMMAND_WHERE, ["env LANG=C.UTF-8"])]
    data = session(shlex.split(finding["fixes"][0]["lines"][0]))
    assert (data["verdict"], data["problems"]) == ("ok", 0), data


# -- musl -----------------------------------------------------------------------------------

MB_CUR_MAX = r"""#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <langinfo.h>
int main(void) {
    const char *name = setlocale(LC_CTYPE, "");
    printf("%s %d %s\n", name ? name : "(refused)", (int)MB_CUR_MAX, nl_langinfo(CODESET));
    return 0;
}
"""


def test_musl_rules(tmp_path):
    """musl's rules as doctor states them (locale_state.MUSL_DEFAULT, the c-locale
    finding's words under musl), measured with a static musl program: no locale variable
    gives C.UTF-8, only C and POSIX are ASCII, any other name is UTF-8."""
    from utf8env.doctor._locale_state import MUSL_DEFAULT
    musl_gcc = machine.command("musl-gcc", "musl-tools", "a static musl program")
    source = tmp_path / "mb.c"
    source.write_text(MB_CUR_MAX)
    program = str(tmp_path / "mb")
    subprocess.run([musl_gcc, "-static", "-o", program, str(source)], check=True)

    def run(*assignments):
        return subprocess.run(["env", "-i"] + list(assignments) + [program],
                              stdout=subprocess.PIPE, check=True).stdout.decode()
    assert run() == "%s 4 UTF-8\n" % MUSL_DEFAULT
    for name in ("C", "POSIX"):
        assert run("LANG=" + name) == "C 1 ASCII\n"
        assert run("LANG=C.UTF-8", "LC_ALL=" + name) == "C 1 ASCII\n"
    for name in ("de_DE.UTF-8", "xx_YY.UTF-8", "en_US", "de_DE.ISO-8859-1"):
        assert run("LANG=" + name) == "%s 4 UTF-8\n" % name


# -- what is evidence (pure) ----------------------------------------------------------------

def _place(environ, *ancestors, **more):
    from utf8env._engine.policy import LocaleFacts
    from utf8env.doctor._place import Place, Process
    values = dict(files={}, markers=(), proc=True, ttys=(False, False, False),
                  sshd_configs=(), pythons=(),
                  facts=LocaleFacts({"C.UTF-8": "UTF-8", "C.utf8": "UTF-8"},
                                    c_codeset="ANSI_X3.4-1968"))
    values.update(more)
    return Place(environ=environ, ancestors=tuple(
        Process(pid, argv[0].rpartition("/")[2].lstrip("-")[:15], tuple(argv))
        for pid, argv in enumerate(ancestors, 100)), **values)


def _names(place):
    from utf8env.doctor._contexts import detect
    return [c.name for c in detect(place)]


@pytest.mark.fast
def test_sessions_nearest_first():
    # sudo on a /.dockerenv host: sudo's, its fix the command line.
    from utf8env.doctor._diagnose import diagnose
    sudo = _place({"LANG": "C", "SUDO_USER": "u", "SUDO_COMMAND": "/usr/bin/app"},
                  ["sudo", "-u", "app", "/usr/bin/app"], ["-bash"],
                  markers=("/.dockerenv",))
    assert _names(sudo) == ["sudo", "container", "shell"]
    [finding] = diagnose(sudo).findings
    assert finding.evidence[0] == ("LANG=C (kept by sudo from the environment of u, who ran "
                                   "it: sudoers' env_reset keeps LANG and LC_*)")
    assert [(f.context, f.lines) for f in finding.fixes] == [("sudo", ("env LANG=C.UTF-8",))]
    # tmux in an ssh session, sudo in tmux: the nearest first.
    ssh = {"SSH_CONNECTION": "10.0.0.2 5 10.0.0.1 22", "LANG": "C"}
    assert _names(_place(dict(ssh, TMUX="/tmp/tmux-0/default,7,0"), ["bash"],
                         ["tmux: server"])) == ["tmux", "ssh", "shell"]
    assert _names(_place(dict(ssh, TMUX="/t,7,0", SUDO_USER="u"), ["sudo", "x"], ["bash"],
                         ["tmux: server"])) == ["sudo", "tmux", "ssh", "shell"]
    # Variables alone (sudo -E keeps TMUX) come after what an ancestor shows.
    assert _names(_place({"TMUX": "/t,7,0", "SUDO_USER": "u"}, ["sudo", "-E", "x"])) == [
        "sudo", "tmux", "shell"]
    # The places that set the environment themselves come first (cron, a unit).
    assert _names(_place({"SUDO_USER": "u", "INVOCATION_ID": "x"}, ["sudo", "x"])) == [
        "systemd", "sudo", "shell"]


@pytest.mark.fast
@pytest.mark.parametrize("parent, command", [
    (["bash", "-c", "app; true"], True), (["/bin/sh", "-c", "app"], True),
    (["dash", "-e", "-c", "app"], True), (["bash", "-i", "-c", "app"], False),
    (["bash", "-lc", "app"], False), (["-bash", "-c", "app"], False),
    (["zsh", "-c", "app"], False), (["fish", "-c", "app"], False), (["bash"], False),
    (["bash", "script.sh"], True), (["sh", "-e", "/srv/deploy.sh", "-i"], True),
    (["bash", "--rcfile", "r", "-i"], False), (["bash", "-o", "vi"], False),
    (["bash", "-x", "-l", "script.sh"], False), (["bash", "-ic", "app"], False),
    (["bash", "-ec", "app"], True), (["python3", "-c", "x"], False)])
def test_command_evidence(parent, command):
    """`sh -c` reads no start-up file; -i, -l, a login shell's -NAME, zsh (~/.zshenv)
    and fish (config.fish) do read one: not this context."""
    assert ("command" in _names(_place({}, parent))) == command


@pytest.mark.fast
def test_nohup_evidence():
    status = "Name:\tpython3\nSigIgn:\t0000000000001001\n"
    place = _place({}, ["python3", "-m", "pytest"], files={"/proc/self/status": status})
    assert _names(place) == ["command", "shell"]
    # A shell's child under nohup is the shell's (its start-up files are read).
    assert _names(_place({}, ["bash"], files={"/proc/self/status": status})) == ["shell"]
    assert _names(_place({}, ["python3"], files={"/proc/self/status": "SigIgn:\t1000\n"})) == [
        "shell"]


@pytest.mark.fast
def test_su_login_value_not_recognised():
    """`su -` starts from an empty environment: a value that neither /etc/default/locale
    nor a start-up file gives is said not recognised, not blamed on the caller or image."""
    from utf8env.doctor._diagnose import diagnose
    place = _place({"LANG": "C"}, ["su", "-", "u"], markers=("/.dockerenv",),
                   files={"/etc/pam.d/su": "session required pam_env.so readenv=1 "
                                           "envfile=/etc/default/locale\n"})
    [finding] = diagnose(place).findings
    assert finding.evidence[0] == (
        "LANG=C (not recognised: su - does not keep the caller's variables, and neither "
        "/etc/default/locale nor a start-up file doctor reads sets this value)")
    # No -c: only the file's line reaches every su session.
    assert [(f.option, f.lines) for f in finding.fixes] == [(1, ("LANG=C.UTF-8",))]


@pytest.mark.fast
def test_musl_wording():
    """With musl named, no locale variable is no problem (C.UTF-8); LANG=C is, said with
    musl's rule."""
    from utf8env.doctor._diagnose import diagnose
    musl = ("musl", "the dynamic loader /lib/ld-musl-x86_64.so.1")
    assert diagnose(_place({}, ["python3"], libc=musl)).findings == ()
    assert diagnose(_place({}, ["python3"], libc=("glibc", "x"))).findings[0].code == "c-locale"
    [finding] = diagnose(_place({"LANG": "C"}, ["python3"], libc=musl)).findings
    assert finding.title == ("LC_CTYPE is the C locale (LANG=C): ASCII for every program but "
                             "Python 3.7+, which coerces it (musl: only C and POSIX are ASCII)")
    assert finding.evidence[1] == (
        "the C library is musl (the dynamic loader /lib/ld-musl-x86_64.so.1): C and POSIX are "
        "its only ASCII locales; with no locale variable, or any other name, a program gets "
        "UTF-8 (C.UTF-8)")


@pytest.mark.fast
def test_libc_from_loaders(tmp_path):
    from utf8env.doctor._place import Reader, libc
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "ld-musl-x86_64.so.1").write_bytes(b"")
    assert libc(Reader(str(tmp_path)), own=False) == (
        "musl", "the dynamic loader /lib/ld-musl-x86_64.so.1")
    (tmp_path / "lib64").mkdir()
    (tmp_path / "lib64" / "ld-linux-x86-64.so.2").write_bytes(b"")     # Debian + musl-tools
    assert libc(Reader(str(tmp_path)), own=False) == (
        "glibc", "the dynamic loader /lib64/ld-linux-x86-64.so.2")
    assert libc(Reader(str(tmp_path / "none")), own=False) is None


# -- Apache's envvars -----------------------------------------------------------------------

ENVVARS = "/etc/apache2/envvars"
WSGI_APP = r'''import json, os, subprocess
DOCTOR = %s
def application(environ, start_response):
    doctor = subprocess.run(DOCTOR, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wc = subprocess.run("printf '\\303\\251' | wc -m", shell=True, stdout=subprocess.PIPE)
    body = json.dumps({"doctor": doctor.stdout.decode("utf-8", "replace"),
                       "stderr": doctor.stderr.decode("utf-8", "replace"),
                       "wc": wc.stdout.decode("ascii").strip()})
    start_response("200 OK", [("Content-Type", "application/json")])
    return [body.encode("ascii")]
'''
HTTPD_CONF = """PidFile {folder}/httpd.pid
ErrorLog {folder}/error.log
Listen 127.0.0.1:{port}
ServerName localhost
LoadModule mpm_prefork_module /usr/lib/apache2/modules/mod_mpm_prefork.so
LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so
LoadModule wsgi_module {mod_wsgi}
User daemon
Group daemon
WSGIScriptAlias / {folder}/app.py
<Directory {folder}>
Require all granted
</Directory>
"""


def _apache_answer(apache2ctl, conf, confdir, port, log):
    """The app's answer from Apache started as Debian starts it (apache2ctl, which reads
    $APACHE_CONFDIR/envvars), then Apache stopped (its whole process group)."""
    import signal
    import urllib.request
    with open(log, "ab") as out:
        server = subprocess.Popen([apache2ctl, "-f", conf, "-DFOREGROUND"],
                                  env={"PATH": PATH, "APACHE_CONFDIR": confdir}, stdout=out,
                                  stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                  start_new_session=True)
    try:
        for _ in range(600):
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/" % port, timeout=20) as r:
                    return json.loads(r.read().decode("ascii"))
            except OSError:
                assert server.poll() is None, open(log, "rb").read()[-3000:]
                time.sleep(0.05)
        raise AssertionError("no answer from Apache: %s" % open(log, "rb").read()[-3000:])
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
        for _ in range(600):        # Apache's children end after their parent
            try:
                os.killpg(server.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)


def test_apache_envvars():
    """mod_wsgi's app under Apache started by apache2ctl with Debian's own envvars (a copy,
    byte for byte, in a private APACHE_CONFDIR): LANG=C is that file's `export LANG=C`,
    named as such (not the image's, on a /.dockerenv host); its line replaced by the
    printed one, the app's programs get UTF-8."""
    machine.root("Apache on a loopback port")
    apache2ctl = machine.command("apache2ctl", "apache2", "Apache's apache2ctl")
    if not os.path.exists(ENVVARS) or not os.path.exists(servers.MOD_WSGI):
        pytest.skip("no %s or mod_wsgi: apt-get install apache2 libapache2-mod-wsgi-py3 (%s "
                    "does)" % (ENVVARS, SETUP))
    with open(ENVVARS) as f:
        stock = f.read()
    folder = servers._folder()
    try:
        doctor = own_command("/usr/bin/python3")[:-1] + [
            servers._readable_copy(folder), "doctor", "--json", "--no-pythons"]
        confdir = os.path.join(folder, "conf")
        os.mkdir(confdir)
        os.chmod(confdir, 0o755)
        servers._write(os.path.join(confdir, "envvars"), stock)
        servers._write(os.path.join(folder, "app.py"), WSGI_APP % json.dumps(doctor))
        port = servers._free_port()
        conf = os.path.join(folder, "httpd.conf")
        servers._write(conf, HTTPD_CONF.format(folder=folder, port=port,
                                               mod_wsgi=servers.MOD_WSGI))
        log = os.path.join(folder, "apache.log")
        answer = _apache_answer(apache2ctl, conf, confdir, port, log)
        data = json.loads(answer["doctor"])
        assert answer["wc"] == "2" and data["contexts"][0]["name"] == "server", answer
        [number] = [n for n, line in enumerate(stock.splitlines(), 1)
                    if line.strip() == "export LANG=C"]
        path = os.path.join(confdir, "envvars")
        finding = [f for f in data["findings"] if f["code"] == "c-locale"][0]
        assert finding["evidence"][0] == (
            "LANG=C (set by %s line %d, `export LANG=C`: apache2ctl, and Debian's "
            "apache2.service through it, reads that file before it starts Apache)"
            % (path, number))
        fix = finding["fixes"][0]
        assert (fix["option"], fix["context"], fix["where"], fix["lines"]) == (
            1, "server", "as root, %s line %d: `export LANG=C` replaced by this line (then "
            "apache2ctl restart)" % (path, number), ["export LANG=C.UTF-8"])
        lines = stock.splitlines(True)
        lines[number - 1] = fix["lines"][0] + "\n"
        servers._write(path, "".join(lines))
        answer = _apache_answer(apache2ctl, conf, confdir, port, log)
        data = json.loads(answer["doctor"])
        assert (answer["wc"], data["verdict"]) == ("1", "ok"), answer
    finally:
        import shutil
        shutil.rmtree(folder, ignore_errors=True)
