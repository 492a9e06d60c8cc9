"""The servers that start an app's Python themselves (pure: from a place.Place), and the
lines of their own configuration that give it a UTF-8 locale.

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
  setlocale()) in the daemon process before Python starts (ascii -> utf-8). It sets no
  variable that names it in os.environ: an apache2 or httpd ancestor, in a process that
  is no CGI script (no GATEWAY_INTERFACE), is its evidence.
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

from ._contexts import Context

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
    from ._fixes import Fix
    if not changes or not _locale_only(changes):
        return []
    kind = context.details.get("kind")
    config = context.details.get("config")
    if kind == "uwsgi":
        if config:
            lines = tuple("env = %s=%s" % (n, v) if v is not None else "unenv = %s" % n
                          for n, v in changes)
            return [[Fix("the [uwsgi] section of %s (uWSGI applies env before it starts "
                         "Python; then restart uWSGI)" % config, lines, "server")]]
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
        value = values.pop()
        where = ("Apache's config%s, after the app's WSGIScriptAlias (mod_wsgi daemon mode: "
                 "lang= and locale= are set before Python starts; then restart Apache)"
                 % (" (%s)" % config if config else ""))
        return [[Fix(where, ("WSGIDaemonProcess utf8env lang=%s locale=%s" % (value, value),
                             "WSGIProcessGroup utf8env"), "server")]]
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
