"""One readiness run's supervisor: started by the world runner (utf8env/_child/world_runner.py)
as `PYTHON -I _supervise.py STATUS OUT ERR SECONDS STOP MARKER -- COMMAND...`, it runs
COMMAND (pytest) with its stdout and stderr in the files OUT and ERR (never a pipe: a
child left running that holds them cannot keep anyone waiting), stdin /dev/null, in a
session of its own, with the variable UTF8ENV_READINESS_RUN=MARKER added to its
environment. It ends COMMAND when it outlives SECONDS or when the file STOP appears
(readiness was interrupted), and always, once COMMAND has ended, kills what COMMAND left
behind: its process group, and every process whose environment carries the marker (a
daemon that called setsid() is in neither the group nor the session, but inherited the
variable; one that cleared its environment is not found). On Windows (readiness on
Windows itself) COMMAND starts in a process group of its own (CREATE_NEW_PROCESS_GROUP:
a Ctrl+C reaches this supervisor, not the suite) and what it leaves behind is every
process of a job object it is put in as it starts, which the processes it starts inherit
(Windows has no process groups to kill, no /proc to search for the marker). Then it writes STATUS:
{"returncode" (null: timed out, stopped or killed by a signal), "signal", "timed_out",
"stopped", "seconds", "left" (processes killed after the end)}; where STATUS cannot be
written (the run filled its disk), the same on stdout with "unwritten": why.

STANDALONE: standard library only, no relative imports, Python 3.6 syntax; readiness
imports it as a module too (marked(), kill_marked()).
"""
import json
import os
import signal
import subprocess
import sys
import time

MARKER = "UTF8ENV_READINESS_RUN"
_POLL = 0.05
WINDOWS = sys.platform == "win32"
# SIGHUP is POSIX's: Windows has SIGINT (Ctrl+C) and SIGTERM.
_STOPPED_BY = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP")
                    if hasattr(signal, name))


def marked(tokens, proc="/proc"):
    """The pids of the processes whose environment holds MARKER=token for a token of
    `tokens` (this process excluded); none on Windows, which has no /proc (under Wine,
    "/proc" may even be Linux's, whose pids are not Windows')."""
    if WINDOWS:
        return []
    wanted = {("%s=%s" % (MARKER, t)).encode() for t in tokens}
    found = []
    try:
        names = os.listdir(proc)
    except OSError:
        return found
    me = os.getpid()
    for name in names:
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(os.path.join(proc, name, "environ"), "rb") as f:
                environ = f.read()
        except OSError:
            continue        # gone, a kernel thread, or not ours to read
        if wanted.intersection(environ.split(b"\0")):
            found.append(int(name))
    return found


def kill_marked(tokens, rounds=50):
    """SIGKILL every process marked with a token of `tokens`, again until none is left
    (a process may fork while it is being killed); how many were killed. A process in the
    middle of an exec reads with an empty environment for a moment, so the search ends
    after two empty rounds, not one."""
    killed = set()
    empty = 0
    for _ in range(rounds):
        pids = [p for p in marked(tokens) if not _zombie(p)]
        if not pids:
            empty += 1
            if empty == 2:
                break
            time.sleep(0.01)
            continue
        empty = 0
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except OSError:
                pass
        time.sleep(0.01)
    return len(killed)


def _zombie(pid):
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            return f.read().rsplit(b")", 1)[-1].split()[0] == b"Z"
    except (OSError, IndexError):
        return True


# utf8env/_processes.py's, word for word (tests/test_structure.py): this file runs
# standalone.
def kill_group(pid, signum=None):
    """`signum` (None: SIGKILL) to the process group that `pid` leads; one already gone,
    or not ours to signal, is no error (it ended meanwhile, or its processes changed
    user). POSIX only: the names it needs are looked up when it is called, so that its
    module still imports on Windows, which has neither killpg nor SIGKILL."""
    try:
        os.killpg(pid, signal.SIGKILL if signum is None else signum)
    except OSError:
        pass


class _Tree(object):
    """Windows: a job object (the Win32 API, by ctypes) that holds the run and every
    process it starts, which inherit it, whatever became of their parent (what a process
    group and the marker are on Linux); ended by TerminateJobObject. Assigned as the run
    starts: what the run started before that (in its first milliseconds) is not in it."""
    _ACCOUNTING = 1         # JobObjectBasicAccountingInformation

    def __init__(self, pid):
        import ctypes
        from ctypes import wintypes
        self.ctypes = ctypes
        self.kernel32 = k = ctypes.WinDLL("kernel32", use_last_error=True)
        k.CreateJobObjectW.restype = k.OpenProcess.restype = wintypes.HANDLE
        k.CreateJobObjectW.argtypes = (ctypes.c_void_p, wintypes.LPCWSTR)
        k.OpenProcess.argtypes = (wintypes.DWORD, wintypes.BOOL, wintypes.DWORD)
        k.AssignProcessToJobObject.argtypes = (wintypes.HANDLE, wintypes.HANDLE)
        k.TerminateJobObject.argtypes = (wintypes.HANDLE, wintypes.UINT)
        k.QueryInformationJobObject.argtypes = (wintypes.HANDLE, ctypes.c_int, ctypes.c_void_p,
                                                wintypes.DWORD, ctypes.c_void_p)
        k.CloseHandle.argtypes = (wintypes.HANDLE,)
        self.job = k.CreateJobObjectW(None, None)
        # PROCESS_SET_QUOTA | PROCESS_TERMINATE: what AssignProcessToJobObject needs.
        process = k.OpenProcess(0x0100 | 0x0001, False, pid)
        if not self.job or not process or not k.AssignProcessToJobObject(self.job, process):
            raise OSError(ctypes.get_last_error(), "no job object for the run")
        k.CloseHandle(process)

    def active(self):
        """How many of its processes still run."""
        c = self.ctypes

        class Accounting(c.Structure):      # JOBOBJECT_BASIC_ACCOUNTING_INFORMATION
            _fields_ = [("times", c.c_longlong * 4), ("page_faults", c.c_ulong),
                        ("total", c.c_ulong), ("active", c.c_ulong),
                        ("terminated", c.c_ulong)]
        info = Accounting()
        if not self.kernel32.QueryInformationJobObject(self.job, self._ACCOUNTING,
                                                       c.byref(info), c.sizeof(info), None):
            return 0
        return info.active

    def kill(self):
        """Kill every process of the tree; how many still ran."""
        left = self.active()
        self.kernel32.TerminateJobObject(self.job, 1)
        return left

    def close(self):
        self.kernel32.CloseHandle(self.job)


def _tree(pid):
    """The run's _Tree on Windows (None where a job object cannot be made: the run alone
    is then killed); None elsewhere."""
    if not WINDOWS:
        return None
    try:
        return _Tree(pid)
    except (OSError, AttributeError, ImportError):
        return None


# The run's own session (POSIX) or process group (Windows).
_OWN_GROUP = ({"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)} if WINDOWS
              else {"start_new_session": True})


def main(argv):
    status, out, err, seconds, stop, token = argv[:6]
    command = argv[7:]
    started = time.monotonic()
    deadline = started + float(seconds)
    stopped = []
    for signum in _STOPPED_BY:
        signal.signal(signum, lambda *_: stopped.append(True))
    result = {"returncode": None, "signal": None, "timed_out": False, "stopped": False,
              "seconds": 0.0, "left": 0}
    env = dict(os.environ)
    env[MARKER] = token
    proc = None
    if not os.path.exists(stop):
        with open(out, "wb") as o, open(err, "wb") as e:
            try:
                proc = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=o,
                                        stderr=e, **_OWN_GROUP)
            except OSError as error:
                e.write(("%s: %s\n" % (command[0], error)).encode("utf-8", "replace"))
                result["returncode"] = 127
    tree = _tree(proc.pid) if proc is not None else None
    while proc is not None:
        try:
            code = proc.wait(timeout=_POLL)
        except subprocess.TimeoutExpired:
            code = None
        except InterruptedError:
            continue
        if code is not None:
            if code < 0:
                result["signal"] = -code
            else:
                result["returncode"] = code
            break
        if stopped or os.path.exists(stop):
            result["stopped"] = True
        elif time.monotonic() >= deadline:
            result["timed_out"] = True
        else:
            continue
        if WINDOWS:
            proc.kill()         # the run; what it started: below
        else:
            kill_group(proc.pid)
            result["left"] += kill_marked([token])
        proc.wait()
        break
    if proc is None and result["returncode"] is None:
        result["stopped"] = True
    result["seconds"] = time.monotonic() - started
    if tree is not None:
        result["left"] += tree.kill()
        tree.close()
    elif proc is not None and not WINDOWS:
        kill_group(proc.pid)
    result["left"] += kill_marked([token])
    try:
        with open(status + ".part", "w", encoding="utf-8") as f:
            json.dump(result, f)
        os.replace(status + ".part", status)      # (Windows: rename fails on an existing file)
    except OSError as error:
        # The run's folder took no more (a test filled the disk): the status goes to
        # stdout, a pipe to the world runner, saying why the files are not to be trusted.
        result["unwritten"] = error.strerror or str(error)
        try:
            os.remove(status + ".part")
        except OSError:
            pass
        json.dump(result, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
