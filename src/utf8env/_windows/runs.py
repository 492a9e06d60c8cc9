"""What every run of Windows CPython under Wine shares, readiness --windows's and matrix
--windows's: the pipe shim each run is started behind, the probe that says which CPython
and which code page Wine really gives, the _wmi that 3.12+ must not import under Wine,
the words for what Wine is not, and prefixes opened and closed side by side.
"""
import json
import os

from . import wine

PIPE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pipe.py")
PROBE = ("import json, sys, _winapi; print(json.dumps(["
         "'%d.%d.%d' % sys.version_info[:3], _winapi.GetACP()]))")
NOT_SHOWN = "Wine is not Windows: the streams are pipes, never a console%s; what Wine does " \
            "unlike Windows is not seen"
# Wine 8.0 has no propsys.VariantToString: CPython 3.12+'s _wmi (platform.uname(),
# platform.node(): pytest's JUnit XML asks) aborts the process. The runs get a _wmi that
# cannot be imported, and platform falls back as it does where WMI fails.
WMI = ", _wmi is off (Wine lacks its calls)"
_NO_WMI = ('raise ImportError("utf8env: no _wmi under Wine, which lacks '
           'propsys.VariantToString")\n')


def written(path, code_page):
    """The bytes Windows CPython may write for the Linux folder `path` (each of
    wine.spellings()): in UTF-8 (UTF-8 mode, or a file it encodes so), and in the ANSI
    code page (its stdio without UTF-8 mode), what the code page lacks as \\xNN
    (backslashreplace): a folder that is not ASCII is found in either."""
    out = []
    for spelt in wine.spellings(path):
        for data in (os.fsencode(spelt), spelt.encode("cp%d" % code_page, "backslashreplace")):
            if data not in out:
                out.append(data)
    return out


def needs_no_wmi(minor):
    """Whether Windows CPython `minor` ("3.12") imports _wmi (3.12+)."""
    return tuple(int(x) for x in minor.split(".")) >= (3, 12)


def hide_wmi(folder, minor):
    """Put the _wmi that cannot be imported in `folder` (a folder on the runs' PYTHONPATH)
    where `minor` needs it."""
    if needs_no_wmi(minor):
        with open(os.path.join(folder, "_wmi.py"), "w", encoding="utf-8") as f:
            f.write(_NO_WMI)


def probed(out, code_page, locpath):
    """The probe's answer (stdout bytes) checked: Windows CPython's version ("3.13.2"),
    and the code page Wine really gave (else WineError: the runs would not be in it)."""
    try:
        cpython, acp = json.loads(out.decode("ascii", "replace").strip())
    except ValueError:
        raise wine.WineError("Windows CPython under Wine printed %r, not its version and "
                             "code page" % out[:200])
    if acp != code_page:
        raise wine.WineError(
            "Wine gave code page %d, not %d (LC_ALL=%s%s): the runs would not be in code "
            "page %d" % (acp, code_page, wine.locale_name(code_page),
                         " LOCPATH=%s" % locpath if locpath else "", code_page))
    return cpython


def parallel(calls):
    """The results of `calls`, run at once (threads: each waits on Wine); the first
    exception raised, once all have ended."""
    import threading
    results, errors = [None] * len(calls), []

    def one(i):
        try:
            results[i] = calls[i]()
        except BaseException as error:      # noqa: B902 (re-raised in the caller)
            errors.append(error)
    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    interrupted = None
    for t in threads:
        while t.is_alive():
            try:
                t.join()
            except BaseException as error:  # noqa: B902 (Ctrl-C: the threads end first)
                interrupted = interrupted or error
    if interrupted is not None:
        raise interrupted
    if errors:
        raise errors[0]
    return results
