"""doctor inside a real cron job, and every fix it prints there applied, as printed, in a
real cron job, with the next tick's doctor then saying "ok" and Python 3.6 printing "é".

The place is Debian's cron daemon (tests/support/crond.py): a test's /etc/default/locale
and root's crontab, in a private mount namespace. utf8env is started by the absolute path
of the console script beside sys.executable (cron's PATH is /usr/bin:/bin).

Two minute ticks for the whole module:
  tick 1  every diagnosis: `doctor --json` in each place, Python 3.6's print("é") there
          (the problem, shown), and `doctor --fix --no-pythons` followed by `crontab -l`
          and the backup, in the job itself (--fix changes that namespace's crontab);
  tick 2  every non-install option of every problem printed in tick 1, applied by its
          "where": "the crontab (crontab -e), above the job's line" puts its lines just
          above the job's line (below the crontab's own lines), "the crontab's job line,
          between its schedule and the program's arguments" puts its line between the
          schedule and Python 3.6's arguments; a "where" this module does not know fails
          its test (a fix that no test has applied is not printed). An install option is
          not run (it would change this machine): its lines are asserted exactly.
          And the crontab that --fix left, as `crontab -l` gave it, with its job line
          (the harness's tick-1 command) replaced by doctor's and by Python 3.6's.
Each tick-2 place then shows doctor's verdict "ok" (with the Pythons: no error or
warning), python3.6 -c 'print("\\u00e9")' exiting 0 with b"\\xc3\\xa9\\n", and its
open(path, "w").write("\\u00e9") writing those bytes (a job-line fix: only the last two,
doctor not being that program).

--fix writes its lines at the crontab's top; cron gives a job the last of two lines of
one name, so a crontab with its own LC_ALL=C line keeps it under --fix's LC_ALL="" (the
fix-crontab-lc-all-c case), while the same line written where doctor says, just above
the job's line, works (crontab-lc-all-c)."""
import collections
import json
import os
import shlex
import subprocess
import sys

import pytest

from support import crond, machine, printed

PRINT_E_ACUTE = "-c 'print(\"\\u00e9\")'"       # the shell gives python: print("\u00e9")
E_ACUTE = b"\xc3\xa9\n"
# open(path, "w").write("\u00e9"), then the file's bytes printed (each job has a /root
# of its own).
OPEN_E_ACUTE = ("-c 'f = open(\"/root/e\", \"w\"); f.write(\"\\u00e9\"); f.close(); "
                "print(open(\"/root/e\", \"rb\").read())'")
OPENED_E_ACUTE = b"b'\\xc3\\xa9'\n"
ASCII_ERROR = (b"Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
               b"UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in position "
               b"0: ordinal not in range(128)\n")
LOCALE_GEN = printed.LOCALE_GEN

# The "where" of each fix doctor prints in a cron job, whole.
CRONTAB = "the crontab (crontab -e), above the job's line"
JOB_LINE = "the crontab's job line, between its schedule and the program's arguments"

MARK = "# utf8env doctor --fix: a UTF-8 locale for every job below"
BACKUP = "/root/.cache/utf8env/crontab.utf8env-backup"     # HOME=/root, no XDG_CACHE_HOME
SEPARATOR = "==test_doctor_cron== "

TITLES = {
    "c-locale": "LC_CTYPE is the C locale (no locale variable is set (LC_ALL, LC_CTYPE, "
                "LANG)): ASCII for every program but Python 3.7+, which coerces it",
    "lc-all-overrides": "LC_ALL=C overrides LANG=C.UTF-8: every program gets the C locale "
                        "(ASCII)",
    "locale-missing": "LANG=de_DE.UTF-8 names a locale this system does not have (C.UTF-8 is "
                      "installed): LC_CTYPE falls back to C (ASCII)",
}


# A place: its /etc/default/locale, the crontab's own lines above the job, and whether
# doctor looks for the Pythons (where a Python finding is the point).
Case = collections.namedtuple("Case", "default_locale lines pythons")
# The folder of a Python 3.6 link whose name has a blank and a % (cron's own stdin mark).
ODD_FOLDER = "pythons 100% odd"


def _py36_path(py36):
    return "PATH=%s:/usr/bin:/bin" % os.path.dirname(py36)


def _cron_word(path):
    """`path` as one word of a crontab command: sh-quoted, each % escaped (crontab(5))."""
    return shlex.quote(path).replace("%", "\\%")


def _cases(py36, odd36):
    return {
        "no-locale": Case(None, [], False),
        "lc-all-c": Case("LC_ALL=C\nLANG=C.UTF-8\n", [], False),
        "crontab-lc-all-c": Case(None, ["LC_ALL=C", "LANG=C.UTF-8"], False),
        "missing": Case("LANG=de_DE.UTF-8\n", [], False),
        # Python 3.6 on the job's PATH (the crontab's PATH= line), no locale at all.
        "py36": Case(None, [_py36_path(py36)], True),
        # A UTF-8 locale, and a PYTHONIOENCODING that breaks print("é") for every Python.
        "py36-ioencoding": Case(None, [_py36_path(py36), "LANG=C.UTF-8",
                                       "PYTHONIOENCODING=ascii"], True),
        # The same in a folder whose name has a blank and a %: the job line printed must
        # quote both for cron and its shell.
        "py36-odd": Case(None, [_py36_path(odd36)], True),
    }


def _python_of(case, py36, odd36):
    return odd36 if case.lines[:1] == [_py36_path(odd36)] else py36


# doctor --fix: the crontab's own lines above its job (MAILTO="": an old crontab to keep).
FIX_CASES = {
    "fix-no-locale": Case(None, ['MAILTO=""'], False),
    "fix-lc-all-c": Case("LC_ALL=C\nLANG=C.UTF-8\n", ['MAILTO=""'], False),
    # LC_ALL=C is the crontab's own line: a line above it is overridden by it (cron: the
    # later of two lines of one name wins).
    "fix-crontab-lc-all-c": Case(None, ["LC_ALL=C", "LANG=C.UTF-8"], False),
}


def _need_cron():
    ok, why = crond.available()
    if not ok:
        pytest.skip(why)


def _utf8env_script():
    """The utf8env console script of the interpreter running the tests, by absolute path
    (cron's PATH is /usr/bin:/bin), checked to start."""
    path = os.path.join(os.path.dirname(sys.executable), "utf8env")
    if not os.access(path, os.X_OK):
        pytest.skip("no utf8env console script beside %s: pip install -e . (bash "
                    "tests/setup.sh does)" % sys.executable)
    result = subprocess.run([path, "doctor", "--help"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    assert result.returncode == 0, result.stdout
    return path


def _doctor_args(case):
    return "doctor --json" if case.pythons else "doctor --json --no-pythons"


def _crontab(lines, command):
    return "\n".join(list(lines) + ["* * * * * " + command]) + "\n"


def _fix_command(utf8env):
    return ('%s doctor --fix --no-pythons; echo "%sstatus $?"; crontab -l; echo "%sbackup"; '
            "cat %s" % (utf8env, SEPARATOR, SEPARATOR, BACKUP))


def _json(job):
    try:
        return json.loads(job.stdout.decode("utf-8"))
    except ValueError:
        return None


def _options(finding):
    """{option: [fix, ...]} of a finding, in order."""
    options = collections.OrderedDict()
    for fix in finding["fixes"]:
        options.setdefault(fix["option"], []).append(fix)
    return options


def _apply(steps, lines, utf8env, py36, case):
    """{job: crontab text} with the option's steps applied as printed: the doctor job (not
    for a job-line fix: doctor is not that program) and Python 3.6's print("é")."""
    lines = list(lines)
    program = _cron_word(py36)
    for step in steps:
        assert step["context"] == "cron", step
        if step["where"] == CRONTAB:
            lines += step["lines"]
        elif step["where"] == JOB_LINE:
            assert len(step["lines"]) == 1, step
            program = step["lines"][0]
        else:
            raise AssertionError("no test here knows how to apply a fix at %r" % step["where"])
    jobs = _py36_jobs(lines, program)
    if program == _cron_word(py36):
        jobs["doctor"] = _crontab(lines, "%s %s" % (utf8env, _doctor_args(case)))
    return jobs


def _py36_jobs(lines, program):
    """Python 3.6 (`program`: it, or what a fix puts in front of it) printing "é" and
    writing it to a file."""
    return {"py36": _crontab(lines, "%s %s" % (program, PRINT_E_ACUTE)),
            "py36-open": _crontab(lines, "%s %s" % (program, OPEN_E_ACUTE))}


def _split_fix(job):
    """(doctor --fix's output, its status, `crontab -l`, the backup) of a --fix job."""
    text = job.stdout.decode("utf-8")
    output, _, rest = text.partition(SEPARATOR + "status ")
    status, _, rest = rest.partition("\n")
    listed, _, backup = rest.partition(SEPARATOR + "backup\n")
    return output, status, listed, backup


@pytest.fixture(scope="module")
def ticks(tmp_path_factory):
    """{"tick1": {case: {job: Job}}, "tick2": {(case, code, option): {job: Job}},
    "crontabs": {case: tick-1 crontab text}, "fix2": {case: tick-2 crontab text},
    "errors": {(case, code, option): why it could not be applied}}."""
    _need_cron()
    machine.mount_namespace("Debian's cron in a private mount namespace")
    py36 = machine.python("3.6")
    utf8env = _utf8env_script()
    folder = str(tmp_path_factory.mktemp("doctor-cron"))
    odd36 = os.path.join(folder, ODD_FOLDER, "python3.6")
    os.makedirs(os.path.dirname(odd36))
    os.symlink(os.path.realpath(py36), odd36)
    cases = _cases(py36, odd36)

    places, names, crontabs = [], [], {}
    for name, case in sorted(cases.items()):
        jobs = _py36_jobs(case.lines, _cron_word(_python_of(case, py36, odd36)))
        jobs["doctor"] = _crontab(case.lines, "%s %s" % (utf8env, _doctor_args(case)))
        if name == "py36-ioencoding":
            # What `utf8env run` in front of 3.6 would give there: not a fix (not printed).
            jobs["py36-run"] = _crontab(case.lines, "%s run -- %s %s" % (
                utf8env, py36, PRINT_E_ACUTE))
        places.append((crond.Cron(os.path.join(folder, "1", name), case.default_locale), jobs))
        names.append(name)
    for name, case in sorted(FIX_CASES.items()):
        cron = crond.Cron(os.path.join(folder, "1", name), case.default_locale)
        places.append((cron, {"fix": _crontab(case.lines, _fix_command(utf8env))}))
        names.append(name)
    tick1 = dict(zip(names, crond.run_together(places, timeout=150)))
    for (cron, _), name in zip(places, names):
        if name in FIX_CASES:
            with open(os.path.join(cron.folder, "fix", "crontab")) as f:
                crontabs[name] = f.read()       # what the harness installed

    places, keys, errors, fix2 = [], [], {}, {}
    for name, case in sorted(cases.items()):
        data = _json(tick1[name]["doctor"])
        for finding in (data or {}).get("findings", ()):
            if finding["severity"] == "note":
                continue
            for option, steps in _options(finding).items():
                if any(step["context"] == "install" for step in steps):
                    continue            # not run: it would change this machine
                key = (name, finding["code"], option)
                try:
                    jobs = _apply(steps, case.lines, utf8env, _python_of(case, py36, odd36),
                                  case)
                except AssertionError as error:
                    errors[key] = str(error)
                    continue
                place = "%s-%s-%d" % key
                places.append((crond.Cron(os.path.join(folder, "2", place),
                                          case.default_locale), jobs))
                keys.append(key)
    for name, case in sorted(FIX_CASES.items()):
        listed = _split_fix(tick1[name]["fix"])[2]
        # The crontab --fix left, its job line (the harness's tick-1 command) replaced.
        lines = listed.rstrip("\n").split("\n")[:-1]
        fix2[name] = lines
        jobs = _py36_jobs(lines, py36)
        jobs["doctor"] = _crontab(lines, "%s %s" % (utf8env, _doctor_args(case)))
        places.append((crond.Cron(os.path.join(folder, "2", name), case.default_locale), jobs))
        keys.append((name, "--fix", 0))
    tick2 = dict(zip(keys, crond.run_together(places, timeout=150)))
    return {"tick1": tick1, "tick2": tick2, "crontabs": crontabs, "fix2": fix2,
            "errors": errors, "py36": py36, "odd36": odd36, "utf8env": utf8env}


def _data(job):
    data = _json(job)
    assert data is not None, job
    return data


def _problems(data):
    return [f for f in data["findings"] if f["severity"] != "note"]


def _diagnosis(ticks, name):
    """(doctor's JSON, its one problem) in the tick-1 job of `name`, in a cron job."""
    job = ticks["tick1"][name]["doctor"]
    data = _data(job)
    assert job.stderr == b"", job
    assert (job.status, data["verdict"], data["problems"]) == (1, "1 problem", 1), data["findings"]
    assert (data["contexts"][0]["name"], data["contexts"][0]["summary"]) == ("cron", "cron job")
    problems = _problems(data)
    assert len(problems) == 1, problems
    return data, problems[0]


def _py36_fails(ticks, name, jobs=("py36", "py36-open")):
    """Python 3.6's print("é") there, and (not with PYTHONIOENCODING) its open().write("é"),
    fail in tick 1: the problem, shown."""
    for job in jobs:
        job = ticks["tick1"][name][job]
        assert (job.status, job.stdout, job.stderr) == (1, b"", ASCII_ERROR)


def _applied(ticks, name, code, option):
    key = (name, code, option)
    assert key not in ticks["errors"], ticks["errors"][key]
    assert key in ticks["tick2"], "not applied in tick 2: %r" % (key,)
    return ticks["tick2"][key]


def _py36_ok(jobs):
    job = jobs["py36"]
    assert (job.status, job.stdout, job.stderr) == (0, E_ACUTE, b"")
    job = jobs["py36-open"]
    assert (job.status, job.stdout, job.stderr) == (0, OPENED_E_ACUTE, b"")


def _ok(jobs, pythons=False):
    """The tick-2 doctor says ok (with the Pythons: no error or warning, only notes) and
    Python 3.6 prints é and writes it to a file."""
    _py36_ok(jobs)
    job = jobs["doctor"]
    data = _data(job)
    findings = _problems(data) if pythons else data["findings"]
    assert (job.status, data["verdict"], data["problems"], findings) == (0, "ok", 0, []), \
        data["findings"]
    return data


# No locale at all: LANG=C.UTF-8 in the crontab.

def test_no_locale_finding_and_fix(ticks):
    _, finding = _diagnosis(ticks, "no-locale")
    assert (finding["code"], finding["title"]) == ("c-locale", TITLES["c-locale"])
    assert finding["fixes"] == [
        {"option": 1, "where": CRONTAB, "context": "cron", "lines": ["LANG=C.UTF-8"]}]
    _py36_fails(ticks, "no-locale")


def test_no_locale_fix_applied(ticks):
    _ok(_applied(ticks, "no-locale", "c-locale", 1))


# LC_ALL=C over LANG=C.UTF-8: an emptied LC_ALL in the crontab.

def test_lc_all_c_finding_and_fix(ticks):
    _, finding = _diagnosis(ticks, "lc-all-c")
    assert (finding["code"], finding["title"]) == ("lc-all-overrides", TITLES["lc-all-overrides"])
    assert finding["fixes"] == [
        {"option": 1, "where": CRONTAB, "context": "cron", "lines": ['LC_ALL=""']}]
    _py36_fails(ticks, "lc-all-c")


def test_lc_all_c_fix_applied(ticks):
    _ok(_applied(ticks, "lc-all-c", "lc-all-overrides", 1))


def test_crontab_s_own_lc_all_c_finding_and_fix(ticks):
    _, finding = _diagnosis(ticks, "crontab-lc-all-c")
    assert (finding["code"], finding["title"]) == ("lc-all-overrides", TITLES["lc-all-overrides"])
    assert finding["fixes"] == [
        {"option": 1, "where": CRONTAB, "context": "cron", "lines": ['LC_ALL=""']}]
    _py36_fails(ticks, "crontab-lc-all-c")


def test_crontab_s_own_lc_all_c_fix_applied_above_the_job_line(ticks):
    _ok(_applied(ticks, "crontab-lc-all-c", "lc-all-overrides", 1))


# A locale this system lacks: LANG=C.UTF-8 in the crontab, or the locale installed.

def test_missing_locale_finding_and_fixes(ticks):
    _, finding = _diagnosis(ticks, "missing")
    assert (finding["code"], finding["title"]) == ("locale-missing", TITLES["locale-missing"])
    assert finding["fixes"] == [
        {"option": 1, "where": CRONTAB, "context": "cron", "lines": ["LANG=C.UTF-8"]},
        printed.install_option("de_DE.UTF-8", 2)]
    _py36_fails(ticks, "missing")


def test_missing_locale_fix_applied(ticks):
    _ok(_applied(ticks, "missing", "locale-missing", 1))


# Python 3.6 (on the job's PATH) with no locale: the locale finding's fix is its fix.

def test_python36_with_no_locale_findings_and_fix(ticks):
    py36 = ticks["py36"]
    data = _data(ticks["tick1"]["py36"]["doctor"])
    assert (data["contexts"][0]["name"], data["contexts"][0]["summary"]) == ("cron", "cron job")
    by_code = {f["code"]: f for f in _problems(data)}
    assert sorted(by_code) == ["c-locale", "open-fails", "print-fails"], data["findings"]
    assert by_code["print-fails"]["title"] == (
        'print("\u00e9") raises UnicodeEncodeError on Python 3.6 (%s)' % py36)
    assert by_code["open-fails"]["title"] == (
        'open(path, "w").write("\u00e9") raises UnicodeEncodeError on Python 3.6 (%s)' % py36)
    said_once = "the locale finding's fix makes it go away (decide() with LANG=C.UTF-8)"
    for code in ("print-fails", "open-fails"):
        # The locale change is said once, in c-locale's fix; `utf8env run` stays.
        assert by_code[code]["fixes"] == [
            {"option": 1, "where": JOB_LINE, "context": "cron",
             "lines": ["%s run -- %s" % (ticks["utf8env"], py36)]}], by_code[code]
        assert by_code[code]["evidence"][-1] == said_once
    assert by_code["c-locale"]["title"] == TITLES["c-locale"]
    assert by_code["c-locale"]["fixes"] == [
        {"option": 1, "where": CRONTAB, "context": "cron", "lines": ["LANG=C.UTF-8"]}]
    _py36_fails(ticks, "py36")


def test_python36_with_no_locale_fix_applied(ticks):
    data = _ok(_applied(ticks, "py36", "c-locale", 1), pythons=True)
    assert [(p["prediction"]["print"], p["prediction"]["open_write"]) for p in data["pythons"]
            if p["path"] == ticks["py36"]] == [("ok", "ok")]


@pytest.mark.parametrize("code", ["print-fails", "open-fails"])
def test_python36_with_no_locale_through_utf8env_run(ticks, code):
    jobs = _applied(ticks, "py36", code, 1)
    assert sorted(jobs) == ["py36", "py36-open"]        # doctor is not the program
    _py36_ok(jobs)


def test_python36_in_a_folder_with_a_blank_and_a_percent_job_line_as_printed(ticks):
    """The job line printed for a Python 3.6 whose folder has a blank and a %: quoted for
    the shell, the % escaped for cron; applied, it prints and writes é."""
    odd36 = ticks["odd36"]
    data = _data(ticks["tick1"]["py36-odd"]["doctor"])
    by_code = {f["code"]: f for f in _problems(data)}
    assert sorted(by_code) == ["c-locale", "open-fails", "print-fails"], data["findings"]
    quoted = "'%s'" % odd36.replace("%", "\\%")
    for code in ("print-fails", "open-fails"):
        assert by_code[code]["fixes"] == [
            {"option": 1, "where": JOB_LINE, "context": "cron",
             "lines": ["%s run -- %s" % (ticks["utf8env"], quoted)]}], by_code[code]
    _py36_fails(ticks, "py36-odd")
    for code in ("print-fails", "open-fails"):
        _py36_ok(_applied(ticks, "py36-odd", code, 1))
    _ok(_applied(ticks, "py36-odd", "c-locale", 1), pythons=True)


# Python 3.6 with PYTHONIOENCODING=ascii: PYTHONIOENCODING emptied (utf8env run is no fix:
# PYTHONIOENCODING wins there too).

def test_python36_with_pythonioencoding_finding_and_fixes(ticks):
    py36 = ticks["py36"]
    data = _data(ticks["tick1"]["py36-ioencoding"]["doctor"])
    problems = _problems(data)
    assert [f["code"] for f in problems] == ["print-fails"], data["findings"]
    finding = problems[0]
    # Every Python found fails (PYTHONIOENCODING comes first), 3.6 (first on PATH) first.
    failing = ["Python %s (%s)" % (p["version"], p["path"]) for p in data["pythons"]
               if p["prediction"] is not None and p["prediction"]["print"] == "fails"]
    assert failing[0] == "Python 3.6 (%s)" % py36
    assert finding["title"] == 'print("\u00e9") raises UnicodeEncodeError on ' + ", ".join(failing)
    assert finding["fixes"] == [
        {"option": 1, "where": CRONTAB, "context": "cron", "lines": ['PYTHONIOENCODING=""']}]
    _py36_fails(ticks, "py36-ioencoding", ("py36", "py36-run"))
    job = ticks["tick1"]["py36-ioencoding"]["py36-open"]
    assert (job.status, job.stdout, job.stderr) == (0, OPENED_E_ACUTE, b"")


def test_python36_with_pythonioencoding_emptied(ticks):
    _ok(_applied(ticks, "py36-ioencoding", "print-fails", 1), pythons=True)


# doctor --fix: the crontab changed, read back, then run as it is in the next tick.

def _fixed(ticks, name, lines):
    output, status, listed, backup = _split_fix(ticks["tick1"][name]["fix"])
    assert ticks["tick1"][name]["fix"].stderr == b""
    assert (output, status) == (
        "before: 1 problem\n\nchanged:\n  the crontab (above its first job), backup in %s\n%s\n"
        "after, in a new session: not checked: cron starts its jobs itself: a job running "
        "`utf8env doctor` (crontab -e) says it at its next run\n"
        % (BACKUP, "".join("      %s\n" % l for l in lines)),
        "3")
    old = ticks["crontabs"][name]
    assert backup == old
    return listed, old


def _above_the_job(old, block):
    """The crontab `old` (its settings, then its one job line) with `block` just above
    the job: where doctor --fix puts its lines."""
    lines = old.splitlines(True)
    return "".join(lines[:-1]) + block + lines[-1]


def test_doctor_fix_with_no_locale_puts_lang_above_the_job(ticks):
    listed, old = _fixed(ticks, "fix-no-locale", ["LANG=C.UTF-8"])
    assert listed == _above_the_job(old, MARK + "\nLANG=C.UTF-8\n")


def test_doctor_fix_with_lc_all_c_puts_an_emptied_lc_all_above_the_job(ticks):
    listed, old = _fixed(ticks, "fix-lc-all-c", ['LC_ALL=""'])
    assert listed == _above_the_job(old, MARK + '\nLC_ALL=""\n')


def test_doctor_fix_with_the_crontab_s_own_lc_all_c_goes_below_it(ticks):
    listed, old = _fixed(ticks, "fix-crontab-lc-all-c", ['LC_ALL=""'])
    assert listed == _above_the_job(old, MARK + '\nLC_ALL=""\n')


@pytest.mark.parametrize("name", sorted(FIX_CASES))
def test_the_crontab_doctor_fix_left_gives_doctor_ok(ticks, name):
    # Run as `crontab -l` gave it, its job line replaced by doctor's and Python 3.6's.
    assert MARK in ticks["fix2"][name]
    jobs = ticks["tick2"][(name, "--fix", 0)]
    data = _data(jobs["doctor"])
    assert (data["verdict"], [f["title"] for f in data["findings"]]) == ("ok", []), (
        "with the crontab doctor --fix left (it said: not checked):\n%s"
        % "\n".join(ticks["fix2"][name]))
    _ok(jobs)


def test_every_printed_option_was_applied_and_two_ticks_were_enough(ticks):
    assert ticks["errors"] == {}
    assert sorted(k for k in ticks["tick2"] if k[1] != "--fix") == [
        ("crontab-lc-all-c", "lc-all-overrides", 1), ("lc-all-c", "lc-all-overrides", 1),
        ("missing", "locale-missing", 1), ("no-locale", "c-locale", 1), ("py36", "c-locale", 1),
        ("py36", "open-fails", 1), ("py36", "print-fails", 1),
        ("py36-ioencoding", "print-fails", 1), ("py36-odd", "c-locale", 1),
        ("py36-odd", "open-fails", 1), ("py36-odd", "print-fails", 1)]
    for tick in ("tick1", "tick2"):
        started = [job.started for place in ticks[tick].values() for job in place.values()]
        assert len({int(t // 60) for t in started}) == 1, sorted(started)
