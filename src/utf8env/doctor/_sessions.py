"""The sessions that start a program with an environment no start-up file reaches, each
from evidence (pure: from a place.Place), and the fix a new session of that kind reads.

  sudo    sudo(8) execs the command with no shell; Debian's sudoers has env_reset, whose
          env_check list keeps LANG, LANGUAGE and LC_* of the user who ran sudo (`sudo -V`
          as root lists them), and /etc/pam.d/sudo has no pam_env: the command's own
          line is what reaches it (`sudo -u USER env LANG=C.UTF-8 COMMAND`); under `sudo
          -i` or `sudo -s` with commands typed, the shell's start-up file in the HOME of
          the user sudo runs it as.
  su      su(1) runs `shell -c COMMAND` as a non-login shell (no start-up file), and
          Debian's /etc/pam.d/su has `pam_env.so readenv=1 envfile=/etc/default/locale`:
          util-linux su puts PAM's variables over the caller's, for `su -` and `su USER -c`
          alike, so that file's line reaches every su session.
  at      at(1) writes the environment of the shell that ran `at` into the job, which
          atd runs with /bin/sh: a line at the job's top reaches it.
  tmux    a new window gets the tmux server's global environment (the one tmux was first
          started in) and the session's (update-environment: no locale variable by
          default): `tmux set-environment -g` reaches every new window, interactive or
          `tmux new-window COMMAND`.
  screen  a new window gets the screen server's environment, changed by `setenv`.
  command a non-interactive `sh -c`/`bash -c` or shell script reads no start-up file
          (bash(1) INVOCATION), nor does a program relaunched under nohup: the command
          line is what reaches it (`env LANG=C.UTF-8 COMMAND`).

Each is proven in a real place of its kind by tests/test_doctor_sessions.py (stock sudo
and sudoers, su with Debian's PAM, a real atd, real tmux and screen servers). Where the
evidence fits none, nothing is named: no guess is presented as the cause.
"""
from ._records import Context, Fix, for_shell, parse_assignments
from .._shellquote import quote

# The session contexts: which one's fix comes first is decided by the nearest ancestor
# (the last session that started this process gave it its environment).
NAMES = ("sudo", "su", "at", "tmux", "screen", "command")

# Shells that read no start-up file when run as `shell -c COMMAND` without -i or -l (bash(1)
# INVOCATION: only BASH_ENV; dash(1) and POSIX sh: ENV only when interactive). zsh -c
# reads ~/.zshenv and fish -c config.fish: not these.
_PLAIN_SHELLS = ("sh", "dash", "bash", "ash", "busybox")
_SU_LOGIN = ("-", "-l", "--login")


def detect(place):
    """[(depth, Context)] of the session contexts found: depth is the index of the
    ancestor that shows it (0: the parent), None where only variables show it."""
    found = []
    for detector in (_sudo, _su, _at, _tmux, _screen, _command):
        result = detector(place)
        if result is not None:
            depth, name, summary, evidence, details = result
            found.append((depth, Context(name, summary, tuple(evidence),
                                         dict(details, depth=depth))))
    return found


def _nearest(place, names):
    """(depth, Process) of the nearest ancestor whose name is one of `names`, or (None,
    None)."""
    for depth, process in enumerate(place.ancestors):
        if process.name in names:
            return depth, process
    return None, None


def _shown(process):
    return "process %d (%s) is an ancestor" % (process.pid, " ".join(process.argv) or process.name)


def _sudo(place):
    env = place.environ
    evidence = ["%s=%s" % (n, env[n]) for n in ("SUDO_USER", "SUDO_COMMAND") if env.get(n)]
    depth, process = _nearest(place, ("sudo",))
    if process is not None:
        evidence.append(_shown(process))
    if not evidence:
        return None
    user = env.get("SUDO_USER")
    summary = "sudo" + (" (run by %s)" % user if user else "")
    shell = _reading_shell(place.ancestors[:depth]) if depth else None
    if shell:
        # sudo -i, sudo -s, sudo bash: a shell that reads its start-up files stands
        # between sudo and this process (no command in front of which to write).
        summary += ", in its %s" % shell
    return depth, "sudo", summary, evidence, {"user": user, "shell": shell}


def _reading_shell(between):
    """The name of the shell among the processes `between` a session and this one that
    read its start-up files (a login shell, or one without -c), or None."""
    for process in between:
        argv = process.argv or (process.name,)
        name = argv[0].rpartition("/")[2]
        base = name.lstrip("-")
        if base in _PLAIN_SHELLS + ("zsh", "fish") and (name.startswith("-") or
                                                        "-c" not in argv[1:]):
            return base
    return None


def _su(place):
    depth, process = _nearest(place, ("su",))
    if process is None:
        return None
    words = process.argv[1:]
    login = any(w in _SU_LOGIN for w in words)
    command = "-c" in words or "--command" in words or any(
        w.startswith("--command=") for w in words)
    pam = _pam_envfile(place.files.get("/etc/pam.d/su"))
    evidence = [_shown(process)]
    if pam:
        evidence.append("/etc/pam.d/su: pam_env reads /etc/default/locale")
    summary = "su" + (" (login)" if login else "") + (" -c COMMAND" if command else "")
    return depth, "su", summary, evidence, {"login": login, "command": command, "pam": pam}


def _pam_envfile(text):
    """Whether a PAM service file has a pam_env line reading /etc/default/locale."""
    for line in (text or "").splitlines():
        words = line.split("#")[0].split()
        if len(words) >= 3 and words[2] == "pam_env.so" and \
                "envfile=/etc/default/locale" in words[3:]:
            return True
    return False


def _at(place):
    depth, process = _nearest(place, ("atd",))
    if process is None:
        return None
    return depth, "at", "at or batch job", [_shown(process)], {}


def _tmux(place):
    env = place.environ
    evidence = ["TMUX=%s" % env["TMUX"]] if env.get("TMUX") else []
    depth, process = _nearest(place, ("tmux: server",))
    if process is not None:
        evidence.append(_shown(process))
    if not evidence:
        return None
    # tmux(1): TMUX is "socket,pid,session"; the socket names the server to change.
    socket = env.get("TMUX", "").rsplit(",", 2)[0] or None
    return depth, "tmux", "tmux window", evidence, {"socket": socket}


def _screen(place):
    env = place.environ
    evidence = ["STY=%s" % env["STY"]] if env.get("STY") else []
    depth, process = _nearest(place, ("screen",))
    if process is not None:
        evidence.append(_shown(process))
    if not evidence:
        return None
    return depth, "screen", "screen window", evidence, {"session": env.get("STY")}


# The shell options that take the next word as their argument (bash(1), dash(1)).
_WITH_ARGUMENT = ("-o", "+o", "-O", "+O", "--rcfile", "--init-file")


def _how_run(argv):
    """"-c" or "a script" for a shell's argv that reads commands from its -c string or a
    script file, neither interactive (-i) nor a login shell (-l, --login); else None."""
    words = list(argv[1:])
    index = 0
    while index < len(words):
        word = words[index]
        short = word.startswith("-") and not word.startswith("--")
        if word in ("-i", "-l", "--login") or (short and ("i" in word or "l" in word)):
            return None
        if short and "c" in word:
            how = "-c"
        elif word in _WITH_ARGUMENT:
            index += 2
            continue
        elif word.startswith(("-", "+")) and word != "--":
            index += 1
            continue
        else:
            how = "a script" if word != "--" or index + 1 < len(words) else None
        # What comes after -c or the script's name is the command's: not the shell's.
        return how
    return None


def _command(place):
    """A parent `sh -c`, `bash -c` or `sh SCRIPT` that is neither interactive nor a login
    shell (zsh and fish read a start-up file even then), or SIGHUP ignored (nohup) with a
    parent that is no shell."""
    if not place.ancestors:
        return None
    parent = place.ancestors[0]
    argv = parent.argv
    name = (argv[0] if argv else parent.name).rpartition("/")[2]
    if name in _PLAIN_SHELLS:
        how = _how_run(argv)
        if how is not None:
            what = "%s -c" % name if how == "-c" else "%s running a script" % name
            return 0, "command", "a command run by %s (no start-up file read)" % what, \
                [_shown(parent)], {}
    if place.files.get("/proc/self/status") and _sighup_ignored(place.files["/proc/self/status"]):
        return None if name.lstrip("-") in _PLAIN_SHELLS + ("zsh", "fish") else (
            0, "command", "a command started under nohup (no start-up file read)",
            ["SIGHUP is ignored, as nohup(1) leaves it", _shown(parent)], {})
    return None


def _sighup_ignored(status):
    """proc(5): SigIgn, a hexadecimal mask; SIGHUP is signal 1, its lowest bit."""
    for line in status.splitlines():
        if line.startswith("SigIgn:"):
            try:
                return bool(int(line.split()[1], 16) & 1)
            except (IndexError, ValueError):
                return False
    return False


# -- the fixes ---------------------------------------------------------------------------

def _quote(value):
    return quote(value)


def env_words(changes):
    """`env -u NAME NAME=VALUE`: the command line's own way (env(1); -u: GNU and busybox)."""
    return " ".join(["env"] + ["-u %s" % n for n, v in changes if v is None] +
                    ["%s=%s" % (n, v) for n, v in changes if v is not None])


def fixes(context, changes):
    """[[Fix, ...] per option] that reach a new session of `context` (a session context)."""
    name = context.name
    line = env_words(changes)
    if name == "sudo" and context.details.get("shell"):
        fix = for_shell(context.details["shell"], changes)
        if fix is None:
            return []
        return [[fix._replace(where="in the HOME of the user sudo runs the shell as, "
                              + fix.where, context="sudo")]]
    if name == "sudo":
        return [[Fix("the sudo command line, in front of the command (sudo [-u USER] %s "
                     "COMMAND): sudo runs it with no shell, and keeps LANG and LC_* of the "
                     "user who ran sudo" % line, (line,), "sudo")]]
    if name == "su":
        options = []
        values = [(n, v) for n, v in changes if v is not None]
        if context.details.get("pam") and values and len(values) == len(changes):
            options.append([Fix("as root, the end of /etc/default/locale (/etc/pam.d/su: "
                                "pam_env gives it to every su session, over the caller's "
                                "variables)", tuple("%s=%s" % nv for nv in values), "su")])
        if context.details.get("command"):
            options.append([Fix("the command su runs, in front of it (su USER -c '%s "
                                "COMMAND'): su's shell -c reads no start-up file" % line,
                                (line,), "su")])
        return options
    if name == "at":
        lines = tuple("export %s=%s" % (n, _quote(v)) if v is not None else "unset %s" % n
                      for n, v in changes)
        return [[Fix("the job, above its commands (at(1) gives a job the environment of the "
                     "shell that ran `at`; atd runs it with /bin/sh, which reads no start-up "
                     "file)", lines, "at")]]
    if name == "tmux":
        socket = context.details.get("socket")
        head = "tmux -S %s" % _quote(socket) if socket else "tmux"
        lines = tuple("%s set-environment -g %s %s" % (head, n, _quote(v)) if v is not None
                      else "%s set-environment -gu %s" % (head, n) for n, v in changes)
        return [[Fix("the tmux server's global environment, then a new window (tmux "
                     "new-window, or its key): every new window gets it, the windows "
                     "already open keep theirs", lines, "tmux")]]
    if name == "screen":
        session = context.details.get("session")
        if not session:
            return []
        head = "screen -S %s -X" % _quote(session)
        lines = tuple("%s setenv %s %s" % (head, n, _quote(v)) if v is not None
                      else "%s unsetenv %s" % (head, n) for n, v in changes)
        return [[Fix("the screen session's environment, then a new window (screen -X screen, "
                     "or its key): every new window gets it, the windows already open keep "
                     "theirs", lines, "screen")]]
    if name == "command":
        return [[Fix("the command line, in front of the command (%s COMMAND): a command "
                     "run by sh -c, bash -c, a shell script or nohup reads no start-up file" % line,
                     (line,), "command")]]
    return []


def origin(context, variable, value, files):
    """Where `variable`=`value` came from in this session, in words (one parenthesis)."""
    name = context.name
    if name == "sudo":
        user = context.details.get("user")
        return ("(kept by sudo from the environment of %s, who ran it: sudoers' env_reset "
                "keeps LANG and LC_*)" % (user or "the user who ran it"))
    if name == "su":
        if context.details.get("pam") and value and \
                parse_assignments(files.get("/etc/default/locale")).get(variable) == value:
            return ("(as /etc/default/locale sets it: su's PAM (pam_env) applies that file "
                    "over the caller's variables)")
        if context.details.get("login"):
            # su - starts from an empty environment: not the caller's, and the rest is
            # beyond what doctor reads.
            return ("(not recognised: su - does not keep the caller's variables, and neither "
                    "/etc/default/locale nor a start-up file doctor reads sets this value)")
        return "(from the environment of the process that ran su)"
    if name == "at":
        return "(kept by at(1) from the environment of the shell that ran `at`)"
    if name == "tmux":
        return ("(from the tmux server's global environment, the one tmux was first started "
                "in: tmux show-environment -g %s)" % variable)
    if name == "screen":
        return "(from the environment the screen session was started in)"
    if name == "command":
        return "(from the environment of the process that ran this command)"
    return None
