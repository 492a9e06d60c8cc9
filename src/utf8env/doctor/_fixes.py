"""The exact fix, for the context found: a remedy (variables to set or unset, a locale to
install, `utf8env run` in front of a command) written as the lines to put where that
context reads its environment. Pure.

A finding's fixes are options, numbered from 1: the fixes of one option are all needed,
in their order ("all of"); any one option is enough ("any one of"). Every line written
here is one that a test has applied, as printed, in a real place of its kind and seen
the problem go (tests/test_places_*.py); a value that cannot be written safely into a
line (a newline, a quote, bytes that are not ASCII) is refused, never written approximately.
A session's lines are written by _sessions.py, a server's by _servers.py (both asked
here), a shell start-up file's by _records.py (below them all, with the Fix record).
"""
from .._engine.records import Record, field
from .._errors import UsageError
from ._records import Fix, for_shell, parse_assignments, shell_lines


class Remedy(Record):
    """What would make a finding go away, before it is written for a context. Its parts
    are all needed: the locale installed, then the variables, then the wrapped command."""
    changes = field(())         # ((name, value or None to unset), ...)
    install = field(None)       # a locale name to install on this system
    wrap = field(None)          # the Python (its path, or "python3.6") to start through `run`
    note = field(None)          # one line to say alongside


def applied(environ, changes):
    """A copy of `environ` with `changes` ((name, value or None to unset), ...) made."""
    env = dict(environ)
    for name, value in changes:
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


# A locale name as glibc spells them (language_territory.codeset@modifier), and the value
# of a variable a fix may write: nothing a shell, a unit file, a crontab, YAML or
# /etc/locale.gen would read as anything but the word itself.
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.@+-")


def unsafe(remedy):
    """The first value of `remedy` that no fix may carry, or None."""
    values = [v for _, v in remedy.changes if v is not None]
    if remedy.install:
        values.append(remedy.install)
    for value in values:
        if not value or not all(letter in _SAFE for letter in value):
            return value
    return None


def distribution(os_release):
    """"debian", "rhel", "alpine", "suse", "arch" or None, from os-release(5) ID/ID_LIKE."""
    values = parse_assignments(os_release)
    ids = (values.get("ID", "") + " " + values.get("ID_LIKE", "")).lower().split()
    for family, names in (("debian", ("debian", "ubuntu")), ("rhel", ("rhel", "fedora", "centos")),
                          ("alpine", ("alpine",)), ("suse", ("suse", "opensuse")),
                          ("arch", ("arch",))):
        if any(name in ids for name in names):
            return "ubuntu" if "ubuntu" in ids and family == "debian" else family
    return None


def for_remedies(remedies, contexts, place_info):
    """The Fixes of the alternative `remedies`, each option numbered, for the primary
    context (the place that starts the program is the one to change: a container's ENV
    means nothing to the ssh session inside it); with no context (explain describes an
    environment, not a place), for the shell of `place_info`. `place_info`:
    {"distribution", "locale_gen" (text or None), "files", "shell" (where there is no
    context), "utf8env" (the words that start utf8env here), "use_pam" (sshd's)}. A
    remedy with a value no line may carry gives no option (unsafe() says which)."""
    main = None
    if contexts:
        from ._contexts import primary       # not for explain: it has no context to order
        main = primary(contexts)
    options = []
    for remedy in remedies:
        if remedy is not None and unsafe(remedy) is None:
            options += [[fix._replace(changes=tuple(remedy.changes)) for fix in steps]
                        for steps in _options(remedy, main, place_info)]
    out = []
    for number, steps in enumerate(options, 1):
        out += [fix._replace(option=number) for fix in steps]
    return tuple(out)


def _options(remedy, main, info):
    """[[Fix, ...] per option] of one remedy."""
    changes = tuple(remedy.changes)
    alternatives = _for_context(main, changes, info) if changes else []
    install = _install(remedy.install, info, main) if remedy.install else []
    wrap = _wrap(remedy.wrap, main, info) if remedy.wrap else []
    if install and alternatives:
        # A locale installed, then named: the first way to name it is enough.
        return [install + alternatives[0]]
    if alternatives:
        return [option + wrap for option in alternatives]
    if install or wrap:
        return [install + wrap]
    return []


def _for_context(context, changes, info):
    """[[Fix, ...] per option] that give a new process of `context` the variables."""
    name = context.name if context is not None else "shell"
    if name == "shell":
        shell = (context.details.get("shell") if context is not None else None) \
            or info.get("shell") or "/bin/sh"
        fix = for_shell(shell, changes)
        return [[fix]] if fix is not None else []
    if name == "server":
        from ._servers import fixes
        envvars = info.get("apache_envvars")
        values = [v for n, v in changes if n == "LANG"]
        if envvars is not None and values and values[0] and len(changes) == 1:
            # Debian's envvars has `export LANG=C`: its own line, for every Apache process
            # (tests/test_doctor_sessions.py: Apache started by apache2ctl).
            path, number, line = envvars
            return [[Fix("as root, %s line %d: `%s` replaced by this line (then apache2ctl "
                         "restart)" % (path, number, line), ("export LANG=%s" % values[0],),
                         "server")]] + fixes(context, changes)
        return fixes(context, changes)
    from . import _sessions as sessions
    if name in sessions.NAMES:
        return sessions.fixes(context, changes)
    if name == "ssh":
        return _ssh(context, changes, info)
    if name == "cron":
        # crontab(5): "an environment setting is of the form name = value"; an empty
        # value is what a crontab can do instead of unset (glibc ignores an empty LC_ALL),
        # quoted: Debian's crontab(1) refuses `LC_ALL=` ("bad minute"), takes `LC_ALL=""`.
        return [[Fix("the crontab (crontab -e), above the job's line",
                     tuple("%s=%s" % (n, v if v is not None else '""') for n, v in changes),
                     "cron", target=("crontab", None))]]
    if name == "systemd":
        unit = context.details.get("unit") or "UNIT.service"
        lines = ["[Service]"]
        lines += ["Environment=%s=%s" % (n, v) for n, v in changes if v is not None]
        unset = [n for n, v in changes if v is None]
        if unset:
            lines.append("UnsetEnvironment=%s" % " ".join(unset))   # systemd.exec(5), v235+
        return [[Fix("a drop-in: systemctl edit %s (then systemctl restart %s)" % (unit, unit),
                     tuple(lines), "systemd")]]
    if name == "ci":
        service = context.details.get("service")
        if service == "GitHub Actions":
            return [[Fix("the workflow's (or the job's) env mapping, GitHub Actions",
                         ("env:",) + tuple("  %s: %s" % (n, _yaml(v)) for n, v in changes),
                         "ci")]]
        if service == "GitLab CI":
            return [[Fix("the variables mapping of .gitlab-ci.yml (or of the job), GitLab CI",
                         ("variables:",) + tuple("  %s: %s" % (n, _yaml(v)) for n, v in changes),
                         "ci")]]
        return [[Fix("the CI job's environment (%s)" % service, shell_lines(changes, "sh"),
                     "ci")]]
    if name == "container":
        # Dockerfile reference, ENV: `ENV LC_ALL=` sets the empty value, which glibc and
        # CPython take for unset.
        return [[Fix("the Dockerfile (or docker run -e NAME=VALUE)",
                     tuple("ENV %s=%s" % (n, v if v is not None else "") for n, v in changes),
                     "container")]]
    return []


def _yaml(value):
    return '""' if value is None else '"%s"' % value


def _ssh(context, changes, info):
    """The options of an ssh session: the client sends other values (SetEnv), or the
    server stops taking the client's and names its own, or the user's own ~/.bashrc on
    the server sets them after everything else."""
    forwarded = context.details.get("forwarded", {})
    from_pam = set(context.details.get("from_pam", ()))
    sent = [(n, v) for n, v in changes if n in forwarded and n not in from_pam]
    values = [(n, v) for n, v in changes if v is not None]
    options = []
    if sent:
        # ssh_config(5) reads ~/.ssh/config before /etc/ssh/ssh_config, and Debian's has
        # `SendEnv LANG LC_*`: `SendEnv -NAME` in the user's file does not stop it.
        # SetEnv sends a value of our choosing (the empty one for unset), which the
        # server's AcceptEnv lets in as it let in the old one.
        lines = ["Host *"] + ["    SetEnv %s=%s" % (n, v if v is not None else "")
                              for n, v in sent]
        options.append([Fix("the top of ~/.ssh/config on the ssh client (ssh_config(5): "
                            "Host * or this server's name)", tuple(lines), "ssh")])
        # The server's own: with PAM (Debian), /etc/default/locale's values win over
        # the client's, so they alone do it; a variable to remove must also stop being
        # let in (AcceptEnv), which alone leaves no locale variable where one is needed.
        pam = info.get("use_pam") and info.get("distribution") in ("debian", "ubuntu")
        steps = []
        if any(v is None for _, v in sent) or not values:
            directive = forwarded[sent[0][0]]
            kept = [p for p in directive.patterns if not any(_matches(p, n) for n, _ in sent)]
            server = ["# was: AcceptEnv %s" % " ".join(directive.patterns)]
            server.append("AcceptEnv %s" % " ".join(kept) if kept else "# (no AcceptEnv line)")
            steps.append(Fix("as root on this server, %s (sshd_config(5); then reload sshd)"
                             % directive.where, tuple(server), "ssh"))
        if values and pam:
            steps.append(Fix("as root on this server, /etc/default/locale (pam_env gives it "
                             "to every ssh session)", tuple("%s=%s" % nv for nv in values), "ssh"))
        if steps and (pam or not values):
            options.append(steps)
    elif from_pam and values:
        options.append([Fix("as root on this server, /etc/default/locale (pam_env gives it "
                            "to every ssh session, over what the client sends)",
                            tuple("%s=%s" % nv for nv in values), "ssh")])
    shell = context.details.get("shell") or "/bin/bash"
    fix = for_shell(shell, changes)
    if fix is not None:
        options.append([fix._replace(where="on this server, " + fix.where, context="ssh")])
    return options


def _matches(pattern, name):
    from ._sshd import matches
    return matches(pattern, name)


def locale_gen_line(name):
    """The /etc/locale.gen line (Debian) for a locale name: "en_US.UTF-8 UTF-8"."""
    base, at, modifier = name.partition("@")
    language_territory, dot, codeset = base.partition(".")
    charset = codeset.upper().replace("UTF8", "UTF-8") if dot else "ISO-8859-1"
    if charset.replace("-", "") == "UTF8":
        return "%s.UTF-8%s UTF-8" % (language_territory, at + modifier)
    return "%s%s %s" % (base, at + modifier, charset)


# Install commands no test of this project has applied (no Ubuntu or RHEL root here):
# said as what their documentation gives, never printed as a fix.
UNTESTED_INSTALLS = {"ubuntu": "locale-gen %(name)s (Ubuntu's locales package)",
                     "rhel": "dnf install glibc-langpack-%(language)s (RHEL/Fedora)"}


def untested_install(name, info):
    """The words of an install command for `info`'s distribution that no test applied,
    or None."""
    family = info.get("distribution")
    if family not in UNTESTED_INSTALLS:
        return None
    return UNTESTED_INSTALLS[family] % {"name": name,
                                        "language": name.partition("_")[0].partition(".")[0]}


def _install(name, info, main):
    """[Fix]: the commands that install the locale `name` on Debian, as root; in a
    container, the one Dockerfile RUN line (a Debian image ships with empty package
    lists: apt-get install alone finds no `locales`). Elsewhere nothing: no other
    distribution's commands were applied by a test (untested_install() words them)."""
    if info.get("distribution") != "debian":
        return []
    line = locale_gen_line(name)
    present = any(l.strip().lstrip("#").strip() == line
                  for l in (info.get("locale_gen") or "").splitlines())
    if present:
        edit = "sed -i 's/^# *%s$/%s/' /etc/locale.gen" % (line.replace(".", "\\."), line)
    else:
        edit = "echo '%s' >> /etc/locale.gen" % line
    commands = ["apt-get update", "apt-get install -y locales", edit, "locale-gen"]
    if main is not None and main.name == "container":
        return [Fix("the Dockerfile, before the program's line", ("RUN " + " && ".join(commands),),
                    "container")]
    return [Fix("as root, install %s on this system (debian)" % name, tuple(commands), "install")]


def _wrap(python, main, info):
    """[Fix]: the command started through `utf8env run`, both by absolute path (cron's
    PATH is /usr/bin:/bin, a unit's ExecStart= wants one, and a venv's utf8env is on no
    PATH but the venv's)."""
    if main is not None and main.name == "server":
        return []       # a server's own program line: no test has applied one yet
    words = list(info.get("utf8env") or ("utf8env",)) + ["run", "--", python]
    from .._shellquote import quote
    line = " ".join(quote(w) for w in words)
    # Each place's own quoting, written once in _env_formats.py (a path's %, $ or blank means
    # something else to systemd and to cron than to a shell).
    from .. import _env_formats
    if main is not None and main.name == "systemd":
        try:
            start = _env_formats.systemd_exec_start(words)
        except UsageError:          # a $ in utf8env's path: no ExecStart= runs it as it is
            return []
        return [Fix("the unit's ExecStart=, the program's arguments after it (no variable gives "
                    "Python 3.6 a UTF-8 mode)", (start,), "systemd")]
    if main is not None and main.name == "container":
        import json
        return [Fix("the Dockerfile's ENTRYPOINT, the program's arguments in CMD (no variable "
                    "gives Python 3.6 a UTF-8 mode)", ("ENTRYPOINT %s" % json.dumps(words),),
                    "container")]
    if main is not None and main.name == "cron":
        import os
        try:
            job = os.fsdecode(_env_formats.cron_command(words))
        except UsageError:          # a newline in a path: no crontab line can hold it
            return []
        return [Fix("the crontab's job line, between its schedule and the program's arguments",
                    (job,), "cron")]
    return [Fix("the command line, in front of the program's arguments (no variable gives "
                "Python 3.6 a UTF-8 mode)", (line,), main.name if main else "shell")]
