"""utf8env readiness says what it did not measure: a run that did not complete (a collection
error, `-x`, a timeout) is reported with its status and first lines and gives exit 3,
never "Ready"; tests that ran in one run only are counted apart, never "changes"; a change
is run again in both modes and one that differs between two runs of the same mode is
"unstable", not a change; a timeout keeps the tests that finished; what the runs leave
running (a setsid daemon holding stdout) is killed, at the end and at the timeout; Ctrl-C
stops the runs in one line and 130; --lf sees the project's .pytest_cache; a FIFO, a socket
or a device in the project is left out of the copies; a deleted working folder is one line.

Small projects made in tmp_path, run by the command line on this interpreter (its own
pytest) with pytest's plugin autoloading off (PYTEST_DISABLE_PLUGIN_AUTOLOAD: the exact
output is then the suite's and readiness's only), every scenario's readiness at once in
one module fixture."""
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time

import pytest

from support import machine
from utf8env import _pages as pages
from utf8env import _worlds as worlds
from utf8env._errors import UsageError
from utf8env._own_command import own_command
from utf8env.readiness import _copies as copies, _progress, _suite as suite, _supervise


def _env(**extra):
    env = dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", **extra)
    for name in ("COLUMNS", "LINES", "PYTEST_ADDOPTS"):
        env.pop(name, None)
    return env


def _command(*args):
    return own_command() + ["readiness", "--python", sys.executable] + list(args)


def _project(folder, files):
    os.makedirs(folder)
    for name, text in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(text)
    return folder


MODE_TEST = '''import sys
def test_mode():
    if sys.flags.utf8_mode:
        raise ValueError("UTF-8 mode is on")
'''

SCENARIOS = {
    "collection": ({"test_ok.py": "def test_ok():\n    pass\n",
                    "test_bad.py": 'raise RuntimeError("broken at import")\n'}, ["-q"]),
    "maxfail": ({"test_a.py": MODE_TEST + "".join(
        "def test_more_%d():\n    pass\n" % i for i in range(5))}, ["-q", "-x"]),
    "timeout": ({"test_a.py": '''import os, subprocess, time
def test_one():
    pass
def test_two():
    pass
def test_slow():
    # a daemon in a session of its own, holding stdout (-s)
    daemon = subprocess.Popen(["setsid", "sleep", "1000"])
    with open(os.path.join(os.environ["PIDS"], str(daemon.pid)), "w"):
        pass
    time.sleep(100)
'''}, ["--timeout", "12", "--", "pytest", "-q", "-s"]),
    "daemon": ({"test_a.py": '''import os, subprocess
def test_daemon():
    daemon = subprocess.Popen(["setsid", "sleep", "1000"])
    with open(os.path.join(os.environ["PIDS"], str(daemon.pid)), "w"):
        pass
'''}, ["-q", "-s"]),
    "flaky": ({"test_a.py": '''import os, sys
def test_flaky():
    # fails the first time it runs with UTF-8 mode on (a counter in the copy)
    n = int(open("counter").read()) + 1 if os.path.exists("counter") else 1
    with open("counter", "w") as f:
        f.write(str(n))
    assert not (n == 1 and sys.flags.utf8_mode), "first run with UTF-8 mode"
''' + MODE_TEST}, ["-q"]),
    "lf": ({"test_a.py": "def test_ok():\n    pass\ndef test_ok_too():\n    pass\n"
                         "def test_fails():\n    assert 0, 'always'\n"}, ["-q", "--lf"]),
    "special": ({"test_a.py": "def test_ok():\n    pass\n"}, ["-q"]),
    # Fails alike in both modes, its message naming its tmp_path (each run's own folder).
    "tmp-path": ({"test_a.py": "def test_where(tmp_path):\n"
                               "    raise RuntimeError('no %s' % tmp_path)\n"}, ["-q"]),
}


def _masked(text):
    """The text page with its timings as N."""
    return re.sub(r"\d+\.\d s|(?<= )\d+\.\d$", "N", text, flags=re.M)


def _dead(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory):
    """{name: (exit status, stdout, stderr, seconds, daemon pids, project)}."""
    if not worlds.available()[0]:
        pytest.skip(worlds.available()[1])
    base = str(tmp_path_factory.mktemp("honest"))
    procs = {}
    for name, (files, args) in SCENARIOS.items():
        project = _project(os.path.join(base, name), files)
        pids = os.path.join(base, name + "-pids")
        os.mkdir(pids)
        if name == "lf":
            cache = os.path.join(project, ".pytest_cache", "v", "cache")
            os.makedirs(cache)
            with open(os.path.join(cache, "lastfailed"), "w") as f:
                f.write('{"test_a.py::test_fails": true}\n')
        if name == "special":
            os.mkfifo(os.path.join(project, "a.fifo"))
            s = socket.socket(socket.AF_UNIX)
            s.bind(os.path.join(project, "a.sock"))
            s.close()
            try:
                os.mknod(os.path.join(project, "null"), stat.S_IFCHR | 0o600, os.makedev(1, 3))
            except OSError:
                pass
        argv = _command(*(args if "--" in args else ["--"] + ["pytest"] + args))
        procs[name] = (subprocess.Popen(argv, cwd=project, env=_env(PIDS=pids),
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE),
                       time.monotonic(), pids, project)
    out = {}
    for name, (proc, started, pids, project) in procs.items():
        stdout, stderr = proc.communicate(timeout=300)
        out[name] = (proc.returncode, stdout.decode(), stderr.decode(),
                     time.monotonic() - started, [int(p) for p in os.listdir(pids)], project)
    return out


def _page(scenarios, name):
    code, stdout, stderr, _, _, _ = scenarios[name]
    assert stderr == ""
    return code, _masked(stdout)


def _expected(text):
    return text.replace("{v}", "%d.%d" % sys.version_info[:2])


TABLE = """python  run    UTF-8 mode  filesystem  locale      tests{pad}  seconds
======  =====  ==========  ==========  ==========  ====={line}  =======
"""


def _head(args, width):
    return ("utf8env readiness -- pytest %s\n"
            "world latin1: a Latin-1 locale (LANG=en_US.ISO-8859-1)\n\n" % args +
            TABLE.format(pad=" " * (width - 5), line="=" * (width - 5)))


COLLECTION_OUTPUT = """\
    | ==================================== ERRORS ====================================
    | _________________________ ERROR collecting test_bad.py _________________________
    | test_bad.py:1: in <module>
    |     raise RuntimeError("broken at import")
    | E   RuntimeError: broken at import
    | =========================== short test summary info ============================
    | ERROR test_bad.py - RuntimeError: broken at import
    | !!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
"""


def test_a_collection_error_is_not_ready_it_is_incomplete(scenarios):
    code, page = _page(scenarios, "collection")
    assert code == 3
    assert page == _expected(_head("-q", 7) + """\
{v}    today  off         iso8859-1   ISO-8859-1  1 error  N
{v}    3.15   on          utf-8       ISO-8859-1  1 error  N

Runs that did not complete (only the tests both runs finished are compared):
  {v} today (UTF-8 mode off): exit 2 (interrupted: 1 error during collection)
""" + COLLECTION_OUTPUT + """\
  {v} 3.15 (UTF-8 mode on): exit 2 (interrupted: 1 error during collection)
""" + COLLECTION_OUTPUT + """
Incomplete: 2 of 2 runs did not complete; no test that both runs finished changes with UTF-8 mode.
2 runs on 2 workers, N (their own time N)
""")


def test_x_stops_one_run_early_its_absent_tests_are_not_changes(scenarios):
    code, page = _page(scenarios, "maxfail")
    assert code == 3
    assert page == _expected(_head("-q -x", 8) + """\
{v}    today  off         iso8859-1   ISO-8859-1  6 passed  N
{v}    3.15   on          utf-8       ISO-8859-1  1 failed  N

Runs that did not complete (only the tests both runs finished are compared):
  {v} 3.15 (UTF-8 mode on): exit 1: stopped early (stopping after 1 failures): 5 of 6 collected
    tests did not run
    | F
    | =================================== FAILURES ===================================
    | __________________________________ test_mode ___________________________________
    |     def test_mode():
    |         if sys.flags.utf8_mode:
    | >           raise ValueError("UTF-8 mode is on")
    | E           ValueError: UTF-8 mode is on
    | test_a.py:4: ValueError

Tests that change with no call site warned (from elsewhere: the filesystem encoding, stdio):
  test_a.py::test_mode: passed -> failed: ValueError: UTF-8 mode is on

5 tests finished in one run only (not compared): 5 with UTF-8 mode off only, 0 with it on only.
The tests that changed ran again in both modes (2 runs): 1 changed again, 0 unstable.
Incomplete: 1 of 4 runs did not complete; 1 test that both runs finished changes with UTF-8 mode.
4 runs on 2 workers, N (their own time N)
""")


def test_a_timeout_keeps_the_tests_that_finished_and_kills_the_daemon(scenarios):
    code, page = _page(scenarios, "timeout")
    _, _, _, seconds, pids, _ = scenarios["timeout"]
    assert code == 3
    assert seconds < 12 + 20          # the daemon holds stdout: the timeout holds anyway
    assert len(pids) == 2 and all(_dead(p) for p in pids)
    assert page == _expected(_head("-q -s", 8) + """\
{v}    today  off         iso8859-1   ISO-8859-1  2 passed  N
{v}    3.15   on          utf-8       ISO-8859-1  2 passed  N

Runs that did not complete (only the tests both runs finished are compared):
  {v} today (UTF-8 mode off): timed out after 12 s: 2 tests finished
    | ..
  {v} 3.15 (UTF-8 mode on): timed out after 12 s: 2 tests finished
    | ..

Incomplete: 2 of 2 runs did not complete; no test that both runs finished changes with UTF-8 mode.
2 runs on 2 workers, N (their own time N)
""")


def test_a_setsid_daemon_does_not_outlive_readiness(scenarios):
    code, page = _page(scenarios, "daemon")
    _, _, _, seconds, pids, _ = scenarios["daemon"]
    assert code == 0 and len(pids) == 2
    assert all(_dead(p) for p in pids)
    assert page == _expected(_head("-q -s", 8) + """\
{v}    today  off         iso8859-1   ISO-8859-1  1 passed  N
{v}    3.15   on          utf-8       ISO-8859-1  1 passed  N

Call sites that use the locale encoding, and the tests each changes with UTF-8 mode:
  test_a.py:4 in test_daemon [test code]: 1 warning, 1 test: changes no test
  (encoding="utf-8": the 3.15 behaviour on every version; encoding="locale": today's kept on 3.15,
  Python 3.10+; "with": the sites the same tests use, measured together: fix them together)

Ready: no test changes with UTF-8 mode (1 test, 1 call site warned).
2 runs on 2 workers, N (their own time N)
""")


def test_a_flaky_test_is_unstable_not_changed(scenarios):
    code, page = _page(scenarios, "flaky")
    assert code == 1
    assert page == _expected(_head("-q", 8) + """\
{v}    today  off         iso8859-1   ISO-8859-1  2 passed  N
{v}    3.15   on          utf-8       ISO-8859-1  2 failed  N

Call sites that use the locale encoding, and the tests each changes with UTF-8 mode:
  test_a.py:5 in test_flaky [test code]: 1 warning, 1 test: changes no test
  (encoding="utf-8": the 3.15 behaviour on every version; encoding="locale": today's kept on 3.15,
  Python 3.10+; "with": the sites the same tests use, measured together: fix them together)

Tests that change with no call site warned (from elsewhere: the filesystem encoding, stdio):
  test_a.py::test_mode: passed -> failed: ValueError: UTF-8 mode is on

Unstable tests (a different result in two runs of the same mode; not counted as changes):
  test_a.py::test_flaky [{v}]: UTF-8 mode off: passed twice; on: failed (AssertionError: first run
      with UTF-8 mode), then passed

The tests that changed ran again in both modes (2 runs): 1 changed again, 1 unstable.
Not ready: 1 of 2 tests change with UTF-8 mode; 0 of 1 call site active in them. 1 test not counted
  (unstable).
Untested: 1 call the fixer's scan finds that no test exercised (no EncodingWarning in either run),
  the 3.15 risk no test measures: test_a.py:4
4 runs on 2 workers, N (their own time N)
""")


def test_lf_means_what_it_means_in_the_project(scenarios):
    code, page = _page(scenarios, "lf")
    project = scenarios["lf"][5]
    assert code == 0
    assert page == _expected(_head("-q --lf", 8) + """\
{v}    today  off         iso8859-1   ISO-8859-1  1 failed  N
{v}    3.15   on          utf-8       ISO-8859-1  1 failed  N

Ready: no test changes with UTF-8 mode (1 test, 0 call sites warned).
2 runs on 2 workers, N (their own time N)
""")
    with open(os.path.join(project, ".pytest_cache", "v", "cache", "lastfailed")) as f:
        assert f.read() == '{"test_a.py::test_fails": true}\n'      # the project's, untouched


def test_special_files_are_left_out_in_one_line(scenarios):
    code, page = _page(scenarios, "special")
    assert code == 0
    device = os.path.exists(os.path.join(scenarios["special"][5], "null"))
    assert page == _expected(_head("-q", 8) + """\
{v}    today  off         iso8859-1   ISO-8859-1  1 passed  N
{v}    3.15   on          utf-8       ISO-8859-1  1 passed  N

Not copied into the runs (special files): a.fifo (FIFO), a.sock (socket)%s.
Ready: no test changes with UTF-8 mode (1 test, 0 call sites warned).
2 runs on 2 workers, N (their own time N)
""" % (", null (device)" if device else ""))


def test_ctrl_c_stops_the_runs_in_one_line_and_130(tmp_path):
    if not worlds.available()[0]:
        pytest.skip(worlds.available()[1])
    pids = tmp_path / "pids"
    pids.mkdir()
    project = _project(str(tmp_path / "p"), {"test_a.py": '''import os, subprocess, time
def test_slow():
    daemon = subprocess.Popen(["setsid", "sleep", "1000"])
    with open(os.path.join(os.environ["PIDS"], str(daemon.pid)), "w") as f:
        f.write(os.getcwd())
    time.sleep(100)
'''})
    # its own process group, as a shell runs a command: Ctrl-C reaches readiness and its
    # world runner, never the runs (sessions of their own)
    proc = subprocess.Popen(_command("--", "pytest", "-q"), cwd=project, env=_env(PIDS=str(pids)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while len(os.listdir(str(pids))) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(os.listdir(str(pids))) == 2
    time.sleep(0.3)
    started = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert time.monotonic() - started < 10
    assert (proc.returncode, out, err) == (
        130, b"", b"utf8env: readiness: interrupted; the runs were stopped\n")
    for name in os.listdir(str(pids)):
        assert _dead(int(name))
        with open(str(pids / name)) as f:
            assert not os.path.exists(f.read())        # the copy is removed


def test_ctrl_c_during_the_reruns_removes_the_trials_copies_too(tmp_path):
    """Interrupted while the changed test runs again (its copy holds the counter the
    first run left) and the fresh copies of the trials are made: 130, one line, and no
    folder of readiness's left in its TMPDIR."""
    if not worlds.available()[0]:
        pytest.skip(worlds.available()[1])
    if sys.version_info < (3, 10):
        pytest.skip("EncodingWarning is Python 3.10+: no call site, no trial")
    pids, tmpdir = tmp_path / "pids", tmp_path / "tmp"
    pids.mkdir()
    tmpdir.mkdir()
    project = _project(str(tmp_path / "p"), {"test_a.py": '''import os, sys, time
def test_changes():
    again = os.path.exists("counter")
    with open("counter", "w") as f:
        f.write("caf\\u00e9")
    if again:
        with open(os.path.join(os.environ["PIDS"], str(os.getpid())), "w"):
            pass
        time.sleep(100)
    assert not sys.flags.utf8_mode
'''})
    proc = subprocess.Popen(_command("--", "pytest", "-q"), cwd=project,
                            env=_env(PIDS=str(pids), TMPDIR=str(tmpdir)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 120
    while len(os.listdir(str(pids))) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(os.listdir(str(pids))) == 2
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, out, err) == (
        130, b"", b"utf8env: readiness: interrupted; the runs were stopped\n")
    assert os.listdir(str(tmpdir)) == []
    assert all(_dead(int(name)) for name in os.listdir(str(pids)))


@pytest.mark.parametrize("command", ["readiness", "fix --prove"])
def test_a_deleted_working_folder_is_one_line_and_exit_2(command, tmp_path):
    gone = str(tmp_path / "gone")
    os.mkdir(gone)
    words = _command("--", "pytest") if command == "readiness" else \
        own_command() + ["fix", "--prove", "--python", sys.executable, ".", "--", "pytest"]
    proc = subprocess.run(["sh", "-c", 'cd "$1" && rmdir "$1" && shift && exec "$@"', "sh", gone]
                          + words, env=_env(), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)
    assert (proc.returncode, proc.stdout, proc.stderr.decode()) == (
        2, b"", "utf8env: error: %s: the current folder is gone (No such file or "
        "directory): cd into the project and run again\n" % command)


@pytest.mark.fast
def test_copies_are_removed_side_by_side_and_one_that_fails_leaves_none(tmp_path):
    source = tmp_path / "p"
    source.mkdir()
    for name in ("a.py", "b.py"):
        (source / name).write_text("x = 1\n")
    temporary = tmp_path / "tmp"        # a Folder's, under its root
    temporary.mkdir()
    folders = [suite.Folder(str(tmp_path), "f%d" % i) for i in range(3)]
    copies.copy_projects([(str(source), folder.work) for folder in folders])
    assert [sorted(os.listdir(folder.work)) for folder in folders] == [["a.py", "b.py"]] * 3
    copies.remove_all(folders)
    assert os.listdir(str(temporary)) == []
    first = suite.Folder(str(tmp_path), "first")
    first.project, first.make = str(tmp_path / "missing"), None
    stage = suite.Stage(first, "")
    with pytest.raises(UsageError) as raised:
        suite.other_copies([(stage, "a"), (stage, "b")])
    assert str(raised.value) == (
        "cannot copy the project for the runs into the temporary folder %s: %s: No such file "
        "or directory" % (temporary, tmp_path / "missing"))
    assert os.listdir(str(temporary)) == [os.path.basename(stage.dir)]


def _in_a_small_tmpfs(project, size, tmp_path):
    """(`readiness -- pytest -q` on `project` holding a file of `size` bytes, its TMPDIR a
    1 MiB tmpfs of a mount namespace of its own, what `ls -A` of it then prints after its
    stdout; that TMPDIR): the tmpfs goes with the namespace."""
    with open(os.path.join(project, "big.bin"), "wb") as f:
        f.write(b"\0" * size)
    small = tmp_path / "small"
    small.mkdir()
    script = ('mount -t tmpfs -o size=1m none "$TMPDIR" && "$@"; status=$?; ls -A "$TMPDIR"; '
              'exit $status')
    proc = subprocess.run(["unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
                           script, "sh"] + _command("--", "pytest", "-q"), cwd=project,
                          env=_env(TMPDIR=str(small)), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)
    return proc, small


def test_a_full_temporary_folder_is_one_line_and_exit_2(tmp_path):
    """The copies do not fit (a 1 MiB tmpfs as TMPDIR, a project of 2 MB): one line naming
    the file, why and where, status 2, and nothing of readiness's left there. The big file
    is the only one that takes room (the test file is empty): the two copies are made side
    by side, and one that fills the tmpfs first would make the other fail at whichever file
    it was writing."""
    machine.mount_namespace("a full temporary folder (a small tmpfs)")
    project = _project(str(tmp_path / "p"), {"test_a.py": ""})
    proc, small = _in_a_small_tmpfs(project, 2000000, tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr.decode()) == (
        2, b"", "utf8env: error: cannot copy the project for the runs into the temporary "
        "folder %s: big.bin: No space left on device\n" % small)


def test_the_trials_need_no_room_beyond_the_first_runs_copies(tmp_path):
    """Room for the first runs' copies (2 x 420 kB in a 1 MiB tmpfs) and for no other:
    where the cores do not run every run at once, the trials run after the reruns in the
    same copies, and both fixes are measured."""
    machine.mount_namespace("a temporary folder too small for more copies (a small tmpfs)")
    if sys.version_info < (3, 10):
        pytest.skip("EncodingWarning is Python 3.10+: no call site, no trial")
    if (os.cpu_count() or 1) >= 4:
        pytest.skip("%d cores run every run at once: the trials are fresh copies then "
                    "(test_readiness_advice.py: those that cannot be made are said)"
                    % os.cpu_count())
    project = _project(str(tmp_path / "p"), {"test_a.py": '''def test_latin1(tmp_path):
    with open(tmp_path / "n.txt", "w") as f:
        f.write("caf\\u00e9")
    assert (tmp_path / "n.txt").read_bytes() == b"caf\\xe9"
'''})
    proc, small = _in_a_small_tmpfs(project, 420000, tmp_path)
    assert (proc.returncode, proc.stderr) == (1, b"")
    assert _masked(proc.stdout.decode()) == _expected(_head("-q", 8) + """\
{v}    today  off         iso8859-1   ISO-8859-1  1 passed  N
{v}    3.15   on          utf-8       ISO-8859-1  1 failed  N

Call sites that use the locale encoding, and the tests each changes with UTF-8 mode:
""" + "\n".join(pages.wrap(
        'test_a.py:2 in test_latin1 [test code]: 1 warning, 1 test: changes test_a.py::test_latin1;'
        ' tried: "utf-8" fails in both modes, "locale" passes in both modes', 100, "  ",
        "      ")) + """
  (encoding="utf-8": the 3.15 behaviour on every version; encoding="locale": today's kept on 3.15,
  Python 3.10+; "with": the sites the same tests use, measured together: fix them together)

How they change (the first difference):
  test_a.py::test_latin1: passed -> failed: AssertionError: assert b'caf\\xc3\\xa9' == b'caf\\xe9'

The tests that changed ran again in both modes (2 runs): 1 changed again, 0 unstable.
Not ready: 1 of 1 test change with UTF-8 mode; 1 of 1 call site active in them.
6 runs on 2 workers, N (their own time N); 4 of them tried the two fixes in copies of the
  project
""")


def test_a_run_that_fills_its_temporary_folder_is_said_not_a_traceback(tmp_path):
    """A test that fills the disk (a 1 MiB tmpfs as TMPDIR): neither run can write its
    output, progress or status there; each is incomplete for that reason, in one line
    (the supervisor's status reaches readiness on its stdout), no traceback, status 3, and
    nothing left in the tmpfs. The table's rows are whatever each run wrote before the
    other filled the disk: only their ends are held."""
    machine.mount_namespace("a temporary folder that a test fills (a small tmpfs)")
    project = _project(str(tmp_path / "p"), {"test_fill.py": '''def test_fill():
    try:
        with open("fill.bin", "wb") as f:
            while True:
                f.write(b"\\0" * 65536)
    except OSError:
        pass
'''})
    proc, small = _in_a_small_tmpfs(project, 0, tmp_path)
    lines = _masked(proc.stdout.decode()).split("\n")
    assert (proc.returncode, proc.stderr) == (3, b"")
    assert [lines[5].startswith(_expected("{v}    today  ")),
            lines[6].startswith(_expected("{v}    3.15   ")),
            lines[5].endswith("no tests  N"), lines[6].endswith("no tests  N")] == [True] * 4
    assert "\n".join(lines[:5] + lines[7:]) == _expected(_head("-q", 8) + """\

Runs that did not complete (only the tests both runs finished are compared):
  {v} today (UTF-8 mode off): exit 1: its files could not be written in the temporary folder (No
    space left on device): its output and outcomes are not complete
  {v} 3.15 (UTF-8 mode on): exit 1: its files could not be written in the temporary folder (No
    space left on device): its output and outcomes are not complete

Incomplete: 2 of 2 runs did not complete; no test that both runs finished changes with UTF-8 mode.
2 runs on 2 workers, N (their own time N)
""")


@pytest.mark.fast
def test_a_link_that_cannot_be_made_is_named_once_with_its_reason(tmp_path, monkeypatch):
    """copytree keeps only str() of a link's OSError, which names the copy's path too: the
    line gives the project's file and the reason, once each."""
    source = tmp_path / "p"
    source.mkdir()
    os.symlink("a.py", str(source / "link"))

    def full(target, path):
        raise OSError(28, "No space left on device", path)
    monkeypatch.setattr(os, "symlink", full)
    with pytest.raises(UsageError) as raised:
        copies.copy_project(str(source), str(tmp_path / "copy" / "project"))
    assert str(raised.value) == (
        "cannot copy the project for the runs into the temporary folder %s: link: No space "
        "left on device" % tmp_path)


@pytest.mark.fast
def test_a_copy_that_cannot_be_made_is_one_line(tmp_path):
    source = tmp_path / "p"
    source.mkdir()
    (source / "a.py").write_text("x = 1\n")
    (tmp_path / "file").write_text("")
    with pytest.raises(UsageError) as raised:
        copies.copy_project(str(source), str(tmp_path / "file" / "copy" / "project"))
    assert str(raised.value) == (
        "cannot copy the project for the runs into the temporary folder %s: %s: Not a "
        "directory" % (tmp_path / "file", tmp_path / "file" / "copy"))


@pytest.mark.fast
def test_progress_keeps_the_tests_that_finished(tmp_path):
    path = tmp_path / "progress.jsonl"
    path.write_text("\n".join([
        '{"utf8_mode": 1, "filesystem_encoding": "utf-8", "locale_encoding": "ISO-8859-1"}',
        '{"collected": 4}',
        '{"test": "t.py::a", "when": "setup", "outcome": "passed", "message": null}',
        '{"test": "t.py::a", "when": "call", "outcome": "failed", "message": "boom"}',
        '{"test": "t.py::a", "when": "teardown", "outcome": "passed", "message": null}',
        '{"test": "t.py::b", "when": "setup", "outcome": "failed", "message": "fixture"}',
        '{"test": "t.py::b", "when": "teardown", "outcome": "passed", "message": null}',
        '{"test": "t.py::c", "when": "setup", "outcome": "passed", "message": null}',
        '{"test": "t.py::c", "when": "call", "outcome": "passed", "message": null}',
        '{"test": "t.py::c", "when": "teardown", "outcome": "failed", "message": "td"}',
        '{"test": "t.py::d", "when": "setup", "outcome": "passed", "message": null}',
        '{"test": "t.py::d", "when": "ca']))          # killed mid-line
    p = _progress.read(str(path))
    assert p.tests == {"t.py::a": ("failed", "boom"), "t.py::b": ("error", "fixture"),
                       "t.py::c": ("error", "td")}
    assert (p.collected, p.started, p.finish, p.start["utf8_mode"]) == (4, ["t.py::d"], None, 1)


def _is_sleep(pid):
    try:
        with open("/proc/%d/comm" % pid, "rb") as f:
            return f.read() == b"sleep\n"
    except OSError:
        return False


def test_kill_marked_finds_a_setsid_daemon_by_its_variable():
    token = "test-%d" % os.getpid()
    env = dict(os.environ, **{_supervise.MARKER: token})
    starter = subprocess.Popen(["setsid", "sleep", "1000"], env=env)
    try:
        deadline = time.monotonic() + 10
        while not _is_sleep(starter.pid) and time.monotonic() < deadline:
            time.sleep(0.05)        # setsid has not exec'd sleep yet
        assert _supervise.marked([token]) == [starter.pid]
        assert _supervise.kill_marked([token]) == 1
        starter.wait(timeout=10)
        assert _supervise.marked([token]) == []
    finally:
        if starter.poll() is None:      # a failure above leaves no daemon behind
            starter.kill()
            starter.wait()


def test_a_failure_naming_its_tmp_path_alike_in_both_modes_is_no_change(scenarios):
    code, page = _page(scenarios, "tmp-path")
    assert (code, page) == (0, _expected(_head("-q", 8) + """\
{v}    today  off         iso8859-1   ISO-8859-1  1 failed  N
{v}    3.15   on          utf-8       ISO-8859-1  1 failed  N

Ready: no test changes with UTF-8 mode (1 test, 0 call sites warned).
2 runs on 2 workers, N (their own time N)
"""))
