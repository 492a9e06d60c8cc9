"""`utf8env doctor --fix`'s writing, on start-up files in a private HOME: the lines at the
top of ~/.bashrc (or the end of another file), the backup byte-identical to the old file,
a symlinked file changed where it points, nothing written twice, --dry-run writing
nothing, a file that cannot be written left whole with one line said, and $ZDOTDIR/.zshenv
written beside ~/.zshenv where ZDOTDIR is set. The fixes themselves are applied in real
places by tests/test_doctor_ssh.py, tests/test_places_cron.py and
tests/test_doctor_places.py (which starts every shell a fix is written for)."""
import os

import pytest

from utf8env._errors import UsageError
from utf8env.doctor import _repair as repair
from utf8env.doctor._finding_records import Finding
from utf8env.doctor._records import Fix

pytestmark = pytest.mark.fast

STOCK = b"# ~/.bashrc: executed by bash(1) for non-login shells.\ncase $- in\n    *i*) ;;\n" \
        b"      *) return;;\nesac\n"
MARK = b"# utf8env doctor --fix: a UTF-8 locale for every program\n"


def _finding(*fixes):
    return Finding("c-locale", "warning", "LC_CTYPE is the C locale", (), tuple(fixes))


LANG = (("LANG", "C.UTF-8"),)
BASHRC = Fix("the top of ~/.bashrc", ("export LANG=C.UTF-8",), "shell", 1, ("top", "~/.bashrc"),
             LANG)
PROFILE = Fix("~/.profile (login shells)", ("export LANG=C.UTF-8",), "shell", 1,
              ("end", "~/.profile"), LANG)
DOCKERFILE = Fix("the Dockerfile", ("ENV LANG=C.UTF-8",), "container", 1)


def test_the_first_option_the_user_can_apply_is_planned():
    usable = _finding(DOCKERFILE, PROFILE._replace(option=2))
    none = _finding(DOCKERFILE)
    note = Finding("pep686", "note", "3.15", (), ())
    assert repair.plan([usable, none, note]) == [(usable, [PROFILE._replace(option=2)]),
                                                 (none, None)]


def test_lines_go_to_the_top_of_bashrc_with_a_backup(tmp_path):
    (tmp_path / ".bashrc").write_bytes(STOCK)
    env = {"HOME": str(tmp_path)}
    [done] = repair.apply(repair.plan([_finding(BASHRC)]), env, dry_run=False)
    assert (done.target, done.lines, done.backup) == (
        "%s/.bashrc (at its top)" % tmp_path, ["export LANG=C.UTF-8"],
        "%s/.bashrc.utf8env-backup" % tmp_path)
    assert (tmp_path / ".bashrc").read_bytes() == MARK + b"export LANG=C.UTF-8\n" + STOCK
    assert (tmp_path / ".bashrc.utf8env-backup").read_bytes() == STOCK
    # Run again: the line is there, nothing is written, no second backup.
    assert repair.apply(repair.plan([_finding(BASHRC)]), env, dry_run=False) == []
    assert sorted(os.listdir(str(tmp_path))) == [".bashrc", ".bashrc.utf8env-backup"]


def test_the_end_of_a_file_and_a_file_that_did_not_exist(tmp_path):
    (tmp_path / ".profile").write_bytes(b"PATH=$HOME/bin:$PATH")     # no final newline
    [done] = repair.apply(repair.plan([_finding(PROFILE)]), {"HOME": str(tmp_path)}, False)
    assert (tmp_path / ".profile").read_bytes() == (b"PATH=$HOME/bin:$PATH\n" + MARK
                                                    + b"export LANG=C.UTF-8\n")
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    [done] = repair.apply(repair.plan([_finding(BASHRC)]), {"HOME": str(fresh)}, False)
    assert (done.backup, (fresh / ".bashrc").read_bytes()) == (
        None, MARK + b"export LANG=C.UTF-8\n")


def test_a_symlinked_bashrc_is_changed_where_it_points(tmp_path):
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "bashrc").write_bytes(STOCK)
    (tmp_path / ".bashrc").symlink_to(dotfiles / "bashrc")
    repair.apply(repair.plan([_finding(BASHRC)]), {"HOME": str(tmp_path)}, False)
    assert os.readlink(str(tmp_path / ".bashrc")) == str(dotfiles / "bashrc")
    assert (dotfiles / "bashrc").read_bytes() == MARK + b"export LANG=C.UTF-8\n" + STOCK
    assert (dotfiles / "bashrc.utf8env-backup").read_bytes() == STOCK


def test_dry_run_writes_nothing(tmp_path):
    (tmp_path / ".bashrc").write_bytes(STOCK)
    [done] = repair.apply(repair.plan([_finding(BASHRC)]), {"HOME": str(tmp_path)}, True)
    assert done.backup == "%s/.bashrc.utf8env-backup" % tmp_path
    assert os.listdir(str(tmp_path)) == [".bashrc"]
    assert (tmp_path / ".bashrc").read_bytes() == STOCK


def test_a_file_that_cannot_be_written_is_left_whole(tmp_path):
    (tmp_path / ".config").write_bytes(b"not a folder")
    fish = Fix("~/.config/fish/config.fish", ("set -gx LANG C.UTF-8",), "shell", 1,
               ("end", "~/.config/fish/config.fish"), LANG)
    with pytest.raises(UsageError) as raised:
        repair.apply(repair.plan([_finding(fish)]), {"HOME": str(tmp_path)}, False)
    assert str(raised.value) == (
        "--fix: %s/.config is a regular file, not a folder; nothing was changed" % tmp_path)
    assert (tmp_path / ".config").read_bytes() == b"not a folder"


def test_a_relative_home_is_refused():
    with pytest.raises(UsageError) as raised:
        repair.apply(repair.plan([_finding(BASHRC)]), {"HOME": "home"}, False)
    assert str(raised.value) == ("--fix: HOME='home' is not an absolute path: no start-up "
                                 "file to change")


def test_the_environment_of_a_new_session():
    changes = (("LANG", "C.UTF-8"), ("LC_ALL", None))
    planned = repair.plan([_finding(BASHRC._replace(
        lines=("export LANG=C.UTF-8", "unset LC_ALL"), changes=changes))])
    assert repair.changed_environ({"LC_ALL": "C", "HOME": "/h"}, planned) == {
        "HOME": "/h", "LANG": "C.UTF-8"}


def test_options_and_their_steps_as_text():
    from utf8env.doctor._verdict import fix_lines
    install = Fix("as root, install C.UTF-8", ("locale-gen",), "install", 1)
    assert fix_lines([install, BASHRC, PROFILE._replace(option=2)]) == [
        "        fix, any one of:",
        "        1. all of:",
        "           a. as root, install C.UTF-8:",
        "               locale-gen",
        "           b. the top of ~/.bashrc:",
        "               export LANG=C.UTF-8",
        "        2. ~/.profile (login shells):",
        "               export LANG=C.UTF-8"]
    assert fix_lines([BASHRC]) == ["        fix: the top of ~/.bashrc:",
                                   "            export LANG=C.UTF-8"]
    assert fix_lines([]) == []


def test_crontab_lines_go_just_above_the_first_job():
    """A crontab's own LC_ALL=C above its job would win over a line at the top (the later
    of two settings does, measured in tests/test_doctor_cron.py): the block goes just
    above the first job, after the crontab's comments and settings."""
    block = b"# utf8env doctor --fix: ...\nLC_ALL=\"\"\n"
    crontab = b"# m h dom mon dow command\nLC_ALL=C\n LANG = C.UTF-8\n* * * * * job\nX=1\n@daily two\n"
    assert repair._above_first_job(crontab, block) == (
        b"# m h dom mon dow command\nLC_ALL=C\n LANG = C.UTF-8\n" + block
        + b"* * * * * job\nX=1\n@daily two\n")
    assert repair._above_first_job(b"", block) == block
    assert repair._above_first_job(b"A=1", block) == b"A=1\n" + block


def test_another_users_start_up_file_is_not_written(tmp_path):
    """root with another user's HOME (sudo without -H): that user's ~/.bashrc would end
    up owned by root. Refused in one line, the file untouched."""
    if os.geteuid() != 0:
        pytest.skip("only root can make a file of another user's here")
    (tmp_path / ".bashrc").write_bytes(STOCK)
    os.chown(str(tmp_path / ".bashrc"), 65534, 65534)
    with pytest.raises(UsageError) as raised:
        repair.apply(repair.plan([_finding(BASHRC)]), {"HOME": str(tmp_path)}, False)
    assert str(raised.value) == ("--fix: %s/.bashrc belongs to uid 65534, not to uid 0, whom "
                                 "the fix is for; nothing was changed" % tmp_path)
    assert (tmp_path / ".bashrc").read_bytes() == STOCK
    assert os.listdir(str(tmp_path)) == [".bashrc"]


ZSHENV = Fix("~/.zshenv", ("unset LC_ALL",), "shell", 1, ("end", "~/.zshenv"),
             (("LC_ALL", None),))


def test_zshenv_and_zdotdirs_where_zdotdir_is_set(tmp_path):
    """zsh started with ZDOTDIR reads $ZDOTDIR/.zshenv instead of ~/.zshenv; where
    ~/.zshenv sets it, a new session reads only ~/.zshenv: both are written (measured
    with zsh in tests/test_doctor_places.py). ZDOTDIR unset, empty, relative or HOME: one."""
    zdotdir = tmp_path / ".config" / "zsh"
    env = {"HOME": str(tmp_path), "ZDOTDIR": str(zdotdir)}
    done = repair.apply(repair.plan([_finding(ZSHENV)]), env, dry_run=False)
    assert [(d.target, d.lines, d.backup) for d in done] == [
        ("%s/.zshenv (at its end)" % tmp_path, ["unset LC_ALL"], None),
        ("%s/.zshenv (at its end)" % zdotdir, ["unset LC_ALL"], None)]
    assert (tmp_path / ".zshenv").read_bytes() == (zdotdir / ".zshenv").read_bytes() == (
        MARK + b"unset LC_ALL\n")
    for value in ("", "rel/zsh", str(tmp_path), str(tmp_path) + "/"):
        home = tmp_path / ("home-%d" % len(value))
        home.mkdir()
        env = {"HOME": str(home), "ZDOTDIR": value.replace(str(tmp_path), str(home))}
        [done] = repair.apply(repair.plan([_finding(ZSHENV)]), env, dry_run=False)
        assert done.target == "%s/.zshenv (at its end)" % home, value
    # Another start-up file is the one file, ZDOTDIR or not.
    [done] = repair.apply(repair.plan([_finding(PROFILE)]), dict(env, ZDOTDIR=str(zdotdir)),
                          dry_run=False)
    assert done.target.endswith("/.profile (at its end)")


@pytest.mark.parametrize("shell", ["/bin/ksh", "/usr/bin/mksh", "/bin/tcsh", "/bin/csh",
                                   "/usr/bin/xonsh", "/usr/sbin/nologin"])
def test_no_shell_fix_for_a_shell_no_test_started(shell):
    """Only bash, sh, dash, zsh and fish were started by a test with their fix applied
    (tests/test_doctor_places.py): another SHELL gets no start-up file line (csh and tcsh
    read no ~/.profile and have no `export`), here and in an ssh session."""
    from utf8env.doctor._records import Context
    from utf8env.doctor._fixes import Remedy, for_remedies
    remedy = Remedy(changes=(("LANG", "C.UTF-8"),))
    assert for_remedies([remedy], (), {"shell": shell}) == ()
    context = Context("shell", "not a terminal", (), {"shell": shell, "interactive": False})
    assert for_remedies([remedy], (context,), {}) == ()
    ssh = Context("ssh", "ssh session", (), {"forwarded": {}, "from_pam": (), "shell": shell})
    assert for_remedies([remedy], (ssh,), {}) == ()
    for known in ("/bin/sh", "/bin/dash", "/bin/bash", "/usr/bin/zsh", "/usr/bin/fish"):
        assert [f.context for f in for_remedies([remedy], (), {"shell": known})] == ["shell"]


# -- what --fix says after writing (doctor/_session.py, doctor/_cli.py) --------------------

def _context(name, **details):
    from utf8env.doctor._records import Context
    return Context(name, name, (), details)


@pytest.mark.parametrize("name,details,said", [
    ("cron", {}, "cron starts its jobs itself: a job running `utf8env doctor` (crontab -e) "
                 "says it at its next run"),
    ("ssh", {}, "a new ssh session starts at the client: `ssh HOST utf8env doctor` there "
                "says it"),
    ("systemd", {"unit": "app.service"}, "the service starts under systemd: after "
                                          "`systemctl restart app.service`, `utf8env doctor` "
                                          "in its ExecStart= says it"),
    ("systemd", {"unit": None}, "the service starts under systemd: after `systemctl restart "
                                "UNIT`, `utf8env doctor` in its ExecStart= says it"),
    ("server", {}, "the server starts its apps itself: after a restart, `utf8env doctor` run "
                   "by the app says it"),
    ("ci", {}, "the CI service starts its jobs: a job running `utf8env doctor` says it"),
    ("container", {}, "a container starts from its image: `docker run --rm IMAGE utf8env "
                      "doctor` after the next build says it"),
    ("sudo", {"user": "u"}, "a sudo session starts from the user who runs sudo: `sudo "
                            "utf8env doctor` there says it"),
    ("su", {"login": True}, "an su session starts with a password: `su - USER -c 'utf8env "
                            "doctor'` says it"),
    ("su", {"login": False}, "an su session starts with a password: `su USER -c 'utf8env "
                             "doctor'` says it"),
    ("at", {}, "atd starts its jobs itself: `echo 'utf8env doctor' | at now` says it (in the "
               "mail of its output)"),
    ("tmux", {"socket": "/tmp/tmux-0/default"}, "a tmux window starts from the tmux server: "
                                                "start a new tmux window and run `utf8env "
                                                "doctor`"),
    ("screen", {}, "a screen window starts from the screen session: start a new window "
                   "(C-a c) and run `utf8env doctor`"),
    ("command", {}, "the command was started without a start-up file: run `utf8env doctor` "
                    "the way it was started (in its place on that command line)"),
    ("launchd", {}, "doctor cannot start a new session of this kind (launchd): start one and "
                    "run `utf8env doctor` in it"),
    ("shell", {"shell": "/bin/ksh"}, "no test has started /bin/ksh's sessions: start a new "
                                     "one and run `utf8env doctor` in it"),
])
def test_what_cannot_be_started_is_not_checked(name, details, said):
    from utf8env.doctor import _session as session
    after = session.check(_context(name, **details), {"HOME": "/nonexistent"}, [])
    assert (after.checked, after.verdict, after.problems, after.sessions, after.not_checked) \
        == (False, None, None, (), said)
    assert session.check(_context("shell", shell="/bin/bash"), {}, [], dry_run=True) \
        .not_checked == session.DRY_RUN


def test_the_text_and_json_of_fix_say_the_same():
    from utf8env.doctor import _cli as cli, _session as session
    from utf8env.doctor._finding_records import Diagnosis
    finding = _finding(DOCKERFILE)
    diagnosis = Diagnosis(None, (), (), (), (finding,), None)
    done = [repair.Applied("/h/.bashrc", "top", ["export LANG=C.UTF-8"],
                           "/h/.bashrc.utf8env-backup"),
            repair.Applied(None, "above the first job", ['LC_ALL=""'], None)]
    seen = session.After(sessions=(session.Seen("bash -i -c", "ok", 0),
                                   session.Seen("bash -l -c", "1 problem", 1)))
    assert cli.fix_text(diagnosis, done, [finding], seen, False) == (
        "before: 1 problem\n\nchanged:\n"
        "  /h/.bashrc (at its top), backup in /h/.bashrc.utf8env-backup\n"
        "      export LANG=C.UTF-8\n"
        "  the crontab (above its first job)\n"
        "      LC_ALL=\"\"\n\n"
        "not the user's to change (each problem's first fix):\n"
        "  LC_CTYPE is the C locale\n"
        "        fix: the Dockerfile:\n"
        "            ENV LANG=C.UTF-8\n\n"
        "new sessions: bash -i -c: ok; bash -l -c: 1 problem\n"
        "after, in a new session: 1 problem\n")
    assert cli.fix_object(diagnosis, done, [finding], seen, False) == {
        "schema": 1, "dry_run": False, "before": {"verdict": "1 problem", "problems": 1},
        "changed": [{"file": "/h/.bashrc", "position": "top",
                     "lines": ["export LANG=C.UTF-8"], "backup": "/h/.bashrc.utf8env-backup"},
                    {"file": None, "position": "above the first job", "lines": ['LC_ALL=""'],
                     "backup": None}],
        "not_the_users": [{"code": "c-locale", "severity": "warning",
                           "title": "LC_CTYPE is the C locale", "evidence": [], "shared": None,
                           "fixes": [{"option": 1, "where": "the Dockerfile",
                                      "context": "container", "lines": ["ENV LANG=C.UTF-8"]}]}],
        "after": {"checked": True, "verdict": "1 problem", "problems": 1,
                  "sessions": [{"invocation": "bash -i -c", "verdict": "ok", "problems": 0},
                               {"invocation": "bash -l -c", "verdict": "1 problem",
                                "problems": 1}],
                  "not_checked": None}}
    cron = session.After(not_checked=session.NOT_STARTED["cron"])
    assert cli.fix_text(diagnosis, [], [], cron, False).endswith(
        "changed:\n  nothing\n\nafter, in a new session: not checked: cron starts its jobs "
        "itself: a job running `utf8env doctor` (crontab -e) says it at its next run\n")
    assert cli.fix_object(diagnosis, [], [], cron, False)["after"] == {
        "checked": False, "verdict": None, "problems": None, "sessions": [],
        "not_checked": session.NOT_STARTED["cron"]}


def test_one_shared_error_lists_the_same_options_plain_and_verbose():
    """A Python 3.6 error whose locale fix is the warning's (said once, there) and whose
    own fix is `utf8env run`: the plain text names that fix and counts the other one, the
    verbose text names both, and the JSON's evidence says the locale fix removes it."""
    from utf8env.doctor._verdict import finding_object, verdict_lines
    wrap = Fix("the Dockerfile's ENTRYPOINT", ('ENTRYPOINT ["utf8env", "run", "--", "py36"]',),
               "container", 1)
    error = Finding("print-fails", "error", "print fails on 3.6",
                    ("the locale finding's fix makes it go away (decide() with LANG=C.UTF-8)",),
                    (wrap,), shared="c-locale")
    warning = _finding(DOCKERFILE)
    plain = verdict_lines([error, warning], verbose=False)
    verbose = verdict_lines([error, warning], verbose=True)
    assert plain[:5] == [
        "2 problems", "", "error   print fails on 3.6",
        "        fix: the first fix of the warning below (c-locale)",
        "        (or 1 other fix, and the evidence: utf8env doctor --verbose)"]
    assert verbose[:7] == [
        "2 problems", "", "error   print fails on 3.6",
        "        - the locale finding's fix makes it go away (decide() with LANG=C.UTF-8)",
        "        fix: the first fix of the warning below (c-locale)",
        "        or: the Dockerfile's ENTRYPOINT:",
        '            ENTRYPOINT ["utf8env", "run", "--", "py36"]']
    data = finding_object(error)
    assert [f["where"] for f in data["fixes"]] == ["the Dockerfile's ENTRYPOINT"]
    assert data["evidence"][-1].startswith("the locale finding's fix makes it go away")


def test_links_are_followed_as_the_kernel_does_and_a_loop_ends(tmp_path):
    """`..` after a link is the physical parent (the folder the link's target is in), as
    open(2) has it; a link loop ends at 40 links (SYMLOOP_MAX) in one line."""
    (tmp_path / "dot").mkdir()
    (tmp_path / "dot" / "deep").mkdir()
    (tmp_path / "dot" / "bashrc").write_bytes(STOCK)
    (tmp_path / "shortcut").symlink_to("dot/deep")
    (tmp_path / ".bashrc").symlink_to("shortcut/../bashrc")
    [done] = repair.apply(repair.plan([_finding(BASHRC)]), {"HOME": str(tmp_path)}, False)
    assert done.backup == "%s/dot/bashrc.utf8env-backup" % tmp_path
    assert (tmp_path / "dot" / "bashrc").read_bytes() == MARK + b"export LANG=C.UTF-8\n" + STOCK
    loop = tmp_path / "loop"
    loop.mkdir()
    (loop / ".bashrc").symlink_to(".bashrc")
    with pytest.raises(UsageError) as raised:
        repair.apply(repair.plan([_finding(BASHRC)]), {"HOME": str(loop)}, False)
    assert str(raised.value) == ("--fix: %s/.bashrc: more than 40 links on the way; nothing "
                                 "was changed" % loop)
