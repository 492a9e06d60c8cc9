"""The servers that start an app's Python themselves (pure: from a place.Place; only
read_embedding() reads, through place.py's Reader), the lines of their own configuration
that give it a UTF-8 locale, and what the Python that uWSGI or mod_wsgi embeds gets.

uWSGI and mod_wsgi embed CPython: they call Py_Initialize() themselves, which neither
coerces the C locale (PEP 538) nor turns on the UTF-8 mode (PEP 540) from it, and
ignores PYTHONUTF8 (measured: CPython 3.8-3.14). Only the locale the server gives
its process before that call changes what the app's Python uses; what each line does was
measured with the app reporting sys.getfilesystemencoding(), sys.stdout.encoding and
locale.getpreferredencoding(False) from a server started with no locale variable
(tests/test_doctor_servers.py applies every line printed here, as printed):

- uWSGI (2.0.21 Debian, 2.0.31 PyPI): `env = NAME=VALUE` in the [uwsgi] section of the
  ini file, and `--env NAME=VALUE` on its command line, are applied before Python
  starts (ascii -> utf-8); so are `unenv = NAME` and `--unenv NAME`. uWSGI gives its
  workers UWSGI_RELOADS and UWSGI_ORIGINAL_PROC_NAME. PYTHONUTF8=1 (`env =`) changes
  nothing.
- mod_wsgi (4.9.4, Debian's Apache 2.4): embedded mode has only Apache's environment;
  `WSGIDaemonProcess NAME lang=VALUE locale=VALUE` sets LANG and LC_ALL (and
  setlocale()) in the daemon process before Python starts (ascii -> utf-8). The fix is
  those options on the WSGIDaemonProcess line of the app's own group: a new group
  appended after the app's VirtualHost changes nothing, one inside it moves the app out
  of its group. Which group is the app's: the daemon process's title, where the line
  has display-name=%{GROUP} (mod_wsgi writes "(wsgi:NAME)" over argv[0], cut to its
  length) or a display-name of its own, found among the WSGIDaemonProcess lines of the
  config Apache was started with (-f, else Debian's or RHEL's) and the files it
  includes; without one, the options and the groups found are printed, never a new
  group. It sets no variable that names it in os.environ: an apache2 or httpd ancestor,
  in a process that is no CGI script (no GATEWAY_INTERFACE), is its evidence.
- uWSGI given its ini by a relative path (`uwsgi --ini app.ini`) read it from its working
  folder: /proc/PID/cwd, readable by the process's own user while it is dumpable, names
  it; elsewhere the fix says the path is relative to that folder.
- supervisor (4.3.0): `environment=NAME="VALUE",...` in a [program:x] section is given
  to the program at exec, so any Python it starts, 3.6 included, starts with it;
  NAME="" is how it clears one (glibc ignores an empty LC_ALL). It gives its programs
  SUPERVISOR_ENABLED=1, SUPERVISOR_PROCESS_NAME and SUPERVISOR_GROUP_NAME.

Not a context here: gunicorn. It is a program of an ordinary python3, started by
systemd, a shell or supervisor; its --env and raw_env (gunicorn.conf.py) only set
os.environ after that Python started (measured with 3.6: still ascii), so the fix is
that of whatever starts gunicorn (its SERVER_SOFTWARE=gunicorn/... says nothing to fix).

Only the locale variables (LANG, LC_*) are written into these lines: they are what the
tests applied.

What the app's Python gets (issue 21) is the engine's prediction for the embedding kind
the host's binary uses, in the app's environment (doctor's own, inherited from the app),
with the one thing the host changes after Py_Initialize(): sys.stdout and sys.stderr.
read_embedding() finds that binary, the only impure part here (through a place.Reader):
the python plugin or module mapped into the host's process (/proc/PID/maps, readable by
the process's own user while it is dumpable: uWSGI as root, not Apache's children, which
setuid() made non-dumpable), else the files its command line and config name (uWSGI's
plugin and plugins-dir options, Apache's LoadModule wsgi_module). The binary's dynamic
symbol names say which initialisation it imports (Py_Initialize: "initialize";
PyConfig_InitPythonConfig: "python-config"), the libpython it links names the version.
Measured (tests/test_doctor_servers.py compares each field with what the app reports):
- uWSGI 2.0.21 (Debian 12, python311_plugin.so): Py_Initialize() of libpython3.11; its
  python plugin then puts PyFile_FromFd(2, ...) in sys.stdout and sys.stderr when its
  stdin is not a terminal (plugins/python/python_plugin.c): open()'s encoding, errors
  strict. uWSGI 2.0.22 (commit 509104ea) passes "backslashreplace" instead: a plugin
  holding that word is taken to be such a one (from the source, not measured here).
- mod_wsgi 4.9.4 (Debian 12): Py_Initialize() of libpython3.11; sys.stdout and
  sys.stderr are its log objects, utf-8/replace (wsgi_logger.c), in embedded and daemon
  mode alike. mod_wsgi 5.0.1+ calls PyConfig_InitPythonConfig() on Python 3.8+ (from
  the source: its binary imports that name, which is what is read).
"""
import shlex

from .._engine.records import Record, field
from ._records import Context, Fix
from ._pythons import Found
from .._engine.policy import Inputs, Reason, Stream, decide
from .._engine.profiles import VERSIONS, embedded_kinds

_UWSGI_VARIABLES = ("UWSGI_RELOADS", "UWSGI_ORIGINAL_PROC_NAME")
_SUPERVISOR_VARIABLES = ("SUPERVISOR_ENABLED", "SUPERVISOR_PROCESS_NAME",
                         "SUPERVISOR_GROUP_NAME")
_APACHE_NAMES = ("apache2", "httpd")


def _kind(process):
    name = process.name.lower()
    program = process.argv[0].rpartition("/")[2] if process.argv else ""
    if name.startswith("uwsgi") or program.startswith("uwsgi"):
        return "uwsgi"
    if name in _APACHE_NAMES or program in _APACHE_NAMES:
        return "mod_wsgi"
    if name == "supervisord" or program == "supervisord" or (
            "supervisor.supervisord" in process.argv[1:3]):
        return "supervisor"
    return None


def detect(place):
    """The server nearest above this process (its ancestors, then its variables), or None."""
    env = place.environ
    found, process = None, None
    for ancestor in place.ancestors:
        kind = _kind(ancestor)
        if kind == "mod_wsgi" and env.get("GATEWAY_INTERFACE"):
            kind = None         # a CGI script of Apache's: not an app of mod_wsgi
        if kind is not None:
            found, process = kind, ancestor
            break
    uwsgi = [n for n in _UWSGI_VARIABLES if env.get(n)]
    supervisor = [n for n in _SUPERVISOR_VARIABLES if env.get(n)]
    if found is None:
        found = "uwsgi" if uwsgi else "supervisor" if supervisor else None
    if found is None:
        return None
    evidence = []
    if process is not None:
        evidence.append("process %d (%s) is an ancestor" % (process.pid, " ".join(process.argv)
                                                           or process.name))
    names = {"uwsgi": uwsgi, "supervisor": supervisor}.get(found, ())
    evidence += ["%s=%s" % (n, env[n]) for n in names]
    if found == "mod_wsgi":
        evidence.append("no GATEWAY_INTERFACE: not a CGI script, an app of mod_wsgi")
    argv = process.argv if process is not None else ()
    details = {"kind": found, "config": _config(found, argv)}
    embedding = getattr(place, "embedding", None)
    if embedding is not None and process is not None and embedding.pid == process.pid:
        details.update(_read_config_facts(found, details["config"], embedding))
        evidence += _group_evidence(embedding)
    if found == "supervisor":
        details["program"] = env.get("SUPERVISOR_PROCESS_NAME")
        details["group"] = env.get("SUPERVISOR_GROUP_NAME")
    summary = {"uwsgi": "uWSGI", "mod_wsgi": "Apache mod_wsgi",
               "supervisor": "supervisor"}[found]
    if found == "supervisor" and details["program"]:
        summary += " program %s" % details["program"]
    return Context("server", summary, tuple(evidence), details)


def _option(argv, short, long_):
    """The value of the last `short VALUE`, `shortVALUE`, `long_ VALUE` or `long_=VALUE`."""
    value = None
    for index, word in enumerate(argv):
        following = argv[index + 1] if index + 1 < len(argv) else None
        if word in (short, long_) and word:
            value = following or value
        elif long_ and word.startswith(long_ + "="):
            value = word[len(long_) + 1:]
        elif short and len(short) == 2 and word.startswith(short) and len(word) > 2 \
                and not word.startswith("--"):
            value = word[2:]
    return value


def _config(kind, argv):
    """The config file the server's command line names (None: it names none here)."""
    argv = list(argv[1:])
    if kind == "uwsgi":
        # uwsgi --ini FILE (Debian's service passes several: the app's is the last), or
        # the ini file as its only argument ("uwsgi app.ini").
        value = _option(argv, None, "--ini")
        if value is None:
            bare = [w for w in argv if w.endswith(".ini") and not w.startswith("-")]
            value = bare[-1] if bare else None
        return value
    if kind == "mod_wsgi":
        return _option(argv, "-f", None)            # httpd -f FILE
    if kind == "supervisor":
        return _option(argv, "-c", "--configuration")
    return None


def _locale_only(changes):
    return all(n == "LANG" or n.startswith("LC_") for n, _ in changes)


def fixes(context, changes):
    """[[Fix, ...] per option]: the lines of the server's own config that give the app
    the variables `changes`; [] where no tested line can."""
    if not changes or not _locale_only(changes):
        return []
    kind = context.details.get("kind")
    config = context.details.get("config")
    if kind == "uwsgi":
        if config:
            lines = tuple("env = %s=%s" % (n, v) if v is not None else "unenv = %s" % n
                          for n, v in changes)
            return [[Fix("the [uwsgi] section of %s (uWSGI applies env before it starts "
                         "Python; then restart uWSGI)" % _uwsgi_ini(context.details), lines,
                         "server")]]
        words = []
        for n, v in changes:
            words += ["--env", "%s=%s" % (n, v)] if v is not None else ["--unenv", n]
        return [[Fix("uWSGI's command line, with its other options (applied before it starts "
                     "Python; then restart uWSGI)", (" ".join(shlex.quote(w) for w in words),),
                     "server")]]
    if kind == "mod_wsgi":
        values = set(v for _, v in changes if v is not None)
        if len(values) != 1:
            return []
        return [[_mod_wsgi_fix(context.details, values.pop())]]
    if kind == "supervisor":
        program = context.details.get("program")
        section = ("[program:%s]" % program if program and program == context.details.get("group")
                   else "[program:...]")
        where = ("the %s section of %s (its one environment= line: join these to one "
                 "already there; then supervisorctl update)"
                 % (section, config or "supervisord.conf or a file it includes"))
        line = "environment=" + ",".join('%s="%s"' % (n, v if v is not None else "")
                                         for n, v in changes)
        return [[Fix(where, (line,), "server")]]
    return []


def _uwsgi_ini(details):
    """The ini file as uWSGI read it: a relative path on its command line is its working
    folder's (read from /proc/PID/cwd), said so where that folder is not known."""
    config = details["config"]
    if config.startswith("/"):
        return config
    if details.get("folder") is not None:
        return details["folder"].rstrip("/") + "/" + config
    return "%s, relative to the folder uWSGI was started in (%s)" % (
        config, "its working folder, /proc/%d/cwd, could not be read or no longer holds it"
        % details["pid"] if "pid" in details else "not known here")


def _mod_wsgi_fix(details, value):
    """lang= and locale= on the WSGIDaemonProcess line of the app's own group: mod_wsgi
    sets them in that group's processes before it starts Python (measured: a new group
    appended after a VirtualHost changes nothing; one inside it moves the app out of its
    group). The line itself where the process title names the group, else the options and
    where the line is."""
    options = "lang=%s locale=%s" % (value, value)
    group = details.get("group")
    after = ("mod_wsgi sets lang= and locale= in the group's processes before Python starts; "
             "then restart Apache")
    if group is not None:
        words = [w for w in _words(group.text)
                 if not w.lower().startswith(("lang=", "locale="))]
        return Fix("the app's daemon process group, its WSGIDaemonProcess line (%s, line %d), "
                   "changed to this one (%s)" % (group.path, group.number, after),
                   (" ".join(words + [options]),), "server")
    config = details.get("apache_config") or details.get("config")
    groups = details.get("groups") or ()
    if groups:
        why = ("this process's title names none of the groups there (%s); display-name=%%{GROUP} "
               "on the app's line makes it name its group" % ", ".join(
                   "%s in %s, line %d" % (g.name, g.path, g.number) for g in groups))
    elif config and details.get("config_read"):
        why = ("no WSGIDaemonProcess line was found there: in embedded mode the app's Python "
               "has Apache's own environment")
    else:
        why = "Apache's config could not be read here"
    return Fix("the WSGIDaemonProcess line of the app's own process group (the group its "
               "WSGIProcessGroup names) in Apache's config%s: add these options to it (%s). "
               "Which group is the app's was not found: %s" % (
                   " (%s and the files it includes)" % config if config else "", after, why),
               (options,), "server")


def _read_config_facts(kind, config, embedding):
    """What read_embedding() found of the server's config: uWSGI's working folder (where
    its config is named by a relative path), mod_wsgi's daemon process groups and the one
    this process's title names."""
    if kind == "uwsgi" and config and not config.startswith("/"):
        return {"folder": embedding.folder, "pid": embedding.pid}
    if kind == "mod_wsgi":
        return {"group": embedding.group, "groups": embedding.groups,
                "apache_config": embedding.apache_config,
                "config_read": embedding.apache_config is not None}
    return {}


def _group_evidence(embedding):
    if embedding.group is None:
        return []
    return ["process %d's title %s: WSGIDaemonProcess %s's display-name (%s, line %d)" % (
        embedding.pid, embedding.title, embedding.group.name, embedding.group.path,
        embedding.group.number)]


# -- Apache's config: the WSGIDaemonProcess lines -------------------------------------

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


def _words(text):
    """A directive's words as Apache splits them (a double-quoted word is one), quotes kept."""
    import re
    return re.findall(r'"[^"]*"|\S+', text)


def _apache_groups(process, reader):
    """(the config file Apache was started with or None, (DaemonGroup, ...)): that file and
    those its Include and IncludeOptional lines name, read through `reader`."""
    argv = list(process.argv[1:])
    given, root = _option(argv, "-f", None), _option(argv, "-d", None)
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
        words = _words(line)
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


def _title_group(title, groups):
    """The group whose display-name is the process's title: mod_wsgi writes it over argv[0]
    (`(wsgi:NAME)` for %{GROUP}), cut to argv[0]'s length; None unless exactly one."""
    def shown(group):
        return "(wsgi:%s)" % group.name if group.display == "%{GROUP}" else group.display
    if not title:
        return None
    named = [g for g in groups if g.display and shown(g).startswith(title)]
    return named[0] if len(named) == 1 else None


# -- the Python an embedding host starts ----------------------------------------------

# The initialisation functions a binary may import, and the embedding kind each means
# (the engine's EMBEDDED).
_CALLS = (("Py_Initialize", "initialize"), ("Py_InitializeEx", "initialize"),
          ("PyConfig_InitPythonConfig", "python-config"),
          ("PyConfig_InitIsolatedConfig", "isolated-config"))
_HOSTS = {"uwsgi": "uWSGI", "mod_wsgi": "mod_wsgi"}
# Where Debian's uWSGI looks for `plugin = NAME` (NAME_plugin.so), newest layout first.
_UWSGI_PLUGIN_DIRS = ("/usr/lib/uwsgi/plugins", "/usr/lib/uwsgi")
# The files that load mod_wsgi: Debian's (a2enmod wsgi), RHEL's and Fedora's; then the
# module itself where those packages put it.
_APACHE_LOADS = ("/etc/apache2/mods-enabled/wsgi.load",
                 "/etc/httpd/conf.modules.d/10-wsgi-python3.conf",
                 "/etc/httpd/conf.modules.d/10-wsgi.conf")
_MOD_WSGI_FILES = ("/usr/lib/apache2/modules/mod_wsgi.so",
                   "/usr/lib64/httpd/modules/mod_wsgi_python3.so",
                   "/usr/lib64/httpd/modules/mod_wsgi.so")


class Embedding(Record):
    """What the nearest uWSGI or Apache ancestor embeds, as read_embedding() found it."""
    pid = field()               # the host's process
    kind = field()              # "uwsgi" or "mod_wsgi" (the server context's kind)
    binary = field()            # the plugin, module or program that starts Python, or None
    library = field()           # the libpython it links (a path, or the name it asks for)
    calls = field(())           # the names of _CALLS that binary imports
    stdio_errors = field(None)  # uWSGI: the error handler its plugin gives sys.stdout
    source = field("")          # where all this was read, in words
    stdin_tty = field(False)    # this process's stdin (the app's, inherited) is a terminal
    # What its config says of the app (detect() puts it in the server context's details):
    folder = field(None)        # uWSGI named its ini by a relative path: its working
                                # folder, which holds it (/proc/PID/cwd), or None
    apache_config = field(None) # mod_wsgi: the config file Apache was started with, if read
    groups = field(())          # mod_wsgi: its DaemonGroups (WSGIDaemonProcess lines)
    group = field(None)         # mod_wsgi: the DaemonGroup the process title names
    title = field(None)         # mod_wsgi: that title (argv[0] as mod_wsgi rewrote it)


def read_embedding(ancestors, reader):
    """The Embedding of the nearest uWSGI or Apache ancestor, or None (no such ancestor).
    Reads its /proc/PID/maps, else the files its command line and config name; nothing
    is run."""
    process = None
    for ancestor in ancestors:
        if _kind(ancestor) in _HOSTS:
            process = ancestor
            break
    if process is None:
        return None
    kind = _kind(process)
    found = _embedding(process, kind, reader)
    return found._replace(**_config_facts(process, kind, reader))


def _config_facts(process, kind, reader):
    """The Embedding fields of what the host's config says of the app."""
    if kind == "uwsgi":
        config = _config(kind, process.argv)
        if not config or config.startswith("/"):
            return {}
        import os
        try:
            folder = os.readlink(reader.path("/proc/%d/cwd" % process.pid))
        except (OSError, ValueError):
            folder = None
        if folder is None or not folder.startswith("/") or \
                not reader.exists(folder.rstrip("/") + "/" + config):
            folder = None
        return {"folder": folder}
    config, groups = _apache_groups(process, reader)
    title = process.argv[0].strip() if process.argv else None
    return {"apache_config": config, "groups": groups, "title": title,
            "group": _title_group(title, groups)}


def _embedding(process, kind, reader):
    maps = reader.text("/proc/%d/maps" % process.pid)
    library = None
    if maps:
        mapped = _mapped(maps)
        library = next((p for p in mapped if _basename(p).startswith("libpython")), None)
        # The plugin or module first, then the program itself (the first file mapped).
        candidates = [p for p in mapped if _starts_python(kind, p)] + mapped[:1]
        source = "/proc/%d/maps" % process.pid
    else:
        candidates = _configured(kind, process, reader)
        source = ("the files its command line and config name (/proc/%d/maps is not "
                  "readable here)" % process.pid)
    for path in candidates:
        data = reader.bytes(path)
        if not data:
            continue
        calls = tuple(name for name, _ in _CALLS if b"\0" + name.encode() + b"\0" in data)
        import re
        needed = re.search(br"libpython\d+\.\d+[a-z]*\.so[.\d]*", data)
        if calls or needed:
            errors = None
            if kind == "uwsgi":
                errors = "backslashreplace" if b"backslashreplace" in data else "strict"
            return Embedding(process.pid, kind, path,
                             library or (needed.group().decode("ascii") if needed else None),
                             calls, errors, source)
    return Embedding(process.pid, kind, None, library, (), None, source)


def _basename(path):
    return path.rpartition("/")[2]


def _mapped(maps):
    """The files of proc(5)'s /proc/PID/maps, each once, in the order they appear."""
    out = []
    for line in maps.splitlines():
        fields = line.split(None, 5)
        if len(fields) == 6 and fields[5].startswith("/"):
            path = fields[5].strip()
            if path.endswith(" (deleted)"):
                path = path[:-10]
            if path not in out:
                out.append(path)
    return out


def _starts_python(kind, path):
    name = _basename(path)
    if kind == "uwsgi":
        return name.startswith("python") and name.endswith("_plugin.so")
    return name.startswith("mod_wsgi")


def _configured(kind, process, reader):
    """The files that may start Python in `process`, from its command line and config."""
    config = _config(kind, process.argv)
    if kind == "uwsgi":
        options = _long_options(process.argv[1:])
        if config and not config.startswith("/"):
            config = _config_facts(process, kind, reader).get("folder")
            config = config and config.rstrip("/") + "/" + _config(kind, process.argv)
        if config and config.endswith(".ini"):
            options += _ini_options(reader.text(config) or "")
        names = [n.strip() for o, v in options if o in ("plugin", "plugins")
                 for n in (v or "").split(",") if n.strip()]
        folders = [v for o, v in options if o in ("plugin-dir", "plugins-dir") and v]
        files = []
        for name in names:
            if "/" in name:
                files.append(name)
            else:
                files += ["%s/%s_plugin.so" % (f.rstrip("/"), name)
                          for f in folders + list(_UWSGI_PLUGIN_DIRS)]
        program = process.argv[0] if process.argv else ""
        return files + ([program] if program.startswith("/") else [])
    files = []
    for path in ([config] if config else []) + list(_APACHE_LOADS):
        text = reader.text(path) or ""
        root = None
        for line in text.splitlines():
            words = line.split()
            if len(words) >= 2 and words[0].lower() == "serverroot":
                root = words[1].strip('"')
            if len(words) >= 3 and words[0].lower() == "loadmodule" \
                    and words[1] == "wsgi_module":
                module = words[2].strip('"')
                if not module.startswith("/") and root:
                    module = root.rstrip("/") + "/" + module
                if module.startswith("/"):
                    files.append(module)
    return files + list(_MOD_WSGI_FILES)


def _long_options(argv):
    """((name, value), ...) of uWSGI's `--name value` and `--name=value` words."""
    out = []
    for index, word in enumerate(argv):
        if word.startswith("--") and len(word) > 2:
            name, equals, value = word[2:].partition("=")
            if not equals:
                following = argv[index + 1] if index + 1 < len(argv) else None
                value = following if following and not following.startswith("-") else None
            out.append((name, value))
    return out


def _ini_options(text):
    """((name, value), ...) of an ini file's `name = value` lines (uWSGI reads its own
    [uwsgi] section; the others name no plugin)."""
    out, section = [], None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == "uwsgi" and "=" in line and not line.startswith((";", "#")):
            name, _, value = line.partition("=")
            out.append((name.strip(), value.strip()))
    return out


def embedded_kind(embedding):
    """The engine's embedding kind for the calls the binary imports, or None (none of
    them, or several kinds: which one runs is not known)."""
    kinds = set(kind for name, kind in _CALLS if name in embedding.calls)
    return kinds.pop() if len(kinds) == 1 else None


def embedded_version(embedding):
    """"3.11" from the libpython the binary links, or None."""
    import re
    found = re.search(r"libpython(\d+)\.(\d+)", _basename(embedding.library or ""))
    return "%s.%s" % found.groups() if found else None


def host_name(embedding):
    return _HOSTS[embedding.kind]


def call_name(kind):
    return {"initialize": "Py_Initialize()", "python-config": "PyConfig_InitPythonConfig()",
            "isolated-config": "PyConfig_InitIsolatedConfig()"}[kind]


def embedded_python(embedding, environ, facts, platform):
    """(pythons.Found, Decision or None, Inputs or None) of the app's Python: decide()
    for the kind and version read, with the host's own sys.stdout and sys.stderr."""
    kind, version = embedded_kind(embedding), embedded_version(embedding)
    host = host_name(embedding)
    path = embedding.library or embedding.binary or "(%s process %d)" % (host, embedding.pid)
    how = ("linked by %s%s, read from %s" % (
        embedding.binary, ", which imports %s" % " and ".join(embedding.calls)
        if embedding.calls else "", embedding.source) if embedding.binary
        else "read from %s" % embedding.source)
    error = None
    if embedding.binary is None:
        error = "no python plugin or module of %s was found to read" % host
    elif version is None:
        error = "%s links no libpython by name (a Python built into it)" % embedding.binary
    elif kind is None:
        error = ("%s imports %s: which one starts Python is not known" % (
            embedding.binary, " and ".join(embedding.calls) or "no initialisation function"))
    elif version not in VERSIONS or kind not in embedded_kinds(version):
        error = "Python %s embedded by %s: utf8env models CPython %s-%s" % (
            version, call_name(kind), VERSIONS[0], VERSIONS[-1])
    found = Found(path=path, sources=("%s process %d" % (host, embedding.pid),), commands=(),
                  version=version, how=how, error=error)
    if error is not None:
        return found, None, None
    inputs = Inputs(environ=environ, args=(), version=version, platform=platform,
                    locales=facts, argv0=embedding.binary, embedded=kind)
    return found, host_stdio(decide(inputs), embedding), inputs


def host_stdio(decision, embedding):
    """`decision` with the sys.stdout and sys.stderr the host puts in place after it
    started Python (see the module docstring), each with its reason."""
    if decision.startup_error is not None:
        return decision
    if embedding.kind == "mod_wsgi":
        stream = Stream("utf-8", "replace")
        reason = Reason("mod_wsgi", "mod_wsgi puts its own log objects in sys.stdout and "
                                    "sys.stderr: utf-8 with errors=replace, into Apache's "
                                    "error log (wsgi_logger.c)")
    elif embedding.kind == "uwsgi" and not embedding.stdin_tty:
        errors = embedding.stdio_errors or "strict"
        stream = Stream(decision.open.encoding, errors)
        reason = Reason("uWSGI", "uWSGI's python plugin puts PyFile_FromFd(2, ...) in "
                                 "sys.stdout and sys.stderr when its stdin is not a terminal: "
                                 "its log, with open()'s encoding and errors=%s (%s)" % (
                                     errors, "uWSGI 2.0.22+" if errors == "backslashreplace"
                                     else "uWSGI up to 2.0.21"))
    else:
        return decision
    reasons = dict(decision.reasons, stdout=reason, stderr=reason)
    return decision._replace(stdout=stream, stderr=stream, reasons=reasons)
