"""The interpreters readiness runs a suite with (and fix --prove): the default one, a
Python 3.15 found where users install one; whether each has pytest of its own (one line
saying how to give it one, where not); whether it imports a src-layout project's package
from the project itself (then the runs put their copy's src/ first); and the environment
they are asked and run in: the user's, less every locale and Python text variable."""
import json
import os
import subprocess

from .._errors import UsageError
from .. import _discovery as discovery

# PYTHONPYCACHEPREFIX too: a user's prefix would keep the bytecode of every temporary copy.
_TEXT_VARIABLES = ("LANG", "LANGUAGE", "PYTHONUTF8", "PYTHONCOERCECLOCALE", "PYTHONIOENCODING",
                   "PYTHONWARNDEFAULTENCODING", "PYTHONLEGACYWINDOWSFSENCODING",
                   "PYTHONLEGACYWINDOWSSTDIO", "PYTHONPYCACHEPREFIX", "LOCPATH")
# What a running pytest (and pytest-xdist's workers) set for their own tests: readiness
# started from inside one (a test of a tool, a worker) would hand them to the runs,
# whose plugins then take themselves for a worker's and record nothing.
_RUNNER_VARIABLES = ("PYTEST_CURRENT_TEST", "PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT",
                     "PYTEST_XDIST_TESTRUNUID")


def base_environ(environ):
    """This process's environment without any locale or Python text variable."""
    return {k: v for k, v in environ.items()
            if k not in _TEXT_VARIABLES and k not in _RUNNER_VARIABLES
            and not k.startswith("LC_")}


# -- the default target: a Python 3.15 found where users install one -------------------

def python_315(environ):
    """(the Interpreter of a Python 3.15, or None; the places looked in, in words), looking
    where users have Pythons (matrix's discovery, with `environ`'s PATH, HOME...), the
    chroot UTF8ENV_DEBIAN_ROOT names last."""
    chroot = discovery.debian_root(environ)
    found = [i for i in discovery.interpreters(chroot, environ) if i.version == "3.15"]
    return (found[0] if found else None), discovery.looked(chroot, environ)


def default_pythons(environ):
    """The interpreter to run when no --python is given: a Python 3.15 where users have
    one (python_315). UsageError, naming the places looked in, when there is none; a
    python3.15 found that is another version, or does not start, is said."""
    found, looked = python_315(environ)
    if found:
        return [found]
    named = discovery.found_as("python3.15", discovery.debian_root(environ), environ)
    if named:
        path, origin, version, why = named[0]
        raise UsageError("readiness: %s (python3.15 from %s) %s; give --python PATH" % (
            path, origin, why or "is Python %s, not 3.15" % version))
    raise UsageError("readiness: no Python 3.15 found (looked in %s); give --python PATH "
                     "(3.10+ for EncodingWarning)" % ", ".join(looked))


# -- the target's own pytest -------------------------------------------------------------

_ASK = r"""
import json, os, sys, sysconfig
try:
    import importlib.util
    has = importlib.util.find_spec("pytest") is not None
except Exception:
    has = False
managed = os.path.isfile(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))
print(json.dumps({"pytest": has, "venv": sys.prefix != getattr(sys, "base_prefix", sys.prefix),
                  "managed": managed}))
"""


def pytest_problem(interp, environ):
    """None when `interp` has pytest of its own, else one line saying how to give it one."""
    name = interp.argv[-1]
    try:
        proc = subprocess.run(list(interp.argv) + ["-I", "-c", _ASK], env=environ,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    except (OSError, subprocess.SubprocessError) as error:
        return "readiness: %s cannot be asked whether it has pytest: %s" % (name, error)
    try:
        seen = json.loads(proc.stdout.decode("utf-8").strip().splitlines()[-1])
    except (ValueError, IndexError, UnicodeDecodeError):
        tail = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        return "readiness: %s did not say whether it has pytest (exit %d)%s" % (
            name, proc.returncode, (": " + tail[0]) if tail else "")
    if seen["pytest"]:
        return None
    if seen["managed"] and not seen["venv"]:
        # PEP 668: pip refuses to install into a distribution's own Python.
        return ("readiness: %s has no pytest, and its distribution manages its packages "
                "(PEP 668): make a venv with pytest (%s -m venv VENV && VENV/bin/python -m pip "
                "install pytest) and give --python VENV/bin/python" % (name, name))
    return ("readiness: %s has no pytest: install it there (%s -m pip install pytest) and run "
            "again" % (name, name))


_WHERE = r"""
import importlib.util, json, os, sys
sys.path[:] = [p for p in sys.path if p]         # not the folder this runs in
found = {}
for name in sys.argv[1:]:
    try:
        spec = importlib.util.find_spec(name)
    except Exception:
        spec = None
    if spec is not None:
        places = list(spec.submodule_search_locations or []) + [spec.origin]
        found[name] = [os.path.realpath(p) for p in places if isinstance(p, str)]
print(json.dumps(found))
"""
_SRC_FIRST = {}


def _src_names(src):
    """The top-level packages and modules of a src/ folder."""
    try:
        names = sorted(os.listdir(src))
    except OSError:
        return []
    out = []
    for name in names:
        path = os.path.join(src, name)
        if name.endswith(".py") and os.path.isfile(path):
            out.append(name[:-3])
        elif (os.path.isdir(path) and name.isidentifier()
              and os.path.isfile(os.path.join(path, "__init__.py"))):
            out.append(name)
    return [n for n in out if n.isidentifier()]


def src_first(project, interp, environ, asked=None):
    """True when the project has a src layout whose package `interp` imports from the
    project itself (an editable install's path or finder, PYTHONPATH): its runs must
    then find their copy's src/ first, or they test the original, never the copy (the
    edits of `fix --prove` and the trials included). Asked once per project and Python
    (`asked`: ask_src_first()'s question, put earlier); never for a chroot's (the project
    is not inside it)."""
    asked = asked or ask_src_first(project, interp, environ)
    if asked is None:
        return False
    key, src, proc = asked
    if proc is not None:
        try:
            out = proc.communicate(timeout=120)[0]
            found = json.loads(out.decode("utf-8").strip().splitlines()[-1])
        except (OSError, subprocess.SubprocessError, ValueError, IndexError,
                UnicodeDecodeError):
            proc.kill()
            proc.communicate()
            found = {}
        real = os.path.realpath(src)
        _SRC_FIRST.setdefault(key, any(p == real or p.startswith(real + os.sep)
                                       for places in found.values() for p in places))
    return _SRC_FIRST[key]


def ask_src_first(project, interp, environ):
    """src_first()'s question put to `interp` now (key, src, the process asking), its
    answer read by src_first(); None when there is nothing to ask."""
    src = os.path.join(project, "src")
    names = _src_names(src) if interp.root == "/" else []
    if not names:
        return None
    key = (os.path.realpath(project), tuple(interp.argv), environ.get("PYTHONPATH"))
    if key in _SRC_FIRST:
        return key, src, None
    try:
        proc = subprocess.Popen(list(interp.argv) + ["-c", _WHERE] + names, cwd="/",
                                env=base_environ(environ), stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:
        _SRC_FIRST[key] = False
        return key, src, None
    return key, src, proc
