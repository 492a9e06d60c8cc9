"""`utf8env env --format crontab` and `--format dockerfile`, applied exactly as printed in
a real place of their kind, and shown to work there: Python 3.6 prints "é" (b"\\xc3\\xa9\\n",
status 0), and without the printed lines, in the same place, it does not.

  crontab     Debian's real cron daemon (tests/support/crond.py): the target is described
              as a cron job's environment (--empty-env --env PATH=/usr/bin:/bin --env
              SHELL=/bin/sh, plus the locale variables the place's /etc/default/locale
              gives), and env's stdout, verbatim, is the crontab's environment lines
              (its comments are crontab comments), then the job line. Where env prints
              the line that starts the command through `utf8env run`, that line is the
              job, its @daily replaced by `* * * * *`. Every job of the module runs in
              one minute tick.
  dockerfile  a root file system like Docker's debian:bookworm-slim, built and entered as
              `docker build` / `docker run` do (tests/support/container.py), with utf8env
              installed in /opt/utf8env (a venv of the host's 3.6, bound read-only at its
              own path); env's stdout is applied with build(), its `#` lines left out as
              Docker's parser leaves out comments, and the image then run.

tests/test_envformat.py proves each format's quoting through real parsers and ports of
them; this file proves what the lines DO in the place they are written for."""
import os
import subprocess
import sys

import pytest

from support import container, crond, machine
from utf8env._own_command import own_command

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(HERE)
UTF8ENV = own_command()
PY36 = "/root/.pyenv/versions/3.6.15/bin/python3.6"
E_ACUTE = 'print("\\u00e9")'                          # ASCII source: print("\u00e9")
COMMAND = [PY36, "-c", E_ACUTE]
JOB = "* * * * * %s -c 'print(\"\\u00e9\")'" % PY36   # what the shell gives python: COMMAND
E_OUT = b"\xc3\xa9\n"
ASCII_ERROR = (b"Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
               b"UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in position "
               b"0: ordinal not in range(128)\n")
PY311_CODE = ("import sys, locale; print('\\u00e9', sys.stdout.encoding, "
              "locale.getpreferredencoding(False))")

# What env prints, byte for byte (the notes as env words them).
PIOE_NOTE = (b"# utf8env: PYTHONIOENCODING gives Python 3.6 the stdin and stdout that 3.7 has "
             b"here (`utf8env run` gives them through a bootstrap)\n")
COERCE = b"LC_CTYPE=C.UTF-8\nPYTHONIOENCODING=utf-8:surrogateescape\n"
ONLY_RUN = (b"# utf8env: only `utf8env run` starts " + PY36.encode() + b" as it would: open() "
            b"UTF-8/strict, where variables alone give ANSI_X3.4-1968/strict; preferred_encoding "
            b"UTF-8, where variables alone give ANSI_X3.4-1968; Python 3.6 has no UTF-8 mode of "
            b"its own: `utf8env run` applies it through a bootstrap\n"
            b"# utf8env: sys.getfilesystemencoding() stays ascii: Python 3.6 fixes it at start-up "
            b"from the locale (LC_CTYPE C), and no UTF-8 locale could be set\n")
LC_ALL_NOTE = (b"# utf8env: LC_ALL=C wins over LC_CTYPE and LANG, and neither CPython nor `utf8env "
               b"run` overrides it unasked: for a UTF-8 locale in every program, remove LC_ALL "
               b"from the target's environment (then set LC_CTYPE=C.UTF-8); --override-lc-all "
               b"does both\n")
ANY_LC_ALL = (b"# utf8env: nothing to set: a non-empty LC_ALL is an explicit choice: CPython "
              b"never overrides it\n"
              b"# utf8env: Python 3.6 started here needs `utf8env run -- COMMAND` (give COMMAND "
              b"for its line): open() UTF-8/strict, where variables alone give ANSI_X3.4-1968/"
              b"strict; preferred_encoding UTF-8, where variables alone give ANSI_X3.4-1968; "
              b"Python 3.6 has no UTF-8 mode of its own: `utf8env run` applies it through a "
              b"bootstrap\n" + LC_ALL_NOTE)
CRON_SCHEDULE_NOTE = (b"# utf8env: replace @daily by the job's schedule; cron's PATH is "
                      b"/usr/bin:/bin: write utf8env's full path (command -v utf8env) if it is "
                      b"elsewhere\n")
CRON_ARGS = b" run -- " + PY36.encode() + b" -c 'print(\"\\''u00e9\")'\n"


def _env(args, environ=None, argv0=None):
    """env's stdout (status 0, nothing on stderr) for `utf8env env ARGS`, started as the
    tests start it (this checkout) or by `argv0`."""
    out = subprocess.run((argv0 or UTF8ENV) + ["env"] + list(args),
                         env=environ or {"PATH": "/usr/bin:/bin"},
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (out.returncode, out.stderr) == (0, b""), out
    return out.stdout


def _need_py36():
    if machine.python("3.6") != PY36 or not os.access(PY36, os.X_OK):
        pytest.skip("no CPython 3.6 at %s: `pyenv install 3.6.15`" % PY36)


def _ok(job, stdout=E_OUT):
    assert (job.status, job.stdout, job.stderr) == (0, stdout, b""), job


def _fails_36(job):
    assert (job.status, job.stdout, job.stderr) == (1, b"", ASCII_ERROR), job


# == crontab: Debian's cron ===============================================================

CRON_TARGET = ["--empty-env", "--env", "PATH=/usr/bin:/bin", "--env", "SHELL=/bin/sh",
               "--format", "crontab"]
# The places: what /etc/default/locale gives every job (pam_env), and the same as --env.
CRON_PLACES = {
    "none": (None, []),
    "lang-c": ("LANG=C\n", ["--env", "LANG=C"]),
    "missing": ("LANG=xx_XX.UTF-8\n", ["--env", "LANG=xx_XX.UTF-8"]),
    "lc-all-c": ("LC_ALL=C\n", ["--env", "LC_ALL=C"]),
}


def _this_machine_launcher():
    """The installed utf8env command of the interpreter running the tests, by its
    absolute path (cron has no pyenv shims)."""
    path = os.path.join(os.path.dirname(sys.executable), "utf8env")
    if not os.access(path, os.X_OK):
        pytest.skip("no utf8env command beside %s: pip install -e . (bash tests/setup.sh does)"
                    % sys.executable)
    return path


# What cron gives a job, with LC_ALL=C from /etc/default/locale: this machine's target
# (HOME is the test's, so that nothing env keeps lands in the real ~/.cache).
CRON_JOB_ENV = {"SHELL": "/bin/sh", "PATH": "/usr/bin:/bin", "LOGNAME": "root", "LC_ALL": "C"}


@pytest.fixture(scope="module")
def cron_printed():
    """{case: env's stdout} of every crontab case."""
    _need_py36()
    printed = {}
    for place, (_, described) in CRON_PLACES.items():
        printed[place, "command"] = _env(CRON_TARGET + described + ["--"] + COMMAND)
        printed[place, "any"] = _env(CRON_TARGET + described)
    described = CRON_PLACES["lc-all-c"][1]
    printed["lc-all-c", "override"] = _env(CRON_TARGET + ["--override-lc-all"] + described
                                           + ["--"] + COMMAND)
    printed["lc-all-c", "override-any"] = _env(CRON_TARGET + ["--override-lc-all"] + described)
    # The target is this machine, in the environment cron gives a job: no --empty-env,
    # no --locales. As a user runs it (the installed command), and as the tests do
    # (this checkout, by the interpreter running the tests).
    job_env = dict(CRON_JOB_ENV, HOME=os.environ["HOME"])
    printed["this", "launcher"] = _env(["--format", "crontab", "--"] + COMMAND, job_env,
                                       [_this_machine_launcher()])
    printed["this", "own"] = _env(["--format", "crontab", "--"] + COMMAND, job_env)
    return printed


def _run_line(printed):
    """The job of a printed `utf8env run` line: its @daily replaced by every minute."""
    head, _, last = printed.rstrip(b"\n").rpartition(b"\n")
    assert last.startswith(b"@daily "), printed
    return head + b"\n* * * * * " + last[len(b"@daily "):] + b"\n"


def _crontabs(printed, py311):
    def with_job(case, job=JOB):
        return printed[case].decode("utf-8") + job
    charmap, any_py311 = "* * * * * locale charmap", "* * * * * %s -c \"%s\"" % (py311, PY311_CODE)
    jobs = {}
    for place in CRON_PLACES:
        jobs[place] = {
            "py36-before": JOB,
            "charmap-before": charmap,
            "py36-after": with_job((place, "command")),
            "any-charmap-after": with_job((place, "any"), charmap),
            "any-py36-after": with_job((place, "any")),
            "any-py311-after": with_job((place, "any"), any_py311),
        }
    lc_all = jobs["lc-all-c"]
    del lc_all["py36-after"]
    lc_all["run-bare"] = _run_line(printed["lc-all-c", "command"]).decode("utf-8")
    lc_all["run-this-launcher"] = _run_line(printed["this", "launcher"]).decode("utf-8")
    lc_all["run-this-own"] = _run_line(printed["this", "own"]).decode("utf-8")
    lc_all["override-py36-after"] = with_job(("lc-all-c", "override"))
    lc_all["override-any-charmap-after"] = with_job(("lc-all-c", "override-any"), charmap)
    lc_all["override-any-py36-after"] = with_job(("lc-all-c", "override-any"))
    return jobs


@pytest.fixture(scope="module")
def cron_jobs(cron_printed, tmp_path_factory):
    """{place: {job: crond.Job}}: every crontab job of the module, in one minute tick."""
    ok, why = crond.available()
    if not ok:
        pytest.skip(why)
    machine.mount_namespace("Debian's cron in a private mount namespace")
    folder = str(tmp_path_factory.mktemp("env-cron"))
    jobs = _crontabs(cron_printed, machine.python("3.11"))
    names = sorted(jobs)
    places = [(crond.Cron(os.path.join(folder, name), default_locale=CRON_PLACES[name][0]),
               jobs[name]) for name in names]
    return dict(zip(names, crond.run_together(places)))


def test_crontab_printed_bytes(cron_printed):
    for place in ("none", "lang-c"):
        assert cron_printed[place, "command"] == COERCE + PIOE_NOTE
        assert cron_printed[place, "any"] == COERCE + PIOE_NOTE
    # A LANG naming a locale this machine lacks: replaced by C.UTF-8.
    assert cron_printed["missing", "command"] == b"LANG=C.UTF-8\n" + COERCE + PIOE_NOTE
    # For any program, the UTF-8 mode `run` keeps for a 3.7+ there (the C locale gave it).
    assert cron_printed["missing", "any"] == (b"LANG=C.UTF-8\n" + COERCE + b"PYTHONUTF8=1\n"
                                              + PIOE_NOTE)
    # LC_ALL=C: no variable does it for 3.6; the `run` line, with a bare utf8env for a
    # described target.
    assert cron_printed["lc-all-c", "command"] == (ONLY_RUN + LC_ALL_NOTE + CRON_SCHEDULE_NOTE
                                                   + b"@daily utf8env" + CRON_ARGS)
    assert cron_printed["lc-all-c", "any"] == ANY_LC_ALL
    # --override-lc-all: the empty LC_ALL, which crontab(1) takes only quoted.
    assert cron_printed["lc-all-c", "override"] == b"LC_ALL=''\n" + COERCE + PIOE_NOTE
    assert cron_printed["lc-all-c", "override-any"] == b"LC_ALL=''\n" + COERCE + PIOE_NOTE
    # This machine: utf8env by its absolute path.
    assert cron_printed["this", "launcher"] == (
        ONLY_RUN + LC_ALL_NOTE + CRON_SCHEDULE_NOTE + b"@daily "
        + _this_machine_launcher().encode() + CRON_ARGS)
    assert cron_printed["this", "own"] == (
        ONLY_RUN + LC_ALL_NOTE + CRON_SCHEDULE_NOTE + b"@daily "
        + os.path.abspath(sys.executable).encode() + b" -m utf8env" + CRON_ARGS)


@pytest.mark.parametrize("place", ["none", "lang-c", "missing"])
def test_crontab_lines_make_36_print_e_acute_under_cron(cron_jobs, place):
    jobs = cron_jobs[place]
    _fails_36(jobs["py36-before"])
    _ok(jobs["py36-after"])
    # No COMMAND: the lines for any program.
    _ok(jobs["any-py36-after"])
    _ok(jobs["any-charmap-after"], b"UTF-8\n")
    # 3.11 in C.UTF-8; where LANG named a missing locale, in the UTF-8 mode it had there.
    _ok(jobs["any-py311-after"], b"\xc3\xa9 utf-8 utf-8\n" if place == "missing"
        else b"\xc3\xa9 utf-8 UTF-8\n")


def test_crontab_before_the_lines_the_job_is_in_the_c_locale(cron_jobs):
    _ok(cron_jobs["none"]["charmap-before"], b"ANSI_X3.4-1968\n")
    _ok(cron_jobs["lang-c"]["charmap-before"], b"ANSI_X3.4-1968\n")
    missing = cron_jobs["missing"]["charmap-before"]
    assert (missing.status, missing.stdout) == (0, b"ANSI_X3.4-1968\n"), missing
    assert b"Cannot set LC_CTYPE to default locale" in missing.stderr, missing
    _ok(cron_jobs["lc-all-c"]["charmap-before"], b"ANSI_X3.4-1968\n")


def test_crontab_lc_all_c_before(cron_jobs):
    _fails_36(cron_jobs["lc-all-c"]["py36-before"])


def test_crontab_override_lc_all_lines_work_under_cron(cron_jobs):
    jobs = cron_jobs["lc-all-c"]
    _ok(jobs["override-py36-after"])
    _ok(jobs["override-any-py36-after"])
    _ok(jobs["override-any-charmap-after"], b"UTF-8\n")


def test_crontab_lc_all_c_any_program_prints_nothing_that_fixes_36(cron_jobs):
    # What env says: nothing to set, 3.6 needs `utf8env run`; its comments applied leave
    # the job as it was, as it says.
    jobs = cron_jobs["lc-all-c"]
    _fails_36(jobs["any-py36-after"])
    _ok(jobs["any-charmap-after"], b"ANSI_X3.4-1968\n")
    _ok(jobs["any-py311-after"], b"\xc3\xa9 utf-8 utf-8\n")      # 3.7+: UTF-8 mode (PEP 540)


def test_crontab_run_line_for_a_described_target_is_not_found_on_crons_path(cron_jobs):
    # The line as printed for a described target: a bare utf8env, which cron's
    # PATH=/usr/bin:/bin does not find (the printed comment says to write the full path).
    job = cron_jobs["lc-all-c"]["run-bare"]
    assert (job.status, job.stdout, job.stderr) == (127, b"", b"/bin/sh: 1: utf8env: not found\n")


def test_crontab_run_line_for_this_machine_works_under_cron(cron_jobs):
    _ok(cron_jobs["lc-all-c"]["run-this-launcher"])
    _ok(cron_jobs["lc-all-c"]["run-this-own"])


def test_crontab_every_job_ran_in_one_tick(cron_jobs):
    started = [job.started for place in cron_jobs.values() for job in place.values()]
    assert len(started) == 3 * 6 + 11
    assert len({int(t // 60) for t in started}) == 1, sorted(started)


# == dockerfile: a debian:bookworm-slim root, built and run as Docker does ================

DEFAULT_PATH = container.DEFAULT_PATH
VENV_PATH = "/opt/utf8env/bin:" + DEFAULT_PATH
DOCKER_TARGET = ["--empty-env", "--env", "PATH=" + DEFAULT_PATH, "--locales", "C.UTF-8,POSIX,C",
                 "--format", "dockerfile"]
DOCKER_COERCE = b"ENV LC_CTYPE=C.UTF-8\nENV PYTHONIOENCODING=utf-8:surrogateescape\n"
ENTRYPOINT = (b"# utf8env: the image's PATH must find utf8env (a venv's bin/ is on no default "
              b"PATH): else write its absolute path\n"
              b'ENTRYPOINT ["utf8env", "run", "--", "' + PY36.encode()
              + b'", "-c", "print(\\"\\\\u00e9\\")"]\n')
# The image's ENV before env's lines, and the same as --env.
DOCKER_PLACES = {
    "none": ([], []),
    "lang-c": (["ENV LANG=C"], ["--env", "LANG=C"]),
    "missing": (["ENV LANG=en_US.UTF-8"], ["--env", "LANG=en_US.UTF-8"]),
    "lc-all-c": (["ENV LC_ALL=C"], ["--env", "LC_ALL=C"]),
}


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """debian:bookworm-slim with utf8env in /opt/utf8env (a venv of the bound 3.6, pip
    from this checkout bound at /src, offline); afterwards only the 3.6 is bound in."""
    _need_py36()
    machine.root("entering a container")
    reason = container.unavailable()
    if reason:
        pytest.skip(reason)
    prefix = os.path.dirname(os.path.dirname(PY36))
    folder = tmp_path_factory.mktemp("env-container")
    try:
        image = container.Image().copy(folder / "root").bind(prefix).bind(CHECKOUT, "/src")
        image.build(["RUN %s -m venv /opt/utf8env && /opt/utf8env/bin/pip install --no-index "
                     "/src" % PY36])
        assert b"Successfully installed utf8env-" in image.log
        yield container.Image(image.root, image.env, image.entrypoint, image.cmd, binds=[prefix])
    finally:
        subprocess.run(["rm", "-rf", "--one-file-system", "--", str(folder)])


def _dockerfile(printed):
    """The instructions of env's output: its `#` lines are comments to Docker's parser
    (none of them a parser directive), left out as it leaves them out."""
    lines = printed.decode("utf-8").splitlines()
    assert all(line.startswith("# utf8env: ") for line in lines if line.startswith("#"))
    return [line for line in lines if not line.startswith("#")]


def _image(installed, place, printed=None, extra=()):
    image = installed.derive().build(list(DOCKER_PLACES[place][0]) + list(extra))
    return image.build(_dockerfile(printed)) if printed is not None else image


def test_the_image_has_the_locales_described(installed):
    assert installed.run(["locale", "-a"]) == (0, b"C\nC.utf8\nPOSIX\n", b"")


def _fails_36_in(image):
    assert image.run(COMMAND) == (1, b"", ASCII_ERROR)


@pytest.mark.parametrize("place, first, mode", [
    ("none", b"", b""), ("lang-c", b"", b""),
    # For any program, the UTF-8 mode `run` keeps for a 3.7+ there (the C locale gave it).
    ("missing", b"ENV LANG=C.UTF-8\n", b"ENV PYTHONUTF8=1\n")])
def test_dockerfile_env_lines_make_36_print_e_acute(installed, place, first, mode):
    described = DOCKER_PLACES[place][1]
    printed = _env(DOCKER_TARGET + described + ["--"] + COMMAND)
    assert printed == first + DOCKER_COERCE + PIOE_NOTE
    before = _image(installed, place)
    _fails_36_in(before)
    assert before.run(["locale", "charmap"])[1] == b"ANSI_X3.4-1968\n"
    after = _image(installed, place, printed)
    assert after.entrypoint is None
    assert after.run(COMMAND) == (0, E_OUT, b"")
    # No COMMAND: the same lines for any program (and the UTF-8 mode of a 3.7+ where kept).
    any_program = _env(DOCKER_TARGET + described)
    assert any_program == first + DOCKER_COERCE + mode + PIOE_NOTE
    after = _image(installed, place, any_program)
    assert after.run(["locale", "charmap"]) == (0, b"UTF-8\n", b"")
    assert after.run(COMMAND) == (0, E_OUT, b"")


def test_dockerfile_override_lc_all_with_an_image_lc_all_c(installed):
    described = DOCKER_PLACES["lc-all-c"][1]
    printed = _env(DOCKER_TARGET + ["--override-lc-all"] + described + ["--"] + COMMAND)
    assert printed == b"ENV LC_ALL=''\n" + DOCKER_COERCE + PIOE_NOTE
    before = _image(installed, "lc-all-c")
    _fails_36_in(before)
    after = _image(installed, "lc-all-c", printed)
    assert after.env["LC_ALL"] == ""
    assert after.run(COMMAND) == (0, E_OUT, b"")
    any_program = _env(DOCKER_TARGET + ["--override-lc-all"] + described)
    assert any_program == printed
    after = _image(installed, "lc-all-c", any_program)
    assert after.run(["locale", "charmap"]) == (0, b"UTF-8\n", b"")


def test_dockerfile_lc_all_c_entrypoint_needs_utf8env_on_the_image_path(installed):
    described = DOCKER_PLACES["lc-all-c"][1]
    printed = _env(DOCKER_TARGET + described + ["--"] + COMMAND)
    assert printed == ONLY_RUN + LC_ALL_NOTE + ENTRYPOINT
    # In the image as installed (the venv's bin/ is not on Docker's default PATH): the
    # runtime does not find a bare utf8env. (Docker: exit 127 too, with its own message.)
    applied = _image(installed, "lc-all-c", printed)
    assert applied.entrypoint == ["utf8env", "run", "--"] + COMMAND and applied.cmd is None
    assert applied.run() == (
        127, b"", b"%s: failed to run command 'utf8env': No such file or directory\n"
        % container.CHROOT.encode())
    # An image with the venv on its PATH, described so: the same ENTRYPOINT, which works.
    on_path = DOCKER_TARGET[:2] + ["PATH=" + VENV_PATH] + DOCKER_TARGET[3:]
    assert _env(on_path + described + ["--"] + COMMAND) == printed
    before = _image(installed, "lc-all-c", extra=["ENV PATH=" + VENV_PATH])
    _fails_36_in(before)
    after = _image(installed, "lc-all-c", printed, extra=["ENV PATH=" + VENV_PATH])
    assert after.run() == (0, E_OUT, b"")


def test_dockerfile_lc_all_c_any_program_prints_only_comments(installed):
    # Nothing to set, and 3.6 needs `utf8env run`, as it says: applied, nothing changes.
    printed = _env(DOCKER_TARGET + DOCKER_PLACES["lc-all-c"][1])
    assert printed == ANY_LC_ALL
    assert _dockerfile(printed) == []
    _fails_36_in(_image(installed, "lc-all-c", printed))
