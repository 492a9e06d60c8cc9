"""utf8env readiness's recorder in a process the suite starts (sitecustomize.py imports
it, on 3.10+, when UTF8ENV_READINESS_CHILDREN names a record folder): every
EncodingWarning is appended, one JSON object a line, to FOLDER/<pid>.jsonl, with the test
running when the process started it (UTF8ENV_READINESS_TEST, which the recorder sets
around each test), instead of being shown. The process otherwise behaves as it would:
other warnings go to the showwarning it had, and its own filters still apply, but
EncodingWarning is always shown (so recorded), whatever the filters of -W or
PYTHONWARNINGS (a filter the program sets itself later wins). Standard library only;
never imports utf8env (the process may not be able to).

The unittest runner of readiness (utf8env.readiness._unittest_runner) records its own
process the same way: its own pid's file is the main process, the others are children.
"""
import json
import os
import warnings

FOLDER = "UTF8ENV_READINESS_CHILDREN"
TEST = "UTF8ENV_READINESS_TEST"

_original = None        # the showwarning this process had
_active = False
_places = []


def start():
    """Record this process's EncodingWarnings (once; no-op without the folder variable)."""
    global _original, _active
    if not os.environ.get(FOLDER):
        return
    if _original is None:
        _original = warnings.showwarning
        warnings.showwarning = _showwarning
    _active = True
    warnings.filterwarnings("always", category=EncodingWarning)


def stop():
    """Show EncodingWarnings again as before start(), and forget what this process
    recorded: it runs tests (an xdist worker, a suite's own pytest), its recorder takes over."""
    global _active
    _active = False
    if _original is not None and warnings.showwarning is _showwarning:
        warnings.showwarning = _original
    folder = os.environ.get(FOLDER)
    if folder:
        try:
            os.remove(os.path.join(folder, "%d.jsonl" % os.getpid()))
        except OSError:
            pass


def _showwarning(message, category, filename, lineno, file=None, line=None):
    if _active and isinstance(category, type) and issubclass(category, EncodingWarning):
        try:
            record(message, filename, lineno)
            return
        except Exception:
            pass
    return _original(message, category, filename, lineno, file, line)


def record(message, filename, lineno):
    folder = os.environ.get(FOLDER)
    if not folder:
        raise OSError("no record folder")
    filename = str(filename)
    path = filename if filename.startswith("<") else os.path.abspath(filename)
    entry = {"path": path, "line": lineno, "message": str(message), "origin": _origin(path),
             "test": os.environ.get(TEST) or None}
    with open(os.path.join(folder, "%d.jsonl" % os.getpid()), "a", encoding="utf-8") as f:
        f.write(json.dumps(entry, sort_keys=True) + "\n")


def _origin(path):
    """Where the file belongs for this process's interpreter (it may not be the suite's):
    utf8env/readiness/_sites.py, loaded by its path beside this folder."""
    if not _places:
        import importlib.util
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        spec = importlib.util.spec_from_file_location("_utf8env_readiness_sites",
                                                      os.path.join(here, "_sites.py"))
        sites = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sites)
        _places.extend([sites, sites.places_of_this_python()])
    sites, places = _places
    return sites.origin(path, places)


def read(folder):
    """{pid: [entry]} of the record folder (lines cut short by a killed process skipped)."""
    found = {}
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return found
    for name in names:
        if not name.endswith(".jsonl"):
            continue
        entries = found.setdefault(int(name[:-len(".jsonl")]), [])
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                for text in f:
                    try:
                        entries.append(json.loads(text))
                    except ValueError:
                        pass
        except OSError:
            pass
    return found
