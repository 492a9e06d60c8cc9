"""The PEP reproduction: every scenario in every concrete environment of every row, each
environment's live configuration checked first, each cell judged by its scenario's
classifier, the cells pooled per row and compared with the PEPs' published tables."""
import json
import os
import time

from .._worlds import cells as _cells
from .. import _discovery
from .._worlds import env_sets as _environments
from ._pep686 import of_environment
from . import _scenarios
from ._results import (ABSENT, SCHEMA, Agreement, CheckedEnvironment, Columns, PepCell, PepResult,
                       RowResult, Stage, Table)
from .._worlds.jobs import Timing
from .._worlds import Job, problems as world_problems
from .._errors import UsageError

DEFAULT_TIMEOUT = 60.0
COLUMNS = ("exception", "mojibake")

# What each check job prints: the configuration the interpreter really runs with
# (Python 2 syntax too). The legacy rows are only legacy when this says so. Codec names
# are normalised by _engine/textnames.py, whose source goes first (_check_program()).
_TEXTNAMES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "_engine", "textnames.py")
_CHECK = r"""
import json, locale, sys
def name(e):
    return str(codec_name(e))
print(json.dumps({"utf8_mode": getattr(sys.flags, "utf8_mode", 0),
                  "stdout": name(sys.stdout.encoding),
                  "stdout_errors": getattr(sys.stdout, "errors", None),
                  "filesystem": name(sys.getfilesystemencoding()),
                  "preferred": name(locale.getpreferredencoding(False)),
                  "lc_ctype": locale.setlocale(locale.LC_CTYPE, None)}))
"""


def _check_program():
    """The `python -c` program of the configuration check (2.7 and 3.6+)."""
    with open(_TEXTNAMES, encoding="utf-8") as f:
        return f.read() + _CHECK


# -- jobs -------------------------------------------------------------------------------

def _environ(env, cache):
    """The job's environment: env's, plus, for a launcher cell, a cache folder of this run
    for `utf8env run` (the cell declares no HOME: it would write the user's own ~/.cache)."""
    environ = env.environ()
    if env.launcher:
        environ["XDG_CACHE_HOME"] = cache
    return environ


def _scenario_job(s, env, cell, timeout, cache):
    py2 = env.version == "2.7"
    environ = _environ(env, cache)
    py = _cells.python_command(env, cell)

    def job(argv, stdin=b""):
        return Job(argv=argv, env=environ, stdin=stdin, timeout=timeout, cwd=cell.work)
    if s.producer == "bytes":
        first = job(["/usr/bin/" + _scenarios.BYTES_PRODUCER[0]] + list(_scenarios.BYTES_PRODUCER[1:]))
    else:
        program = s.program2 if py2 else s.program
        if program is None:
            args = list(s.command2 if py2 else s.command)
        else:
            cell.write("prog.py", program)
            args = ["../prog.py"]
        first = job(py + args, s.stdin)
    then = None
    if s.consumer == "bytes":
        then = job(["/bin/cat"])
    elif s.consumer == "iconv-gb18030":
        then = job(["/usr/bin/iconv", "-f", "gb18030", "-t", "utf-8"])
    elif s.consumer == "python":
        cell.write("consumer.py", _scenarios.CONSUMER2 if py2 else _scenarios.CONSUMER)
        then = job(py + ["../consumer.py"])
    for name in s.files:
        cell.touch(name)
    return first._replace(then=then)


def _check_job(env, cell, timeout, program, cache):
    return Job(argv=_cells.python_command(env, cell) + ["-c", program], env=_environ(env, cache),
               timeout=timeout, cwd=cell.work)


def _checked(env, run):
    """(observed configuration or None, problem or None)."""
    try:
        seen = json.loads(run.stdout.decode("utf-8").strip().splitlines()[-1])
    except (ValueError, IndexError, UnicodeDecodeError):
        return None, "the configuration check failed (%s): %s" % (
            "timed out" if run.timed_out else "exit %d" % run.returncode,
            run.stderr.decode("utf-8", "replace").strip()[-300:])
    for key, want in env.expect:
        if seen.get(key) != want:
            return seen, "expected %s=%r, the interpreter runs with %r" % (key, want, seen.get(key))
    return seen, None


# -- judging one cell -------------------------------------------------------------------

def _show(data):
    return None if data is None else repr(data)


def _stage(run):
    return Stage(returncode=run.returncode, stdout=_show(run.stdout),
                 stderr=run.stderr.decode("utf-8", "backslashreplace")[-2000:],
                 seconds=round(run.seconds, 4))


def _python_stages(s, stages):
    """The stages run by the interpreter under test (not printf, cat or iconv)."""
    if s.consumer in ("bytes", "iconv-gb18030"):
        return stages[:1]
    return stages if s.producer == "python" else stages[1:]


def judge(scenario, env, run, cell_files):
    """The PepCell of one scenario run in `env`: an Exception? from the Python stages'
    stderr, a Mojibake? from the scenario's own classifier."""
    s = scenario
    stages = [run] if run.then is None else [run, run.then]
    python_stages = _python_stages(s, stages)
    error_line = stage_name = None
    for name, st in zip(("producer", "consumer"), stages):
        if st in python_stages:
            line = _cells.unicode_error(st.stderr)
            if line and error_line is None:
                error_line, stage_name = line, name
    failure = None
    for st in python_stages:
        failure = _cells.failure(st) or failure
    enc = s.terminal or env.encoding
    verdict = s.classify(s, _scenarios.Evidence(encoding=enc, stdout=run.stdout,
                                                files=cell_files, version=env.version))
    produced = verdict.produced
    read = _consumer_read(s, cell_files)
    return PepCell(
        scenario=s.name, row=env.row, environment=env.name,
        exception=error_line is not None, mojibake=bool(verdict.mojibake),
        error=failure if error_line is None else None,
        traceback=error_line, stage=stage_name,
        encoding=enc, produced=_show(produced), expected=_show(verdict.expected),
        shown=None if produced is None else produced.decode(enc, "replace"),
        stages=[_stage(st) for st in stages], read=read)


def _consumer_read(s, cell_files):
    """What the PEP's Python consumer reported reading; absent for other consumers."""
    if s.consumer != "python":
        return ABSENT
    return (cell_files.get("read.txt") or b"").decode("ascii", "replace") or None


# -- the run ----------------------------------------------------------------------------

def run_pep(environments=None, scenarios=None, workers=None, timeout=DEFAULT_TIMEOUT, progress=None,
            via=None):
    """Run the PEP reproduction; returns a PepResult. `via`: how the locale worlds are
    made (None: the least privileged way; _worlds.MOUNT: root's mount namespace)."""
    envs = list(environments if environments is not None else _environments.pep_environments())
    chosen = list(scenarios or _scenarios.SCENARIOS)
    if not envs:
        raise UsageError(_discovery.nothing_found("matrix"))
    started = time.monotonic()
    check = _check_program()
    roots = sorted({"/"} | {e.root for e in envs}, key=lambda r: (r != "/", r))
    # An environment whose world cannot be made here is left out, with the reason.
    blocked = world_problems([e.world for e in envs], roots, via)
    checks = {e.name: (None, blocked[e.world]) for e in envs if e.world in blocked}
    cache = _cells.Cell("/")     # the launcher cells' cache folder, removed with the cells
    cells, jobs, plan = [cache], [], []
    try:
        for env in envs:
            if env.world in blocked:
                continue
            cell = _cells.Cell(env.root)
            cells.append(cell)
            jobs.append((env.world, _check_job(env, cell, timeout, check, cache.dir)))
            plan.append((env, None, cell))
            for s in chosen:
                cell = _cells.Cell(env.root)
                cells.append(cell)
                jobs.append((env.world, _scenario_job(s, env, cell, timeout, cache.dir)))
                plan.append((env, s, cell))
        runs = _cells.execute(jobs, [e.root for e in envs], workers, progress, via)
        results = []
        for (env, s, cell), run in zip(plan, runs):
            if s is None:
                checks[env.name] = _checked(env, run)
                continue
            files = {n: cell.read(n) for n in ("content.txt", "read.txt")}
            results.append(judge(s, env, run, files))
    finally:
        for cell in cells:
            cell.remove()
    wall = time.monotonic() - started
    for i, c in enumerate(results):
        seen, problem = checks.get(c.environment, (None, None))
        if problem:
            results[i] = c._replace(error="environment not as declared: " + problem)
    return _summarize(envs, chosen, results, checks, wall, runs, workers)


def _summarize(envs, chosen, results, checks, wall, runs, workers):
    rows = [r for r in _scenarios.ROWS if any(e.row == r for e in envs)]
    tables = []
    for s in chosen:
        entries = []
        for row in rows:
            mine = [c for c in results if c.scenario == s.name and c.row == row]
            valid = [c for c in mine if not c.error]
            pep = _scenarios.pep_value(s.name, row)
            entry = RowResult(
                row=row,
                exception=any(c.exception for c in valid) if valid else None,
                mojibake=any(c.mojibake for c in valid) if valid else None,
                exception_in=[c.environment for c in valid if c.exception],
                mojibake_in=[c.environment for c in valid if c.mojibake],
                errors=[c.environment for c in mine if c.error],
                pep=None if pep is None else Columns(exception=pep[0], mojibake=pep[1]),
                cells=mine, agreement=None)
            entries.append(entry._replace(agreement=_agreement(entry)))
        tables.append(Table(scenario=s.name, title=s.title, source=s.source,
                            mojibake_definition=s.mojibake, rows=entries))
    cores = workers or os.cpu_count() or 1
    return PepResult(
        schema=SCHEMA, mode="pep",
        environments=[CheckedEnvironment(e, *checks.get(e.name, (None, None)),
                                         python_3_15=of_environment(e)) for e in envs],
        rows=rows, tables=tables,
        timing=Timing(wall_seconds=round(wall, 3), cell_seconds=round(_cells.cpu_seconds(runs), 3),
                      workers=cores, jobs=len(runs)))


def _agreement(entry):
    """Per column: None (the PEP says nothing, or nothing measured) or an Agreement, with
    a one-line explanation of each difference from the evidence."""
    out = {}
    pep = entry.pep
    for col in COLUMNS:
        want, got = (getattr(pep, col) if pep else None), getattr(entry, col)
        if want is None or got is None:
            out[col] = None
        elif want == got:
            out[col] = Agreement(True)
        else:
            out[col] = Agreement(False, _why(entry, col, want))
    return Columns(**out)


def _why(entry, col, want):
    cells = [c for c in entry.cells if not c.error]
    if not want:   # the PEP says No, a cell showed Yes
        c = next(c for c in cells if getattr(c, col))
        if col == "exception":
            return "%s: %s (%s)" % (c.environment, c.traceback, c.stage)
        return "%s: produced %s, a %s reader expects %s" % (
            c.environment, c.produced, c.encoding, c.expected)
    c = cells[0]
    if col == "exception":
        return "no environment of the row raised; e.g. %s produced %s" % (c.environment, c.produced)
    return "no environment of the row showed mojibake; e.g. %s produced %s for %s" % (
        c.environment, c.produced, c.encoding)


def agreement_counts(result):
    """(cells that agree with the PEPs' tables, cells that differ)."""
    agree = differ = 0
    for t in result.tables:
        for r in t.rows:
            for col in COLUMNS:
                a = getattr(r.agreement, col)
                if a:
                    if a.agree:
                        agree += 1
                    else:
                        differ += 1
    return agree, differ
