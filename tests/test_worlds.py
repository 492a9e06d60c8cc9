"""The locale worlds (utf8env._worlds) really are what they claim, in every root (host and
Debian chroot), made the least privileged way: LOCPATH where adding locales is enough, an
unprivileged user namespace where they must be hidden, root's mount namespace only where
nothing else works. The same results as root's mount namespace, world for world; the
same for an ordinary user (nobody); the cache in the user's own folder, reused, safe to
build from two processes at once; a world that cannot be made says why in one line. The
world runner's jobs get exactly their environment, and tell a timeout from a kill.

Helpers used by test_matrix.py, test_matrix_report.py and test_readiness.py too: the
Debian chroot of the test harness (UTF8ENV_DEBIAN_ROOT, else its usual place: the product
knows no default), one locale cache for the whole run (localedef of the CJK charmaps
takes seconds), and running as nobody."""
import atexit
import grp
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pytest

from utf8env import _worlds as worlds, _locales as locales
from utf8env._worlds import access, build
from utf8env._errors import Utf8envError, WorldError
from utf8env import _discovery as discovery

from support.fixtures import no_userns_not_root  # noqa: F401 (a fixture)
from support import isolation

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")
# The test harness's chroot (tests/support/build_debian_pythons.sh): named here, never in
# the product.
DEBIAN_ROOT = os.environ.get("UTF8ENV_DEBIAN_ROOT") or "/var/cache/utf8env/debian-sid"


def interpreters():
    """pyenv's interpreters and the Debian chroot's (when it is there)."""
    return discovery.interpreters(chroot=DEBIAN_ROOT)


def interpreter(version):
    for i in interpreters():
        if i.version == version:
            return i
    pytest.skip("no Python %s here (pyenv's, or the Debian chroot %s)" % (version, DEBIAN_ROOT))


def roots():
    return discovery.roots(chroot=DEBIAN_ROOT)


_SHARED = []


def shared_cache():
    """An XDG_CACHE_HOME for the module fixtures where the run gave none (tests/conftest.py
    gives the run one, its compiled locales shared by every test). Removed at the end."""
    if not _SHARED:
        # The run's TMPDIR, not the test's that asked first: it outlives the test.
        folder = tempfile.mkdtemp(prefix="utf8env-test-cache-", dir=isolation.run_tmpdir())
        atexit.register(shutil.rmtree, folder, True)
        _SHARED.append(folder)
    return _SHARED[0]


def locale_cache():
    """The folder of compiled locales the product uses here (the run's, shared)."""
    return build.cache_folder()


@pytest.fixture(scope="module", autouse=True)
def module_home(tmp_path_factory):
    """For the module fixtures (set up before each test's own HOME): the Debian chroot
    named for the command lines run, and, where the run gave none, a HOME and cache of
    their own: never the real ~/.cache."""
    with pytest.MonkeyPatch.context() as m:
        if not os.environ.get("XDG_CACHE_HOME"):
            m.setenv("HOME", str(tmp_path_factory.mktemp("module-home")))
            m.setenv("XDG_CACHE_HOME", shared_cache())
        m.setenv("UTF8ENV_DEBIAN_ROOT", DEBIAN_ROOT)
        yield


def need_root(what):
    if os.geteuid() != 0:
        pytest.skip("not root: %s needs root" % what)


class Nobody(object):
    """A world-readable temporary folder holding a copy of src/utf8env and a home folder
    nobody owns, and the prefix that runs a command as nobody. Call remove() at the end."""

    PYTHON = "/usr/bin/python3"     # Debian's: pyenv's under /root are not readable by nobody

    def __init__(self):
        need_root("becoming nobody")
        if not shutil.which("setpriv"):
            pytest.skip("setpriv (util-linux) not installed: it runs the commands as nobody")
        try:
            self.uid = pwd.getpwnam("nobody").pw_uid
            self.gid = grp.getgrnam("nogroup").gr_gid
        except KeyError:
            pytest.skip("no user nobody or group nogroup here")
        self.prefix = ["setpriv", "--reuid=%d" % self.uid, "--regid=%d" % self.gid,
                       "--clear-groups"]
        # In the machine's /tmp: nobody cannot search the test's TMPDIR (under pytest's
        # 0700 folders). A folder of the test's own, removed by remove().
        self.dir = tempfile.mkdtemp(prefix="utf8env-nobody-", dir="/tmp")
        os.chmod(self.dir, 0o755)
        self.home = os.path.join(self.dir, "home")
        os.mkdir(self.home)
        os.chown(self.home, self.uid, self.gid)
        self.src = os.path.join(self.dir, "src")
        shutil.copytree(os.path.join(SRC, "utf8env"), os.path.join(self.src, "utf8env"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        probe = self.run([self.PYTHON, "-c", "import sys"])
        if probe.returncode != 0:
            self.remove()
            pytest.skip("nobody cannot run %s: %s" % (self.PYTHON, probe.stderr.decode()))

    def env(self, **extra):
        env = {"PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": self.home,
               "XDG_CACHE_HOME": os.path.join(self.home, ".cache"), "PYTHONPATH": self.src,
               "PYTHONDONTWRITEBYTECODE": "1"}
        env.update(extra)
        return env

    def run(self, argv, env=None, cwd=None, timeout=900):
        return subprocess.run(self.prefix + argv, env=env or self.env(), cwd=cwd or self.dir,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)

    def path(self, *names):
        return os.path.join(self.dir, *names)

    def own(self, path):
        """chown -R nobody: `path` (made by root for nobody)."""
        for top, dirs, files in os.walk(path):
            for name in [top] + [os.path.join(top, n) for n in dirs + files]:
                os.lchown(name, self.uid, self.gid)

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


# -- what each world holds -----------------------------------------------------------

NAMES = ("C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.ISO-8859-1", "zh_CN.GB18030",
         "en_US.CP1252", "ru_RU.CP1251", "zh_CN.GBK", "ja_JP.WINDOWS-31J", "zh_TW.BIG5")
C_UTF8 = {"C.UTF-8": "UTF-8", "C.utf8": "UTF-8"}
EXPECTED = {  # locale name -> nl_langinfo(CODESET) for the names setlocale accepts
    "installed": C_UTF8,
    "no-locales": {},
    "en_US-only": {"en_US.UTF-8": "UTF-8"},
    "en_US": dict(C_UTF8, **{"en_US.UTF-8": "UTF-8"}),
    "latin1": dict(C_UTF8, **{"en_US.ISO-8859-1": "ISO-8859-1"}),
    "gb18030": dict(C_UTF8, **{"zh_CN.GB18030": "GB18030"}),
    "cp1252": dict(C_UTF8, **{"en_US.CP1252": "CP1252"}),
    "cp1251": dict(C_UTF8, **{"ru_RU.CP1251": "CP1251"}),
    "gbk": dict(C_UTF8, **{"zh_CN.GBK": "GBK"}),
    "cp932": dict(C_UTF8, **{"ja_JP.WINDOWS-31J": "WINDOWS-31J"}),
    "big5": dict(C_UTF8, **{"zh_TW.BIG5": "BIG5"}),
}
# How each world is made here, for interpreters of the host alone and with a chroot.
HOST_WAYS = {"installed": "installed", "no-locales": "user namespace",
             "en_US-only": "user namespace", "en_US": "LOCPATH", "latin1": "LOCPATH",
             "gb18030": "LOCPATH", "cp1252": "LOCPATH", "cp1251": "LOCPATH", "gbk": "LOCPATH",
             "cp932": "LOCPATH", "big5": "LOCPATH"}


@pytest.mark.fast
def test_the_catalog():
    assert worlds.WORLDS == tuple(EXPECTED)
    assert worlds.WINDOWS == ("cp1252", "cp1251", "gbk", "cp932", "big5")
    assert [worlds.WORLD[w].windows for w in worlds.WINDOWS] == [1252, 1251, 936, 932, 950]
    assert worlds.WORLD["cp932"].locale_names() == (
        "C.UTF-8=UTF-8,C.utf8=UTF-8,ja_JP.WINDOWS-31J=WINDOWS-31J")
    assert worlds.WORLD["no-locales"].locale_names() == ""
    assert worlds.WORLD["installed"].locale_names() is None
    with pytest.raises(ValueError, match=r"unknown world 'mars'; expected one of \('installed'"):
        worlds.world("mars")


def _need_worlds(roots_=("/",), via=None):
    ok, why = worlds.available(roots_, via)
    if not ok:
        pytest.skip(why)


def _probe_interpreters():
    """One interpreter per root: a host pyenv python (3.11 if there) and the chroot's 3.14."""
    found = interpreters()
    host = [i for i in found if i.root == "/"]
    host.sort(key=lambda i: i.version != "3.11")
    chroot = [i for i in found if i.root != "/" and i.version == "3.14"]
    if not host:
        pytest.skip("no pyenv Python here")
    return host[:1] + (chroot if os.geteuid() == 0 else [])


def _probe(chosen, roots_, via):
    """{(world, root): {name: codeset}} for every world, made `via`."""
    env = {"PATH": "/usr/bin:/bin"}  # no LC_*/LANG: the question sets LC_CTYPE itself
    question = ["-I", "-S", "-c", locales.child_program()] + list(NAMES)
    assert worlds.problems(worlds.WORLDS, roots_, via) == {}
    out = {}
    for world in worlds.WORLDS:  # one run() per world: one runner, jobs in parallel
        results = worlds.run(world, [worlds.Job(i.argv + question, env) for i in chosen],
                             roots_, via=via)
        for interp, res in zip(chosen, results):
            assert res.returncode == 0, res.stderr.decode(errors="replace")
            out[world, interp.root] = json.loads(res.stdout)
    return out


@pytest.fixture(scope="module")
def probes():
    """The least privileged way, the host alone (LOCPATH where it can) and with the chroot
    (a user namespace); root's mount namespace, both roots at once."""
    _need_worlds()
    chosen = _probe_interpreters()
    host = [i for i in chosen if i.root == "/"]
    out = {"least": _probe(host, ["/"], None)}
    if len(chosen) > 1:
        both = sorted({i.root for i in chosen}, key=lambda r: (r != "/", r))
        out["least, chroot"] = _probe(chosen, both, None)
        if not access.mount_problem():
            out["mount"] = _probe(chosen, both, worlds.MOUNT)
    return out


@pytest.mark.parametrize("world", worlds.WORLDS)
def test_host_world(probes, world):
    assert access.way(world).method == HOST_WAYS[world]
    assert probes["least"][world, "/"] == EXPECTED[world]


@pytest.mark.parametrize("world", worlds.WORLDS)
def test_chroot_world(probes, world):
    if "least, chroot" not in probes:
        pytest.skip("Debian chroot %s missing, or not root (tests/support/build_debian_pythons.sh)"
                    % DEBIAN_ROOT)
    root = os.path.realpath(DEBIAN_ROOT)
    assert access.way(world, ["/", root]).method == (
        "installed" if world == "installed" else "user namespace")
    assert probes["least, chroot"][world, root] == EXPECTED[world]
    assert probes["least, chroot"][world, "/"] == EXPECTED[world]


def test_the_least_privileged_worlds_are_roots_worlds_cell_for_cell(probes):
    if "mount" not in probes:
        pytest.skip("root's mount namespace, or the Debian chroot, is not here")
    assert probes["mount"] == probes["least, chroot"]
    assert {w: v for (w, r), v in probes["mount"].items() if r == "/"} == {
        w: v for (w, r), v in probes["least"].items()}


@pytest.mark.fast
def test_the_cache_is_the_users_own_folder(tmp_path):
    xdg = tmp_path / "xdg"
    assert build.cache_folder({"XDG_CACHE_HOME": str(xdg), "HOME": "/nonexistent"}) == \
        str(xdg / "utf8env" / "locales")
    for folder in (xdg, xdg / "utf8env", xdg / "utf8env" / "locales"):
        st = os.stat(str(folder))
        assert (st.st_mode & 0o777, st.st_uid) == (0o700, os.geteuid())
    home = tmp_path / "home"
    home.mkdir()
    assert build.cache_folder({"XDG_CACHE_HOME": "relative", "HOME": str(home)}) == \
        str(home / ".cache" / "utf8env" / "locales")
    assert build.cache_folder({"HOME": str(tmp_path / "missing")}) is None
    assert build.cache_folder({"HOME": "relative"}) is None
    assert build.cache_folder({}) is None
    colon = tmp_path / "a:b"
    assert build.cache_folder({"XDG_CACHE_HOME": str(colon)}) is None   # LOCPATH splits at ':'


def test_a_cache_folder_of_another_user_is_not_used(tmp_path):
    need_root("a folder of another user")
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    os.chown(str(theirs), pwd.getpwnam("nobody").pw_uid, -1)
    assert build.cache_folder({"XDG_CACHE_HOME": str(theirs)}) is None
    assert build.cache_folder({"HOME": str(theirs)}) is None
    link = tmp_path / "home"
    link.mkdir()
    (link / ".cache").symlink_to(theirs)
    os.lchown(str(link / ".cache"), pwd.getpwnam("nobody").pw_uid, -1)
    assert build.cache_folder({"HOME": str(link)}) is None
    assert os.listdir(str(theirs)) == []


@pytest.mark.fast
def test_no_cache_folder_means_a_temporary_one(monkeypatch):
    monkeypatch.setattr(build, "cache_folder", lambda environ=None: None)
    # The process's one temporary folder is this test's, not the one later tests use.
    monkeypatch.setattr(build, "_TEMPORARY", [])
    folder = build.store()
    assert folder.startswith(tempfile.gettempdir()) and "utf8env-locales-" in folder
    assert build.store() == folder
    assert build.store("/given") == "/given"
    shutil.rmtree(folder)       # what the process would do at exit


def _identity(path):
    st = os.stat(path)
    return st.st_ino, st.st_mtime_ns


def test_worlds_are_built_once_and_reused(tmp_path):
    _need_worlds()
    cache = str(tmp_path / "cache")
    first = worlds.world_dir("latin1", "/", cache)
    assert sorted(os.listdir(first)) == ["C.utf8", "en_US.iso88591"]
    seen = _identity(os.path.join(first, "en_US.iso88591", "LC_CTYPE"))
    again = worlds.world_dir("latin1", "/", cache)
    assert again == first
    assert _identity(os.path.join(again, "en_US.iso88591", "LC_CTYPE")) == seen
    # The world's locales are hard links of the compiled ones: no copy per world.
    base = os.path.dirname(os.path.dirname(first))
    assert os.path.samefile(os.path.join(base, "en_US.iso88591", "LC_CTYPE"),
                            os.path.join(first, "en_US.iso88591", "LC_CTYPE"))
    assert sorted(os.listdir(base)) == ["C.utf8", "en_US.iso88591", "worlds"]
    assert os.listdir(os.path.join(base, "worlds")) == ["latin1"]   # no .build- left


def test_two_runs_building_at_once_both_get_the_whole_world(tmp_path):
    _need_worlds()
    cache = str(tmp_path / "cache")
    code = ("import sys; sys.path.insert(0, %r); from utf8env._worlds import world_dir; "
            "print(world_dir('cp1251', '/', %r))" % (SRC, cache))
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for _ in range(3)]
    outs = [p.communicate(timeout=600) + (p.returncode,) for p in procs]
    folder = outs[0][0].decode().strip()
    assert [(o, e, c) for o, e, c in outs] == [(outs[0][0], b"", 0)] * 3
    assert sorted(os.listdir(folder)) == ["C.utf8", "ru_RU.cp1251"]
    for name in ("C.utf8", "ru_RU.cp1251"):
        assert os.path.isfile(os.path.join(folder, name, "LC_CTYPE"))
    base = os.path.dirname(os.path.dirname(folder))
    assert sorted(os.listdir(base)) == ["C.utf8", "ru_RU.cp1251", "worlds"]
    assert os.listdir(os.path.join(base, "worlds")) == ["cp1251"]


@pytest.mark.fast
def test_the_first_rename_wins(tmp_path):
    final, work = tmp_path / "final", tmp_path / "work"
    final.mkdir()
    (final / "kept").write_text("first")
    work.mkdir()
    (work / "dropped").write_text("second")
    build._publish(str(work), str(final))
    assert os.listdir(str(final)) == ["kept"] and work.exists()


def test_an_ordinary_user_gets_the_same_worlds():
    """nobody, with Debian's python3 and a home of its own: every world made without
    root (LOCPATH, a user namespace), the same locales as root's, the jobs run as nobody
    (not as the namespace's root), the cache in nobody's own folder, reused."""
    nobody = Nobody()
    try:
        script = nobody.path("probe.py")
        with open(script, "w") as f:
            f.write(_NOBODY_PROBE)
        proc = nobody.run([Nobody.PYTHON, script] + list(NAMES))
        assert proc.returncode == 0, proc.stderr.decode()
        seen = json.loads(proc.stdout.decode())
        assert seen.pop("uid") == nobody.uid
        assert seen.pop("problems") == {}
        assert seen.pop("reused") is True
        assert seen == {w: [HOST_WAYS[w], EXPECTED[w], str(nobody.uid)] for w in worlds.WORLDS}
        cache = os.path.join(nobody.home, ".cache", "utf8env", "locales")
        for folder in (os.path.join(nobody.home, ".cache"), os.path.dirname(cache), cache):
            st = os.stat(folder)
            assert (st.st_mode & 0o777, st.st_uid) == (0o700, nobody.uid)
        assert not any(os.path.exists(p) for p in ("/var/cache/utf8env/locales",))
    finally:
        nobody.remove()


def test_without_map_user_the_jobs_run_as_the_namespaces_root():
    """An unshare without --map-user (older util-linux): the hidden world is still made,
    its jobs then the user namespace's root (uid 0 there, nobody's files only)."""
    nobody = Nobody()
    try:
        bin_ = nobody.path("bin")
        os.mkdir(bin_)
        with open(os.path.join(bin_, "unshare"), "w") as f:
            f.write('#!/bin/sh\nif [ "$1" = --help ]; then /usr/bin/unshare --help | '
                    'grep -v -e --map-user -e --map-group; exit 0; fi\nexec /usr/bin/unshare "$@"\n')
        os.chmod(os.path.join(bin_, "unshare"), 0o755)
        code = ("from utf8env import _worlds as w\n"
                "[r] = w.run('no-locales', [w.Job(['/usr/bin/sh', '-c', 'id -u; locale -a'], {})], ['/'])\n"
                "print(w.way('no-locales').method, r.stdout.split())\n")
        for path, uid in ((bin_ + ":/usr/bin:/bin", "0"), ("/usr/bin:/bin", str(nobody.uid))):
            proc = nobody.run([Nobody.PYTHON, "-c", code], env=nobody.env(PATH=path))
            assert (proc.returncode, proc.stderr) == (0, b"")
            assert proc.stdout.decode() == "user namespace [b'%s', b'C', b'POSIX']\n" % uid
    finally:
        nobody.remove()


_NOBODY_PROBE = r"""
import json, os, sys
from utf8env import _worlds as w, _locales as locales
from utf8env._worlds import build
names = sys.argv[1:]
out = {"uid": os.getuid(), "problems": w.problems(w.WORLDS)}
question = [sys.executable, "-I", "-S", "-c", locales.child_program()] + names
for world in w.WORLDS:
    probe, uid = w.run(world, [w.Job(question, {"PATH": "/usr/bin:/bin"}),
                               w.Job(["/usr/bin/id", "-u"], {})], ["/"])
    assert probe.returncode == 0, probe.stderr
    out[world] = [w.way(world).method, json.loads(probe.stdout), uid.stdout.decode().strip()]
def identity(path):
    st = os.stat(path)
    return st.st_ino, st.st_mtime_ns
folder = w.world_dir("gb18030")
before = identity(os.path.join(folder, "zh_CN.gb18030", "LC_CTYPE"))
w.problems(w.WORLDS)
out["reused"] = identity(os.path.join(folder, "zh_CN.gb18030", "LC_CTYPE")) == before
print(json.dumps(out))
"""


# -- a world that cannot be made ---------------------------------------------------------

@pytest.mark.fast
def test_a_world_that_cannot_be_made_says_why_and_what_would_make_it(no_userns_not_root):
    assert access.way("no-locales") == access.Way("no-locales", None, (
        "world 'no-locales' cannot be made here: hiding the installed locales takes a mount "
        "namespace, and user namespaces are off (user.max_user_namespaces = 0) and this is "
        "not root; sysctl -w user.max_user_namespaces=10000 or running as root would make "
        "it possible"))
    assert access.way("latin1", ["/", "/srv/chroot"]).problem == (
        "world 'latin1' cannot be made here: a chroot's interpreter (it cannot see LOCPATH's "
        "folder) takes a mount namespace, and user namespaces are off "
        "(user.max_user_namespaces = 0) and this is not root; sysctl -w "
        "user.max_user_namespaces=10000 or running as root would make it possible")
    assert access.way("latin1") == access.Way("latin1", "LOCPATH")
    assert access.way("installed") == access.Way("installed", "installed")
    assert access.way("cp1252", via=worlds.MOUNT).problem == (
        "world 'cp1252' cannot be made in root's mount namespace: this is not root; running as "
        "root would make it possible")
    assert worlds.available() == (False, access.way("no-locales").problem)


def test_the_other_worlds_still_run(no_userns_not_root):
    if not shutil.which("localedef"):
        pytest.skip("no localedef here")
    found = worlds.problems(["latin1", "no-locales", "installed"], cache=no_userns_not_root)
    assert found == {"no-locales": access.way("no-locales").problem}
    with pytest.raises(WorldError) as e:
        worlds.run("no-locales", [worlds.Job(["/bin/true"], {})], ["/"])
    assert str(e.value) == "locale worlds unavailable: " + found["no-locales"]
    assert isinstance(e.value, Utf8envError) and e.value.exit_code == 1
    [latin1] = worlds.run("latin1", [worlds.Job(["/usr/bin/locale", "charmap"],
                                                {"LANG": "en_US.ISO-8859-1"})], ["/"],
                          cache=no_userns_not_root)
    assert (latin1.returncode, latin1.stdout) == (0, b"ISO-8859-1\n")


@pytest.mark.fast
def test_missing_locale_sources_name_the_package(tmp_path):
    root = tmp_path / "root"
    (root / "usr" / "share" / "i18n" / "charmaps").mkdir(parents=True)
    assert build.sources_missing(str(root), "en_US.cp1252") == (
        "glibc's charmap CP1252 is not installed of the chroot %s (/usr/share/i18n/charmaps): "
        "install glibc's locale sources (Debian, Ubuntu: apt-get install locales)" % root)
    (root / "usr" / "share" / "i18n" / "charmaps" / "CP1252.gz").write_bytes(b"")
    assert build.sources_missing(str(root), "en_US.cp1252") == (
        "glibc's locale source en_US is not installed of the chroot %s (/usr/share/i18n/locales): "
        "install glibc's locale sources (Debian, Ubuntu: apt-get install locales)" % root)


def test_a_failed_localedef_is_one_line_naming_the_world(tmp_path, monkeypatch):
    _need_worlds()
    monkeypatch.setattr(build, "LOCALE", dict(build.LOCALE, **{
        "ru_RU.cp1251": build.LOCALE["ru_RU.cp1251"]._replace(input="no_SUCH")}))
    monkeypatch.setattr(build, "sources_missing", lambda root, folder: None)
    with pytest.raises(WorldError) as e:
        worlds.world_dir("cp1251", "/", str(tmp_path / "cache"))
    message = str(e.value)
    assert message.startswith("world 'cp1251' cannot be made here: localedef -c -i no_SUCH -f "
                              "CP1251 ") and "made no locale (exit " in message
    assert "\n" not in message


# -- the jobs ----------------------------------------------------------------------------

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


def test_a_locpath_world_puts_its_folder_first_in_locpath():
    _need_worlds()
    folder = worlds.world_dir("latin1", "/", locale_cache())
    jobs = [worlds.Job(["/usr/bin/env"], {"A": "1"}),
            worlds.Job(["/usr/bin/env"], {"LOCPATH": "/mine"})]
    plain, own = worlds.run("latin1", jobs, ["/"], cache=locale_cache())
    assert plain.stdout == b"A=1\nLOCPATH=" + os.fsencode(folder) + b"\n"
    assert own.stdout == b"LOCPATH=" + os.fsencode(folder) + b":/mine\n"
    # What a caller comparing environments must expect the world to add:
    assert worlds.added_environ("latin1", cache=locale_cache()) == {"LOCPATH": folder}
    assert worlds.added_environ("no-locales") == worlds.added_environ("installed") == {}
    assert worlds.added_environ("latin1", ["/", "/srv/chroot"]) == {}


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


def test_a_timeout_lets_go_of_the_pipes_a_daemon_holds():
    """A job that leaves a daemon (setsid: out of its process group) holding its stdout:
    at its timeout the group is killed, and the daemon (it holds the job's pipe), and the
    pipes let go, with what the job wrote; the run does not wait for the daemon (it used
    to, until the daemon ended), and leaves none behind."""
    _need_worlds()
    import threading
    daemon = "sleep 600.%d" % os.getpid()         # a name this test alone gives a process
    job = worlds.Job(["/bin/sh", "-c", "echo kept; setsid %s &" % daemon], {}, timeout=0.5)
    done = []
    thread = threading.Thread(target=lambda: done.append(worlds.run("installed", [job], ["/"])))
    thread.start()
    try:
        thread.join(120)
        assert done, "the run still waits for the daemon's end"
        [held] = done[0]
        assert (held.returncode, held.timed_out, held.stdout) == (None, True, b"kept\n")
        left = subprocess.run(["pgrep", "-f", "^" + daemon.replace(".", "[.]") + "$"],
                              stdout=subprocess.PIPE)
        assert (left.returncode, left.stdout) == (1, b"")
    finally:
        subprocess.run(["pkill", "-f", "^" + daemon.replace(".", "[.]") + "$"])
        thread.join()


def test_run_batches_reports_timeouts_per_stage():
    _need_worlds()
    piped = worlds.Job(["/bin/echo", "in"], {}, then=worlds.Job(["/bin/sleep", "30"], {}, timeout=0.5))
    [[run]] = worlds.run_batches([("installed", [piped])], ["/"], workers=1)
    assert (run.returncode, run.timed_out, run.stdout) == (0, False, b"in\n")
    assert (run.then.returncode, run.then.timed_out) == (None, True)


def test_run_batches_runs_every_world_at_once():
    _need_worlds()
    job = worlds.Job(["/usr/bin/locale", "charmap"], {"LANG": "zh_TW.BIG5"})
    got = worlds.run_batches([("big5", [job, job]), ("installed", [job]),
                              ("no-locales", [job])], ["/"], cache=locale_cache())
    assert [[r.stdout for r in runs] for runs in got] == [
        [b"BIG5\n", b"BIG5\n"], [b"ANSI_X3.4-1968\n"], [b"ANSI_X3.4-1968\n"]]


def test_mount_error_is_clear(monkeypatch):
    _need_worlds()
    real = worlds.jobs._entry

    def bad_mount(name, roots, via, cache):
        runner, part = real(name, roots, via, cache)
        return runner, dict(part, mounts=[["/nonexistent-src", "/usr/lib/locale"]])
    monkeypatch.setattr(worlds.jobs, "_entry", bad_mount)
    with pytest.raises(WorldError, match=r"world 'no-locales'.*mount.*nonexistent-src"):
        worlds.run("no-locales", [worlds.Job(["/bin/true"], {})], ["/"], cache=locale_cache())


def test_a_runner_that_dies_is_a_world_error(monkeypatch, tmp_path):
    _need_worlds()
    runner = tmp_path / "runner.py"
    runner.write_text("import sys\nsys.stderr.write('boom')\nsys.exit(3)\n")
    monkeypatch.setattr(worlds.jobs, "_RUNNER", str(runner))
    with pytest.raises(WorldError, match=r"world 'installed': runner failed \(exit 3\): boom"):
        worlds.run("installed", [worlds.Job(["/bin/true"], {})], ["/"])


def _wait_for(path):
    for _ in range(600):
        if os.path.exists(path):
            return
        time.sleep(0.05)
    raise AssertionError("%s never appeared" % path)


def _gone(pid):
    for _ in range(200):
        try:
            with open("/proc/%d/stat" % pid, "rb") as f:
                if f.read().rsplit(b")", 1)[-1].split()[0] == b"Z":
                    return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signalled_runner_ends_its_jobs_starts_no_other_and_replies(tmp_path, signum):
    started = str(tmp_path / "started")
    b64 = worlds.jobs._encode
    request = {"mounts": [], "workers": 1, "jobs": [b64(job) for job in (
        worlds.Job(["/bin/sh", "-c", "echo $$ > %s.part && mv %s.part %s; exec sleep 300"
                    % (started, started, started)], {}, timeout=600),
        worlds.Job(["/bin/echo", "never"], {}, timeout=600))]}
    runner = subprocess.Popen([sys.executable, "-I", worlds.jobs._RUNNER], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        runner.stdin.write(json.dumps(request).encode())
        runner.stdin.close()
        _wait_for(started)
        with open(started) as f:
            sleeper = int(f.read())
        runner.send_signal(signum)
        out, err = runner.stdout.read(), runner.stderr.read()
        runner.wait(120)
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
    assert (runner.returncode, err) == (0, b"")
    first, second = json.loads(out.decode())["results"]
    assert (first["returncode"], first["timed_out"]) == (-signal.SIGTERM, False)
    assert second == {"returncode": None, "timed_out": False, "stopped": True, "stdout": "",
                      "stderr": "", "seconds": 0.0, "then": None}
    assert _gone(sleeper)


@pytest.mark.parametrize("signum, status, line", [
    (signal.SIGINT, 130, b"utf8env: matrix: interrupted\n"),
    (signal.SIGTERM, 143, b"utf8env: matrix: ended by SIGTERM\n"),
    (signal.SIGHUP, 129, b"utf8env: matrix: ended by SIGHUP\n"),
])
def test_a_signal_stops_the_matrix_and_its_cells_in_one_line(signum, status, line, tmp_path):
    started = tmp_path / "started"
    script = tmp_path / "sleepy.py"
    script.write_text("import os, time\nwith open(%r, 'w') as f:\n    f.write(str(os.getpid()))"
                      "\ntime.sleep(300)\n" % str(started))
    from utf8env._own_command import own_command
    # The signal's default disposition, whatever this run inherited: a suite started in
    # the background of a script (its SIGINT ignored) or under nohup (SIGHUP).
    proc = subprocess.Popen(own_command() + ["matrix", "--python", sys.executable, "--env-set",
                                             "utf8-locale", "--", str(script)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signum, signal.SIG_DFL))
    try:
        _wait_for(str(started))
        while not started.read_text():
            time.sleep(0.05)
        proc.send_signal(signum)          # this process alone: kill -INT
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert (proc.returncode, out, err) == (status, b"", line)
    assert _gone(int(started.read_text()))
    # The cells' folders went with them (the test's own TMPDIR: tests/support/isolation.py).
    assert os.listdir(tempfile.gettempdir()) == []


def test_a_signal_ignored_on_entry_stays_ignored_and_the_matrix_ends_on_its_own(tmp_path):
    # nohup's SIGHUP: utf8env does not catch what its caller chose to ignore.
    started, go = tmp_path / "started", tmp_path / "go"
    script = tmp_path / "waits.py"
    script.write_text("import os, time\nopen(%r, 'w').close()\nwhile not os.path.exists(%r):\n"
                      "    time.sleep(0.05)\n" % (str(started), str(go)))
    from utf8env._own_command import own_command
    proc = subprocess.Popen(own_command() + ["matrix", "--python", sys.executable, "--env-set",
                                             "utf8-locale", "--", str(script)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    try:
        _wait_for(str(started))
        proc.send_signal(signal.SIGHUP)
        go.write_text("")
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert (proc.returncode, err) == (0, b"")
    assert out.startswith(b"utf8env matrix -- waits.py\n")
    assert out.endswith(b"\n1 cell, 0 with a problem\n")


@pytest.mark.fast
def test_an_unknown_world_is_a_value_error():
    with pytest.raises(ValueError, match="unknown world 'mars'"):
        worlds.run("mars", [], ["/"])


@pytest.mark.fast
def test_the_runner_is_child_code():
    assert os.path.dirname(worlds.jobs._RUNNER).endswith(os.path.join("utf8env", "_child"))
    assert os.path.isfile(worlds.jobs._RUNNER)


@pytest.mark.fast
def test_no_path_of_the_test_harness_in_the_product():
    """The Debian chroot and the old /var/cache folders are the tests' (their fixtures name
    them): the product searches a chroot only where UTF8ENV_DEBIAN_ROOT names one."""
    found = []
    for top, _, files in os.walk(os.path.join(SRC, "utf8env")):
        for name in files:
            if name.endswith((".py", ".c", ".sh")):
                with open(os.path.join(top, name), encoding="utf-8") as f:
                    text = f.read()
                for needle in ("/var/cache/utf8env", "debian-sid"):
                    if needle in text:
                        found.append((os.path.relpath(os.path.join(top, name), SRC), needle))
    assert found == []
    env = dict(os.environ)
    env.pop("UTF8ENV_DEBIAN_ROOT", None)
    code = ("import sys; sys.path.insert(0, %r); from utf8env import _discovery as discovery; "
            "print(sorted({i.root for i in discovery.interpreters()}))" % SRC)
    out = subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE)
    assert out.stdout in (b"['/']\n", b"[]\n")
