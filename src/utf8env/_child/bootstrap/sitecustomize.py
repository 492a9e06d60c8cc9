"""utf8env bootstrap: apply the UTF-8 mode inside a Python child that lacks it.

The launcher (utf8env/_run.py) puts this folder first on PYTHONPATH and sets
UTF8ENV_BOOTSTRAP to "mode=1" or "mode=strict" (optionally "open_errors=NAME"), or to
"mode=0 stdio_errors=surrogateescape" (3.7's PEP 538 stdio rule without UTF-8 mode), and
keeps the user's
own PYTHONPATH, if any, in UTF8ENV_PYTHONPATH; site.py then imports this module as
`sitecustomize`. It:
  (a) restores PYTHONPATH and removes UTF8ENV_BOOTSTRAP, so children do not inherit it;
  (b) removes this folder from sys.path;
  (c) imports ../reconfigure.py and applies the mode;
  (d) runs the user's own sitecustomize, if one is further on sys.path.
This folder holds nothing but this file: while it is on sys.path, every module in it is
importable by the user's program, and would shadow the user's own module of that name.

Python 3.6 syntax, standard library only. A failure here never stops the user's program:
one line "utf8env: bootstrap: ..." on file descriptor 2, and on.
"""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_VARIABLE = "UTF8ENV_BOOTSTRAP"
_PYTHONPATH = "UTF8ENV_PYTHONPATH"
_CODE = "UTF8ENV_CODE"
_code = None        # the -c command the launcher passed as bytes (see run_command)
_report = None      # what reconfigure.apply() did, for the curious


def _say(message):
    try:
        os.write(2, ("utf8env: bootstrap: %s\n" % message).encode("ascii", "backslashreplace"))
    except OSError:
        pass


def _request():
    """The launcher's request, after restoring the environment it came through (a).
    UTF8ENV_BOOTSTRAP is words such as "mode=1 open_errors=strict" (no JSON: importing json
    costs ~8 ms on 3.6, paid by every child); UTF8ENV_PYTHONPATH, when present, is the
    user's own PYTHONPATH."""
    global _code
    raw = os.environ.pop(_VARIABLE, None)
    original = os.environ.pop(_PYTHONPATH, None)
    _code = os.environ.pop(_CODE, None)
    if original is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = original
    if raw is None:
        raise ValueError("%s is not set: the UTF-8 mode is not applied" % _VARIABLE)
    request = dict(word.partition("=")[::2] for word in raw.split())
    mode = {"0": 0, "1": 1, "strict": "strict"}.get(request.get("mode"))
    if mode is None or (mode == 0 and not request.get("stdio_errors")):
        raise ValueError("%s=%r: expected mode=1, mode=strict or mode=0 stdio_errors=NAME"
                         % (_VARIABLE, raw))
    return mode, request


def _forget_folder():
    """(b) Take this folder off sys.path (site made the entries absolute)."""
    here = os.path.normcase(os.path.realpath(_HERE))
    keep = []
    for entry in sys.path:
        try:
            same = os.path.normcase(os.path.realpath(entry or os.curdir)) == here
        except (TypeError, ValueError, OSError):
            same = False
        if not same:
            keep.append(entry)
    sys.path[:] = keep
    sys.path_importer_cache.pop(_HERE, None)


def _apply(mode, request):
    """(c) ../reconfigure.py (and the ../../_engine/textnames.py it imports), imported from
    their folders, then renamed: utf8env itself may not be importable here, or be another
    copy of it. Plain imports, their bytecode cached as any module's; for that moment only,
    the folders are first on sys.path and their names are free (a module the user's site
    already imported under such a name is set aside and put back)."""
    global _report
    folder = os.path.dirname(_HERE)
    folders = [folder, os.path.join(os.path.dirname(folder), "_engine")]
    names = ("reconfigure", "textnames")
    aside = {name: sys.modules.pop(name) for name in names if name in sys.modules}
    sys.path[0:0] = folders
    try:
        import reconfigure as module
    finally:
        del sys.path[:len(folders)]
        for entry in folders:
            sys.path_importer_cache.pop(entry, None)
        for name in names:
            if name in sys.modules:
                # Kept importable: open() and getpreferredencoding() become its functions.
                sys.modules["_utf8env_" + name] = sys.modules.pop(name)
        sys.modules.update(aside)
    if mode == 0:       # no UTF-8 mode: only PEP 538's stdio error handler
        _report = module.apply_stdio_errors(request["stdio_errors"])
    else:
        _report = module.apply(mode, open_errors=request.get("open_errors") or "strict")


def _run():
    try:
        mode, request = _request()
    except Exception as error:      # never stop the user's program
        _say("%s: %s" % (type(error).__name__, error))
        mode = None
    try:
        _forget_folder()
    except Exception as error:
        _say("%s: %s" % (type(error).__name__, error))
    if mode is not None:
        try:
            _apply(mode, request)
        except Exception as error:
            _say("%s: %s" % (type(error).__name__, error))


def _chain():
    """(d) The user's own sitecustomize, imported as site.py would: this module leaves
    sys.modules, so `import sitecustomize` searches the rest of sys.path. Its errors
    propagate to site.py, which reports them exactly as without the bootstrap."""
    me = sys.modules.pop("sitecustomize", None)
    try:
        import sitecustomize    # noqa: F401 (the user's; it replaces this one in sys.modules)
    except ImportError as error:
        if getattr(error, "name", None) != "sitecustomize":
            raise
        # None found: importlib expects a module under the name it is importing.
        if me is not None:
            sys.modules["sitecustomize"] = me


def run_command():
    """Run the -c command the launcher passed in UTF8ENV_CODE (hex: its bytes), decoded as
    UTF-8 as PEP 540's UTF-8 mode decodes the command line, in __main__ as `python -c`
    runs it; 3.6 refused to decode it itself. It is called from
    `python3.6 -c "__import__('_utf8env_bootstrap').run_command()"`, so sys.argv is already
    ['-c', ARGS...] as 3.6 decoded them. A traceback shows the command's frames only, as
    without the launcher: the frames of this call are left out of it."""
    if _code is None:
        raise SystemExit("utf8env: bootstrap: %s is missing: nothing to run" % _CODE)
    source = bytes.fromhex(_code).decode("utf-8", "surrogateescape")
    try:
        code = compile(source, "<string>", "exec")
    except SyntaxError as error:
        # As -c shows it: no traceback. The display reads the exception's own traceback.
        sys.excepthook(type(error), error.with_traceback(None), None)
        raise SystemExit(1)
    except UnicodeEncodeError as error:
        # What UTF-8 mode's Python says of a command holding undecodable bytes.
        os.write(2, ("Unable to decode the command from the command line:\n%s: %s\n"
                     % (type(error).__name__, error)).encode("utf-8", "backslashreplace"))
        raise SystemExit(1)
    previous = sys.excepthook

    def excepthook(kind, value, tb):
        start = tb
        while start is not None and start.tb_frame.f_code is not code:
            start = start.tb_next
        if start is not None:       # the display reads the exception's own traceback
            tb = start
            value = value.with_traceback(start) if isinstance(value, BaseException) else value
        previous(kind, value, tb)

    sys.excepthook = excepthook
    exec(code, sys.modules["__main__"].__dict__)


sys.modules["_utf8env_bootstrap"] = sys.modules.get(__name__)
_run()
_chain()
