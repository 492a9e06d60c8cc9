"""The real cron place: Debian's cron daemon (tests/support/crond.py) runs the crontab
lines below, and what each job saw and wrote is asserted exactly. These are the facts
doctor's cron findings and fixes rest on:

  a. a job's environment is cron's four (SHELL, HOME, PATH=/usr/bin:/bin, LOGNAME), plus
     what pam_env reads from /etc/environment and /etc/default/locale (the latter wins),
     plus the crontab's own lines, which win over both; nothing of the daemon's own
     environment;
  b. a crontab cannot write `LC_ALL=` (crontab(1) refuses it); `LC_ALL=""` gives the job
     an empty LC_ALL over /etc/default/locale's LC_ALL=C, and the job then runs in LANG's
     UTF-8 locale;
  c. `LANG=C.UTF-8` in the crontab (or in /etc/default/locale) is what Python 3.6 needs
     to print a non-ASCII character; without it, UnicodeEncodeError;
  d. `/ABS/PATH/utf8env run -- python3.6 ...` works with no locale at all; a bare
     `utf8env` is not found (cron's PATH is /usr/bin:/bin).

All jobs run in one minute tick (one wait, up to ~62 s, for the whole module).
"""
import os
import sys

import pytest

from support import crond, machine

PRINT_E_ACUTE = "-c 'print(\"\\u00e9\")'"       # the shell gives python: print("\u00e9")
ENCODINGS = ("-c 'import sys,locale; print(locale.getpreferredencoding(), "
             "sys.stdout.encoding)'")
ENVIRON = "* * * * * cat /proc/$$/environ"       # /bin/sh's own environment: what cron gave
CRON_FOUR = {"SHELL": "/bin/sh", "HOME": "/root", "PATH": "/usr/bin:/bin", "LOGNAME": "root"}
ASCII_ERROR = (b"Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
               b"UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in position "
               b"0: ordinal not in range(128)\n")


def _need_cron():
    ok, why = crond.available()
    if not ok:
        pytest.skip(why)


def _utf8env_script():
    """The utf8env console script of the interpreter running the tests (not pyenv's shim:
    cron has no pyenv)."""
    path = os.path.join(os.path.dirname(sys.executable), "utf8env")
    if not os.access(path, os.X_OK):
        pytest.skip("no utf8env console script beside %s: pip install -e . (bash "
                    "tests/setup.sh does)" % sys.executable)
    return path


def _places(folder, py36, py311, utf8env):
    def cron(name, **files):
        return crond.Cron(os.path.join(folder, name), **files)
    e_acute = "%s %s" % (py36, PRINT_E_ACUTE)
    return {
        "empty": (cron("empty"), {
            "environ": ENVIRON,
            "py36": "* * * * * %s" % e_acute,
            "py36-lang": "LANG=C.UTF-8\n* * * * * %s" % e_acute,
            "run": "* * * * * %s run -- %s" % (utf8env, e_acute),
            "run-bare": "* * * * * utf8env run -- %s" % e_acute,
        }),
        "locale": (cron("locale", default_locale="LANG=C.UTF-8\n"), {
            "environ": ENVIRON,
            "py36": "* * * * * %s" % e_acute,
        }),
        "crontab-vs-locale": (cron("crontab-vs-locale", default_locale="LANG=yy_YY.UTF-8\n"), {
            "environ": "LANG=xx_XX.UTF-8\n" + ENVIRON,
        }),
        "environment": (cron("environment", environment="LANG=ee_EE.UTF-8\nLC_CTYPE=C.UTF-8\n"), {
            "environ": ENVIRON,
        }),
        "environment-vs-locale": (cron("environment-vs-locale",
                                       environment="LANG=ee_EE.UTF-8\n",
                                       default_locale="LANG=yy_YY.UTF-8\n"), {
            "environ": ENVIRON,
        }),
        "lc-all-c": (cron("lc-all-c", default_locale="LC_ALL=C\nLANG=C.UTF-8\n"), {
            "environ": ENVIRON,
            "charmap": "* * * * * locale charmap",
            "py311": "* * * * * %s %s" % (py311, ENCODINGS),
            "py36": "* * * * * %s" % e_acute,
            "emptied-environ": 'LC_ALL=""\n' + ENVIRON,
            "emptied-charmap": 'LC_ALL=""\n* * * * * locale charmap',
            "emptied-py311": 'LC_ALL=""\n* * * * * %s %s' % (py311, ENCODINGS),
            "emptied-py36": 'LC_ALL=""\n* * * * * %s' % e_acute,
        }),
    }


@pytest.fixture(scope="module")
def jobs(tmp_path_factory):
    """{place: {job: crond.Job}}: every job of the module, run once, in one tick."""
    _need_cron()
    machine.mount_namespace("Debian's cron in a private mount namespace")
    py36, py311 = machine.python("3.6"), machine.python("3.11")
    places = _places(str(tmp_path_factory.mktemp("cron")), py36, py311, _utf8env_script())
    names = sorted(places)
    results = crond.run_together([places[name] for name in names])
    return dict(zip(names, results))


def _environ(job):
    assert job.status == 0 and job.stderr == b"", job
    assert job.stdout.endswith(b"\0"), job
    return dict(entry.decode().split("=", 1) for entry in job.stdout[:-1].split(b"\0"))


def _ok(job, stdout):
    assert (job.status, job.stdout, job.stderr) == (0, stdout, b"")


# a. The environment a job gets.

def test_a_job_gets_cron_s_four_variables_and_no_locale(jobs):
    # Empty /etc/default/locale and /etc/environment: no LANG, no LC_*; the daemon's own
    # LANG=C.UTF-8 and marker (crond.DAEMON_ENV) do not leak into the job.
    assert jobs["empty"]["environ"].stdout == (
        b"SHELL=/bin/sh\0HOME=/root\0PATH=/usr/bin:/bin\0LOGNAME=root\0")
    assert _environ(jobs["empty"]["environ"]) == CRON_FOUR


def test_pam_env_gives_the_job_etc_default_locale(jobs):
    assert _environ(jobs["locale"]["environ"]) == dict(CRON_FOUR, LANG="C.UTF-8")


def test_pam_env_gives_the_job_etc_environment(jobs):
    assert _environ(jobs["environment"]["environ"]) == dict(
        CRON_FOUR, LANG="ee_EE.UTF-8", LC_CTYPE="C.UTF-8")


def test_etc_default_locale_wins_over_etc_environment(jobs):
    assert _environ(jobs["environment-vs-locale"]["environ"]) == dict(CRON_FOUR, LANG="yy_YY.UTF-8")


def test_the_crontab_s_lang_wins_over_etc_default_locale(jobs):
    assert _environ(jobs["crontab-vs-locale"]["environ"]) == dict(CRON_FOUR, LANG="xx_XX.UTF-8")


# b. Emptying LC_ALL in the crontab.

def test_crontab_refuses_an_lc_all_line_with_no_value(tmp_path):
    _need_cron()
    machine.mount_namespace("crontab(1) in a private mount namespace")
    status, output = crond.install(tmp_path, "LC_ALL=\n* * * * * true\n")
    assert status == 1
    assert output == ('"%s/crontab":0: bad minute\nerrors in crontab file, can\'t install.\n'
                      % tmp_path)
    status, output = crond.install(tmp_path, 'LC_ALL=""\n* * * * * true\n')
    assert (status, output) == (0, 'LC_ALL=""\n* * * * * true\n')


def test_lc_all_c_from_etc_default_locale_makes_the_job_ascii(jobs):
    place = jobs["lc-all-c"]
    assert _environ(place["environ"]) == dict(CRON_FOUR, LC_ALL="C", LANG="C.UTF-8")
    _ok(place["charmap"], b"ANSI_X3.4-1968\n")
    # 3.7+ turns the UTF-8 mode on in the C locale (PEP 540): 3.11 is fine, 3.6 is not.
    _ok(place["py311"], b"utf-8 utf-8\n")
    assert (place["py36"].status, place["py36"].stdout, place["py36"].stderr) == (
        1, b"", ASCII_ERROR)


def test_an_emptied_lc_all_in_the_crontab_gives_lang_s_utf8(jobs):
    place = jobs["lc-all-c"]
    assert _environ(place["emptied-environ"]) == dict(CRON_FOUR, LC_ALL="", LANG="C.UTF-8")
    _ok(place["emptied-charmap"], b"UTF-8\n")
    _ok(place["emptied-py311"], b"UTF-8 utf-8\n")
    _ok(place["emptied-py36"], b"\xc3\xa9\n")


# c. Python 3.6 needs a UTF-8 LANG.

def test_python36_without_a_locale_fails_with_unicode_encode_error(jobs):
    job = jobs["empty"]["py36"]
    assert (job.status, job.stdout, job.stderr) == (1, b"", ASCII_ERROR)


def test_lang_c_utf8_in_the_crontab_fixes_python36(jobs):
    _ok(jobs["empty"]["py36-lang"], b"\xc3\xa9\n")


def test_lang_c_utf8_in_etc_default_locale_fixes_python36(jobs):
    _ok(jobs["locale"]["py36"], b"\xc3\xa9\n")


# d. utf8env run, by its absolute path.

def test_utf8env_run_by_absolute_path_fixes_python36(jobs):
    _ok(jobs["empty"]["run"], b"\xc3\xa9\n")


def test_a_bare_utf8env_is_not_found_on_cron_s_path(jobs):
    job = jobs["empty"]["run-bare"]
    assert (job.status, job.stdout, job.stderr) == (127, b"", b"/bin/sh: 1: utf8env: not found\n")


# The harness: one tick for the whole module.

def test_every_job_ran_in_one_minute_tick_just_after_the_boundary(jobs):
    started = [job.started for place in jobs.values() for job in place.values()]
    assert len(started) == 18
    assert len({int(t // 60) for t in started}) == 1, sorted(started)
    assert max(t % 60 for t in started) < 5, sorted(started)
