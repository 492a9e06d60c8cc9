"""doctor inside a container, and every fix it prints there applied, as printed, in a real
place of its kind, with doctor in the new image then saying "ok" and Python 3.6 printing
"é".

The place: a root file system made like Docker's debian:bookworm-slim, built and entered
as `docker build` / `docker run` do (tests/support/container.py). utf8env is installed
in it as a user would (a venv of the host's 3.6, bound read-only at its own path, and
`pip install --no-index /src` from this checkout bound read-only at /src: once per
module); each case is a Dockerfile of ENV lines over that image (derive(): the same
root), and doctor runs as `/opt/utf8env/bin/utf8env doctor --json`.

A fix is applied by its lines, taken from doctor's own output: the ENV lines after the
case's (derive()), the RUN line on a copy of the image (it changes the root; it needs
the Debian mirror: a skip when apt cannot reach it), the ENTRYPOINT line with the
program's arguments in CMD. A "where" this file does not know how to apply fails."""
import json
import os
import re
import subprocess

import pytest

from support import container, machine

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(HERE)
UTF8ENV = "/opt/utf8env/bin/utf8env"
E_ACUTE = "print('\\u00e9')"            # ASCII source; prints U+00E9
E_ACUTE_CMD = 'CMD ["-c", "print(\'\\\\u00e9\')"]'
OFFLINE = (b"Temporary failure resolving", b"Could not resolve", b"Failed to fetch",
           b"Network is unreachable", b"Could not connect", b"Unable to connect",
           b"Connection timed out")

# The "where" of each fix doctor prints in a container, whole.
DOCKERFILE_ENV = "the Dockerfile (or docker run -e NAME=VALUE)"
DOCKERFILE_RUN = "the Dockerfile, before the program's line"
DOCKERFILE_ENTRYPOINT = ("the Dockerfile's ENTRYPOINT, the program's arguments in CMD (no "
                         "variable gives Python 3.6 a UTF-8 mode)")


def _py36():
    """The host's CPython 3.6 (pyenv's), and its prefix (bound read-only, same path)."""
    python = os.path.realpath(machine.python("3.6"))
    return python, os.path.dirname(os.path.dirname(python))


@pytest.fixture(scope="module")
def py36():
    return _py36()[0]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """debian:bookworm-slim with utf8env installed in /opt/utf8env (a venv of the bound
    3.6); afterwards only the 3.6 is bound in (/src was for the install)."""
    machine.root("entering a container")
    reason = container.unavailable()
    if reason:
        pytest.skip(reason)
    python, prefix = _py36()
    folder = tmp_path_factory.mktemp("doctor-container")
    try:
        image = container.Image().copy(folder / "root").bind(prefix).bind(CHECKOUT, "/src")
        image.build(["RUN %s -m venv /opt/utf8env && %s/bin/pip install --no-index /src"
                     % (python, "/opt/utf8env")])
        assert b"Successfully installed utf8env-" in image.log
        yield container.Image(image.root, image.env, image.entrypoint, image.cmd,
                              binds=[prefix])
    finally:
        subprocess.run(["rm", "-rf", "--one-file-system", "--", str(folder)])


def _doctor(image):
    """(exit status, doctor's JSON) of `docker run IMAGE utf8env doctor --json` (with
    the image's ENTRYPOINT, if any, set aside as `--entrypoint` would)."""
    plain = image.derive()
    plain.entrypoint = None
    status, out, err = plain.run([UTF8ENV, "doctor", "--json"])
    assert err == b"", err
    data = json.loads(out.decode("utf-8"))
    assert [c["name"] for c in data["contexts"]][:1] == ["container"]
    assert data["contexts"][0]["evidence"] == ["/.dockerenv exists"]
    return status, data


def _findings(data):
    return [(f["code"], f["severity"], f["title"], f["fixes"]) for f in data["findings"]]


def _fix(option, where, *lines):
    return {"option": option, "where": where, "context": "container", "lines": list(lines)}


# -- the cases ---------------------------------------------------------------------------

def _on(py36):
    return "on Python 3.6 (%s)" % py36


def _wrapped(py36):
    """The option that stays on a 3.6 failure the locale finding's fix also removes."""
    return [_fix(1, DOCKERFILE_ENTRYPOINT, 'ENTRYPOINT ["%s", "run", "--", "%s"]'
                 % (UTF8ENV, py36))]


def _print_fails(py36, fixes=None):
    return ("print-fails", "error",
            'print("\u00e9") raises UnicodeEncodeError %s' % _on(py36),
            _wrapped(py36) if fixes is None else list(fixes))


def _open_fails(py36):
    return ("open-fails", "error",
            'open(path, "w").write("\u00e9") raises UnicodeEncodeError %s' % _on(py36),
            _wrapped(py36))


PEP686_C = ("Python 3.15 turns UTF-8 mode on by default (PEP 686); here that changes "
            "utf8_mode off -> on, filesystem ascii/surrogateescape -> utf-8/surrogateescape, "
            "stdout ascii/surrogateescape -> utf-8/surrogateescape, open ascii/strict -> "
            "utf-8/strict, preferred_encoding ascii -> utf-8")
# PYTHONIOENCODING=ascii: stdout is its, before and after PEP 686.
PEP686_IOENCODING = ("Python 3.15 turns UTF-8 mode on by default (PEP 686); here that changes "
                     "utf8_mode off -> on")


def _names(py36):
    return ("names", "note", "an undecodable file name (b'caf\\xc3\\xa9-\\xff') printed by "
            "print(os.listdir()) raises UnicodeEncodeError %s" % _on(py36), [])


def _expected(case, py36):
    """doctor's findings (code, severity, title, fixes) in the image of `case`."""
    pep686_c = ("pep686", "note", PEP686_C, [])
    if case == "bare":
        return [_print_fails(py36), _open_fails(py36),
                ("c-locale", "warning", "LC_CTYPE is the C locale (no locale variable is set "
                 "(LC_ALL, LC_CTYPE, LANG)): ASCII for every program but Python 3.7+, which "
                 "coerces it", [_fix(1, DOCKERFILE_ENV, "ENV LANG=C.UTF-8")]),
                pep686_c]
    if case == "lang-en-us":
        return [_print_fails(py36), _open_fails(py36),
                ("locale-missing", "warning", "LANG=en_US.UTF-8 names a locale this system "
                 "does not have (C.UTF-8 is installed): LC_CTYPE falls back to C (ASCII)",
                 [_fix(1, DOCKERFILE_ENV, "ENV LANG=C.UTF-8"),
                  # The image has no /etc/locale.gen (the locales package brings it):
                  # doctor appends the line rather than uncommenting it.
                  _fix(2, DOCKERFILE_RUN, "RUN apt-get update && apt-get install -y locales "
                       "&& echo 'en_US.UTF-8 UTF-8' >> /etc/locale.gen && locale-gen")]),
                pep686_c]
    if case == "lc-all-c-over-lang":
        return [_print_fails(py36), _open_fails(py36),
                ("lc-all-overrides", "warning", "LC_ALL=C overrides LANG=C.UTF-8: every "
                 "program gets the C locale (ASCII)", [_fix(1, DOCKERFILE_ENV, "ENV LC_ALL=")]),
                pep686_c]
    if case == "lc-all-c":
        return [_print_fails(py36), _open_fails(py36),
                ("c-locale", "warning", "LC_CTYPE is the C locale (LC_ALL=C): ASCII for every "
                 "program but Python 3.7+, which coerces it",
                 [_fix(1, DOCKERFILE_ENV, "ENV LC_ALL=", "ENV LANG=C.UTF-8")]),
                pep686_c]
    if case == "pythonioencoding-ascii":
        # No `utf8env run` here: it gives 3.6 what 3.7 gets, and PYTHONIOENCODING=ascii
        # fails 3.7 too.
        return [_print_fails(py36, [_fix(1, DOCKERFILE_ENV, "ENV PYTHONIOENCODING=")]),
                ("pep686", "note", PEP686_IOENCODING, []), _names(py36)]
    raise AssertionError(case)


# The Dockerfile of each case, over the installed image.
CASES = {
    "bare": [],
    "lang-en-us": ["ENV LANG=en_US.UTF-8"],
    "lc-all-c-over-lang": ["ENV LANG=C.UTF-8", "ENV LC_ALL=C"],
    "lc-all-c": ["ENV LC_ALL=C"],
    "pythonioencoding-ascii": ["ENV LANG=C.UTF-8", "ENV PYTHONIOENCODING=ascii"],
}
# Every option applied: (case, the finding, the options doctor prints for it).
APPLIED = [("bare", "c-locale", (1,)), ("bare", "print-fails", (1,)),
           ("lang-en-us", "locale-missing", (1, 2)), ("lang-en-us", "open-fails", (1,)),
           ("lc-all-c-over-lang", "lc-all-overrides", (1,)), ("lc-all-c", "c-locale", (1,)),
           ("pythonioencoding-ascii", "print-fails", (1,))]


@pytest.mark.parametrize("case", sorted(CASES))
def test_doctor_finds(installed, py36, case):
    image = installed.derive().build(CASES[case])
    status, data = _doctor(image)
    expected = _expected(case, py36)
    assert _findings(data) == expected
    problems = sum(1 for f in expected if f[1] != "note")
    assert (status, data["verdict"], data["problems"]) == (
        1, "%d problem%s" % (problems, "s" if problems != 1 else ""), problems)
    # The interpreter doctor names is the venv's 3.6, and it is there inside the container.
    assert [p["path"] for p in data["pythons"]] == [py36]
    assert image.run(["test", "-x", py36])[0] == 0
    # Before any fix, the 3.6 fails the way doctor says.
    status, out, err = image.run([py36, "-c", E_ACUTE])
    assert (status, out) == (1, b"")
    assert err.endswith(b"UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' "
                        b"in position 0: ordinal not in range(128)\n")


def _build_online(image, lines):
    """image.build(lines) for lines that reach the Debian mirror; a skip if apt cannot."""
    try:
        return image.build(lines)
    except container.BuildError as error:
        if any(sign in error.output for sign in OFFLINE):
            with open(os.path.join(image.root, "etc/apt/sources.list.d/debian.sources")) as f:
                mirror = re.search(r"^URIs: (\S+)", f.read(), re.M).group(1)
            pytest.skip("no network for apt: apt-get update in the container cannot reach %s"
                        % mirror)
        raise


@pytest.mark.parametrize("case,code,option", [(case, code, option)
                                              for case, code, options in APPLIED
                                              for option in options])
def test_fix_applied(installed, py36, tmp_path_factory, case, code, option):
    lines = CASES[case]
    _, data = _doctor(installed.derive().build(lines))
    finding, = [f for f in data["findings"] if f["code"] == code]
    [options] = [o for c, k, o in APPLIED if (c, k) == (case, code)]
    assert sorted({f["option"] for f in finding["fixes"]}) == list(options)
    steps = [f for f in finding["fixes"] if f["option"] == option]
    wheres = [f["where"] for f in steps]
    folder = None
    try:
        if wheres == [DOCKERFILE_ENV]:
            fixed = installed.derive().build(lines + steps[0]["lines"])
        elif wheres == [DOCKERFILE_RUN]:
            # RUN changes the root: on a copy, and before the program's line (here: the end).
            folder = tmp_path_factory.mktemp("doctor-container-run")
            fixed = _build_online(installed.copy(folder / "root"), lines + steps[0]["lines"])
        elif wheres == [DOCKERFILE_ENTRYPOINT]:
            fixed = installed.derive().build(lines + steps[0]["lines"] + [E_ACUTE_CMD])
            assert fixed.cmd == ["-c", E_ACUTE]
            # `docker run IMAGE`: ENTRYPOINT + CMD. doctor cannot see an ENTRYPOINT from
            # inside (it is started with --entrypoint): the program's own output is the test.
            assert fixed.run() == (0, b"\xc3\xa9\n", b"")
            return
        else:
            pytest.fail("no test applies a fix for %r" % (wheres,))
        status, after = _doctor(fixed)
        assert [f for f in _findings(after) if f[1] != "note"] == []
        assert (status, after["verdict"], after["problems"]) == (0, "ok", 0)
        assert fixed.run([py36, "-c", E_ACUTE]) == (0, b"\xc3\xa9\n", b"")
    finally:
        if folder is not None:
            subprocess.run(["rm", "-rf", "--one-file-system", "--", str(folder)])
