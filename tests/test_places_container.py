"""The facts doctor's container fixes (Dockerfile ENV / RUN / ENTRYPOINT lines) rest on,
measured in their real place: a root file system made like Docker's debian:bookworm-slim
(tests/support/build_debian_image.sh), built and entered as `docker build` / `docker run`
do (tests/support/container.py). Full tier: root, namespaces, and the Debian mirror for
the `apt-get update` of the fixes that install a package.

One copy of the image per fixture (module scope); the RUN lines are the fixes' own."""
import os
import re
import subprocess

import pytest

from support import container, machine

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(HERE)
E_ACUTE = "print('\\u00e9')"            # ASCII source; prints U+00E9
C_LOCALE_ERROR = (b"UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in "
                  b"position 0: ordinal not in range(128)\n")
PERL_WARNING = (b"perl: warning: Setting locale failed.\n"
                b"perl: warning: Please check that your locale settings:\n"
                b"\tLANGUAGE = (unset),\n"
                b"\tLC_ALL = (unset),\n"
                b"\tLANG = \"en_US.UTF-8\"\n"
                b"    are supported and installed on your system.\n"
                b"perl: warning: Falling back to the standard locale (\"C\").\n")
INSTALL_LOCALES = "RUN apt-get update && apt-get install -y locales"
EN_US_FIX = ("RUN apt-get update && apt-get install -y locales && sed -i "
             "'s/^# *en_US.UTF-8 UTF-8$/en_US.UTF-8 UTF-8/' /etc/locale.gen && locale-gen")
# What apt prints when it cannot reach the mirror (apt-get update itself exits 0 then).
OFFLINE = (b"Temporary failure resolving", b"Could not resolve", b"Failed to fetch",
           b"Network is unreachable", b"Could not connect", b"Unable to connect",
           b"Connection timed out")


def _image_or_skip():
    machine.root("entering a container")
    reason = container.unavailable()
    if reason:
        pytest.skip(reason)
    return container.Image()


def _build_online(image, lines):
    """image.build(lines) for lines that reach the Debian mirror; a skip if it cannot."""
    try:
        return image.build(lines)
    except container.BuildError as error:
        if any(sign in error.output for sign in OFFLINE):
            with open(os.path.join(image.root, "etc/apt/sources.list.d/debian.sources")) as f:
                mirror = re.search(r"^URIs: (\S+)", f.read(), re.M).group(1)
            pytest.skip("no network for apt: apt-get update in the container cannot reach %s"
                        % mirror)
        raise


def _copy(image, tmp_path_factory, name):
    """A copy of `image` in a folder of the run's tmp; its remover (80-170 MB each)."""
    folder = tmp_path_factory.mktemp(name)
    return image.copy(folder / "root"), lambda: subprocess.run(
        ["rm", "-rf", "--one-file-system", "--", str(folder)])


def _py36():
    """The host's CPython 3.6 (pyenv's), and its prefix (bound read-only, same path)."""
    python = os.path.realpath(machine.python("3.6"))
    return python, os.path.dirname(os.path.dirname(python))


@pytest.fixture(scope="module")
def py36():
    return _py36()[0]


@pytest.fixture(scope="module")
def bare(tmp_path_factory):
    """debian:bookworm-slim as pulled, with the host's 3.6 bound in."""
    image, remove = _copy(_image_or_skip(), tmp_path_factory, "bare")
    try:
        yield image.bind(_py36()[1])
    finally:
        remove()


@pytest.fixture(scope="module")
def with_locales(bare, tmp_path_factory):
    image, remove = _copy(bare, tmp_path_factory, "locales")
    try:
        yield _build_online(image, [INSTALL_LOCALES])
    finally:
        remove()


@pytest.fixture(scope="module")
def en_us(bare, tmp_path_factory):
    image, remove = _copy(bare, tmp_path_factory, "en_us")
    try:
        yield _build_online(image, [EN_US_FIX, "ENV LANG=en_US.UTF-8"])
    finally:
        remove()


@pytest.fixture(scope="module")
def with_python3(bare, tmp_path_factory):
    image, remove = _copy(bare, tmp_path_factory, "python3")
    try:
        yield _build_online(image, ["RUN apt-get update && apt-get install -y "
                                    "--no-install-recommends python3"])
    finally:
        remove()


def _environ(image, env_extra=None):
    """The environment PID 1 (the entrypoint) got, in order: /proc/1/environ."""
    status, out, err = image.run(["cat", "/proc/1/environ"], env_extra=env_extra)
    assert (status, err) == (0, b"")
    return out.decode().split("\0")[:-1]


# -- a. apt in the image ---------------------------------------------------------------

def test_install_without_update_fails(bare):
    lists = os.path.join(bare.root, "var/lib/apt/lists")
    assert os.listdir(lists) == ["partial"]     # shipped without package lists
    with pytest.raises(container.BuildError) as failed:
        bare.derive().build(["RUN apt-get install -y locales"])
    assert failed.value.status == 100
    # Not "E: Unable to locate package locales": libc6's Suggests and Breaks name it, so
    # apt knows the name with no lists, and has no candidate for it.
    assert failed.value.output == (
        b"Reading package lists...\nBuilding dependency tree...\n"
        b"Package locales is not available, but is referred to by another package.\n"
        b"This may mean that the package is missing, has been obsoleted, or\n"
        b"is only available from another source\n\n"
        b"E: Package 'locales' has no installation candidate\n")


def test_update_then_install_succeeds(with_locales):
    assert with_locales.run(["dpkg-query", "-W", "-f", "${Status}", "locales"]) == (
        0, b"install ok installed", b"")
    # Its postinst generates nothing: every line of /etc/locale.gen is commented out.
    assert with_locales.run(["locale", "-a"]) == (0, b"C\nC.utf8\nPOSIX\n", b"")
    status, out, _ = with_locales.run(["grep", "-c", "^[^#]", "/etc/locale.gen"])
    assert (status, out) == (1, b"0\n")
    assert with_locales.run(["grep", "-x", "# en_US.UTF-8 UTF-8", "/etc/locale.gen"])[:2] == (
        0, b"# en_US.UTF-8 UTF-8\n")


# -- b. the bare image -------------------------------------------------------------------

def test_bare_environment(bare):
    environ = _environ(bare)
    assert environ == ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                       "HOSTNAME=%s" % bare.last_hostname, "HOME=/root"]
    assert re.match(r"^[0-9a-f]{12}$", bare.last_hostname)
    assert bare.run(["hostname"]) == (0, (bare.last_hostname + "\n").encode(), b"")
    assert bare.run(["sh", "-c", "echo $$"]) == (0, b"1\n", b"")       # the entrypoint is PID 1
    assert bare.run(["dpkg", "-s", "locales"]) == (1, b"", (          # no locales package
        b"dpkg-query: package 'locales' is not installed and no information is available\n"
        b"Use dpkg --info (= dpkg-deb --info) to examine archive files.\n"))
    assert bare.run(["test", "-e", "/.dockerenv"])[0] == 0


def test_bare_py36_fails(bare, py36):
    status, out, err = bare.run([py36, "-c", E_ACUTE])
    assert (status, out) == (1, b"")
    assert err.endswith(C_LOCALE_ERROR)


def test_lang_c_utf8_needs_no_package(bare, py36):
    image = bare.derive().build(["ENV LANG=C.UTF-8"])
    assert _environ(image)[2:] == ["LANG=C.UTF-8", "HOME=/root"]
    assert image.run([py36, "-c", E_ACUTE]) == (0, b"\xc3\xa9\n", b"")
    assert image.run(["perl", "-e", "1"]) == (0, b"", b"")
    # glibc's own: libc-bin ships C.utf8 compiled.
    assert image.run(["dpkg", "-S", "/usr/lib/locale/C.utf8"]) == (
        0, b"libc-bin: /usr/lib/locale/C.utf8\n", b"")


def test_env_empty_value(bare, py36):
    """`ENV LC_ALL=` sets LC_ALL to the empty string, which the C library ignores."""
    image = bare.derive().build(["ENV LANG=C.UTF-8 LC_ALL="])
    assert _environ(image)[2:] == ["LANG=C.UTF-8", "LC_ALL=", "HOME=/root"]
    assert image.run([py36, "-c", E_ACUTE]) == (0, b"\xc3\xa9\n", b"")


# -- c. a locale the image does not have ---------------------------------------------------

def test_en_us_without_locales(bare, py36):
    image = bare.derive().build(["ENV LANG=en_US.UTF-8"])
    status, out, err = image.run([py36, "-c", E_ACUTE])
    assert (status, out) == (1, b"")
    assert err.endswith(C_LOCALE_ERROR)
    assert image.run(["perl", "-e", "1"]) == (0, b"", PERL_WARNING)


def test_en_us_after_locale_gen(en_us, py36):
    assert en_us.run(["locale", "-a"]) == (0, b"C\nC.utf8\nen_US.utf8\nPOSIX\n", b"")
    assert en_us.run([py36, "-c", E_ACUTE]) == (0, b"\xc3\xa9\n", b"")
    assert en_us.run(["perl", "-e", "1"]) == (0, b"", b"")
    # slim's dpkg excludes drop /usr/share/locale/*, locale.alias with it: locale-gen says
    # so, and goes on.
    assert (b"  en_US.UTF-8...locale alias file `/usr/share/locale/locale.alias' not found: "
            b"No such file or directory\n done\n") in en_us.log


# -- d. the image's own python3 -------------------------------------------------------------

def test_python3_coerces(with_python3):
    code = ("import os, sys; print('\\u00e9'); print(sys.version_info[:2], sys.stdout.encoding, "
            "os.environ.get('LC_CTYPE'), sys.flags.utf8_mode)")
    assert with_python3.run(["python3", "-c", code]) == (
        0, b"\xc3\xa9\n(3, 11) utf-8 C.UTF-8 1\n", b"")
    # LC_ALL=C: no coercion (PEP 538), UTF-8 mode still (PEP 540: the C locale turns it on).
    assert with_python3.run(["python3", "-c", code], env_extra={"LC_ALL": "C"}) == (
        0, b"\xc3\xa9\n(3, 11) utf-8 None 1\n", b"")
    # No ensurepip without python3-venv: `python3 -m venv` fails in this image.
    status, out, _ = with_python3.run(["python3", "-m", "venv", "/tmp/venv"])
    assert status == 1 and b"apt install python3.11-venv" in out


# -- e. utf8env as the entrypoint -------------------------------------------------------------

@pytest.fixture(scope="module")
def with_utf8env(bare, py36, tmp_path_factory):
    """utf8env installed as a user would: a venv of the (bound) 3.6, pip from /src (this
    checkout, bound read-only), offline (--no-index: the build backend needs nothing)."""
    image, remove = _copy(bare, tmp_path_factory, "utf8env")
    try:
        yield image.bind(CHECKOUT, "/src").build([
            "RUN %s -m venv /opt/utf8env && /opt/utf8env/bin/pip install --no-index /src" % py36])
    finally:
        remove()


def test_entrypoint_utf8env_run(with_utf8env, py36):
    assert b"Successfully installed utf8env-" in with_utf8env.log
    image = with_utf8env.derive().build([
        'ENTRYPOINT ["/opt/utf8env/bin/utf8env", "run", "--", "%s"]' % py36,
        'CMD ["-c", "print(\'\\\\u00e9\')"]'])
    assert image.cmd == ["-c", E_ACUTE]
    assert image.run() == (0, b"\xc3\xa9\n", b"")
    # What utf8env run gave the 3.6 it started, under the bare image's environment.
    code = ("import os, sys; print(sys.stdout.encoding, sys.getfilesystemencoding(), "
            "[k + '=' + os.environ[k] for k in sorted(os.environ) if k.startswith(('LC_', "
            "'LANG', 'PYTHON'))])")
    status, out, err = image.run(["-c", code])
    assert (status, err) == (0, b"")
    assert out == b"utf-8 utf-8 ['LC_CTYPE=C.UTF-8']\n"        # coerced, as 3.7+ does itself
    # No C compiler in the image: bin/utf8env is the shell stub.
    assert with_utf8env.run(["head", "-n1", "/opt/utf8env/bin/utf8env"]) == (
        0, b"#!/bin/sh\n", b"")


def test_entrypoint_bare_name_not_on_path(with_utf8env, py36):
    image = with_utf8env.derive().build([
        'ENTRYPOINT ["utf8env", "run", "--", "%s"]' % py36, 'CMD ["-c", "print(1)"]'])
    # A venv's bin/ is not on Docker's default PATH: the runtime cannot find the program.
    # (Docker: exit 127 too, its message "exec: \"utf8env\": executable file not found in
    # $PATH"; this runtime's is chroot(8)'s.)
    assert image.run() == (
        127, b"", b"%s: failed to run command 'utf8env': No such file or directory\n"
        % container.CHROOT.encode())
    fixed = image.derive().build(['ENV PATH=/opt/utf8env/bin:$PATH'])
    assert fixed.run() == (0, b"1\n", b"")
