"""The ssh server's side: which sshd_config is in effect and which client variables its
AcceptEnv lets into a session.

sshd_config(5): "AcceptEnv Specifies what environment variables sent by the client will
be copied into the session's environ(7) ... Variables are specified by name, which may
contain the wildcard characters '*' and '?'. Multiple environment variables may be
separated by whitespace or spread across multiple AcceptEnv directives." Keywords are
case-insensitive; "Include ... Files without absolute paths are assumed to be in
/etc/ssh"; a Match block applies only to some connections, so what it accepts is
reported as conditional.
"""
from .._engine.records import Record, field

_MAX_INCLUDES = 32


class AcceptEnv(Record):
    patterns = field()          # ("LANG", "LC_*")
    where = field()             # "FILE:LINE"
    conditional = field()       # inside a Match block


def config_path(ancestors):
    """The -f FILE of the sshd this session descends from (sshd(8) -f config_file), else
    None. sshd rewrites its command line as its title, and OpenSSH 9's listener keeps the
    original command in it ("sshd: /usr/sbin/sshd -D -f FILE [listener] ..."), so the
    words are looked for in every ancestor named sshd."""
    for process in ancestors:
        if process.name != "sshd" and not process.name.startswith("sshd"):
            continue
        words = " ".join(process.argv).split()
        for index, word in enumerate(words[:-1]):
            if word == "-f":
                return words[index + 1]
    return None


def read_configs(path, reader):
    """((path, text), ...): the config file and every file it Includes, in order
    (`reader`: a place.Reader)."""
    out = []
    _read(path, reader, out, 0)
    return tuple(out)


def _read(path, reader, out, depth):
    text = reader.text(path)
    if text is None or depth > _MAX_INCLUDES or len(out) > _MAX_INCLUDES:
        return
    out.append((path, text))
    for words in (_words(line) for line in text.splitlines()):
        if len(words) > 1 and words[0].lower() == "include":
            for pattern in words[1:]:
                for name in _glob(pattern if pattern.startswith("/") else "/etc/ssh/" + pattern,
                                  reader):
                    _read(name, reader, out, depth + 1)


def _glob(pattern, reader):
    folder, _, name = pattern.rpartition("/")
    if folder and not any(magic in folder for magic in "*?[") and "[" not in name:
        # The usual Include (sshd_config.d/*.conf): the folder listed, its names matched
        # as glob(3) matches * and ? (a dot file only by a pattern starting with a dot);
        # the glob module (and re with it) costs doctor 6 ms.
        return ["%s/%s" % (folder, entry) for entry in reader.listdir(folder)
                if matches(name, entry) and (name.startswith(".") or not entry.startswith("."))]
    import glob
    prefix = reader.path("")
    try:
        return sorted(name[len(prefix):] for name in glob.glob(reader.path(pattern)))
    except (OSError, ValueError):
        return []


def _words(line):
    """A config line's words: "Keyword value..." or "Keyword=value..." (sshd_config(5))."""
    words = line.split("#", 1)[0].split()
    if words and "=" in words[0]:
        keyword, _, value = words[0].partition("=")
        words[:1] = [keyword] + ([value] if value else [])
    return words


def accept_env(configs):
    """The AcceptEnv directives of `configs`, in order."""
    out = []
    for path, text in configs:
        in_match = False
        for number, line in enumerate(text.splitlines(), 1):
            words = _words(line)
            if not words:
                continue
            keyword = words[0].lower()
            if keyword == "match":
                in_match = True
            elif keyword == "acceptenv" and len(words) > 1:
                out.append(AcceptEnv(tuple(words[1:]), "%s:%d" % (path, number), in_match))
    return tuple(out)


def use_pam(configs):
    """Whether sshd runs the PAM stack (sshd_config(5) UsePAM: the first value outside a
    Match block wins; OpenSSH's default is no, Debian's sshd_config says yes); None
    when no config could be read. With PAM, Debian's pam_env reads /etc/default/locale
    into every session after the client's variables: it wins over what the client sent."""
    if not configs:
        return None
    for path, text in configs:
        for line in text.splitlines():
            words = _words(line)
            if not words:
                continue
            if words[0].lower() == "match":
                break
            if words[0].lower() == "usepam" and len(words) > 1:
                return words[1].lower() == "yes"
    return False


def accepted_by(name, directives):
    """The first AcceptEnv that lets `name` in, or None."""
    for directive in directives:
        if any(matches(pattern, name) for pattern in directive.patterns):
            return directive
    return None


def matches(pattern, name):
    """ssh's match_pattern(): '*' any run of characters, '?' one character."""
    if not pattern:
        return not name
    if pattern[0] == "*":
        return any(matches(pattern[1:], name[i:]) for i in range(len(name) + 1))
    if not name:
        return False
    if pattern[0] == "?" or pattern[0] == name[0]:
        return matches(pattern[1:], name[1:])
    return False
