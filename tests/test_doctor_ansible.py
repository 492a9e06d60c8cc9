"""docs/ansible-playbook.yml, run as an operator runs it: a real ansible-playbook
(ansible-core 2.19.14 on the CPython running the tests, 3.11+, from tests/setup.sh's
cached wheels) against a real host, Debian's sshd on 127.0.0.1 with PAM
(tests/support/sshd.py), where utf8env is installed from this checkout's wheel in a
venv and /etc/default/locale says LANG=C (so every ssh session has a problem), root's
~/.bashrc being Debian's stock one.

Run under --check (doctor --fix --dry-run: changed reported, nothing written), then for
real twice: the first run writes the fix (changed=1) and a new ssh session's doctor says
ok; the second finds nothing to do (changed=0, the fix skipped). Each run's PLAY RECAP
and the JSON each task registered (printed by ansible-playbook -v) are asserted. Then that
doctor through the command module names the coercion the module's CPython 3.11 made
(LANG=C to LC_CTYPE=C.UTF-8 for its children) and diagnoses the session's LANG=C.

Kept small: one sshd and one pair of venvs for the module, no fact gathering, no ssh
connection kept open between tasks (ControlMaster=no: nothing outlives a run)."""
import json
import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from utf8env.doctor import _session as session

from support import install, sshd, sshd_sessions

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLAYBOOK = os.path.join(ROOT, "docs", "ansible-playbook.yml")
WHEELS = os.path.join(os.environ.get("UTF8ENV_CACHE", "/var/cache/utf8env"), "wheels")
# tests/test_doctor_programs.py's pins for 3.11 (tests/setup.sh downloads exactly these).
ANSIBLE_PINS = ("ansible-core==2.19.14", "resolvelib==1.2.1", "jinja2==3.1.6",
                "MarkupSafe==3.0.4", "PyYAML==6.0.3", "packaging==26.2",
                "cryptography==50.0.2", "cffi==2.1.1", "pycparser==3.11")
SKEL_BASHRC = "/etc/skel/.bashrc"
MARK = "# utf8env doctor --fix: a UTF-8 locale for every program"
BACKUP = ".bashrc.utf8env-backup"
HOST = "target"
# The task names of docs/ansible-playbook.yml, in order (the meta task prints no status).
DOCTOR, FIX, AFTER = ("utf8env doctor --json", "utf8env doctor --fix --json",
                      "utf8env doctor --json, in a new session")
RESET = "a new ssh connection (sshd and PAM start the next session afresh)"
RESULT = re.compile(r"^(ok|changed|skipping|failed|fatal): \[%s\] => (\{.*\})$" % HOST)
RECAP = re.compile(r"^%s\s+: (.*?)\s*$" % HOST)


def _need_place():
    ok, why = sshd.pam_available()
    if not ok:
        pytest.skip(why)
    if not os.path.isfile(SKEL_BASHRC):
        pytest.skip("no %s (Debian's bash package installs it)" % SKEL_BASHRC)
    if sys.version_info < (3, 11):
        pytest.skip("ansible-core 2.19.14 runs on CPython 3.11+; this is %d.%d"
                    % sys.version_info[:2])
    try:
        import pip  # noqa: F401
    except ImportError:
        pytest.skip("no pip in %s: `%s -m ensurepip`" % (sys.executable, sys.executable))


def _skel():
    with open(SKEL_BASHRC) as f:
        return f.read()


def _venv(folder, packages, *pip_options):
    """A venv made by the Python running the tests, without a pip of its own (this pip
    installs into it: faster than ensurepip), with `packages` installed offline: (its bin
    folder, None), or (None, pip's last line)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", folder], check=True)
    python = os.path.join(folder, "bin", "python")
    run = subprocess.run([sys.executable, "-m", "pip", "--python", python, "install", "-q",
                          "--no-index", "--disable-pip-version-check"] + list(pip_options)
                         + list(packages), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         env=install.pip_environ())
    if run.returncode:
        return None, run.stdout.decode(errors="replace").strip().splitlines()[-1:]
    return os.path.join(folder, "bin"), None


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    """(the sshd, the controller's environment, the inventory, utf8env's path on the
    host), for the module."""
    _need_place()
    folder = tmp_path_factory.mktemp("ansible")
    wheel = install.build_wheel(str(folder / "wheel"))
    with ThreadPoolExecutor(2) as pool:
        controller = pool.submit(_venv, str(folder / "controller"), ANSIBLE_PINS,
                                 "--find-links", WHEELS)
        host = pool.submit(_venv, str(folder / "host"), [wheel], "--no-deps")
        (controller, why), (host, host_why) = controller.result(), host.result()
    if controller is None:
        pytest.skip("ansible-core 2.19.14 for %d.%d (bash tests/setup.sh downloads its "
                    "wheels to %s): %s" % (sys.version_info[:2] + (WHEELS, why)))
    assert host is not None, host_why
    # No AcceptEnv: the host's own /etc/default/locale alone decides (PAM's pam_env).
    (folder / "sshd").mkdir()
    server = sshd.Server(folder / "sshd", accept_env="", use_pam=True,
                         default_locale="LANG=C\n", home_files={".bashrc": _skel()})
    inventory = str(folder / "inventory.ini")
    with open(inventory, "w") as f:
        f.write("%s ansible_host=127.0.0.1 ansible_port=%d ansible_user=root "
                "ansible_ssh_private_key_file=%s ansible_ssh_common_args=%s\n" % (
                    HOST, server.port, server.key, shlex.quote(
                        "-F /dev/null -o UserKnownHostsFile=%s -o StrictHostKeyChecking=yes"
                        % server.known_hosts)))
    home = folder / "controller-home"
    home.mkdir()
    environ = {"PATH": "%s:/usr/bin:/bin" % controller, "HOME": str(home),
               "LANG": "C.UTF-8",                   # ansible itself needs a UTF-8 locale
               "ANSIBLE_HOME": str(home / ".ansible"), "ANSIBLE_LOCAL_TEMP": str(home / "tmp"),
               "ANSIBLE_GATHERING": "explicit", "ANSIBLE_NOCOLOR": "1",
               "ANSIBLE_RETRY_FILES_ENABLED": "0",
               # No master connection left behind by a run (ansible's default keeps one
               # for 60 s): each task is its own ssh connection.
               "ANSIBLE_SSH_ARGS": "-o ControlMaster=no",
               # The command module's code through ssh's stdin: the harness's sshd has no
               # sftp subsystem to copy it with (raw copies nothing).
               "ANSIBLE_PIPELINING": "1"}
    try:
        server.start()
        yield server, environ, inventory, os.path.join(host, "utf8env")
    finally:
        server.stop()


@pytest.fixture
def host(place):
    """The host as it starts: LANG=C from /etc/default/locale, Debian's ~/.bashrc, no
    backup; its sessions over when the test ends."""
    server = place[0]
    server.put_home_files({".bashrc": _skel(), BACKUP: None})
    yield place
    assert sshd_sessions.ended(server) == []


def _playbook(place, playbook, *options):
    """ansible-playbook -v: (its status, [(task, status, registered result)], the recap's
    counts); its stderr is empty."""
    server, environ, inventory, utf8env = place
    run = subprocess.run(["ansible-playbook", "-v", "-i", inventory, "-e", "utf8env=" + utf8env]
                         + list(options) + [playbook], env=environ, cwd=environ["HOME"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    out = run.stdout.decode()
    assert run.stderr == b"", (run.stderr, out, server.read_log())
    tasks, recap, task = [], None, None
    for line in out.splitlines():
        if line.startswith("TASK ["):
            task = line[len("TASK ["):line.rindex("]")]
            tasks.append([task, None, None])
        elif RESULT.match(line):
            status, result = RESULT.match(line).groups()
            tasks[-1][1:] = [status, json.loads(result)]
        elif RECAP.match(line):
            recap = dict(pair.split("=") for pair in RECAP.match(line).group(1).split())
    return run.returncode, [tuple(t) for t in tasks], \
        {name: int(count) for name, count in recap.items()}


def _recap(ok=0, changed=0, skipped=0):
    return {"ok": ok, "changed": changed, "unreachable": 0, "failed": 0,
            "skipped": skipped, "rescued": 0, "ignored": 0}


def _doctor(result):
    """What doctor printed, as a registered result holds it (raw: through the ssh
    client's terminal, so each line ends in CR LF)."""
    return json.loads(result["stdout"])


def _bashrc(server):
    with open(server.home_path(".bashrc")) as f:
        return f.read()


FIXED = {"file": "/root/.bashrc", "position": "top", "lines": ["export LANG=C.UTF-8"],
         "backup": "/root/" + BACKUP}


def test_the_playbook_fixes_the_host_once_and_then_finds_it_ok(host):
    server = host[0]
    skel = _skel()
    # --check: doctor --fix --dry-run says what it would write (changed), writes nothing.
    code, tasks, recap = _playbook(host, PLAYBOOK, "--check")
    assert (code, recap) == (0, _recap(ok=2, changed=1, skipped=1))
    assert [(task, status) for task, status, _ in tasks] == [
        (DOCTOR, "ok"), (FIX, "changed"), (RESET, None), (AFTER, "skipping")]
    before, fix = _doctor(tasks[0][2]), _doctor(tasks[1][2])
    assert (tasks[0][2]["rc"], before["verdict"], before["locale"]["variables"]) == (
        1, "%d problems" % before["problems"], {"LANG": "C"})
    assert "c-locale" in [f["code"] for f in before["findings"]]
    assert (tasks[1][2]["rc"], fix["dry_run"], fix["changed"], fix["not_the_users"],
            fix["after"]["not_checked"]) == (3, True, [FIXED], [], session.DRY_RUN)
    assert (_bashrc(server), os.path.lexists(server.home_path(BACKUP))) == (skel, False)

    # The first run: the fix written (changed=1), and a new ssh session's doctor: ok.
    code, tasks, recap = _playbook(host, PLAYBOOK)
    assert (code, recap) == (0, _recap(ok=3, changed=1))
    assert [(task, status) for task, status, _ in tasks] == [
        (DOCTOR, "ok"), (FIX, "changed"), (RESET, None), (AFTER, "ok")]
    fix, after = _doctor(tasks[1][2]), _doctor(tasks[3][2])
    assert (tasks[1][2]["rc"], fix["dry_run"], fix["changed"], fix["not_the_users"],
            fix["after"]) == (3, False, [FIXED], [], {
                "checked": False, "verdict": None, "problems": None, "sessions": [],
                "not_checked": session.NOT_STARTED["ssh"]})
    assert (tasks[3][2]["rc"], after["verdict"], after["problems"],
            after["locale"]["variables"]) == (0, "ok", 0, {"LANG": "C.UTF-8"})
    assert _bashrc(server) == MARK + "\nexport LANG=C.UTF-8\n" + skel

    # The second run: nothing to do.
    code, tasks, recap = _playbook(host, PLAYBOOK)
    assert (code, recap) == (0, _recap(ok=1, skipped=2))
    assert [(task, status) for task, status, _ in tasks] == [
        (DOCTOR, "ok"), (FIX, "skipping"), (RESET, None), (AFTER, "skipping")]
    assert (tasks[0][2]["rc"], _doctor(tasks[0][2])["verdict"]) == (0, "ok")
    assert _bashrc(server) == MARK + "\nexport LANG=C.UTF-8\n" + skel


def test_through_the_command_module_doctor_names_the_module_s_coerced_locale(host, tmp_path):
    """The command module starts doctor from the module's CPython 3.11, which (PEP 538)
    set LC_CTYPE=C.UTF-8 over the session's LANG=C for its children: doctor names that
    coercion (the parent a Python, /proc/PPID/environ without it) and diagnoses the
    session's own LANG=C, 1 problem, as an ssh session's doctor does (issue 30)."""
    python = os.path.join(os.path.dirname(host[3]), "python")
    playbook = tmp_path / "command.yml"
    playbook.write_text(
        "- hosts: all\n  gather_facts: false\n  tasks:\n"
        "    - name: doctor through command\n"
        "      ansible.builtin.command: \"{{ utf8env }} doctor --json --no-pythons\"\n"
        "      failed_when: false\n"
        "      vars:\n"
        "        ansible_python_interpreter: %s\n" % python)
    code, tasks, recap = _playbook(host, str(playbook))
    assert (code, recap) == (0, _recap(ok=1, changed=1))
    [(task, status, result)] = tasks
    data = _doctor(result)
    assert (status, result["rc"], data["verdict"], data["locale"]["variables"]) == (
        "changed", 1, "1 problem", {"LANG": "C"})
    [note] = [f for f in data["findings"] if f["code"] == "parent-coercion"]
    pid = re.match(r"process (\d+) ", note["evidence"][0]).group(1)
    assert note == {
        "code": "parent-coercion", "severity": "note",
        "title": "LC_CTYPE=C.UTF-8 was set by the parent Python's locale coercion (PEP 538), "
                 "not by this place: programs started elsewhere here get LANG=C",
        "evidence": [
            "process %s (%s) is the parent and a Python: CPython 3.7+ started in the C "
            "locale exports LC_CTYPE set to the first of C.UTF-8, C.utf8, UTF-8 its libc has"
            % (pid, os.path.realpath(python)),
            "LANG=C, LC_ALL unset: the C locale that coercion replaces",
            "/proc/%s/environ: the parent was started with LC_CTYPE unset" % pid,
            "the other findings are those of LANG=C"],
        "shared": None, "fixes": []}
    assert [f["code"] for f in data["findings"]] == ["c-locale", "parent-coercion"]
    assert _bashrc(host[0]) == _skel()
