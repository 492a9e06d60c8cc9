"""Wine, as readiness --windows and matrix --windows use it: found (Debian's wine64), its version; the Unix
locale that gives each ANSI code page (compiled by localedef into the cache: LOCPATH, no
root); the user's Wine prefix in the cache, made once, and a private copy of it per
invocation (hard links, the registry copied), whose wineserver is started before the
runs and ended after them (its processes killed: that prefix's only); and Linux
paths as the Windows program sees them (Wine's Z: drive is /).

Measured (Debian 12, Wine 8.0): Wine's ANSI code page, GetACP(), follows the Unix locale
of the process that starts the program: C.UTF-8 gives 1252, ja_JP.UTF-8 932, zh_CN.UTF-8
936, ru_RU.UTF-8 1251, and so on (LOCALES); standard output and error must be pipes (a
regular file fails: "init_sys_streams: ... [WinError 6] Invalid handle"); /dev/null as
stdin works. A prefix's first start takes ~15 s, a wineserver's and its services' ~1.5 s,
each program's start ~0.3-0.8 s once they run. Wine's services (winedevice.exe, ...)
keep the pipes of the program that started them: the warm-up starts them, never a run.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager

from .._engine.profiles import CODE_PAGES as ANSI_CODE_PAGES, DEFAULT_CODE_PAGE  # noqa: F401
from .._environment import user_environ
from .._errors import Utf8envError
from .._processes import read_until_exit

# The Unix locale whose code page Wine gives each ANSI code page (all measured; UTF-8
# locales, so that Wine's Unix side reads and writes file names as UTF-8).
LOCALES = {874: "th_TH", 932: "ja_JP", 936: "zh_CN", 949: "ko_KR", 950: "zh_TW",
           1250: "pl_PL", 1251: "ru_RU", 1252: "C", 1253: "el_GR", 1254: "tr_TR",
           1255: "he_IL", 1256: "ar_EG", 1257: "lt_LT", 1258: "vi_VN"}
# The ANSI code pages Wine can be given: every one but 65001, which no Unix locale's
# charmap makes Wine's GetACP().
CODE_PAGES = tuple(page for page in ANSI_CODE_PAGES if page in LOCALES)
# What Wine asks of the prefix: no Mono and Gecko installer dialogs, no debug channels,
# no debugger started on a crash (winedbg's dump costs a second or more: the process ends).
_QUIET = {"WINEDEBUG": "-all", "WINEDLLOVERRIDES": "mscoree,mshtml=;winedbg.exe=d"}
# A run's prefix may go without the mount manager (mountmgr.sys, in winedevice.exe): every
# stat() and fstat() of Windows CPython asks it for the file's volume serial, a round trip
# through the wineserver to another process. Measured (Wine 8.0, CPython 3.13, one CPU):
# fstat 243 us with it, 42 us without; mistune's suite 5-6 s against 3.1-3.3 s. What
# changes (said in readiness's report): st_dev is 0 for every file, and os.listdrives()
# and os.listvolumes() fail; paths, drives (C:, Z:), realpath(), ismount() do not change.
NO_MOUNT_MANAGER = "mountmgr.sys=d"
PINNED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pinned.py")
_WINE = ("/usr/lib/wine/wine64", "wine64")
_SERVER = ("/usr/lib/wine/wineserver", "/usr/lib/wine/wineserver64", "wineserver")
INSTALL_WINE = "apt-get install wine64"
INSTALL_LOCALES = "apt-get install locales"


class WineError(Utf8envError):
    """Wine, a locale or the prefix cannot be had here: one line naming what to install
    or do (status 2: nothing ran)."""
    exit_code = 2


def cache_folder(environ=None):
    """$UTF8ENV_WINDOWS_CACHE, else $XDG_CACHE_HOME/utf8env/windows, else
    ~/.cache/utf8env/windows (made where missing)."""
    environ = user_environ() if environ is None else environ
    folder = environ.get("UTF8ENV_WINDOWS_CACHE")
    if not folder:
        xdg = environ.get("XDG_CACHE_HOME") or ""
        if not xdg.startswith("/"):
            home = environ.get("HOME") or os.path.expanduser("~")
            xdg = os.path.join(home, ".cache")
        folder = os.path.join(xdg, "utf8env", "windows")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError as error:
        raise WineError("the Windows cache %s cannot be made: %s (set UTF8ENV_WINDOWS_CACHE "
                        "to a folder of yours)" % (folder, error.strerror or error))
    if not os.access(folder, os.W_OK):
        raise WineError("the Windows cache %s is not writable (set UTF8ENV_WINDOWS_CACHE to "
                        "a folder of yours)" % folder)
    return folder


@contextmanager
def locked(cache):
    """The cache's lock, held while a build, a locale or the prefix is made."""
    import fcntl        # here: Windows has none, and readiness's --help imports this module there
    with open(os.path.join(cache, ".lock"), "a", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _which(names, environ):
    path = environ.get("PATH", os.defpath)
    for name in names:
        found = name if os.path.isabs(name) else shutil.which(name, path=path)
        if found and os.access(found, os.X_OK):
            return found
    return None


class Wine(object):
    """Wine's two programs and its version ("8.0")."""

    def __init__(self, loader, server, version):
        self.loader, self.server, self.version = loader, server, version


def find(environ=None, command="readiness --windows"):
    """The Wine here; WineError naming what to install when there is none (`command`: the
    command that needs it, as the user typed it)."""
    environ = user_environ() if environ is None else environ
    loader, server = _which(_WINE, environ), _which(_SERVER, environ)
    if not loader or not server:
        raise WineError("%s needs Wine (wine64 and wineserver): %s" % (command, INSTALL_WINE))
    try:
        out = subprocess.run([loader, "--version"], stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             env=_host_env(environ), timeout=60).stdout
    except (OSError, subprocess.SubprocessError) as error:
        raise WineError("%s --version failed: %s (%s)" % (loader, error, INSTALL_WINE))
    m = re.search(rb"wine-([0-9][0-9.]*[0-9])", out)
    return Wine(loader, server, m.group(1).decode() if m else "?")


def _host_env(environ):
    """What a prefix's own programs (its wineserver, the warm-up, the probe) keep of
    `environ`. TMPDIR among them: Debian's Wine keeps a server's socket in
    TMPDIR/wine-XXXXXX, and a program started with another TMPDIR than its prefix's
    server does not find it: it starts a second server on the same prefix, with services
    of its own (measured: each sample run 2.7 s instead of 1.2 s; and a run that started
    as another run's server was killed ended at once, status 0, nothing run)."""
    env = {"PATH": environ.get("PATH") or "/usr/bin:/bin", "HOME": environ.get("HOME") or "/"}
    if environ.get("TMPDIR"):
        env["TMPDIR"] = environ["TMPDIR"]
    return env


# -- the code page's locale ----------------------------------------------------------------

def locale_name(code_page):
    base = LOCALES[code_page]
    return "C.UTF-8" if base == "C" else base + ".UTF-8"


def locale_folder(cache, code_page, say=None):
    """The LOCPATH folder holding the code page's locale (compiled by localedef into the
    cache where missing); None for 1252 (C.UTF-8 is glibc's own). WineError naming what
    to install when glibc's locale sources or localedef are missing."""
    base = LOCALES[code_page]
    if base == "C":
        return None
    folder = os.path.join(cache, "locales")
    target = os.path.join(folder, base + ".UTF-8")
    if os.path.isfile(os.path.join(target, "LC_CTYPE")):
        return folder
    localedef = shutil.which("localedef") or "/usr/bin/localedef"
    source = os.path.join("/usr/share/i18n/locales", base)
    if not (os.access(localedef, os.X_OK) and os.path.isfile(source)):
        raise WineError("code page %d needs the locale %s.UTF-8, compiled from glibc's "
                        "sources (%s is missing): %s" % (code_page, base, source if
                                                         os.access(localedef, os.X_OK)
                                                         else "localedef", INSTALL_LOCALES))
    os.makedirs(folder, exist_ok=True)
    with locked(cache):
        if os.path.isfile(os.path.join(target, "LC_CTYPE")):
            return folder
        if say:
            say("compiling the locale %s.UTF-8 (Wine's code page %d) into %s" % (
                base, code_page, folder))
        work = tempfile.mkdtemp(prefix=".%s-" % base, dir=folder)
        try:
            # -c: localedef writes the locale even when it only warns; its status is not
            # to be trusted, the file is.
            proc = subprocess.run([localedef, "-c", "-i", base, "-f", "UTF-8",
                                   os.path.join(work, "out")], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if not os.path.isfile(os.path.join(work, "out", "LC_CTYPE")):
                lines = proc.stdout.decode("utf-8", "replace").strip().splitlines()
                raise WineError("localedef could not compile %s.UTF-8: %s" % (
                    base, lines[-1] if lines else "exit %d" % proc.returncode))
            os.rename(os.path.join(work, "out"), target)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return folder


# -- paths ---------------------------------------------------------------------------------

def windows_path(path):
    """A Linux path as the Windows program sees it on Wine's Z: drive (which is /), with
    forward slashes (Windows takes them; posixpath's relpath works on them)."""
    return "Z:" + os.path.abspath(path)


def linux_path(path):
    """A Windows path on Z: back as the Linux path; None for another drive's."""
    if re.match(r"^[zZ]:[\\/]", path):
        return "/" + path[3:].replace("\\", "/")
    return None


def spellings(path):
    """The ways the Windows program writes the Linux folder `path` on Z: (either case):
    backslashes doubled (as repr() gives them), single, and forward slashes (pathlib's
    repr, windows_path)."""
    linux = os.path.abspath(path)
    return [drive + linux.replace("/", sep) for drive in ("Z:", "z:")
            for sep in ("\\\\", "\\", "/")]


# -- the prefix ----------------------------------------------------------------------------

def base_environ(wine, prefix, code_page, locpath):
    """The Wine variables of every program started in `prefix` with `code_page`."""
    env = dict(_QUIET, WINEPREFIX=prefix, LC_ALL=locale_name(code_page))
    if locpath:
        env["LOCPATH"] = locpath
    return env


def cpus():
    """The CPUs this process may run on, in order; [] where that cannot be told."""
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return []


def _made(prefix):
    return os.path.isfile(os.path.join(prefix, "system.reg"))


def ensure_prefix(wine, cache, python_exe, say=None):
    """The user's prefix in the cache (CACHE/wineprefix), made where missing (its first
    start: ~15 s). Never used by a run itself: each invocation runs in a copy."""
    prefix = os.path.join(cache, "wineprefix")
    if _made(prefix):
        return prefix
    with locked(cache):
        if _made(prefix):
            return prefix
        if say:
            say("making the Wine prefix %s (once: ~15 s)" % prefix)
        env = dict(_host_env(user_environ()), **base_environ(wine, prefix, 1252, None))
        try:
            subprocess.run([wine.loader, python_exe, "-c", "pass"], env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=300, cwd=cache)
        except subprocess.TimeoutExpired:
            pass
        finally:
            subprocess.run([wine.server, "-k"], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=60)
        if not _made(prefix):
            raise WineError("Wine did not make its prefix in %s (try: WINEPREFIX=%s %s "
                            "wineboot)" % (prefix, prefix, wine.loader))
    return prefix


def _copy_prefix(source, target):
    """A copy of the prefix `source`: its files hard links (a prefix is ~700 MB of Wine's
    DLLs, never written by a run), the registry files real copies (the wineserver saves
    them), every folder its own."""
    for folder, dirs, files in os.walk(source):
        rel = os.path.relpath(folder, source)
        out = os.path.normpath(os.path.join(target, rel))
        os.makedirs(out, exist_ok=True)
        for name in list(dirs):
            path = os.path.join(folder, name)
            if os.path.islink(path):
                os.symlink(os.readlink(path), os.path.join(out, name))
                dirs.remove(name)
        for name in files:
            path, copy = os.path.join(folder, name), os.path.join(out, name)
            if os.path.islink(path):
                os.symlink(os.readlink(path), copy)
            elif name.endswith(".reg") or rel == "." or not _link(path, copy):
                shutil.copy2(path, copy)


def _link(path, copy):
    try:
        os.link(path, copy)
        return True
    except OSError:
        return False


PERSIST = 600


def _sweep(runs):
    """Remove the prefix copies of invocations that are gone (killed before their end:
    prefix-PID-... whose PID no longer runs)."""
    try:
        names = os.listdir(runs)
    except OSError:
        return
    for name in names:
        m = re.match(r"prefix-(\d+)-", name)
        if not m:
            continue
        try:
            os.kill(int(m.group(1)), 0)
        except ProcessLookupError:
            path = os.path.join(runs, name)
            if not using(path):
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            pass


class Prefix(object):
    """A private copy of the user's prefix for one invocation: its wineserver started
    (persistent) and its services warmed up by a probe that says the code page and the
    CPython version Wine really gives; at close, its processes killed (this prefix's only)
    and the copy removed."""

    def __init__(self, wine, cache, base, code_page, locpath, cpu=None, mount_manager=True):
        """cpu: the CPU its server and programs run on (pinned.py), None: any;
        mount_manager: False to run without Wine's (NO_MOUNT_MANAGER)."""
        self.wine, self.cache, self.code_page, self.locpath = wine, cache, code_page, locpath
        self.cpu, self.mount_manager = cpu, mount_manager
        runs = os.path.join(cache, "runs")
        os.makedirs(runs, exist_ok=True)
        _sweep(runs)
        self.path = os.path.join(runs, "prefix-%d-%s" % (os.getpid(), uuid.uuid4().hex[:8]))
        self.base = base
        self.started = False
        self.seconds = 0.0        # the copy, the server and the warm-up

    def environ(self):
        env = base_environ(self.wine, self.path, self.code_page, self.locpath)
        if not self.mount_manager:
            env["WINEDLLOVERRIDES"] += ";" + NO_MOUNT_MANAGER
        return env

    def pinned(self, argv):
        """argv run on this prefix's CPU (exec'd by pinned.py: no process more)."""
        if self.cpu is None:
            return list(argv)
        return [sys.executable, "-I", "-S", PINNED, str(self.cpu), "--"] + list(argv)

    def _env(self):
        return dict(_host_env(user_environ()), **self.environ())

    def open(self, python_exe, probe_code):
        """Copy, start, warm up; the probe's stdout (bytes). WineError when the probe
        does not run."""
        started = time.monotonic()
        _copy_prefix(self.base, self.path)
        env = self._env()
        self.started = True
        # Persistent while the invocation lasts (between its batches no Windows program
        # may run), yet not for ever: an invocation killed (SIGKILL) leaves no server
        # longer than PERSIST seconds (its copy is swept by the next invocation).
        subprocess.run(self.pinned([self.wine.server, "-p%d" % PERSIST]), env=env,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=60)
        # The services start now, with stdio on /dev/null (the program itself cannot
        # start so: no pipes), so that no run's pipes are ever held by them.
        subprocess.run(self.pinned([self.wine.loader, python_exe, "-c", "pass"]), env=env,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=300, cwd=self.path)
        status, out, err = communicate(self.pinned([self.wine.loader, python_exe, "-c",
                                                    probe_code]), env, self.path, 120)
        self.seconds = time.monotonic() - started
        if status != 0:
            lines = err.decode("utf-8", "replace").strip().splitlines()
            raise WineError("Windows CPython did not start under Wine %s (exit %s)%s" % (
                self.wine.version, status, (": " + lines[-1]) if lines else ""))
        return out

    def close(self):
        """End every process of this prefix, wait for them to be gone, remove the copy and
        its server's folder (Wine leaves one per prefix in its temporary folder).

        The processes (the wineserver among them: each has WINEPREFIX=this copy) are
        killed, not asked to end: `wineserver -k` took 0.77 s, most of it the server
        saving a registry that is removed next. A Wine program whose server is gone ends
        by itself. Without /proc, none can be found: `wineserver -k` then."""
        server = self._server_folders()
        if self.started:
            pids = using(self.path)
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            if not pids:
                try:
                    subprocess.run([self.wine.server, "-k"], env=self._env(),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   timeout=60)
                except (OSError, subprocess.SubprocessError):
                    pass
            self.started = False
            deadline = time.monotonic() + 10
            while using(self.path) and time.monotonic() < deadline:
                time.sleep(0.05)
        for folder in [self.path] + server:
            for _ in range(20):
                shutil.rmtree(folder, ignore_errors=True)
                if not os.path.lexists(folder):
                    break
                time.sleep(0.05)
        for folder in server:
            # The TMPDIR/wine-XXXXXX that Debian's wine made for this prefix's server: gone
            # with it once empty (rmdir: another server's socket inside keeps it).
            parent = os.path.dirname(folder)
            if os.path.basename(parent).startswith("wine-"):
                try:
                    os.rmdir(parent)
                except OSError:
                    pass

    def _server_folders(self):
        """Where the wineserver of this prefix keeps its socket: TMPDIR/wine-XXXXXX (named
        in the prefix's `wineserver` file: Debian's) or /tmp/.wine-UID, then
        server-DEV-INODE of the prefix folder."""
        import glob
        try:
            st = os.stat(self.path)
        except OSError:
            return []
        name = "server-%x-%x" % (st.st_dev, st.st_ino)
        tmp = user_environ().get("TMPDIR") or "/tmp"
        return sorted(set(glob.glob(os.path.join(glob.escape(tmp), "wine-*", name))
                          + glob.glob("/tmp/wine-*/" + name)
                          + glob.glob("/tmp/.wine-%d/%s" % (os.getuid(), name))))


def using(prefix, proc="/proc"):
    """The pids of the processes started with WINEPREFIX=`prefix` (the wineserver too)."""
    wanted = ("WINEPREFIX=%s" % prefix).encode()
    found = []
    try:
        names = os.listdir(proc)
    except OSError:         # no /proc mounted: none can be told, none is claimed
        return []
    for name in names:
        if name.isdigit() and int(name) != os.getpid():
            try:
                with open(os.path.join(proc, name, "environ"), "rb") as f:
                    if wanted in f.read().split(b"\0"):
                        found.append(int(name))
            except OSError:
                pass
    return [p for p in found if not _zombie(p, proc)]


def _zombie(pid, proc):
    try:
        with open(os.path.join(proc, str(pid), "stat"), "rb") as f:
            return f.read().rsplit(b")", 1)[-1].split()[0] == b"Z"
    except (OSError, IndexError):
        return True


def communicate(argv, env, cwd, timeout):
    """(status, stdout, stderr) of a Windows program run with pipes, read until it has
    exited and nothing more is readable (a Wine process it started may hold the pipes);
    killed at `timeout`, with what it wrote until then."""
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    out, err, finished = read_until_exit(proc, timeout)
    if not finished:
        proc.kill()
    return proc.wait(), out, err
