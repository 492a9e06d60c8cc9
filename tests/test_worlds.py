"""The locale worlds really are what they claim, in every root (host and Debian chroot)."""
import json
import os

import pytest

from tests.support import interpreters, worlds

NAMES = ("C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.ISO-8859-1", "zh_CN.GB18030")
C_UTF8 = {"C.UTF-8": "UTF-8", "C.utf8": "UTF-8"}
EXPECTED = {  # locale name -> nl_langinfo(CODESET) for the names setlocale accepts
    "installed": C_UTF8,
    "no-locales": {},
    "en_US-only": {"en_US.UTF-8": "UTF-8"},
    "latin1": dict(C_UTF8, **{"en_US.ISO-8859-1": "ISO-8859-1"}),
    "gb18030": dict(C_UTF8, **{"zh_CN.GB18030": "GB18030"}),
}
PROBE = r"""
import json, locale
found = {}
for name in %r:
    try:
        locale.setlocale(locale.LC_CTYPE, name)
    except locale.Error:
        continue
    found[name] = locale.nl_langinfo(locale.CODESET)
print(json.dumps(found))
""" % (NAMES,)


def _probe_interpreters():
    """One interpreter per root: a host pyenv python (3.11 if there) and the chroot's 3.14."""
    found = interpreters.interpreters()
    host = [i for i in found if i.root == "/"]
    host.sort(key=lambda i: i.version != "3.11")
    chroot = [i for i in found if i.root != "/" and i.version == "3.14"]
    return host[:1] + chroot


@pytest.fixture(scope="module")
def probes():
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)
    chosen = _probe_interpreters()
    roots = [i.root for i in chosen]
    worlds.prepare(roots)
    env = {"PATH": "/usr/bin:/bin"}  # no LC_*/LANG: the probe sets LC_CTYPE itself
    out = {}
    for world in worlds.WORLDS:  # one run() per world: one namespace, jobs in parallel
        results = worlds.run(world, [worlds.Job(i.argv + ["-I", "-c", PROBE], env) for i in chosen], roots)
        for interp, res in zip(chosen, results):
            assert res.returncode == 0, res.stderr.decode(errors="replace")
            out[world, interp.root] = json.loads(res.stdout)
    return out


@pytest.mark.parametrize("world", worlds.WORLDS)
def test_host_world(probes, world):
    assert probes[world, "/"] == EXPECTED[world]


@pytest.mark.parametrize("world", worlds.WORLDS)
def test_chroot_world(probes, world):
    root = interpreters.debian_root()
    if (world, root) not in probes:
        pytest.skip("Debian chroot {} missing (tests/support/build_debian_pythons.sh)".format(root))
    assert probes[world, root] == EXPECTED[world]


def test_env_is_exactly_the_jobs_env():
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)
    env = {"A": "1", "EMPTY": "", "RAW": "caf\udcff", "SPACE": "a b=c"}
    jobs = [worlds.Job(["/usr/bin/env"], env), worlds.Job(["/usr/bin/env"], {}),
            worlds.Job(["/bin/cat"], {}, stdin=b"in\x00put"),
            worlds.Job(["/bin/sh", "-c", "echo early; exec sleep 30"], {}, timeout=0.5)]
    got, empty, cat, slow = worlds.run("installed", jobs, ["/"])
    lines = got.stdout.split(b"\n")[:-1]
    assert sorted(lines) == sorted(os.fsencode(k) + b"=" + os.fsencode(v) for k, v in env.items())
    assert b"RAW=caf\xff" in lines  # the surrogate escape became the raw byte
    assert (empty.returncode, empty.stdout) == (0, b"")
    assert cat == worlds.Result(0, b"in\x00put", b"")
    assert (slow.returncode, slow.stdout) == (-9, b"early\n")


def test_mount_error_is_clear(monkeypatch):
    ok, why = worlds.available()
    if not ok:
        pytest.skip(why)
    monkeypatch.setattr(worlds, "_mounts", lambda world, roots: [["/nonexistent-src", "/usr/lib/locale"]])
    with pytest.raises(RuntimeError, match=r"world 'latin1'.*mount.*nonexistent-src"):
        worlds.run("latin1", [worlds.Job(["/bin/true"], {})], ["/"])
