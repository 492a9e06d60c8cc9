"""Where this is, each context from evidence it can name (pure: from a place.Place).

A context is reported only with the variables, files or processes that show it; the
fix doctor prints is the one for the first context of CONTEXTS found (a service's
unit file beats the shell rc of the user who started it, and so on).
"""
from ._records import Context, parse_assignments
from . import _servers as servers, _sessions as sessions, _sshd as sshd

# In the order their fixes are preferred: the most specific place first. The sessions
# (_sessions.py: sudo, su, at, tmux, screen) come between cron and ssh, nearest ancestor
# first: the last of them to start this process gave it its environment (sudo in an ssh
# session or in a container is sudo's to fix). A command run by `sh -c` or nohup comes
# after the places that set its environment's values (ssh, CI, a container's image).
CONTEXTS = ("server", "systemd", "cron", "sudo", "su", "at", "tmux", "screen", "ssh", "ci",
            "container", "command", "shell")
_SESSIONS = CONTEXTS[CONTEXTS.index("sudo"):CONTEXTS.index("ssh")]

# cron(8)/crontab(5): "SHELL is set to /bin/sh, and LOGNAME and HOME are set from the
# /etc/passwd line of the crontab's owner"; Debian's cron sets PATH=/usr/bin:/bin
# (crontab(5): "PATH is set to /usr/bin:/bin"), and a job has no terminal, so no TERM.
CRON_PATH = "/usr/bin:/bin"
_CRON_NAMES = ("cron", "crond", "CRON", "anacron", "busybox crond", "fcron")
_CRON_VARIABLES = {"SHELL", "PATH", "HOME", "LOGNAME", "USER", "MAILTO", "LANG", "LC_ALL",
                   "LC_CTYPE", "LANGUAGE", "PWD", "SHLVL", "_", "XDG_SESSION_ID",
                   "XDG_RUNTIME_DIR", "XDG_SESSION_TYPE", "XDG_SESSION_CLASS", "MAIL",
                   "LOCPATH", "TZ"}    # what a crontab's own lines commonly add
# Each CI service's own variable (their documentation's "predefined variables").
_CI = (("GITHUB_ACTIONS", "GitHub Actions"), ("GITLAB_CI", "GitLab CI"),
       ("JENKINS_URL", "Jenkins"), ("CIRCLECI", "CircleCI"), ("TRAVIS", "Travis CI"),
       ("BUILDKITE", "Buildkite"), ("TF_BUILD", "Azure Pipelines"),
       ("BITBUCKET_BUILD_NUMBER", "Bitbucket Pipelines"), ("TEAMCITY_VERSION", "TeamCity"),
       ("DRONE", "Drone"), ("APPVEYOR", "AppVeyor"), ("CI", "CI"))
# cgroup paths of container runtimes (/proc/1/cgroup, cgroups(7)).
_RUNTIMES = (("docker", "Docker"), ("kubepods", "Kubernetes"), ("libpod", "Podman"),
             ("containerd", "containerd"), ("lxc", "LXC"), ("machine.slice", "systemd-nspawn"))


def detect(place):
    """The Contexts found in `place`, in CONTEXTS order."""
    found = []
    for detector in (_server, _systemd, _cron):
        context = detector(place)
        if context is not None:
            found.append(context)
    near = sessions.detect(place)
    unknown = len(place.ancestors) + 1
    found += [context for depth, context in sorted(
        ((d, c) for d, c in near if c.name in _SESSIONS),
        key=lambda dc: (unknown if dc[0] is None else dc[0], CONTEXTS.index(dc[1].name)))]
    for detector in (_ssh, _ci, _container):
        context = detector(place)
        if context is not None:
            found.append(context)
    found += [c for _, c in near if c.name not in _SESSIONS]
    found.append(_shell(place))
    return tuple(found)


def _server(place):
    return servers.detect(place)


def _ssh(place):
    env = place.environ
    evidence = ["%s=%s" % (name, env[name]) for name in ("SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY")
                if env.get(name)]
    server = [p for p in place.ancestors if p.name == "sshd" or p.name.startswith("sshd")]
    if server:
        evidence.append("process %d (%s) is an ancestor" % (server[0].pid, " ".join(server[0].argv)
                                                               or server[0].name))
    if not evidence:
        return None
    directives = sshd.accept_env(place.sshd_configs)
    forwarded = {}
    for name, value in sorted(env.items()):
        if name.startswith("LC_") or name in ("LANG", "LANGUAGE"):
            directive = sshd.accepted_by(name, directives)
            if directive is not None:
                forwarded[name] = directive
    client = env.get("SSH_CONNECTION", env.get("SSH_CLIENT", "")).split()
    summary = "ssh session" + (" from %s" % client[0] if client else "")
    return Context("ssh", summary, tuple(evidence), {
        "config": place.sshd_configs[0][0] if place.sshd_configs else None,
        "accept_env": directives, "forwarded": forwarded,
        "client": client[0] if client else None, "shell": env.get("SHELL"),
        "from_pam": _from_pam(place, sshd.use_pam(place.sshd_configs))})


def _from_pam(place, use_pam):
    """The variables this session holds with the value /etc/default/locale gives them:
    with PAM (Debian's /etc/pam.d/sshd: pam_env envfile=/etc/default/locale), that file
    is applied after the client's variables, so it, not the client, decides them."""
    if not use_pam:
        return ()
    values = parse_assignments(place.files.get("/etc/default/locale"))
    return tuple(sorted(n for n, v in values.items() if v and place.environ.get(n) == v))


def _cron(place):
    env = place.environ
    parent = [p for p in place.ancestors if p.name in _CRON_NAMES]
    evidence = []
    if parent:
        evidence.append("process %d (%s) is an ancestor" % (parent[0].pid, parent[0].name))
    shape = ("TERM" not in env and env.get("PATH") == CRON_PATH and env.get("SHELL") == "/bin/sh"
             and "LOGNAME" in env and set(env) <= _CRON_VARIABLES)
    if shape:
        evidence.append("the environment cron(8) gives a job: PATH=%s, SHELL=/bin/sh, LOGNAME, "
                        "HOME, no TERM, nothing else" % CRON_PATH)
    if not evidence:
        return None
    return Context("cron", "cron job" if parent else "cron-like environment (no cron process seen)",
                   tuple(evidence), {"certain": bool(parent)})


def _systemd(place):
    env = place.environ
    evidence = ["%s=%s" % (name, env[name]) for name in ("INVOCATION_ID", "JOURNAL_STREAM")
                if env.get(name)]
    unit = None
    for line in place.files.get("/proc/self/cgroup", "").splitlines():
        path = line.rpartition(":")[2]
        last = path.rstrip("/").rpartition("/")[2]
        if last.endswith(".service") and "/system.slice/" in path + "/":
            unit = last
            evidence.append("/proc/self/cgroup: %s" % path)
            break
    if not evidence:
        return None
    locale_files = [(path, place.files[path]) for path in ("/etc/locale.conf", "/etc/default/locale")
                    if path in place.files]
    return Context("systemd", "systemd service" + (" %s" % unit if unit else ""),
                   tuple(evidence), {"unit": unit, "locale_files": tuple(locale_files)})


def _ci(place):
    env = place.environ
    for name, service in _CI:
        if env.get(name) and env.get(name).lower() not in ("0", "false"):
            return Context("ci", service, ("%s=%s" % (name, env[name]),), {"service": service})
    return None


def _container(place):
    evidence = ["%s exists" % marker for marker in place.markers]
    runtime = None
    if place.markers:
        runtime = "Podman" if "/run/.containerenv" in place.markers else "Docker"
    if place.environ.get("container"):
        evidence.append("container=%s" % place.environ["container"])
        runtime = runtime or place.environ["container"]
    for line in place.files.get("/proc/1/cgroup", "").splitlines():
        path = line.rpartition(":")[2]
        for key, name in _RUNTIMES:
            if key in path:
                evidence.append("/proc/1/cgroup: %s" % path)
                runtime = runtime or name
                break
        else:
            continue
        break
    if place.environ.get("KUBERNETES_SERVICE_HOST"):
        evidence.append("KUBERNETES_SERVICE_HOST=%s" % place.environ["KUBERNETES_SERVICE_HOST"])
        runtime = runtime or "Kubernetes"
    if not evidence:
        return None
    return Context("container", "%s container" % runtime, tuple(evidence), {"runtime": runtime})


def _shell(place):
    """Always reported: whether a person is at a terminal, and which shell's rc applies."""
    ttys = place.ttys
    names = [name for name, tty in zip(("stdin", "stdout", "stderr"), ttys) if tty]
    if all(ttys):
        summary = "interactive terminal"
    elif names:
        summary = "partly a terminal (%s)" % ", ".join(names)
    else:
        summary = "not a terminal"
    term = place.environ.get("TERM")
    evidence = ("terminal: %s" % (", ".join(names) or "none of stdin, stdout, stderr"),
                "TERM=%s" % term if term else "TERM unset")
    shell = place.environ.get("SHELL") or "/bin/sh"
    return Context("shell", summary, evidence, {"shell": shell, "interactive": all(ttys)})


def primary(contexts):
    """The context whose fix comes first: the first found in detect()'s order, which is
    CONTEXTS' with the sessions nearest first (shell at worst)."""
    for context in contexts:
        if context.name in CONTEXTS:
            return context
    return None
