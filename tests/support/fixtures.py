"""Fixtures shared by test modules (a module imports the one it uses by name)."""
import shutil

import pytest

from utf8env._worlds import access, build


@pytest.fixture
def no_userns_not_root(tmp_path, monkeypatch):
    """A machine where user namespaces are off, seen by a user who is not root; the
    locale cache (asked before, as the user whose folder it is)."""
    cache = build.cache_folder()
    proc = tmp_path / "proc"
    (proc / "sys" / "user").mkdir(parents=True)
    (proc / "sys" / "user" / "max_user_namespaces").write_text("0\n")
    # os.geteuid itself: everything of this process, interpreter discovery too, sees the user.
    monkeypatch.setattr(access.os, "geteuid", lambda: 1000)
    real = access.way
    monkeypatch.setattr(access, "way", lambda name, roots=("/",), via=None, _=None:
                        real(name, roots, via, str(proc)))
    # That user has no cache folder here: the process's temporary one is the test's own.
    monkeypatch.setattr(build, "_TEMPORARY", [])
    yield cache
    for folder in build._TEMPORARY:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def no_container(tmp_path):
    """support.shell_roots.no_container_words for the test (its roots in tmp_path)."""
    from support.shell_roots import no_container_words
    return no_container_words(tmp_path)
