"""utf8env._runtime, utf8env._child.reconfigure and the bootstrap, inside real interpreters 3.6-3.13.

Every check runs in a child process with exactly the environment it names (the
"installed" locale world: C, POSIX, C.utf8), so the test process's own locale and
PYTHON* variables never count. Children of one test start in parallel.
"""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import pytest

from utf8env._engine import policy
from utf8env import _probe as probe, _plan_python as python_child
from utf8env._engine.profiles import SHIPPED_LEGACY_WARNING
from support import groundtruth, machine
from utf8env import _worlds as worlds

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
BOOTSTRAP = os.path.join(SRC, "utf8env", "_child", "bootstrap")
WANTED = ("3.6", "3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13")
PRETTY = "\u2119\u01b4\u2602\u210c\xf8\u1f24"   # the PEP 540 example, "Python" in look-alikes
UNDECODABLE = b"xxx\xff"
# The C locale with neither coercion nor UTF-8 mode: the legacy world of 3.6, on 3.7+ too.
LEGACY = {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}


class Child(NamedTuple):
    version: str
    code: str
    env: dict
    stdin: object = b""       # bytes through a pipe, or the path of a file
    cwd: str = None
    pythonpath: str = SRC     # None: no PYTHONPATH at all


def run(children):
    """worlds.Result for each Child, started in parallel."""
    def one(child):
        env = dict(child.env)
        if child.pythonpath is not None:
            env["PYTHONPATH"] = child.pythonpath
        if isinstance(child.stdin, bytes):
            stdin = {"input": child.stdin}
        else:       # a path: stdin is that file, seekable
            stdin = {"stdin": open(str(child.stdin), "rb")}
        try:
            proc = subprocess.run([machine.python(child.version), "-c", child.code], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  cwd=child.cwd, timeout=60, **stdin)
        finally:
            if "stdin" in stdin:
                stdin["stdin"].close()
        return worlds.Result(proc.returncode, proc.stdout, proc.stderr)
    with ThreadPoolExecutor(max_workers=min(4 * (os.cpu_count() or 1), len(children) or 1)) as pool:
        return list(pool.map(one, children))


def report_line(stderr):
    """The JSON a child wrote to fd 2 after the "@@" marker."""
    for line in stderr.splitlines():
        if line.startswith(b"@@"):
            return json.loads(line[2:].decode("ascii"))
    raise AssertionError("no report in stderr: %r" % stderr)


def codec(name):
    return groundtruth.normal("stdout", (name, None))[0]


def need(*versions):
    for version in versions:
        machine.python(version)


@pytest.fixture(params=WANTED)
def version(request):
    """Each of 3.6-3.13: a test of its own, skipped where that interpreter is missing."""
    machine.python(request.param)
    return request.param


@pytest.fixture
def undecodable_dir(tmp_path):
    open(os.path.join(os.fsencode(str(tmp_path)), UNDECODABLE), "w").close()
    return str(tmp_path)


# What a child reports about its streams, on fd 2 (stdout stays exact).
STREAMS = r'''
import gc, json, os, sys
def streams():
    gc.collect()
    return {"stdin": [sys.stdin.encoding, sys.stdin.errors],
            "stdout": [sys.stdout.encoding, sys.stdout.errors],
            "stderr": [sys.stderr.encoding, sys.stderr.errors],
            "fds": [sys.stdin.fileno(), sys.stdout.fileno(), sys.stderr.fileno()],
            "fds_open": [bool(os.fstat(fd)) for fd in (0, 1, 2)],
            "same_dunders": [sys.stdin is sys.__stdin__, sys.stdout is sys.__stdout__,
                             sys.stderr is sys.__stderr__]}
def tell(**extra):
    extra.update(streams())
    os.write(2, ("@@" + json.dumps(extra) + "\n").encode("ascii"))
'''


# -- enable() --------------------------------------------------------------------------

def test_enable_in_the_c_locale_of_36():
    need("3.6")
    code = STREAMS + r'''
print("before")
from utf8env import _runtime as runtime
report = runtime.enable()
print("%s")
tell(stdin_read=sys.stdin.read(), report=report)
''' % PRETTY.encode("unicode_escape").decode("ascii")
    result, = run([Child("3.6", code, {"LANG": "C"}, stdin=b"\xff\n")])
    assert result.returncode == 0, result.stderr
    assert result.stdout == b"before\n" + PRETTY.encode("utf-8") + b"\n"
    seen = report_line(result.stderr)
    assert seen["stdin"] == ["utf-8", "surrogateescape"]
    assert seen["stdout"] == ["utf-8", "surrogateescape"]
    assert seen["stderr"] == ["utf-8", "backslashreplace"]
    assert seen["stdin_read"] == "\udcff\n"
    assert seen["fds"] == [0, 1, 2] and seen["fds_open"] == [True, True, True]
    assert seen["same_dunders"] == [True, True, True]
    report = seen["report"]
    assert report["changed"]["stdout"] == [["ANSI_X3.4-1968", "surrogateescape"],
                                           ["utf-8", "surrogateescape"]]
    assert report["changed"]["open"] == [["ANSI_X3.4-1968", "strict"], ["UTF-8", "strict"]]
    assert report["changed"]["preferred_encoding"] == ["ANSI_X3.4-1968", "UTF-8"]
    assert "fixed at start-up" in report["cannot"]["filesystem"]


def test_enable_everywhere_in_the_legacy_c_locale(version):
    """3.7+ reconfigure in place, 3.6 re-initialises in place; open() and getpreferredencoding()."""
    code = STREAMS + r'''
import locale
print("before")
from utf8env import _runtime as runtime
report = runtime.enable()
print("%s")
with open(os.devnull) as f:
    opened = [f.encoding, f.errors]
with open(os.devnull, "rb") as f:
    binary = type(f).__name__
tell(report=report, opened=opened, binary=binary, preferred=locale.getpreferredencoding(False),
     again=runtime.enable())
''' % PRETTY.encode("unicode_escape").decode("ascii")
    children = [Child(version, code, LEGACY)]
    for child, result in zip(children, run(children)):
        assert result.returncode == 0, (child.version, result.stderr)
        assert result.stdout == b"before\n" + PRETTY.encode("utf-8") + b"\n", child.version
        seen = report_line(result.stderr)
        spelling = "utf-8" if child.version in ("3.11", "3.12", "3.13") else "UTF-8"
        assert seen["stdout"] == ["utf-8", "surrogateescape"], child.version
        assert seen["stdin"] == ["utf-8", "surrogateescape"], child.version
        assert seen["stderr"] == ["utf-8", "backslashreplace"], child.version
        assert seen["opened"] == [spelling, "strict"], child.version
        assert seen["preferred"] == spelling, child.version
        assert seen["binary"] == "BufferedReader"
        assert seen["fds"] == [0, 1, 2] and seen["same_dunders"] == [True, True, True]
        assert seen["again"]["changed"] == {}, child.version
        assert set(seen["again"]["unchanged"]) == {"stdin", "stdout", "stderr", "open",
                                                   "preferred_encoding"}


@pytest.mark.parametrize("version", ["3.6", "3.13"])
def test_strict_mode(version, undecodable_dir):
    need(version)
    code = STREAMS + r'''
from utf8env import _runtime as runtime
runtime.enable("strict")
try:
    text = sys.stdin.read()
    error = None
except UnicodeDecodeError as e:
    text, error = None, type(e).__name__
tell(text=text, error=error, names=os.listdir("."))
'''
    result, = run([Child(version, code, {"LANG": "C"}, stdin=b"\xff\n", cwd=undecodable_dir)])
    assert result.returncode == 0, result.stderr
    seen = report_line(result.stderr)
    assert seen["error"] == "UnicodeDecodeError" and seen["text"] is None
    assert seen["names"] == ["xxx\udcff"]
    assert seen["stdin"] == ["utf-8", "strict"] and seen["stdout"] == ["utf-8", "strict"]
    assert seen["stderr"] == ["utf-8", "backslashreplace"]


@pytest.mark.parametrize("value, stdout, stderr", [
    ("latin1", ("iso8859-1", "strict"), ("iso8859-1", "backslashreplace")),
    ("latin1:replace", ("iso8859-1", "replace"), ("iso8859-1", "backslashreplace")),
    (":replace", ("utf-8", "replace"), ("utf-8", "backslashreplace")),
])
def test_pythonioencoding_keeps_its_priority(value, stdout, stderr, version):
    code = STREAMS + r'''
from utf8env import _runtime as runtime
runtime.enable()
tell()
'''
    children = [Child(version, code, dict(LEGACY, PYTHONIOENCODING=value))]
    for child, result in zip(children, run(children)):
        assert result.returncode == 0, (child.version, result.stderr)
        seen = report_line(result.stderr)
        for role, want in (("stdin", stdout), ("stdout", stdout), ("stderr", stderr)):
            assert (codec(seen[role][0]), seen[role][1]) == want, (child.version, role, seen[role])


def test_enable_refuses_unknown_modes():
    from utf8env import _runtime as runtime
    for mode in (0, 2, "1", "surrogateescape", True, None):
        with pytest.raises(ValueError):
            runtime.enable(mode)


# -- enable() loses nothing ----------------------------------------------------------

def _legacy_name(version):
    """The name of the C locale's encoding as a stream reports it: 3.8+ normalise it
    (initconfig.c config_get_codec_name), 3.6 and 3.7 keep nl_langinfo's."""
    return "ANSI_X3.4-1968" if version in ("3.6", "3.7") else "ascii"


PARTIAL = r"""
import json, os, sys
%s
from utf8env import _runtime as runtime
report = runtime.enable()
rest = sys.stdin.read()
os.write(1, json.dumps([first, rest, report["cannot"].get("stdin"), report["changed"].get("stdin"),
                        [sys.stdin.encoding, sys.stdin.errors]]).encode("ascii"))
"""
STDIN = b"one\ntw\xc3\xa9 \xff\nthree\n"
AS_ASCII = STDIN.decode("ascii", "surrogateescape")
AS_UTF8 = STDIN.decode("utf-8", "surrogateescape")


@pytest.mark.parametrize("read, first, source, kept", [
    # A pipe cannot seek back over the text decoded ahead: stdin keeps its encoding, and
    # the rest reads exactly as it would have without enable().
    ("first = sys.stdin.readline()", "one\n", "pipe", True),
    ("first = sys.stdin.read(2)", "on", "pipe", True),
    ("first = next(iter(sys.stdin))", "one\n", "pipe", True),
    # A file can: the rest is decoded with the new encoding from the first unread byte.
    ("first = sys.stdin.readline()", "one\n", "file", False),
    ("first = sys.stdin.read(2)", "on", "file", False),
    # Nothing waits: all read, or nothing yet.
    ("first = sys.stdin.read()", AS_ASCII, "pipe", False),
    ("first = ''", "", "pipe", False),
], ids=["readline-pipe", "read2-pipe", "next-pipe", "readline-file", "read2-file", "all-pipe",
        "none-pipe"])
def test_enable_after_a_partial_read_of_stdin_loses_nothing(read, first, source, kept, tmp_path, version):
    stdin = STDIN
    if source == "file":
        stdin = tmp_path / "stdin"
        stdin.write_bytes(STDIN)
    children = [Child(version, PARTIAL % read, LEGACY, stdin=stdin)]
    for child, result in zip(children, run(children)):
        assert (result.returncode, result.stderr) == (0, b""), (child.version, result.stderr)
        old = [_legacy_name(child.version), "surrogateescape"]
        if kept:
            expected = [first, AS_ASCII[len(first):], (
                "sys.stdin was read from (readline(), read(n) or iteration) and may hold text "
                "decoded ahead of the program; it cannot seek back, and a new encoding would "
                "lose that text: it stays %s/surrogateescape" % old[0]), None, old]
        else:
            new = ["utf-8", "surrogateescape"]
            rest = "" if first == AS_ASCII else AS_UTF8[len(first):]
            expected = [first, rest, None, [old, new], new]
        assert json.loads(result.stdout.decode("ascii")) == expected, child.version


LOGGING = r"""
import logging, os, sys
handler = logging.StreamHandler()           # holds sys.stderr as it is now
saved = sys.stdout
log = logging.getLogger("app")
log.addHandler(handler)
log.propagate = False
log.warning("before \xe9")
print("out before")
from utf8env import _runtime as runtime
report = runtime.enable()
log.warning("after \xe9 \udcff")
print("print \xe9", file=sys.stderr)
log.warning("again")
saved.write("saved \xe9 \udcff\n")
print("out after \xe9")
sys.stdout.flush()
os.write(2, ("@@%r\n" % ([handler.stream is sys.stderr is sys.__stderr__,
                           saved is sys.stdout is sys.__stdout__,
                           report["changed"]["stderr"][1], report["changed"]["stdout"][1]],)).encode())
"""


def test_streams_held_before_enable_write_in_the_new_encoding_in_order(version):
    """A logging.StreamHandler made before enable(), and a saved sys.stdout, hold the very
    object enable() reconfigures, on 3.6 too (never a second wrapper beside a stale one)."""
    children = [Child(version, LOGGING, LEGACY)]
    for child, result in zip(children, run(children)):
        assert (result.returncode, result.stdout) == (
            0, b"out before\nsaved \xc3\xa9 \xff\nout after \xc3\xa9\n"), (child.version, result)
        assert result.stderr == (
            b"before \\xe9\n"
            b"after \xc3\xa9 \\udcff\n"
            b"print \xc3\xa9\n"
            b"again\n"
            b"@@[True, True, ['utf-8', 'backslashreplace'], ['utf-8', 'surrogateescape']]\n"
        ), child.version


REPLACED = r"""
import io, json, os, sys
capture = sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding="UTF-8", newline="")
from utf8env import _runtime as runtime
report = runtime.enable()
try:
    print("\udcff")
    refused = None
except UnicodeEncodeError as error:
    refused = error.reason
print("captured")
capture.flush()
os.write(1, json.dumps([report["cannot"]["stdout"], "stdout" in report["changed"],
                        report["changed"]["stderr"][1], refused,
                        capture.buffer.getvalue().decode("utf-8")]).encode("ascii"))
"""


def test_a_stream_other_code_put_in_place_is_left_to_it(version):
    """A replaced sys.stdout (a capture, redirect_stdout) keeps its owner's encoding: its
    owner decodes what it holds with that encoding."""
    children = [Child(version, REPLACED, LEGACY)]
    for child, result in zip(children, run(children)):
        assert (result.returncode, result.stderr) == (0, b""), (child.version, result.stderr)
        assert json.loads(result.stdout.decode("ascii")) == [
            "sys.stdout is not the interpreter's own stream (sys.__stdout__) but another "
            "object (TextIOWrapper) put there by other code, whose encoding is its owner's: "
            "it stays UTF-8/strict",
            False, ["utf-8", "backslashreplace"], "surrogates not allowed", "captured\n",
        ], child.version


PYTEST_CAPTURE = r"""
import json, os
import pytest
import utf8env


@pytest.mark.parametrize("fixture", ["capsys", "capfd"])
def test_enable_under_capture(fixture, request):
    capture = request.getfixturevalue(fixture)
    print("before")
    report = utf8env.enable()
    try:
        print("\udcff")
        refused = None
    except UnicodeEncodeError as error:
        refused = error.reason
    print("after")
    out, err = capture.readouterr()
    with open(os.path.join(os.environ["RESULTS"], fixture), "w") as f:
        json.dump([{role: report["cannot"][role] for role in ("stdin", "stdout", "stderr")},
                   sorted(report["changed"]), refused, out], f)
"""


@pytest.mark.parametrize("mode", ["fd", "sys"])
def test_enable_under_pytests_capture(mode, tmp_path):
    """pytest in a child, on a test that calls enable() and prints a surrogate: capture
    keeps working (the surrogate fares as it would without enable())."""
    (tmp_path / "test_capture.py").write_text(PYTEST_CAPTURE)
    results = tmp_path / "results"
    results.mkdir()
    env = dict(LEGACY, PYTHONPATH=SRC, RESULTS=str(results), HOME=os.environ["HOME"],
               PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "-p", "no:terminal", "--capture=" + mode, "test_capture.py"],
                          cwd=str(tmp_path), env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    stdin = ("sys.stdin is not the interpreter's own stream (sys.__stdin__) but another "
             "object (DontReadFromInput) put there by other code, whose encoding is its "
             "owner's: it stays %s/None" % _legacy_name("%d.%d" % sys.version_info[:2]))
    replaced = ("sys.%s is not the interpreter's own stream (sys.__%s__) but another object "
                "(%s) put there by other code, whose encoding is its owner's: it stays %s")
    # The tests run in this order: the first enable() changes open(), the second nothing.
    for fixture, kind, encoding, changed, surrogate, refused in [
            ("capsys", "CaptureIO", "UTF-8/strict", ["open", "preferred_encoding"], "",
             "surrogates not allowed"),
            ("capfd", "EncodedFile", "utf-8/replace", [], "?\n", None)]:
        seen = json.loads((results / fixture).read_text())
        assert seen == [
            {"stdin": stdin,
             "stdout": replaced % ("stdout", "stdout", kind, encoding),
             "stderr": replaced % ("stderr", "stderr", kind, encoding)},
            changed, refused, "before\n" + surrogate + "after\n"], fixture


# -- the bootstrap -----------------------------------------------------------------------

def _bootstrap_env(env, mode=1, user_path=None):
    """The launcher's own protocol (python_child.bootstrap_environment), PYTHONPATH split off."""
    given = dict(env, **({"PYTHONPATH": user_path} if user_path is not None else {}))
    env = dict(env, **python_child.bootstrap_environment(given, "mode=%s" % mode))
    return env, env.pop("PYTHONPATH")


def test_bootstrap_chains_to_the_users_sitecustomize_and_does_not_leak(tmp_path, version):
    user = str(tmp_path)
    with open(os.path.join(user, "sitecustomize.py"), "w") as f:
        f.write("import os\nos.environ['UTF8ENV_TEST_USER_SITE'] = 'ran'\n"
                "os.write(2, b'user sitecustomize\\n')\n")
    grandchild = ("import json, os, sys; os.write(1, json.dumps("
                  "[sys.stdout.encoding, os.environ.get('PYTHONPATH'), "
                  "'UTF8ENV_BOOTSTRAP' in os.environ, sys.path]).encode())")
    code = STREAMS + r'''
import subprocess
out = subprocess.check_output([sys.executable, "-c", %r])
tell(grandchild=json.loads(out.decode("ascii")), marker=os.environ.get("UTF8ENV_TEST_USER_SITE"),
     pythonpath=os.environ.get("PYTHONPATH"), leaked="UTF8ENV_BOOTSTRAP" in os.environ,
     path=sys.path, site=sys.modules["sitecustomize"].__file__)
''' % grandchild
    children = []
    for v in [version]:
        env, pythonpath = _bootstrap_env({"LANG": "C"}, user_path=user)
        children.append(Child(v, code, env, pythonpath=pythonpath))
        # The same without the bootstrap: a grandchild of 3.7+ inherits the coercion.
        children.append(Child(v, code, {"LANG": "C"}, pythonpath=user))
    results = run(children)
    for child, result, base in zip(children[::2], results[::2], results[1::2]):
        assert result.returncode == 0, (child.version, result.stderr)
        # The user's sitecustomize ran in the child and, through the restored
        # PYTHONPATH, in the grandchild; the bootstrap said nothing.
        lines = [line for line in result.stderr.splitlines() if not line.startswith(b"@@")]
        assert lines == [b"user sitecustomize"] * 2, (child.version, result.stderr)
        seen = report_line(result.stderr)
        assert seen["marker"] == "ran"
        assert seen["site"] == os.path.join(user, "sitecustomize.py")
        assert seen["pythonpath"] == user and not seen["leaked"]
        assert BOOTSTRAP not in seen["path"] and user in seen["path"]
        assert seen["stdout"] == ["utf-8", "surrogateescape"], child.version
        encoding, pythonpath, leaked, path = seen["grandchild"]
        assert pythonpath == user and not leaked and BOOTSTRAP not in path
        assert encoding == report_line(base.stderr)["grandchild"][0], child.version
        if child.version == "3.6":
            assert encoding == "ANSI_X3.4-1968"


def test_bootstrap_without_a_user_sitecustomize_or_pythonpath(version):
    code = STREAMS + "tell(pythonpath=os.environ.get('PYTHONPATH'), site=sys.modules['sitecustomize'].__file__)"
    children = []
    for v in [version]:
        env, pythonpath = _bootstrap_env(LEGACY, mode="strict")
        children.append(Child(v, code, env, pythonpath=pythonpath))
    for child, result in zip(children, run(children)):
        assert result.returncode == 0, (child.version, result.stderr)
        assert not [l for l in result.stderr.splitlines() if not l.startswith(b"@@")], result.stderr
        seen = report_line(result.stderr)
        assert seen["pythonpath"] is None
        assert seen["site"] == os.path.join(BOOTSTRAP, "sitecustomize.py")
        assert seen["stdout"] == ["utf-8", "strict"] and seen["stdin"] == ["utf-8", "strict"]
        assert seen["stderr"] == ["utf-8", "backslashreplace"]


def test_bootstrap_errors_never_stop_the_program(version):
    code = "print('still runs')"
    children = [Child(version, code, {"LANG": "C", "UTF8ENV_BOOTSTRAP": "garbage"}, pythonpath=BOOTSTRAP)]
    children += [Child(version, code, {"LANG": "C", "UTF8ENV_BOOTSTRAP": 'mode=2'}, pythonpath=BOOTSTRAP)]
    for child, result in zip(children, run(children)):
        assert result.returncode == 0 and result.stdout == b"still runs\n", child
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(b"utf8env: bootstrap: "), result.stderr


def test_bootstrap_lists_a_directory_as_pep_540_promises(undecodable_dir):
    """PEP 540 "List a directory into stdout": 3.6 in the C locale prints the name's bytes."""
    need("3.6")
    env, pythonpath = _bootstrap_env({"LANG": "C"})
    code = "import os\nfor n in os.listdir('.'): print(n)"
    result, = run([Child("3.6", code, env, cwd=undecodable_dir, pythonpath=pythonpath)])
    assert result.returncode == 0 and result.stderr == b"", result.stderr
    assert result.stdout == b"xxx\xff\n"


# -- current() ---------------------------------------------------------------------------

CURRENT = r'''
import json, os
from utf8env import _runtime as runtime
d = runtime.current()
os.write(1, json.dumps(d._asdict()).encode("ascii"))
'''
CURRENT_ENVS = [
    {"LANG": "C"},
    dict(LEGACY),
    {"LC_ALL": "C.UTF-8"},
    {"LC_ALL": "POSIX", "PYTHONIOENCODING": "latin1:replace", "PYTHONUTF8": "1"},
    {"LC_ALL": "C.UTF-8", "PYTHONWARNDEFAULTENCODING": "1"},
]
COMPARED = ("filesystem", "stdin", "stdout", "stderr", "open", "preferred_encoding",
            "locale_encoding", "lc_ctype", "utf8_mode")


def _decision(fields):
    for name in groundtruth.ENCODING_FIELDS:
        if fields[name] is not None:
            fields[name] = policy.Stream(*fields[name])
    fields["reasons"] = {k: policy.Reason(*v) for k, v in fields["reasons"].items()}
    return policy.Decision(**fields)


def test_current_agrees_with_the_probe(version):
    children, probes = [], []
    for v in [version]:
        for env in CURRENT_ENVS:
            children.append(Child(v, CURRENT, env))
            probes.append(Child(v, probe.source(), env))
    results = run(children + probes)
    failures = []
    for child, result, probed in zip(children, results, results[len(children):]):
        assert result.returncode == 0 and result.stderr == b"", (child, result.stderr)
        decision = _decision(json.loads(result.stdout.decode("ascii")))
        assert decision.python == child.version and decision.platform == "linux"
        assert set(decision.reasons) == set(policy.Decision._fields) - {"reasons"}
        assert all(r.source == "observed" for r in decision.reasons.values())
        mine = groundtruth.predicted(decision)
        truth = groundtruth.observe(probed, child.env)
        for field in COMPARED:
            if mine[field] != truth[field]:     # exact: both read the same live values
                failures.append((child.version, child.env, field, mine[field], truth[field]))
    assert not failures, failures


def test_current_follows_enable(version):
    code = r'''
import json, os
from utf8env import _runtime as runtime
runtime.enable()
d = runtime.current()
os.write(1, json.dumps([d.stdout, d.open, d.preferred_encoding, d.utf8_mode, d.filesystem]).encode())
'''
    children = [Child(version, code, LEGACY)]
    for child, result in zip(children, run(children)):
        assert result.returncode == 0, result.stderr
        stdout, opened, preferred, mode, fs = json.loads(result.stdout.decode())
        spelling = "utf-8" if child.version in ("3.11", "3.12", "3.13") else "UTF-8"
        assert stdout == ["utf-8", "surrogateescape"] and opened == [spelling, "strict"]
        assert preferred == spelling and mode == 0
        assert codec(fs[0]) == "ascii"      # fixed at start-up


# -- initialize() --------------------------------------------------------------------------

INITIALIZE = r'''
import json, os, sys
from utf8env import _runtime as runtime
sys.stderr.flush()     # 3.8 prints its own warning through the buffered sys.stderr
os.write(2, b"@@\n")
os.write(1, json.dumps(runtime.initialize()).encode())
'''


@pytest.mark.parametrize("env, warns", [
    ({"LC_ALL": "C", "PYTHONCOERCECLOCALE": "warn"}, lambda v: True),
    ({"LC_ALL": "C"}, lambda v: False),
    ({"LC_ALL": "C", "PYTHONCOERCECLOCALE": "1"}, lambda v: False),
    ({"LC_ALL": "C.UTF-8", "PYTHONCOERCECLOCALE": "warn"}, lambda v: False),
    # 3.7+ coerce LANG=C to C.UTF-8 before initialize() looks; 3.6 does not.
    ({"LANG": "C", "PYTHONCOERCECLOCALE": "warn"}, lambda v: v == "3.6"),
])
def test_initialize_warns_on_the_c_locale(env, warns, version):
    children = [Child(version, INITIALIZE, env)]
    for child, result in zip(children, run(children)):
        assert result.returncode == 0, result.stderr
        after = result.stderr.split(b"@@\n", 1)[1]
        returned = json.loads(result.stdout.decode())
        if warns(child.version):
            assert after == SHIPPED_LEGACY_WARNING.encode() + b"\n", child.version
            assert returned == SHIPPED_LEGACY_WARNING
        else:
            assert after == b"" and returned is None, child.version


def test_initialize_reads_the_given_environment(version):
    code = r'''
import json, os, sys
from utf8env import _runtime as runtime
sys.stderr.flush()     # 3.8 prints its own warning through the buffered sys.stderr
os.write(2, b"@@\n")
os.write(1, json.dumps([runtime.initialize({"PYTHONCOERCECLOCALE": "warn"}),
                        runtime.initialize({})]).encode())
'''
    children = [Child(version, code, {"LC_ALL": "C"})]
    for child, result in zip(children, run(children)):
        assert json.loads(result.stdout.decode()) == [SHIPPED_LEGACY_WARNING, None]
        assert result.stderr.split(b"@@\n", 1)[1] == SHIPPED_LEGACY_WARNING.encode() + b"\n"
