"""`utf8env run` passes bytes, not text, in every locale (issue 17): in real legacy glibc
locales (Big5, Big5-HKSCS, EUC-JP, GB18030, and ARMSCII-8, GEORGIAN-PS, EUC-TW,
WINDOWS-31J, whose codesets CPython lacks), a command's arguments and environment arrive
as the bytes utf8env received, through the compiled launcher, the shell stub and
`python -I -m utf8env`; utf8env itself starts and explains the user's locale there; the
compiled launcher execs as env(1) does; without /proc and as an unprivileged user too.

The observer is a C program (support/locale_worlds.py) that writes the argv and environ
it got as NUL-separated bytes; the environment is set byte for byte by another (execenv).
What arrives through utf8env is compared with what the observer prints when run directly
in the same environment."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import pytest

from support import install, locale_worlds as lw

VERSIONS = ("3.6", "3.11", "3.13")
FORMS = ("c", "sh")
ALL_WORLDS = [w.key for w in lw.WORLDS]
CODEC_WORLDS = list(lw.PYTHON_CODECS)             # where every CPython starts
NO_CODEC_WORLDS = ["armscii8", "georgianps", "euctw", "windows31j"]
BASE_PATH = b"/usr/bin:/bin"


def _pyenv_root():
    root = os.environ.get("PYENV_ROOT")
    if root:
        return root
    return os.path.join(os.path.expanduser("~"), ".pyenv")


def _find_python(version):
    """The newest pyenv CPython `version`, or None."""
    found = []
    for root in {_pyenv_root(), "/root/.pyenv"}:
        for path in glob.glob(os.path.join(root, "versions", version + ".*", "bin",
                                           "python" + version)):
            tail = os.path.basename(os.path.dirname(os.path.dirname(path)))
            if tail.split(".")[-1].isdigit() and os.access(path, os.X_OK):
                found.append((tuple(int(p) for p in tail.split(".")), path))
    return max(found)[1] if found else None


PYTHONS = {v: _find_python(v) for v in VERSIONS}


# -- fixtures: built once per module -------------------------------------------------------

@pytest.fixture(scope="module")
def worlds(tmp_path_factory):
    """(LOCPATH, {key: None when live, else why not})."""
    locpath = str(tmp_path_factory.mktemp("locales"))
    missing = lw.tools_missing()
    if missing:
        return locpath, {key: missing for key in ALL_WORLDS}
    return locpath, lw.build(locpath)


def _world(worlds, key):
    locpath, reasons = worlds
    if reasons[key]:
        pytest.skip("locale world %s: %s" % (key, reasons[key]))
    return lw.BY_KEY[key], locpath


@pytest.fixture(scope="module")
def tools(tmp_path_factory):
    """(observe, execenv), compiled here."""
    built = lw.compile_tools(str(tmp_path_factory.mktemp("observer")))
    if isinstance(built, str):
        pytest.skip(built)
    return built


@pytest.fixture(scope="module")
def wheels(tmp_path_factory):
    """{form: wheel path or the exception that stopped its build}."""
    out = {}
    for form in FORMS:
        try:
            out[form] = install.build_wheel(str(tmp_path_factory.mktemp("wheel-" + form)),
                                            launcher=form)
        except Exception as exc:        # reported by the tests that need it
            out[form] = exc
    return out


@pytest.fixture(scope="module")
def venvs(wheels, tmp_path_factory):
    """{(version, form): bin folder, or why there is none}: every venv built at once, two at
    a time (pip is slow and single-threaded)."""
    jobs = {}
    for version in VERSIONS:
        for form in FORMS:
            if PYTHONS[version] is None:
                jobs[version, form] = "no Python %s under %s/versions" % (version, _pyenv_root())
            elif isinstance(wheels[form], Exception):
                jobs[version, form] = "the %s wheel was not built: %s" % (form, wheels[form])
            else:
                jobs[version, form] = (wheels[form],
                                       str(tmp_path_factory.mktemp("venv-%s-%s" % (version, form))),
                                       PYTHONS[version])

    def make(job):
        if isinstance(job, str):
            return job
        try:
            return install.venv_with(*job)
        except Exception as exc:
            return "venv not made: %s" % exc

    with ThreadPoolExecutor(2) as pool:
        results = dict(zip(jobs, pool.map(make, jobs.values())))
    return results


def _bin(venvs, version, form):
    found = venvs[version, form]
    if not os.path.isdir(found):
        pytest.skip(found)
    return found


@pytest.fixture(scope="module", autouse=True)
def home(tmp_path_factory):
    """The module's HOME, also this process's while the module's fixtures run (pip builds
    the wheels and venvs with this process's environment): never the real one."""
    folder = tmp_path_factory.mktemp("module-home")
    (folder / ".cache").mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(folder))
        patch.setenv("XDG_CACHE_HOME", str(folder / ".cache"))
        yield str(folder)


@pytest.fixture(scope="module")
def no_proc():
    """The prefix that runs a command where /proc is an empty tmpfs (a bare chroot, a
    sandbox), in its own mount namespace; skips where that cannot be made."""
    wrap = ["unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
            'mount -t tmpfs none /proc && exec "$@"', "sh"]
    if shutil.which("unshare") is None:
        pytest.skip("no unshare for a mount namespace without /proc")
    probe = subprocess.run(wrap + ["/bin/sh", "-c", "test ! -e /proc/self"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           env={"PATH": "/usr/bin:/bin"})
    if probe.returncode != 0:
        pytest.skip("cannot hide /proc here (root needed for unshare --mount): %s"
                    % probe.stdout.decode(errors="replace").strip())
    return wrap


# -- helpers -------------------------------------------------------------------------------

def _b(text):
    return text if isinstance(text, bytes) else os.fsencode(text)


def _plain_environ(world, locpath, home):
    """What a user in the world has: no coercion anywhere (LC_ALL is set)."""
    return [b"PATH=" + BASE_PATH, b"HOME=" + _b(home), b"XDG_CACHE_HOME=" + _b(home) + b"/.cache",
            b"LOCPATH=" + _b(locpath), b"LC_ALL=" + _b(world.lc_all)]


def _hostile_environ(world, locpath, home):
    """The world's environment with its bytes as values, every kind of entry execve allows
    (duplicates, no '=', names that are not identifiers or not ASCII) and the variables
    utf8env keeps aside from its own interpreter, in no particular order."""
    cases = [b"V%d=%s" % (i, case) for i, case in enumerate(world.cases)]
    return ([b"PATH=" + BASE_PATH, b"LANG=C", cases[0], b"PYTHONHASHSEED=42",
             b"DUP=first", b"LC_ALL=" + _b(world.lc_all), b"noequals", b"DUP=second" +
             world.cases[0], b"spring.profiles.active=dev"] + cases[1:] +
            [b"N" + world.cases[0] + b"=a name that is not ASCII", b"EMPTY=", b"WS= a\tb\nc ",
             b"LC_CTYPE=C", b"HOME=" + _b(home), b"PYTHONMALLOC=malloc", b"no=equals=twice",
             b"XDG_CACHE_HOME=" + _b(home) + b"/.cache", b"PYTHONCOERCECLOCALE=warn",
             b"LOCPATH=" + _b(locpath), b"PYTHONIOENCODING=no-such-codec", b"PYTHONUTF8=maybe",
             b"just-text\xff", b"ZZ=last"])


def _arguments(world, observe):
    return [_b(observe)] + list(world.cases) + [b"", b"--", b"--utf8", b"a b", b"*", b"-", b"\n"]


_COUNTER = [0]


def _execenv(tools, entries, argv, folder, wrap=(), cwd=None):
    """argv run with exactly `entries` as its environment."""
    _COUNTER[0] += 1
    env_file = os.path.join(str(folder), "environ.%d" % _COUNTER[0])
    lw.write_environ(env_file, entries)
    return subprocess.run(list(wrap) + [_b(tools[1]), _b(env_file)] + [_b(a) for a in argv],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env={"PATH": "/usr/bin:/bin"}, cwd=cwd)


def _observed(result):
    """(status, stderr, (argv, environ)): the whole of what the observer saw."""
    parsed = lw.parse(result.stdout) if result.stdout else None
    return result.returncode, result.stderr, parsed


def _run(argv, env):
    return subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


# -- Bytes end to end ----------------------------------------------------------------------

@pytest.mark.parametrize("world_key", ALL_WORLDS)
@pytest.mark.parametrize("version", VERSIONS)
def test_the_compiled_launcher_passes_every_byte_in_order(version, world_key, worlds, tools,
                                                          venvs, home, tmp_path):
    # Every argument, and every environment entry (duplicates, no '=', names of any
    # bytes, the kept-aside variables in their places), as the observer gets them directly.
    world, locpath = _world(worlds, world_key)
    utf8env = os.path.join(_bin(venvs, version, "c"), "utf8env")
    entries = _hostile_environ(world, locpath, home)
    argv = _arguments(world, tools[0])
    direct = _execenv(tools, entries, argv, tmp_path)
    assert _observed(direct) == (0, b"", (argv, entries))      # the observer sees all
    via = _execenv(tools, entries, [utf8env, "run", "--"] + argv, tmp_path)
    assert _observed(via) == (0, b"", (argv, entries))


@pytest.mark.parametrize("world_key", ALL_WORLDS)
@pytest.mark.parametrize("version", VERSIONS)
def test_the_stub_passes_arguments_and_values_exactly(version, world_key, worlds, tools, venvs,
                                                      home, tmp_path):
    # The shell stub's documented limits: dash passes on only names that are shell
    # identifiers and sets PWD; duplicates and entries without '=' are not kept.
    world, locpath = _world(worlds, world_key)
    utf8env = os.path.join(_bin(venvs, version, "sh"), "utf8env")
    entries = _hostile_environ(world, locpath, home)
    argv = _arguments(world, tools[0])
    via = _execenv(tools, entries, [utf8env, "run", "--"] + argv, tmp_path)
    status, err, seen = _observed(via)
    assert (status, err) == (0, b"")
    assert seen[0] == argv
    limits = dict(identifiers_only=True, drop={b"PWD"})
    assert lw.within_limits(seen[1], entries, **limits) == lw.within_limits(entries, entries,
                                                                           **limits)


@pytest.mark.parametrize("world_key", CODEC_WORLDS + ["windows31j"])
@pytest.mark.parametrize("version", VERSIONS)
def test_python_m_utf8env_passes_arguments_and_values_exactly(version, world_key, worlds, tools,
                                                              venvs, home, tmp_path):
    # `python -I -m utf8env run`: the interpreter's own start, no launcher; os.execve takes
    # a mapping, so duplicates and entries without '=' are not kept; the rest is exact.
    # Only where the interpreter itself starts: it has a codec for the world's codeset.
    if world_key == "windows31j" and version != "3.13":
        pytest.skip("CPython %s has no WINDOWS-31J codec: it cannot start there" % version)
    # Some bytes stop CPython before any of its code runs (GB18030's invalid four-byte
    # sequences: "cannot decode command line arguments"; a cut one: "memory allocation
    # failed" on 3.11+): those travel in the environment only.
    world, locpath = _world(worlds, world_key)
    python = os.path.join(_bin(venvs, version, "c"), "python")
    entries = _hostile_environ(world, locpath, home)
    plain = {"PATH": "/usr/bin:/bin", "LOCPATH": locpath, "LC_ALL": world.lc_all}
    argv = [a for a in _arguments(world, tools[0])
            if _run([_b(python), b"-I", b"-S", b"-c", b"", a], plain).returncode == 0]
    assert len(argv) > len(world.cases) // 2
    via = _execenv(tools, entries, [python, "-I", "-m", "utf8env", "run", "--"] + argv, tmp_path)
    status, err, seen = _observed(via)
    assert (status, err) == (0, b"")
    assert seen[0] == argv
    assert lw.within_limits(seen[1], entries) == lw.within_limits(entries, entries)


@pytest.mark.parametrize("form", ["c", "sh", "python -m"])
@pytest.mark.parametrize("version", VERSIONS)
def test_the_issues_big5_bytes_arrive_unchanged(version, form, worlds, tools, venvs, home,
                                                tmp_path):
    # The case of the issue alone, which a decode and re-encode changes without a word
    # (exit 0): A\xa1\xfeB arrived as A\xa2AB, as an argument and as a value.
    world, locpath = _world(worlds, "big5")
    bin_folder = _bin(venvs, version, "sh" if form == "sh" else "c")
    prefix = ([os.path.join(bin_folder, "python"), "-I", "-m", "utf8env"] if form == "python -m"
              else [os.path.join(bin_folder, "utf8env")])
    entries = _plain_environ(world, locpath, home) + [b"V=A\xa1\xfeB"]
    argv = [_b(tools[0]), b"A\xa1\xfeB"]
    via = _execenv(tools, entries, prefix + ["run", "--"] + argv, tmp_path)
    status, err, seen = _observed(via)
    assert (status, err, seen[0]) == (0, b"", argv)
    assert [e for e in seen[1] if e.startswith(b"V=")] == [b"V=A\xa1\xfeB"]


def test_the_worlds_are_live_and_break_a_decode_and_encode(worlds):
    # The worlds are real (libc reports their charmap) and the cases are what they claim:
    # for every codec world, some case does not survive libc's decoding followed by the
    # Python codec's encoding (the path the bytes took before issue 17).
    locpath, reasons = worlds
    live = [key for key, reason in reasons.items() if reason is None]
    if not live:
        pytest.skip("no locale world: %s" % sorted(set(reasons.values())))
    for key in live:
        assert lw.charmap(lw.BY_KEY[key], locpath) == lw.BY_KEY[key].charmap
    code = ("import ctypes, sys\n"
            "libc = ctypes.CDLL(None)\n"
            "libc.setlocale.restype = ctypes.c_char_p\n"
            "assert libc.setlocale(0, b'')\n"        # LC_CTYPE from LC_ALL
            "libc.mbstowcs.restype = ctypes.c_ssize_t\n"
            "buf = ctypes.create_unicode_buffer(64)\n"
            "broken = 0\n"
            "for case in sys.stdin.buffer.read().split(b'\\0'):\n"
            "    n = libc.mbstowcs(buf, case, 64)\n"
            "    if n < 0: continue\n"
            "    try: again = buf[:n].encode(sys.argv[1], 'surrogateescape')\n"
            "    except UnicodeEncodeError: again = None\n"
            "    broken += again != case\n"
            "print(broken)\n")
    checked = 0
    for key, codec in lw.PYTHON_CODECS.items():
        if key not in live:
            continue
        world = lw.BY_KEY[key]
        result = subprocess.run([sys.executable, "-I", "-c", code, codec],
                                input=b"\0".join(world.cases), stdout=subprocess.PIPE,
                                env={"PATH": "/usr/bin:/bin", "LOCPATH": locpath,
                                     "LC_ALL": world.lc_all})
        assert result.returncode == 0
        assert int(result.stdout) >= 2, key
        checked += 1
    assert checked


# -- utf8env itself starts anywhere --------------------------------------------------------

def _both_ways(utf8env, world, locpath, home, command):
    """`utf8env COMMAND...` in the user's world, and the same asked about that world from a
    plain environment (--empty-env --env LC_ALL=... --env LOCPATH=...)."""
    plain = {"PATH": "/usr/bin:/bin", "HOME": home, "XDG_CACHE_HOME": home + "/.cache"}
    inside = _run([utf8env] + command, dict(plain, LOCPATH=locpath, LC_ALL=world.lc_all))
    outside = _run([utf8env] + command + ["--empty-env", "--env", "LC_ALL=" + world.lc_all,
                                          "--env", "LOCPATH=" + locpath], plain)
    return inside, outside


@pytest.mark.parametrize("world_key", NO_CODEC_WORLDS)
@pytest.mark.parametrize("version", VERSIONS)
def test_explain_starts_where_python_lacks_the_codeset_and_explains_the_users_locale(
        version, world_key, worlds, venvs, home):
    world, locpath = _world(worlds, world_key)
    utf8env = os.path.join(_bin(venvs, version, "c"), "utf8env")
    inside, outside = _both_ways(utf8env, world, locpath, home, ["explain", "--json"])
    assert (inside.returncode, inside.stderr) == (0, b"")
    assert (outside.returncode, outside.stderr) == (0, b"")
    said = json.loads(inside.stdout.decode("utf-8"))
    assert said["lc_ctype"] == world.lc_all
    assert said["reasons"]["lc_ctype"]["source"] == "LC_ALL=" + world.lc_all
    assert said == json.loads(outside.stdout.decode("utf-8"))
    text = _run([utf8env, "explain"], {"PATH": "/usr/bin:/bin", "HOME": home,
                                       "LOCPATH": locpath, "LC_ALL": world.lc_all})
    assert (text.returncode, text.stderr) == (0, b"")
    assert ("LC_ALL=" + world.lc_all).encode() in text.stdout


@pytest.mark.parametrize("world_key", NO_CODEC_WORLDS)
@pytest.mark.parametrize("version", VERSIONS)
def test_env_starts_where_python_lacks_the_codeset_and_explains_the_users_locale(
        version, world_key, worlds, venvs, home):
    world, locpath = _world(worlds, world_key)
    utf8env = os.path.join(_bin(venvs, version, "c"), "utf8env")
    inside, outside = _both_ways(utf8env, world, locpath, home, ["env"])
    assert (inside.returncode, inside.stderr) == (0, b"")
    assert (outside.returncode, outside.stderr) == (0, b"")
    assert inside.stdout == outside.stdout
    # The user's LC_ALL names a real locale, not the C locale: nothing to coerce. (Reasoned
    # about utf8env's own LC_ALL=C, env would say that a C LC_ALL is an explicit choice.)
    assert inside.stdout == (b"# utf8env: nothing to set: nothing to coerce: the locale is not "
                             b"the legacy C locale\n")


@pytest.mark.parametrize("world_key", NO_CODEC_WORLDS)
@pytest.mark.parametrize("version", VERSIONS)
def test_doctor_starts_where_python_lacks_the_codeset_and_reads_the_users_locale(
        version, world_key, worlds, venvs, home):
    world, locpath = _world(worlds, world_key)
    utf8env = os.path.join(_bin(venvs, version, "c"), "utf8env")
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "XDG_CACHE_HOME": home + "/.cache",
           "LOCPATH": locpath, "LC_ALL": world.lc_all}
    result = _run([utf8env, "doctor", "--json"], env)
    assert result.stderr == b""
    data = json.loads(result.stdout.decode("utf-8"))
    assert result.returncode == (1 if data["problems"] else 0)     # 0 ok, 1 problems found
    locale = data["locale"]
    assert (locale["variables"], locale["decided_by"], locale["lc_ctype"], locale["codeset"]) == (
        {"LC_ALL": world.lc_all}, "LC_ALL", world.lc_all, world.charmap)
    text = _run([utf8env, "doctor"], env)
    assert (text.returncode, text.stderr) == (result.returncode, b"")
    assert text.stdout.splitlines()[0] == data["verdict"].encode()


# -- Exec semantics of the compiled launcher -----------------------------------------------

def _exec_env(tmp_path, home):
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    return {"PATH": "%s:/usr/bin:/bin" % folder, "HOME": home, "XDG_CACHE_HOME": home + "/.cache",
            "LC_ALL": "C.UTF-8"}, folder


def _script(folder, name, text):
    path = folder / name
    path.write_bytes(text)
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize("version", VERSIONS)
def test_a_script_without_a_shebang_runs_through_bin_sh(version, venvs, home, tmp_path):
    # execvp's ENOEXEC rule, as env(1), nice and timeout follow it: /bin/sh runs the file.
    utf8env = os.path.join(_bin(venvs, version, "c"), "utf8env")
    env, folder = _exec_env(tmp_path, home)
    path = _script(folder, "plain-script", b'printf "[%s]" "$0" "$@"; echo; exit 7\n')
    for command in (path, "plain-script"):            # a path; a name found on PATH
        args = [command, "a b", b"\xa1\xfe", ""]
        direct = _run([b"/usr/bin/env"] + [_b(a) for a in args], env)
        assert (direct.returncode, direct.stderr) == (7, b"")
        assert direct.stdout == b"[%s][a b][\xa1\xfe][]\n" % _b(path)
        via = _run([_b(utf8env), b"run", b"--"] + [_b(a) for a in args], env)
        assert (via.returncode, via.stdout, via.stderr) == (7, direct.stdout, b"")


@pytest.mark.parametrize("version", VERSIONS)
def test_a_missing_shebang_interpreter_is_127_as_env_says(version, venvs, home, tmp_path):
    utf8env = os.path.join(_bin(venvs, version, "c"), "utf8env")
    env, folder = _exec_env(tmp_path, home)
    path = _script(folder, "orphan", b"#!/no/such/interpreter\necho never\n")
    assert _run(["/usr/bin/env", path], env).returncode == 127
    via = _run([utf8env, "run", "--", path, "x"], env)
    assert (via.returncode, via.stdout, via.stderr) == (
        127, b"", b"utf8env: error: command '%s': No such file or directory\n" % _b(path))


@pytest.mark.parametrize("version", VERSIONS)
def test_a_command_not_on_path_is_127(version, venvs, home, tmp_path):
    utf8env = os.path.join(_bin(venvs, version, "c"), "utf8env")
    env, _ = _exec_env(tmp_path, home)
    assert _run(["/usr/bin/env", "nosuch"], env).returncode == 127
    via = _run([utf8env, "run", "--", "nosuch"], env)
    assert (via.returncode, via.stdout, via.stderr) == (
        127, b"", b"utf8env: error: command 'nosuch': not found on PATH\n")


@pytest.mark.parametrize("version", VERSIONS)
def test_a_directory_is_126(version, venvs, home, tmp_path):
    utf8env = os.path.join(_bin(venvs, version, "c"), "utf8env")
    env, _ = _exec_env(tmp_path, home)
    folder = tmp_path / "a-folder"
    folder.mkdir()
    assert _run(["/usr/bin/env", str(folder)], env).returncode == 126
    via = _run([utf8env, "run", "--", str(folder)], env)
    assert (via.returncode, via.stdout, via.stderr) == (
        126, b"", b"utf8env: error: command '%s': is a directory\n" % _b(str(folder)))


# -- Without /proc -------------------------------------------------------------------------

@pytest.mark.parametrize("world_key", ["big5", "gb18030"])
@pytest.mark.parametrize("version", VERSIONS)
def test_without_proc_every_byte_and_kept_aside_variable_arrives(version, world_key, worlds,
                                                                 tools, venvs, home, no_proc,
                                                                 tmp_path):
    # The kept-aside variables (all seven) with their own names and values, never as
    # UTF8ENV_HIDDEN_*; LC_ALL is set, so no LC_CTYPE is added.
    world, locpath = _world(worlds, world_key)
    utf8env = os.path.join(_bin(venvs, version, "c"), "utf8env")
    entries = _hostile_environ(world, locpath, home) + [b"PYTHONMALLOCSTATS=1"]
    argv = _arguments(world, tools[0])
    direct = _execenv(tools, entries, argv, tmp_path, wrap=no_proc)
    assert _observed(direct) == (0, b"", (argv, entries))
    via = _execenv(tools, entries, [utf8env, "run", "--"] + argv, tmp_path, wrap=no_proc)
    assert _observed(via) == (0, b"", (argv, entries))


@pytest.mark.parametrize("version", VERSIONS)
def test_without_proc_the_legacy_c_locale_gets_lc_ctype_and_nothing_else_changes(
        version, tools, venvs, home, no_proc, tmp_path):
    utf8env = os.path.join(_bin(venvs, version, "c"), "utf8env")
    entries = [b"PATH=" + BASE_PATH, b"PYTHONMALLOCSTATS=1", b"LANG=C", b"V=A\xa1\xfeB\xff",
               b"DUP=1", b"PYTHONHASHSEED=42", b"noequals", b"DUP=2", b"PYTHONMALLOC=malloc",
               b"HOME=" + _b(home), b"PYTHONCOERCECLOCALE=1", b"a.b=c",
               b"XDG_CACHE_HOME=" + _b(home) + b"/.cache"]
    argv = [_b(tools[0]), b"\xa1\xfe", b"\x81\x30\x81\x30", b""]
    via = _execenv(tools, entries, [utf8env, "run", "--"] + argv, tmp_path, wrap=no_proc)
    status, err, seen = _observed(via)
    assert (status, err, seen[0]) == (0, b"", argv)
    assert [e for e in seen[1] if e.startswith(b"LC_CTYPE=")] == [b"LC_CTYPE=C.UTF-8"]
    assert [e for e in seen[1] if not e.startswith(b"LC_CTYPE=")] == entries


@pytest.mark.parametrize("version", VERSIONS)
def test_override_lc_all_unsets_it_and_changes_nothing_else(version, tools, venvs, home,
                                                            tmp_path):
    # run --override-lc-all through the compiled launcher: LC_ALL=C (each entry of it) is
    # gone, LC_CTYPE added, every other entry as it came and in order.
    utf8env = os.path.join(_bin(venvs, version, "c"), "utf8env")
    entries = [b"PATH=" + BASE_PATH, b"LC_ALL=C", b"V=A\xa1\xfeB\xff", b"DUP=1", b"noequals",
               b"DUP=2", b"LANG=C", b"HOME=" + _b(home), b"LC_ALL=C",
               b"XDG_CACHE_HOME=" + _b(home) + b"/.cache"]
    argv = [_b(tools[0]), b"\xa1\xfe"]
    via = _execenv(tools, entries, [utf8env, "run", "--override-lc-all", "--"] + argv, tmp_path)
    status, err, seen = _observed(via)
    assert (status, err, seen[0]) == (0, b"", argv)
    assert seen[1] == [e for e in entries if not e.startswith(b"LC_ALL=")] + [b"LC_CTYPE=C.UTF-8"]


# -- As an unprivileged user ---------------------------------------------------------------

def _unprivileged_python():
    """An interpreter nobody can run (pyenv's live under /root, which is private)."""
    for path in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if os.access(path, os.X_OK):
            probe = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                    path, "-c", "import venv"], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin"})
            if probe.returncode == 0:
                return path
    return None


@pytest.fixture(scope="module")
def public_place(wheels, worlds, tools):
    """A world-readable folder outside pytest's private base folder (its parents are 0700):
    a venv with the compiled launcher made by an interpreter nobody can run, the Big5
    world, the observer, a home nobody can write. Removed afterwards."""
    if os.geteuid() != 0:
        pytest.skip("not root: cannot become nobody")
    if shutil.which("setpriv") is None:
        pytest.skip("no setpriv")
    if isinstance(wheels["c"], Exception):
        pytest.skip("the c wheel was not built: %s" % wheels["c"])
    world, locpath = _world(worlds, "big5")
    python = _unprivileged_python()
    if python is None:
        pytest.skip("no Python outside a private folder that nobody can run")
    # In the machine's /tmp, whose parents nobody can search (the test's TMPDIR is under
    # pytest's 0700 folders); a folder of the test's own, removed afterwards.
    place = tempfile.mkdtemp(prefix="utf8env-test-bytes-", dir="/tmp")
    try:
        os.chmod(place, 0o755)
        bin_folder = install.venv_with(wheels["c"], os.path.join(place, "venv"), python)
        shutil.copytree(os.path.join(locpath, world.folder),
                        os.path.join(place, "locales", world.folder))
        copies = []
        for tool in tools:
            copies.append(os.path.join(place, os.path.basename(tool)))
            shutil.copy2(tool, copies[-1])
        for root, dirs, files in os.walk(place):        # readable (and searchable) by all
            for name in dirs + files:
                path = os.path.join(root, name)
                if not os.path.islink(path):
                    mode = os.stat(path).st_mode
                    os.chmod(path, mode | 0o444 | (0o111 if mode & 0o100 else 0))
        home = os.path.join(place, "home")
        os.makedirs(os.path.join(home, ".cache"))
        os.chmod(home, 0o777)
        os.chmod(os.path.join(home, ".cache"), 0o777)
        yield {"place": place, "bin": bin_folder, "locpath": os.path.join(place, "locales"),
               "tools": tuple(copies), "home": home, "world": world}
    finally:
        shutil.rmtree(place, ignore_errors=True)


def test_as_nobody_every_byte_arrives(public_place):
    p = public_place
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    entries = _hostile_environ(p["world"], p["locpath"], p["home"])
    argv = _arguments(p["world"], p["tools"][0])
    direct = _execenv(p["tools"], entries, argv, p["place"], wrap=nobody)
    assert _observed(direct) == (0, b"", (argv, entries))
    via = _execenv(p["tools"], entries, [os.path.join(p["bin"], "utf8env"), "run", "--"] + argv,
                   p["place"], wrap=nobody)
    assert _observed(via) == (0, b"", (argv, entries))
