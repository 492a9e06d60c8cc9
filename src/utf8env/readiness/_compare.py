"""What changes between the two runs of each interpreter: the tests whose outcome or
output differs (with the first difference and the call sites active in them), the call
sites that warned (changing something or nothing), and for each call site the two honest
fixes with what each would mean for the changed tests."""
from .._errors import UsageError, Utf8envError
from ..matrix._results import Timing
from . import _junit as junit
from ._results import (PEP686, SCHEMA, TODAY, CallSite, Fix, Outcome, ReadinessResult, SuiteRun,
                       TestChange)
from ._suite import env_set, read_record

ABSENT = Outcome("absent")
_ORDER = ("passed", "failed", "error", "skipped", "absent")


def _problem(run, outcomes, record):
    if run.timed_out:
        return "timed out"
    lines = (run.stderr.decode("utf-8", "replace").strip().splitlines() or
             run.stdout.decode("utf-8", "replace").strip().splitlines() or [""])
    errors = [l.split("error: ", 1)[1] for l in lines if "error: " in l]
    tail = errors[-1] if errors else lines[-1].strip()
    if outcomes is None:
        return "pytest gave no JUnit XML (exit %s): %s" % (run.returncode, tail)
    if record is None:
        return "the plugin wrote no record (exit %s): %s" % (run.returncode, tail)
    if run.returncode == 5:
        return "no tests collected"
    return None


def _suite_run(interp, mode, folder, run):
    outcomes = junit.outcomes(folder.path("junit.xml"), (folder.dir, folder.inside(folder.dir)))
    record = read_record(folder)
    problem = _problem(run, outcomes, record)
    if run.returncode == 4 and problem:     # pytest's usage error: the arguments given
        raise UsageError("readiness: pytest refused its arguments: %s" % problem.split("): ", 1)[-1])
    counts = {}
    for o in (outcomes or {}).values():
        counts[o.outcome] = counts.get(o.outcome, 0) + 1
    suite = SuiteRun(
        python=interp.version, interpreter=list(interp.argv), mode=mode,
        utf8_mode=record["utf8_mode"] if record else None, exit=run.returncode,
        timed_out=run.timed_out, seconds=round(run.seconds, 3),
        counts={k: counts[k] for k in _ORDER if k in counts},
        filesystem_encoding=record["filesystem_encoding"] if record else None,
        locale_encoding=record["locale_encoding"] if record else None, problem=problem)
    return suite, outcomes or {}, record or {"sites": [], "tests": {}}


def _name(k, nodeids):
    if k in nodeids:
        return nodeids[k]
    classname, name = k
    return "%s::%s" % (classname, name) if classname else name


def _first_difference(today, pep686):
    if today.outcome != pep686.outcome or today.message != pep686.message:
        changed = pep686 if pep686.outcome != "passed" else today
        return "%s -> %s%s" % (today.outcome, pep686.outcome,
                               ": " + changed.message if changed.message else "")
    a, b = today.output.splitlines(), pep686.output.splitlines()
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x != y:
            return "output line %d: %r -> %r" % (i + 1, x, y)
    return "output differs"


def _sites_by_test(record):
    out = {}
    for s in record["sites"]:
        for t in s["tests"]:
            out.setdefault(t, []).append("%s:%d" % (s["file"], s["line"]))
    return out


def compare(command, world, planned, runs, workers, wall, show_all=False):
    """The ReadinessResult of the planned runs and their worlds.Run results."""
    es = env_set(world)
    suites, by_python = [], {}
    for (interp, mode, folder, _), run in zip(planned, runs):
        suite, outcomes, record = _suite_run(interp, mode, folder, run)
        suites.append(suite)
        by_python.setdefault(interp.version, {})[mode] = (outcomes, record)
    bad = [s for s in suites if s.problem]
    if bad:
        raise Utf8envError("readiness: " + "; ".join(
            "the %s run on %s: %s" % ("UTF-8 mode" if s.mode == PEP686 else "today", s.python,
                                       s.problem) for s in bad))
    changed, sites, tests = [], {}, set()
    for python, modes in by_python.items():
        (out_a, rec_a), (out_b, rec_b) = modes[TODAY], modes[PEP686]
        nodeids = {junit.key(n): n for rec in (rec_a, rec_b) for n in rec["tests"]}
        active = {}
        for rec in (rec_a, rec_b):
            for t, where in _sites_by_test(rec).items():
                active.setdefault(t, set()).update(where)
        for k in sorted(set(out_a) | set(out_b)):
            tests.add(_name(k, nodeids))
            a, b = out_a.get(k, ABSENT), out_b.get(k, ABSENT)
            if a != b:
                name = _name(k, nodeids)
                changed.append(TestChange(python=python, test=name, today=a, utf8_mode=b,
                                          difference=_first_difference(a, b),
                                          call_sites=sorted(active.get(name, ()), key=_site_key)))
        for rec, counts in ((rec_a, True), (rec_b, False)):
            for s in rec["sites"]:
                site = sites.setdefault((s["file"], s["line"]), dict(s, count=0, tests=set(),
                                                                    pythons=set()))
                site["count"] += s["count"] if counts else 0
                site["tests"].update(s["tests"])
                site["pythons"].add(python)
    users = {}
    for key, s in sites.items():
        for t in s["tests"]:
            users.setdefault(t, set()).add(key)
    by_test = {}
    for c in changed:
        by_test.setdefault(c.test, []).append(c)
    shown, hidden = [], 0
    for (file, line), s in sorted(sites.items()):
        if s["origin"] != "user" and not show_all:
            hidden += 1
            continue
        hit = sorted(t for t in s["tests"] if t in by_test)
        shown.append(CallSite(
            file=file, line=line, function=s["function"], origin=s["origin"],
            message=s["message"], count=s["count"], tests=sorted(s["tests"]),
            pythons=sorted(s["pythons"], key=_version_key), changed_tests=hit,
            fixes=_fixes([c for t in hit for c in by_test[t]],
                         ["%s:%d" % k for k in sorted({k for t in s["tests"] for k in users[t]}
                                                      - {(file, line)})])))
    return ReadinessResult(
        schema=SCHEMA, command=list(command), world=es.name, environment=es.description,
        variables=dict(es.variables), runs=suites, changed=changed, call_sites=shown,
        hidden_sites=hidden, tests=len(tests), ready=not changed,
        timing=Timing(wall_seconds=round(wall, 3),
                      cell_seconds=round(sum(s.seconds for s in suites), 3),
                      workers=workers, jobs=len(suites)))


def _site_key(where):
    file, _, line = where.rpartition(":")
    return file, int(line)


def _version_key(version):
    return tuple(int(x) for x in version.split("."))


def _said(outcome):
    words = {"passed": "passes", "failed": "fails", "error": "errors", "skipped": "is skipped",
             "absent": "does not run"}[outcome.outcome]
    return words + (" (%s)" % outcome.message if outcome.message and outcome.outcome != "passed" else "")


def _phrases(changes, attr, tail):
    """"T fails (...), as ..." once per test and outcome, with the Pythons when several."""
    seen = {}
    for c in changes:
        seen.setdefault("%s %s" % (c.test, _said(getattr(c, attr))), []).append(c.python)
    several = len({c.python for c in changes}) > 1
    return "; ".join("%s%s, %s" % (phrase, " on %s" % ", ".join(pythons) if several else "", tail)
                     for phrase, pythons in seen.items())


def _fixes(changes, partners):
    """encoding="utf-8" and encoding="locale", with what each means for `changes` (the
    changed tests that hit the site). Both runs switch every call site at once: a site
    whose tests also use `partners` is measured together with them."""
    together = ("; measured together with %s, which the same tests use: fix them together"
                % ", ".join(partners)) if partners else ""
    if not changes:
        return [Fix("utf-8", "the 3.15 behaviour on every version; no test changes" + together),
                Fix("locale", "today's behaviour kept on 3.15 (Python 3.10+); no test changes"
                    + together)]
    utf8 = _phrases(changes, "utf8_mode", "as with UTF-8 mode")
    kept = _phrases(changes, "today", "as today")
    return [Fix("utf-8", "the 3.15 behaviour on every version: " + utf8 + together),
            Fix("locale", "today's behaviour kept on 3.15 (Python 3.10+): " + kept + together)]
