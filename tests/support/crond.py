r"""Debian's real cron daemon (/usr/sbin/cron -f, with its /etc/pam.d/cron), running the
crontab lines a test gives, for doctor's cron tests.

Each job runs in a daemon of its own: a user crontab holds the environment lines it
starts with, and a crontab cannot unset a variable an earlier line set, so two jobs in
one crontab would not get the environments their own lines give. Each daemon runs in a
private mount namespace (`unshare --mount`, everything made rprivate) where:

  /var/spool/cron/crontabs  a fresh tmpfs (root:crontab 1730, as the package makes it)
                            holding root's crontab, installed the real way: `crontab FILE`
                            inside the namespace (so the file is what Debian's cron accepts,
                            root:crontab 0600 with one link, and the spool's mtime changes)
  /etc/cron.d               an empty tmpfs; /etc/crontab an empty file: no real job runs
  /run                      a fresh tmpfs (cron's pid file and its @reboot marker)
  /etc/default/locale, /etc/environment
                            files of the test's folder (what pam_env reads for every job:
                            /etc/pam.d/cron has `pam_env.so` and `pam_env.so
                            envfile=/etc/default/locale`), empty unless the test gives them
  /root                     a fresh tmpfs (root's HOME, a job's working folder) with the
                            real /root/.pyenv bound back in, so the interpreters stay where
                            they are and a job never writes the real home

so the real system is never modified. The daemon starts with the environment systemd's
cron.service gives it (PATH, READ_ENV=yes from /etc/default/cron, and LANG=C.UTF-8), plus
DAEMON_MARKER, which a job's environment shows leaking if it ever does.

A job's command is what cron runs with /bin/sh -c; the harness wraps it as
`date +\%s.\%N >STARTED; { COMMAND; } >OUT 2>ERR; echo $? >STATUS` (files of the test's
folder), so cron has no output to mail. COMMAND may not hold an unescaped % (crontab(5):
it would end the command) nor end in a # comment. cron runs a job at the first minute
boundary after it starts (about 1 s past it): every daemon of one run_together() is started in the same minute, never in its
last 3 s, so all of them run their job at the same tick: one wait of at most ~62 s.
Daemons are stopped (their whole process group killed) in a finally.
"""
import collections
import os
import re
import shutil
import signal
import subprocess
import time

CRON = "/usr/sbin/cron"
CRONTAB = "/usr/bin/crontab"
PAM_CRON = "/etc/pam.d/cron"
SPOOL = "/var/spool/cron/crontabs"

DAEMON_MARKER = "UTF8ENV_CRON_DAEMON_ENV"
DAEMON_ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
              "READ_ENV": "yes", "LANG": "C.UTF-8", DAEMON_MARKER: "leaked"}

# What a job wrote: its exit status, the bytes of its stdout and stderr, and when cron
# started it (seconds since the epoch, as the job's `date` said).
Job = collections.namedtuple("Job", "status stdout stderr started")

_JOB_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
_SCHEDULE = re.compile(r"^\s*(@\w+|(?:\S+\s+){4}\S+)\s+(.*?)\s*$")


def available():
    """(True, "") or (False, one line saying what is missing and how to get it)."""
    for tool in (CRON, CRONTAB, PAM_CRON):
        if not os.path.exists(tool):
            return False, ("%s not installed: apt-get install --no-install-recommends cron "
                           "(bash tests/setup.sh does)" % tool)
    if os.geteuid() != 0:
        return False, "not root: the cron tests run Debian's cron as root in a mount namespace"
    if not shutil.which("unshare") or subprocess.run(
            ["unshare", "--mount", "--propagation", "private", "true"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
        return False, "unshare --mount is not allowed here (a container without CAP_SYS_ADMIN)"
    return True, ""


def _split(text):
    """(lines before the job line, schedule, command) of a one-job crontab."""
    lines = text.rstrip("\n").split("\n")
    while lines and (not lines[-1].strip() or lines[-1].lstrip().startswith("#")):
        lines.pop()
    match = _SCHEDULE.match(lines[-1]) if lines else None
    if match is None or "=" in lines[-1].split()[0]:
        raise ValueError("the last line of a job's crontab must be a job (`* * * * * COMMAND`)"
                         ": %r" % text)
    command = match.group(2)
    # crontab(5): an unescaped % ends the command (the rest is its stdin), so the
    # harness's redirections would be lost.
    if re.search(r"(?<!\\)%", command):
        raise ValueError("an unescaped %% in a job's command ends it (crontab(5)); write \\%%:"
                         " %r" % command)
    return lines[:-1], match.group(1), command


# In the namespace: $1 the daemon's folder, $2 the crontab to install, $3 cron. The crontab
# goes in on stdin: crontab(1) cuts a file name at 99 bytes (Debian's MAX_FNAME), which a
# deep pytest folder reaches.
_NAMESPACE = r"""
set -e
mount --make-rprivate /
mount -t tmpfs -o mode=755 cron-run /run
mount -t tmpfs -o mode=1730 cron-spool /var/spool/cron/crontabs
chgrp crontab /var/spool/cron/crontabs
mount -t tmpfs -o mode=755 cron-d /etc/cron.d
mount --bind "$1/etc-crontab" /etc/crontab
mount --bind "$1/default-locale" /etc/default/locale
mount --bind "$1/environment" /etc/environment
mount --bind /root "$1/real-root"
mount -t tmpfs -o mode=700 cron-home /root
if [ -d "$1/real-root/.pyenv" ]; then mkdir /root/.pyenv; mount --bind "$1/real-root/.pyenv" /root/.pyenv; fi
crontab - <"$2"
exec "$3" -f -L 15
"""


class Cron(object):
    """One place: the given /etc/default/locale and /etc/environment (None: empty files),
    each job of a run in a daemon of its own."""

    def __init__(self, folder, default_locale=None, environment=None):
        self.folder = str(folder)
        self.default_locale = default_locale or ""
        self.environment = environment or ""
        self.daemons = {}       # job name -> (Popen, its folder, its log file)

    def start(self, crontabs):
        """Start a daemon for each job of `crontabs` ({name: crontab text}), their jobs'
        environment lines first, then `* * * * * COMMAND`."""
        for name, text in sorted(crontabs.items()):
            if not _JOB_NAME.match(name) or name in self.daemons:
                raise ValueError("a job's name is letters, digits, - and _, once: %r" % name)
            self._start(name, text)
        return self

    def _start(self, name, text):
        env_lines, schedule, command = _split(text)
        where = os.path.join(self.folder, name)
        os.makedirs(os.path.join(where, "real-root"))
        os.makedirs(os.path.join(where, "out"))
        out = os.path.join(where, "out")
        for path, content in (("etc-crontab", ""), ("default-locale", self.default_locale),
                              ("environment", self.environment)):
            with open(os.path.join(where, path), "w") as f:
                f.write(content)
            os.chmod(os.path.join(where, path), 0o644)
        # `\%` is crontab(5)'s escape of date's %: cron gives sh a plain %.
        wrapped = ("date +\\%s.\\%N >" + out + "/started; { " + command + "; } >" + out
                   + "/stdout 2>" + out + "/stderr; echo $? >" + out + "/status.new && mv "
                   + out + "/status.new " + out + "/status")
        crontab = os.path.join(where, "crontab")
        with open(crontab, "w") as f:
            f.write("\n".join(env_lines + ["%s %s" % (schedule, wrapped)]) + "\n")
        log = open(os.path.join(where, "cron.log"), "wb")
        process = subprocess.Popen(
            ["unshare", "--mount", "sh", "-c", _NAMESPACE, "sh", where, crontab, CRON],
            env=DAEMON_ENV, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True, cwd="/")
        self.daemons[name] = (process, where, log)

    def ready(self):
        """Whether every daemon has written its pid file (it has loaded root's crontab
        just before); raises if one exited."""
        for name, (process, where, _) in self.daemons.items():
            if process.poll() is not None:
                raise RuntimeError("cron for job %r exited %s: %s"
                                   % (name, process.returncode, _read(where, "cron.log")))
            if not os.path.exists("/proc/%d/root/run/crond.pid" % process.pid):
                return False
        return True

    def results(self):
        """{name: Job} of the jobs that have finished."""
        done = {}
        for name, (_, where, _) in self.daemons.items():
            status = _read(where, "out/status")
            if status is not None:
                done[name] = Job(int(status), _read(where, "out/stdout", binary=True),
                                 _read(where, "out/stderr", binary=True),
                                 float(_read(where, "out/started")))
        return done

    def pending(self):
        return sorted(set(self.daemons) - set(self.results()))

    def describe(self, name):
        process, where, _ = self.daemons[name]
        with open(os.path.join(where, "crontab")) as f:
            installed = f.read()
        return "job %r (cron pid %d, %s):\n%s%s" % (
            name, process.pid, "running" if process.poll() is None else
            "exited %s" % process.returncode, installed, _read(where, "cron.log") or "")

    def stop(self):
        for name, (process, where, log) in sorted(self.daemons.items()):
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait()
            log.close()
        self.daemons = {}

    def run(self, crontabs, timeout=90):
        """Run each job of `crontabs` once: {name: Job}."""
        return run_together([(self, crontabs)], timeout)[0]


_INSTALL = r"""
set -e
mount --make-rprivate /
mount -t tmpfs -o mode=1730 cron-spool /var/spool/cron/crontabs
chgrp crontab /var/spool/cron/crontabs
crontab "$1" && crontab -l
"""


def install(folder, text):
    """What `crontab FILE` says of `text` (as root, into a throw-away spool in a private
    mount namespace; no daemon): (its status, its output, then `crontab -l`'s)."""
    path = os.path.join(str(folder), "crontab")
    with open(path, "w") as f:
        f.write(text)
    result = subprocess.run(["unshare", "--mount", "sh", "-c", _INSTALL, "sh", path],
                            env=DAEMON_ENV, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, cwd="/", timeout=30)
    return result.returncode, result.stdout.decode("utf-8", "replace")


def _read(where, path, binary=False):
    try:
        with open(os.path.join(where, path), "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return None
    return data if binary else data.decode("utf-8", "replace")


def _after_next_boundary(margin=3.0):
    """Wait, if needed, so that at least `margin` s remain in this minute."""
    left = 60 - time.time() % 60
    if left < margin:
        time.sleep(left + 0.2)


def run_together(places, timeout=90):
    """Start every (Cron, crontabs) of `places` in the same minute and wait for all their
    jobs (they run at the next minute boundary): a list of {name: Job}, in order. Every
    daemon is stopped before it returns. Bounded: a RuntimeError names the jobs that have
    not finished `timeout` s after the start, with their crontab and the daemon's log."""
    _after_next_boundary()
    try:
        for cron, crontabs in places:
            cron.start(crontabs)
        deadline = time.monotonic() + 20
        while not all(cron.ready() for cron, _ in places):
            if time.monotonic() > deadline:
                raise RuntimeError("the cron daemons did not write their pid files in 20 s")
            time.sleep(0.05)
        deadline = time.monotonic() + timeout
        while any(cron.pending() for cron, _ in places):
            if time.monotonic() > deadline:
                raise RuntimeError("%d s after cron started, these jobs had not finished:\n%s" % (
                    timeout, "\n".join(cron.describe(name) for cron, _ in places
                                       for name in cron.pending())))
            for cron, _ in places:
                for process, where, _ in cron.daemons.values():
                    if process.poll() is not None:
                        cron.ready()        # raises, with the daemon's log
            time.sleep(0.2)
        return [cron.results() for cron, _ in places]
    finally:
        for cron, _ in places:
            cron.stop()
