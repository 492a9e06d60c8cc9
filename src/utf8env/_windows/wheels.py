"""pytest and a project's requirements for Windows CPython: win_amd64 wheels, downloaded
once by pip (`pip download --only-binary=:all: --platform win_amd64 --python-version X.Y`)
and unpacked into a site-packages folder of the cache that the runs put on PYTHONPATH.

    CACHE/sites/cpXY-KEY/wheels/          what pip downloaded
    CACHE/sites/cpXY-KEY/site-packages/   the wheels unpacked (purelib and platlib)
    CACHE/sites/cpXY-KEY/.ready           the requirements, once complete

KEY is the sha256 of the version and the requirements (`pytest`, plus the lines of
--windows-requirements FILE): the same requirements find the same folder, offline too;
other requirements get a folder of their own (remove CACHE/sites to fetch anew).

pip evaluates environment markers for the machine it runs on, never for --platform:
`colorama; sys_platform == "win32"` (pytest's) is not downloaded for Windows. So each
wheel's Requires-Dist is evaluated here for Windows CPython X.Y (markers(), PEP 508's
grammar), and what is missing is downloaded too, until nothing is. A requirements file
with hashes (pip's hash-checking mode) must name everything, pytest and colorama too.
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from email.parser import HeaderParser

from .._errors import Utf8envError
from . import builds
from .wine import cache_folder, locked


class WheelsError(Utf8envError):
    """The wheels cannot be had: one line saying what failed and what to do (status 2)."""
    exit_code = 2


def normalize(name):
    """PEP 503's name."""
    return re.sub(r"[-_.]+", "-", name).lower()


# -- PEP 508 markers, evaluated for a Windows CPython ----------------------------------------

def windows_environment(cpython):
    """The marker variables of Windows CPython `cpython` ("3.13.2") on x64."""
    return {"os_name": "nt", "sys_platform": "win32", "platform_system": "Windows",
            "platform_machine": "AMD64", "platform_python_implementation": "CPython",
            "implementation_name": "cpython", "platform_release": "", "platform_version": "",
            "python_version": ".".join(cpython.split(".")[:2]),
            "python_full_version": cpython, "implementation_version": cpython, "extra": ""}


_TOKEN = re.compile(r"""\s*(?:(?P<paren>[()])
                    |(?P<op>===|==|!=|<=|>=|~=|<|>|not\s+in\b|in\b)
                    |(?P<bool>and\b|or\b)
                    |(?P<str>'[^']*'|"[^"]*")
                    |(?P<var>[A-Za-z_][A-Za-z0-9_.]*))""", re.VERBOSE)
_VERSIONS = ("python_version", "python_full_version", "implementation_version")


def _tokens(text):
    out, at = [], 0
    text = text.strip()
    while at < len(text):
        m = _TOKEN.match(text, at)
        if not m or m.end() == at:
            raise ValueError("marker %r: cannot read at %r" % (text, text[at:]))
        kind = m.lastgroup
        value = m.group(kind)
        out.append((kind, " ".join(value.split()) if kind == "op" else value))
        at = m.end()
        while at < len(text) and text[at].isspace():
            at += 1
    return out


def _version(text):
    parts = []
    for part in text.split("."):
        m = re.match(r"\d+", part)
        parts.append(int(m.group()) if m else 0)
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def _compare(left, op, right, versions):
    if op in ("in", "not in"):
        return (left in right) == (op == "in")
    if versions and op != "===":
        if op in ("==", "!=") and right.endswith(".*"):
            prefix = _version(right[:-2])
            equal = _version(left)[:len(prefix)] == prefix
            return equal == (op == "==")
        a, b = _version(left), _version(right)
        if op == "~=":
            head = _version(right)[:max(1, len(right.split(".")) - 1)]
            return a >= b and a[:len(head)] == head
        return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b,
                ">=": a >= b}[op]
    return {"==": left == right, "===": left == right, "!=": left != right,
            "<": left < right, "<=": left <= right, ">": left > right,
            ">=": left >= right, "~=": left == right}[op]


def marker(text, environment):
    """PEP 508 marker `text` evaluated in `environment` (ValueError when unreadable)."""
    tokens = _tokens(text)
    at = [0]

    def peek():
        return tokens[at[0]] if at[0] < len(tokens) else (None, None)

    def take():
        token = peek()
        at[0] += 1
        return token

    def value():
        kind, text_ = take()
        if kind == "str":
            return text_[1:-1], False
        if kind == "var":
            if text_ not in environment:
                raise ValueError("marker variable %r unknown" % text_)
            return environment[text_], text_ in _VERSIONS
        raise ValueError("marker: expected a value, got %r" % (text_,))

    def atom():
        if peek() == ("paren", "("):
            take()
            result = either()
            if take() != ("paren", ")"):
                raise ValueError("marker: ')' expected")
            return result
        left, lv = value()
        kind, op = take()
        if kind != "op":
            raise ValueError("marker: an operator expected, got %r" % (op,))
        right, rv = value()
        if rv and not lv and op not in ("in", "not in"):
            # "3.8" < python_version: the same comparison turned round
            flipped = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)
            return _compare(right, flipped, left, True)
        return _compare(left, op, right, lv or rv)

    def both():
        result = atom()
        while peek() == ("bool", "and"):
            take()
            result = atom() and result
        return result

    def either():
        result = both()
        while peek() == ("bool", "or"):
            take()
            result = both() or result
        return result

    result = either()
    if at[0] != len(tokens):
        raise ValueError("marker %r: left over %r" % (text, tokens[at[0]:]))
    return result


def requirement_name(line):
    """The distribution name a Requires-Dist (or requirements) line names."""
    m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", line)
    return normalize(m.group(1)) if m else None


def wanted(requires, environment):
    """The names of `requires` (Requires-Dist lines) whose markers hold in `environment`
    (no extra asked for)."""
    out = []
    for line in requires:
        requirement, _, condition = line.partition(";")
        if condition.strip():
            try:
                if not marker(condition, environment):
                    continue
            except ValueError:
                pass            # unreadable: download it, as pip would try
        name = requirement_name(requirement)
        if name:
            out.append(name)
    return out


# -- wheels ----------------------------------------------------------------------------------

def _metadata(path):
    """(name, [Requires-Dist]) of the wheel at `path`."""
    with zipfile.ZipFile(path) as z:
        names = [n for n in z.namelist()
                 if n.count("/") == 1 and n.endswith(".dist-info/METADATA")]
        if not names:
            raise WheelsError("%s holds no METADATA" % path)
        text = z.read(names[0]).decode("utf-8", "replace")
    message = HeaderParser().parsestr(text)
    return normalize(message["Name"] or ""), message.get_all("Requires-Dist") or []


def unpack(path, site):
    """A wheel's files into `site`, as an installer puts them into site-packages: the
    .data folder's purelib and platlib into it too, its scripts, headers and data left
    out (nothing under `site` is written outside it)."""
    root = os.path.realpath(site)
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if name.endswith("/"):
                continue
            parts = name.split("/")
            if len(parts) > 2 and parts[0].endswith(".data"):
                if parts[1] not in ("purelib", "platlib"):
                    continue
                parts = parts[2:]
            if ".." in parts or name.startswith("/"):
                continue
            target = os.path.join(root, *parts)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(z.read(name))


def key(minor, requirements_text):
    """The folder's key: the version and the requirements' lines, comments and blank
    lines left out (a comment changed finds the same wheels)."""
    lines = []
    for line in requirements_text.splitlines():
        line = re.sub(r"(^|\s)#.*", "", line).strip()
        if line:
            lines.append(line)
    return hashlib.sha256(("%s\n%s" % (minor, "\n".join(lines))).encode("utf-8")
                          ).hexdigest()[:16]


def _pip(python, minor, folder, names, requirements, environ):
    argv = [python, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
            "--only-binary=:all:", "--platform", "win_amd64", "--python-version", minor,
            "--implementation", "cp", "-d", folder] + list(names)
    if requirements:
        argv += ["-r", requirements]
    try:
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, env=environ)
    except OSError as error:
        return str(error)
    if proc.returncode == 0:
        return None
    lines = [l.strip() for l in proc.stdout.decode("utf-8", "replace").splitlines()
             if l.strip() and not l.startswith("WARNING")]
    return lines[-1] if lines else "exit %d" % proc.returncode


def read_requirements(requirements):
    """The text of the --windows-requirements file ("" for none), or its one-line error."""
    if not requirements:
        return ""
    try:
        with open(requirements, encoding="utf-8") as f:
            return f.read()
    except OSError as error:
        raise WheelsError("--windows-requirements %s: %s" % (requirements,
                                                              error.strerror or error))


def _folder(cache, minor, text, pytest=True):
    """(the folder of these requirements, the names asked besides the file's)."""
    top = ["pytest"] if pytest and "--hash" not in text else []
    return os.path.join(cache, "sites", "cp%s-%s" % (
        minor.replace(".", ""), key(minor, "\n".join(top) + "\n" + text))), top


def ready(cache, minor, requirements=None, pytest=True):
    """The site-packages folder of these requirements when it is made, else None."""
    base, _ = _folder(cache, minor, read_requirements(requirements), pytest)
    return os.path.join(base, "site-packages") if os.path.isfile(
        os.path.join(base, ".ready")) else None


def site(cache, minor, requirements=None, python=None, environ=None, say=None, pytest=True):
    """The site-packages folder (a Linux path) holding pytest (unless `pytest` is false: a
    unittest suite's runs) and `requirements` (a pip requirements file, or None) for
    Windows CPython `minor`, made where missing; None when there is nothing to hold."""
    b = builds.build(minor)
    text = read_requirements(requirements)
    hashed = "--hash" in text
    base, top = _folder(cache, minor, text, pytest)
    if not top and not requirements:
        return None
    packages = os.path.join(base, "site-packages")
    if os.path.isfile(os.path.join(base, ".ready")):
        return packages
    os.makedirs(os.path.dirname(base), exist_ok=True)
    with locked(cache):
        if os.path.isfile(os.path.join(base, ".ready")):
            return packages
        if say:
            say("fetching %s for Windows CPython %s (win_amd64 wheels) into %s" % (
                " and ".join(top + ([requirements] if requirements else [])), minor, base))
        work = tempfile.mkdtemp(prefix=".cp%s-" % minor.replace(".", ""),
                                dir=os.path.dirname(base))
        try:
            _fetch(b, work, top, requirements, python or sys.executable, environ, hashed,
                   pytest)
            shutil.rmtree(base, ignore_errors=True)
            os.rename(work, base)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return packages


def _fetch(b, work, top, requirements, python, environ, hashed, pytest=True):
    wheels = os.path.join(work, "wheels")
    os.makedirs(wheels)
    environment = windows_environment(b.cpython)
    names = list(top)
    for _ in range(10):
        problem = _pip(python, b.minor, wheels, names, requirements, environ)
        if problem:
            raise WheelsError(
                "pip cannot download %s for Windows CPython %s (win_amd64, --only-binary=:all:): "
                "%s%s" % (" and ".join(filter(None, [", ".join(names), requirements])),
                          b.minor, problem,
                          "; a file with hashes must name every wheel, pytest's and "
                          "colorama too" if hashed else ""))
        have, needs = set(), set()
        for name in sorted(os.listdir(wheels)):
            if name.endswith(".whl"):
                dist, requires = _metadata(os.path.join(wheels, name))
                have.add(dist)
                needs.update(wanted(requires, environment))
        if pytest and "pytest" not in have:
            raise WheelsError("%s does not name pytest: readiness --windows runs pytest, "
                              "add it (with its hash)" % requirements)
        missing = sorted(needs - have)
        if not missing:
            break
        names = sorted(set(names) | set(missing))
    else:
        raise WheelsError("the wheels' requirements for Windows do not settle: %s" %
                          ", ".join(missing))
    packages = os.path.join(work, "site-packages")
    os.makedirs(packages)
    for name in sorted(os.listdir(wheels)):
        if name.endswith(".whl"):
            unpack(os.path.join(wheels, name), packages)
    with open(os.path.join(work, ".ready"), "w", encoding="utf-8") as f:
        f.write("\n".join(top) + "\n" + read_requirements(requirements))


def main(argv=None):
    """`python3 -m utf8env._windows.wheels X.Y [REQUIREMENTS]`: fetch into the cache
    (wine.cache_folder()) and print the site-packages folder (tests/setup.sh)."""
    argv = sys.argv[1:] if argv is None else argv
    if not 1 <= len(argv) <= 2 or argv[0] not in builds.VERSIONS:
        sys.stderr.write("usage: python3 -m utf8env._windows.wheels X.Y [REQUIREMENTS]  "
                         "(X.Y: %s)\n" % ", ".join(builds.VERSIONS))
        return 2
    try:
        print(site(cache_folder(), argv[0], argv[1] if len(argv) > 1 else None))
    except Utf8envError as error:
        sys.stderr.write("utf8env: error: %s\n" % error)
        return error.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
