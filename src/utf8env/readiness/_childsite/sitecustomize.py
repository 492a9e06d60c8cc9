# utf8env readiness: the sitecustomize of the Python processes a recorded test suite
# starts (its PYTHONPATH holds this folder while `pytest --utf8env` or the unittest
# runner records). Inert unless UTF8ENV_READINESS_CHILDREN names a record folder and the
# interpreter has EncodingWarning (3.10+): then every EncodingWarning of the process is
# written there (with the test it ran in) instead of to stderr. Either way the next
# sitecustomize on sys.path (the user's, a distribution's) runs after this one.
# Any Python can read this file (a suite may start a 2.7): 2.7 syntax, no utf8env import.
import os as _os
import sys as _sys


def _utf8env_readiness_start(here):
    if not _os.environ.get("UTF8ENV_READINESS_CHILDREN") or _sys.version_info < (3, 10):
        return
    try:
        import _utf8env_readiness_child
        _utf8env_readiness_child.start()
    except Exception:
        pass


def _utf8env_readiness_chain(here):
    """Run the sitecustomize this one hides, if any: the next one on sys.path."""
    path = [p for p in _sys.path if _os.path.realpath(p or ".") != here]
    if _sys.version_info >= (3, 4):
        import importlib.machinery
        import importlib.util
        spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
        if spec is None or spec.loader is None:
            return
        module = importlib.util.module_from_spec(spec)
        _sys.modules["sitecustomize"] = module
        spec.loader.exec_module(module)
    else:
        import imp
        try:
            found = imp.find_module("sitecustomize", path)
        except ImportError:
            return
        try:
            imp.load_module("sitecustomize", *found)
        finally:
            if found[0]:
                found[0].close()


_here = _os.path.realpath(_os.path.dirname(_os.path.abspath(__file__)))
_utf8env_readiness_start(_here)
_utf8env_readiness_chain(_here)
