"""The servers that start an app's Python themselves (pure: from a place.Place): the server
context that detect() finds, and the lines of their own configuration that give the
app's Python a UTF-8 locale (fixes()). What a server's process name and command line
say is _server_command.py's; Apache's config, its WSGIDaemonProcess lines, _apache.py's;
what the Python that uWSGI or mod_wsgi embeds gets, _embedding.py's.

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
"""
import shlex

from ._records import Context, Fix
from . import _apache as apache, _server_command as server_command

_UWSGI_VARIABLES = ("UWSGI_RELOADS", "UWSGI_ORIGINAL_PROC_NAME")
_SUPERVISOR_VARIABLES = ("SUPERVISOR_ENABLED", "SUPERVISOR_PROCESS_NAME",
                         "SUPERVISOR_GROUP_NAME")


def detect(place):
    """The server nearest above this process (its ancestors, then its variables), or None."""
    env = place.environ
    found, process = None, None
    for ancestor in place.ancestors:
        kind = server_command.kind(ancestor)
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
    details = {"kind": found, "config": server_command.config(found, argv)}
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
        words = [w for w in apache.directive_words(group.text)
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

