"""The processes a recorded suite starts: they record their EncodingWarnings too.

While the suite runs, its environment (os.environ, which the processes it starts
inherit) holds _childsite/ first on PYTHONPATH (its sitecustomize.py starts
_utf8env_readiness_child.py, then runs any sitecustomize it hides), the record folder
(UTF8ENV_READINESS_CHILDREN) and PYTHONWARNDEFAULTENCODING=1 (the flag cannot be set
after an interpreter starts). A process started with -E, -I or -S, or an explicit
environment without these, records nothing. Standard library only, no pytest.
"""
import importlib.util
import os
import shutil
import sys
import tempfile

CHILDSITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_childsite")
FOLDER = "UTF8ENV_READINESS_CHILDREN"
TEST = "UTF8ENV_READINESS_TEST"
FLAG = "PYTHONWARNDEFAULTENCODING"
_SET = ("PYTHONPATH", FOLDER, FLAG)


def child_module():
    """The recorder of a child process (_childsite/_utf8env_readiness_child.py): the one
    this process's sitecustomize already imported, or loaded by its path."""
    name = "_utf8env_readiness_child"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, os.path.join(CHILDSITE, name + ".py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return sys.modules[name]


class Recording(object):
    """The record folder of the children of one suite run, and the environment that
    makes them use it (set by start(), restored by finish())."""

    def __init__(self):
        self.folder = None
        self.saved = None

    def start(self, environ=None):
        environ = os.environ if environ is None else environ
        self.folder = tempfile.mkdtemp(prefix="utf8env-children-")
        self.saved = {k: environ.get(k) for k in _SET}
        environ[FOLDER] = self.folder
        environ["PYTHONPATH"] = os.pathsep.join(
            [CHILDSITE] + ([environ["PYTHONPATH"]] if environ.get("PYTHONPATH") else []))
        environ[FLAG] = "1"
        self.environ = environ
        import atexit
        atexit.register(self.finish)        # also when the run ends without unconfigure

    def entries(self, but=None):
        """[entry] written by the processes, but the one of pid `but`; and its own."""
        others, own = [], []
        for pid, found in sorted(child_module().read(self.folder).items()):
            (own if pid == but else others).extend(found)
        return others, own

    def finish(self):
        if self.saved is None:
            return
        for k, v in self.saved.items():
            if v is None:
                self.environ.pop(k, None)
            else:
                self.environ[k] = v
        self.saved = None
        shutil.rmtree(self.folder, ignore_errors=True)


class running_test(object):
    """Names `test` in UTF8ENV_READINESS_TEST while it runs (a context manager), for the
    processes it starts; only while a Recording is on."""

    def __init__(self, test):
        self.test = test

    def __enter__(self):
        self.on = bool(os.environ.get(FOLDER))
        if self.on:
            self.saved = os.environ.get(TEST)
            os.environ[TEST] = self.test
        return self

    def __exit__(self, *exc):
        if self.on:
            if self.saved is None:
                os.environ.pop(TEST, None)
            else:
                os.environ[TEST] = self.saved
        return False
