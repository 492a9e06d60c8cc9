"""`utf8env readiness --windows [X.Y] [--code-page N] -- pytest ARGS` (or `-- python -m
unittest ARGS`): the two runs (UTF-8
mode off, and on: 3.15's behaviour) on real Windows CPython X.Y (python.org's embeddable
build, _windows/builds.py) under Wine, in the ANSI code page N, reported as on Linux.

Made once into the user's cache (_windows/): the build (checked by its pins), pytest (for
a pytest suite) and the project's requirements as win_amd64 wheels, the code page's
locale, Wine's prefix. Per invocation: a private copy of the prefix per mode, each on a
CPU of its own (_windows/pinned.py) and without Wine's mount manager (wine.NO_MOUNT_MANAGER),
its wineserver and services started before the runs (by a probe that checks the code
page Wine really gives) and killed after them.

The runs are _suite's runs (the same folders, supervisor, progress and record plugins,
reruns, measured advice, comparison and reports), with these differences:

- each run is `wine64 python.exe -X utf8=0|1 [-X warn_default_encoding] -m pytest ...`
  (or -m ..._unittest_runner) behind a shim giving it pipes (_windows/pipe.py), with the variables of Wine's prefix
  and code page (LC_ALL, LOCPATH) and the Windows paths of its files (Z:..., PYTHONPATH
  joined by ';'): this utf8env (for its plugins) and the wheels' site-packages;
- the runs inherit this environment less every locale variable, the Python variables
  that hold Linux paths or text settings, Wine's own, and DISPLAY (a Windows program
  sees every Unix variable);
- after each batch the runs' files say Linux paths again (the record's rootdir and sites:
  the build's standard library "stdlib", the wheels "site-packages"), and their temporary
  folder one way in every output (as on Linux: <tmp> in reports);
- on 3.12+ `import _wmi` fails in the runs (Wine lacks what it calls: it aborted pytest);
- `-p utf8env._windows.seen` (the unittest runner's --utf8env-seen) records the encodings
  each run really had; they are checked
  against utf8env's own win32 rules (decide(), platform win32, the code page): a
  difference is said in the report's world line.
"""
import codecs
import functools
import json
import os
import sys
import time

from .._environment import user_environ
from .._errors import UsageError
from .. import _discovery as discovery, _output as output, _worlds as worlds
from .._engine.policy import Inputs, decide
from .._engine.profiles import OEM_CODE_PAGES, warns_default_encoding
from .._windows import builds, runs, wine, wheels
from . import (_advice as advice, _copies as copies, _report as report, _suite as suite,
               _targets as targets, _unittest_runner as unittest_runner)
from ._guard import (INTERRUPTED, Guard, Interrupted, checked_timeout,
                     project as current_project, pytest_args)
from ._results import PEP686, TODAY

SEEN = suite.LENT + "._windows.seen"
PIPE = runs.PIPE
SUPERVISOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_supervise.py")
WORLD = "windows"
# The Linux side of the runs: no locale world to enter (Wine's code page is each run's
# LC_ALL); the world runner still runs them, in parallel, under its jobserver.
HOST_WORLD = "c-locale"
# Python variables that hold Linux paths (meaningless to Windows CPython) or are set here.
_PATH_VARIABLES = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONPYCACHEPREFIX",
                   "PYTHONEXECUTABLE", "PYTHONUSERBASE", "PYTHONPLATLIBDIR")
_NOT_PASSED = ("DISPLAY", "WAYLAND_DISPLAY", "LOCPATH")
# The runs' prefixes go without Wine's mount manager (wine.NO_MOUNT_MANAGER: every stat()
# is ~5x faster); what that changes is said, for the build's version: os.listdrives() is
# 3.12+, and before it st_dev alone changes (measured: tests/test_readiness_windows.py).
NO_VOLUMES = ", st_dev is 0%s (Wine's mount manager is off)"
LISTDRIVES_FAILS = " and os.listdrives() fails"


def no_volumes(minor):
    """What the world line says the absent mount manager changes for build `minor`."""
    has_listdrives = tuple(int(x) for x in minor.split(".")) >= (3, 12)
    return NO_VOLUMES % (LISTDRIVES_FAILS if has_listdrives else "")


def _say(line):
    output.to_stderr("utf8env: readiness: %s\n" % line)


class Windows(object):
    """One invocation's Windows: the build, the wheels, Wine's private prefix, the lent
    utf8env; plan() makes runs of the shape suite.plan() makes."""

    def __init__(self, minor, code_page, requirements=None, environ=None, say=_say,
                 pytest=True):
        """pytest: False for a unittest suite (no pytest fetched for it)."""
        self.minor, self.code_page, self.requirements = minor, code_page, requirements
        self.pytest = pytest
        self.environ = user_environ() if environ is None else dict(environ)
        self.say = say
        self.prefix = self.holder = None
        self.prefixes = {}
        self.src = False
        self.cpython = builds.build(minor).cpython

    # -- made once, in the cache; then this invocation's prefix --------------------------

    def open(self):
        environ = self.environ
        self.wine = wine.find(environ)
        self.cache = wine.cache_folder(environ)
        self.exe = builds.ensure(self.cache, self.minor, say=self.say)
        self.locpath = wine.locale_folder(self.cache, self.code_page, say=self.say)
        self.site = wheels.site(self.cache, self.minor, self.requirements, environ=environ,
                                say=self.say, pytest=self.pytest)
        base = wine.ensure_prefix(self.wine, self.cache, self.exe, say=self.say)
        self.holder = suite.Folder("/", "site")
        lent = self.holder.path("site")
        os.mkdir(lent)
        os.symlink(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                   os.path.join(lent, suite.LENT))
        self.lent = lent
        runs.hide_wmi(lent, self.minor)
        # A prefix (so a wineserver) per mode: one wineserver serves its clients one call
        # at a time, and two runs' system calls through one made both wait (measured:
        # mistune's two runs at once, 11 s through one server, 5 s through two). Each
        # on a CPU of its own where there are two (_windows/pinned.py says why).
        cpus = wine.cpus()
        for i, utf8 in enumerate(("0", "1")):
            self.prefixes[utf8] = wine.Prefix(self.wine, self.cache, base, self.code_page,
                                              self.locpath,
                                              cpu=cpus[i % len(cpus)] if cpus else None,
                                              mount_manager=False)
        self.prefix = self.prefixes["0"]
        outs = runs.parallel([functools.partial(p.open, self.exe, runs.PROBE)
                              for p in self.prefixes.values()])
        for out in outs:
            self.cpython = runs.probed(out, self.code_page, self.locpath)
        return self

    def close(self):
        runs.parallel([p.close for p in self.prefixes.values()])
        if self.holder is not None:
            self.holder.remove()

    def __enter__(self):
        try:
            return self.open()
        except BaseException:
            self.close()
            raise

    def __exit__(self, *exc):
        self.close()

    def interpreter(self):
        return discovery.Interpreter(version=self.minor, argv=(self.wine.loader, self.exe),
                                     root="/")

    def describe(self, differences=()):
        """The report's world line: which interpreter stood in, where, and what Wine is not."""
        text = ("Windows CPython %s under Wine %s, code page %d, stood in for 3.15 (the run "
                "with UTF-8 mode on); %s" % (self.cpython, self.wine.version, self.code_page,
                                             runs.NOT_SHOWN % ((runs.WMI if runs.needs_no_wmi(
                                                 self.minor) else "") + no_volumes(self.minor))))
        if differences:
            text += ("; the encodings seen differ from utf8env's win32 rules: %s"
                     % "; ".join(differences))
        return text

    def variables(self):
        return {"LC_ALL": wine.locale_name(self.code_page)}

    # -- the runs ----------------------------------------------------------------------------

    def run_environ(self):
        """What every run inherits: this environment less what Windows must not see."""
        base = targets.base_environ(self.environ)
        return {k: v for k, v in base.items()
                if k not in _PATH_VARIABLES and k not in _NOT_PASSED
                and not k.startswith("WINE")}

    def job(self, interp, utf8, stage, pytest_args, base, timeout, extra=()):
        # The files named here are Windows paths on Z:. The reruns' and trials'
        # --utf8env-only=PATH (stage.inside(): a Linux path) works too: Windows takes
        # /tmp/... as a path on the working directory's drive, the copy's, Z:.
        w = wine.windows_path
        argv = [self.wine.loader, self.exe, "-X", "utf8=" + utf8]
        if warns_default_encoding(self.minor):
            argv += ["-X", "warn_default_encoding"]
        if isinstance(pytest_args, unittest_runner.Args):   # `python -m unittest ARGS`
            words = unittest_runner.command(w(stage.path("record.json")),
                                            w(stage.path("junit.xml")),
                                            w(stage.path("progress.jsonl")))
            words[1] = suite.LENT + unittest_runner.MODULE[len("utf8env"):]
            argv += words + [unittest_runner.OPTIONS[4] + w(stage.path("seen.json"))]
        else:
            argv += ["-m", "pytest", "-p", suite.PLUGIN, "-p", suite.PROGRESS, "-p", SEEN,
                     "--utf8env-seen=" + w(stage.path("seen.json")),
                     "--utf8env-json=" + w(stage.path("record.json")),
                     "--utf8env-progress=" + w(stage.path("progress.jsonl")),
                     "--basetemp=" + w(stage.folder.path("tmp"))]
        argv += list(extra) + list(pytest_args)
        env = dict(base)
        env.update(self.prefixes[utf8].environ())
        env["PYTHONUTF8"] = utf8
        env[suite.SEED_VARIABLE] = suite.run_seed()
        env["PYTHONPATH"] = ";".join(([w(os.path.join(stage.work, "src"))] if self.src else [])
                                     + [w(self.lent)] + ([w(self.site)] if self.site else []))
        # -S: the supervisor and the shim are standard library only.
        # The shim (and so Wine) runs on the CPU of its mode's prefix.
        supervised = ([sys.executable, "-I", "-S", SUPERVISOR, stage.path("status.json"),
                       stage.path("stdout"), stage.path("stderr"), repr(float(timeout)),
                       stage.folder.path("stop"), stage.token, "--"]
                      + self.prefixes[utf8].pinned([sys.executable, "-I", "-S", PIPE, "--"]
                                                   + argv))
        return worlds.Job(argv=supervised, env=env, timeout=timeout + 60.0, cwd=stage.work)

    def plan(self, project, pythons, world, pytest_args, environ, timeout, skipped=None,
             modes=None):
        """suite.plan() for the Windows interpreter: [(interp, mode, stage, Job)] and the
        folders made (`modes`: only the runs of these modes)."""
        base = self.run_environ()
        self.src = has_src(project)
        planned, folders = [], []
        skipped = [] if skipped is None else skipped
        try:
            for interp in pythons:
                for mode, utf8 in ((TODAY, "0"), (PEP686, "1")):
                    if modes is not None and mode not in modes:
                        continue
                    folder = suite.Folder("/", mode)
                    folders.append(folder)
                    copies.copy_project(project, folder.work, skipped)
                    folder.project = project
                    folder.make = functools.partial(self._make, interp, utf8,
                                                    pytest_args=pytest_args, base=base,
                                                    timeout=timeout)
                    stage = suite.Stage(folder, "")
                    planned.append((interp, mode, stage, folder.make(stage)))
        except BaseException:
            for folder in folders:
                folder.remove()
            raise
        return planned, folders

    def _make(self, interp, utf8, stage, pytest_args, base, timeout, extra=()):
        return self.job(interp, utf8, stage, pytest_args, base, timeout, extra)

    # -- after each batch ----------------------------------------------------------------

    def normalise(self, planned):
        """The runs' files in Linux terms: the record's rootdir a Linux path, its sites'
        files with '/' (absolute ones on Z: as Linux paths), the build's standard library
        "stdlib" and the wheels' "site-packages"; the temporary folder spelt as on Linux
        in every output (the reports show it as <tmp>)."""
        stdlib = os.path.dirname(self.exe) + "/"
        for _, _, stage, _ in planned:
            linux = os.fsencode(stage.dir)
            for name in ("stdout", "stderr", "junit.xml"):
                _replace(stage.path(name), [(data, linux) for data in
                                            runs.written(stage.dir, self.code_page)])
            # The progress file is JSON (each test's output in it): each spelling as
            # json.dumps writes it, backslashes doubled, what is not ASCII escaped.
            _replace(stage.path("progress.jsonl"),
                     [(_in_json(spelt), _in_json(stage.dir))
                      for spelt in wine.spellings(stage.dir)])
            path = stage.path("record.json")
            try:
                with open(path, encoding="utf-8") as f:
                    record = json.load(f)
            except (OSError, ValueError):
                continue
            if record.get("rootdir"):
                record["rootdir"] = (wine.linux_path(record["rootdir"])
                                     or record["rootdir"].replace("\\", "/"))
            for site in record.get("sites", ()):
                linux = wine.linux_path(site["file"])
                if linux is None:
                    site["file"] = site["file"].replace("\\", "/")
                    continue
                site["file"] = linux
                if linux.startswith(stdlib):
                    site["origin"] = "stdlib"
                elif self.site and linux.startswith(self.site + "/"):
                    site["origin"] = "site-packages"
            with open(path + ".part", "w", encoding="utf-8") as f:
                json.dump(record, f, indent=1, sort_keys=True)
            os.replace(path + ".part", path)

    def differences(self, planned):
        """["RUN: what differs"] between each run's encodings as seen.py recorded them and
        utf8env's win32 rules for the same start."""
        out = []
        for _, mode, stage, _ in planned:
            try:
                with open(stage.path("seen.json"), encoding="utf-8") as f:
                    seen = json.load(f)
            except (OSError, ValueError):
                continue          # the run did not get that far: its problem is said apart
            expected = predicted(self.minor, self.code_page, "1" if mode == PEP686 else "0")
            out += ["the %s run: %s" % (mode, d) for d in compare_seen(seen, expected)]
        return out


def has_src(project):
    """The project has a src layout: a package or module in its src/ folder. Nothing of the
    project is installed on Windows: the copy's src/ goes first on PYTHONPATH, as an
    editable install would put it."""
    src = os.path.join(project, "src")
    try:
        names = os.listdir(src)
    except OSError:
        return False
    return any(n.endswith(".py") or os.path.isfile(os.path.join(src, n, "__init__.py"))
               for n in names)


def _in_json(text):
    """`text` as it is inside a JSON string json.dumps writes (ensure_ascii)."""
    return json.dumps(text)[1:-1].encode("ascii")


def _replace(path, pairs):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return
    new = data
    for old, forward in pairs:
        new = new.replace(old, forward)
    if new != data:
        with open(path, "wb") as f:
            f.write(new)


# -- the encodings seen, against utf8env's win32 rules ----------------------------------------

def predicted(minor, code_page, utf8):
    """What decide() says a run gets: the shape seen.py records."""
    args = ("-X", "utf8=" + utf8) + (("-X", "warn_default_encoding")
                                     if warns_default_encoding(minor) else ()) + ("-m", "pytest")
    d = decide(Inputs(environ={"PYTHONUTF8": utf8}, args=args, version=minor, platform="win32",
                      ansi_code_page=code_page, windows_console=False))
    out = {"utf8_mode": d.utf8_mode, "acp": code_page, "oemcp": OEM_CODE_PAGES[code_page],
           "filesystem": [d.filesystem.encoding, d.filesystem.errors],
           "stdin": [d.stdin.encoding, d.stdin.errors],
           "stdout": [d.stdout.encoding, d.stdout.errors],
           "stderr": [d.stderr.encoding, d.stderr.errors],
           "preferred_encoding": d.preferred_encoding}
    if tuple(int(x) for x in minor.split(".")) >= (3, 11):      # locale.getencoding()
        out["locale_encoding"] = d.locale_encoding
    return out


def _name(encoding):
    try:
        return codecs.lookup(encoding).name
    except (LookupError, TypeError):
        return encoding


def _said(value):
    if isinstance(value, list):
        return "/".join(str(_name(v) if i == 0 else v) for i, v in enumerate(value))
    return str(value)


def compare_seen(seen, expected):
    """["FIELD: SEEN seen, EXPECTED by utf8env's rules"] where they differ (encoding names
    compared as codecs.lookup() names them)."""
    out = []
    for field, want in expected.items():
        got = seen.get(field)
        if isinstance(want, list) and isinstance(got, list):
            same = [_name(got[0]), got[1]] == [_name(want[0]), want[1]]
        elif isinstance(want, str):
            same = _name(got) == _name(want)
        else:
            same = got == want
        if not same:
            out.append("%s %s seen, %s by utf8env's rules" % (field, _said(got), _said(want)))
    return out


# -- the command ------------------------------------------------------------------------------

def run(options, command):
    if not command:
        raise UsageError("readiness: no COMMAND given: expected -- pytest ARGS...")
    args = pytest_args(command)
    if options.python:
        raise UsageError("--python and --windows: the Windows runs use python.org's "
                         "embeddable build (--windows X.Y chooses it)")
    if options.world:
        raise UsageError("--world and --windows: the Windows runs' world is Wine's ANSI code "
                         "page (--code-page N)")
    timeout = checked_timeout(options.timeout)
    project = current_project()
    code_page = int(options.code_page or wine.DEFAULT_CODE_PAGE)
    # A file that cannot be read is said before the build and wheels are fetched (minutes).
    wheels.read_requirements(getattr(options, "windows_requirements", None))
    windows = Windows(builds.minor_of(options.windows), code_page,
                      getattr(options, "windows_requirements", None),
                      pytest=not isinstance(args, unittest_runner.Args))
    try:
        with _Guard(windows) as guard:
            with windows:
                return _run(options, args, timeout, project, guard, windows)
    except (Interrupted, KeyboardInterrupt):
        output.to_stderr(report.INTERRUPTED_LINE)
        return INTERRUPTED


class _Guard(Guard):
    """readiness's guard; each batch's files made Linux-shaped once it has run."""

    def __init__(self, windows):
        Guard.__init__(self)
        self.windows = windows

    def execute(self, planned, world, unit="runs"):
        # The runs alternate between the modes, so that the workers run one per prefix
        # (so per CPU) at a time; their results are given back in the order asked.
        order = alternating([mode for _, mode, _, _ in planned])
        runs, workers = Guard.execute(self, [planned[i] for i in order], HOST_WORLD, unit)
        self.windows.normalise(planned)
        back = [None] * len(planned)
        for run, i in zip(runs, order):
            back[i] = run
        return back, workers


def alternating(modes):
    """The indexes of `modes` in an order that takes each mode in turn (each mode's own
    order kept): ["a", "a", "b", "b"] -> [0, 2, 1, 3]."""
    queues = {}
    for i, mode in enumerate(modes):
        queues.setdefault(mode, []).append(i)
    order = []
    while any(queues.values()):
        for mode in list(queues):
            if queues[mode]:
                order.append(queues[mode].pop(0))
    return order


def _run(options, args, timeout, project, guard, windows):
    started = time.monotonic()
    skipped = []
    pythons = [windows.interpreter()]
    planned, folders = windows.plan(project, pythons, HOST_WORLD, args, user_environ(),
                                    timeout, skipped)
    try:
        runs, workers = guard.execute(planned, HOST_WORLD)
        result = advice.follow_up(planned, runs, workers, project, pythons, HOST_WORLD, args,
                                  user_environ(), timeout,
                                  lambda jobs, unit: guard.execute(jobs, HOST_WORLD, unit), started,
                                  show_all=options.all, not_copied=skipped)
        result = result._replace(world=WORLD, environment=windows.describe(
            windows.differences(planned)), variables=windows.variables())
    finally:
        copies.remove_all(folders)
    return report.report(result, options)
