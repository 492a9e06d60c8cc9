"""The matrix: scenarios (or the user's own command) x text environments x interpreters,
each cell run for real in its locale world and classified Exception?/Mojibake? with its
evidence.

Cells run in parallel across the cores (worlds.run_batches: one mount namespace per
world, one shared limit), each in its own temporary directory with a timeout; the
directories are removed and the process groups killed whatever happens.

Results are plain dicts and lists (JSON-ready); matrix_report renders them.
"""
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from . import interpreters as _interpreters
from . import scenarios as _scenarios
from . import worlds
from .errors import UsageError
from .records import Record, field

PATH = "/usr/local/bin:/usr/bin:/bin"
DEFAULT_TIMEOUT = 60.0
# `utf8env run` by this interpreter, from the folder this package was imported from, as
# bin/utf8env starts it (-I -S): `-m utf8env` would not find a --user install under -I.
_PACKAGES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAUNCHER = (sys.executable, "-I", "-S", "-c",
            "import sys; sys.path.insert(0, sys.argv.pop(1)); from utf8env.cli import main; "
            "sys.exit(main())", _PACKAGES, "run")
LATIN1 = "LANG=en_US.ISO-8859-1"
GB18030 = "LANG=zh_CN.GB18030"

# What each check job prints: the configuration the interpreter really runs with
# (Python 2 syntax too). The legacy rows are only legacy when this says so.
CHECK = r"""
import codecs, json, locale, sys
def name(e):
    try:
        return codecs.lookup(e).name
    except Exception:
        return str(e)
print(json.dumps({"utf8_mode": getattr(sys.flags, "utf8_mode", 0),
                  "stdout": name(sys.stdout.encoding),
                  "stdout_errors": getattr(sys.stdout, "errors", None),
                  "filesystem": name(sys.getfilesystemencoding()),
                  "preferred": name(locale.getpreferredencoding(False)),
                  "lc_ctype": locale.setlocale(locale.LC_CTYPE, None)}))
"""


class Environment(Record):
    """One concrete environment of a row: interpreter, world, variables, options."""
    row = field()
    name = field()            # e.g. "3.6 LANG=C"
    version = field()
    argv = field()            # the interpreter command (chroot prefix included)
    root = field()            # "/" or the chroot the interpreter lives in
    world = field()
    variables = field()       # ((name, value), ...) set for the interpreter
    options = field()         # interpreter options, before the program
    launcher = field()        # None, or the --utf8 value given to `utf8env run`
    encoding = field()        # the terminal's / consumer's / file reader's encoding
    expect = field()          # ((field, value), ...): check fields the row requires

    def environ(self):
        env = {"PATH": PATH}
        env.update(self.variables)
        return env


def _env(row, interp, world, variables, options=(), launcher=None, encoding="utf-8", expect=()):
    words = [interp.version] + ["%s=%s" % kv for kv in variables] + list(options)
    if launcher:
        words.insert(0, "utf8env run --utf8 %s --" % launcher)
    if world != "installed":
        words.append("[%s world]" % world)
    return Environment(row, " ".join(words), interp.version, tuple(interp.argv), interp.root,
                       world, tuple(variables), tuple(options), launcher, encoding, tuple(expect))


def _vars(text):
    return tuple(tuple(w.split("=", 1)) for w in text.split()) if text else ()


def pep_environments(found=None, py27=None):
    """The rows of the PEP reproduction, each with its concrete environments."""
    if found is None:
        found = _interpreters.interpreters()
        py27 = _interpreters.python27()
    by = {i.version: i for i in found}
    new = [i for i in found if i.version != "3.6"]          # 3.7+
    host_new = [i for i in new if i.root == "/"]
    legacy = (("utf8_mode", 0), ("stdout", "ascii"))
    utf8 = (("utf8_mode", 1), ("stdout", "utf-8"))
    out = []
    locales = (("installed", "LANG=C", "utf-8"), ("latin1", LATIN1, "iso8859-1"),
               ("gb18030", GB18030, "gb18030"))
    if py27:
        for world, v, enc in (("installed", "LANG=C.UTF-8", "utf-8"),) + locales:
            out.append(_env("Python 2", py27, world, _vars(v), encoding=enc))
    if "3.6" in by:
        py36 = by["3.6"]
        for world, v, enc in (("installed", "LANG=C.UTF-8", "utf-8"),) + locales[1:]:
            out.append(_env("Python 3", py36, world, _vars(v), encoding=enc))
        for world, v in (("installed", "LANG=C"), ("installed", "LC_ALL=POSIX"), ("no-locales", "")):
            out.append(_env("Python 3.5, POSIX locale", py36, world, _vars(v), expect=legacy))
    for interp in new:
        for world, v, enc in locales:
            out.append(_env("UTF-8 mode", interp, world, _vars(v), ("-X", "utf8"),
                            encoding=enc, expect=utf8))
    if "3.6" in by:
        for world, v, enc in locales:
            out.append(_env("UTF-8 mode", by["3.6"], world, _vars(v), launcher="1",
                            encoding=enc, expect=(("stdout", "utf-8"),)))
    # Strict mode exists only through the launcher's bootstrap: the oldest, a middle and
    # the newest host interpreter.
    strict = [by["3.6"]] if "3.6" in by else []
    strict += [host_new[len(host_new) // 2], host_new[-1]] if host_new else []
    for interp in strict:
        for world, v, enc in locales:
            out.append(_env("UTF-8 Strict mode", interp, world, _vars(v), launcher="strict",
                            encoding=enc, expect=(("stdout", "utf-8"), ("stdout_errors", "strict"))))
    for interp in new:
        for v in ("LANG=C", ""):
            out.append(_env("3.7+ C locale, as shipped", interp, "installed", _vars(v)))
        out.append(_env("3.7+ C locale, coercion and UTF-8 mode off", interp, "installed",
                        _vars("LANG=C PYTHONCOERCECLOCALE=0"), ("-X", "utf8=0"), expect=legacy))
    if "3.15" in by:
        for world, v, enc in (("installed", "LANG=C.UTF-8", "utf-8"),) + locales[1:]:
            out.append(_env("3.15 default (PEP 686)", by["3.15"], world, _vars(v), encoding=enc,
                            expect=(("utf8_mode", 1),)))
    pick = [py27] + [by.get(v) for v in ("3.6", "3.8", "3.12", "3.14")]
    for interp in pick:
        if interp:
            out.append(_env("no locale installed", interp, "no-locales", ()))
    return out


# -- running cells -------------------------------------------------------------------

class _Cell(object):
    """One job in its own directory: DIR/work is the working directory, programs and
    outputs live in DIR, so that a listing of the working directory sees only the
    scenario's files."""

    def __init__(self, root):
        base = os.path.join(root, "tmp") if root != "/" else tempfile.gettempdir()
        self.dir = tempfile.mkdtemp(prefix="utf8env-matrix-", dir=base)
        self.root = root
        self.work = os.path.join(self.dir, "work")
        os.mkdir(self.work)

    def inside(self, path):
        """`path` as the interpreter sees it (inside its chroot)."""
        if self.root == "/":
            return path
        return "/" + os.path.relpath(path, os.path.realpath(self.root))

    def write(self, name, data):
        with open(os.path.join(self.dir, name), "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode("utf-8"))

    def read(self, name):
        try:
            with open(os.path.join(self.dir, name), "rb") as f:
                return f.read()
        except OSError:
            return None

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def python_command(env, cell):
    """The argv prefix that starts env's interpreter in cell's working directory."""
    argv = list(env.argv)
    if env.root != "/":
        # chroot(8) changes to / inside the root: env -C goes back to the cell.
        argv = argv[:2] + ["/usr/bin/env", "-C", cell.inside(cell.work)] + argv[2:]
    if env.launcher:
        argv = list(LAUNCHER) + ["--utf8", env.launcher, "--"] + argv
    return argv + list(env.options)


def _execute(cells_jobs, roots, workers, progress):
    """cells_jobs: [(world, job)]; results in the same order."""
    batches = {}
    for i, (world, job) in enumerate(cells_jobs):
        batches.setdefault(world, []).append((i, job))
    names = list(batches)
    roots = sorted({"/"} | set(roots), key=lambda r: (r != "/", r))
    runs = worlds.run_batches([(w, [j for _, j in batches[w]]) for w in names], roots,
                              workers=workers, progress=progress)
    out = [None] * len(cells_jobs)
    for w, results in zip(names, runs):
        for (i, _), r in zip(batches[w], results):
            out[i] = r
    return out


# -- classification ----------------------------------------------------------------

_UNICODE_ERROR = re.compile(rb"^(?:[\w.]+\.)?(Unicode(?:Encode|Decode|Translate)?Error)\b.*$", re.M)
_LAST_FRAME = re.compile(rb'^\s*File "([^"]*)", line (\d+)', re.M)
_ENCODING_WARNING = re.compile(rb"^(.*?):(\d+): EncodingWarning: (.*)$", re.M)


def unicode_error(stderr):
    """The last line of a UnicodeError traceback in `stderr` (text), or None."""
    found = list(_UNICODE_ERROR.finditer(stderr or b""))
    return found[-1].group(0).decode("utf-8", "backslashreplace").strip() if found else None


def _where(stderr):
    frames = list(_LAST_FRAME.finditer(stderr or b""))
    if not frames:
        return None
    f = frames[-1]
    return "%s:%s" % (f.group(1).decode("utf-8", "backslashreplace"), f.group(2).decode())


def _shown_wrong(produced, meant, encoding):
    """Mojibake at a consumer that decodes `produced` with `encoding`: it does not get
    `meant` (None: no text in that encoding is right). Nothing produced: nothing wrong."""
    if not produced:
        return False
    if meant is None:
        return True
    try:
        return produced.decode(encoding) != meant
    except UnicodeDecodeError:
        return True


def _text_in(data, encoding):
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None


def _encoded(text, encoding):
    try:
        return text.encode(encoding)
    except UnicodeEncodeError:
        return None     # no bytes in that encoding show this text


def _show(data):
    return None if data is None else repr(data)


def _stage(run):
    return {"returncode": run.returncode, "stdout": _show(run.stdout),
            "stderr": run.stderr.decode("utf-8", "backslashreplace")[-2000:],
            "seconds": round(run.seconds, 4)}


def judge(scenario, env, run, cell_files):
    """The classification of one PEP cell, with its evidence."""
    s = scenario
    stages = [run] if run.then is None else [run, run.then]
    python_stages = stages if s.producer == "python" else stages[1:]
    if s.consumer in ("bytes", "iconv-gb18030"):
        python_stages = stages[:1]
    error_line = None
    stage_name = None
    for name, st in zip(("producer", "consumer"), stages):
        if st in python_stages:
            line = unicode_error(st.stderr)
            if line and error_line is None:
                error_line, stage_name = line, name
    failure = None
    for st in python_stages:
        if st.returncode == -9:
            failure = "timed out"
        elif st.returncode != 0 and not unicode_error(st.stderr):
            failure = "exit %d: %s" % (st.returncode, (st.stderr.decode("utf-8", "replace")
                                                        .strip().splitlines() or [""])[-1])
    enc = s.terminal or env.encoding
    produced, expected = run.stdout, None
    if s.name in ("ls-stdout", "ls-file"):
        name = _text_in(s.meant, enc)
        meant = None if name is None else name + "\n"
        produced = run.stdout if s.name == "ls-stdout" else cell_files.get("content.txt")
        expected = s.meant + b"\n"
        mojibake = _shown_wrong(produced, meant, enc)
    elif s.name == "replace":
        expected = s.meant
        mojibake = bool(produced) and (produced != expected or _text_in(produced, enc) is None)
    elif s.consumer == "python":
        expected = _encoded(s.meant, enc) if s.producer == "python" else _scenarios.LEGACY_BYTES
        produced = run.stdout
        report = cell_files.get("read.txt")
        read = None
        if report:
            try:
                read = ast.literal_eval(report.decode("ascii"))
            except (ValueError, SyntaxError, UnicodeDecodeError):
                read = None
        if isinstance(read, str) and env.version == "2.7":
            read = _text_in(read.encode("latin-1"), enc)   # Python 2 read bytes: in its locale
            mojibake = read != s.meant
        else:   # no report: the consumer did not get to the end
            mojibake = report is not None and read != s.meant
        if not run.stdout:   # the consumer cannot misread what the producer never wrote
            mojibake = False
    else:
        expected = _encoded(s.meant, enc)
        produced = run.stdout      # what the terminal, cat or iconv got
        mojibake = _shown_wrong(produced, s.meant, enc)
    cell = {
        "scenario": s.name, "row": env.row, "environment": env.name,
        "exception": error_line is not None, "mojibake": bool(mojibake),
        "error": failure if error_line is None else None,
        "traceback": error_line, "stage": stage_name,
        "encoding": enc, "produced": _show(produced), "expected": _show(expected),
        "shown": None if produced is None else produced.decode(enc, "replace"),
        "stages": [_stage(st) for st in stages],
    }
    if s.consumer == "python":
        cell["read"] = (cell_files.get("read.txt") or b"").decode("ascii", "replace") or None
    return cell


# -- the PEP reproduction ----------------------------------------------------------

def _scenario_job(s, env, cell, timeout):
    py2 = env.version == "2.7"
    environ = env.environ()
    work = cell.work
    py = python_command(env, cell)
    if s.producer == "bytes":
        first = worlds.Job(["/usr/bin/" + s_word for s_word in _scenarios.BYTES_PRODUCER[:1]]
                           + list(_scenarios.BYTES_PRODUCER[1:]), environ, b"", timeout, work)
    else:
        program = s.program2 if py2 else s.program
        if program is None:
            args = list(s.command2 if py2 else s.command)
        else:
            cell.write("prog.py", program)
            args = ["../prog.py"]
        first = worlds.Job(py + args, environ, s.stdin, timeout, work)
    then = None
    if s.consumer == "bytes":
        then = worlds.Job(["/bin/cat"], environ, b"", timeout, work)
    elif s.consumer == "iconv-gb18030":
        then = worlds.Job(["/usr/bin/iconv", "-f", "gb18030", "-t", "utf-8"], environ, b"", timeout, work)
    elif s.consumer == "python":
        cell.write("consumer.py", _scenarios.CONSUMER2 if py2 else _scenarios.CONSUMER)
        then = worlds.Job(py + ["../consumer.py"], environ, b"", timeout, work)
    for name in s.files:
        open(os.path.join(os.fsencode(work), name), "wb").close()
    return first._replace(then=then)


def _check_job(env, cell, timeout):
    return worlds.Job(python_command(env, cell) + ["-c", CHECK], env.environ(), b"", timeout, cell.work)


def _checked(env, run):
    """(observed configuration or None, problem or None)."""
    try:
        seen = json.loads(run.stdout.decode("utf-8").strip().splitlines()[-1])
    except (ValueError, IndexError, UnicodeDecodeError):
        return None, "the configuration check failed (exit %d): %s" % (
            run.returncode, run.stderr.decode("utf-8", "replace").strip()[-300:])
    for key, want in env.expect:
        if seen.get(key) != want:
            return seen, "expected %s=%r, the interpreter runs with %r" % (key, want, seen.get(key))
    return seen, None


def run_pep(environments=None, scenarios=None, workers=None, timeout=DEFAULT_TIMEOUT, progress=None):
    """Run the PEP reproduction; returns the JSON-ready result (see matrix_report)."""
    envs = list(environments if environments is not None else pep_environments())
    chosen = list(scenarios or _scenarios.SCENARIOS)
    if not envs:
        raise UsageError("matrix: no interpreter found to run (pyenv versions, or --python PATH)")
    started = time.monotonic()
    cells, jobs, plan = [], [], []
    try:
        for env in envs:
            cell = _Cell(env.root)
            cells.append(cell)
            jobs.append((env.world, _check_job(env, cell, timeout)))
            plan.append((env, None, cell))
            for s in chosen:
                cell = _Cell(env.root)
                cells.append(cell)
                jobs.append((env.world, _scenario_job(s, env, cell, timeout)))
                plan.append((env, s, cell))
        runs = _execute(jobs, [e.root for e in envs], workers, progress)
        checks, results = {}, []
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
    for c in results:
        seen, problem = checks.get(c["environment"], (None, None))
        if problem:
            c["error"] = "environment not as declared: " + problem
    return summarize(envs, chosen, results, checks, wall, runs, workers)


def _cpu_seconds(runs):
    total = 0.0
    for r in runs:
        while r is not None:
            total += r.seconds
            r = r.then
    return total


def summarize(envs, chosen, results, checks, wall, runs, workers):
    rows = [r for r in _scenarios.ROWS if any(e.row == r for e in envs)]
    tables = []
    for s in chosen:
        table = {"scenario": s.name, "title": s.title, "source": s.source,
                 "mojibake_definition": s.mojibake, "rows": []}
        for row in rows:
            mine = [c for c in results if c["scenario"] == s.name and c["row"] == row]
            valid = [c for c in mine if not c["error"]]
            pep = _scenarios.pep_value(s.name, row)
            entry = {"row": row,
                     "exception": any(c["exception"] for c in valid) if valid else None,
                     "mojibake": any(c["mojibake"] for c in valid) if valid else None,
                     "exception_in": [c["environment"] for c in valid if c["exception"]],
                     "mojibake_in": [c["environment"] for c in valid if c["mojibake"]],
                     "errors": [c["environment"] for c in mine if c["error"]],
                     "pep": None if pep is None else {"exception": pep[0], "mojibake": pep[1]},
                     "cells": mine}
            entry["agreement"] = _agreement(entry)
            table["rows"].append(entry)
        tables.append(table)
    cores = workers or os.cpu_count() or 1
    return {
        "schema": 1, "mode": "pep",
        "environments": [dict(e._asdict(), variables=dict(e.variables), expect=dict(e.expect),
                              observed=checks.get(e.name, (None, None))[0],
                              problem=checks.get(e.name, (None, None))[1]) for e in envs],
        "rows": rows, "tables": tables,
        "timing": {"wall_seconds": round(wall, 3), "cell_seconds": round(_cpu_seconds(runs), 3),
                   "workers": cores, "jobs": len(runs)},
    }


def _agreement(entry):
    """Per column: "agree", "differ", or None (the PEP says nothing, or nothing measured),
    with a one-line explanation of each difference from the evidence."""
    out = {}
    pep = entry["pep"] or {}
    for col in ("exception", "mojibake"):
        want, got = pep.get(col), entry[col]
        if want is None or got is None:
            out[col] = None
            continue
        out[col] = {"agree": want == got}
        if want != got:
            out[col]["why"] = _why(entry, col, want)
    return out


def _why(entry, col, want):
    cells = [c for c in entry["cells"] if not c["error"]]
    if not want:   # the PEP says No, a cell showed Yes
        c = next(c for c in cells if c[col])
        if col == "exception":
            return "%s: %s (%s)" % (c["environment"], c["traceback"], c["stage"])
        return "%s: produced %s, a %s reader expects %s" % (
            c["environment"], c["produced"], c["encoding"], c["expected"])
    c = cells[0]
    if col == "exception":
        return "no environment of the row raised; e.g. %s produced %s" % (c["environment"], c["produced"])
    return "no environment of the row showed mojibake; e.g. %s produced %s for %s" % (
        c["environment"], c["produced"], c["encoding"])


def agreement_counts(result):
    agree = differ = 0
    for t in result["tables"]:
        for r in t["rows"]:
            for col in ("exception", "mojibake"):
                a = r["agreement"].get(col)
                if a:
                    if a["agree"]:
                        agree += 1
                    else:
                        differ += 1
    return agree, differ


# -- the user's own program --------------------------------------------------------

class EnvSet(Record):
    name = field()
    world = field()
    variables = field()     # ((name, value), ...)
    utf8 = field()          # None: as the interpreter decides; "0"/"1": forced
    description = field()


ENV_SETS = (
    # en_US.UTF-8, not C.UTF-8: 3.7+ give C.UTF-8 (a coercion target) surrogateescape on stdio.
    EnvSet("utf8-locale", "en_US-only", (("LANG", "en_US.UTF-8"),), None,
           "LANG=en_US.UTF-8, as a desktop (strict stdio)"),
    EnvSet("c-locale", "installed", (("LANG", "C"),), None,
           "LANG=C, as shipped (3.7+ coerce the locale and turn on UTF-8 mode)"),
    EnvSet("c-legacy", "installed", (("LANG", "C"), ("PYTHONCOERCECLOCALE", "0")), "0",
           "LANG=C with coercion and UTF-8 mode off: ASCII, as 3.6 and older containers"),
    EnvSet("utf8-mode", "installed", (("LANG", "C.UTF-8"),), "1",
           "UTF-8 mode on (-X utf8; 3.6 through utf8env run --utf8 1)"),
    EnvSet("latin1", "latin1", (("LANG", "en_US.ISO-8859-1"),), None, "a Latin-1 locale"),
    EnvSet("gb18030", "gb18030", (("LANG", "zh_CN.GB18030"),), None, "a GB18030 locale"),
    EnvSet("no-locales", "no-locales", (), None, "no locale installed, no variable set"),
)
ENV_SET_NAMES = tuple(e.name for e in ENV_SETS)
DEFAULT_ENV_SETS = ("utf8-locale", "c-locale", "c-legacy", "utf8-mode", "latin1")
HOSTILE_STDIN = b"hostile input caf\xe9 \xff\n"
_QUESTION = "import sys; sys.stdout.write('%d.%d' % sys.version_info[:2])"


def identify(python):
    """The "X.Y" of the interpreter `python` (2.7 or 3.6+), by running it once."""
    try:
        out = subprocess.run([python, "-E", "-S", "-c", _QUESTION], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                             env={"PATH": PATH}, timeout=30)
    except (OSError, subprocess.SubprocessError) as error:
        raise UsageError("--python %r: cannot be run (%s)" % (python, error))
    version = out.stdout.decode("ascii", "replace").strip()
    if out.returncode != 0 or not re.match(r"^(2\.7|3\.(\d+))$", version) or version in ("3.0", "3.1", "3.2", "3.3", "3.4", "3.5"):
        raise UsageError("--python %r: not a CPython 2.7 or 3.6+ (it answered %r, exit %d)"
                         % (python, version, out.returncode))
    return version


def _minor(version):
    return tuple(int(x) for x in version.split("."))


def _program_env(interp, env_set, utf8):
    """An Environment for one run of the user's command; utf8 None/"0"/"1"."""
    options, launcher = [], None
    if interp.version != "2.7" and _minor(interp.version) >= (3, 10):
        options += ["-X", "warn_default_encoding"]
    if utf8 is not None and interp.version != "2.7":
        if interp.version == "3.6":
            launcher = "1" if utf8 == "1" else None
        else:
            options += ["-X", "utf8=" + utf8]
    return Environment("program", "%s %s" % (interp.version, env_set.name), interp.version,
                       tuple(interp.argv), interp.root, env_set.world, env_set.variables,
                       tuple(options), launcher, "utf-8", ())


def resolve_command(command):
    if not command:
        raise UsageError("matrix: empty COMMAND")
    path = command[0]
    if os.sep not in path:
        path = shutil.which(path) or path
    if not os.path.isfile(path):
        raise UsageError("matrix: COMMAND %r: no such file (a Python script, or a console "
                         "script on PATH)" % command[0])
    return [os.path.abspath(path)] + list(command[1:])


def run_program(command, pythons, env_sets=DEFAULT_ENV_SETS, stdin=b"", hostile=False,
                workers=None, timeout=DEFAULT_TIMEOUT, progress=None):
    """Run the user's command (a Python script) under pythons x env_sets; each cell also
    with UTF-8 mode forced off and on, to report what changes. JSON-ready result."""
    command = resolve_command(command)
    sets = []
    for name in env_sets:
        found = [e for e in ENV_SETS if e.name == name]
        if not found:
            raise UsageError("--env-set %r: expected one of %s" % (name, ", ".join(ENV_SET_NAMES)))
        sets.append(found[0])
    if hostile and not stdin:
        stdin = HOSTILE_STDIN
    plan, jobs, dirs = [], [], []
    started = time.monotonic()
    try:
        for interp in pythons:
            for es in sets:
                variants = [("main", es.utf8)]
                if interp.version != "2.7":
                    variants += [(v, v) for v in ("0", "1") if v != es.utf8]
                for label, utf8 in variants:
                    env = _program_env(interp, es, utf8)
                    cell = _Cell(env.root)
                    dirs.append(cell)
                    if hostile:
                        open(os.path.join(os.fsencode(cell.work), _scenarios.HOSTILE_NAME), "wb").close()
                    environ = env.environ()
                    environ["HOME"] = cell.dir
                    job = worlds.Job(python_command(env, cell) + command, environ, stdin, timeout, cell.work)
                    plan.append((interp, es, label, utf8, cell))
                    jobs.append((env.world, job))
        runs = _execute(jobs, [i.root for i in pythons], workers, progress)
        by_cell = {}
        for (interp, es, label, utf8, cell), run in zip(plan, runs):
            by_cell.setdefault((interp.argv[-1], es.name), {})[label if label == "main" else "utf8=" + label] = (
                interp, es, run, _files(cell.work))
    finally:
        for cell in dirs:
            cell.remove()
    cells = []
    for (path, name), variants in by_cell.items():
        interp, es, run, files = variants["main"]
        off = variants.get("utf8=0", variants["main"] if es.utf8 == "0" else None)
        on = variants.get("utf8=1", variants["main"] if es.utf8 == "1" else None)
        cells.append(_program_cell(interp, es, run, files, off, on))
    return {"schema": 1, "mode": "program", "command": command,
            "env_sets": [dict(e._asdict(), variables=dict(e.variables)) for e in sets],
            "pythons": [{"version": i.version, "argv": list(i.argv)} for i in pythons],
            "hostile_files": bool(hostile), "stdin": repr(stdin),
            "cells": cells, "problems": sum(c["status"] != "ok" for c in cells),
            "timing": {"wall_seconds": round(time.monotonic() - started, 3),
                       "cell_seconds": round(_cpu_seconds(runs), 3),
                       "workers": workers or os.cpu_count() or 1, "jobs": len(runs)}}


def _files(work):
    """{name: bytes} of the files the command left in its working directory."""
    out = {}
    for name in os.listdir(os.fsencode(work)):
        path = os.path.join(os.fsencode(work), name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                out[name] = f.read()
    return out


def _status(run):
    if run.returncode == -9:
        return "timeout"
    if unicode_error(run.stderr):
        return "UnicodeError"
    return "ok" if run.returncode == 0 else "exit %d" % run.returncode


def _program_cell(interp, es, run, files, off, on):
    warnings = None
    if interp.version != "2.7" and _minor(interp.version) >= (3, 10):
        warnings = [{"file": m.group(1).decode("utf-8", "backslashreplace"), "line": int(m.group(2)),
                     "message": m.group(3).decode("utf-8", "backslashreplace")}
                    for m in _ENCODING_WARNING.finditer(run.stderr)]
    changes = None
    if off is not None and on is not None:
        a, b = off[2], on[2]
        diff = []
        if _status(a) != _status(b):
            diff.append("status %s -> %s" % (_status(a), _status(b)))
        if a.stdout != b.stdout:
            diff.append("stdout %r -> %r" % (a.stdout[:60], b.stdout[:60]))
        if off[3] != on[3]:
            diff.append("files %r -> %r" % (sorted(off[3].items())[:3], sorted(on[3].items())[:3]))
        changes = "; ".join(diff) or None
    return {"python": interp.version, "interpreter": list(interp.argv), "env_set": es.name,
            "status": _status(run), "exit": run.returncode,
            "unicode_error": unicode_error(run.stderr), "where": _where(run.stderr)
            if unicode_error(run.stderr) else None,
            "encoding_warnings": warnings, "utf8_mode_changes": changes,
            "stdout": repr(run.stdout), "stderr": run.stderr.decode("utf-8", "backslashreplace")[-3000:],
            "files": {os.fsdecode(k): repr(v) for k, v in files.items()},
            "seconds": round(run.seconds, 4)}
