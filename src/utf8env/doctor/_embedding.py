"""What the Python that uWSGI or mod_wsgi embeds gets, for the app of the server context
that _servers.py detects (its docstring says why only the locale the server gives its
process counts).

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
from .._engine.records import Record, field
from ._pythons import Found
from .._engine.policy import Inputs, Reason, Stream, decide
from .._engine.profiles import VERSIONS, embedded_kinds
from . import _apache as apache, _server_command as server_command

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
        if server_command.kind(ancestor) in _HOSTS:
            process = ancestor
            break
    if process is None:
        return None
    kind = server_command.kind(process)
    found = _embedding(process, kind, reader)
    return found._replace(**_config_facts(process, kind, reader))


def _config_facts(process, kind, reader):
    """The Embedding fields of what the host's config says of the app."""
    if kind == "uwsgi":
        config = server_command.config(kind, process.argv)
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
    config, groups = apache.apache_groups(process, reader)
    title = process.argv[0].strip() if process.argv else None
    return {"apache_config": config, "groups": groups, "title": title,
            "group": apache.title_group(title, groups)}


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
    config = server_command.config(kind, process.argv)
    if kind == "uwsgi":
        options = _long_options(process.argv[1:])
        if config and not config.startswith("/"):
            config = _config_facts(process, kind, reader).get("folder")
            config = config and config.rstrip("/") + "/" + server_command.config(kind,
                                                                                 process.argv)
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
