"""`doctor --fix` never writes across owners (src/utf8env/doctor/_owned.py): as root with
a real user's HOME (useradd), it writes that user's own files as that user, follows a
link only where the link and every folder on its way are the user's (a dotfiles
checkout), and refuses in one line, writing nothing, a link into a root-owned file or
folder, a folder or link of another user's on the way, a hard link, a FIFO in place of
~/.bashrc, a folder every user may write; a user with another user's HOME is refused.
Then, through the command in a root without /.dockerenv (the shell context,
tests/support/shell_roots.py), the new sessions --fix starts are that user's.

The users' homes are in one folder of /home made for this module (a user must be able to
reach its home: tmp_path's folders are root's alone), removed with the users at the end."""
import json
import os
import shutil
import stat
import subprocess

import pytest

from utf8env._errors import UsageError
from utf8env.doctor import _owned as owned, _repair as repair
from utf8env.doctor._finding_records import Finding
from utf8env.doctor._records import Fix

from support import machine
from support.fixtures import no_container  # noqa: F401 (a fixture)

STOCK = b"# ~/.bashrc: executed by bash(1) for non-login shells.\ncase $- in\n    *i*) ;;\n" \
        b"      *) return;;\nesac\n"
MARK = b"# utf8env doctor --fix: a UTF-8 locale for every program\n"
LANG = (("LANG", "C.UTF-8"),)
BASHRC = Fix("the top of ~/.bashrc", ("export LANG=C.UTF-8",), "shell", 1, ("top", "~/.bashrc"),
             LANG)
FISH = Fix("~/.config/fish/config.fish", ("set -gx LANG C.UTF-8",), "shell", 1,
           ("end", "~/.config/fish/config.fish"), LANG)
PLAN = repair.plan([Finding("c-locale", "warning", "C", (), (BASHRC,))])
FISH_PLAN = repair.plan([Finding("c-locale", "warning", "C", (), (FISH,))])
NOTHING = "; nothing was changed"


class User(object):
    def __init__(self, name):
        import pwd
        entry = pwd.getpwnam(name)
        self.name, self.uid, self.gid = name, entry.pw_uid, entry.pw_gid


@pytest.fixture(scope="module")
def users():
    """Two real users (useradd), and the root-owned folder of /home their homes go in."""
    machine.root("useradd: real users")
    useradd = machine.command("useradd", "passwd")
    base = "/home/utf8env-owners-%d" % os.getpid()
    names = ["u8o%da" % (os.getpid() % 100000), "u8o%db" % (os.getpid() % 100000)]
    made = []
    os.mkdir(base, 0o755)
    try:
        for name in names:
            subprocess.run([useradd, "--no-create-home", "--user-group", "--home-dir",
                            "/nonexistent", "--shell", "/bin/bash", name], check=True,
                           stdout=subprocess.DEVNULL)
            made.append(name)
        yield base, User(names[0]), User(names[1])
    finally:
        for name in made:
            subprocess.run([machine.command("userdel", "passwd"), name],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(base)


@pytest.fixture
def place(users, request):
    """(base, user, other, home): a fresh home of `user`'s with Debian's stock-like
    ~/.bashrc of theirs, and a root-owned file `base`/root-bashrc."""
    base, user, other = users
    folder = os.path.join(base, request.node.name.replace("[", "-").replace("]", ""))
    os.mkdir(folder, 0o755)
    home = os.path.join(folder, "home")
    os.mkdir(home, 0o755)
    _file(os.path.join(home, ".bashrc"), STOCK, user)
    os.chown(home, user.uid, user.gid)
    with open(os.path.join(folder, "root-bashrc"), "wb") as f:
        f.write(STOCK)
    yield folder, user, other, home
    shutil.rmtree(folder)


def _file(path, content, user):
    with open(path, "wb") as f:
        f.write(content)
    os.chown(path, user.uid, user.gid)


def _link(target, path, user):
    os.symlink(target, path)
    os.lchown(path, user.uid, user.gid)


def _refused(plan, home):
    with pytest.raises(UsageError) as raised:
        repair.apply(plan, {"HOME": home}, dry_run=False)
    return str(raised.value)


def _tree(folder):
    """Every name under `folder` with its owner, type and bytes: to show nothing changed."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(root, name)
            st = os.lstat(path)
            content = None
            if stat.S_ISREG(st.st_mode):
                with open(path, "rb") as f:
                    content = f.read()
            out[path] = (st.st_uid, stat.S_IFMT(st.st_mode), content)
    return out


def test_root_writes_a_users_own_bashrc_as_that_user(place):
    folder, user, _, home = place
    [done] = repair.apply(PLAN, {"HOME": home}, dry_run=False)
    assert (done.target, done.backup) == ("%s/.bashrc (at its top)" % home,
                                          "%s/.bashrc.utf8env-backup" % home)
    with open(os.path.join(home, ".bashrc"), "rb") as f:
        assert f.read() == MARK + b"export LANG=C.UTF-8\n" + STOCK
    for name in (".bashrc", ".bashrc.utf8env-backup"):
        st = os.lstat(os.path.join(home, name))
        assert (st.st_uid, st.st_gid, stat.S_ISREG(st.st_mode)) == (user.uid, user.gid, True)


def test_a_dotfiles_link_all_the_users_own_is_followed(place):
    """~/.bashrc -> dotfiles/bashrc (relative, as GNU stow makes them): the link, the
    folders on its way and the file are the user's, so the file is changed where it
    points, the link left a link."""
    folder, user, _, home = place
    dotfiles = os.path.join(home, "dotfiles")
    os.mkdir(dotfiles)
    os.chown(dotfiles, user.uid, user.gid)
    os.rename(os.path.join(home, ".bashrc"), os.path.join(dotfiles, "bashrc"))
    _link("dotfiles/bashrc", os.path.join(home, ".bashrc"), user)
    [done] = repair.apply(PLAN, {"HOME": home}, dry_run=False)
    assert done.backup == "%s/bashrc.utf8env-backup" % dotfiles
    assert os.readlink(os.path.join(home, ".bashrc")) == "dotfiles/bashrc"
    with open(os.path.join(dotfiles, "bashrc"), "rb") as f:
        assert f.read() == MARK + b"export LANG=C.UTF-8\n" + STOCK
    assert os.lstat(os.path.join(dotfiles, "bashrc")).st_uid == user.uid


def test_a_link_into_a_root_owned_file_is_refused(place):
    """The issue's case: u's ~/.bashrc a link (u's own) to a file of root's, in root's
    folder, or in u's own folder: refused, the root file untouched, no backup made."""
    folder, user, _, home = place
    os.unlink(os.path.join(home, ".bashrc"))
    _link(os.path.join(folder, "root-bashrc"), os.path.join(home, ".bashrc"), user)
    before = _tree(folder)
    assert _refused(PLAN, home) == (
        "--fix: the folder %s (where %s/.bashrc points) belongs to uid 0, not to uid %d, "
        "whom the fix is for" % (folder, home, user.uid) + NOTHING)
    assert _tree(folder) == before
    # The same file, hard-linked by root into the user's home, and linked from ~/.bashrc.
    os.link(os.path.join(folder, "root-bashrc"), os.path.join(home, "rootfile"))
    os.unlink(os.path.join(home, ".bashrc"))
    _link("rootfile", os.path.join(home, ".bashrc"), user)
    before = _tree(folder)
    assert _refused(PLAN, home) == (
        "--fix: %s/rootfile (where %s/.bashrc points) belongs to uid 0, not to uid %d, whom "
        "the fix is for" % (home, home, user.uid) + NOTHING)
    assert _tree(folder) == before


def test_a_hard_link_is_refused(place):
    """A second name for ~/.bashrc keeps the old text once a new copy is renamed over
    it: refused, whoever owns it (root's own hard link to a root file: refused too)."""
    folder, user, _, home = place
    os.link(os.path.join(home, ".bashrc"), os.path.join(home, "copy"))
    before = _tree(folder)
    assert _refused(PLAN, home) == (
        "--fix: %s/.bashrc has 2 hard links: a new copy renamed over it would leave the "
        "other names with the old text" % home + NOTHING)
    assert _tree(folder) == before
    os.unlink(os.path.join(home, "copy"))
    os.unlink(os.path.join(home, ".bashrc"))
    os.link(os.path.join(folder, "root-bashrc"), os.path.join(home, ".bashrc"))
    assert _refused(PLAN, home) == (
        "--fix: %s/.bashrc belongs to uid 0, not to uid %d, whom the fix is for"
        % (home, user.uid) + NOTHING)


def test_a_fifo_in_place_of_bashrc_is_refused_at_once(place):
    folder, user, _, home = place
    os.unlink(os.path.join(home, ".bashrc"))
    os.mkfifo(os.path.join(home, ".bashrc"))
    os.chown(os.path.join(home, ".bashrc"), user.uid, user.gid)
    before = _tree(folder)
    assert _refused(PLAN, home) == (
        "--fix: %s/.bashrc is a FIFO, not a regular file" % home + NOTHING)
    assert _tree(folder) == before


def test_a_folder_or_link_of_another_users_on_the_way_is_refused(place):
    folder, user, other, home = place
    config = os.path.join(home, ".config")
    os.mkdir(config)
    os.chown(config, other.uid, other.gid)
    before = _tree(folder)
    assert _refused(FISH_PLAN, home) == (
        "--fix: the folder %s belongs to uid %d, not to uid %d, whom the fix is for"
        % (config, other.uid, user.uid) + NOTHING)
    # Root's folder under the user's: root hands paths to users, never the other way.
    os.chown(config, 0, 0)
    assert _refused(FISH_PLAN, home) == (
        "--fix: the folder %s belongs to uid 0, not to uid %d, whom the fix is for"
        % (config, user.uid) + NOTHING)
    # ~/.config a link of the user's to a folder of root's where nothing is yet: no
    # folder is made there.
    os.rmdir(config)
    _link(folder, config, user)
    assert _refused(FISH_PLAN, home) == (
        "--fix: the folder %s (where %s/fish/config.fish points) belongs to uid 0, not to "
        "uid %d, whom the fix is for" % (folder, config, user.uid) + NOTHING)
    assert not os.path.lexists(os.path.join(folder, "fish"))
    os.unlink(config)
    os.mkdir(config)
    # A folder of the user's that every user may write (no sticky bit).
    os.chown(config, user.uid, user.gid)
    os.chmod(config, 0o777)
    assert _refused(FISH_PLAN, home) == (
        "--fix: the folder %s can be written by every user (no sticky bit): what is in it "
        "could be replaced" % config + NOTHING)
    # ~/.bashrc a link of the other user's (or root's) in the user's home.
    os.unlink(os.path.join(home, ".bashrc"))
    _link("copy", os.path.join(home, ".bashrc"), other)
    _file(os.path.join(home, "copy"), STOCK, user)
    assert _refused(PLAN, home) == (
        "--fix: the link %s/.bashrc belongs to uid %d, not to uid %d, whom the fix is for"
        % (home, other.uid, user.uid) + NOTHING)
    # A link of the user's into the other user's home.
    other_home = os.path.join(folder, "other")
    os.mkdir(other_home, 0o755)
    _file(os.path.join(other_home, "bashrc"), STOCK, other)
    os.chown(other_home, other.uid, other.gid)
    os.unlink(os.path.join(home, ".bashrc"))
    _link(os.path.join(other_home, "bashrc"), os.path.join(home, ".bashrc"), user)
    before = _tree(folder)
    assert _refused(PLAN, home) == (
        "--fix: the folder %s (where %s/.bashrc points) belongs to uid %d, not to uid %d, "
        "whom the fix is for" % (other_home, home, other.uid, user.uid) + NOTHING)
    assert _tree(folder) == before


def test_a_user_with_another_users_home_is_refused(place):
    """Not root: HOME's owner is another user: refused before anything is looked at."""
    folder, user, other, home = place
    before = _tree(folder)
    with pytest.raises(UsageError) as raised:
        owned.as_user(other.uid, other.gid,
                      lambda: repair.apply(PLAN, {"HOME": home}, dry_run=False))
    assert str(raised.value) == (
        "--fix: HOME=%s belongs to uid %d, not to this user (uid %d): run doctor --fix as "
        "its owner" % (home, user.uid, other.uid) + NOTHING)
    assert _tree(folder) == before


def _readable_copy(base):
    """A copy of this checkout's package in `base` (searchable by all), started as
    own_command starts it: the user's new sessions must be able to read the utf8env
    that starts them, and a checkout may lie in a folder of root's alone (/root, a
    private mktemp -d)."""
    from utf8env import _own_command
    copy = os.path.join(base, "src")
    if not os.path.isdir(copy):
        package = os.path.dirname(os.path.abspath(_own_command.__file__))
        shutil.copytree(package, os.path.join(copy, "utf8env"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        os.chmod(copy, 0o755)
    return ["/usr/bin/python3", "-I", "-S", "-c", _own_command._START, copy]


def _doctor(no_container, home, *args):
    """doctor ARGS as root with the user's HOME, in the shell context, by the system's
    python3 (which the user's new sessions can start: /root is root's alone)."""
    env = {"HOME": home, "XDG_CACHE_HOME": home + "/.cache", "PATH": "/usr/bin:/bin",
           "SHELL": "/bin/bash"}
    base = os.path.dirname(os.path.dirname(home))
    result = subprocess.run(list(no_container) + _readable_copy(base)
                            + ["doctor"] + list(args), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd="/")
    return result.returncode, result.stdout.decode(), result.stderr.decode()


def test_the_command_as_root_writes_and_checks_as_the_user(place, no_container):
    """As root with u's HOME: the line written as u, the new sessions started as u (an
    interactive one started as root would get LC_ALL=C from u's ~/.bashrc here), "ok"
    measured; through a link into root's file: one line, status 2, nothing written."""
    if not os.access("/usr/bin/python3", os.X_OK):
        pytest.skip("no /usr/bin/python3 (apt-get install python3): a Python the user can run")
    folder, user, _, home = place
    with open("/etc/skel/.profile", "rb") as f:
        _file(os.path.join(home, ".profile"), f.read(), user)
    # An interactive session not started as the user would get LC_ALL=C: 1 problem.
    _file(os.path.join(home, ".bashrc"), STOCK + b'[ "$(id -u)" = %d ] || export LC_ALL=C\n'
          % user.uid, user)
    code, out, err = _doctor(no_container, home, "--fix", "--no-pythons")
    assert (code, out, err) == (0, "before: 1 problem\n\nchanged:\n"
                                   "  %s/.bashrc (at its top), backup in %s/.bashrc.utf8env-backup\n"
                                   "      export LANG=C.UTF-8\n\n"
                                   "new sessions: bash -i -c: ok; bash -l -c: ok\n"
                                   "after, in a new session: ok\n" % (home, home), "")
    assert {n: os.lstat(os.path.join(home, n)).st_uid for n in os.listdir(home)} == {
        ".bashrc": user.uid, ".bashrc.utf8env-backup": user.uid, ".profile": user.uid}
    os.unlink(os.path.join(home, ".bashrc"))
    _link(os.path.join(folder, "root-bashrc"), os.path.join(home, ".bashrc"), user)
    before = _tree(folder)
    code, out, err = _doctor(no_container, home, "--fix", "--no-pythons")
    assert (code, out, err) == (2, "", (
        "utf8env: error: --fix: the folder %s (where %s/.bashrc points) belongs to uid 0, "
        "not to uid %d, whom the fix is for; nothing was changed\n" % (folder, home, user.uid)))
    assert _tree(folder) == before


def _documented(section):
    """{key: [the {"a", "b"} groups of its value, each a set]} of a table in docs/json.md."""
    import re
    page = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs",
                        "json.md")
    with open(page, encoding="utf-8") as f:
        text = f.read()
    table = text.split("## `%s`" % section, 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in table.splitlines():
        if line.startswith("| `"):
            keys, value = line.split(" | ", 1)
            groups = [set(re.findall(r'"([a-z_]+)"', group))
                      for group in re.findall(r"\{([^{}]*)\}", value)]
            for key in re.findall(r"`([a-z_]+)`", keys):
                out[key] = groups
    return out


def test_fix_json_is_as_documented(place, no_container):
    """doctor --fix --json as root with u's HOME, in the shell context: the object
    whole, its keys those docs/json.md names. This HOME has a ~/.bashrc and no
    ~/.profile: a login bash reads neither (bash(1) INVOCATION: ~/.bash_profile,
    ~/.bash_login, ~/.profile), so the line at the top of ~/.bashrc does not reach it, and
    the verdict --fix prints is the one it saw there: 1 problem (a prediction said ok)."""
    if not os.access("/usr/bin/python3", os.X_OK):
        pytest.skip("no /usr/bin/python3 (apt-get install python3): a Python the user can run")
    folder, user, _, home = place
    code, out, err = _doctor(no_container, home, "--fix", "--json", "--no-pythons")
    data = json.loads(out)
    assert (code, err) == (1, ""), out
    assert data == {
        "schema": 1, "dry_run": False, "before": {"verdict": "1 problem", "problems": 1},
        "changed": [{"file": "%s/.bashrc" % home, "position": "top",
                     "lines": ["export LANG=C.UTF-8"],
                     "backup": "%s/.bashrc.utf8env-backup" % home}],
        "not_the_users": [],
        "after": {"checked": True, "verdict": "1 problem", "problems": 1, "sessions": [
            {"invocation": "bash -i -c", "verdict": "ok", "problems": 0},
            {"invocation": "bash -l -c", "verdict": "1 problem", "problems": 1}],
            "not_checked": None}}
    documented = _documented("utf8env doctor --fix --json")
    assert set(documented) == set(data)
    assert documented["before"] == [set(data["before"])]
    assert documented["changed"] == [set(data["changed"][0])]
    assert documented["after"] == [set(data["after"]), set(data["after"]["sessions"][0])]
    # The text says the same.
    code, out, _ = _doctor(no_container, home, "--fix", "--no-pythons")
    assert (code, out) == (1, "before: 1 problem\n\nchanged:\n  nothing\n\nnew sessions: "
                              "bash -i -c: ok; bash -l -c: 1 problem\nafter, in a new "
                              "session: 1 problem\n")
    # --dry-run: nothing written, nothing checked.
    code, out, _ = _doctor(no_container, home, "--fix", "--dry-run", "--no-pythons")
    assert (code, out) == (3, "before: 1 problem\n\nwould change:\n  nothing\n\nafter, in a "
                              "new session: not checked: --dry-run changes nothing: `utf8env "
                              "doctor --fix` writes the lines and starts a new session\n")


@pytest.mark.parametrize("rc,said", [
    (b"export LANG=C.UTF-8\n", ("ok", "ok")),
    (b"", ("1 problem", "1 problem")),
    (b"exit 7\n", "bash -i -c ended with status 7 and no verdict (its last line: nothing)"),
])
def test_the_new_sessions_are_started_and_asked(tmp_path, rc, said):
    """session.check() for bash starts `bash -i -c` and `bash -l -c` for real, each
    running doctor: what they say is what they saw (here, with /.dockerenv or not, no
    locale variable is a problem and LANG=C.UTF-8 from ~/.bashrc is none); a session that
    ends without a verdict is 'not checked', with its status."""
    from utf8env.doctor import _session as session
    from utf8env.doctor._records import Context
    (tmp_path / ".bashrc").write_bytes(rc)
    (tmp_path / ".profile").write_bytes(b". ~/.bashrc\n")
    env = {"HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / ".cache"),
           "PATH": "/usr/bin:/bin", "SHELL": "/bin/bash"}
    after = session.check(Context("shell", "not a terminal", (), {"shell": "/bin/bash"}),
                          env, ["--no-pythons"])
    if isinstance(said, str):
        assert (after.checked, after.not_checked) == (False, said)
    else:
        assert [(s.invocation, s.verdict) for s in after.sessions] == [
            ("bash -i -c", said[0]), ("bash -l -c", said[1])]
        assert after.verdict == said[0]
