"""What a test may not leave behind, checked around every test (tests/conftest.py).

Each test runs with a TMPDIR of its own (the variable and tempfile's cached folder), so
that nothing it starts meets another test's or another run's temporary folders, and a
marker variable that every process it starts inherits. After the test:
- the processes it started are gone: a process carrying its marker, or a new descendant
  of this process (one started with an environment of its own carries no marker);
- its TMPDIR is empty;
- the signal dispositions and the signal mask of this process, its working folder and
  its environment are as they were.
A test that leaves any of these fails at teardown, naming what it left; what it left is
then undone (processes killed, folders removed, state restored), so that one leak is
one failure and never a later test's."""
import contextlib
import os
import shutil
import signal
import tempfile

MARKER = "UTF8ENV_TEST_ISOLATION"
_RUN_TMPDIR = []     # the run's own TMPDIR (tests/conftest.py sets it)


def run_tmpdir():
    """The run's TMPDIR, for what outlives the test that makes it (a process-wide cache)."""
    return _RUN_TMPDIR[0] if _RUN_TMPDIR else None


# pytest's own: it names the phase the test is in.
_PYTEST_OWN = {b"PYTEST_CURRENT_TEST"}
# SIGKILL and SIGSTOP cannot be caught: getsignal() has nothing to say of them.
_SIGNALS = sorted(set(signal.valid_signals()) - {signal.SIGKILL, signal.SIGSTOP})


def _processes():
    """{pid: (parent pid, start time, state)} of every process in /proc ({} without one)."""
    found = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name, "rb") as f:
                fields = f.read().rpartition(b")")[2].split()
        except OSError:         # ended meanwhile
            continue
        found[int(name)] = (int(fields[1]), fields[19], fields[0])
    return found


def _descendants(processes, top):
    children = {}
    for pid, (ppid, _, _) in processes.items():
        children.setdefault(ppid, []).append(pid)
    out, todo = set(), [top]
    while todo:
        for child in children.get(todo.pop(), ()):
            out.add(child)
            todo.append(child)
    return {pid: processes[pid] for pid in out}


def _marked(processes, token):
    needle = ("%s=%s" % (MARKER, token)).encode()
    out = set()
    for pid in processes:
        try:
            with open("/proc/%d/environ" % pid, "rb") as f:
                if needle in f.read().split(b"\0"):
                    out.add(pid)
        except OSError:
            continue
    return out


def _command_line(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().replace(b"\0", b" ").strip().decode("utf-8", "replace")[:200]
    except OSError:
        return "?"


class State(object):
    """This process's state as a test may not change it."""

    def __init__(self):
        self.cwd = os.getcwd()
        self.environ = {k: v for k, v in os.environb.items() if k not in _PYTEST_OWN}
        self.handlers = {s: signal.getsignal(s) for s in _SIGNALS}
        self.mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])

    def changes(self, before):
        out = []
        if self.cwd != before.cwd:
            out.append("the working folder: %s, was %s" % (self.cwd, before.cwd))
        for key in sorted(set(self.environ) | set(before.environ)):
            if self.environ.get(key) != before.environ.get(key):
                out.append("the environment's %s: %r, was %r" % (
                    key.decode("utf-8", "replace"), self.environ.get(key),
                    before.environ.get(key)))
        for signum in _SIGNALS:
            if self.handlers[signum] != before.handlers[signum]:
                out.append("the disposition of %s: %r, was %r" % (
                    signal.Signals(signum).name, self.handlers[signum],
                    before.handlers[signum]))
        if self.mask != before.mask:
            out.append("the signal mask: %s, was %s" % (
                sorted(s.name for s in self.mask), sorted(s.name for s in before.mask)))
        return out

    def restore(self):
        os.chdir(self.cwd)
        for key in set(os.environb) - set(self.environ) - _PYTEST_OWN:
            del os.environb[key]
        os.environb.update(self.environ)
        for signum, handler in self.handlers.items():
            if handler is not None:         # None: set from C, not Python's to restore
                signal.signal(signum, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, self.mask)


class Guard(object):
    """Around one test: `enter()` before it, `leftovers()` after it (a list of what it
    left, each a line; what it left is undone)."""

    def __init__(self, tmpdir, token):
        self.tmpdir, self.token = str(tmpdir), token

    def enter(self):
        self.state = State()
        self.before = _descendants(_processes(), os.getpid())
        self.saved = (os.environ.get("TMPDIR"), tempfile.tempdir)
        os.environ["TMPDIR"] = tempfile.tempdir = self.tmpdir
        os.environ[MARKER] = self.token

    def _leave(self):
        del os.environ[MARKER]
        tmpdir, tempfile.tempdir = self.saved
        if tmpdir is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = tmpdir

    @contextlib.contextmanager
    def outside(self):
        """For a module or session fixture that a test starts (request.getfixturevalue):
        it is made as the run's, not the test's (the run's TMPDIR, no marker), and what
        it starts (a daemon for the module's tests) is not the test's to end."""
        self._leave()
        try:
            yield
        finally:
            os.environ["TMPDIR"] = tempfile.tempdir = self.tmpdir
            os.environ[MARKER] = self.token
            self.before.update(_descendants(_processes(), os.getpid()))

    def leftovers(self):
        self._leave()
        out = []
        processes = _processes()
        new = {pid for pid, (_, started, state) in
               _descendants(processes, os.getpid()).items()
               if self.before.get(pid, (None, None))[1] != started and state != b"Z"}
        for pid in sorted(new | _marked(processes, self.token)):
            out.append("a process: %d %s" % (pid, _command_line(pid)))
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            # pytest-of-USER: the folder of a pytest that a test ran without --basetemp,
            # which pytest keeps (its last three runs) by design.
            left = sorted(n for n in os.listdir(self.tmpdir) if not n.startswith("pytest-of-"))
        except OSError:
            left = []
        for name in left:
            out.append("in its TMPDIR: %s" % name)
        shutil.rmtree(self.tmpdir, ignore_errors=True)
        now = State()
        out.extend(now.changes(self.state))
        self.state.restore()
        return out
