"""utf8env bootstrap: apply the UTF-8 mode inside a Python child that lacks it.

The launcher (utf8env/launch.py) puts this folder first on PYTHONPATH and sets
UTF8ENV_BOOTSTRAP to a JSON object {"mode": 1 or "strict", "open_errors": "strict",
"pythonpath": the user's own PYTHONPATH or null}; site.py then imports this module as
`sitecustomize`. It:
  (a) restores PYTHONPATH and removes UTF8ENV_BOOTSTRAP, so children do not inherit it;
  (b) removes this folder from sys.path;
  (c) loads ../reconfigure.py by file path and applies the mode;
  (d) runs the user's own sitecustomize, if one is further on sys.path.

Python 3.6 syntax, standard library only. A failure here never stops the user's program:
one line "utf8env: bootstrap: ..." on file descriptor 2, and on.
"""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_VARIABLE = "UTF8ENV_BOOTSTRAP"
report = None       # what reconfigure.apply() did, for the curious


def _say(message):
    try:
        os.write(2, ("utf8env: bootstrap: %s\n" % message).encode("ascii", "backslashreplace"))
    except OSError:
        pass


def _loads(text):
    """json.loads() for the launcher's flat object (strings, integers, null, booleans).
    Importing json costs ~8 ms on 3.6 (its regular expressions), paid by every child;
    anything unexpected goes to the real json module."""
    try:
        from _json import scanstring
        values = {"null": None, "true": True, "false": False}
        result, i, end = {}, 1, len(text)

        def skip(i):
            while i < end and text[i] in " \t\r\n":
                i += 1
            return i
        i = skip(0)
        if text[i] != "{":
            raise ValueError
        i = skip(i + 1)
        while text[i] != "}":
            if text[i] != '"':
                raise ValueError
            key, i = scanstring(text, i + 1, True)
            i = skip(i)
            if text[i] != ":":
                raise ValueError
            i = skip(i + 1)
            if text[i] == '"':
                value, i = scanstring(text, i + 1, True)
            else:
                j = i
                while j < end and text[j] not in ",} \t\r\n":
                    j += 1
                word, i = text[i:j], j
                value = values[word] if word in values else int(word)
            result[key] = value
            i = skip(i)
            if text[i] == ",":
                i = skip(i + 1)
                if text[i] == "}":
                    raise ValueError
            elif text[i] != "}":
                raise ValueError
        if skip(i + 1) != end:
            raise ValueError
        return result
    except (ImportError, ValueError, IndexError, KeyError, TypeError):
        import json
        return json.loads(text)


def _request():
    """The launcher's request, after restoring the environment it came through (a)."""
    raw = os.environ.pop(_VARIABLE, None)
    if raw is None:
        raise ValueError("%s is not set: the UTF-8 mode is not applied" % _VARIABLE)
    request = _loads(raw)
    if not isinstance(request, dict):
        raise ValueError("%s: expected a JSON object" % _VARIABLE)
    original = request.get("pythonpath")
    if original is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = original
    mode = request.get("mode", 1)
    if mode not in (1, "strict") or isinstance(mode, bool):
        raise ValueError("%s: mode %r: expected 1 or \"strict\"" % (_VARIABLE, mode))
    return mode, request.get("open_errors") or "strict"


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


def _apply(mode, open_errors):
    """(c) ../reconfigure.py, by file path: utf8env itself may not be importable."""
    global report
    # importlib.util.spec_from_file_location and module_from_spec are these frozen
    # functions, already loaded: importing importlib.util costs ~2 ms on 3.6.
    external = sys.modules.get("_frozen_importlib_external")
    bootstrap = sys.modules.get("_frozen_importlib")
    if external is None or bootstrap is None:
        import importlib.util as external
        bootstrap = external
    path = os.path.join(os.path.dirname(_HERE), "reconfigure.py")
    spec = external.spec_from_file_location("_utf8env_reconfigure", path)
    module = bootstrap.module_from_spec(spec)
    spec.loader.exec_module(module)
    # Kept importable: the module holds the stdio wrappers a 3.6 rewrap replaced.
    sys.modules["_utf8env_reconfigure"] = module
    report = module.apply(mode, open_errors=open_errors)


def _run():
    try:
        mode, open_errors = _request()
    except Exception as error:      # never stop the user's program
        _say("%s: %s" % (type(error).__name__, error))
        mode = None
    try:
        _forget_folder()
    except Exception as error:
        _say("%s: %s" % (type(error).__name__, error))
    if mode is not None:
        try:
            _apply(mode, open_errors)
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


_run()
_chain()
