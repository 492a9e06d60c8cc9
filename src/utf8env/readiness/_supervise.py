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
a Ctrl+C reaches this supervisor, not the suite) and what it leaves behind is its process
tree, killed with `taskkill /F /T` (Windows has no process groups to kill, no /proc to
search for the marker). Then it writes STATUS:
{"returncode" (null: timed out, stopped or killed by a signal), "signal", "timed_out",
"stopped", "seconds", "left" (processes killed after the end)}.

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


def _kill_group(pid):
    if WINDOWS:
        # The tree below the run, while its root still lives (taskkill walks it from
        # there); the root itself is then killed by the caller's Popen.kill() too.
        subprocess.run(["taskkill", "/F", "/T", "/PID", str(pid)], stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


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
        _kill_group(proc.pid)
        result["left"] += kill_marked([token])
        if WINDOWS:
            proc.kill()
        proc.wait()
        break
    if proc is None and result["returncode"] is None:
        result["stopped"] = True
    result["seconds"] = time.monotonic() - started
    if proc is not None:
        _kill_group(proc.pid)
    result["left"] += kill_marked([token])
    with open(status + ".part", "w", encoding="utf-8") as f:
        json.dump(result, f)
    os.replace(status + ".part", status)      # (Windows: rename fails on an existing file)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
