"""After `doctor --fix`: a new session of the kind doctor runs in, started for real and
asked (`utf8env doctor --json` inside it), so that the verdict --fix prints is one it
saw; where no such session can be started from here, what was not checked and what
would check it. Keyed by the context names of _contexts.CONTEXTS; a context without an
entry gets the general "not checked" line.

A shell's new sessions are the invocations that read the start-up file its fix goes to
(bash(1) INVOCATION, dash(1), zsh(1) STARTUP/SHUTDOWN FILES, fish(1)), the same ones
tests/test_doctor_places.py starts after applying each fix by hand. Each is started from
the environment this doctor was started with (what a new shell opened from here
inherits), in a session of its own (setsid: an interactive bash takes no terminal of the
user's), stdin from /dev/null. Root fixing another user's HOME starts them as that user
(their start-up files are theirs: root never runs them).
"""
import os

from .._engine.records import Record, field
from .._processes import run_in_session
from .._own_command import own_command
from .._shellquote import quote

# SHELL's name -> the invocations that read the file its fix goes to.
SHELL_SESSIONS = {"bash": (("-i", "-c"), ("-l", "-c")),      # ~/.bashrc; ~/.profile reads it
                  "sh": (("-l", "-c"),), "dash": (("-l", "-c"),),   # ~/.profile, login only
                  "zsh": (("-c",), ("-l", "-c")),            # ~/.zshenv: every zsh
                  "fish": (("-c",), ("-l", "-c"))}           # config.fish: every fish
# Context -> why no new session of it can be started from here, and what would check it.
NOT_STARTED = {
    "cron": "cron starts its jobs itself: a job running `utf8env doctor` (crontab -e) says "
            "it at its next run",
    "ssh": "a new ssh session starts at the client: `ssh HOST utf8env doctor` there says it",
    "systemd": "the service starts under systemd: after `systemctl restart %(unit)s`, "
               "`utf8env doctor` in its ExecStart= says it",
    "server": "the server starts its apps itself: after a restart, `utf8env doctor` run by "
              "the app says it",
    "ci": "the CI service starts its jobs: a job running `utf8env doctor` says it",
    "container": "a container starts from its image: `docker run --rm IMAGE utf8env "
                 "doctor` after the next build says it",
    "sudo": "a sudo session starts from the user who runs sudo: `sudo utf8env doctor` "
            "there says it",
    "su": "an su session starts with a password: `su%(dash)s USER -c 'utf8env doctor'` says "
          "it",
    "at": "atd starts its jobs itself: `echo 'utf8env doctor' | at now` says it (in the "
          "mail of its output)",
    "tmux": "a tmux window starts from the tmux server: start a new tmux window and run "
            "`utf8env doctor`",
    "screen": "a screen window starts from the screen session: start a new window (C-a c) "
              "and run `utf8env doctor`",
    "command": "the command was started without a start-up file: run `utf8env doctor` "
               "the way it was started (in its place on that command line)",
}
OTHER = "doctor cannot start a new session of this kind (%(name)s): start one and run " \
        "`utf8env doctor` in it"
UNKNOWN_SHELL = "no test has started %(shell)s's sessions: start a new one and run " \
                "`utf8env doctor` in it"
DRY_RUN = "--dry-run changes nothing: `utf8env doctor --fix` writes the lines and starts a " \
          "new session"
# What an interactive shell started without a terminal says on stderr (bash's job
# control), not what ended it.
_NO_TERMINAL = ("no job control in this shell", "Inappropriate ioctl for device")
TIMEOUT = 120           # seconds for one new session (a start-up file waiting for input)


class Seen(Record):
    invocation = field()        # "bash -l -c"
    verdict = field()           # its doctor's verdict
    problems = field()          # its count


class After(Record):
    sessions = field(())        # Seen, one per session started
    not_checked = field(None)   # why not, and what would check it; None when checked

    @property
    def checked(self):
        return self.not_checked is None

    @property
    def problems(self):
        return max([s.problems for s in self.sessions]) if self.checked else None

    @property
    def verdict(self):
        if not self.checked:
            return None
        return [s.verdict for s in self.sessions if s.problems == self.problems][0]


def check(context, environ, doctor_args, user=None, dry_run=False):
    """After: the new sessions of `context` (a _records.Context, the primary one),
    each running utf8env doctor --json `doctor_args`; `user` (uid, gid) to start them as
    (root fixing another user's HOME), else None."""
    if dry_run:
        return After(not_checked=DRY_RUN)
    name = context.name if context is not None else "shell"
    if name != "shell":
        details = dict(context.details) if context is not None else {}
        return After(not_checked=NOT_STARTED.get(name, OTHER) % dict(
            details, name=name, unit=details.get("unit") or "UNIT",
            dash=" -" if details.get("login") else ""))
    shell = (context.details.get("shell") if context is not None else None) or \
        environ.get("SHELL") or "/bin/sh"
    invocations = SHELL_SESSIONS.get(shell.rpartition("/")[2])
    if invocations is None:
        return After(not_checked=UNKNOWN_SHELL % {"shell": shell})
    seen = []
    for arguments in invocations:
        result = _started(shell, arguments, environ, doctor_args, user)
        if isinstance(result, str):
            return After(sessions=tuple(seen), not_checked=result)
        seen.append(result)
    return After(sessions=tuple(seen))


def _started(shell, arguments, environ, doctor_args, user):
    """Seen, or the line saying why it gives no verdict."""
    import json
    invocation = " ".join([shell.rpartition("/")[2]] + list(arguments))
    command = " ".join(quote(word) for word in own_command() + ["doctor", "--json"]
                       + list(doctor_args))
    env = {os.fsencode(n): os.fsencode(v) for n, v in environ.items()}

    def as_user():
        if user is not None:
            os.setgroups([])
            os.setresgid(user[1], user[1], user[1])
            os.setresuid(user[0], user[0], user[0])

    try:
        # (read until the shell exits: a start-up file's `daemon &` may hold its output)
        status, out, err = run_in_session(
            [shell] + list(arguments) + [command], TIMEOUT, env=env,
            preexec_fn=as_user if user is not None else None,
            cwd=environ.get("HOME") if user is not None else None)
    except OSError as error:
        return "%s could not be started (%s)" % (invocation, error.strerror or error)
    if status is None:
        return "%s did not end within %d s (a start-up file waiting for input?)" % (
            invocation, TIMEOUT)
    try:
        data = json.loads(out.decode("utf-8", "surrogateescape"))
        return Seen(invocation, data["verdict"], data["problems"])
    except (ValueError, KeyError, TypeError):
        last = [line for line in err.decode("utf-8", "replace").strip().splitlines()
                if not line.endswith(_NO_TERMINAL)][-1:] or ["nothing"]
        return "%s ended with status %d and no verdict (its last line: %s)" % (
            invocation, status, last[0])


def to_object(after):
    return {"checked": after.checked, "verdict": after.verdict, "problems": after.problems,
            "sessions": [{"invocation": s.invocation, "verdict": s.verdict,
                          "problems": s.problems} for s in after.sessions],
            "not_checked": after.not_checked}
