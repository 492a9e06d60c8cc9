"""The two runs of a test suite in a non-UTF-8 locale world: UTF-8 mode off (today's
behaviour) and on (Python 3.15's, PEP 686), each interpreter started with
`-X warn_default_encoding` and the plugin asked (`--utf8env-json`), each run in its own
temporary folder holding a copy of the project, run in parallel when cores allow
(matrix/worlds.py: one mount namespace per world, process groups killed at the end).

The runs inherit this process's environment, less every locale and Python text
variable, plus the environment set's. A Python without pytest is lent this utf8env's
(pure-Python) pytest on PYTHONPATH; utf8env itself (the plugin) always is.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from ..errors import UsageError
from ..matrix import cells, environments, worlds
from .results import PEP686, TODAY

DEFAULT_WORLD = "latin1"
DEFAULT_TIMEOUT = 900.0
# Every environment set but utf8-mode (which forces the mode both runs set themselves).
WORLD_NAMES = tuple(n for n in environments.ENV_SET_NAMES if n != "utf8-mode")
PLUGIN = "utf8env.readiness.plugin"
_PACKAGES = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# pytest and what it imports (pure Python), lent to an interpreter that has none.
_LENT = ("pytest", "_pytest", "pluggy", "iniconfig", "packaging", "pygments", "py",
         "exceptiongroup", "tomli", "xdist", "execnet")
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


def default_pythons(found):
    """The interpreters to run when no --python is given: Python 3.15 (the Debian chroot's
    where it is installed)."""
    chosen = [i for i in found if i.version == "3.15"]
    if not chosen:
        raise UsageError("readiness: no Python 3.15 found (pyenv, or the Debian chroot "
                         "UTF8ENV_DEBIAN_ROOT); give --python PATH (3.10+ for EncodingWarning)")
    return chosen[:1]


def base_environ(environ):
    """This process's environment without any locale or Python text variable."""
    return {k: v for k, v in environ.items()
            if k not in _TEXT_VARIABLES and not k.startswith("LC_")}


def _has_pytest(interp, environ):
    try:
        proc = subprocess.run(list(interp.argv) + [
            "-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec('pytest') is None)"],
            env=environ,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0


_FIND = r"""
import csv, importlib.util, json, os, sys


def tops(info):
    # The top-level names a .dist-info (RECORD) or .egg-info (top_level.txt) installed.
    names = set()
    try:
        with open(os.path.join(info, "RECORD"), encoding="utf-8", newline="") as f:
            for row in csv.reader(f):
                top = row[0].replace(os.sep, "/").split("/")[0] if row else ""
                names.add(top[:-3] if top.endswith(".py") else top)
    except OSError:
        pass
    try:
        with open(os.path.join(info, "top_level.txt"), encoding="utf-8") as f:
            names.update(line.strip() for line in f)
    except OSError:
        pass
    return names


found, homes = [], {}
for name in sys.argv[1:]:
    spec = importlib.util.find_spec(name)
    if spec is not None and spec.origin and spec.origin not in ("built-in", "frozen"):
        path = (spec.submodule_search_locations[0] if spec.submodule_search_locations
                else spec.origin)
        found.append(path)
        homes.setdefault(os.path.dirname(path), set()).add(name)
# Each lent package's metadata, from the folder it came from: pytest and pluggy read
# their own versions (and pytest its plugins' entry points) with importlib.metadata.
for home, names in sorted(homes.items()):
    for entry in sorted(os.listdir(home)):
        info = os.path.join(home, entry)
        if (entry.endswith((".dist-info", ".egg-info")) and os.path.isdir(info)
                and tops(info) & names):
            found.append(info)
print(json.dumps(found))
"""


def _lendable():
    """The folders and files of pytest and what it imports, and the .dist-info (or
    .egg-info) folders of their distributions, as this interpreter finds them with its
    site-packages (utf8env itself may run without site: -I -S)."""
    proc = subprocess.run([sys.executable, "-c", _FIND] + list(_LENT), stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, env=base_environ(os.environ), timeout=120)
    try:
        return json.loads(proc.stdout.decode("utf-8"))
    except ValueError:
        return []


def _link_or_copy(source, target):
    """A hard link where the chroot is on the same filesystem (9 MB of pygments cost
    nothing then), else a copy."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _lend(folder, with_pytest):
    """A folder for PYTHONPATH holding utf8env (and pytest when `with_pytest`): links on
    the host, copies inside a chroot (where host paths do not exist)."""
    site = folder.path("site")
    os.mkdir(site)
    sources = [os.path.join(_PACKAGES, "utf8env")]
    if with_pytest:
        sources += _lendable()
    for source in sources:
        target = os.path.join(site, os.path.basename(source))
        if folder.root == "/":
            os.symlink(source, target)
        elif os.path.isdir(source):
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"),
                            copy_function=_link_or_copy)
        else:
            _link_or_copy(source, target)
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
                lent[interp.root] = _lend(holder, not _has_pytest(interp, base))
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


def execute(planned, world, workers=None):
    """The worlds.Run of each planned job, run in parallel (at most `workers`: the cores,
    and never more than the jobs)."""
    es = env_set(world)
    cores = os.cpu_count() or 1
    workers = max(1, min(workers or cores, len(planned)))
    roots = sorted({"/"} | {interp.root for interp, _, _, _ in planned}, key=lambda r: (r != "/", r))
    [runs] = worlds.run_batches([(es.world, [job for _, _, _, job in planned])], roots,
                                workers=workers)
    return runs, workers


def read_record(folder):
    """The plugin's JSON record of one run, or None."""
    try:
        with open(folder.path("record.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
