"""The fixes doctor prints for a systemd service, for CI (GitHub Actions, GitLab CI, any
other CI) and for a user's shell, each applied exactly as printed, in a real place of its
kind, then shown to make the problem go: doctor in the fixed place says "ok", and the
program the fix is for prints "é" (Python 3.6) or runs with a UTF-8 charmap (shells).

systemd. There is no running service manager here (no systemd as PID 1), so a unit is
not started; everything that can be systemd's own reading is: the unit file and the
drop-in as printed are checked with `systemd-analyze verify` (status 0, not one line of
warning), and the unit's resolved Environment=, UnsetEnvironment= and ExecStart= are
taken from the dump `systemd-analyze verify` writes with SYSTEMD_LOG_LEVEL=debug (the
same dump tests/test_envformat.py reads: the drop-in's Environment= already merged over
the unit's by systemd). What systemd does with them at exec time is applied here by
systemd.exec(5), "Environment Variables in Spawned Processes", for these simple values:
the manager's environment (PATH as `systemd-path search-binaries-default` prints the
DEFAULT_PATH systemd gives services; the locale variables of /etc/locale.conf, else
Debian's /etc/default/locale, as PID 1 reads them at its start; INVOCATION_ID), then
Environment= over it, then UnsetEnvironment= removing names (or exact NAME=VALUE
assignments) last. ExecStart='s words are the dump's "Command Line:", split at spaces
(every word here is a plain word: no quotes, no escapes, which the test checks).

CI. A runner gives a job's processes the env:/variables: mapping of the workflow as
variables (an empty string is an empty value, which glibc and CPython take for unset):
the YAML doctor prints is loaded with PyYAML (yaml.safe_load) as that mapping and laid
over the job's environment. Any other CI gets shell lines: run in `sh -c`, then doctor
through exec.

Shells. doctor reports the shell context only where no container is seen, and this
machine may be a Docker container (/.dockerenv): there, doctor runs in a root made
without it (tests/support/shell_roots.py). A private HOME holds Debian's stock /etc/skel/.bashrc and .profile
(checked against dpkg's md5sums of bash's conffiles); the printed lines go where doctor
says (the top of ~/.bashrc, the end of ~/.profile, the end of config.fish, the end of
~/.zshenv), and real shells of each kind started with `env -i` (bash -i, bash -l, sh -l,
dash -l, fish, fish -l, zsh -c, zsh -i, zsh -l, under Debian's stock /etc/zsh files) see
LANG=C.UTF-8 and a UTF-8 charmap where they did not before; doctor started by that shell
says "ok"; `explain` prints the same fix for the same environment; and `doctor --fix`
writes the same file (its one comment line aside). zsh with ZDOTDIR set (in the
environment it starts with, or by ~/.zshenv itself) needs the lines in both ~/.zshenv and
$ZDOTDIR/.zshenv: each alone is shown not to be enough."""
import hashlib
import json
import os
import subprocess

import pytest

from utf8env._own_command import own_command

from support import machine
from support.fixtures import no_container  # noqa: F401 (a fixture)
from support.shell_roots import stock_home
from support.systemd_dump import command_line_words

INVOCATION_ID = "0123456789abcdef0123456789abcdef"
E_ACUTE = 'print("\\u00e9")\n'          # ASCII source; prints U+00E9
UNIT = "utf8env-places.service"
LOCALE_NAMES = ("LANG", "LANGUAGE", "LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE",
                "LC_MONETARY", "LC_MESSAGES", "LC_PAPER", "LC_NAME", "LC_ADDRESS",
                "LC_TELEPHONE", "LC_MEASUREMENT", "LC_IDENTIFICATION")
FIX_MARK = "# utf8env doctor --fix: a UTF-8 locale for every program"


def doctor(env, *args, wrap=()):
    """(exit status, doctor's JSON) of `doctor --json ARGS` started with exactly `env`."""
    result = subprocess.run(list(wrap) + own_command() + ["doctor", "--json"] + list(args),
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL)
    assert result.stderr == b"", result.stderr
    return result.returncode, json.loads(result.stdout.decode("utf-8"))


def fixes_of(data):
    """[(code, [fix, ...])] of doctor's findings."""
    return [(f["code"], f["fixes"]) for f in data["findings"]]


def assert_ok(code, data):
    """doctor's verdict "ok" (status 0): no finding left but notes."""
    assert (data["verdict"], code) == ("ok", 0), data
    assert all(f["severity"] == "note" for f in data["findings"]), data["findings"]


# -- systemd -------------------------------------------------------------------------------

def _systemd_tools():
    return (machine.command("systemd-analyze", "systemd", "reading a unit as systemd does"),
            machine.command("systemd-path", "systemd", "systemd's DEFAULT_PATH"))


def _manager_environment(systemd_path):
    """What the system manager passes every service (systemd.exec(5)): PATH, its locale
    (/etc/locale.conf, else /etc/default/locale on Debian), and INVOCATION_ID."""
    path = subprocess.run([systemd_path, "search-binaries-default"], stdout=subprocess.PIPE,
                          check=True).stdout.decode().strip()
    env = {"PATH": path, "INVOCATION_ID": INVOCATION_ID}
    for name in ("/etc/locale.conf", "/etc/default/locale"):
        if os.path.isfile(name):
            with open(name) as f:
                for line in f:
                    key, sep, value = line.strip().partition("=")
                    if sep and key in LOCALE_NAMES and value.strip("\"'"):
                        env[key] = value.strip("\"'")
            break
    return env


def _write_unit(folder, service_lines, drop_in=None):
    """UNIT in `folder`, and its drop-in UNIT.d/override.conf (the name `systemctl edit`
    gives it) holding `drop_in` as printed."""
    folder.mkdir(exist_ok=True)
    (folder / UNIT).write_text("[Unit]\nDescription=utf8env doctor places\n\n[Service]\n"
                               "Type=oneshot\n" + "".join(l + "\n" for l in service_lines))
    if drop_in is not None:
        (folder / (UNIT + ".d")).mkdir(exist_ok=True)
        (folder / (UNIT + ".d") / "override.conf").write_text("".join(l + "\n" for l in drop_in))
    return folder / UNIT


def _systemd_reading(analyze, unit):
    """(Environment=, UnsetEnvironment=, ExecStart= argv) of `unit` (and its drop-in) as
    systemd read them, after `systemd-analyze verify` passed them without a word."""
    quiet = subprocess.run([analyze, "verify", "--man=no", str(unit)], cwd=str(unit.parent),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, b"", b""), quiet
    dump = subprocess.run([analyze, "verify", "--man=no", str(unit)], cwd=str(unit.parent),
                          env=dict(os.environ, SYSTEMD_LOG_LEVEL="debug"),
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
    text = dump.stdout.decode("utf-8")
    [section] = [s for s in text.split("\t-> Unit ")[1:] if s.startswith(UNIT + ":")]
    lines = section.split("\n")
    environment = [l[len("\t\tEnvironment: "):] for l in lines if l.startswith("\t\tEnvironment: ")]
    unset = [l[len("\t\tUnsetEnvironment: "):] for l in lines
             if l.startswith("\t\tUnsetEnvironment: ")]
    start = lines.index("\t\t-> ExecStart:")
    assert lines[start + 1].startswith("\t\t\tCommand Line: ")
    command = command_line_words(os.fsencode(lines[start + 1][len("\t\t\tCommand Line: "):]))
    assert all(b"$" not in word for word in command), command     # nothing left to expand
    read_drop_in = any(l.startswith("\t\tDropIn Path: ") for l in lines)
    assert read_drop_in == (unit.parent / (UNIT + ".d")).is_dir(), section
    return environment, unset, [os.fsdecode(word) for word in command]


def _service_environment(manager, environment, unset):
    """systemd.exec(5): the manager's variables, then Environment=, then UnsetEnvironment=
    ("applied last": a NAME removes the variable, NAME=VALUE only that assignment)."""
    env = dict(manager)
    for assignment in environment:
        name, _, value = assignment.partition("=")
        env[name] = value
    for item in unset:
        name, sep, value = item.partition("=")
        if not sep or env.get(name) == value:
            env.pop(name, None)
    return env


def _drop_in(data):
    """The lines of the drop-in doctor prints (one, for every finding that needs one; its
    where names UNIT.service: doctor sees no unit name without a cgroup)."""
    found = []
    for _, fixes in fixes_of(data):
        for fix in fixes:
            if fix["where"].startswith("a drop-in: systemctl edit "):
                assert fix["where"] == ("a drop-in: systemctl edit UNIT.service (then systemctl "
                                        "restart UNIT.service)")
                assert fix["lines"][0] == "[Service]" and fix["context"] == "systemd"
                found.append(fix["lines"])
    [lines] = set(map(tuple, found))
    return list(lines)


_SERVICE_CASES = {
    # what the unit itself says (beyond Type= and ExecStart=): the problem
    "no-locale": ([], ["[Service]", "Environment=LANG=C.UTF-8"]),
    "lang-c": (["Environment=LANG=C"], ["[Service]", "Environment=LANG=C.UTF-8"]),
    "lc-all-c": (["Environment=LC_ALL=C LANG=C.UTF-8"], ["[Service]", "UnsetEnvironment=LC_ALL"]),
    "lc-all-c-alone": (["Environment=LC_ALL=C"],
                       ["[Service]", "Environment=LANG=C.UTF-8", "UnsetEnvironment=LC_ALL"]),
}


@pytest.mark.parametrize("case", sorted(_SERVICE_CASES))
def test_systemd_drop_in_as_printed_makes_the_service_ok(case, tmp_path):
    analyze, systemd_path = _systemd_tools()
    manager = _manager_environment(systemd_path)
    given, expected = _SERVICE_CASES[case]
    if case == "no-locale" and any(n in manager for n in LOCALE_NAMES):
        pytest.skip("this system's locale file gives every service %s: no service here "
                    "lacks a locale" % ", ".join(n for n in LOCALE_NAMES if n in manager))
    program = ["ExecStart=/usr/bin/locale charmap"]
    unit = _write_unit(tmp_path / "before", given + program)
    environment, unset, argv = _systemd_reading(analyze, unit)
    env = _service_environment(manager, environment, unset)
    assert argv == ["/usr/bin/locale", "charmap"]
    shown = subprocess.run(argv, env=env, cwd="/", stdout=subprocess.PIPE, check=True).stdout
    assert shown != b"UTF-8\n"
    code, data = doctor(env, "--no-pythons")
    assert data["contexts"][0]["name"] == "systemd" and data["verdict"] != "ok", data
    lines = _drop_in(data)
    assert lines == expected
    # Applied as printed: the same unit, the drop-in beside it.
    unit = _write_unit(tmp_path / "after", given + program, drop_in=lines)
    environment, unset, argv = _systemd_reading(analyze, unit)
    env = _service_environment(manager, environment, unset)
    assert_ok(*doctor(env, "--no-pythons"))
    # The unit's own program (locale charmap), started as systemd would: UTF-8 now.
    shown = subprocess.run(argv, env=env, cwd="/", stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, check=True)
    assert (shown.stdout, shown.stderr) == (b"UTF-8\n", b"")


def test_systemd_python36_execstart_and_drop_in_as_printed(tmp_path):
    """A service whose PATH holds a real CPython 3.6: doctor lists it, and prints the
    ExecStart= through `utf8env run` for print/open, the drop-in for the locale."""
    analyze, systemd_path = _systemd_tools()
    python36 = os.path.realpath(machine.python("3.6"))
    manager = _manager_environment(systemd_path)
    script = tmp_path / "e_acute.py"
    script.write_text(E_ACUTE)
    path_line = "Environment=PATH=%s:%s" % (os.path.dirname(python36), manager["PATH"])
    before = _write_unit(tmp_path / "before", [path_line, "ExecStart=%s %s" % (python36, script)])
    environment, unset, argv = _systemd_reading(analyze, before)
    env = _service_environment(manager, environment, unset)
    if any(n in env for n in LOCALE_NAMES):
        pytest.skip("this system's locale file gives every service a locale: %s" % env)
    # Without a fix, the unit's program fails as the finding says.
    failed = subprocess.run(argv, env=env, cwd="/", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert failed.returncode != 0 and b"UnicodeEncodeError" in failed.stderr
    code, data = doctor(env)
    assert data["contexts"][0]["name"] == "systemd"
    found = dict(fixes_of(data))
    assert {"print-fails", "open-fails", "c-locale"} <= set(found), found
    [execstart] = {tuple(f["lines"]) for code_ in ("print-fails", "open-fails")
                   for f in found[code_]}
    for code_ in ("print-fails", "open-fails"):
        assert [(f["option"], f["context"], f["where"]) for f in found[code_]] == [
            (1, "systemd", "the unit's ExecStart=, the program's arguments after it (no "
                           "variable gives Python 3.6 a UTF-8 mode)")]
    [line] = execstart
    assert line.startswith("ExecStart=/") and line.endswith(" run -- " + python36), line
    drop_in = _drop_in(data)
    assert drop_in == ["[Service]", "Environment=LANG=C.UTF-8"]
    # ExecStart= as printed, the program's arguments after it; no drop-in: 3.6 prints é.
    wrapped = _write_unit(tmp_path / "wrapped", [path_line, "%s %s" % (line, script)])
    environment, unset, argv = _systemd_reading(analyze, wrapped)
    assert argv[-2:] == [python36, str(script)]
    env = _service_environment(manager, environment, unset)
    ran = subprocess.run(argv, env=env, cwd="/", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "\u00e9\n".encode("utf-8"), b"")
    # Both applied: the program prints é, and doctor (3.6 listed) says ok.
    both = _write_unit(tmp_path / "both", [path_line, "%s %s" % (line, script)], drop_in=drop_in)
    environment, unset, argv = _systemd_reading(analyze, both)
    env = _service_environment(manager, environment, unset)
    ran = subprocess.run(argv, env=env, cwd="/", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "\u00e9\n".encode("utf-8"), b"")
    code, data = doctor(env)
    assert python36 in [p["path"] for p in data["pythons"]]
    assert_ok(code, data)


def test_systemd_execstart_as_printed_for_a_python_in_a_folder_with_a_blank_and_a_percent(tmp_path):
    """A Python 3.6 on the unit's PATH in a folder whose name has a blank and a %: the
    ExecStart= printed is systemd's quoting ("" for the blank, %% for the specifier
    character), which systemd-analyze passes and reads back as the real path."""
    analyze, systemd_path = _systemd_tools()
    manager = _manager_environment(systemd_path)
    odd = tmp_path / "pythons 100% odd"
    odd.mkdir()
    python36 = odd / "python3.6"
    python36.symlink_to(os.path.realpath(machine.python("3.6")))
    script = tmp_path / "e_acute.py"
    script.write_text(E_ACUTE)
    env = dict(manager, PATH="%s:%s" % (odd, manager["PATH"]))
    if any(n in env for n in LOCALE_NAMES):
        pytest.skip("this system's locale file gives every service a locale: %s" % env)
    code, data = doctor(env)
    [line] = {l for code_ in ("print-fails", "open-fails")
              for f in dict(fixes_of(data))[code_] for l in f["lines"]}
    assert line.endswith(' run -- "%s"' % str(python36).replace("%", "%%")), line
    unit = _write_unit(tmp_path / "wrapped", ["Environment=PATH=%s" % manager["PATH"],
                                              "%s %s" % (line, script)])
    environment, unset, argv = _systemd_reading(analyze, unit)
    assert argv[-2:] == [str(python36), str(script)]
    ran = subprocess.run(argv, env=_service_environment(manager, environment, unset), cwd="/",
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "\u00e9\n".encode("utf-8"), b"")


# -- CI ------------------------------------------------------------------------------------

_CI_PROBLEMS = {"no-locale": {}, "lang-c": {"LANG": "C"},
                "lc-all-c": {"LC_ALL": "C", "LANG": "C.UTF-8"}}
_YAML_SERVICES = {
    "github": ({"GITHUB_ACTIONS": "true", "CI": "true"}, "GitHub Actions",
               "the workflow's (or the job's) env mapping, GitHub Actions", "env"),
    "gitlab": ({"GITLAB_CI": "true", "CI": "true"}, "GitLab CI",
               "the variables mapping of .gitlab-ci.yml (or of the job), GitLab CI", "variables"),
}


def _ci_env(tmp_path, service, problem):
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(tmp_path)}
    env.update(service)
    env.update(problem)
    return env


def _only_fix(data, context="ci"):
    """The lines of the one fix of every problem, all alike (one finding here)."""
    [(_, [fix])] = fixes_of(data)
    assert (fix["option"], fix["context"]) == (1, context), fix
    return fix["where"], fix["lines"]


@pytest.mark.parametrize("problem", sorted(_CI_PROBLEMS))
@pytest.mark.parametrize("service", sorted(_YAML_SERVICES))
def test_ci_yaml_as_printed_makes_the_job_ok(service, problem, tmp_path):
    yaml = pytest.importorskip("yaml", reason="no PyYAML: pip install pyyaml")
    variables, summary, where, key = _YAML_SERVICES[service]
    env = _ci_env(tmp_path, variables, _CI_PROBLEMS[problem])
    code, data = doctor(env, "--no-pythons")
    assert data["contexts"][0]["summary"] == summary and code != 0
    printed_where, lines = _only_fix(data)
    assert printed_where == where
    mapping = yaml.safe_load("\n".join(lines) + "\n")
    assert list(mapping) == [key] and isinstance(mapping[key], dict)
    for name, value in mapping[key].items():
        assert isinstance(name, str) and isinstance(value, str), (name, value)
        env[name] = value           # what the runner gives the job's processes
    assert_ok(*doctor(env, "--no-pythons"))
    charmap = subprocess.run(["locale", "charmap"], env=env, stdout=subprocess.PIPE, check=True)
    assert charmap.stdout == b"UTF-8\n"


@pytest.mark.parametrize("problem", sorted(_CI_PROBLEMS))
@pytest.mark.parametrize("variables, summary", [
    ({"CI": "true"}, "CI"), ({"JENKINS_URL": "http://jenkins.example/"}, "Jenkins")])
def test_other_ci_shell_lines_as_printed_make_the_job_ok(variables, summary, problem, tmp_path):
    env = _ci_env(tmp_path, variables, _CI_PROBLEMS[problem])
    code, data = doctor(env, "--no-pythons")
    assert data["contexts"][0]["summary"] == summary and code != 0
    where, lines = _only_fix(data)
    assert where == "the CI job's environment (%s)" % summary
    script = "\n".join(lines) + '\nexec "$@"\n'
    result = subprocess.run(["sh", "-c", script, "sh"] + own_command() + ["doctor", "--json",
                            "--no-pythons"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    assert result.stderr == b""
    assert_ok(result.returncode, json.loads(result.stdout.decode("utf-8")))


# -- shells --------------------------------------------------------------------------------

# SHELL -> (where doctor says, the file under HOME, at its top?, the shells that read it)
_SHELLS = {
    "/bin/bash": ('the top of ~/.bashrc (above its "If not running interactively" line)',
                  ".bashrc", True, [["bash", "-i", "-c"], ["bash", "-l", "-c"]]),
    "/bin/sh": ("~/.profile (login shells)", ".profile", False,
                [["sh", "-l", "-c"], ["dash", "-l", "-c"]]),
    "/bin/dash": ("~/.profile (login shells)", ".profile", False,
                  [["dash", "-l", "-c"], ["sh", "-l", "-c"]]),
    "/usr/bin/fish": ("~/.config/fish/config.fish", ".config/fish/config.fish", False,
                      [["fish", "-c"], ["fish", "-l", "-c"]]),
    # zsh -c (`ssh host cmd`, a program's shell) reads only /etc/zsh/zshenv and ~/.zshenv.
    "/usr/bin/zsh": ("~/.zshenv (and, where ZDOTDIR is set, $ZDOTDIR/.zshenv too: zsh started "
                     "with ZDOTDIR reads that one instead)", ".zshenv", False,
                     [["zsh", "-c"], ["zsh", "-i", "-c"], ["zsh", "-l", "-c"]]),
}
_PACKAGES = {"fish": "fish", "zsh": "zsh", "bash": "bash", "sh": "dash", "dash": "dash"}
# fish: started with no locale variable it exports LC_CTYPE=en_US.UTF-8 of its own
# (__fish_set_locale), which a LANG alone would not beat: the line that removes it first.
_SHELL_PROBLEMS = {"no-locale": ({}, ["export LANG=C.UTF-8"],
                                 ["set -e LC_CTYPE", "set -gx LANG C.UTF-8"]),
                   "lc-all-c": ({"LC_ALL": "C", "LANG": "C.UTF-8"}, ["unset LC_ALL"],
                                ["set -e LC_ALL"])}


def _shell_env(home, shell, problem):
    env = {"HOME": str(home), "SHELL": shell, "PATH": "/usr/local/bin:/usr/bin:/bin",
           "USER": "root", "LOGNAME": "root"}
    env.update(problem)
    return env


def _apply(home, relative, top, lines):
    """`lines` at the top or the end of HOME/relative (made if missing), as a user would."""
    path = home / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    old = path.read_bytes() if path.exists() else b""
    block = "".join(l + "\n" for l in lines).encode()
    path.write_bytes(block + old if top else old + (b"" if not old or old.endswith(b"\n")
                                                    else b"\n") + block)


def _shell_words(words):
    """`words` (["fish", "-c"], ["bash", "-i", "-c"]...) with the program's path."""
    return [machine.command(words[0], _PACKAGES[words[0]])] + words[1:]


def _through(words):
    """The words that make the shell `words` start the command after them, as typed there."""
    if words[0] == "fish":
        return _shell_words(words) + ["exec $argv", "--"]
    return _shell_words(words) + ['exec "$@"', words[0]]


def _in_shell(words, env):
    """(charmap, {LANG and LC_* it exports}, stderr) as the shell `words` sees them."""
    result = subprocess.run(_shell_words(words) + ["locale charmap; env"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, cwd=env["HOME"])
    assert result.returncode == 0, result
    lines = result.stdout.decode("utf-8", "replace").split("\n")
    seen = dict(l.split("=", 1) for l in lines[1:] if l.startswith(("LANG=", "LC_")))
    return lines[0], seen, result.stderr


def _shells_see(home, shell, problem, fixed, values=()):
    """Every shell of the kind of `shell` started in `home`: with `fixed`, a UTF-8
    charmap, no LC_ALL, the `values`, no locale warning; else no UTF-8 charmap."""
    for words in _SHELLS[shell][3]:
        charmap, seen, stderr = _in_shell(words, _shell_env(home, shell, problem))
        if fixed:
            assert (charmap, seen.get("LC_ALL")) == ("UTF-8", None) and \
                all(seen.get(n) == v for n, v in values), (words, charmap, seen, stderr)
            assert b"locale" not in stderr.lower(), stderr
        else:
            assert charmap != "UTF-8", (words, charmap, seen)


def _doctor_started(env, no_container, *args, through=None):
    """doctor --json ARGS, started by the shell `through` (or directly)."""
    result = subprocess.run(list(no_container) + (_through(through) if through else []) +
                            own_command() + ["doctor", "--json"] + list(args), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, cwd=env["HOME"])
    return result.returncode, json.loads(result.stdout.decode("utf-8"))


def _fix_writes_the_same(tmp_path, shell, variables, no_container, fixed_home, through=None):
    """`doctor --fix` in a new stock HOME writes what was applied by hand in `fixed_home`,
    with its one comment line, keeps a backup of the old file, and the shells see it."""
    relative = _SHELLS[shell][1]
    home = stock_home(tmp_path / "fix-home")
    stock = (home / relative).read_bytes() if (home / relative).exists() else None
    result = subprocess.run(list(no_container) + (_through(through) if through else []) +
                            own_command() + ["doctor", "--fix", "--no-pythons"],
                            env=_shell_env(home, shell, variables), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=str(home))
    assert result.returncode == 0, result
    assert result.stdout.decode().rstrip().endswith("after, in a new session: ok"), result.stdout
    written = (home / relative).read_text().split("\n")
    assert written.count(FIX_MARK) == 1, written
    written.remove(FIX_MARK)
    assert "\n".join(written) == (fixed_home / relative).read_text()
    backup = home / (relative + ".utf8env-backup")
    assert (backup.read_bytes() if backup.exists() else None) == stock
    return home


def _skip_without(shell):
    if shell.endswith("fish"):
        machine.command("fish", "fish")
    if shell.endswith("zsh"):
        machine.command("zsh", "zsh")
        _stock_zsh_files()


def _stock_zsh_files():
    """Debian's /etc/zsh start-up files as zsh-common installed them (dpkg's md5sums of
    its conffiles): bookworm's zshenv sets only PATH, its zprofile (no /etc/profile read),
    zshrc and zlogin no locale variable; the tests show what they do to LANG and LC_ALL."""
    recorded = subprocess.run(["dpkg-query", "-W", "-f=${Conffiles}", "zsh-common"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    sums = {line.split()[0]: line.split()[1] for line in recorded.stdout.decode().splitlines()
            if len(line.split()) >= 2}
    for name in ("zshenv", "zprofile", "zshrc", "zlogin"):
        path = "/etc/zsh/" + name
        if not os.path.isfile(path):
            pytest.skip("no %s: apt-get install zsh (Debian's stock start-up files)" % path)
        with open(path, "rb") as f:
            if sums.get(path) != hashlib.md5(f.read()).hexdigest():
                pytest.skip("%s is not Debian's stock file (dpkg's md5sum differs, or no dpkg)"
                            % path)


@pytest.mark.parametrize("problem", sorted(_SHELL_PROBLEMS))
@pytest.mark.parametrize("shell", sorted(_SHELLS))
def test_shell_fix_as_printed_in_debians_stock_start_up_files(shell, problem, tmp_path,
                                                               no_container):
    """doctor started with SHELL=shell (from a program, a terminal's other shell, cron's
    sh): its fix for that SHELL, applied, holds in every shell of that kind."""
    _skip_without(shell)
    where, relative, top, kinds = _SHELLS[shell]
    variables, lines, fish_lines = _SHELL_PROBLEMS[problem]
    expected = fish_lines if shell.endswith("fish") else lines
    home = stock_home(tmp_path / "home")
    env = _shell_env(home, shell, variables)
    code, data = _doctor_started(env, no_container, "--no-pythons")
    assert [c["name"] for c in data["contexts"]] == ["shell"] and code != 0, data
    assert _only_fix(data, "shell") == (where, expected)
    # explain, for the same environment, prints the same fix.
    words = ["explain", "--json", "--version", "3.11", "--empty-env", "--locales", "C.UTF-8"]
    for name, value in sorted(dict(variables, SHELL=shell).items()):
        words += ["--env", "%s=%s" % (name, value)]
    explained = subprocess.run(own_command() + words, env=env, stdout=subprocess.PIPE)
    assert [(f["where"], f["lines"]) for f in json.loads(explained.stdout)["findings"][0]
            ["fixes"]] == [(where, expected)]
    # Before: no shell of this kind has a UTF-8 locale.
    _shells_see(home, shell, variables, fixed=False)
    # Applied where it says: every shell of this kind has one, and doctor there says ok.
    _apply(home, relative, top, expected)
    _shells_see(home, shell, variables, fixed=True, values=[("LANG", "C.UTF-8")])
    for through in kinds:
        assert_ok(*_doctor_started(env, no_container, "--no-pythons", through=through))
    # doctor --fix writes the same file.
    _fix_writes_the_same(tmp_path, shell, variables, no_container, home)


@pytest.mark.parametrize("problem", sorted(_SHELL_PROBLEMS))
@pytest.mark.parametrize("shell", sorted(_SHELLS))
def test_shell_fix_printed_when_that_shell_starts_doctor(shell, problem, tmp_path, no_container):
    """doctor typed at the shell's own prompt (started by `bash -i`, `sh -l`, `fish`...):
    the environment is what the stock start-up files made of the problem (fish exports
    LC_CTYPE=en_US.UTF-8 of its own when it inherits no locale variable:
    /usr/share/fish/functions/__fish_set_locale.fish); its fix, applied, holds."""
    _skip_without(shell)
    where, relative, top, kinds = _SHELLS[shell]
    variables = _SHELL_PROBLEMS[problem][0]
    home = stock_home(tmp_path / "home")
    env = _shell_env(home, shell, variables)
    code, data = _doctor_started(env, no_container, "--no-pythons", through=kinds[0])
    assert [c["name"] for c in data["contexts"]] == ["shell"] and code != 0, data
    [(_, fixes)] = fixes_of(data)
    # The first option (the user's own file; a second may install the missing locale).
    [first] = [f for f in fixes if f["option"] == 1]
    assert (first["context"], first["where"]) == ("shell", where), fixes
    lines = first["lines"]
    _shells_see(home, shell, variables, fixed=False)
    _apply(home, relative, top, lines)
    _shells_see(home, shell, variables, fixed=True)
    for through in kinds:
        assert_ok(*_doctor_started(env, no_container, "--no-pythons", through=through))
    _fix_writes_the_same(tmp_path, shell, variables, no_container, home, through=kinds[0])


_ZSH = "/usr/bin/zsh"
# ZDOTDIR's origin -> (~/.zshenv before any fix, ZDOTDIR in the environment zsh starts with?)
_ZDOTDIR_ORIGINS = {"environment": (None, True),
                    "zshenv": ('export ZDOTDIR="$HOME/.config/zsh"\n', False)}


def _zdotdir_home(folder, origin):
    """A stock HOME with a ZDOTDIR folder (~/.config/zsh), ZDOTDIR set as `origin` says;
    (home, the variables zsh starts with: the problem, LC_ALL=C, and ZDOTDIR or not)."""
    zshenv, exported = _ZDOTDIR_ORIGINS[origin]
    home = stock_home(folder)
    (home / ".config" / "zsh").mkdir(parents=True)
    if zshenv:
        (home / ".zshenv").write_text(zshenv)
    variables = {"LC_ALL": "C", "LANG": "C.UTF-8"}
    if exported:
        variables["ZDOTDIR"] = str(home / ".config" / "zsh")
    return home, variables


@pytest.mark.parametrize("origin", sorted(_ZDOTDIR_ORIGINS))
def test_zsh_fix_where_zdotdir_is_set(origin, tmp_path, no_container):
    """ZDOTDIR set in the environment zsh starts with: zsh reads $ZDOTDIR/.zshenv, not
    ~/.zshenv; set by ~/.zshenv: a new zsh reads ~/.zshenv only, one started from it (ZDOTDIR
    inherited) $ZDOTDIR/.zshenv only. The lines where doctor says, the end of both files,
    hold in every zsh start; either file alone does not; doctor --fix writes both."""
    _skip_without(_ZSH)
    where, relative, _, kinds = _SHELLS[_ZSH]
    home, variables = _zdotdir_home(tmp_path / "home", origin)
    zdotdir = home / ".config" / "zsh"
    env = _shell_env(home, _ZSH, variables)
    # doctor started by zsh -c: in the session, ZDOTDIR is set either way.
    code, data = _doctor_started(env, no_container, "--no-pythons", through=kinds[0])
    assert [c["name"] for c in data["contexts"]] == ["shell"] and code != 0, data
    assert _only_fix(data, "shell") == (where, ["unset LC_ALL"])
    inherited = dict(variables, ZDOTDIR=str(zdotdir))
    # The file zsh does not read, alone: no better.
    alone = relative if origin == "environment" else ".config/zsh/.zshenv"
    _apply(home, alone, False, ["unset LC_ALL"])
    _shells_see(home, _ZSH, variables, fixed=False)
    # Both, as printed: fixed for a new zsh and for one started with ZDOTDIR inherited.
    _apply(home, ".config/zsh/.zshenv" if alone == relative else relative, False,
           ["unset LC_ALL"])
    _shells_see(home, _ZSH, variables, fixed=True, values=[("LANG", "C.UTF-8")])
    if inherited != variables:
        _shells_see(home, _ZSH, inherited, fixed=True, values=[("LANG", "C.UTF-8")])
    for through in kinds:
        assert_ok(*_doctor_started(env, no_container, "--no-pythons", through=through))
    # doctor --fix, in a new such HOME, started by zsh -c: both files, as applied by hand.
    fresh, fresh_variables = _zdotdir_home(tmp_path / "fix-home", origin)
    result = subprocess.run(list(no_container) + _through(kinds[0]) + own_command() +
                            ["doctor", "--fix", "--no-pythons"],
                            env=_shell_env(fresh, _ZSH, fresh_variables), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=str(fresh))
    assert result.returncode == 0, result
    assert result.stdout.decode().rstrip().endswith("after, in a new session: ok"), result.stdout
    for name in (relative, ".config/zsh/.zshenv"):
        written = (fresh / name).read_text().split("\n")
        assert written.count(FIX_MARK) == 1, (name, written)
        written.remove(FIX_MARK)
        assert "\n".join(written) == (home / name).read_text(), name
    _shells_see(fresh, _ZSH, fresh_variables, fixed=True)
