"""`utf8env matrix --windows [X.Y] -- COMMAND`: rows of real Windows CPython X.Y
(python.org's embeddable build, _windows/builds.py) under Wine, beside the Linux rows, in
each environment set that stands for a Windows ANSI code page (its world's code page,
_worlds/catalog.py: gbk's is 936); the other sets are not applicable.

Everything Wine needs is readiness --windows's (_windows/): the build fetched and checked
once into the cache, the code page's locale (LC_ALL, LOCPATH), a private copy of the
user's prefix per code page (its own wineserver, so the code pages run side by side, each
on a CPU as readiness's are: _windows/pinned.py says why), warmed up by the probe that
checks the code page Wine really gives; every run behind the pipe shim (Wine's CPython
cannot start with a regular file as stdout). Unlike readiness's, these prefixes keep
Wine's mount manager: a cell is one short program, st_dev and os.listdrives() (3.12+) stay as
Wine gives them. A cell runs twice: `-X utf8=0` (its main run: Windows' default before 3.15) and
`-X utf8=1` (3.15's default, PEP 686). Its jobs run with the Linux cells' (one jobserver);
the script is run by its Windows path (Z:), and the paths in what it wrote on stderr are
given back as Linux paths.
"""
import functools
import os
import sys
import tempfile

from .. import _output as output
from .._environment import user_environ
from .._worlds.catalog import WORLD
from .._windows import builds, runs, wine
from .. import _discovery as discovery
from .._engine.profiles import warns_default_encoding
from .._worlds.env_sets import PATH
from .._worlds import Job

PLATFORM = "win32"
# Wine's code page is each run's own LC_ALL: no locale world to enter.
JOB_WORLD = "installed"
ROW = "%s win"
# The Windows rows alone, where discovery found no Linux interpreter: said, never a silent
# absence of the Linux ones (%s: the places looked in, _discovery.looked()).
NO_LINUX = "no Linux rows: no Linux interpreter found (looked in %s); give --python PATH for them"


def row(minor):
    """The label of the Windows row ("3.13 win") in the grid and in the findings."""
    return ROW % minor


def code_page(env_set):
    """The ANSI code page an environment set stands for (932), or None."""
    return WORLD[env_set.world].windows if env_set.world in WORLD else None


def code_page_sets(sets):
    return [es for es in sets if code_page(es)]


def reader(page):
    """The encoding a reader of the cell's output decodes with: the ANSI code page's."""
    return "cp%d" % page


def _say(line):
    output.to_stderr("utf8env: matrix: %s\n" % line)


class Windows(object):
    """One invocation's Windows rows: Wine, the build, a private prefix per code page.
    open() leaves the rows out where Wine or the build cannot be had (self.problem: one
    line, what to install or fetch), and a code page out where its locale or its probe
    fails (self.left_out: {code page: one line}; the others still run); close() ends
    every Wine process of the prefixes and removes them."""

    def __init__(self, minor, code_pages, environ=None, say=_say):
        self.minor = builds.minor_of(minor)
        self.code_pages = sorted(set(code_pages))
        self.environ = user_environ() if environ is None else dict(environ)
        self.say = say
        self.prefixes = {}
        self.holder = None
        self.cpython = builds.build(self.minor).cpython
        self.wine = None
        self.problem = None       # why the rows were left out (one line), or None
        self.left_out = {}        # {code page: why it was left out (one line)}
        self.no_linux = None      # NO_LINUX: why no Linux row runs beside these, or None

    def open(self):
        """Ready to run, or self.problem says why not (the Linux rows still run)."""
        try:
            self._open()
        except (wine.WineError, builds.FetchError) as error:
            self.close()
            self.problem = str(error)
        except BaseException:
            self.close()
            raise
        return self

    def _open(self):
        environ = self.environ
        self.wine = wine.find(environ, "matrix --windows")
        self.cache = wine.cache_folder(environ)
        self.exe = builds.ensure(self.cache, self.minor, say=self.say)
        locpaths = {}
        for cp in self.code_pages:
            try:
                locpaths[cp] = wine.locale_folder(self.cache, cp, say=self.say)
            except wine.WineError as error:
                self.left_out[cp] = str(error)
        base = wine.ensure_prefix(self.wine, self.cache, self.exe, say=self.say)
        self.holder = tempfile.mkdtemp(prefix="utf8env-matrix-win-")
        runs.hide_wmi(self.holder, self.minor)
        cpus = wine.cpus()
        for i, cp in enumerate(sorted(locpaths)):
            self.prefixes[cp] = wine.Prefix(self.wine, self.cache, base, cp, locpaths[cp],
                                            cpu=cpus[i % len(cpus)] if cpus else None)

        def opened(cp):
            try:
                out = self.prefixes[cp].open(self.exe, runs.PROBE)
                return runs.probed(out, cp, locpaths[cp]), None
            except wine.WineError as error:
                return None, str(error)
        pages = list(self.prefixes)
        for cp, (cpython, why) in zip(pages, runs.parallel(
                [functools.partial(opened, cp) for cp in pages])):
            if why is None:
                self.cpython = cpython
            else:
                self.left_out[cp] = why
                self.prefixes.pop(cp).close()
        if not self.prefixes:           # no code page left: the rows are out, as a whole
            raise wine.WineError(self.left_out[min(self.left_out)])

    def close(self):
        prefixes, self.prefixes = list(self.prefixes.values()), {}
        try:
            runs.parallel([p.close for p in prefixes])
        finally:
            if self.holder is not None:
                import shutil
                shutil.rmtree(self.holder, ignore_errors=True)
                self.holder = None

    def __enter__(self):
        return self.open()

    def __exit__(self, *exc):
        self.close()

    # -- the rows -----------------------------------------------------------------------------

    def runs_in(self, env_set):
        """Whether the Windows row runs in `env_set` (it stands for a code page that was
        not left out)."""
        return code_page(env_set) in self.prefixes

    def interpreter(self):
        """The Windows row's interpreter (once open)."""
        return discovery.Interpreter(version=self.minor, argv=(self.wine.loader, self.exe),
                                     root="/")

    def describe(self):
        """The report's one line: which Windows CPython stood in, how, and what Wine is not."""
        return ("%s: Windows CPython %s under Wine %s, in the ANSI code page each set stands "
                "for, UTF-8 mode off (-X utf8=0: Windows' default before 3.15) and on (-X "
                "utf8=1: 3.15's, PEP 686); %s" % (
                    row(self.minor), self.cpython, self.wine.version if self.wine else "?",
                    runs.NOT_SHOWN % (runs.WMI if runs.needs_no_wmi(self.minor) else "")))

    def json(self, sets):
        """The result's "windows" object."""
        applies = code_page_sets(sets)
        return {"platform": PLATFORM, "python": self.minor, "cpython": self.cpython,
                "row": row(self.minor),
                "wine": self.wine.version if self.wine and not self.problem else None,
                "world": None if self.problem else self.describe(),
                "code_pages": {es.name: code_page(es) for es in applies},
                "not_applicable": [es.name for es in sets if es not in applies],
                "not_run": self.problem,
                "left_out": {} if self.problem else {
                    es.name: self.left_out[code_page(es)] for es in applies
                    if code_page(es) in self.left_out},
                "no_linux_rows": self.no_linux}

    def job(self, es, script, args, utf8, cell, stdin, timeout):
        """The worlds.Job of one run of the user's script in `cell` (its own folder):
        `wine64 python.exe -X utf8=0|1 [-X warn_default_encoding] Z:SCRIPT ARGS` behind
        the pipe shim, in the environment set's code page, nothing of this environment
        passed but what every Linux cell gets (PATH) and HOME (the cell)."""
        cp = code_page(es)
        argv = [self.wine.loader, self.exe, "-X", "utf8=" + utf8]
        if warns_default_encoding(self.minor):
            argv += ["-X", "warn_default_encoding"]
        argv += [wine.windows_path(script)] + list(args)
        env = {"PATH": PATH, "HOME": cell.dir}
        env.update(self.prefixes[cp].environ())
        if runs.needs_no_wmi(self.minor):
            env["PYTHONPATH"] = wine.windows_path(self.holder)
        return Job(argv=self.prefixes[cp].pinned([sys.executable, "-I", "-S", runs.PIPE, "--"]
                                                 + argv),
                   env=env, stdin=stdin, timeout=timeout, cwd=cell.work)

    @staticmethod
    def as_host(run, script, cell, page):
        """`run` with the Windows paths of the script and of its cell's folder, in its
        stderr (tracebacks, EncodingWarnings), given back as Linux paths; stdout is
        evidence, kept as is. `page`: the cell's code page (runs.written(): a path that is
        not ASCII is found in the code page's bytes too)."""
        stderr = run.stderr
        for path in (script, cell.dir):
            linux = os.fsencode(os.path.abspath(path))
            for written in runs.written(path, page):
                stderr = stderr.replace(written, linux)
        return run._replace(stderr=stderr)
