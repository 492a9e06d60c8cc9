"""Locale facts from the real libc: which names setlocale(LC_CTYPE, name) accepts
and the nl_langinfo(CODESET) of each, asked in a child process under the target's
environment (its LOCPATH counts, not ours).

The child is a fork() of this process when that is safe (one thread, POSIX): it costs
about a millisecond, where starting an interpreter costs tens. Elsewhere it is a fresh
interpreter. setlocale() is only ever called in that child, never in a process that
goes on running other code, with one exception: the launcher, which replaces itself
with the command a moment later, asks in its own process (here=True) and puts its
locale and environment back; the answer is the same, as the fork would be a copy of it.
"""
import sys

from ._environment import candidate_names, codesets, fsdecode, fsencode, system  # noqa: F401
# candidate_names and codesets live in _environment, on `run`'s path, which needs no
# more of this module where the launcher asked already.


def child_program():
    """The locale question as a `python -c` program (_child/ask_locales.py) for a fresh
    interpreter of any version from 3.6: its arguments are the names, its stdout the
    answer, a JSON object {name: codeset}. Also the way to ask another root's libc."""
    from ._child import ask_locales
    with open(ask_locales.__file__, encoding="ascii") as f:
        return f.read()


def facts(environ, names=None, here=False):
    """LocaleFacts of the real libc under `environ`. here=True: ask in this process, only
    for a process that asks libc nothing more of locales, about to exec (run) or to end
    (explain and env as the process's own command): glibc keeps what it loaded, or failed
    to find, for the rest of the process's life, so a long-running process would see a
    stale answer. A fork costs a tenth of explain's start-up."""
    from ._engine.policy import LocaleFacts
    return LocaleFacts(*codesets(environ, names, here, ask))


def ask(environ, names, here):
    """{name: codeset} of `names` that setlocale accepts under `environ`, asked of libc
    here (here=True, where safe: see facts()) or in a child."""
    return _ask(environ, names, here)


def _ask(environ, names, here):
    if here and _fork_is_safe():
        return _ask_here(environ, names)
    if _fork_is_safe():
        return _ask_in_fork(environ, names)
    return _ask_in_interpreter(environ, names)


def _fork_is_safe():
    if not hasattr(system, "fork"):
        return False
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


def _ask_here(environ, names):
    import _locale
    saved = _c_locpath()
    saved_locale = _locale.setlocale(_locale.LC_CTYPE)
    try:
        _adopt_locpath(_locpath_of(environ))
        from ._child import ask_locales
        return ask_locales.ask(names)
    finally:
        _locale.setlocale(_locale.LC_CTYPE, saved_locale)
        _adopt_locpath(saved)


def _ask_in_fork(environ, names):
    read_end, write_end = system.pipe()
    pid = system.fork()
    if pid == 0:        # the child: never returns
        status = 1
        try:
            system.close(read_end)
            _adopt_locpath(_locpath_of(environ))
            from ._child import ask_locales
            data = _encode(ask_locales.ask(names))
            while data:
                data = data[system.write(write_end, data):]
            status = 0
        finally:
            system._exit(status)
    system.close(write_end)
    chunks = []
    while True:
        chunk = system.read(read_end, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    system.close(read_end)
    _, status = system.waitpid(pid, 0)
    if status != 0:
        raise OSError("the locale probe child failed (status %d)" % status)
    return _decode(b"".join(chunks))


# The fork's answer travels as "name NUL codeset NUL" pairs: no json to import.
def _encode(answer):
    return b"".join(fsencode(name) + b"\0" + fsencode(codeset) + b"\0"
                    for name, codeset in answer.items())


def _decode(data):
    fields = [fsdecode(field) for field in data.split(b"\0")[:-1]]
    return dict(zip(fields[0::2], fields[1::2]))


# setlocale() with an explicit name, which is all the question asks, reads one variable of
# the environment: LOCPATH, the folder glibc looks in before its own (glibc
# locale/findlocale.c). Only it is adopted: a copy of a whole environment of 100,000
# variables, one putenv() at a time, would take seconds.
_LOCPATH = b"LOCPATH"


def _locpath_of(environ):
    value = environ.get("LOCPATH")
    return None if value is None else fsencode(value)


def _c_locpath():
    """LOCPATH in this process's C environment now (bytes, or None). os.environ follows
    every change made through it; where os is not imported, nothing has changed it since
    start-up."""
    os = sys.modules.get("os")
    return (os.environb if os is not None else system.environ).get(_LOCPATH)


def _adopt_locpath(value):
    """Set (bytes) or remove (None) LOCPATH in the C environment, where glibc reads it;
    through os.environ when os is imported, so that it stays true."""
    os = sys.modules.get("os")
    try:
        if value is None:
            if os is not None:
                os.environb.pop(_LOCPATH, None)
            else:
                system.unsetenv(_LOCPATH)
        else:
            (os.environb.__setitem__ if os is not None else system.putenv)(_LOCPATH, value)
    except (ValueError, OSError):       # a value glibc cannot hold (a NUL): not a folder
        pass


def _ask_in_interpreter(environ, names):
    import json
    import subprocess
    code = child_program()
    output = subprocess.check_output([sys.executable, "-I", "-S", "-c", code] + list(names),
                                     env=dict(environ))
    return json.loads(output.decode("ascii"))
