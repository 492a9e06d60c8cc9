"""Where a locale variable most likely came from, in words, for a finding's evidence: a
shell start-up file, pam_env's /etc/default/locale, the ssh client, a session, the
context's usual source, else what doctor looked at. Pure."""
from ._records import parse_assignments


def origin_of(variable, value, found_contexts, info):
    """Where the variable most likely came from, in words (one parenthesis): a start-up
    file that sets it to this value first (what the user's own shell did is no image's or
    client's doing), then pam_env's /etc/default/locale where PAM applies it after the
    ssh client's variables, then what the client sent, then the context's usual source;
    with none of these, "not recognised" and the evidence there is (_not_recognised)."""
    files = info.get("files", {})
    by_name = {c.name: c for c in found_contexts}
    ssh = by_name.get("ssh")
    if variable and value:
        setter = _set_by(variable, value, files)
        if setter is not None:
            return "(set by %s)" % setter
    envvars = info.get("apache_envvars")
    if envvars is not None and variable == "LANG":
        return ("(set by %s line %d, `%s`: apache2ctl, and Debian's apache2.service through "
                "it, reads that file before it starts Apache)" % envvars)
    for context in found_contexts:
        from ._sessions import NAMES, origin    # not for explain: it has no context
        if context.name not in NAMES:
            break       # a place that sets the environment itself comes first
        # The nearest session gave this process its environment (contexts.detect's
        # order); the places after it (an ssh client, a container's image) did not.
        return origin(context, variable, value, files)
    if ssh is not None:
        if variable in ssh.details.get("from_pam", ()):
            return ("(as /etc/default/locale sets it: sshd's PAM (pam_env) applies that file "
                    "after the variables the ssh client sent)")
        directive = ssh.details["forwarded"].get(variable)
        if directive is not None:
            return ("(most likely sent by the ssh client: SendEnv on the client, let in by "
                    "AcceptEnv %s at %s%s)" % (" ".join(directive.patterns), directive.where,
                                               ", in a Match block" if directive.conditional else ""))
        if ssh.details.get("config") is None and (variable or "").startswith(("LC_", "LANG")):
            return ("(most likely sent by the ssh client: Debian's and macOS's ssh_config have "
                    "SendEnv LANG LC_*; the server's sshd_config could not be read to confirm)")
    for path in ("/etc/default/locale", "/etc/locale.conf"):
        if parse_assignments(files.get(path)).get(variable) == value and value:
            return "(as %s sets it)" % path
    for name, words in (("systemd", "the unit's Environment= or systemd's own locale"),
                        ("cron", "the crontab, or /etc/default/locale through pam_env"),
                        ("ci", "the CI configuration"),
                        ("container", "the image (Dockerfile ENV) or docker run -e")):
        if name in by_name:
            return "(most likely from %s)" % words
    return _not_recognised(info)


def _not_recognised(info):
    """The parenthesis of a value no context, start-up file or locale file gives: what
    doctor looked at, and the process that started this one (its nearest evidence), never
    a cause it cannot show. explain has no place: it says where to look instead."""
    if "parent" not in info:
        return ("(where it came from is not looked for: explain describes an environment, "
                "not a place; utf8env doctor looks in the place)")
    parent = info["parent"]
    return ("(not recognised: no context found here, start-up file or locale file doctor "
            "reads sets it; %s)" % ("parent process: %s" % parent.name if parent is not None
                                    else "the parent process is not known: no /proc"))


def _set_by(variable, value, files):
    """"~/.bashrc line 12" for the first shell start-up file that assigns `value` to
    `variable` (NAME=VALUE, export NAME=VALUE, quoted or not), or None."""
    if not files:
        return None         # explain: no place, and no _place module to load
    from ._place import RC_FILES
    for path in RC_FILES:
        for number, line in enumerate((files.get(path) or "").splitlines(), 1):
            found = parse_assignments(line)
            if found.get(variable) == value:
                return "%s line %d" % (path, number)
    return None
