"""Apache's config (only apache_groups() reads, through place.py's Reader): the
WSGIDaemonProcess lines, mod_wsgi's daemon process groups, of the config Apache was
started with (-f, else Debian's or RHEL's) and the files it includes, and the group a
daemon process's title names. _embedding.py reads them into the server context's details;
_servers.py writes the fix on the app's group's line (its docstring says what was
measured).
"""
from .._engine.records import Record, field
from . import _server_command as server_command

# Where Apache reads its config without -f: (its ServerRoot, the file), Debian's, then
# RHEL's and Fedora's.
_APACHE_DEFAULTS = (("/etc/apache2", "/etc/apache2/apache2.conf"),
                    ("/etc/httpd", "/etc/httpd/conf/httpd.conf"))
_MAX_CONFIG_FILES = 512         # Include loops and huge trees end here


class DaemonGroup(Record):
    """One WSGIDaemonProcess line of Apache's config."""
    name = field()
    path = field()              # the file it is in
    number = field()            # its line number there (the first, for a continued line)
    text = field()              # the directive, continuation lines joined
    display = field(None)       # its display-name= option


def directive_words(text):
    """A directive's words as Apache splits them (a double-quoted word is one), quotes kept."""
    import re
    return re.findall(r'"[^"]*"|\S+', text)


def apache_groups(process, reader):
    """(the config file Apache was started with or None, (DaemonGroup, ...)): that file and
    those its Include and IncludeOptional lines name, read through `reader`."""
    argv = list(process.argv[1:])
    given = server_command.option(argv, "-f", None)
    root = server_command.option(argv, "-d", None)
    if given is None:
        # -d ROOT alone: the distribution's file name under that root (Debian's
        # apache2@NAME instances start with -d /etc/apache2-NAME).
        defaults = [(r, root.rstrip("/") + p[len(r):]) for r, p in _APACHE_DEFAULTS] \
            if root else _APACHE_DEFAULTS
        for default_root, path in defaults:
            if reader.text(path) is not None:
                given, root = path, root or default_root
                break
        else:
            return None, ()
    elif not given.startswith("/") and root:
        given = root.rstrip("/") + "/" + given
    found, seen = [], set()
    if not _read_apache(given, root, reader, found, seen):
        return None, ()
    return given, tuple(found)


def _read_apache(path, root, reader, found, seen):
    """Add the WSGIDaemonProcess lines of `path` and what it includes to `found`; False
    where `path` could not be read. A file is read once (Apache refuses a recursive
    Include), _MAX_CONFIG_FILES at most."""
    if path in seen or len(seen) >= _MAX_CONFIG_FILES:
        return False
    seen.add(path)
    text = reader.text(path)
    if text is None:
        return False
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        number, line = index + 1, lines[index].strip()
        while line.endswith("\\") and index + 1 < len(lines):   # a continued line
            index += 1
            line = line[:-1] + " " + lines[index].strip()
        index += 1
        words = directive_words(line)
        if not words or words[0].startswith("#"):
            continue
        directive = words[0].lower()
        argument = words[1].strip('"') if len(words) > 1 else None
        if directive == "serverroot" and argument:
            root = argument
        elif directive in ("include", "includeoptional") and argument:
            if not argument.startswith("/") and root:
                argument = root.rstrip("/") + "/" + argument
            for included in _expanded(argument, reader):
                _read_apache(included, root, reader, found, seen)
        elif directive == "wsgidaemonprocess" and argument:
            display = [w.strip('"')[len("display-name="):] for w in words[2:]
                       if w.strip('"').lower().startswith("display-name=")]
            found.append(DaemonGroup(argument, path, number, line,
                                     display[-1] if display else None))
    return True


def _expanded(pattern, reader, depth=8):
    """The files an Include names: wildcards in any part, a folder's files (and its
    folders'), in the order Apache reads them (sorted)."""
    from fnmatch import fnmatchcase
    paths = ["/"]
    for part in [p for p in pattern.split("/") if p]:
        if any(c in part for c in "*?["):
            paths = [p.rstrip("/") + "/" + name for p in paths for name in reader.listdir(p)
                     if fnmatchcase(name, part)]
        else:
            paths = [p.rstrip("/") + "/" + part for p in paths]
    out = []
    for path in paths:
        inside = reader.listdir(path) if depth > 0 else []
        if not inside:
            out.append(path)
        for name in inside:
            out += _expanded(path.rstrip("/") + "/" + name, reader, depth - 1)
            if len(out) >= _MAX_CONFIG_FILES:       # `Include /` lists no whole disk
                return out
    return out


def title_group(title, groups):
    """The group whose display-name is the process's title: mod_wsgi writes it over argv[0]
    (`(wsgi:NAME)` for %{GROUP}), cut to argv[0]'s length; None unless exactly one."""
    def shown(group):
        return "(wsgi:%s)" % group.name if group.display == "%{GROUP}" else group.display
    if not title:
        return None
    named = [g for g in groups if g.display and shown(g).startswith(title)]
    return named[0] if len(named) == 1 else None
