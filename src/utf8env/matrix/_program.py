"""The user's own command (a Python script) under interpreters x environment sets, each
cell also run with UTF-8 mode forced off and on, to report what changes."""
import os
import re
import shutil
import time

from .._worlds import cells as _cells
from . import _scenarios
from .._worlds.env_sets import DEFAULT_ENV_SETS, ENV_SET_NAMES, ENV_SETS, program_environment
from .._engine.profiles import warns_default_encoding
from ._pep import DEFAULT_TIMEOUT
from ._pep686 import of_env_set
from ._results import SCHEMA, Evidence, NotRun, ProgramCell, ProgramResult, WarningSeen
from .._worlds.jobs import Timing
from .._worlds import Job, problems as world_problems
from .._errors import UsageError
from . import _windows

_HOSTILE_STDIN = b"hostile input caf\xe9 \xff\n"
# The encoding a reader of the cell's output decodes with (its terminal, a file's reader,
# the next program): the locale's, as in the PEP reproduction's environments.
_READERS = {"latin1": "iso8859-1", "gb18030": "gb18030", "cp1252": "cp1252",
            "cp1251": "cp1251", "gbk": "gbk", "cp932": "cp932", "big5": "big5"}
# \r?: Windows' stderr ends its lines with CRLF.
_ENCODING_WARNING = re.compile(rb"^(.*?):(\d+): EncodingWarning: (.*?)\r?$", re.M)


def _resolve_command(command):
    if not command:
        raise UsageError("matrix: empty COMMAND")
    path = command[0]
    if os.sep not in path:
        path = shutil.which(path) or path
    if not os.path.isfile(path):
        raise UsageError("matrix: COMMAND %r: no such file (a Python script, or a console "
                         "script on PATH)" % command[0])
    return [os.path.abspath(path)] + list(command[1:])


def check_command(command):
    """UsageError for a COMMAND that is not a file (before anything is started)."""
    _resolve_command(command)


def chosen_sets(names):
    """The EnvSet of each name; UsageError for an unknown one."""
    sets = []
    for name in names:
        found = [e for e in ENV_SETS if e.name == name]
        if not found:
            raise UsageError("--env-set %r: expected one of %s" % (name, ", ".join(ENV_SET_NAMES)))
        sets.append(found[0])
    return sets


def run_program(command, pythons, env_sets=DEFAULT_ENV_SETS, stdin=b"", hostile=False,
                workers=None, timeout=DEFAULT_TIMEOUT, progress=None, via=None, windows=None):
    """Run the user's command under pythons x env_sets; a ProgramResult. `via`: how the
    locale worlds are made (None: the least privileged way; _worlds.MOUNT: root's).
    `windows`: an open _windows.Windows, whose row runs in the sets that stand for a
    code page (its jobs with the Linux cells'), or says why it could not."""
    command = _resolve_command(command)
    sets = chosen_sets(env_sets)
    if hostile and not stdin:
        stdin = _HOSTILE_STDIN
    plan, jobs, dirs = [], [], []
    started = time.monotonic()
    roots = sorted({"/"} | {i.root for i in pythons}, key=lambda r: (r != "/", r))
    # A world that cannot be made here leaves its sets out, said in one line each; the
    # other sets still run.
    blocked = world_problems([es.world for es in sets], roots, via)
    not_run = [NotRun(env_set=es.name, world=es.world, reason=blocked[es.world])
               for es in sets if es.world in blocked]
    try:
        scripts = _scripts(command[0], {i.root for i in pythons}, dirs)
        for interp in pythons:
            script = scripts[interp.root]
            for es in sets:
                if es.world in blocked:
                    continue
                variants = [("main", es.utf8)]
                if interp.version != "2.7":
                    variants += [(v, v) for v in ("0", "1") if v != es.utf8]
                for label, utf8 in variants:
                    env = program_environment(interp, es, utf8)
                    cell = _cells.Cell(env.root)
                    dirs.append(cell)
                    if hostile:
                        cell.touch(_scenarios.HOSTILE_NAME)
                    environ = env.environ()
                    environ["HOME"] = cell.inside(cell.dir)
                    job = Job(argv=_cells.python_command(env, cell) + [script] + command[1:],
                              env=environ, stdin=stdin, timeout=timeout, cwd=cell.work)
                    plan.append((interp, es, label, cell))
                    jobs.append((env.world, job))
        win_plan = _windows_plan(windows, command, sets, stdin, hostile, timeout, dirs, jobs)
        runs = _cells.execute(jobs, [i.root for i in pythons], workers, progress, via)
        win_runs = _windows_runs(windows, command[0], win_plan, runs[len(plan):])
        by_cell = {}
        for (interp, es, label, cell), run in zip(plan, runs):
            if interp.root != "/":
                run = _as_host(run, scripts[interp.root], command[0])
            by_cell.setdefault((interp.argv[-1], es.name), {})[label if label == "main" else "utf8=" + label] = (
                interp, es, run, cell.left())
    finally:
        for cell in dirs:
            cell.remove()
    cells = []
    for variants in by_cell.values():
        interp, es, run, files = variants["main"]
        off = variants.get("utf8=0", variants["main"] if es.utf8 == "0" else None)
        on = variants.get("utf8=1", variants["main"] if es.utf8 == "1" else None)
        cells.append(_program_cell(interp, es, run, files, off, on))
    cells += _windows_cells(windows, sets, win_runs)
    return ProgramResult(
        schema=SCHEMA, mode="program", command=command, env_sets=sets,
        pythons=[{"version": i.version, "argv": list(i.argv), "origin": i.origin}
                 for i in pythons] + (
            [_windows_python(windows)] if win_runs else []),
        hostile_files=bool(hostile), stdin=repr(stdin),
        cells=cells, problems=sum(c.status != "ok" for c in cells),
        timing=Timing(wall_seconds=round(time.monotonic() - started, 3),
                      cell_seconds=round(_cells.cpu_seconds(runs), 3),
                      workers=workers or os.cpu_count() or 1, jobs=len(runs)),
        not_run=not_run, python_3_15={es.name: of_env_set(es) for es in sets},
        **({} if windows is None else {"windows": windows.json(sets)}))


# -- the Windows rows (matrix --windows) ----------------------------------------------------

def _windows_plan(windows, command, sets, stdin, hostile, timeout, dirs, jobs):
    """[(env set, utf8, cell)] of the Windows runs, their jobs added to `jobs`: two per
    set that stands for a code page (UTF-8 mode off, on), each in its own cell."""
    if windows is None or windows.problem:
        return []
    planned = []
    for es in _windows.code_page_sets(sets):
        if not windows.runs_in(es):
            continue        # its code page was left out: windows.json() says why
        for utf8 in ("0", "1"):
            cell = _cells.Cell("/")
            dirs.append(cell)
            if hostile:
                cell.touch(_scenarios.HOSTILE_NAME)
            jobs.append((_windows.JOB_WORLD, windows.job(es, command[0], command[1:], utf8,
                                                         cell, stdin, timeout)))
            planned.append((es, utf8, cell))
    return planned


def _windows_runs(windows, script, planned, runs):
    """{env set name: {utf8: (interp, es, run, files)}}, the paths on stderr Linux's."""
    out = {}
    for (es, utf8, cell), run in zip(planned, runs):
        run = windows.as_host(run, script, cell, _windows.code_page(es))
        out.setdefault(es.name, {})[utf8] = (windows.interpreter(), es, run, cell.left())
    return out


def _windows_cells(windows, sets, runs):
    """The Windows row's cells: the run with UTF-8 mode off is the cell's (Windows' default
    before 3.15), the one with it on what 3.15 changes."""
    cells = []
    for es in sets:
        if es.name not in runs:
            continue
        off, on = runs[es.name]["0"], runs[es.name]["1"]
        cell = _program_cell(off[0], es, off[2], off[3], off, on)
        cells.append(cell._replace(platform=_windows.PLATFORM, evidence=cell.evidence._replace(
            reader=_windows.reader(_windows.code_page(es)))))
    return cells


def _windows_python(windows):
    interp = windows.interpreter()
    return {"version": interp.version, "argv": list(interp.argv), "platform": _windows.PLATFORM,
            "cpython": windows.cpython, "wine": windows.wine.version}


def _scripts(script, roots, dirs):
    """{root: the path of the user's script as the interpreters of `root` see it}. A
    chroot cannot see a host path: the script is copied (alone) into a folder of this run
    inside each chroot, shared by its cells, so that every variant runs the same path."""
    out = {}
    for root in roots:
        if root == "/":
            out[root] = script
            continue
        holder = _cells.Cell(root)
        dirs.append(holder)
        copy = os.path.join(holder.dir, os.path.basename(script))
        shutil.copyfile(script, copy)
        out[root] = holder.inside(copy)
    return out


def _as_host(run, inside, script):
    """`run` with the chroot's path of the script, in its stderr (tracebacks,
    EncodingWarnings), given back as the user's path; stdout is evidence, kept as is."""
    a, b = os.fsencode(inside), os.fsencode(script)
    return run._replace(stderr=run.stderr.replace(a, b))


def _changes(off, on):
    """What differs between the runs with UTF-8 mode off and on, or None."""
    a, b = off[2], on[2]
    diff = []
    if _cells.status(a) != _cells.status(b):
        diff.append("status %s -> %s" % (_cells.status(a), _cells.status(b)))
    if a.stdout != b.stdout:
        diff.append("stdout %r -> %r" % (a.stdout[:60], b.stdout[:60]))
    if off[3] != on[3]:
        diff.append("files %r -> %r" % (sorted(off[3].items())[:3], sorted(on[3].items())[:3]))
    return "; ".join(diff) or None


def _evidence(es, run, files, off, on):
    def side(v):
        return None if v is None else (_cells.status(v[2]), v[2].stdout, v[3])
    return Evidence(reader=_READERS.get(es.world, "utf-8"), stdout=run.stdout, stderr=run.stderr,
                    files=dict(files), off=side(off), on=side(on))


def _program_cell(interp, es, run, files, off, on):
    warnings = None
    if warns_default_encoding(interp.version):
        warnings = [WarningSeen(file=m.group(1).decode("utf-8", "backslashreplace"),
                                line=int(m.group(2)),
                                message=m.group(3).decode("utf-8", "backslashreplace"))
                    for m in _ENCODING_WARNING.finditer(run.stderr)]
    error = _cells.unicode_error(run.stderr)
    both = off is not None and on is not None
    return ProgramCell(
        python=interp.version, interpreter=list(interp.argv), env_set=es.name,
        status=_cells.status(run), exit=run.returncode,
        unicode_error=error, where=_cells.where(run.stderr) if error else None,
        encoding_warnings=warnings,
        utf8_mode_changes=_changes(off, on) if both else None,
        stdout=repr(run.stdout), stderr=run.stderr.decode("utf-8", "backslashreplace")[-3000:],
        files={os.fsdecode(k): repr(v) for k, v in files.items()},
        seconds=round(run.seconds, 4),
        evidence=_evidence(es, run, files, off if both else None, on if both else None))
