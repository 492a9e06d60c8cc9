"""What a Windows run really had: a pytest plugin loaded by readiness --windows
(`-p utf8env._windows.seen --utf8env-seen PATH`, never an entry point) that writes one
JSON object to PATH at configure time: the interpreter's version, GetACP() and
GetOEMCP(), UTF-8 mode, the filesystem encoding, each standard stream's encoding and
error handler as the interpreter made them (sys.__stdout__: pytest's capture replaces
sys.stdout), locale.getpreferredencoding(False) and locale.getencoding() (3.11+), and
the console code pages (0 without a console: Wine gives the streams as pipes).
readiness compares them with utf8env's own win32 rules (decide()). A unittest suite's
runs write the same object (seen(): the runner's --utf8env-seen=PATH).

Runs inside Windows CPython 3.8+: Python 3.6 syntax, standard library only.
"""
import json
import locale
import sys


def pytest_addoption(parser):
    parser.addoption("--utf8env-seen", action="store", dest="utf8env_seen", default=None,
                     metavar="PATH", help="write the encodings this run has to PATH (JSON)")


def _stream(stream):
    if stream is None:
        return None
    return [getattr(stream, "encoding", None), getattr(stream, "errors", None)]


def _code_pages():
    out = {"acp": None, "oemcp": None, "console_cp": None, "console_output_cp": None}
    try:
        import _winapi
        out["acp"] = _winapi.GetACP()
    except (ImportError, AttributeError):
        pass
    try:
        import ctypes
        kernel32 = ctypes.windll.kernel32
        out["oemcp"] = kernel32.GetOEMCP()
        out["console_cp"] = kernel32.GetConsoleCP()
        out["console_output_cp"] = kernel32.GetConsoleOutputCP()
    except (ImportError, AttributeError, OSError):
        pass
    return out


def seen():
    import warnings
    getencoding = getattr(locale, "getencoding", None)
    with warnings.catch_warnings():
        # 3.11+ warn that UTF-8 mode changes getpreferredencoding(): that is what is asked
        warnings.simplefilter("ignore")
        preferred = locale.getpreferredencoding(False)
    out = {"python": "%d.%d.%d" % sys.version_info[:3], "platform": sys.platform,
           "utf8_mode": getattr(sys.flags, "utf8_mode", 0),
           "filesystem": [sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()],
           "stdin": _stream(sys.__stdin__), "stdout": _stream(sys.__stdout__),
           "stderr": _stream(sys.__stderr__),
           "preferred_encoding": preferred,
           "locale_encoding": getencoding() if getencoding else None}
    out.update(_code_pages())
    return out


def pytest_configure(config):
    path = config.getoption("utf8env_seen")
    if path and getattr(config, "workerinput", None) is None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(seen(), f, sort_keys=True)
