"""utf8env's build backend (PEP 517 and PEP 660): standard library only, Python 3.6 syntax
(its TOML reader before 3.11's tomllib, tomli, is vendored in tools/_vendor).

Why not setuptools: the setuptools that reads pyproject.toml's [project] table (61+) never
ran on 3.6, and an older one ignores that table, so one of the two would need a second
copy of the metadata; a venv of 3.12+ has no setuptools at all, so every install from
source would fetch it from an index; and a setuptools build/ folder left in a checkout
ships modules that no longer exist. A wheel of a pure package is a zip of its files and
four small ones (PEP 427, core metadata 2.4: the license as PEP 639 writes it, which
every pip installs) and the license files; an sdist, a tar of the tree with PKG-INFO.
So: no build dependency (`pip install --no-index .` works offline, on every 3.6-3.15),
one reading of [project] for every version, and the wheel holds exactly the files under
src/utf8env (but caches) and the pages of docs/ (as utf8env/docs/). Pips without PEP 517
(before 19: a new 3.6 venv's 18.1, RHEL 8's 9.0.3) run setup.py instead, which takes its
arguments from here.

What it builds, besides [project]: the package src/utf8env (every file, the _child/
folders that are not packages included) and the `utf8env` command, bin/utf8env, as the
one script (scripts/utf8env.sh says why it is not a console script): scripts/launcher.c
compiled over the C library where a C compiler works on Linux (the wheel is then this
platform's), else the shell stub scripts/utf8env.sh. Both find the installation they
belong to by this version (__version__, written into them) and start its interpreter
with the code of scripts/start.py. The launcher is compiled as tini and dumb-init are:
CC (else cc, else gcc) with the usual hardening flags, then the environment's CFLAGS and
LDFLAGS, which win where they differ.
UTF8ENV_LAUNCHER chooses: "c" (the compiled launcher, else an error), "sh" (the stub), or
unset (c where it builds, else sh); any other value is an error.

A cross build (tools/release.py: CC a compiler for another machine or libc, such as
`python -m ziglang cc -target aarch64-linux-gnu.2.17`) names the platform of what CC
builds in UTF8ENV_PLATFORM_TAG, a wheel platform tag such as
manylinux_2_17_aarch64.manylinux2014_aarch64 (dots join tags the launcher satisfies alike);
the wheel of a compiled launcher takes it instead of this machine's (sysconfig). The
builder answers for it; `auditwheel show` checks it. The stub's wheel is always "any".

A Windows wheel (UTF8ENV_PLATFORM_TAG win_amd64, win32 or win_arm64, or any build that runs
on Windows: pip from the sdist there) has no script at all: its command is the console
script `utf8env` (WINDOWS_COMMAND), from which pip makes Scripts\\utf8env.exe.
"""
import base64
import glob
import gzip
import hashlib
import io
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join("src", "utf8env")
# The pages of docs/ (*.md) go into the package too, as utf8env/docs/: an installed
# utf8env has them, and `utf8env --help` names the folder.
DOCS = "docs"
SCRIPTS = os.path.join(ROOT, "scripts")
# What an sdist holds besides PKG-INFO: enough to build the wheel again and run the tests.
SDIST = ("pyproject.toml", "setup.py", "README.md", "CONTRIBUTING.md", "LICENSE", "docs", "tools",
         "scripts", "src", "tests", "benchmarks")
SKIP = re.compile(r"(^|/)(__pycache__|[^/]*\.egg-info|\.pytest_cache|\.hypothesis)(/|$)"
                  r"|\.py[co]$")


# -- the PEP 517 / PEP 660 hooks ----------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project = read_project()
    files = [(_module_name(path), path) for path in package_files()]
    return _write_wheel(wheel_directory, project, files)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """A .pth file naming src/: site puts it on sys.path, the package is this checkout's.
    The `utf8env` command finds this dist-info as it finds a normal install's, and then
    the package through the .pth file (scripts/start.py)."""
    project = read_project()
    pth = (os.path.join(ROOT, "src") + "\n").encode("utf-8")
    return _write_wheel(wheel_directory, project, [("_utf8env_editable.pth", pth)])


def build_sdist(sdist_directory, config_settings=None):
    project = read_project()
    base = "%s-%s" % (project["name"], project["version"])
    path = os.path.join(sdist_directory, base + ".tar.gz")
    mtime = _epoch()
    with open(path, "wb") as raw, \
            gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=mtime) as zipped, \
            tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as tar:
        def add(name, data, executable=False):
            info = tarfile.TarInfo(base + "/" + name)
            info.size, info.mtime = len(data), mtime
            info.mode = 0o755 if executable else 0o644
            tar.addfile(info, io.BytesIO(data))
        add("PKG-INFO", core_metadata(project))
        for relative in _sdist_files():
            full = os.path.join(ROOT, relative)
            with open(full, "rb") as f:
                add(relative.replace(os.sep, "/"), f.read(),
                    bool(os.stat(full).st_mode & stat.S_IXUSR))
    return os.path.basename(path)


# -- the files --------------------------------------------------------------------------

def _walk(top):
    """Every file under ROOT/top, relative to ROOT, sorted, without caches and build
    leftovers."""
    found = []
    for folder, dirs, names in os.walk(os.path.join(ROOT, top)):
        dirs.sort()
        for name in sorted(names):
            relative = os.path.relpath(os.path.join(folder, name), ROOT)
            if not SKIP.search(relative.replace(os.sep, "/")):
                found.append(relative)
    return found


def package_files():
    """The files of the package, relative to ROOT: the wheel holds these and no other
    (src/utf8env's, and the pages of docs/)."""
    return _walk(PACKAGE) + doc_pages()


# What utf8env/docs/ holds of docs/: its pages, and the files they give the user to use
# (doctor.md's Ansible playbook), so that no link of an installed page leads nowhere.
DOC_SUFFIXES = (".md", ".yml")


def doc_pages():
    """The pages of docs/ and the files they link, relative to ROOT: what the package holds
    as utf8env/docs/. Its top level only: setup.py's copy is one folder, as the wheel's
    must be."""
    return [path for path in _walk(DOCS)
            if path.endswith(DOC_SUFFIXES) and os.path.dirname(path) == DOCS]


def _sdist_files():
    found = []
    for entry in SDIST:
        if os.path.isdir(os.path.join(ROOT, entry)):
            found += _walk(entry)
        elif os.path.exists(os.path.join(ROOT, entry)):
            found.append(entry)
    return found


def _module_name(relative):
    """The path inside the wheel: src/utf8env/x.py -> utf8env/x.py, docs/x.md ->
    utf8env/docs/x.md."""
    if relative.startswith(DOCS + os.sep):
        return "utf8env/" + relative.replace(os.sep, "/")
    return os.path.relpath(relative, "src").replace(os.sep, "/")


def _epoch():
    # Reproducible builds: SOURCE_DATE_EPOCH, else zip's first representable time.
    return int(os.environ.get("SOURCE_DATE_EPOCH", 315532800))


def _write_wheel(wheel_directory, project, files):
    """files: [(path in the wheel, source path relative to ROOT, or bytes)]."""
    name, version = project["name"], project["version"]
    dist_info = "%s-%s.dist-info" % (name, version)
    scripts = "%s-%s.data/scripts/" % (name, version)
    entries = []        # (path in the wheel, bytes, executable)
    for target, source in files:
        if isinstance(source, bytes):
            entries.append((target, source, False))
        else:
            with open(os.path.join(ROOT, source), "rb") as f:
                entries.append((target, f.read(), False))
    windows = windows_tag()
    command, platform = ([], windows) if windows else command_files()
    for script, data in command:
        entries.append((scripts + script, data, True))
    for relative in license_files(project):
        with open(os.path.join(ROOT, relative), "rb") as f:
            entries.append((dist_info + "/licenses/" + relative.replace(os.sep, "/"), f.read(),
                            False))
    tag = "py3-none-" + (platform or "any")
    entries.append((dist_info + "/METADATA", core_metadata(project), False))
    # One Tag line per platform of a compound tag (PEP 425: a.b is "a or b").
    entries.append((dist_info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: utf8env "
                    "tools/build_backend.py\nRoot-Is-Purelib: true\n" + "".join(
                        "Tag: py3-none-%s\n" % p for p in (platform or "any").split("."))
                    ).encode(), False))
    entry_points = _entry_points(project, windows)
    if entry_points:
        entries.append((dist_info + "/entry_points.txt", entry_points, False))
    record = []
    for target, data, _ in entries:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        record.append("%s,sha256=%s,%d\n" % (target, digest.decode("ascii"), len(data)))
    record.append(dist_info + "/RECORD,,\n")
    entries.append((dist_info + "/RECORD", "".join(record).encode("utf-8"), False))

    filename = "%s-%s-%s.whl" % (name, version, tag)
    stamp = time.gmtime(max(_epoch(), 315532800))[:6]
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w",
                         zipfile.ZIP_DEFLATED) as wheel:
        for target, data, executable in entries:
            info = zipfile.ZipInfo(target, stamp)
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    return filename


# -- the `utf8env` command ------------------------------------------------------------------

def command_files():
    """([(name in the scripts folder, bytes)], the wheel's platform tag or None): bin/utf8env,
    the one script."""
    code, version = start_code(), package_version().encode("ascii")
    choice = os.environ.get("UTF8ENV_LAUNCHER", "")
    if choice not in ("", "c", "sh"):
        # A mistyped value is the builder's to fix, not a bug: one line (pip shows what the
        # backend printed), not a traceback.
        raise SystemExit("UTF8ENV_LAUNCHER=%r: expected c, sh or unset" % choice)
    launcher = _compiled_launcher(code, version, choice) if choice != "sh" else None
    if launcher is not None:
        return [("utf8env", launcher)], _platform_tag()
    with open(os.path.join(SCRIPTS, "utf8env.sh"), "rb") as f:
        stub = f.read()
    if b"'" in code + version or stub.count(b"@START_CODE@") != 1 or stub.count(b"@VERSION@") != 1:
        raise ValueError("scripts/start.py and __version__ must hold no single quote (the stub "
                         "quotes them)")
    return [("utf8env", stub.replace(b"@START_CODE@", code).replace(b"@VERSION@", version))], None


# -- the `utf8env` command on Windows ------------------------------------------------------

# Windows runs neither the launcher nor the stub (both POSIX), so a Windows wheel has no
# scripts: its command is this console script, from which pip makes Scripts\utf8env.exe.
# Not in the any wheel: on POSIX it would be a second bin/utf8env.
WINDOWS_COMMAND = {"utf8env": "utf8env._cli:main"}
WINDOWS_TAGS = ("win_amd64", "win32", "win_arm64")


def windows_tag():
    """The Windows platform tag the wheel is built for, or None (a POSIX wheel):
    UTF8ENV_PLATFORM_TAG's where it names one (the release builds them from Linux), else
    this machine's when the build runs on Windows (sysconfig: win-amd64, win32,
    win-arm64)."""
    tag = os.environ.get(PLATFORM_TAG, "")
    if tag not in WINDOWS_TAGS and (tag or sys.platform != "win32"):
        return None
    choice = os.environ.get("UTF8ENV_LAUNCHER", "")
    if choice:
        raise SystemExit("UTF8ENV_LAUNCHER=%s: a Windows wheel has neither the launcher nor "
                         "the stub (its command is the console script utf8env.exe)" % choice)
    return _platform_tag()


def start_code():
    """scripts/start.py without its comment lines (they would be parsed at every start)."""
    with open(os.path.join(SCRIPTS, "start.py"), "rb") as f:
        lines = f.read().splitlines()
    return b"\n".join(line for line in lines if not line.lstrip().startswith(b"#"))


PLATFORM_TAG = "UTF8ENV_PLATFORM_TAG"


def _platform_tag():
    """The platform tag of a wheel with the compiled launcher: UTF8ENV_PLATFORM_TAG's for a
    cross build (the module's docstring), else this machine's."""
    tag = os.environ.get(PLATFORM_TAG, "")
    if not tag:
        return re.sub(r"[^A-Za-z0-9_]", "_", sysconfig.get_platform())
    if not re.match(r"^[a-z0-9_]+(\.[a-z0-9_]+)*$", tag):
        raise SystemExit("%s=%r: expected a wheel platform tag such as "
                         "manylinux_2_17_x86_64 (lower-case letters, digits, _; . between tags)"
                         % (PLATFORM_TAG, tag))
    return tag


# scripts/launcher.c is built as tini and dumb-init are, with the hardening a distribution
# gives its own packages: position independent (address space randomisation moves it too),
# a stack protector, fortified libc calls, relocations resolved at start and then made
# read-only; C99 with warnings. The environment's CFLAGS and LDFLAGS come after these, so
# that where a packager's flags differ, theirs win. -s (no symbol table) and relative
# names in a fresh folder: the same compiler gives the same bytes wherever it builds.
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-O2", "-fPIE", "-fstack-protector-strong",
          "-D_FORTIFY_SOURCE=2"]
LDFLAGS = ["-pie", "-Wl,-z,relro", "-Wl,-z,now", "-s"]


def compile_command(compiler, environ=None):
    """The argv that builds utf8env from launcher.c in the current folder. `compiler`, CFLAGS
    and LDFLAGS are split as make's shell splits them ("ccache gcc", "-O3 -march=native")."""
    environ = os.environ if environ is None else environ
    return (shlex.split(compiler) + CFLAGS + shlex.split(environ.get("CFLAGS", "")) + LDFLAGS
            + shlex.split(environ.get("LDFLAGS", "")) + ["-o", "utf8env", "launcher.c"])


def _compiled_launcher(code, version, choice):
    """scripts/launcher.c compiled with START_CODE = code and VERSION = version, or None
    where that cannot be (not Linux: its own path comes from /proc/self/exe; no compiler).
    choice: "c" (built and starting its interpreter, else an error), "" (as c, else None).
    Built in a folder of fixed names and stripped, so the same compiler gives the same
    bytes."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not sys.platform.startswith("linux") or not compiler:
        if choice:
            raise RuntimeError("UTF8ENV_LAUNCHER=%s: no C compiler on this Linux (CC, cc, gcc)"
                               % choice if compiler is None else
                               "UTF8ENV_LAUNCHER=%s: Linux only" % choice)
        return None
    folder = tempfile.mkdtemp(prefix="utf8env-launcher-")
    try:
        shutil.copy(os.path.join(SCRIPTS, "launcher.c"), os.path.join(folder, "launcher.c"))
        with open(os.path.join(folder, "start_code.h"), "wb") as f:
            f.write(b"static const char START_CODE[] =\n" + _c_string(code) + b";\n"
                    b"static const char VERSION[] =\n" + _c_string(version, "") + b";\n")
        output = _compile(compile_command(compiler), folder, version.decode("ascii"))
        if output is None:
            with open(os.path.join(folder, "utf8env"), "rb") as f:
                return f.read()
        if choice:
            raise RuntimeError("UTF8ENV_LAUNCHER=%s: %s failed%s" % (
                choice, compiler, ":\n" + output.rstrip() if output.strip() else ""))
        return None
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _compile(command, folder, version):
    """None when `command` builds `folder`/utf8env and it starts the interpreter of its
    installation, else what went wrong (the compiler's output)."""
    try:
        result = subprocess.run(command, cwd=folder, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
    except OSError as error:        # CC names no program
        return str(error)
    if result.returncode != 0:
        return result.stdout.decode("utf-8", "replace")
    # It starts the interpreter of a venv made of the few files it looks at, here a shell
    # script that shows the start's first arguments and the last: a build that compiles
    # but does not run is not shipped. A folder where nothing can be executed (noexec), or
    # a compiler for another machine, proves nothing either way.
    venv = os.path.join(folder, "venv")
    name = "python%d.%d" % sys.version_info[:2]
    os.makedirs(os.path.join(venv, "lib", name, "site-packages", "utf8env-%s.dist-info" % version))
    os.mkdir(os.path.join(venv, "bin"))
    open(os.path.join(venv, "pyvenv.cfg"), "w").close()
    with open(os.path.join(venv, "bin", name), "w") as f:
        f.write('#!/bin/sh\nfor last; do :; done\necho "$1 $2 $3 $5 $6 $last"\n')
    os.chmod(os.path.join(venv, "bin", name), 0o755)
    launcher = os.path.realpath(shutil.copy(os.path.join(folder, "utf8env"),
                                            os.path.join(venv, "bin")))
    expected = "-I -S -c %s %s/../lib/%s x y\n" % (launcher, os.path.dirname(launcher), name)
    try:
        ran = subprocess.run([launcher, "x y"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             timeout=60)
    except OSError:
        return None
    if (ran.returncode, ran.stdout) != (0, expected.encode()):
        return "the launcher built does not start its interpreter: status %d, %r" % (
            ran.returncode, ran.stdout)
    return None


def _c_string(data, end="\\n"):
    """bytes as a C string literal, a line of source per line of data (each ends with `end`)."""
    pieces = []
    for line in data.split(b"\n"):
        text = "".join(chr(byte) if 32 <= byte < 127 and byte not in b'\\"?' else "\\%03o" % byte
                       for byte in bytearray(line))
        pieces.append(('    "%s%s"' % (text, end)).encode("ascii"))
    return b"\n".join(pieces)


# -- metadata ---------------------------------------------------------------------------

_KNOWN = {"name", "version", "dynamic", "description", "readme", "requires-python", "license",
          "license-files", "classifiers", "keywords", "urls", "dependencies",
          "optional-dependencies",
          "scripts", "gui-scripts", "entry-points"}


def read_project(root=ROOT):
    """pyproject.toml's [project], its dynamic version read from the package. ValueError
    for a key this backend does not write (rather than a wheel silently without it)."""
    project = dict(read_pyproject(root).get("project", {}))
    unknown = sorted(set(project) - _KNOWN)
    if unknown or set(project.get("dynamic", ())) - {"version"}:
        raise ValueError("pyproject.toml: [project] %s: not supported by tools/build_backend.py"
                         % ", ".join(unknown + sorted(set(project.get("dynamic", ())) - {"version"})))
    if "version" in project.get("dynamic", ()):
        project["version"] = package_version(root)
    project["name"] = re.sub(r"[-_.]+", "_", project["name"]).lower()
    return project


def package_version(root=ROOT):
    """__version__ of src/utf8env/__init__.py, read without importing the package (it is
    written once, there; `utf8env --version` prints it)."""
    with open(os.path.join(root, PACKAGE, "__init__.py"), encoding="utf-8") as f:
        match = re.search(r'^__version__ = "([^"]+)"$', f.read(), re.M)
    if match is None:
        raise ValueError("%s: no __version__ = \"...\" line" % os.path.join(PACKAGE, "__init__.py"))
    return match.group(1)


def _readme(project, root=ROOT):
    readme = project.get("readme")
    if readme is None:
        return None, None
    if isinstance(readme, str):
        readme = {"file": readme}
    content_type = readme.get("content-type") or (
        "text/markdown" if readme.get("file", "").endswith(".md") else "text/plain")
    if "text" in readme:
        return readme["text"], content_type
    with open(os.path.join(root, readme["file"]), encoding="utf-8") as f:
        text = f.read()
    if content_type.startswith("text/markdown"):
        text = index_description(text)
    return text, content_type


# A link of the README to a file of the source tree (docs/run.md, CONTRIBUTING.md#...):
# its target has no scheme and is not an anchor of the page. On a package index's page,
# where the description is shown alone, it would lead nowhere.
_TREE_LINK = re.compile(r"\[([^\]]+)\]\((?![A-Za-z][A-Za-z0-9+.-]*:|#)([^)#\s]+)(?:#[^)\s]*)?\)")
_INSTALLED_PAGES = ("\n---\n\nThe pages `docs/NAME.md` named above are installed with utf8env: "
                    "`utf8env --help` ends with their folder.\n")


def index_description(text):
    """The README as the index shows it: each link into the source tree becomes the file's
    name, and a last line says where the pages named so are once installed."""
    def named(match):
        words, path = match.groups()
        return "`%s`" % path if words in (path, "`%s`" % path) else "%s (`%s`)" % (words, path)
    described, links = _TREE_LINK.subn(named, text)
    return described + _INSTALLED_PAGES if links else described


def license_files(project, root=ROOT):
    """[project] license-files (PEP 639: paths or glob patterns relative to the project),
    the files they match relative to root, sorted; a pattern that matches no file is an
    error (the metadata would name a license the wheel lacks)."""
    found = []
    for pattern in project.get("license-files", ()):
        if pattern.startswith("/") or ".." in pattern.split("/"):
            raise ValueError("pyproject.toml: license-files %r: expected a path inside the project"
                             % pattern)
        matches = sorted(os.path.relpath(path, root) for path in
                         glob.glob(os.path.join(root, pattern)) if os.path.isfile(path))
        if not matches:
            raise ValueError("pyproject.toml: license-files %r: no such file" % pattern)
        found += [m for m in matches if m not in found]
    return found


def core_metadata(project, root=ROOT):
    """METADATA / PKG-INFO: core metadata 2.4 (pip reads the fields it knows and ignores the
    rest, as far back as a 3.6 venv's pip 18.1)."""
    lines = ["Metadata-Version: 2.4", "Name: " + project["name"], "Version: " + project["version"]]
    if "description" in project:
        lines.append("Summary: " + project["description"])
    if "keywords" in project:
        lines.append("Keywords: " + ",".join(project["keywords"]))
    license = project.get("license")
    if isinstance(license, str):
        lines.append("License-Expression: " + license)
    elif isinstance(license, dict) and "text" in license:
        lines.append("License: " + license["text"])
    lines += ["License-File: " + path.replace(os.sep, "/") for path in license_files(project, root)]
    for label, url in sorted(project.get("urls", {}).items()):
        lines.append("Project-URL: %s, %s" % (label, url))
    lines += ["Classifier: " + c for c in project.get("classifiers", ())]
    if "requires-python" in project:
        lines.append("Requires-Python: " + project["requires-python"])
    lines += ["Requires-Dist: " + r for r in project.get("dependencies", ())]
    for extra, requirements in sorted(project.get("optional-dependencies", {}).items()):
        lines.append("Provides-Extra: " + extra)
        for requirement in requirements:
            requirement, _, marker = requirement.partition(";")
            marker = ("(%s) and " % marker.strip()) if marker.strip() else ""
            lines.append('Requires-Dist: %s; %sextra == "%s"' % (requirement.strip(), marker, extra))
    body, content_type = _readme(project, root)
    if body is not None:
        lines.append("Description-Content-Type: " + content_type)
    text = "\n".join(lines) + "\n"
    if body is not None:
        text += "\n" + body
    return text.encode("utf-8")


def entry_point_groups(project, windows=None):
    """{group: {name: object reference}}: [project.scripts], gui-scripts, entry-points; and
    for a Windows wheel (windows: its tag) the command's console script."""
    groups = {"console_scripts": dict(WINDOWS_COMMAND)} if windows else {}
    for key, group in (("scripts", "console_scripts"), ("gui-scripts", "gui_scripts")):
        if project.get(key):
            groups.setdefault(group, {}).update(project[key])
    for group, points in project.get("entry-points", {}).items():
        groups.setdefault(group, {}).update(points)
    return groups


def _entry_points(project, windows=None):
    text = ""
    for group, points in sorted(entry_point_groups(project, windows).items()):
        text += "[%s]\n" % group
        text += "".join("%s = %s\n" % item for item in sorted(points.items())) + "\n"
    return text.encode("utf-8")


# -- setup.py, for pips without PEP 517 --------------------------------------------------

def setuptools_arguments(folder, root=ROOT):
    """setup()'s arguments for the same distribution: the same metadata, the same files;
    the command is written into `folder` (setuptools copies scripts from files)."""
    project = read_project(root)
    windows = windows_tag()
    scripts = []
    for name, data in [] if windows else command_files()[0]:
        scripts.append(os.path.join(folder, name))
        with open(scripts[-1], "wb") as f:
            f.write(data)
        os.chmod(scripts[-1], 0o755)
    packages, package_data, package_dir = [], {}, {"": "src"}
    # The pages of docs/ as the package utf8env.docs: copied into the build folder, the
    # one place setuptools takes them from (a folder of the tree would give it docs/'s
    # other files as modules).
    pages = doc_pages()
    if pages:
        copy = os.path.join(folder, DOCS)
        os.makedirs(copy, exist_ok=True)
        for relative in pages:
            shutil.copy(os.path.join(root, relative), copy)
        packages.append("utf8env.docs")
        package_dir["utf8env.docs"] = copy
        package_data["utf8env.docs"] = [os.path.basename(relative) for relative in pages]
    for relative in _walk(PACKAGE):
        folder, name = os.path.split(os.path.relpath(relative, "src"))
        owner = folder
        while owner and not os.path.exists(os.path.join(root, "src", owner, "__init__.py")):
            owner = os.path.dirname(owner)
        if not owner:
            raise ValueError("%s: not inside a package" % relative)
        dotted = owner.replace(os.sep, ".")
        if owner == folder and name == "__init__.py":
            packages.append(dotted)
        elif owner != folder or not name.endswith(".py"):
            # Not a module of its package (the _child/bootstrap folder, data): data.
            package_data.setdefault(dotted, []).append(
                os.path.relpath(os.path.join(folder, name), owner))
    readme, content_type = _readme(project, root)
    extras = {extra: list(requirements)
              for extra, requirements in project.get("optional-dependencies", {}).items()}
    license = project.get("license")
    return dict(
        name=project["name"], version=project["version"],
        description=project.get("description", ""), long_description=readme or "",
        long_description_content_type=content_type or "text/plain",
        license=license.get("text", "") if isinstance(license, dict) else license or "",
        classifiers=list(project.get("classifiers", ())),
        python_requires=project.get("requires-python"),
        install_requires=list(project.get("dependencies", ())), extras_require=extras,
        entry_points={group: ["%s = %s" % item for item in sorted(points.items())]
                      for group, points in entry_point_groups(project, windows).items()},
        package_dir=package_dir, packages=sorted(packages),
        package_data=package_data,
        scripts=scripts, zip_safe=False)


# -- pyproject.toml, read by the standard TOML reader ---------------------------------------

# Before 3.11's tomllib, tomli: its 1.x line, the last to run on 3.6, vendored unchanged with
# its LICENSE (the sdist holds tools/, the wheels only the package). Its own imports are
# absolute (`from tomli._parser import`), so its folder is on sys.path while it is imported.
VENDOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_vendor")


def toml_reader():
    """tomllib where the interpreter has it, else the vendored tomli: the same module
    (load, loads, TOMLDecodeError, a ValueError)."""
    try:
        import tomllib
        return tomllib
    except ImportError:
        pass
    sys.path.insert(0, VENDOR)
    try:
        import tomli
    finally:
        sys.path.remove(VENDOR)
    return tomli


def read_pyproject(root=ROOT):
    """pyproject.toml as TOML 1.0 reads it. ValueError in one line where it is not TOML."""
    toml = toml_reader()
    with open(os.path.join(root, "pyproject.toml"), "rb") as f:
        try:
            return toml.load(f)
        except toml.TOMLDecodeError as error:
            raise ValueError("pyproject.toml: %s" % error) from None
