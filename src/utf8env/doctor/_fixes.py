"""The exact fix, for the context found: a remedy (variables to set or unset, a locale to
install, `utf8env run` in front of a command) written as the lines to put where that
context reads its environment. Pure."""
from .._engine.records import Record, field


class Remedy(Record):
    """What would make a finding go away, before it is written for a context."""
    changes = field(())         # ((name, value or None to unset), ...)
    install = field(None)       # a locale name to install on this system
    wrap = field(None)          # a Python (e.g. "python3.6") to start through `utf8env run`
    note = field(None)          # one line to say alongside


class Fix(Record):
    where = field()             # "~/.bashrc", "~/.ssh/config on the ssh client", ...
    lines = field()             # exactly what to write or run
    context = field()           # the context name it is for ("shell", "ssh", ...)


def parse_assignments(text):
    """{name: value} of a NAME=VALUE file (/etc/default/locale, /etc/locale.conf)."""
    out = {}
    for line in (text or "").splitlines():
        line = line.strip()
        if line.startswith("export "):
            line = line[7:].strip()
        name, sep, value = line.partition("=")
        if sep and name and not name.startswith("#") and name.replace("_", "").isalnum():
            out[name] = value.strip().strip("\"'")
    return out


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


def _quote(value):
    from .._shellquote import quote
    return quote(value)


def _shell_lines(changes, shell):
    if shell.endswith("fish"):
        return tuple("set -gx %s %s" % (n, _quote(v)) if v is not None else "set -e %s" % n
                     for n, v in changes)
    return tuple("export %s=%s" % (n, _quote(v)) if v is not None else "unset %s" % n
                 for n, v in changes)


def _rc_file(shell):
    name = shell.rpartition("/")[2]
    return {"bash": "~/.bashrc (and ~/.profile for login shells)", "zsh": "~/.zshrc",
            "fish": "~/.config/fish/config.fish", "dash": "~/.profile", "sh": "~/.profile",
            "ksh": "~/.profile"}.get(name, "~/.profile")


def for_remedy(remedy, contexts, place_info):
    """The Fixes of `remedy`, for the primary context first, then the others found; with
    no context (explain describes an environment, not a place), for the shell of
    `place_info`. `place_info`: {"distribution", "locale_gen" (text or None), "files",
    "shell" (where there is no context)}."""
    fixes = []
    main = None
    if contexts:
        from ._contexts import primary       # not for explain: it has no context to order
        main = primary(contexts)
    ordered = [main] + [c for c in contexts if c is not main] if main else []
    changes = tuple(remedy.changes)
    if changes:
        # The place that starts the program is the one to change: the primary context's
        # file only (a container's ENV means nothing to the ssh session inside it).
        for context in ordered:
            fixes += _for_context(context, changes, place_info)
            if fixes:
                break
        if not ordered:
            fixes += _for_shell(place_info.get("shell") or "/bin/sh", changes)
    if remedy.install:
        fixes += _install(remedy.install, place_info)
    if remedy.wrap:
        fixes += _wrap(remedy.wrap, main)
    return tuple(fixes)


def _for_context(context, changes, info):
    name = context.name
    if name == "shell":
        return _for_shell(context.details.get("shell") or "/bin/sh", changes)
    if name == "ssh":
        return _ssh(context, changes, info)
    if name == "cron":
        # crontab(5): "an environment setting is of the form name = value"; an empty
        # value is what a crontab can do instead of unset (glibc ignores an empty LC_ALL).
        return [Fix("the crontab (crontab -e), above the job's line",
                    tuple("%s=%s" % (n, v if v is not None else "") for n, v in changes), "cron")]
    if name == "systemd":
        unit = context.details.get("unit") or "UNIT.service"
        lines = ["[Service]"]
        lines += ["Environment=%s=%s" % (n, v) for n, v in changes if v is not None]
        unset = [n for n, v in changes if v is None]
        if unset:
            lines.append("UnsetEnvironment=%s" % " ".join(unset))   # systemd.exec(5), v235+
        return [Fix("a drop-in: systemctl edit %s (then systemctl restart %s)" % (unit, unit),
                    tuple(lines), "systemd")]
    if name == "ci":
        service = context.details.get("service")
        if service == "GitHub Actions":
            return [Fix("the workflow (or the job): GitHub Actions env:",
                        ("env:",) + tuple("  %s: %s" % (n, _yaml(v)) for n, v in changes), "ci")]
        if service == "GitLab CI":
            return [Fix(".gitlab-ci.yml variables:",
                        ("variables:",) + tuple("  %s: %s" % (n, _yaml(v)) for n, v in changes), "ci")]
        return [Fix("the CI job's environment (%s)" % service, _shell_lines(changes, "sh"), "ci")]
    if name == "container":
        return [Fix("the Dockerfile (or docker run -e NAME=VALUE)",
                    tuple("ENV %s=%s" % (n, v if v is not None else "") for n, v in changes),
                    "container")]
    return []


def _for_shell(shell, changes):
    return [Fix(_rc_file(shell), _shell_lines(changes, shell), "shell")]


def _yaml(value):
    return '""' if value is None else '"%s"' % value


def _ssh(context, changes, info):
    """The client's ~/.ssh/config and the server's AcceptEnv, for variables the client
    sent; the server's own locale file otherwise."""
    forwarded = context.details.get("forwarded", {})
    sent = [(n, v) for n, v in changes if n in forwarded]
    fixes = []
    if sent:
        # ssh_config(5) SendEnv: "It is possible to clear previously set SendEnv variable
        # names by prefixing patterns with -" (OpenSSH 8.7+); SetEnv sends a value of our
        # choosing instead, which this server's AcceptEnv lets in.
        lines = ["Host *", "    SendEnv %s" % " ".join("-" + n for n, _ in sent)]
        lines += ["    SetEnv %s=%s" % (n, v) for n, v in sent if v is not None]
        fixes.append(Fix("~/.ssh/config on the ssh client (ssh_config(5); Host * or this "
                         "server's name)", tuple(lines), "ssh"))
        directive = forwarded[sent[0][0]]
        kept = [p for p in directive.patterns
                if not any(_matches(p, n) for n, _ in sent)]
        server = ["# was: AcceptEnv %s" % " ".join(directive.patterns)]
        server.append("AcceptEnv %s" % " ".join(kept) if kept else "# (no AcceptEnv line)")
        fixes.append(Fix("%s on this server (sshd_config(5); then reload sshd)" % directive.where,
                         tuple(server), "ssh"))
        values = [(n, v) for n, v in changes if v is not None]
        if values:
            fixes.append(Fix("/etc/default/locale on this server (pam_env gives it to every "
                             "ssh session on Debian/Ubuntu)", tuple("%s=%s" % nv for nv in values),
                             "ssh"))
    rest = [(n, v) for n, v in changes if n not in forwarded]
    if rest:
        fixes.append(Fix("~/.bashrc on this server (or /etc/default/locale)",
                         _shell_lines(rest, "bash"), "ssh"))
    return fixes


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


def _install(name, info):
    family = info.get("distribution")
    language = name.partition("_")[0].partition(".")[0]
    if family in ("debian", "ubuntu"):
        line = locale_gen_line(name)
        present = any(l.strip().lstrip("#").strip() == line
                      for l in (info.get("locale_gen") or "").splitlines())
        if present:
            edit = "sed -i 's/^# *%s$/%s/' /etc/locale.gen" % (line.replace(".", "\\."), line)
        else:
            edit = "echo '%s' >> /etc/locale.gen" % line
        lines = ["apt-get install -y locales", edit, "locale-gen"]
        if family == "ubuntu":
            lines = ["apt-get install -y locales", "locale-gen %s" % line.split()[0]]
        return [Fix("install %s on this system (%s)" % (name, family), tuple(lines), "install")]
    if family == "rhel":
        return [Fix("install %s on this system (RHEL/Fedora: one package per language)" % name,
                    ("dnf install -y glibc-langpack-%s" % language,), "install")]
    if family == "alpine":
        return [Fix("on Alpine (musl)", ("# musl has no locale files: any name gives UTF-8 "
                                         "(C.UTF-8 is its default); set LANG=C.UTF-8",), "install")]
    return [Fix("install %s on this system" % name,
                ("localedef -i %s -f %s %s" % (name.partition(".")[0], locale_gen_line(name).split()[-1],
                                                name),), "install")]


def _wrap(python, main):
    command = ["utf8env", "run", "--", python, "app.py"]
    if main is not None and main.name == "systemd":
        return [Fix("the unit's ExecStart= (no variable gives %s a UTF-8 mode)" % python,
                    ("ExecStart=/usr/local/bin/" + " ".join(command),), "systemd")]
    if main is not None and main.name == "container":
        return [Fix("the Dockerfile's ENTRYPOINT (no variable gives %s a UTF-8 mode)" % python,
                    ("ENTRYPOINT [%s]" % ", ".join('"%s"' % w for w in command[:4]),), "container")]
    if main is not None and main.name == "cron":
        return [Fix("the crontab's command", ("* * * * * " + " ".join(command),), "cron")]
    return [Fix("the command line (no variable gives %s a UTF-8 mode)" % python,
                (" ".join(command),), main.name if main else "shell")]
