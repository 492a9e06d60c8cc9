"""Locale facts from the real libc: which names setlocale(LC_CTYPE, name) accepts
and the nl_langinfo(CODESET) of each, asked in a child process under the target's
environment (its LOCPATH counts, not ours).

The child is a fork() of this process when that is safe (one thread, POSIX): it costs
about a millisecond, where starting an interpreter costs tens. Elsewhere it is a fresh
interpreter. setlocale() is only ever called in that child, never in a process that
goes on running other code.
"""
import os
import sys

from .policy import LocaleFacts

# Every name a profile may try as a coercion target (shipped and drafts).
TARGET_NAMES = ("C.UTF-8", "C.utf8", "UTF-8", "en_US.UTF-8")
_VARIABLES = ("LC_ALL", "LC_CTYPE", "LANG")

_CHILD = r'''
import _locale
def ask(names):
    out = {}
    for name in names:
        try:
            _locale.setlocale(_locale.LC_CTYPE, name)
        except _locale.Error:
            continue
        out[name] = _locale.nl_langinfo(_locale.CODESET)
        _locale.setlocale(_locale.LC_CTYPE, "C")
    return out
'''


def candidate_names(environ):
    """The names worth asking about: the coercion targets and the locale variables' values."""
    names = ["C"]
    for name in TARGET_NAMES + tuple(environ.get(v) for v in _VARIABLES):
        if name and name not in names and name not in ("POSIX",):
            names.append(name)
    return names


def probe(environ, names=None):
    """LocaleFacts of the real libc under `environ`."""
    names = candidate_names(environ) if names is None else list(names)
    if sys.platform == "win32":
        return LocaleFacts({})
    answer = _ask_in_fork(environ, names) if _fork_is_safe() else _ask_in_interpreter(environ, names)
    c_codeset = answer.pop("C", None)
    return LocaleFacts(answer, c_codeset)


def _fork_is_safe():
    if not hasattr(os, "fork"):
        return False
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


def _ask_in_fork(environ, names):
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:        # the child: never returns
        status = 1
        try:
            os.close(read_end)
            _adopt_environment(environ)
            scope = {}
            exec(_CHILD, scope)
            data = _encode(scope["ask"](names))
            while data:
                data = data[os.write(write_end, data):]
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    chunks = []
    while True:
        chunk = os.read(read_end, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    if status != 0:
        raise OSError("the locale probe child failed (status %d)" % status)
    return _decode(b"".join(chunks))


# The fork's answer travels as "name NUL codeset NUL" pairs: no json to import.
def _encode(answer):
    return b"".join(os.fsencode(name) + b"\0" + os.fsencode(codeset) + b"\0"
                    for name, codeset in answer.items())


def _decode(data):
    fields = [os.fsdecode(field) for field in data.split(b"\0")[:-1]]
    return dict(zip(fields[0::2], fields[1::2]))


def _adopt_environment(environ):
    """Make the child's C environment the target's: glibc reads LOCPATH there."""
    for name in list(os.environ):
        if name not in environ:
            del os.environ[name]
    for name, value in environ.items():
        try:
            os.environ[name] = value
        except (ValueError, OSError):   # a name glibc cannot hold ("A=B"): no locale meaning
            pass


def _ask_in_interpreter(environ, names):
    import json
    import subprocess
    code = _CHILD + "\nimport sys, json\nsys.stdout.write(json.dumps(ask(sys.argv[1:])))\n"
    output = subprocess.check_output([sys.executable, "-I", "-S", "-c", code] + list(names),
                                     env=dict(environ))
    return json.loads(output.decode("ascii"))
