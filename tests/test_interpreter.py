"""The one identification of an interpreter, and its cache: asked once per file, asked
again when the file changes, never written without an absolute home for it, nor into a
folder or through a symlink of another user's (root with another user's HOME)."""
import os

import pytest

from utf8env._errors import InterpreterError
from utf8env._interpreter import Identity, identify, identify_cached, identify_modelled

# The fast tier (`python3 -m pytest -m fast`): pure, no real interpreters, worlds or daemons.
pytestmark = pytest.mark.fast

# A stand-in interpreter that answers the question as CPython X.Y would, and counts.
FAKE = """#!/bin/sh
echo asked >> "{log}"
printf '{answer}'
"""


def fake(tmp_path, answer, name="python3"):
    path = tmp_path / name
    log = tmp_path / (name + ".log")
    path.write_text(FAKE.format(log=log, answer=answer))
    path.chmod(0o755)
    return str(path), log


def _home(tmp_path):
    """A HOME of this user's (a missing one gets no cache)."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return str(home)


def asked(log):
    return log.read_text().count("asked") if log.exists() else 0


def test_identify_any_python_and_refuse_unmodelled(tmp_path):
    path, _ = fake(tmp_path, "2.7 linux2")
    assert identify(path, {"PATH": "/usr/bin:/bin"}) == Identity("2.7", "linux")
    with pytest.raises(InterpreterError) as error:
        identify_modelled(path, {"PATH": "/usr/bin:/bin"})
    assert str(error.value) == ("interpreter %r is Python 2.7: utf8env models CPython 3.6 to 3.15"
                                % path)


def test_identify_refuses_what_is_not_a_python(tmp_path):
    path, _ = fake(tmp_path, "hello")
    with pytest.raises(InterpreterError) as error:
        identify(path, {"PATH": "/usr/bin:/bin"})
    assert str(error.value) == "interpreter %r: not a Python (it answered 'hello')" % path


def test_cache_asks_once_and_again_when_the_file_changes(tmp_path):
    path, log = fake(tmp_path, "3.9 linux")
    environ = {"PATH": "/usr/bin:/bin", "HOME": _home(tmp_path)}
    assert identify_cached(path, environ) == Identity("3.9", "linux")
    assert identify_cached(path, environ) == Identity("3.9", "linux")
    assert asked(log) == 1
    link = tmp_path / "python"
    link.symlink_to(path)                   # another name of the same file shares the entry
    assert identify_cached(str(link), environ) == Identity("3.9", "linux")
    assert asked(log) == 1
    with open(path, "a") as f:              # a new interpreter in the same place
        f.write("# upgraded\n")
    assert identify_cached(path, environ) == Identity("3.9", "linux")
    assert asked(log) == 2
    assert os.path.isfile(str(tmp_path / "home" / ".cache" / "utf8env" / "interpreters"))


def test_cache_follows_xdg_cache_home(tmp_path):
    path, log = fake(tmp_path, "3.12 linux")
    environ = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"),
               "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    identify_cached(path, environ)
    assert os.listdir(str(tmp_path / "xdg" / "utf8env")) == ["interpreters"]
    assert not (tmp_path / "home").exists()


@pytest.mark.parametrize("home", [None, "", "relative/home"])
def test_no_cache_without_an_absolute_home(tmp_path, home, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path, log = fake(tmp_path, "3.10 linux")
    environ = {"PATH": "/usr/bin:/bin"}
    if home is not None:
        environ["HOME"] = home
    identify_cached(path, environ)
    identify_cached(path, environ)
    assert asked(log) == 2
    assert sorted(os.listdir(str(tmp_path))) == ["python3", "python3.log"]


def test_a_corrupt_cache_is_asked_again(tmp_path):
    path, log = fake(tmp_path, "3.11 linux")
    environ = {"PATH": "/usr/bin:/bin", "HOME": _home(tmp_path)}
    identify_cached(path, environ)
    store = tmp_path / "home" / ".cache" / "utf8env" / "interpreters"
    key, mtime, size, _, platform = store.read_bytes().split(b"\0")[:5]
    store.write_bytes(b"\0".join([key, mtime, size, b"9.9", platform]) + b"\0")
    assert identify_cached(path, environ) == Identity("3.11", "linux")
    assert asked(log) == 2


def _store(tmp_path):
    return tmp_path / "home" / ".cache" / "utf8env" / "interpreters"


def test_the_cache_folder_and_file_are_private_whatever_the_umask(tmp_path):
    path, _ = fake(tmp_path, "3.9 linux")
    old = os.umask(0)
    try:
        identify_cached(path, {"PATH": "/usr/bin:/bin", "HOME": _home(tmp_path)})
    finally:
        os.umask(old)
    store = _store(tmp_path)
    assert (os.stat(str(store.parent)).st_mode & 0o777, os.stat(str(store)).st_mode & 0o777) == (
        0o700, 0o600)
    assert os.listdir(str(store.parent)) == ["interpreters"]     # no temporary left behind


def test_a_planted_symlink_is_never_written_through(tmp_path):
    path, _ = fake(tmp_path, "3.9 linux")
    environ = {"PATH": "/usr/bin:/bin", "HOME": _home(tmp_path)}
    store = _store(tmp_path)
    store.parent.mkdir(parents=True, mode=0o700)
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious\n")
    store.symlink_to(victim)
    assert identify_cached(path, environ) == Identity("3.9", "linux")
    assert victim.read_bytes() == b"precious\n"
    assert not store.is_symlink()           # replaced by a file of our own, by rename


@pytest.mark.parametrize("mode", [0o666, 0o620])
def test_a_cache_others_can_write_is_not_believed(tmp_path, mode):
    path, log = fake(tmp_path, "3.9 linux")
    environ = {"PATH": "/usr/bin:/bin", "HOME": _home(tmp_path)}
    identify_cached(path, environ)
    store = _store(tmp_path)
    key, mtime, size, _, platform = store.read_bytes().split(b"\0")[:5]
    store.write_bytes(b"\0".join([key, mtime, size, b"3.6", platform]) + b"\0")   # faked
    store.chmod(mode)
    assert identify_cached(path, environ) == Identity("3.9", "linux")
    assert asked(log) == 2


def test_a_folder_others_can_write_gets_no_cache(tmp_path):
    path, log = fake(tmp_path, "3.9 linux")
    environ = {"PATH": "/usr/bin:/bin", "HOME": _home(tmp_path)}
    store = _store(tmp_path)
    store.parent.mkdir(parents=True)
    store.parent.chmod(0o777)
    identify_cached(path, environ)
    identify_cached(path, environ)
    assert asked(log) == 2 and os.listdir(str(store.parent)) == []


NOBODY = 65534


def _files(folder):
    return sorted(os.path.relpath(os.path.join(top, name), str(folder))
                  for top, dirs, files in os.walk(str(folder)) for name in dirs + files)


def _as_root():
    if os.geteuid() != 0:
        pytest.skip("chown to another user needs root")


@pytest.mark.parametrize("variable", ["HOME", "XDG_CACHE_HOME"])
def test_another_users_home_gets_no_cache(tmp_path, variable):
    """Root with HOME (or XDG_CACHE_HOME) still naming the user it came from, as `sudo`
    and `su` without `-` leave them: nothing of root's is made there."""
    _as_root()
    path, log = fake(tmp_path, "3.9 linux")
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    os.chown(str(theirs), NOBODY, NOBODY)
    environ = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"), variable: str(theirs)}
    identify_cached(path, environ)
    identify_cached(path, environ)
    assert (asked(log), _files(theirs)) == (2, [])
    # Nor in a folder it would make there: ~/.cache of theirs, missing, is theirs to make.
    environ[variable] = str(theirs / "not-yet")
    identify_cached(path, environ)
    assert (asked(log), _files(theirs)) == (3, [])


def test_a_cache_symlink_of_another_user_is_not_followed(tmp_path):
    _as_root()
    path, log = fake(tmp_path, "3.9 linux")
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    (home / ".cache").symlink_to(elsewhere)
    os.lchown(str(home / ".cache"), NOBODY, NOBODY)     # planted by another user
    environ = {"PATH": "/usr/bin:/bin", "HOME": str(home)}
    identify_cached(path, environ)
    identify_cached(path, environ)
    assert (asked(log), _files(home), _files(elsewhere)) == (2, [".cache"], [])
    # The same link, ours: followed, to a folder of ours.
    os.lchown(str(home / ".cache"), 0, 0)
    identify_cached(path, environ)
    identify_cached(path, environ)
    assert (asked(log), _files(elsewhere)) == (3, ["utf8env", "utf8env/interpreters"])
    # To a folder of another user's, not.
    (home / ".cache").unlink()
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    os.chown(str(theirs), NOBODY, NOBODY)
    (home / ".cache").symlink_to(theirs)
    identify_cached(path, environ)
    assert (asked(log), _files(theirs)) == (4, [])


def test_a_cache_folder_of_another_user_gets_no_cache(tmp_path):
    _as_root()
    path, log = fake(tmp_path, "3.9 linux")
    home = tmp_path / "home"
    (home / ".cache").mkdir(parents=True)
    os.chown(str(home / ".cache"), NOBODY, NOBODY)
    environ = {"PATH": "/usr/bin:/bin", "HOME": str(home)}
    identify_cached(path, environ)
    identify_cached(path, environ)
    assert (asked(log), _files(home)) == (2, [".cache"])


def test_a_missing_home_is_not_made(tmp_path):
    # Debian's nobody has HOME=/nonexistent: made by root, it would exist for everyone.
    path, log = fake(tmp_path, "3.9 linux")
    environ = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "nonexistent")}
    identify_cached(path, environ)
    identify_cached(path, environ)
    assert (asked(log), sorted(os.listdir(str(tmp_path)))) == (2, ["python3", "python3.log"])


def test_missing_cache_folders_are_made_private(tmp_path):
    path, _ = fake(tmp_path, "3.9 linux")
    environ = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"),
               "XDG_CACHE_HOME": str(tmp_path / "a" / "b")}
    old = os.umask(0o022)
    try:
        identify_cached(path, environ)
    finally:
        os.umask(old)
    assert [(name, os.stat(str(tmp_path / name)).st_mode & 0o777)
            for name in ("a", "a/b", "a/b/utf8env")] == [("a", 0o700), ("a/b", 0o700),
                                                         ("a/b/utf8env", 0o700)]


def test_the_timeout_holds_for_an_interpreter_that_does_not_answer(tmp_path, monkeypatch):
    import utf8env._interpreter as interpreter
    monkeypatch.setattr(interpreter, "TIMEOUT", 0.5)
    marker = "utf8env-test-silent-%d" % os.getpid()
    path = tmp_path / "python3.9"
    path.write_text("#!/bin/sh\nexec sh -c 'sleep 60; true' %s\n" % marker)
    path.chmod(0o755)
    with pytest.raises(InterpreterError) as error:
        identify(str(path), {"PATH": "/usr/bin:/bin"}, predict=True)     # explain's hint
    assert str(error.value) == ("interpreter %r: could not be run (no answer within 0.5 seconds); "
                                "give --version X.Y to predict without running it" % str(path))
    import subprocess
    import time
    for _ in range(200):        # SIGKILL is sent before identify() returns; its end follows
        left = subprocess.run(["pgrep", "-f", marker], stdout=subprocess.PIPE).stdout
        if not left:
            break
        time.sleep(0.05)
    assert left == b""


def test_the_answer_is_taken_when_a_child_keeps_the_pipe_and_the_child_ended(tmp_path):
    marker = "utf8env-test-holder-%d" % os.getpid()
    path, _ = fake(tmp_path, "3.9 linux")
    with open(path, "a") as f:          # answer, exit, and leave a child holding stdout
        f.write("sh -c 'sleep 60; true' %s &\n" % marker)
    assert identify(path, {"PATH": "/usr/bin:/bin"}) == Identity(version="3.9",
                                                                 platform="linux")
    # The child was killed with its group: SIGKILL is sent before identify() returns,
    # and the process is gone once the kernel has ended it (on a loaded machine, not at
    # once), so its end is waited for, within a bound.
    import subprocess
    import time
    for _ in range(200):
        left = subprocess.run(["pgrep", "-f", marker], stdout=subprocess.PIPE).stdout
        if not left:
            break
        time.sleep(0.05)
    assert left == b""


def test_the_errors_are_plain_classes_with_their_exit_codes():
    import pickle
    from utf8env import _errors as errors
    from utf8env._errors import (CommandNotFound, LauncherError, LaunchUsageError, NotExecutable,
                                 UsageError, WorldError)
    assert issubclass(InterpreterError, UsageError) and InterpreterError.exit_code == 2
    assert issubclass(LaunchUsageError, LauncherError) and issubclass(LaunchUsageError, UsageError)
    assert [cls.exit_code for cls in (CommandNotFound, NotExecutable, WorldError, LauncherError,
                                      LaunchUsageError)] == [127, 126, 1, 125, 125]
    for cls in (InterpreterError, CommandNotFound, NotExecutable, WorldError, LaunchUsageError):
        assert "%s.%s" % (cls.__module__, cls.__qualname__) == "utf8env._errors." + cls.__name__
        error = pickle.loads(pickle.dumps(cls("x")))
        assert type(error) is cls and str(error) == "x"
    with pytest.raises(AttributeError):
        errors.NoSuchError


def test_a_symlinks_target_is_named_as_realpath_names_it(tmp_path):
    # python_command reads links without os (environment.final_name): the same name as
    # os.path.realpath gives.
    from utf8env._environment import final_name
    from utf8env._interpreter import python_command
    real = tmp_path / "real"
    real.mkdir()
    (real / "python3.11").write_text("")
    (real / "dash").write_text("")
    (tmp_path / "abs").symlink_to(real / "python3.11")
    (tmp_path / "rel").symlink_to("real/dash")
    (tmp_path / "chain").symlink_to("rel")
    (tmp_path / "folder").symlink_to(real)                  # a folder link, then ".."
    (real / "up").symlink_to("../folder/python3.11")
    (tmp_path / "through").symlink_to("folder/up")
    (tmp_path / "dots").symlink_to("real/../real/./python3.11")
    (tmp_path / "dangling").symlink_to("nowhere/python3")
    links = ["abs", "rel", "chain", "through", "dots", "dangling", "real/up", "folder/up"]
    for name in links:
        path = str(tmp_path / name)
        assert final_name(path) == os.path.basename(os.path.realpath(path)), name
    here = os.getcwd()
    try:
        os.chdir(str(tmp_path))
        assert [final_name(name) for name in links] == [
            os.path.basename(os.path.realpath(name)) for name in links]
    finally:
        os.chdir(here)
    assert python_command(str(tmp_path / "through")) is not None
    assert python_command(str(tmp_path / "chain")) is None
