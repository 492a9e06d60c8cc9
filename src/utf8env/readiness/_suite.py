"""The two runs of a test suite in a non-UTF-8 locale world: UTF-8 mode off (today's
behaviour) and on (Python 3.15's, PEP 686), each interpreter started with
`-X warn_default_encoding` and the plugin asked (`--utf8env-json`), each run in its own
temporary folder holding a copy of the project, run in parallel when cores allow
(utf8env._worlds: one runner per world, process groups killed at the end).

The runs inherit this process's environment, less every locale and Python text
variable, plus the environment set's. Each runs the interpreter's own pytest (the
user's venv): a Python without pytest is refused with one line saying how to give it
one. Only utf8env itself is put on PYTHONPATH, for its plugin (standard library only,
loaded by module name: it needs no metadata); nothing else is lent.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile

from .._errors import UsageError
from ..matrix import _cells as cells, _discovery as discovery, _environments as environments
from .. import _worlds as worlds
from ._results import PEP686, TODAY

DEFAULT_WORLD = "latin1"
DEFAULT_TIMEOUT = 900.0
# Every environment set but utf8-mode (which forces the mode both runs set themselves).
WORLD_NAMES = tuple(n for n in environments.ENV_SET_NAMES if n != "utf8-mode")
WORLD_HELP = ("the locale world (default latin1): %s; %s are %s" % (
    ", ".join(n for n in WORLD_NAMES if n not in worlds.WINDOWS), ", ".join(worlds.WINDOWS),
    worlds.WINDOWS_NOTE))
PLUGIN = "utf8env.readiness.plugin"
_PACKAGES = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_NOT_COPIED = (".git", ".hg", ".svn", "__pycache__", ".pytest_cache", ".tox", ".nox", ".venv",
               "venv", ".mypy_cache", ".ruff_cache", "*.egg-info", "node_modules")
_TEXT_VARIABLES = ("LANG", "LANGUAGE", "PYTHONUTF8", "PYTHONCOERCECLOCALE", "PYTHONIOENCODING",
                   "PYTHONWARNDEFAULTENCODING", "PYTHONLEGACYWINDOWSFSENCODING",
                   "PYTHONLEGACYWINDOWSSTDIO", "PYTHONPYCACHEPREFIX", "LOCPATH")


class Folder(object):
    """A temporary folder inside `root` ("/" or a chroot), as cells.Cell: `work` is the
    working directory (the project's copy), `inside()` a path as the interpreter sees it."""

    def __init__(self, root, name):
        base = os.path.join(root, "tmp") if root != "/" else tempfile.gettempdir()
        self.root = root
        self.dir = tempfile.mkdtemp(prefix="utf8env-readiness-%s-" % name, dir=base)
        self.work = os.path.join(self.dir, "project")

    def inside(self, path):
        if self.root == "/":
            return path
        return "/" + os.path.relpath(path, os.path.realpath(self.root))

    def path(self, name):
        return os.path.join(self.dir, name)

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def env_set(name):
    if name not in WORLD_NAMES:
        raise UsageError("--world %r: expected one of %s" % (name, ", ".join(WORLD_NAMES)))
    return next(e for e in environments.ENV_SETS if e.name == name)


# -- the default target: a Python 3.15 found where users install one -------------------

def _newest(paths):
    """The path whose version folder sorts newest (3.15.2 over 3.15.0, a release over
    its candidates), or None."""
    def key(path):
        folder = path.split(os.sep)[-3]
        numbers = [int(n) for n in re.findall(r"\d+", folder.split("3.15", 1)[-1])[:1]]
        release = re.search(r"3\.15\.\d+(?:[-+]|$)", folder) is not None
        return (release, numbers, folder)
    return max(paths, key=key) if paths else None


def _pyenv_root(environ):
    if environ.get("PYENV_ROOT"):
        return environ["PYENV_ROOT"]
    if shutil.which("pyenv", path=environ.get("PATH", os.defpath)):
        try:
            out = subprocess.run(["pyenv", "root"], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, env=environ, timeout=30).stdout
            if out.strip():
                return os.fsdecode(out.strip())
        except (OSError, subprocess.SubprocessError):
            pass
    home = environ.get("HOME")
    return os.path.join(home, ".pyenv") if home else None


def _uv_folder(environ):
    if environ.get("UV_PYTHON_INSTALL_DIR"):
        return environ["UV_PYTHON_INSTALL_DIR"]
    data = environ.get("XDG_DATA_HOME") or (
        os.path.join(environ["HOME"], ".local", "share") if environ.get("HOME") else None)
    return os.path.join(data, "uv", "python") if data else None


def _uv_find(environ):
    uv = shutil.which("uv", path=environ.get("PATH", os.defpath))
    if not uv:
        return None
    try:
        proc = subprocess.run([uv, "python", "find", "--no-python-downloads", "3.15"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environ,
                              timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    found = os.fsdecode(proc.stdout.strip())
    return found if proc.returncode == 0 and found else None


def python_315(environ):
    """(the path of a Python 3.15, or None; the places looked in, in words), looking
    where users install one: python3.15 on PATH, pyenv's versions, uv's Pythons."""
    looked = ["python3.15 on PATH"]
    found = shutil.which("python3.15", path=environ.get("PATH", os.defpath))
    if not found:
        root = _pyenv_root(environ)
        if root:
            looked.append(os.path.join(root, "versions", "3.15*"))
            found = _newest([p for p in glob.glob(os.path.join(
                glob.escape(root), "versions", "3.15*", "bin", "python3.15"))
                if os.access(p, os.X_OK)])
    if not found and shutil.which("uv", path=environ.get("PATH", os.defpath)):
        looked.append("uv python find 3.15")
        found = _uv_find(environ)
    if not found:
        folder = _uv_folder(environ)
        if folder:
            looked.append(os.path.join(folder, "cpython-3.15*"))
            found = _newest([p for p in glob.glob(os.path.join(
                glob.escape(folder), "cpython-3.15*", "bin", "python3.15"))
                if os.access(p, os.X_OK)])
    return found, looked


def default_pythons(environ):
    """The interpreter to run when no --python is given: a Python 3.15 where users
    install one (python_315), else the one of the chroot UTF8ENV_DEBIAN_ROOT names, if
    any. UsageError, naming the places looked in, when there is none."""
    found, looked = python_315(environ)
    if found:
        interp = discovery.named([found])
        if interp[0].version != "3.15":
            raise UsageError("readiness: %s (found as %s) is Python %s, not 3.15; give --python "
                             "PATH" % (found, looked[-1], interp[0].version))
        return interp
    chroot = [i for i in discovery.interpreters(environ.get("UTF8ENV_DEBIAN_ROOT", ""))
              if i.version == "3.15" and i.root != "/"]
    if chroot:
        return chroot[:1]
    raise UsageError("readiness: no Python 3.15 found (looked for %s); give --python PATH "
                     "(3.10+ for EncodingWarning)" % ", ".join(looked))


def base_environ(environ):
    """This process's environment without any locale or Python text variable."""
    return {k: v for k, v in environ.items()
            if k not in _TEXT_VARIABLES and not k.startswith("LC_")}


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


def _lend(folder):
    """A folder for PYTHONPATH holding this utf8env (for its plugin): a link on the host,
    a copy inside a chroot (where host paths do not exist)."""
    site = folder.path("site")
    os.mkdir(site)
    source = os.path.join(_PACKAGES, "utf8env")
    target = os.path.join(site, "utf8env")
    if folder.root == "/":
        os.symlink(source, target)
    else:
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    return folder.inside(site)


def plan(project, pythons, world, pytest_args, environ, timeout):
    """[(interp, mode, folder, Job)] for both runs of every interpreter, and every folder
    made (to remove). The project is copied once per run."""
    es = env_set(world)
    base = base_environ(environ)
    planned, folders = [], []
    try:
        lent = {}
        for interp in pythons:
            if interp.root not in lent:
                holder = Folder(interp.root, "site")
                folders.append(holder)
                lent[interp.root] = _lend(holder)
            for mode, utf8 in ((TODAY, "0"), (PEP686, "1")):
                folder = Folder(interp.root, mode)
                folders.append(folder)
                shutil.copytree(project, folder.work, symlinks=True,
                                ignore=shutil.ignore_patterns(*_NOT_COPIED))
                env = environments.program_environment(interp, es, utf8)
                argv = cells.python_command(env, folder) + [
                    "-m", "pytest", "-p", PLUGIN, "--utf8env-json=" + folder.inside(folder.path("record.json")),
                    "--junitxml=" + folder.inside(folder.path("junit.xml")), "-o", "junit_logging=all",
                    "--basetemp=" + folder.inside(folder.path("tmp"))] + list(pytest_args)
                run_env = dict(base)
                run_env.update(es.variables)
                run_env["PYTHONUTF8"] = utf8          # the suite's own Python children too
                run_env["PYTHONPATH"] = os.pathsep.join(
                    [lent[interp.root]] + ([environ["PYTHONPATH"]] if environ.get("PYTHONPATH") else []))
                run_env["PYTHONPYCACHEPREFIX"] = folder.inside(folder.path("pycache"))
                if env.launcher:
                    run_env["XDG_CACHE_HOME"] = folder.inside(folder.path("cache"))
                job = worlds.Job(argv=argv, env=run_env, timeout=timeout, cwd=folder.work)
                planned.append((interp, mode, folder, job))
    except BaseException:
        for folder in folders:
            folder.remove()
        raise
    return planned, folders


def roots_of(pythons):
    return sorted({"/"} | {interp.root for interp in pythons}, key=lambda r: (r != "/", r))


def world_problem(world, pythons):
    """None when the world of the environment set `world` can be made here for
    `pythons`, else one line: the world, why not, and what would make it possible."""
    es = env_set(world)
    return worlds.problems([es.world], roots_of(pythons)).get(es.world)


def execute(planned, world, workers=None, via=None):
    """The worlds.Run of each planned job, run in parallel (at most `workers`: the cores,
    and never more than the jobs). `via`: _worlds.VIAS (None: the least privileged way)."""
    es = env_set(world)
    cores = os.cpu_count() or 1
    workers = max(1, min(workers or cores, len(planned)))
    roots = roots_of(interp for interp, _, _, _ in planned)
    [runs] = worlds.run_batches([(es.world, [job for _, _, _, job in planned])], roots,
                                workers=workers, via=via)
    return runs, workers


def read_record(folder):
    """The plugin's JSON record of one run, or None."""
    try:
        with open(folder.path("record.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
