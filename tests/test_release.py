"""The release artifacts (tools/release.py), built once for the module as a release is built:
the sdist, the manylinux and musllinux wheels with the launcher cross-compiled by zig
(x86_64 and aarch64), the py3-none-any wheel with the shell stub. Each is checked as the
index and the installers see it: its tag against `auditwheel show`, its metadata and
description by `twine check --strict`, the license in it; then each launcher runs
`utf8env run -- /bin/true` with this machine's CPython as utf8env's interpreter: the
x86_64 manylinux one as pip installs it from the folder, the others beside it in the same
venv (pip takes only this platform's wheel), the aarch64 ones under Debian's qemu-aarch64
(the glibc one with Debian's aarch64 C library, libc6-arm64-cross, as its root).

What this machine cannot run: an aarch64 CPython, an Alpine (musl) CPython, or a glibc
older than its own (RHEL 8's 2.28); the musl launchers are static (they need no libc of
the machine), and the glibc ones ask for nothing newer than glibc 2.17 (auditwheel).

The artifacts are built once per test process (tests/support/release.py, which says where
the tools come from); tests/test_install_matrix.py installs the same ones as users do."""
import os
import re
import struct
import subprocess
import sys
import tarfile
import zipfile

import pytest

from support import install, machine
from support import release as release_build

sys.path.insert(0, install.TOOLS)
import build_backend  # noqa: E402

TOOLS_VENV = release_build.TOOLS_VENV
AARCH64_ROOT = "/usr/aarch64-linux-gnu"         # Debian's libc6-arm64-cross
VERSION = build_backend.package_version()
# The platform of each wheel with a launcher: (ELF e_machine, its program interpreter, or
# None for a static program).
_EM_X86_64, _EM_AARCH64 = 62, 183
PLATFORMS = {
    "manylinux_2_17_x86_64.manylinux2014_x86_64": (_EM_X86_64, "/lib64/ld-linux-x86-64.so.2"),
    "manylinux_2_17_aarch64.manylinux2014_aarch64": (_EM_AARCH64, "/lib/ld-linux-aarch64.so.1"),
    "musllinux_1_2_x86_64": (_EM_X86_64, None),
    "musllinux_1_2_aarch64": (_EM_AARCH64, None),
}
# The Windows wheels: no script, the console script utf8env (pip makes utf8env.exe).
WINDOWS = ["win_amd64", "win32", "win_arm64"]
SDIST = "utf8env-%s.tar.gz" % VERSION
WHEELS = ["utf8env-%s-py3-none-%s.whl" % (VERSION, p)
          for p in list(PLATFORMS) + WINDOWS + ["any"]]


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    """(the release command's status, stdout, stderr, the folder it built)."""
    return release_build.build(tmp_path_factory)


@pytest.fixture(scope="module")
def venv(release, tmp_path_factory):
    """A venv of this machine's python3 where pip installed utf8env from the release folder,
    as a user does: (its bin folder, the environment the tests run its command with)."""
    dist = _built(release)
    work = str(tmp_path_factory.mktemp("venv"))
    environ = release_build.environ(work)
    subprocess.run([sys.executable, "-m", "venv", os.path.join(work, "v")], check=True)
    bin_folder = os.path.join(work, "v", "bin")
    subprocess.run([os.path.join(bin_folder, "python"), "-m", "pip", "install", "-q",
                    "--no-index", "--find-links", dist, "utf8env"], check=True, env=environ)
    return bin_folder, dict(environ, PATH="/usr/bin:/bin", LANG="C")


def _built(release):
    return release_build.folder(release)


def _member(wheel, name):
    with zipfile.ZipFile(wheel) as z:
        return z.read(name)


def _launcher(dist, platform):
    return _member(os.path.join(dist, "utf8env-%s-py3-none-%s.whl" % (VERSION, platform)),
                   "utf8env-%s.data/scripts/utf8env" % VERSION)


def _elf(data):
    """(e_machine, the program interpreter or None) of an ELF file (64-bit, little-endian:
    both platforms here)."""
    assert data[:6] == b"\x7fELF\x02\x01"
    (e_machine,) = struct.unpack_from("<H", data, 18)
    (phoff,) = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    for at in range(phoff, phoff + phnum * phentsize, phentsize):
        p_type, _, offset, _, _, size = struct.unpack_from("<IIQQQQ", data, at)
        if p_type == 3:         # PT_INTERP
            return e_machine, data[offset:offset + size].rstrip(b"\0").decode()
    return e_machine, None


def test_the_release_command_builds_and_checks_every_artifact(release):
    status, stdout, stderr, dist = release
    assert (status, stderr) == (0, "")
    audited = ["auditwheel show %s: %s" % (name, name.split("-")[-1].split(".")[0])
               for name in WHEELS if name.split("-")[-1].split("_")[0] in ("manylinux",
                                                                           "musllinux")]
    twined = ["Checking %s: PASSED" % os.path.join(dist, name) for name in WHEELS + [SDIST]]
    assert stdout.splitlines() == audited + twined + [
        os.path.join(dist, name) for name in [SDIST] + WHEELS]
    assert sorted(os.listdir(dist)) == sorted([SDIST] + WHEELS)


@pytest.mark.parametrize("name", WHEELS)
def test_each_wheel_is_what_its_tag_says(release, name):
    dist = _built(release)
    wheel = os.path.join(dist, name)
    platform = name[:-len(".whl")].split("-")[-1]
    tags = ["py3-none-" + p for p in platform.split(".")]
    wheel_file = _member(wheel, "utf8env-%s.dist-info/WHEEL" % VERSION).decode()
    assert wheel_file.splitlines()[3:] == ["Tag: " + t for t in tags]
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    entry_points = _member(wheel, "utf8env-%s.dist-info/entry_points.txt" % VERSION).decode()
    if platform in WINDOWS:
        assert [n for n in names if ".data/" in n] == []
        assert entry_points == ("[console_scripts]\nutf8env = utf8env._cli:main\n\n"
                                "[pytest11]\nutf8env.readiness.plugin = utf8env.readiness.plugin\n\n")
        return
    assert "[console_scripts]" not in entry_points
    command = _member(wheel, "utf8env-%s.data/scripts/utf8env" % VERSION)
    if platform == "any":
        assert command.startswith(b"#!/bin/sh\n")
        return
    assert _elf(command) == PLATFORMS[platform]
    shown = subprocess.run([os.path.join(TOOLS_VENV, "bin", "auditwheel"), "show", wheel],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
    assert shown.returncode == 0, shown.stderr
    text = " ".join(shown.stdout.split())
    assert ('is consistent with the following platform tag: "%s".' % platform.split(".")[0]
            in text), shown.stdout
    if platform.startswith("manylinux"):
        # Nothing newer than glibc 2.17 (RHEL 8 has 2.28, Debian 11 2.31).
        assert "with versions {'GLIBC_2." in text
    else:
        assert "The wheel references no external versioned symbols" in text


@pytest.mark.parametrize("name", WHEELS + [SDIST])
def test_each_artifact_passes_twine_check_and_holds_the_license(release, name):
    dist = _built(release)
    path = os.path.join(dist, name)
    checked = subprocess.run([os.path.join(TOOLS_VENV, "bin", "twine"), "--no-color", "check",
                              "--strict", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True, env=dict(os.environ, COLUMNS="1000"))
    assert (checked.returncode, checked.stdout, checked.stderr) == (
        0, "Checking %s: PASSED\n" % path, "")
    with open(os.path.join(install.ROOT, "LICENSE"), "rb") as f:
        license = f.read()
    if name == SDIST:
        with tarfile.open(path) as tar:
            base = "utf8env-%s/" % VERSION
            assert tar.extractfile(base + "LICENSE").read() == license
            metadata = tar.extractfile(base + "PKG-INFO").read()
    else:
        assert _member(path, "utf8env-%s.dist-info/licenses/LICENSE" % VERSION) == license
        metadata = _member(path, "utf8env-%s.dist-info/METADATA" % VERSION)
    head = metadata.split(b"\n\n", 1)[0].decode().splitlines()
    assert head[:6] == ["Metadata-Version: 2.4", "Name: utf8env", "Version: " + VERSION,
                        head[3], "License-Expression: MIT", "License-File: LICENSE"]
    assert "Classifier: Programming Language :: Python :: 3.15" in head


def _description(path):
    """The long description of an artifact: its metadata's body."""
    if path.endswith(".tar.gz"):
        with tarfile.open(path) as tar:
            metadata = tar.extractfile("utf8env-%s/PKG-INFO" % VERSION).read()
    else:
        metadata = _member(path, "utf8env-%s.dist-info/METADATA" % VERSION)
    return metadata.split(b"\n\n", 1)[1].decode("utf-8")


@pytest.mark.parametrize("name", [WHEELS[-1], SDIST])
def test_the_description_renders_on_an_index_with_every_link_leading_somewhere(release, name):
    """Rendered by the index's own renderer (readme_renderer with its Markdown extra, as
    PyPI renders a description): every link is a web address or an anchor of the page
    itself; none leads into a source tree the index's reader does not have."""
    described = _description(os.path.join(_built(release), name))
    with open(os.path.join(install.ROOT, "README.md"), encoding="utf-8") as f:
        assert described == build_backend.index_description(f.read())
    rendered = subprocess.run(
        [os.path.join(TOOLS_VENV, "bin", "python"), "-W", "error", "-c",
         "import sys, readme_renderer.markdown as m; sys.stdout.write(m.render(sys.stdin.read()))"],
        input=described, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert (rendered.returncode, rendered.stderr) == (0, "")
    html = rendered.stdout
    ids = set(re.findall(r' id="([^"]+)"', html))
    links = re.findall(r'href="([^"]*)"', html)
    assert links and [link for link in links if not (
        link.startswith("https://") or link.startswith("#") and link[1:] in ids)] == []
    assert "](" not in html and "docs/run.md" in html


@pytest.mark.fast
def test_the_index_description_names_the_files_the_readme_links():
    assert build_backend.index_description(
        "See [docs/run.md](docs/run.md), [the tiers](CONTRIBUTING.md#tiers), "
        "[`docs/fix.md`](docs/fix.md), [PEP 540](https://peps.python.org/pep-0540/) "
        "and [below](#below).\n") == (
        "See `docs/run.md`, the tiers (`CONTRIBUTING.md`), `docs/fix.md`, "
        "[PEP 540](https://peps.python.org/pep-0540/) and [below](#below).\n"
        "\n---\n\nThe pages `docs/NAME.md` named above are installed with utf8env: "
        "`utf8env --help` ends with their folder.\n")
    assert build_backend.index_description("No link.\n") == "No link.\n"


def test_pip_installs_the_manylinux_launcher_and_it_runs(release, venv):
    dist = _built(release)
    bin_folder, environ = venv
    with open(os.path.join(bin_folder, "utf8env"), "rb") as f:
        assert f.read() == _launcher(dist, "manylinux_2_17_x86_64.manylinux2014_x86_64")
    _runs([os.path.join(bin_folder, "utf8env")], environ)


def _runs(command, environ):
    """command runs `utf8env run -- /bin/true` and `--version` as utf8env does."""
    for argv, expected in ((["run", "--", "/bin/true"], (0, b"", b"")),
                           (["--version"], (0, ("utf8env %s\n" % VERSION).encode(), b""))):
        result = subprocess.run(command + argv, env=environ, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, timeout=120)
        assert (result.returncode, result.stdout, result.stderr) == expected, argv


def _beside(venv, dist, platform):
    """The launcher of `platform`'s wheel in the venv's bin folder, where it finds the
    installation as the installed command does (pip installs only this platform's wheel):
    its path."""
    bin_folder, _ = venv
    path = os.path.join(bin_folder, "utf8env-" + platform)
    with open(path, "wb") as f:
        f.write(_launcher(dist, platform))
    os.chmod(path, 0o755)
    return path


def test_the_musl_x86_64_launcher_runs(release, venv):
    # Static: it runs on this glibc machine as on Alpine, with this machine's CPython.
    launcher = _beside(venv, _built(release), "musllinux_1_2_x86_64")
    _runs([launcher], venv[1])


def test_the_aarch64_launchers_run_under_qemu(release, venv):
    qemu = machine.command("qemu-aarch64", "qemu-user", "the aarch64 launchers")
    if not os.path.exists(os.path.join(AARCH64_ROOT, "lib", "ld-linux-aarch64.so.1")):
        pytest.skip("no aarch64 glibc in %s: apt-get install libc6-arm64-cross (%s does)"
                    % (AARCH64_ROOT, machine.SETUP))
    dist = _built(release)
    # qemu-user runs the launcher; the x86_64 programs it starts (this machine's CPython,
    # then /bin/true) run natively: qemu passes their exec on to the kernel.
    glibc = _beside(venv, dist, "manylinux_2_17_aarch64.manylinux2014_aarch64")
    _runs([qemu, "-L", AARCH64_ROOT, glibc], venv[1])
    musl = _beside(venv, dist, "musllinux_1_2_aarch64")
    _runs([qemu, musl], venv[1])


def test_the_any_wheel_installs_the_stub_and_it_runs(release, tmp_path):
    dist = _built(release)
    environ = release_build.environ(str(tmp_path))
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "v")], check=True)
    bin_folder = str(tmp_path / "v" / "bin")
    subprocess.run([os.path.join(bin_folder, "python"), "-m", "pip", "install", "-q",
                    "--no-index", os.path.join(dist, WHEELS[-1])], check=True, env=environ)
    with open(os.path.join(bin_folder, "utf8env"), "rb") as f:
        assert f.read().startswith(b"#!/bin/sh\n")
    _runs([os.path.join(bin_folder, "utf8env")], dict(environ, PATH="/usr/bin:/bin", LANG="C"))


# -- the backend's hooks the release uses (pure) ----------------------------------------------

@pytest.mark.fast
def test_the_platform_tag_of_a_cross_build_is_the_builders(monkeypatch):
    monkeypatch.delenv(build_backend.PLATFORM_TAG, raising=False)
    assert build_backend._platform_tag() == build_backend.sysconfig.get_platform().replace(
        "-", "_").replace(".", "_")
    monkeypatch.setenv(build_backend.PLATFORM_TAG, "manylinux_2_17_aarch64.manylinux2014_aarch64")
    assert build_backend._platform_tag() == "manylinux_2_17_aarch64.manylinux2014_aarch64"
    for bad in ("manylinux 2014", "Linux_x86_64", "a..b", ".a"):
        monkeypatch.setenv(build_backend.PLATFORM_TAG, bad)
        with pytest.raises(SystemExit) as stop:
            build_backend._platform_tag()
        assert str(stop.value) == (
            "UTF8ENV_PLATFORM_TAG=%r: expected a wheel platform tag such as "
            "manylinux_2_17_x86_64 (lower-case letters, digits, _; . between tags)" % bad)


@pytest.mark.fast
def test_a_windows_wheel_is_built_for_a_windows_tag_or_on_windows(monkeypatch):
    monkeypatch.delenv("UTF8ENV_LAUNCHER", raising=False)
    monkeypatch.delenv(build_backend.PLATFORM_TAG, raising=False)
    monkeypatch.setattr(build_backend.sys, "platform", "linux")
    assert build_backend.windows_tag() is None
    for tag in ("win_amd64", "win32", "win_arm64"):
        monkeypatch.setenv(build_backend.PLATFORM_TAG, tag)
        assert build_backend.windows_tag() == tag
    monkeypatch.setenv(build_backend.PLATFORM_TAG, "manylinux_2_17_x86_64")
    assert build_backend.windows_tag() is None
    # A build on Windows (pip from the sdist): this machine's tag, as sysconfig names it.
    monkeypatch.delenv(build_backend.PLATFORM_TAG)
    monkeypatch.setattr(build_backend.sys, "platform", "win32")
    for platform, tag in (("win-amd64", "win_amd64"), ("win32", "win32"),
                          ("win-arm64", "win_arm64")):
        monkeypatch.setattr(build_backend.sysconfig, "get_platform", lambda: platform)
        assert build_backend.windows_tag() == tag
    for choice in ("c", "sh"):
        monkeypatch.setenv("UTF8ENV_LAUNCHER", choice)
        with pytest.raises(SystemExit) as stop:
            build_backend.windows_tag()
        assert str(stop.value) == (
            "UTF8ENV_LAUNCHER=%s: a Windows wheel has neither the launcher nor the stub (its "
            "command is the console script utf8env.exe)" % choice)


@pytest.mark.fast
def test_a_windows_wheel_holds_the_console_script_and_no_script(monkeypatch, tmp_path):
    monkeypatch.delenv("UTF8ENV_LAUNCHER", raising=False)
    monkeypatch.setenv(build_backend.PLATFORM_TAG, "win_arm64")
    name = build_backend.build_wheel(str(tmp_path))
    assert name == "utf8env-%s-py3-none-win_arm64.whl" % VERSION
    with zipfile.ZipFile(str(tmp_path / name)) as z:
        names = z.namelist()
        entry_points = z.read("utf8env-%s.dist-info/entry_points.txt" % VERSION).decode()
    assert [n for n in names if not n.startswith("utf8env/")] == [
        "utf8env-%s.dist-info/%s" % (VERSION, n) for n in (
            "licenses/LICENSE", "METADATA", "WHEEL", "entry_points.txt", "RECORD")]
    assert entry_points.startswith("[console_scripts]\nutf8env = utf8env._cli:main\n\n")
    # setup.py's arguments (pips without PEP 517) on Windows: the same console script.
    monkeypatch.delenv(build_backend.PLATFORM_TAG)
    monkeypatch.setattr(build_backend.sys, "platform", "win32")
    monkeypatch.setattr(build_backend.sysconfig, "get_platform", lambda: "win-amd64")
    arguments = build_backend.setuptools_arguments(str(tmp_path / "setup"))
    assert (arguments["scripts"], arguments["entry_points"]["console_scripts"]) == (
        [], ["utf8env = utf8env._cli:main"])


@pytest.mark.fast
def test_license_files_name_files_of_the_project(tmp_path):
    (tmp_path / "LICENSE").write_text("x\n")
    (tmp_path / "licenses").mkdir()
    (tmp_path / "licenses" / "B.txt").write_text("b\n")
    (tmp_path / "licenses" / "A.txt").write_text("a\n")
    project = {"license-files": ["LICENSE", "licenses/*.txt", "LICENSE"]}
    assert build_backend.license_files(project, str(tmp_path)) == [
        "LICENSE", os.path.join("licenses", "A.txt"), os.path.join("licenses", "B.txt")]
    for pattern, why in (("COPYING", "no such file"), ("../LICENSE", "expected a path inside "
                         "the project"), ("/etc/passwd", "expected a path inside the project")):
        with pytest.raises(ValueError) as error:
            build_backend.license_files({"license-files": [pattern]}, str(tmp_path))
        assert str(error.value) == "pyproject.toml: license-files %r: %s" % (pattern, why)
