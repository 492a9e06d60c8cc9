"""The locale worlds really are what they claim, in every root (host and Debian chroot);
the world runner's jobs get exactly their environment, and tell a timeout from a kill."""
import json
import os

import pytest

from utf8env import locales
from utf8env.errors import Utf8envError
from utf8env.matrix import discovery, worlds

NAMES = ("C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.ISO-8859-1", "zh_CN.GB18030")
C_UTF8 = {"C.UTF-8": "UTF-8", "C.utf8": "UTF-8"}
EXPECTED = {  # locale name -> nl_langinfo(CODESET) for the names setlocale accepts
    "installed": C_UTF8,
    "no-locales": {},
    "en_US-only": {"en_US.UTF-8": "UTF-8"},
    "latin1": dict(C_UTF8, **{"en_US.ISO-8859-1": "ISO-8859-1"}),
    "gb18030": dict(C_UTF8, **{"zh_CN.GB18030": "GB18030"}),
}


def _need_worlds():
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)


def _probe_interpreters():
    """One interpreter per root: a host pyenv python (3.11 if there) and the chroot's 3.14."""
    found = discovery.interpreters()
    host = [i for i in found if i.root == "/"]
    host.sort(key=lambda i: i.version != "3.11")
    chroot = [i for i in found if i.root != "/" and i.version == "3.14"]
    return host[:1] + chroot


@pytest.fixture(scope="module")
def probes():
    _need_worlds()
    chosen = _probe_interpreters()
    roots = [i.root for i in chosen]
    worlds.prepare(roots)
    env = {"PATH": "/usr/bin:/bin"}  # no LC_*/LANG: the question sets LC_CTYPE itself
    question = ["-I", "-S", "-c", locales.child_program()] + list(NAMES)
    out = {}
    for world in worlds.WORLDS:  # one run() per world: one namespace, jobs in parallel
        results = worlds.run(world, [worlds.Job(i.argv + question, env) for i in chosen], roots)
        for interp, res in zip(chosen, results):
            assert res.returncode == 0, res.stderr.decode(errors="replace")
            out[world, interp.root] = json.loads(res.stdout)
    return out


@pytest.mark.parametrize("world", worlds.WORLDS)
def test_host_world(probes, world):
    assert probes[world, "/"] == EXPECTED[world]


@pytest.mark.parametrize("world", worlds.WORLDS)
def test_chroot_world(probes, world):
    root = discovery.debian_root()
    if (world, root) not in probes:
        pytest.skip("Debian chroot {} missing (tests/support/build_debian_pythons.sh)".format(root))
    assert probes[world, root] == EXPECTED[world]


def test_env_is_exactly_the_jobs_env():
    _need_worlds()
    env = {"A": "1", "EMPTY": "", "RAW": "caf\udcff", "SPACE": "a b=c"}
    jobs = [worlds.Job(["/usr/bin/env"], env), worlds.Job(["/usr/bin/env"], {}),
            worlds.Job(["/bin/cat"], {}, stdin=b"in\x00put")]
    got, empty, cat = worlds.run("installed", jobs, ["/"])
    lines = got.stdout.split(b"\n")[:-1]
    assert sorted(lines) == sorted(os.fsencode(k) + b"=" + os.fsencode(v) for k, v in env.items())
    assert b"RAW=caf\xff" in lines  # the surrogate escape became the raw byte
    assert (empty.returncode, empty.stdout) == (0, b"")
    assert cat == worlds.Result(returncode=0, stdout=b"in\x00put", stderr=b"", timed_out=False)


def test_a_timeout_is_not_a_kill():
    _need_worlds()
    jobs = [worlds.Job(["/bin/sh", "-c", "echo early; exec sleep 30"], {}, timeout=0.5),
            worlds.Job(["/bin/sh", "-c", "echo early; kill -9 $$"], {}, timeout=30),
            worlds.Job(["/bin/sh", "-c", "sleep 30 & echo gone"], {}, timeout=0.5)]
    slow, killed, orphan = worlds.run("installed", jobs, ["/"])
    assert (slow.returncode, slow.timed_out, slow.stdout) == (None, True, b"early\n")
    assert (killed.returncode, killed.timed_out, killed.stdout) == (-9, False, b"early\n")
    # The shell exited 0, but its child kept the pipes open past the timeout: a timeout.
    assert (orphan.returncode, orphan.timed_out, orphan.stdout) == (None, True, b"gone\n")


def test_run_batches_reports_timeouts_per_stage():
    _need_worlds()
    piped = worlds.Job(["/bin/echo", "in"], {}, then=worlds.Job(["/bin/sleep", "30"], {}, timeout=0.5))
    [[run]] = worlds.run_batches([("installed", [piped])], ["/"], workers=1)
    assert (run.returncode, run.timed_out, run.stdout) == (0, False, b"in\n")
    assert (run.then.returncode, run.then.timed_out) == (None, True)


def test_mount_error_is_clear(monkeypatch):
    _need_worlds()
    monkeypatch.setattr(worlds, "_mounts", lambda world, roots: [["/nonexistent-src", "/usr/lib/locale"]])
    with pytest.raises(worlds.WorldError, match=r"world 'latin1'.*mount.*nonexistent-src"):
        worlds.run("latin1", [worlds.Job(["/bin/true"], {})], ["/"])


def test_a_runner_that_dies_is_a_world_error(monkeypatch, tmp_path):
    _need_worlds()
    runner = tmp_path / "runner.py"
    runner.write_text("import sys\nsys.stderr.write('boom')\nsys.exit(3)\n")
    monkeypatch.setattr(worlds, "_RUNNER", str(runner))
    with pytest.raises(worlds.WorldError, match=r"world 'installed': runner failed \(exit 3\): boom"):
        worlds.run("installed", [worlds.Job(["/bin/true"], {})], ["/"])


def test_no_worlds_here_is_a_world_error(monkeypatch):
    monkeypatch.setattr(worlds, "available", lambda: (False, "locale worlds need root"))
    with pytest.raises(worlds.WorldError, match="locale worlds unavailable: locale worlds need root") as e:
        worlds.run_batches([("installed", [worlds.Job(["/bin/true"], {})])], ["/"])
    assert isinstance(e.value, Utf8envError) and e.value.exit_code == 1


def test_the_runner_is_child_code():
    assert os.path.dirname(worlds._RUNNER).endswith(os.path.join("utf8env", "_child"))
    assert os.path.isfile(worlds._RUNNER)
