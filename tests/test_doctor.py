"""`utf8env doctor` in real contexts: a cron job's environment, LC_ALL=C over a good LANG,
a systemd service's, a container marker in a private mount namespace, CI, the five real
locale worlds (with every Python's prediction checked against its live configuration),
glibc's name spellings checked by experiment, here-vs-there snapshots, hostile input,
and the JSON keys, exactly. The real sshd is tests/test_doctor_ssh.py."""
import json
import re
import os
import shutil
import subprocess
import sys

import pytest

from utf8env import _locales as locales
from utf8env import _probe as probe
from utf8env.doctor import _diagnose as doctor_diagnose, _place as doctor_place
from utf8env import _discovery as discovery
from utf8env import _worlds as worlds
from utf8env._own_command import own_command

from support import groundtruth, machine

DOCKER = os.path.exists("/.dockerenv")
PYENV_ROOT = discovery.pyenv_root()


def doctor(*args, env, python=None, wrap=(), command=None):
    """`command`: how utf8env is started (own_command(python) when None)."""
    result = subprocess.run(list(wrap) + (command or own_command(python)) + ["doctor"] + list(args),
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL)
    return result.returncode, result.stdout, result.stderr


def cron_env(**more):
    """What cron(8) gives a job (crontab(5)): SHELL, PATH, HOME, LOGNAME; no TERM."""
    env = {"SHELL": "/bin/sh", "PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"],
           "LOGNAME": "root"}
    env.update(more)
    return env


def _container_line():
    return ["  container  Docker container: /.dockerenv exists"] if DOCKER else []


# -- the command line ----------------------------------------------------------------------

def test_help_lists_every_option():
    code, out, err = doctor("--help", env=cron_env())
    assert (code, err) == (0, b"")
    assert out.decode() == """\
usage: utf8env doctor [--verbose] [--fix [--dry-run]] [--json] [--save FILE]
    [--compare FILE] [--no-pythons]

Say what breaks text in the place this runs in (an ssh session, cron, a
service, a container, CI) and the exact line to change there.

options:
  --verbose, -v   every finding with its evidence and every fix, then the
                  place, its locale and its pythons (default: each problem and
                  its first fix)
  --fix           apply the fixes that are the user's own (a shell start-up
                  file, the crontab; a backup of each), then start new sessions
                  of this kind and say what they said (or what could not be
                  checked)
  --dry-run       with --fix: say what it would write, and write nothing
  --json          one JSON object ("schema": 1; keys in docs/json.md)
  --save FILE     also write this place's snapshot (the JSON object) to FILE
  --compare FILE  say what differs between the snapshot FILE and this place,
                  and which difference explains a failure
  --no-pythons    do not look for interpreters (the locale and the context
                  only)
  -h, --help      show this help and exit
"""


def test_bad_input_gets_one_line_and_status_2(tmp_path):
    not_json = tmp_path / "not.json"
    not_json.write_bytes(b"\xff{")
    other = tmp_path / "other.json"
    other.write_text('{"schema": 1, "python": "3.11"}')
    cases = [
        (["--frobnicate"], "utf8env: error: unrecognized arguments: --frobnicate\n"),
        (["--save"], "utf8env: error: argument --save: expected one argument\n"),
        (["--json=yes"], "utf8env: error: argument --json: ignored explicit argument 'yes'\n"),
        (["somewhere"], "utf8env: error: doctor takes no operands (got 'somewhere'): it diagnoses "
                        "the place it runs in; usage: utf8env doctor [--verbose] [--fix "
                        "[--dry-run]] [--json] [--save FILE] [--compare FILE] [--no-pythons]\n"),
        (["--dry-run"], "utf8env: error: --dry-run goes with --fix (doctor --fix --dry-run: "
                        "what --fix would write, written nowhere)\n"),
        (["--compare", str(tmp_path / "missing.json")],
         "utf8env: error: --compare %s: cannot read it (No such file or directory)\n"
         % (tmp_path / "missing.json")),
        (["--compare", str(not_json)],
         "utf8env: error: --compare %s: not a utf8env doctor snapshot (expected the JSON object "
         "`utf8env doctor --save FILE` writes, \"schema\": 1)\n" % not_json),
        (["--compare", str(other)],
         "utf8env: error: --compare %s: not a utf8env doctor snapshot (expected the JSON object "
         "`utf8env doctor --save FILE` writes, \"schema\": 1)\n" % other),
        (["--no-pythons", "--save", str(tmp_path / "no-such-dir" / "s.json")],
         "utf8env: error: --save %s: cannot write it (No such file or directory)\n"
         % (tmp_path / "no-such-dir" / "s.json")),
    ]
    for args, message in cases:
        code, out, err = doctor(*args, env=cron_env())
        assert (code, out, err.decode()) == (2, b"", message), args


# -- contexts ------------------------------------------------------------------------------

def test_cron_environment_and_its_fix():
    code, out, err = doctor("--no-pythons", "--verbose", env=cron_env())
    assert (code, err) == (1, b"")
    assert out.decode().splitlines() == [
        "1 problem",
        "",
        "warning LC_CTYPE is the C locale (no locale variable is set (LC_ALL, LC_CTYPE, LANG)): "
        "ASCII for every program but Python 3.7+, which coerces it",
        "        - no locale variable is set (LC_ALL, LC_CTYPE, LANG)",
        "        - cron(8) gives a job only SHELL, PATH, HOME and LOGNAME (and, on Debian, what "
        "pam_env reads from /etc/environment and /etc/default/locale)",
        "        fix: the crontab (crontab -e), above the job's line:",
        "            LANG=C.UTF-8",
        "",
        "where:",
        "  cron       cron-like environment (no cron process seen): the environment cron(8) "
        "gives a job: PATH=/usr/bin:/bin, SHELL=/bin/sh, LOGNAME, HOME, no TERM, nothing else",
    ] + _container_line() + [
        "  shell      not a terminal: terminal: none of stdin, stdout, stderr; TERM unset",
        "",
        "locale:",
        "  variables  no locale variable set",
        "  LC_CTYPE   C (ANSI_X3.4-1968)",
        "  UTF-8      C.UTF-8",
        "",
        "pythons:",
        "  none found",
    ]
    # The fix, applied (the crontab's line), makes the finding go away.
    code, out, err = doctor("--no-pythons", env=cron_env(LANG="C.UTF-8"))
    assert (code, err, out.decode().splitlines()[0]) == (0, b"", "ok")


def test_a_real_cron_parent_is_named(tmp_path):
    # The process tree of a cron job: a parent named CRON (Debian's cron renames the copy
    # that runs a job, cron(8)), the job's /bin/sh, then the command.
    cron = tmp_path / "CRON"
    os.symlink("/bin/sh", str(cron))
    command = " ".join("'%s'" % a for a in own_command() + ["doctor", "--json", "--no-pythons"])
    result = subprocess.run([str(cron), "-c", command + "; true"], env=cron_env(),
                            stdout=subprocess.PIPE)
    data = json.loads(result.stdout)
    [context] = [c for c in data["contexts"] if c["name"] == "cron"]
    assert context["summary"] == "cron job"
    assert context["evidence"][0].endswith("(CRON) is an ancestor")


def test_lc_all_c_over_a_good_lang():
    code, out, err = doctor("--json", "--no-pythons", env=cron_env(LC_ALL="C", LANG="C.UTF-8", TERM="xterm"))
    data = json.loads(out)
    assert (code, err) == (1, b"")
    [finding] = data["findings"]
    assert finding["code"] == "lc-all-overrides"
    assert finding["title"] == "LC_ALL=C overrides LANG=C.UTF-8: every program gets the C locale (ASCII)"
    primary = "container" if DOCKER else "shell"
    assert finding["fixes"] == [{
        "option": 1, "where": "the Dockerfile (or docker run -e NAME=VALUE)",
        "context": "container", "lines": ["ENV LC_ALL="]} if DOCKER else {
        "option": 1, "where": "~/.profile (login shells)", "context": "shell",
        "lines": ["unset LC_ALL"]}]
    assert data["locale"]["decided_by"] == "LC_ALL" and data["locale"]["lc_ctype"] == "C"
    assert primary in [c["name"] for c in data["contexts"]]


def test_control_characters_from_the_environment_never_reach_the_terminal():
    # LC_TIME=$'\e]0;title\a' would set the terminal's title: shown as \xNN instead, in
    # every line that shows it; the JSON keeps the value itself.
    env = cron_env(LANG="C.UTF-8", LC_TIME="\x1b]0;title\x07\x9b")
    code, out, err = doctor("--no-pythons", env=env)
    assert (code, err) == (1, b"")
    lines = out.decode("utf-8").splitlines()
    assert not [line for line in lines if any(ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 for c in line)]
    assert lines[2] == ("warning LC_TIME=\\x1b]0;title\\x07\\x9b names a locale this system does "
                        "not have: LC_TIME stays C")
    code, out, err = doctor("--json", "--no-pythons", env=env)
    assert json.loads(out)["locale"]["variables"]["LC_TIME"] == "\x1b]0;title\x07\x9b"


def test_systemd_service_environment():
    env = cron_env(INVOCATION_ID="0123456789abcdef0123456789abcdef", JOURNAL_STREAM="8:12345")
    code, out, _ = doctor("--json", "--no-pythons", env=env)
    data = json.loads(out)
    assert data["contexts"][0] == {
        "name": "systemd", "summary": "systemd service",
        "evidence": ["INVOCATION_ID=0123456789abcdef0123456789abcdef", "JOURNAL_STREAM=8:12345"]}
    assert [f["fixes"] for f in data["findings"]] == [[{
        "option": 1,
        "where": "a drop-in: systemctl edit UNIT.service (then systemctl restart UNIT.service)",
        "context": "systemd", "lines": ["[Service]", "Environment=LANG=C.UTF-8"]}]]


def test_systemd_unit_and_locale_files_from_a_root(tmp_path):
    (tmp_path / "etc" / "default").mkdir(parents=True)
    (tmp_path / "etc" / "default" / "locale").write_text('LANG="en_US.UTF-8"\n')
    (tmp_path / "proc" / "self").mkdir(parents=True)
    (tmp_path / "proc" / "self" / "cgroup").write_text("0::/system.slice/web.service\n")
    (tmp_path / "proc" / "self" / "stat").write_text("1 (python3) R 0\n")
    env = {"INVOCATION_ID": "ab" * 16, "PATH": "/usr/bin:/bin"}
    found = doctor_place.gather(env, root=str(tmp_path), pythons=False)
    diagnosis = doctor_diagnose.diagnose(found)
    context = diagnosis.contexts[0]
    assert (context.name, context.summary, context.evidence) == (
        "systemd", "systemd service web.service",
        ("INVOCATION_ID=" + "ab" * 16, "/proc/self/cgroup: /system.slice/web.service"))
    [finding] = diagnosis.findings
    assert "/etc/default/locale sets LANG=en_US.UTF-8, which this service's environment does " \
           "not have: systemd passes on the locale it read when it started (systemd.exec(5), " \
           "$LANG), and the unit's Environment= overrides it" in finding.evidence
    assert [(f.where, f.lines) for f in finding.fixes] == [
        ("a drop-in: systemctl edit web.service (then systemctl restart web.service)",
         ("[Service]", "Environment=LANG=C.UTF-8"))]


def test_container_marker_in_a_private_mount_namespace():
    machine.mount_namespace("a private /run (unshare --mount)")
    wrap = ["unshare", "--mount", "sh", "-c", 'mount --make-rprivate / && mount -t tmpfs none /run '
            '&& : > /run/.containerenv && exec "$@"', "sh"]
    code, out, _ = doctor("--json", "--no-pythons", env=cron_env(LANG="C.UTF-8"), wrap=wrap)
    data = json.loads(out)
    [context] = [c for c in data["contexts"] if c["name"] == "container"]
    assert context["summary"] == "Podman container"
    assert context["evidence"] == (["/.dockerenv exists"] if DOCKER else []) + ["/run/.containerenv exists"]
    # Outside the namespace, the marker is not there.
    code, out, _ = doctor("--json", "--no-pythons", env=cron_env(LANG="C.UTF-8"))
    assert "/run/.containerenv exists" not in out.decode()


def test_ci_environment_gets_a_workflow_fix():
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"], "CI": "true", "GITHUB_ACTIONS": "true"}
    code, out, _ = doctor("--json", "--no-pythons", env=env)
    data = json.loads(out)
    assert data["contexts"][0] == {"name": "ci", "summary": "GitHub Actions",
                                   "evidence": ["GITHUB_ACTIONS=true"]}
    assert data["findings"][0]["fixes"] == [{
        "option": 1, "where": "the workflow's (or the job's) env mapping, GitHub Actions", "context": "ci",
        "lines": ["env:", '  LANG: "C.UTF-8"']}]
    # The printed line ends with one colon, the one the fix line adds (issue 30: "env::").
    code, out, _ = doctor("--no-pythons", env=env)
    assert """
        fix: the workflow's (or the job's) env mapping, GitHub Actions:
            env:
              LANG: "C.UTF-8"
""" in out.decode()


# -- glibc's spellings, by experiment --------------------------------------------------------

@pytest.fixture(scope="module")
def locpath(tmp_path_factory):
    machine.command("localedef", "locales")
    folder = tmp_path_factory.mktemp("locpath")
    subprocess.run(["localedef", "-c", "-i", "en_US", "-f", "UTF-8", str(folder / "en_US.utf8")],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert (folder / "en_US.utf8" / "LC_CTYPE").is_file()
    return str(folder)


def test_glibc_spellings_as_the_comments_say(locpath):
    names = ["en_US.UTF-8", "en_US.utf-8", "en_US.UTF8", "en_US.utf8", "en_US.UTF-8@euro",
             "en_us.UTF-8", "EN_US.UTF-8", "en_US", "en_US.Utf_8", "UTF-8", "C.UTF-8", "C.utf-8",
             "C.UTF8", "C.utf8", "c.utf8"]
    facts = locales.facts({"LOCPATH": locpath}, names)
    assert sorted(facts.codesets) == sorted(["en_US.UTF-8", "en_US.utf-8", "en_US.UTF8", "en_US.utf8",
                                             "en_US.UTF-8@euro", "C.UTF-8", "C.utf-8", "C.UTF8", "C.utf8"])
    assert set(facts.codesets.values()) == {"UTF-8"}


def test_a_misspelled_locale_names_the_spelling_that_exists(locpath):
    env = cron_env(LOCPATH=locpath, LANG="en_us.UTF-8")
    code, out, _ = doctor("--json", "--no-pythons", env=env)
    [finding] = json.loads(out)["findings"]
    assert finding["title"] == (
        "LANG=en_us.UTF-8 is not a locale here, but en_US.UTF-8 is (glibc compares the language "
        "and territory case-sensitively, the codeset without case or '-'): LC_CTYPE falls back "
        "to C (ASCII)")
    assert finding["fixes"][0]["lines"] == ["LANG=en_US.UTF-8"]
    for spelling in ("en_US.utf-8", "en_US.UTF8", "en_US.utf8"):
        code, out, _ = doctor("--json", "--no-pythons", env=cron_env(LOCPATH=locpath, LANG=spelling))
        data = json.loads(out)
        assert (code, data["findings"], data["locale"]["lc_ctype"]) == (0, [], spelling)


def test_a_missing_utf8_locale_while_c_utf8_exists():
    code, out, _ = doctor("--json", "--no-pythons", env=cron_env(LANG="de_DE.UTF-8"))
    [finding] = json.loads(out)["findings"]
    assert finding["title"] == ("LANG=de_DE.UTF-8 names a locale this system does not have "
                                "(C.UTF-8 is installed): LC_CTYPE falls back to C (ASCII)")
    assert finding["fixes"] == [
        {"option": 1, "where": "the crontab (crontab -e), above the job's line",
         "context": "cron", "lines": ["LANG=C.UTF-8"]},
        {"option": 2, "where": "as root, install de_DE.UTF-8 on this system (debian)",
         "context": "install",
         "lines": ["apt-get update", "apt-get install -y locales",
                   "sed -i 's/^# *de_DE\\.UTF-8 UTF-8$/de_DE.UTF-8 UTF-8/' /etc/locale.gen",
                   "locale-gen"]}]


def test_the_install_fix_makes_the_locale_exist(locpath, tmp_path):
    """The install fix's line for /etc/locale.gen names what localedef builds: the name
    doctor complained about is then accepted (LOCPATH stands in for /usr/lib/locale)."""
    from utf8env.doctor import _fixes as fixes
    line = fixes.locale_gen_line("de_DE.UTF-8")
    name, charmap = line.split()
    assert line == "de_DE.UTF-8 UTF-8"
    subprocess.run(["localedef", "-c", "-i", name.partition(".")[0], "-f", charmap,
                    str(tmp_path / "de_DE.utf8")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    code, out, _ = doctor("--json", "--no-pythons",
                          env=cron_env(LOCPATH=str(tmp_path), LANG="de_DE.UTF-8"))
    assert (code, json.loads(out)["findings"]) == (0, [])


# -- here against there --------------------------------------------------------------------

def test_save_and_compare_a_shell_and_a_cron_job(tmp_path):
    snapshot = tmp_path / "shell.json"
    shell = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": os.environ["HOME"], "SHELL": "/bin/bash",
             "TERM": "xterm-256color", "LANG": "C.UTF-8", "LOGNAME": "root"}
    code, out, err = doctor("--save", str(snapshot), env=shell)
    assert (code, err) == (0, b"")
    saved = json.loads(snapshot.read_text())
    assert saved["schema"] == 1 and saved["verdict"] == "ok" and saved["environ"]["LANG"] == "C.UTF-8"
    code, out, err = doctor("--compare", str(snapshot), env=cron_env())
    assert (code, err) == (1, b"")
    text = out.decode()
    tail = text[text.index("\ncompared with"):]
    assert tail == """
compared with %s (there) and this place (here):
  LANG                   there: C.UTF-8
                         here:  (unset)
  PATH                   there: /usr/local/bin:/usr/bin:/bin
                         here:  /usr/bin:/bin
  SHELL                  there: /bin/bash
                         here:  /bin/sh
  TERM                   there: xterm-256color
                         here:  (unset)
  contexts               there: %s
                         here:  %s
  locale set (LC_CTYPE)  there: C.UTF-8
                         here:  C
  its codeset            there: UTF-8
                         here:  ANSI_X3.4-1968
  verdict                there: ok
                         here:  1 problem
  problems               there: 0
                         here:  1
explains: LANG (there C.UTF-8, here (unset)): with the value it has there, this place has 0 problems instead of 1
""" % (snapshot, "container, shell" if DOCKER else "shell",
       "cron, container, shell" if DOCKER else "cron, shell")
    code, out, _ = doctor("--json", "--compare", str(snapshot), env=cron_env())
    compared = json.loads(out)["compare"]
    assert set(compared) == {"file", "differences", "explains"}
    assert compared["explains"] == [{"what": "LANG", "there": "C.UTF-8", "here": None,
                                     "problems_here": 1, "problems_with_it": 0}]


def test_compare_with_a_snapshot_holding_lone_surrogates(tmp_path):
    # A snapshot edited by hand may hold any JSON string, "\ud800" too, which no bytes
    # decode to: shown in Python's escapes, beside the \xNN of an undecodable byte.
    snapshot = tmp_path / "edited.json"
    shell = {"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"], "SHELL": "/bin/sh",
             "LANG": "C.UTF-8", "TERM": "dumb"}
    assert doctor("--save", str(snapshot), env=shell)[0] == 0
    saved = json.loads(snapshot.read_text())
    saved["environ"]["TERM"] = "x\ud800y"
    saved["environ"]["LANG"] = "C.UTF-8\udcff"
    snapshot.write_text(json.dumps(saved))
    code, out, err = doctor("--compare", str(snapshot), env=shell)
    assert (code, err) == (0, b"")
    text = out.decode()
    assert text[text.index("\ncompared with"):] == (
        "\ncompared with %s (there) and this place (here):\n"
        "  LANG  there: C.UTF-8\\xff\n"
        "        here:  C.UTF-8\n"
        "  TERM  there: x\\ud800y\n"
        "        here:  dumb\n"
        "explains: nothing: there is no problem here\n" % snapshot)


@pytest.mark.fast
def test_compare_takes_spellings_of_one_codec_for_the_same():
    # 3.10 predicts "UTF-8" where 3.11 says "utf-8": no difference between two places.
    from utf8env.doctor import _snapshot as snapshot
    assert {snapshot._short({"encoding": name, "errors": "strict"})
            for name in ("UTF-8", "utf-8", "utf8", "U8")} == {"utf-8/strict"}
    assert snapshot._short({"encoding": "ANSI_X3.4-1968", "errors": "strict"}) == "ascii/strict"


# -- hostile input -------------------------------------------------------------------------

def _hostile(env, wrap=(), python=None, command=None):
    for args in (("--json",), ()):
        argv = list(wrap) + (command or own_command(python)) + ["doctor"] + list(args)
        result = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert result.returncode in (0, 1) and result.stderr == b"", result.stderr[-2000:]
        if args:
            data = json.loads(result.stdout)
            assert data["schema"] == 1
        else:
            assert result.stdout.splitlines()[0] in (b"ok",) or result.stdout.split(b"\n")[0].endswith(
                (b"problem", b"problems"))
    return result


def test_undecodable_bytes_in_variables():
    env = {b"PATH": b"/usr/bin:/bin", b"HOME": os.fsencode(os.environ["HOME"]),
           b"LANG": b"en_US.\xff", b"LC_\xfe": b"x", b"PYTHONIOENCODING": b"\xff",
           b"SSH_CONNECTION": b"\xff 1 \xfe 22", b"\xff": b"\xfe"}
    result = subprocess.run(own_command() + ["doctor", "--json"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (result.returncode, result.stderr) == (1, b"")
    data = json.loads(result.stdout)
    assert data["environ"]["LANG"] == "en_US.\udcff"
    assert [m["value"] for m in data["locale"]["missing"] if m["variable"] == "LANG"] == ["en_US.\udcff"]
    text = subprocess.run(own_command() + ["doctor"], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    assert text.stderr == b"" and b"LANG=en_US.\\xff names a locale" in text.stdout


def test_a_hundred_thousand_variables():
    env = cron_env(LANG="C.UTF-8")
    env.update(("V%05d" % i, "") for i in range(100000))     # 800 kB: under ARG_MAX
    _hostile(env)


def _world_readable(folder):
    """Every file under `folder` readable by all, every folder searchable (a clone made
    under umask 077 has neither): chmod -R a+rX."""
    for top, dirs, files in os.walk(folder):
        os.chmod(top, 0o755)
        for name in files:
            path = os.path.join(top, name)
            mode = os.stat(path).st_mode & 0o777
            os.chmod(path, mode | 0o444 | (0o111 if mode & 0o100 else 0))


def test_unreadable_etc_files_and_no_proc(tmp_path):
    """As nobody (root reads any file), in a mount namespace where /proc is an empty tmpfs,
    /etc/default/locale and sshd_config are root's alone and /etc/os-release is a FIFO.
    nobody runs a copy of the package, and has its HOME, in a folder bound over /mnt: the
    checkout's folder and pytest's tmp_path may sit under folders private to root."""
    machine.mount_namespace("binding over /etc and /proc (unshare --mount)")
    machine.become_nobody("running doctor as nobody")
    if not os.access("/usr/bin/python3", os.X_OK) or not os.path.isdir("/mnt"):
        pytest.skip("no /usr/bin/python3 for the unprivileged run, or no /mnt to bind over")
    secret = tmp_path / "secret"
    secret.write_text("LANG=C.UTF-8\n")
    os.chmod(str(secret), 0o600)
    fifo = tmp_path / "fifo"
    os.mkfifo(str(fifo))
    shared = tmp_path / "shared"
    shutil.copytree(os.path.dirname(locales.__file__), str(shared / "utf8env"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    (shared / "home").mkdir()
    _world_readable(str(shared))
    os.chmod(str(shared / "home"), 0o777)
    script = ('mount --make-rprivate / && mount --bind "$1" /etc/default/locale && '
              'mount --bind "$1" /etc/ssh/sshd_config && mount --bind "$2" /etc/os-release && '
              'mount --bind "$3" /mnt && mount -t tmpfs none /proc && shift 3 && '
              'cd /mnt && exec setpriv --reuid=65534 --regid=65534 --clear-groups "$@"')
    wrap = ["unshare", "--mount", "sh", "-c", script, "sh", str(secret), str(fifo), str(shared)]
    command = own_command("/usr/bin/python3")[:-1] + ["/mnt"]
    env = cron_env(HOME="/mnt/home", SSH_CONNECTION="10.0.0.1 5 10.0.0.2 22", LANG="de_DE.UTF-8")
    _hostile(env, wrap=wrap, command=command)
    code, out, err = doctor("--json", env=env, wrap=wrap, command=command)
    data = json.loads(out)
    [finding] = [f for f in data["findings"] if f["code"] == "locale-missing"]
    # No sshd_config to read: the origin is said to be likely, not confirmed.
    assert ("LANG=de_DE.UTF-8 (most likely sent by the ssh client: Debian's and macOS's ssh_config "
            "have SendEnv LANG LC_*; the server's sshd_config could not be read to confirm)"
            in finding["evidence"])
    # No /proc: the environment is os.environ, which this 3.11 has coerced (PEP 538).
    [note] = [f for f in data["findings"] if f["code"] == "no-proc"]
    assert note["evidence"] == ["LC_CTYPE=C.UTF-8 may be this Python's own locale coercion "
                                "(PEP 538); the value it replaced cannot be known"]
    assert data["distribution"] is None and data["contexts"][0]["name"] == "ssh"
    # A HOME that is not nobody's (root's, open to all) gets no cache of nobody's.
    assert os.listdir(str(shared / "home")) == []


# -- JSON keys -----------------------------------------------------------------------------

def test_json_keys_exactly():
    env = cron_env(LC_CTYPE="UTF-8", PYENV_ROOT=PYENV_ROOT)
    code, out, _ = doctor("--json", env=env)
    data = json.loads(out)
    assert set(data) == {"schema", "verdict", "problems", "findings", "contexts", "locale",
                         "pythons", "tools", "distribution", "environ"}
    assert set(data["locale"]) == {"variables", "decided_by", "lc_ctype", "codeset", "missing",
                                   "utf8_locale", "available"}
    assert set(data["locale"]["missing"][0]) == {"variable", "value", "spellings", "utf8_variants"}
    for finding in data["findings"]:
        assert set(finding) == {"code", "severity", "title", "evidence", "shared", "fixes"}
        for fix in finding["fixes"]:
            assert set(fix) == {"option", "where", "context", "lines"}
    for context in data["contexts"]:
        assert set(context) == {"name", "summary", "evidence"}
    # perl's and bash's warnings, then the programs' start-up checks (tests/
    # test_doctor_programs.py): click 7's under the 3.6 this LC_CTYPE=UTF-8 stops.
    assert [t["name"] for t in data["tools"]][:2] == ["perl", "bash"]
    assert [set(t) for t in data["tools"]] == [{"name", "message", "when"}] * len(data["tools"])
    predicted = [p for p in data["pythons"] if p["prediction"]]
    assert predicted
    for python in data["pythons"]:
        assert set(python) == {"path", "version", "sources", "commands", "identified", "error",
                               "prediction", "embedded"}
    for python in predicted:
        assert set(python["prediction"]) == {
            "startup_error", "utf8_mode", "lc_ctype", "filesystem", "stdin", "stdout", "stderr",
            "open", "preferred_encoding", "print", "names", "open_write", "pep686"}
    # (how many: the Pythons found here decide; 3.6's print fails under LC_CTYPE=UTF-8)
    verdict = {0: "ok", 1: "1 problem"}.get(data["problems"], "%d problems" % data["problems"])
    assert data["schema"] == 1 and data["verdict"] == verdict


# -- the explain side: one findings module -------------------------------------------------

def test_explain_ends_with_the_same_verdict_and_fix_lines():
    env = {"PATH": os.environ["PATH"], "HOME": os.environ["HOME"]}
    result = subprocess.run(own_command() + ["explain", "--version", "3.11", "--empty-env", "--env",
                                             "LC_CTYPE=UTF-8", "--locales", "C.UTF-8"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    text = result.stdout.decode()
    assert (result.returncode, result.stderr) == (0, b"")
    assert text.endswith("""
1 problem

warning LC_CTYPE=UTF-8 is macOS's name for the UTF-8 character set, not a locale: glibc has none by that name: LC_CTYPE falls back to C (ASCII)
        - LC_CTYPE=UTF-8 (where it came from is not looked for: explain describes an environment, not a place; utf8env doctor looks in the place)
        - LC_CTYPE decides LC_CTYPE (LC_ALL > LC_CTYPE > LANG); setlocale() refuses it, so LC_CTYPE is C
        - perl prints 'perl: warning: Setting locale failed.' at every start
        - bash prints 'bash: warning: setlocale: LC_CTYPE: cannot change locale (UTF-8)' when a script or rc file assigns LC_CTYPE
        fix: ~/.profile (login shells):
            export LC_CTYPE=C.UTF-8
""")
    result = subprocess.run(own_command() + ["explain", "--json", "--version", "3.6", "--empty-env",
                                             "--env", "LANG=C", "--locales", "C.UTF-8"],
                            env=env, stdout=subprocess.PIPE)
    data = json.loads(result.stdout)
    assert (data["verdict"], [f["code"] for f in data["findings"]]) == (
        "3 problems", ["print-fails", "open-fails", "c-locale", "pep686"])
    assert data["findings"][0]["title"] == 'print("\u00e9") raises UnicodeEncodeError on Python 3.6'


@pytest.mark.parametrize("shell, where, line", [
    (None, "~/.profile (login shells)", "export LANG=C.UTF-8"),
    ("/bin/bash", 'the top of ~/.bashrc (above its "If not running interactively" line)',
     "export LANG=C.UTF-8"),
    ("/usr/bin/fish", "~/.config/fish/config.fish", ["set -e LC_CTYPE", "set -gx LANG C.UTF-8"])])
def test_explain_writes_the_fix_for_the_shell_of_the_environment(shell, where, line):
    """explain describes an environment, not a place (no context is detected): its fixes
    go where the environment's SHELL reads its variables, /bin/sh's without one."""
    command = ["explain", "--json", "--version", "3.11", "--empty-env", "--env", "LANG=C",
               "--locales", "C.UTF-8"] + (["--env", "SHELL=" + shell] if shell else [])
    result = subprocess.run(own_command() + command, stdout=subprocess.PIPE)
    [finding] = json.loads(result.stdout)["findings"]
    assert (finding["code"], finding["fixes"]) == (
        "c-locale", [{"option": 1, "where": where, "context": "shell",
                      "lines": line if isinstance(line, list) else [line]}])


def test_plain_verbose_and_json_name_the_same_options_for_a_python36_error(tmp_path):
    """A 3.6 that LANG=C breaks: its errors share the locale finding's fix and keep their
    own (utf8env run in front of it). The plain page, --verbose and --json name the same
    options, in the same order: that shared fix (JSON "shared"), then the finding's own."""
    folder = tmp_path / "bin"
    folder.mkdir()
    os.symlink(machine.python("3.6"), str(folder / "python3.6"))
    env = cron_env(PATH="%s:/usr/bin:/bin" % folder, LANG="C")
    outputs = [doctor(*args, env=env) for args in ((), ("--verbose",), ("--json",))]
    assert [(code, err) for code, _, err in outputs] == [(1, b"")] * 3
    plain, verbose, data = [out.decode() for _, out, _ in outputs]
    data = json.loads(data)
    errors = [f for f in data["findings"] if f["severity"] == "error"]
    assert [f["code"] for f in errors] == ["print-fails", "open-fails"]
    for finding in errors:
        [shared] = [f for f in data["findings"] if f["code"] == finding["shared"]]
        assert (finding["shared"], shared["fixes"][0]["option"]) == ("c-locale", 1)
        first = "        fix: the first fix of the %s below (%s)\n" % (
            shared["severity"], shared["code"])
        own = finding["fixes"]
        assert [f["option"] for f in own] == [1]     # one option of its own, one step
        head = "error   %s\n" % finding["title"]
        assert head + first + "        (or 1 other fix, and the evidence: utf8env doctor " \
            "--verbose)\n\n" in plain
        assert head + "".join("        - %s\n" % line for line in finding["evidence"]) + \
            first + "        or: %s:\n" % own[0]["where"] + \
            "".join("            %s\n" % line for line in own[0]["lines"]) + "\n" in verbose


# -- the five worlds: doctor's predictions against the live interpreters ----------------------

_WORLD_CASES = (
    ("installed", {"LC_CTYPE": "UTF-8"}, "C", ("locale-missing",)),
    ("installed", {"LC_ALL": "C", "LANG": "C.UTF-8"}, "C", ("lc-all-overrides",)),
    ("no-locales", {}, "C", ("c-locale",)),
    ("en_US-only", {"LANG": "en_US.UTF-8"}, "en_US.UTF-8", ()),
    ("latin1", {"LANG": "en_US.ISO-8859-1"}, "en_US.ISO-8859-1", ("legacy-codeset",)),
    ("gb18030", {"LANG": "zh_CN.GB18030"}, "zh_CN.GB18030", ("legacy-codeset",)),
)


@pytest.fixture(scope="module")
def world_runs(tmp_path_factory):
    machine.worlds()
    home = str(tmp_path_factory.mktemp("worlds-home"))
    base = {"PATH": "/usr/bin:/bin", "HOME": home, "PYENV_ROOT": PYENV_ROOT,
            "XDG_CACHE_HOME": home + "/.cache"}
    batches = [(world, [worlds.Job(own_command() + ["doctor", "--json"], dict(base, **env))])
               for world, env, _, _ in _WORLD_CASES]
    doctored = [json.loads(runs[0].stdout) for runs in worlds.run_batches(batches, ["/"])]
    # Then every Python doctor predicted, run for real in the same world and environment.
    batches, keys = [], []
    for (world, env, _, _), data in zip(_WORLD_CASES, doctored):
        jobs = []
        for python in data["pythons"]:
            if python["prediction"]:
                jobs.append(worlds.Job(probe.command([python["path"]]), dict(base, **env)))
                keys.append((world, tuple(sorted(env.items())), python["path"]))
        batches.append((world, jobs))
    live = {}
    flat = [run for runs in worlds.run_batches(batches, ["/"]) for run in runs]
    for key, run in zip(keys, flat):
        live[key] = probe.parse(run.stdout)
    return doctored, live


@pytest.mark.parametrize("case", range(len(_WORLD_CASES)))
def test_worlds_locale_and_findings(world_runs, case):
    world, env, lc_ctype, codes = _WORLD_CASES[case]
    data = world_runs[0][case]
    assert data["locale"]["lc_ctype"] == lc_ctype
    assert tuple(f["code"] for f in data["findings"] if f["severity"] != "note"
                 and f["code"] not in ("print-fails", "open-fails")) == codes
    expected_utf8 = {"installed": "C.UTF-8", "no-locales": None, "en_US-only": "en_US.UTF-8",
                     "latin1": "C.UTF-8", "gb18030": "C.UTF-8"}[world]
    assert data["locale"]["utf8_locale"] == expected_utf8


@pytest.mark.parametrize("case", range(len(_WORLD_CASES)))
def test_worlds_every_prediction_agrees_with_the_live_interpreter(world_runs, case):
    world, env, _, _ = _WORLD_CASES[case]
    doctored, live = world_runs
    checked = 0
    for python in doctored[case]["pythons"]:
        predicted = python["prediction"]
        if not predicted:
            continue
        observed = live[(world, tuple(sorted(env.items())), python["path"])]
        assert observed is not None, python["path"]
        for field in ("filesystem", "stdin", "stdout", "stderr", "open"):
            want = (predicted[field]["encoding"], predicted[field]["errors"])
            assert groundtruth.normal(field, want) == groundtruth.normal(field, tuple(observed[field])), \
                (python["path"], field)
        assert predicted["utf8_mode"] == observed["utf8_mode"]
        assert predicted["lc_ctype"] == observed["lc_ctype"]
        assert groundtruth.normal("preferred_encoding", predicted["preferred_encoding"]) == \
            groundtruth.normal("preferred_encoding", observed["preferred_encoding"])
        checked += 1
    assert checked >= 1


def test_interpreters_that_hang_are_asked_together_and_python3_unanswered_is_a_problem(tmp_path):
    """Three compiled files named like Pythons that never answer: asked at the same time
    (the run costs one timeout, not three: not timed here, the output says each was
    asked), and the python3 on PATH among them makes the verdict a problem, never "ok"."""
    if not shutil.which("cc"):
        pytest.skip("no C compiler (tests/setup.sh installs gcc)")
    source = tmp_path / "hang.c"
    source.write_text("#include <unistd.h>\nint main(void) { for (;;) pause(); }\n")
    folder = tmp_path / "bin"
    folder.mkdir()
    subprocess.run(["cc", "-o", str(folder / "python3"), str(source)], check=True)
    for name in ("python3.8", "python3.9"):
        shutil.copy(str(folder / "python3"), str(folder / name))
    env = cron_env(PATH="%s:/usr/bin:/bin" % folder, LANG="C.UTF-8")
    code, out, err = doctor("--verbose", env=env, python=sys.executable)
    lines = out.decode().splitlines()
    assert (code, err, lines[:4]) == (1, b"", [
        "1 problem", "",
        "warning %s/python3, the python3 on PATH, could not be identified: what it does with "
        "text here is not known" % folder,
        "        - interpreter '%s/python3': could not be run (no answer within 10 seconds) "
        "(ran it once)" % folder])
    unanswered = [line for line in lines if "no answer within 10 seconds" in line
                  and line.startswith("        - ")]
    assert unanswered[1:] == [
        "        - %s/%s: interpreter '%s/%s': could not be run (no answer within 10 seconds) "
        "(ran it once)" % (folder, name, folder, name) for name in ("python3", "python3.8",
                                                                    "python3.9")]
    # Run again: the silence is remembered, none is asked (and none waited for) again.
    code, out, err = doctor("--json", env=env, python=sys.executable)
    errors = [(p["path"], p["error"]) for p in json.loads(out)["pythons"] if p["version"] is None]
    assert [(path, re.sub(r"at \d\d:\d\d ", "at HH:MM ", error)) for path, error in errors] == [
        ("%s/%s" % (folder, name),
         "interpreter '%s/%s': gave no answer within 10 seconds at HH:MM (not asked again for "
         "60 minutes)" % (folder, name)) for name in ("python3", "python3.8", "python3.9")]


@pytest.mark.fast
def test_sshd_includes_are_listed_as_glob_lists_them(tmp_path):
    """sshd_config's Include patterns: the usual folder/*.conf is listed without the glob
    module (its import costs doctor 6 ms), and gives what glob(3) gives."""
    import glob
    from utf8env.doctor import _sshd as sshd
    folder = tmp_path / "sshd_config.d"
    folder.mkdir()
    for name in ("a.conf", "b.conf", ".hidden.conf", "c.txt"):
        (folder / name).write_text("")
    reader = doctor_place.Reader("/")
    for pattern in ("*.conf", "a.conf", "?.conf", ".*", "none", "[ab].conf"):
        path = "%s/%s" % (folder, pattern)
        assert sshd._glob(path, reader) == sorted(glob.glob(path)), pattern
