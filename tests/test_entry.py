"""The installed `utf8env` command (bin/utf8env alone: scripts/launcher.c compiled, or the
shell stub scripts/utf8env.sh), as pip and pipx put it in a venv, a prefix or --user's
folder: in both forms it finds its installation (this version's metadata in
../lib/pythonX.Y) and that installation's interpreter by itself, starts it without site
and without the user's PYTHON* variables, passes bytes and status through, and says in
one line what it looked for where it finds neither."""
import datetime
import json
import os
import pickle
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile

import pytest

from support import install, machine, threads
from utf8env import _worlds as worlds

sys.path.insert(0, install.TOOLS)
import build_backend  # noqa: E402

VERSIONS = ("3.6", "3.13")        # the venv fixture's: each skipped where it is missing
SITE_MARK = b"site ran\n"
BASE = {"PATH": "/usr/bin:/bin", "LANG": "C"}
SRC = os.path.join(install.ROOT, "src")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    return install.build_wheel(str(tmp_path_factory.mktemp("wheel")))


@pytest.fixture(scope="module")
def sdist(tmp_path_factory):
    return install.build_sdist(str(tmp_path_factory.mktemp("sdist")))


def _venv(wheel, folder, version):
    bin_folder = install.venv_with(wheel, folder, machine.python(version))
    _mark_site(folder)
    return bin_folder


def _mark_site(folder):
    # A .pth file that shows whether site ran: site executes its import lines (once, though
    # a 3.6 venv's lib64 link shows site the same folder twice).
    (packages,) = [os.path.join(root, "site-packages") for root, dirs, _ in
                   os.walk(os.path.join(folder, "lib")) if "site-packages" in dirs]
    with open(os.path.join(packages, "zz_site_mark.pth"), "w") as f:
        f.write("import os, sys; hasattr(sys, 'site_mark') or "
                "(os.write(2, b'site ran\\n'), setattr(sys, 'site_mark', 1))\n")


# The compiled launcher, the shell stub.
FORMS = ("c", "sh")
_FORM_OF = {}                # the venv fixture's bin folders: the form of each


@pytest.fixture(scope="module")
def stub_wheel(tmp_path_factory):
    return install.build_wheel(str(tmp_path_factory.mktemp("stub-wheel")), launcher="sh")


@pytest.fixture(scope="module", params=[(v, f) for v in VERSIONS for f in FORMS],
                ids=lambda p: "%s-%s" % p)
def venv(request, installs, stub_wheel, tmp_path_factory):
    """The bin folder of a venv of that version with the site mark: for the compiled
    launcher, the install matrix's venv (the wheel installed last); for the stub, one
    with its wheel."""
    version, form = request.param
    machine.python(version)
    if form == "c":
        machine.compiler()      # else the wheel holds the stub
        folder = _get(installs, version, "pip")["venv"]
        _mark_site(folder)
        bin_folder = os.path.join(folder, "bin")
    else:
        bin_folder = _venv(stub_wheel, str(tmp_path_factory.mktemp(form) / "venv"), version)
    _FORM_OF[bin_folder] = form
    return bin_folder


# What pip and venv put in a venv's bin folder besides utf8env's command (3.14's venv
# links \U0001d70bthon too).
VENV_OWN = re.compile(r"^(activate(\.\w+)?|Activate\.ps1|pip[0-9.]*|python[0-9.]*"
                      r"|easy_install(-[0-9.]+)?|\U0001d70bthon)$")


def _commands_in(bin_folder):
    """The files of `bin_folder` that are not the venv's or pip's own, sorted."""
    return sorted(name for name in os.listdir(bin_folder) if not VENV_OWN.match(name))


def run(command, env=None, **kw):
    return subprocess.run(command, env=dict(BASE, **(env or {})), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, **kw)


def test_pip_installs_the_command_alone(venv, monkeypatch):
    monkeypatch.setenv("UTF8ENV_LAUNCHER", _FORM_OF[venv])
    command, _ = build_backend.command_files()
    with open(os.path.join(venv, "utf8env"), "rb") as f:
        installed = f.read()
    if _FORM_OF[venv] == "c":
        assert installed == dict(command)["utf8env"]        # the launcher, as built
    else:
        assert installed.startswith(b"#!/bin/sh\n# utf8env's command where no C compiler")
        assert build_backend.start_code() in installed
    # No second file a tool could take for a command (pipx links every file of bin), no
    # bytecode of one (pip compiles the .py files it installs).
    assert _commands_in(venv) == ["utf8env"]


def test_the_command_starts_without_site(venv):
    control = run([os.path.join(venv, "python"), "-c", "pass"])
    assert control.stderr == SITE_MARK          # the mark works: a normal start prints it
    result = run([os.path.join(venv, "utf8env"), "run", "--", "echo", "hi"])
    assert (result.returncode, result.stdout, result.stderr) == (0, b"hi\n", b"")


def test_python_variables_reach_the_command_not_utf8env(venv, tmp_path):
    # Each of these stops a normal start of utf8env's own interpreter, or replaces its code.
    shadow = tmp_path / "utf8env"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("raise SystemExit('the wrong utf8env')\n")
    hostile = {"PYTHONIOENCODING": "no-such-codec", "PYTHONPATH": str(tmp_path),
               "PYTHONUTF8": "maybe"}
    control = run([os.path.join(venv, "python"), "-c", "pass"], env=hostile)
    assert control.returncode != 0
    result = run([os.path.join(venv, "utf8env"), "run", "--", "sh", "-c",
                  'echo "$PYTHONIOENCODING $PYTHONUTF8"'], env=hostile)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"no-such-codec maybe\n", b"")


def test_variables_named_as_the_stubs_own_reach_the_command_as_they_were(venv):
    # The stub names its own variables utf8env_*: each of these it once set for itself.
    mine = {name: "mine" for name in ("self", "here", "main", "lib", "best", "version", "name",
                                      "interpreter", "candidate", "rest", "ignored", "stat",
                                      "kept", "set", "x_y", "packages")}
    result = run([os.path.join(venv, "utf8env"), "run", "--", "env"], env=mine)
    assert (result.returncode, result.stderr) == (0, b"")
    assert {line for line in result.stdout.decode().splitlines()
            if line.partition("=")[0] in mine} == {name + "=mine" for name in mine}


def test_the_coercion_warning_is_printed_once_as_cpython_prints_it(venv):
    # PYTHONCOERCECLOCALE=warn: the launcher warns for the command it coerces, with 3.7's
    # words; its own interpreter, started with -I, adds no second warning.
    py37 = machine.python("3.7")
    warn = {"PYTHONCOERCECLOCALE": "warn"}
    native = run([py37, "-c", "pass"], env=warn)
    assert native.stderr.count(b"\n") == 1
    result = run([os.path.join(venv, "utf8env"), "run", "--", "sh", "-c", ":"], env=warn)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", native.stderr)


def test_bytes_status_and_signals_pass_through_the_stub(venv):
    utf8env = os.path.join(venv, "utf8env")
    words = [b"", b"a b", b"\xff\xfe", b"--", b'"$@"', b"*"]
    result = run([utf8env.encode(), b"run", b"--", b"printf", b"[%s]\\n"] + words)
    assert result.stdout == b"".join(b"[" + w + b"]\n" for w in words)
    assert run([utf8env, "run", "--", "sh", "-c", "exit 3"]).returncode == 3
    assert run([utf8env, "run", "--", "sh", "-c", "kill -TERM $$"]).returncode == -signal.SIGTERM
    missing = run([utf8env, "run", "--", "/no/such/command"])
    assert (missing.returncode, missing.stdout, missing.stderr) == (
        127, b"", b"utf8env: error: command '/no/such/command': not found\n")


def test_pep538_example_for_36_through_the_installed_command(wheel, venv):
    py36 = machine.python("3.6")
    program = ["-c", 'print("\u2119\u01b4\u2602\u210c\u00f8\u1f24")']
    alone = subprocess.run([py36] + program, env={}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert alone.returncode == 1 and b"UnicodeEncodeError" in alone.stderr
    result = subprocess.run([os.path.join(venv, "utf8env"), "run", "--", py36] + program, env={},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (result.returncode, result.stdout, result.stderr) == (
        0, "\u2119\u01b4\u2602\u210c\u00f8\u1f24\n".encode("utf-8"), b"")


def test_the_locale_facts_follow_the_commands_locpath(venv):
    # The launcher asks libc in its own process, under the command's environment: a
    # locale that only LOCPATH provides is not the legacy C locale, so nothing is coerced.
    machine.worlds()
    worlds.prepare(["/"])
    show = [os.path.join(venv, "utf8env"), "run", "--", "sh", "-c", 'echo "${LC_CTYPE-unset}"']
    lang = {"LANG": "en_US.UTF-8"}
    assert run(show, env=lang).stdout == b"C.UTF-8\n"      # not installed: coerced
    provided = dict(lang, LOCPATH=worlds.world_dir("en_US-only", "/"))
    result = run(show, env=provided)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"unset\n", b"")


def _packages_of(venv):
    """The site-packages folder of the venv whose bin folder is `venv`."""
    (packages,) = [os.path.join(root, "site-packages") for root, dirs, _ in
                   os.walk(os.path.join(os.path.dirname(venv), "lib")) if "site-packages" in dirs]
    return packages


def test_debians_dist_packages_is_found_without_site(venv, tmp_path):
    # pip on Debian's own python3 installs into /usr/local: bin/ and
    # lib/python3.X/dist-packages/; a CPython built into /usr/local has its pythonX.Y in
    # that bin. The same layout, made by hand around the venv's files.
    packages = _packages_of(venv)
    x_y = os.path.basename(os.path.dirname(packages))
    prefix = tmp_path / "usr-local"
    (prefix / "bin").mkdir(parents=True)
    shutil.copy2(os.path.join(venv, "utf8env"), str(prefix / "bin" / "utf8env"))
    (prefix / "bin" / x_y).symlink_to(os.path.realpath(os.path.join(venv, "python")))
    dist = prefix / "lib" / x_y / "dist-packages"
    for name in ("utf8env", "utf8env-%s.dist-info" % build_backend.package_version()):
        shutil.copytree(os.path.join(packages, name), str(dist / name))
    result = run([str(prefix / "bin" / "utf8env"), "run", "--", "echo", "debian"])
    assert (result.returncode, result.stdout, result.stderr) == (0, b"debian\n", b"")


def test_a_link_to_the_command_works_as_the_command(venv, tmp_path):
    link = tmp_path / "utf8env"       # as pipx links it into ~/.local/bin
    link.symlink_to(os.path.join(venv, "utf8env"))
    result = run([str(link), "run", "--", "echo", "linked"])
    assert (result.returncode, result.stdout, result.stderr) == (0, b"linked\n", b"")


def _not_installed(folder):
    """The line of a command that finds no installation of its version from `folder`."""
    return ("utf8env: error: no utf8env %s in %s/../lib/pythonX.Y/site-packages or "
            "dist-packages: the utf8env command works where pip installed it; link to it (ln -s) "
            "rather than copy it\n" % (build_backend.package_version(), folder)).encode()


@pytest.mark.parametrize("form", FORMS)
def test_a_copied_command_says_where_it_looked(form, tmp_path, monkeypatch):
    # Copied alone (into /usr/local/bin, say): a link finds its installation, a copy not.
    monkeypatch.setenv("UTF8ENV_LAUNCHER", form)
    if form == "c":
        machine.compiler()
    copy = tmp_path / "bin" / "utf8env"
    copy.parent.mkdir()
    copy.write_bytes(dict(build_backend.command_files()[0])["utf8env"])
    copy.chmod(0o755)
    result = run([str(copy), "run", "--", "true"])
    assert (result.returncode, result.stdout, result.stderr) == (
        125, b"", _not_installed(copy.parent))


def _fake_install(root, command, dist_infos, interpreters):
    """A made-up venv under `root`: bin/utf8env (`command`'s bytes), pyvenv.cfg, the folders
    lib/NAME/site-packages/DIST_INFO of `dist_infos` ((NAME, DIST_INFO)), and bin/NAME for
    each of `interpreters`: a script that says its name and the folder it was given
    (start.py's second argument). The command's path."""
    bin_folder = root / "bin"
    bin_folder.mkdir(parents=True)
    (bin_folder / "utf8env").write_bytes(command)
    (bin_folder / "utf8env").chmod(0o755)
    (root / "pyvenv.cfg").write_text("")
    for name, dist_info in dist_infos:
        (root / "lib" / name / "site-packages" / dist_info).mkdir(parents=True)
    for name in interpreters:
        (bin_folder / name).write_text('#!/bin/sh\necho "${0##*/} $6"\n')
        (bin_folder / name).chmod(0o755)
    return str(bin_folder / "utf8env")


@pytest.mark.parametrize("form", FORMS)
def test_the_highest_python_with_this_version_installed_is_taken(form, tmp_path, monkeypatch):
    # 3.10 over 3.9 (not the order of their names); 3.11 has no dist-info, 3.12 another
    # version's; python3 (Debian's lib/python3) and python3.13t are no pythonX.Y folder.
    monkeypatch.setenv("UTF8ENV_LAUNCHER", form)
    if form == "c":
        machine.compiler()
    this = "utf8env-%s.dist-info" % build_backend.package_version()
    root = tmp_path / "venv"
    lib = str(root / "bin") + "/../lib/"
    command = _fake_install(
        root, dict(build_backend.command_files()[0])["utf8env"],
        [("python3.9", this), ("python3.10", this), ("python3.11", "other.dist-info"),
         ("python3.12", "utf8env-0.0.0.dist-info"), ("python3", this), ("python3.13t", this)],
        ["python3.9", "python3.10", "python3.11", "python3.12", "python3", "python"])
    result = run([command, "--version"])
    assert (result.returncode, result.stdout, result.stderr) == (
        0, ("python3.10 %spython3.10\n" % lib).encode(), b"")
    # A venv without pythonX.Y (3.6's): python3, else python; neither: one line.
    os.remove(str(root / "bin" / "python3.10"))
    assert run([command]).stdout == ("python3 %spython3.10\n" % lib).encode()
    os.remove(str(root / "bin" / "python3"))
    assert run([command]).stdout == ("python %spython3.10\n" % lib).encode()
    os.remove(str(root / "bin" / "python"))
    result = run([command])
    assert (result.returncode, result.stdout, result.stderr) == (
        125, b"", ("utf8env: error: %s: no python3.10, python3 or python (the venv's "
                   "interpreter)\n" % (root / "bin")).encode())
    # Only other versions' metadata: not this installation.
    for name in ("python3.9", "python3.10", "python3", "python3.13t"):
        shutil.rmtree(str(root / "lib" / name))
    result = run([command])
    assert (result.returncode, result.stdout, result.stderr) == (
        125, b"", _not_installed(root / "bin"))


def test_an_interpreter_of_another_version_says_so(venv, tmp_path):
    # A venv whose python3 is no longer the version utf8env was installed for (its base
    # upgraded): start.py says so rather than import a copy built for another.
    x_y = os.path.basename(os.path.dirname(_packages_of(venv)))
    other = "3.13" if x_y == "python3.6" else "3.6"
    root = tmp_path / "venv"
    with open(os.path.join(venv, "utf8env"), "rb") as f:
        command = _fake_install(root, f.read(),
                                [(x_y, "utf8env-%s.dist-info" % build_backend.package_version())],
                                [])
    python3 = root / "bin" / "python3"
    python3.symlink_to(machine.python(other))
    result = run([command, "--version"])
    assert (result.returncode, result.stdout, result.stderr) == (
        125, b"", ("utf8env: error: %s is Python %s, but utf8env is installed in %s/../lib/%s "
                   "(reinstall utf8env)\n" % (python3, other, root / "bin", x_y)).encode())


def _exec_as(argv0, argv, env, cwd=None, hide_proc=False):
    """argv run with argv[0] replaced by argv0 (bytes or str), optionally where /proc is
    an empty folder (a bare chroot, a container without it)."""
    script = 'exec -a "$0" "$@"'
    prefix = ["/bin/bash", "-c"]
    if hide_proc:
        prefix = ["unshare", "--mount", "--propagation", "private", "/bin/bash", "-c"]
        script = "mount -t tmpfs none /proc && " + script
    return subprocess.run(prefix + [script, argv0] + argv, env=dict(BASE, **env), cwd=cwd,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.parametrize("hide_proc", [False, True], ids=["proc", "no-proc"])
def test_the_command_finds_itself_whatever_its_argv0(venv, hide_proc, tmp_path):
    # The compiled launcher asks /proc/self/exe where it is, else takes argv[0] (a path),
    # else looks argv[0] up on PATH as the shell did; the stub has $0, a path.
    if hide_proc:
        machine.mount_namespace("hiding /proc (unshare --mount)")
    utf8env = os.path.join(venv, "utf8env")
    show = ["run", "--", "printf", "%s", "found"]
    # Links as pipx makes them, one absolute and one relative, to a link: each is followed.
    links = tmp_path / "links"
    links.mkdir()
    (links / "first").symlink_to(utf8env)
    (links / "utf8env").symlink_to("first")
    cases = [(utf8env, {}, None), (str(links / "utf8env"), {}, None),
             ("links/utf8env", {}, str(tmp_path))]
    if _FORM_OF[venv] == "c":
        cases.append(("utf8env", {"PATH": venv + ":/usr/bin:/bin"}, None))
        cases.append(("utf8env", {"PATH": str(links) + ":/usr/bin:/bin"}, None))
        if not hide_proc:
            cases.append(("not-this-name", {}, None))
    for argv0, env, cwd in cases:
        command = argv0 if "/" in argv0 else utf8env
        result = _exec_as(argv0, [command] + show, env, cwd=cwd, hide_proc=hide_proc)
        assert (result.returncode, result.stdout, result.stderr) == (0, b"found", b""), argv0


def test_an_empty_argv_is_no_crash(venv):
    # execve() with no argv at all (os.execve refuses it; libc's does not): Linux 5.18+
    # passes one empty argv[0] instead, older kernels none. Either way the usual usage
    # line, as with no arguments at all.
    code = ("import ctypes, sys; libc = ctypes.CDLL(None, use_errno=True); "
            "argv = (ctypes.c_char_p * 1)(None); "
            "env = (ctypes.c_char_p * 2)(b'PATH=/usr/bin:/bin', None); "
            "libc.execve(sys.argv[1].encode(), argv, env); sys.exit(99)")
    result = run([sys.executable, "-c", code, os.path.join(venv, "utf8env")])
    usage = run([os.path.join(venv, "utf8env")])
    assert usage.returncode == 2 and usage.stdout.startswith(b"usage: utf8env COMMAND")
    assert (result.returncode, result.stdout, result.stderr) == (2, usage.stdout, b"")


def test_a_long_interpreter_path(wheel, tmp_path):
    # Longer than the 127 bytes older kernels read of a #! line: the command starts its
    # interpreter by path, never through a #! line.
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    bin_folder = _venv(wheel, str(deep), "3.13")
    assert len(os.path.join(bin_folder, "python")) > 127
    result = run([os.path.join(bin_folder, "utf8env"), "run", "--", "echo", "deep"])
    assert (result.returncode, result.stdout, result.stderr) == (0, b"deep\n", b"")


# -- the build backend ------------------------------------------------------------------

def _expected_package_files(root=install.ROOT):
    """Every file under src/utf8env but caches, and the pages of docs/ with the playbook
    doctor.md links, as utf8env/docs/: what the wheel must hold (paths in it)."""
    found = set("utf8env/docs/" + name for name in os.listdir(os.path.join(root, "docs"))
                if name.endswith(".md") or name == "ansible-playbook.yml")
    for folder, dirs, names in os.walk(os.path.join(root, "src", "utf8env")):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        found.update(os.path.relpath(os.path.join(folder, n), os.path.join(root, "src"))
                     for n in names if not n.endswith((".pyc", ".pyo")))
    return found


CHILD_FILES = {"utf8env/_child/" + name for name in (
    "__init__.py", "bootstrap/sitecustomize.py", "reconfigure.py", "probe.py",
    "ask_locales.py", "world_runner.py")} | {"utf8env/_engine/textnames.py"}


def _snapshot(tmp_path):
    """A copy of the checkout, so that every build of a test sees the same files (others
    may be editing the checkout meanwhile)."""
    tree = tmp_path / "tree"
    # (Not .venv: the README's first command makes one in the checkout.)
    shutil.copytree(install.ROOT, str(tree), ignore=shutil.ignore_patterns(".git", ".venv"))
    return str(tree)


def _build(tree, hook, folder):
    """tree/tools/build_backend.py's `hook` run into `folder` (made): the built file's path."""
    os.makedirs(folder)
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import build_backend; "
            "print(getattr(build_backend, sys.argv[2])(sys.argv[3]))")
    out = subprocess.run([sys.executable, "-I", "-c", code, os.path.join(tree, "tools"), hook,
                          folder], check=True, stdout=subprocess.PIPE, universal_newlines=True)
    return os.path.join(folder, out.stdout.strip())


def _read(wheel, name):
    with zipfile.ZipFile(wheel) as z:
        return z.read(name)


def test_the_wheel_holds_the_package_the_command_and_its_metadata(tmp_path):
    machine.compiler()
    tree = _snapshot(tmp_path)
    wheel = _build(tree, "build_wheel", str(tmp_path / "wheel"))
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        modes = {i.filename: i.external_attr >> 16 for i in z.infolist()}
        metadata = z.read("utf8env-%s.dist-info/METADATA" % build_backend.package_version())
        entry_points = z.read("utf8env-%s.dist-info/entry_points.txt"
                              % build_backend.package_version())
    version = build_backend.package_version()
    data, info = "utf8env-%s.data/scripts/" % version, "utf8env-%s.dist-info/" % version
    # Compiled where a compiler works (this machine has one): then the wheel is this
    # platform's.
    assert os.path.basename(wheel) == "utf8env-%s-py3-none-%s.whl" % (
        version, build_backend._platform_tag())
    assert _read(wheel, info + "WHEEL") == (
        "Wheel-Version: 1.0\nGenerator: utf8env tools/build_backend.py\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-%s\n" % build_backend._platform_tag()).encode()
    assert len(names) == len(set(names))
    assert set(names) == _expected_package_files(tree) | {
        data + "utf8env", info + "licenses/LICENSE",
        info + "METADATA", info + "WHEEL", info + "entry_points.txt", info + "RECORD"}
    # Nothing beside the package in site-packages: no start module of its own (the command
    # starts with a plain import of the package).
    assert [n for n in names if not n.startswith(("utf8env/", "utf8env-"))] == []
    assert CHILD_FILES <= set(names)
    assert modes[data + "utf8env"] == 0o100755
    # The metadata is pyproject.toml's, as tomllib reads it (where there is one).
    tomllib = pytest.importorskip("tomllib")
    with open(os.path.join(tree, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    head = metadata.split(b"\n\n", 1)[0].decode("utf-8").splitlines()
    extras = []
    for extra, requirements in sorted(project["optional-dependencies"].items()):
        extras.append("Provides-Extra: " + extra)
        for r in requirements:
            name, _, marker = r.partition(";")
            extras.append('Requires-Dist: %s; %sextra == "%s"' % (
                name.strip(), "(%s) and " % marker.strip() if marker else "", extra))
    assert head == (["Metadata-Version: 2.4", "Name: utf8env", "Version: " + version,
                     "Summary: " + project["description"], "License-Expression: MIT",
                     "License-File: LICENSE"]
                    + ["Classifier: " + c for c in project["classifiers"]]
                    + ["Requires-Python: >=3.6"] + extras
                    + ["Description-Content-Type: text/markdown"])
    # The README as the index shows it (its links into the tree named: test_release.py).
    with open(os.path.join(tree, "README.md"), encoding="utf-8") as f:
        assert metadata.split(b"\n\n", 1)[1] == build_backend.index_description(
            f.read()).encode("utf-8")
    assert entry_points.decode("utf-8") == "".join(
        "[%s]\n%s\n" % (group, "".join("%s = %s\n" % kv for kv in sorted(points.items())))
        for group, points in sorted(project.get("entry-points", {}).items()))


def test_without_a_compiler_the_wheel_holds_the_stub_and_is_pure(tmp_path):
    tree = _snapshot(tmp_path)
    environ = dict(os.environ, UTF8ENV_LAUNCHER="", CC=str(tmp_path / "no-such-cc"),
                   PATH=str(tmp_path))
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import build_backend; "
            "print(build_backend.build_wheel(sys.argv[2]))")
    os.makedirs(str(tmp_path / "wheel"))
    out = subprocess.run([sys.executable, "-I", "-c", code, os.path.join(tree, "tools"),
                          str(tmp_path / "wheel")], env=environ, check=True,
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    version = build_backend.package_version()
    assert out == "utf8env-%s-py3-none-any.whl\n" % version
    wheel = str(tmp_path / "wheel" / out.strip())
    stub = _read(wheel, "utf8env-%s.data/scripts/utf8env" % version)
    with open(os.path.join(tree, "scripts", "utf8env.sh"), "rb") as f:
        assert stub == f.read().replace(b"@START_CODE@", build_backend.start_code()).replace(
            b"@VERSION@", version.encode())
    assert b"Tag: py3-none-any\n" in _read(wheel, "utf8env-%s.dist-info/WHEEL" % version)


def test_a_launcher_that_cannot_be_built_is_an_error_when_asked_for(tmp_path):
    environ = dict(os.environ, UTF8ENV_LAUNCHER="c", CC="/bin/false")
    code = "import build_backend; build_backend.command_files()"
    result = subprocess.run([sys.executable, "-I", "-c", "import sys; sys.path.insert(0, %r); %s"
                             % (install.TOOLS, code)], env=environ, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True)
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == "RuntimeError: UTF8ENV_LAUNCHER=c: /bin/false failed"


def test_an_unknown_launcher_choice_is_one_error_line():
    # "libc" chose a second compiled form once; now there is one, "c".
    environ = dict(os.environ, UTF8ENV_LAUNCHER="libc")
    code = "import build_backend; build_backend.command_files()"
    result = subprocess.run([sys.executable, "-I", "-c", "import sys; sys.path.insert(0, %r); %s"
                             % (install.TOOLS, code)], env=environ, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True)
    assert (result.returncode, result.stdout, result.stderr) == (
        1, "", "UTF8ENV_LAUNCHER='libc': expected c, sh or unset\n")


def test_a_launcher_that_does_not_start_its_interpreter_is_not_shipped(tmp_path, monkeypatch):
    # A compiler that "builds" a program which runs but does not start the interpreter.
    compiler = tmp_path / "cc"
    compiler.write_text("#!/bin/sh\nprintf '#!/bin/sh\\necho broken\\nexit 3\\n' > utf8env\n"
                        "chmod +x utf8env\n")
    compiler.chmod(0o755)
    monkeypatch.setenv("CC", str(compiler))
    monkeypatch.setenv("UTF8ENV_LAUNCHER", "c")
    with pytest.raises(RuntimeError) as error:
        build_backend.command_files()
    assert str(error.value) == (
        "UTF8ENV_LAUNCHER=c: %s failed:\nthe launcher built does not start its interpreter: "
        "status 3, b'broken\\n'" % compiler)
    monkeypatch.setenv("UTF8ENV_LAUNCHER", "")
    command, platform = build_backend.command_files()
    assert platform is None and dict(command)["utf8env"].startswith(b"#!/bin/sh\n")


# The ELF constants read below (elf(5), <elf.h>).
_ET_DYN, _PT_DYNAMIC, _PT_INTERP, _PT_GNU_RELRO = 3, 2, 3, 0x6474e552
_DT_FLAGS, _DF_BIND_NOW, _DT_FLAGS_1, _DF_1_NOW = 30, 0x8, 0x6ffffffb, 0x1
_SHT_DYNSYM = 11


def _elf(data):
    """(e_type, [program header types], {dynamic tag: value}, {dynamic symbol names}) of an
    ELF file of either class and byte order: what shows how it was built and linked."""
    assert data[:4] == b"\x7fELF"
    wide, order = data[4] == 2, "<" if data[5] == 1 else ">"
    (e_type,) = struct.unpack_from(order + "H", data, 16)
    phoff, shoff = struct.unpack_from(order + ("QQ" if wide else "II"), data,
                                      0x20 if wide else 0x1c)
    phentsize, phnum, shentsize, shnum = struct.unpack_from(order + "4H", data,
                                                            0x36 if wide else 0x2a)
    segments = []           # (p_type, p_offset, p_filesz)
    for at in range(phoff, phoff + phnum * phentsize, phentsize):
        if wide:
            p_type, _, offset, _, _, size = struct.unpack_from(order + "IIQQQQ", data, at)
        else:
            p_type, offset, _, _, size = struct.unpack_from(order + "5I", data, at)
        segments.append((p_type, offset, size))
    dynamic = {}
    entry = struct.Struct(order + ("qQ" if wide else "iI"))
    for p_type, offset, size in segments:
        if p_type == _PT_DYNAMIC:
            for at in range(offset, offset + size, entry.size):
                tag, value = entry.unpack_from(data, at)
                if tag == 0:        # DT_NULL ends the table
                    break
                dynamic[tag] = value
    # Section headers (-s strips the symbol table, not these): sh_type, sh_offset, sh_size,
    # sh_link (the string table's section), sh_entsize.
    header = struct.Struct(order + ("IIQQQQIIQQ" if wide else "10I"))
    sections = [header.unpack_from(data, shoff + i * shentsize) for i in range(shnum)]
    symbols = set()
    for _, sh_type, _, _, offset, size, link, _, _, entsize in sections:
        if sh_type == _SHT_DYNSYM:
            strings = sections[link][4]
            for at in range(offset, offset + size, entsize):
                (name,) = struct.unpack_from(order + "I", data, at)
                symbols.add(data[strings + name:data.index(b"\0", strings + name)].decode())
    return e_type, [p_type for p_type, _, _ in segments], dynamic, symbols


def _hardening(launcher):
    """What the built launcher shows of each hardening flag."""
    e_type, segments, dynamic, symbols = _elf(launcher)
    return {"position independent": e_type == _ET_DYN,
            # ET_DYN with a program interpreter: an executable (a PIE), not a library
            "program interpreter": _PT_INTERP in segments,
            "read-only relocations": _PT_GNU_RELRO in segments,
            "bound at start": bool(dynamic.get(_DT_FLAGS, 0) & _DF_BIND_NOW
                                   or dynamic.get(_DT_FLAGS_1, 0) & _DF_1_NOW),
            # launcher.c has arrays on the stack: -fstack-protector-strong guards them
            "stack protector": "__stack_chk_fail" in symbols,
            # and copies into them with sizes the compiler knows: _FORTIFY_SOURCE checks them
            "fortified": any(n.startswith("__") and n.endswith("_chk") and n != "__stack_chk_fail"
                             for n in symbols)}


def test_the_launcher_is_built_as_a_hardened_position_independent_executable(monkeypatch):
    machine.compiler()
    for name in ("CC", "CFLAGS", "LDFLAGS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("UTF8ENV_LAUNCHER", "c")
    launcher = dict(build_backend.command_files()[0])["utf8env"]
    assert _hardening(launcher) == {
        "position independent": True, "program interpreter": True,
        "read-only relocations": True, "bound at start": True, "stack protector": True,
        "fortified": True}


def test_cc_cflags_and_ldflags_are_honoured_after_the_defaults(tmp_path, monkeypatch):
    # A compiler that records its arguments; CC of two words, as "ccache gcc" is. The
    # user's flags undo three defaults: theirs come later, so theirs win.
    machine.compiler()
    record = tmp_path / "arguments"
    compiler = tmp_path / "recording cc"
    compiler.write_text('#!/bin/sh\nprintf "%%s\\n" "$@" > %s\nexec %s "$@"\n' % (
        shlex.quote(str(record)), shutil.which("cc") or shutil.which("gcc")))
    compiler.chmod(0o755)
    monkeypatch.setenv("CC", "/usr/bin/env " + shlex.quote(str(compiler)))
    monkeypatch.setenv("CFLAGS", "-fno-stack-protector -U_FORTIFY_SOURCE -DUTF8ENV_UNUSED='a b'")
    monkeypatch.setenv("LDFLAGS", "-Wl,-z,lazy")
    monkeypatch.setenv("UTF8ENV_LAUNCHER", "c")
    command, platform = build_backend.command_files()
    assert platform == build_backend._platform_tag()
    assert record.read_text().splitlines() == [
        "-std=c99", "-Wall", "-Wextra", "-O2", "-fPIE", "-fstack-protector-strong",
        "-D_FORTIFY_SOURCE=2", "-fno-stack-protector", "-U_FORTIFY_SOURCE", "-DUTF8ENV_UNUSED=a b",
        "-pie", "-Wl,-z,relro", "-Wl,-z,now", "-s", "-Wl,-z,lazy",
        "-o", "utf8env", "launcher.c"]
    assert _hardening(dict(command)["utf8env"]) == {
        "position independent": True, "program interpreter": True,
        "read-only relocations": True, "bound at start": False, "stack protector": False,
        "fortified": False}


# TOML 1.0 that the backend's own reader refused once (pip install then failed), in a
# [tool.*] table as a maintainer adds one: numbers with underscores, in hex, octal and
# binary, floats, dates and times, multi-line strings, arrays of tables.
TOOL_TABLE = (
    "\n[tool.example]\n"
    "count = 1_000\n"
    "mask = 0x10\n"
    "mode = 0o755\n"
    "bits = 0b11\n"
    "ratio = 6.626e-34\n"
    "limit = inf\n"
    "released = 1979-05-27T07:32:00-08:00\n"
    "local = 1979-05-27T07:32:00\n"
    "day = 1979-05-27\n"
    "at = 07:32:00.5\n"
    "text = '''\nRoses are red,\nviolets are blue'''\n"
    'joined = """\\\n    one \\\n    line"""\n'
    "raw = 'C:\\path\\'\n"
    "[[tool.example.step]]\n"
    'name = "build"\n'
    "[[tool.example.step]]\n"
    'name = "test"\n')
TOOL_VALUES = {
    "count": 1000, "mask": 16, "mode": 0o755, "bits": 3, "ratio": 6.626e-34,
    "limit": float("inf"),
    "released": datetime.datetime(1979, 5, 27, 7, 32,
                                  tzinfo=datetime.timezone(datetime.timedelta(hours=-8))),
    "local": datetime.datetime(1979, 5, 27, 7, 32), "day": datetime.date(1979, 5, 27),
    "at": datetime.time(7, 32, 0, 500000), "text": "Roses are red,\nviolets are blue",
    "joined": "one line", "raw": "C:\\path\\",
    "step": [{"name": "build"}, {"name": "test"}]}
# The reader each interpreter's backend takes: the oldest and the newest without tomllib
# (the vendored tomli, from the sdist's tools/_vendor), and the first with it.
_VENDORED = "tomli tools/_vendor/tomli/__init__.py"
TOML_READERS = {"3.6": _VENDORED, "3.10": _VENDORED, "3.11": "tomllib"}
# Run by each of them in the unpacked sdist: its reader (and where it is, if in the tree),
# the wheel it builds, and what it read of [tool.example] (pickled: dates and floats).
_BUILD_AND_READ = """import os, pickle, sys
tree, folder, values = sys.argv[1:]
sys.path.insert(0, os.path.join(tree, "tools"))
import build_backend
reader = build_backend.toml_reader()
inside = os.path.relpath(reader.__file__, tree)
print(reader.__name__ + ("" if inside.startswith("..") else " " + inside))
print(build_backend.build_wheel(folder))
with open(values, "wb") as f:
    pickle.dump(build_backend.read_pyproject()["tool"]["example"], f, 2)
"""


def _wheel_contents(wheel):
    with zipfile.ZipFile(wheel) as z:
        return {name: z.read(name) for name in z.namelist()}


@pytest.fixture(scope="module")
def toml_tree(sdist, tmp_path_factory):
    """The sdist unpacked, its pyproject.toml written with TOML 1.0 the old reader refused:
    the description as a multi-line string, requires-python as a literal one, and
    TOOL_TABLE. The sdist holds the vendored tomli as the checkout has it."""
    folder = str(tmp_path_factory.mktemp("toml-tree"))
    with tarfile.open(sdist) as tar:
        vendored = sorted(n.split("/", 1)[1] for n in tar.getnames() if "/tools/_vendor/" in n)
        tar.extractall(folder)
    assert vendored == sorted(
        os.path.relpath(os.path.join(top, name), install.ROOT)
        for top, dirs, names in os.walk(os.path.join(install.TOOLS, "_vendor"))
        for name in names if "__pycache__" not in top)
    (tree,) = [os.path.join(folder, name) for name in os.listdir(folder)]
    path = os.path.join(tree, "pyproject.toml")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    description = re.search(r'^description = "([^"\\]*)"$', text, re.M)
    first, rest = description.group(1).split(" ", 1)
    text = text.replace(description.group(0),
                        'description = """\\\n    %s \\\n    %s"""' % (first, rest))
    assert 'requires-python = ">=3.6"' in text
    text = text.replace('requires-python = ">=3.6"', "requires-python = '>=3.6'") + TOOL_TABLE
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return tree


@pytest.mark.parametrize("version", sorted(TOML_READERS))
def test_any_toml_1_0_in_pyproject_builds_the_same_wheel(version, toml_tree, stub_wheel,
                                                           tmp_path):
    """The backend run by `version` from the sdist: pyproject.toml read by the standard
    reader (tomllib, else the vendored tomli), the wheel the same as the checkout's."""
    python = machine.python(version)
    values = str(tmp_path / "values.pickle")
    os.mkdir(str(tmp_path / "wheel"))
    env = dict(BASE, UTF8ENV_LAUNCHER="sh", HOME=str(tmp_path), TMPDIR=str(tmp_path))
    built = subprocess.run([python, "-I", "-W", "error", "-c", _BUILD_AND_READ, toml_tree,
                            str(tmp_path / "wheel"), values], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
    assert (built.returncode, built.stdout, built.stderr) == (
        0, "%s\n%s\n" % (TOML_READERS[version], os.path.basename(stub_wheel)), "")
    with open(values, "rb") as f:
        assert pickle.load(f) == TOOL_VALUES
    assert _wheel_contents(str(tmp_path / "wheel" / os.path.basename(stub_wheel))) == \
        _wheel_contents(stub_wheel)


@pytest.mark.fast
def test_a_pyproject_not_toml_or_not_supported_is_one_line_naming_it(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x" y\n')
    with pytest.raises(ValueError) as error:
        build_backend.read_project(str(tmp_path))
    assert str(error.value) == ("pyproject.toml: Expected newline or end of document after "
                                "a statement (at line 2, column 12)")
    assert error.value.__suppress_context__
    # Valid TOML whose [project] keys the backend does not write: named, never dropped.
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "1"\n[[project.authors]]\nname = "A"\n'
        '[tool.x]\nn = 0x10\n')
    with pytest.raises(ValueError) as error:
        build_backend.read_project(str(tmp_path))
    assert str(error.value) == ("pyproject.toml: [project] authors: not supported by "
                                "tools/build_backend.py")


def test_stale_files_in_the_tree_never_reach_the_wheel_and_the_sdist_rebuilds_it(tmp_path):
    tree = _snapshot(tmp_path)
    clean = _build(tree, "build_wheel", str(tmp_path / "clean"))
    # What builds and editors leave behind.
    for stale in ("build/lib/utf8env/gone.py", "src/utf8env/__pycache__/gone.cpython-36.pyc",
                  "src/utf8env.egg-info/SOURCES.txt", "src/utf8env/_child/gone.pyc"):
        os.makedirs(os.path.dirname(os.path.join(tree, stale)), exist_ok=True)
        with open(os.path.join(tree, stale), "w") as f:
            f.write("stale\n")
    with open(clean, "rb") as f:
        clean = f.read()
    with open(_build(tree, "build_wheel", str(tmp_path / "stale")), "rb") as f:
        assert f.read() == clean        # byte for byte: reproducible too
    # The sdist: PKG-INFO, the backend, setup.py, the package; its wheel is the same wheel.
    sdist = _build(tree, "build_sdist", str(tmp_path / "sdist"))
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
        tar.extractall(str(tmp_path / "unpacked"))
    base = os.path.basename(sdist)[:-len(".tar.gz")]
    assert {base + "/" + n for n in ("PKG-INFO", "pyproject.toml", "setup.py", "README.md",
                                     "LICENSE", "tools/build_backend.py", "scripts/utf8env.sh",
                                     "scripts/launcher.c", "scripts/start.py")} <= set(names)
    assert {n for n in names if n.startswith(base + "/src/")} == {
        base + "/src/" + n for n in _expected_package_files(tree)
        if not n.startswith("utf8env/docs/")}
    assert {base + "/docs/" + n[len("utf8env/docs/"):] for n in _expected_package_files(tree)
            if n.startswith("utf8env/docs/")} <= set(names)
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc") or "/build/" in n]
    rebuilt = _build(str(tmp_path / "unpacked" / base), "build_wheel", str(tmp_path / "again"))
    with open(rebuilt, "rb") as f:
        assert f.read() == clean


# -- installed on every interpreter, from source and from the wheel, by pip and pipx ------

INSTALL_VERSIONS = ("3.6", "3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14", "3.15")


def _every():
    """{version: Interpreter} of INSTALL_VERSIONS that this process can start."""
    return {i.version: i for i in machine.interpreters() if i.version in INSTALL_VERSIONS}


PIPX = {"3.6": "pipx<1.1", "3.13": "pipx"}      # pipx 1.0 is the last to run on 3.6
EDITABLE = {"3.13": [("editable", install.ROOT)]}   # PEP 660, as tests/setup.sh installs
PRETTY = "\u2119\u01b4\u2602\u210c\xf8\u1f24"
SHOW = "import sys; print(sys.stdout.encoding.lower(), sys.stdout.errors); print(%r)" % PRETTY
EXPLAIN = ["explain", "--version", "3.9", "--empty-env"]
FROM_SOURCE = ("import sys; sys.path.insert(0, sys.argv.pop(1)); from utf8env._cli import main; "
               "sys.exit(main())")


class Place(object):
    """Where an interpreter runs: this machine, or the Debian chroot (paths inside it)."""

    def __init__(self, interpreter, work):
        self.root, self.python = interpreter.root, interpreter.argv[-1]
        self.prefix, self.work = interpreter.argv[:-1], work

    def inside(self, path):
        return path if self.root == "/" else "/" + os.path.relpath(path, self.root)

    def run(self, argv, env, check=True):
        proc = subprocess.run(self.prefix + argv, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=300)
        if check and proc.returncode:
            raise AssertionError("%s: status %d\n%s" % (argv, proc.returncode,
                                                        proc.stderr.decode(errors="replace")))
        return proc


def _commands(place, bin_folder, env):
    """The installed command's answers: --version, explain, run, --help."""
    utf8env = place.inside(os.path.join(bin_folder, "utf8env"))
    out = {}
    for key, args in (("version", ["--version"]), ("help", ["--help"]), ("explain", EXPLAIN),
                      ("run", ["run", "--", place.python, "-c", SHOW])):
        proc = place.run([utf8env] + args, env, check=False)
        out[key] = (proc.returncode, proc.stdout, proc.stderr)
    return out


def _installed(site_packages):
    """The package's files, where pip put them."""
    found = set()
    for folder, dirs, names in os.walk(os.path.join(site_packages, "utf8env")):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        found.update(os.path.relpath(os.path.join(folder, n), site_packages) for n in names)
    return found


def _site_packages(venv):
    (lib,) = os.listdir(os.path.join(venv, "lib"))
    return os.path.join(venv, "lib", lib, "site-packages")


def _pip_flow(place, env, steps):
    """One venv, with each of `steps` ((method, what to install)) in turn, uninstalled
    before the next; what each gave. The last stays (the wheel: the venv fixture's)."""
    venv = os.path.join(place.work, "venv")
    place.run([place.python, "-m", "venv", place.inside(venv)], env)
    python = place.inside(os.path.join(venv, "bin", "python"))
    seen = {"python": python, "venv": venv, "left": {}}
    for number, (method, what) in enumerate(steps):
        if number:
            place.run([python, "-m", "pip", "uninstall", "--yes", "utf8env"], env)
            seen["left"][method] = (_commands_in(os.path.join(venv, "bin"))
                                    + sorted(_installed(_site_packages(venv))))
        editable = ["-e"] if method == "editable" else []
        place.run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                   "--no-compile"] + editable + [place.inside(what)], env)
        seen[method] = dict(_commands(place, os.path.join(venv, "bin"), env),
                            bin=_commands_in(os.path.join(venv, "bin")),
                            files=_installed(_site_packages(venv)))
        if method == "editable":
            seen[method]["file"] = place.run(
                [python, "-c", "import utf8env; print(utf8env.__file__)"], env).stdout
    return seen


def _pipx_flow(place, env, spec):
    """pipx, itself installed from PyPI into a venv of this interpreter, installs the
    checkout (offline); the command is its link in PIPX_BIN_DIR."""
    tools = os.path.join(place.work, "pipx-venv")
    place.run([place.python, "-m", "venv", tools], env)
    python = os.path.join(tools, "bin", "python")
    if spec == "pipx<1.1":
        # The README's two steps: pip 18.1 (a new 3.6 venv's) has no resolver for pipx's
        # dependencies; 21.3.1 is the last pip for 3.6.
        place.run([python, "-m", "pip", "install", "--quiet", "pip==21.3.1"], env)
    place.run([python, "-m", "pip", "install", "--quiet", spec], env)
    home, bin_folder = os.path.join(place.work, "pipx-home"), os.path.join(place.work, "pipx-bin")
    pipx_env = dict(env, PIPX_HOME=home, PIPX_BIN_DIR=bin_folder,
                    PIPX_MAN_DIR=os.path.join(place.work, "pipx-man"))
    place.run([python, "-m", "pipx", "install", "--pip-args=--no-index", install.ROOT], pipx_env)
    venv = os.path.join(home, "venvs", "utf8env")
    with open(os.path.join(venv, "pipx_metadata.json")) as f:
        apps = json.load(f)["main_package"]["apps"]        # what `pipx list` shows
    return dict(_commands(place, bin_folder, env), files=_installed(_site_packages(venv)),
                link=os.path.realpath(os.path.join(bin_folder, "utf8env")),
                linked=sorted(os.listdir(bin_folder)), apps=apps, venv=venv,
                bin=_commands_in(os.path.join(venv, "bin")))


def _reference(place, env, src):
    proc = place.run([place.python, "-I", "-S", "-c", FROM_SOURCE, place.inside(src)] + EXPLAIN,
                     env, check=False)
    return (proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture(scope="module")
def installs(wheel, sdist, tmp_path_factory):
    """Every install of the matrix, in parallel threads: {(version, method): what it gave}."""
    jobs, cleanup = {}, []

    def place_for(version, name):
        interpreter = _every()[version]
        if interpreter.root == "/":
            work = str(tmp_path_factory.mktemp("%s-%s" % (name, version)))
        else:   # inside the chroot, which sees only its own files
            work = tempfile.mkdtemp(prefix="utf8env-test-", dir=os.path.join(interpreter.root, "tmp"))
            cleanup.append(work)
        place = Place(interpreter, work)
        home = os.path.join(work, "home")
        os.mkdir(home)
        env = install.pip_environ({"PATH": "/usr/bin:/bin", "LANG": "C"},
                                  HOME=place.inside(home))
        return place, env

    def pip_job(version):
        place, env = place_for(version, "pip")
        wheel_at, source, src = wheel, install.ROOT, SRC
        if place.root != "/":
            wheel_at = shutil.copy(wheel, place.work)
            source = shutil.copy(sdist, place.work)
            src = shutil.copytree(SRC, os.path.join(place.work, "src"),
                                  ignore=shutil.ignore_patterns("__pycache__"))
        steps = [("source", source)] + EDITABLE.get(version, []) + [("wheel", wheel_at)]
        seen = _pip_flow(place, env, steps)
        seen["reference"] = _reference(place, env, src)
        return seen

    def pipx_job(version):
        place, env = place_for(version, "pipx")
        seen = _pipx_flow(place, env, PIPX[version])
        seen["reference"] = _reference(place, env, SRC)
        return seen

    for version in _every():
        jobs[version, "pip"] = (pip_job, version)
    for version in PIPX:
        if version in _every():
            jobs[version, "pipx"] = (pipx_job, version)
    try:
        yield threads.outcomes(jobs)
    finally:
        for work in cleanup:
            shutil.rmtree(work, ignore_errors=True)


def _version_line():
    return ("utf8env %s\n" % build_backend.package_version()).encode("ascii")


def _docs_said(help_output):
    """The help's last paragraph, on one line."""
    return " ".join(help_output.decode("utf-8").split("\n\n")[-1].split())


DOCS_SAID = "Documentation: %s (" + ", ".join(sorted(
    name for name in os.listdir(os.path.join(install.ROOT, "docs")) if name.endswith(".md"))) + ")"


def _assert_commands(seen, editable=False):
    assert seen["version"] == (0, _version_line(), b"")
    # The pages of docs/ are installed with the package, and the help names them there
    # (an editable install: the checkout's docs/).
    code, out, err = seen["help"]
    docs = re.search(r"Documentation: (\S+) \(", _docs_said(out)).group(1)
    assert (code, err, _docs_said(out)) == (0, b"", DOCS_SAID % docs)
    if editable:
        assert docs == os.path.join(install.ROOT, "docs")
    else:
        assert docs.endswith("-packages/utf8env/docs"), docs
    assert seen["explain"] == seen["reference"]
    assert seen["explain"][1].startswith(b"Python 3.9 on linux, policy 3.9\n")
    assert seen["run"] == (0, b"utf-8 surrogateescape\n" + (PRETTY + "\n").encode("utf-8"), b"")


def _get(installs, version, method):
    machine.interpreter(version)
    seen = installs[version, method]
    if isinstance(seen, Exception):
        raise seen
    return seen


@pytest.mark.parametrize("version", INSTALL_VERSIONS)
def test_pip_installs_the_source_and_the_wheel_and_uninstalls(installs, version):
    seen = _get(installs, version, "pip")
    expected = _expected_package_files()
    for method in ("source", "wheel"):
        assert seen[method]["files"] == expected, method
        assert seen[method]["bin"] == ["utf8env"], method
        _assert_commands(dict(seen[method], reference=seen["reference"]))
    assert seen["left"] == {"wheel": [], **({"editable": []} if version in EDITABLE else {})}


@pytest.mark.parametrize("version", sorted(PIPX))
def test_pipx_installs_the_checkout(installs, version):
    seen = _get(installs, version, "pipx")
    assert seen["files"] == _expected_package_files()
    assert seen["link"] == os.path.join(seen["venv"], "bin", "utf8env")
    # The one app pipx lists, and the one link it makes (PIPX_BIN_DIR: ~/.local/bin).
    assert (seen["apps"], seen["linked"], seen["bin"]) == (["utf8env"], ["utf8env"], ["utf8env"])
    _assert_commands(seen)


def test_an_editable_install_runs_the_checkout(installs):
    seen = _get(installs, "3.13", "pip")["editable"]
    assert seen["file"] == (os.path.join(SRC, "utf8env", "__init__.py") + "\n").encode()
    assert seen["files"] == set()       # the package stays in the checkout
    assert seen["bin"] == ["utf8env"]
    _assert_commands(dict(seen, reference=_get(installs, "3.13", "pip")["reference"]),
                     editable=True)


@pytest.mark.parametrize("form", FORMS + ("editable",))
def test_a_user_install_starts_the_python_on_path(form, wheel, stub_wheel, tmp_path):
    # pip install --user (PYTHONUSERBASE for ~/.local): no venv, no pythonX.Y beside the
    # command, so it takes the first pythonX.Y on PATH; with none there, one line. The
    # editable install's package is where the .pth file of that site-packages says (which
    # site.main() under -I would not read: no user site).
    if form != "sh":
        machine.compiler()
    python = machine.python("3.13")
    base = tmp_path / "user"
    environ = install.pip_environ(BASE, HOME=str(tmp_path), PYTHONUSERBASE=str(base))
    pip = [python, "-m", "pip", "--quiet"]
    what = {"c": [wheel], "sh": [stub_wheel], "editable": ["-e", install.ROOT]}[form]
    subprocess.run(pip + ["install", "--user", "--no-deps", "--no-index"] + what, check=True,
                   env=environ)
    # Only the command: no bytecode beside it (pip compiled what it installed).
    assert os.listdir(str(base / "bin")) == ["utf8env"]
    command = str(base / "bin" / "utf8env")
    result = run([command, "--version"], env={"PATH": str(tmp_path / "nothing")})
    assert (result.returncode, result.stdout, result.stderr) == (
        125, b"", ("utf8env: error: no python3.13 in %s or on PATH (utf8env is installed for "
                   "it in %s/../lib/python3.13)\n" % (base / "bin", base / "bin")).encode())
    result = run([command, "run", "--", "echo", "user"],
                 env={"PATH": os.path.dirname(python) + ":/usr/bin:/bin"})
    assert (result.returncode, result.stdout, result.stderr) == (0, b"user\n", b"")
    subprocess.run(pip + ["uninstall", "--yes", "utf8env"], check=True, env=environ)
    assert not (base / "bin").exists()      # pip removes the folder it emptied


@pytest.fixture
def own_venv(wheel, tmp_path):
    """A venv of the running interpreter with the wheel, for a test that changes it."""
    bin_folder = install.venv_with(wheel, str(tmp_path / "venv"), sys.executable)
    return bin_folder, _site_packages(os.path.dirname(bin_folder))


def test_a_stray_module_named_utf8env_beside_the_package_is_not_run(own_venv):
    # The package is imported plainly: a folder with __init__ comes before a module of the
    # same name in one folder, as importlib's FileFinder looks.
    bin_folder, site_packages = own_venv
    with open(os.path.join(site_packages, "utf8env.py"), "w") as f:
        f.write("import os\nos.write(2, b'stray ran\\n')\n")
    result = run([os.path.join(bin_folder, "utf8env"), "run", "--", "printf", "ok"])
    assert (result.returncode, result.stdout, result.stderr) == (0, b"ok", b"")


def test_pythondontwritebytecode_keeps_the_command_from_writing_bytecode(own_venv):
    # -I keeps utf8env's interpreter from reading PYTHONDONTWRITEBYTECODE: it is honoured
    # all the same, as the user's word about their site-packages.
    bin_folder, site_packages = own_venv
    caches = [os.path.join(root, name) for root, dirs, _ in os.walk(site_packages)
              for name in dirs if name == "__pycache__" and "utf8env" in root]
    for cache in caches:
        shutil.rmtree(cache)
    command = [os.path.join(bin_folder, "utf8env"), "run", "--", "printf", "ok"]
    result = run(command, env={"PYTHONDONTWRITEBYTECODE": "1"})
    assert (result.returncode, result.stdout, result.stderr) == (0, b"ok", b"")
    assert [cache for cache in caches if os.path.exists(cache)] == []
    result = run(command)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"ok", b"")
    assert [cache for cache in caches if os.path.exists(cache)] != []
