"""doctor inside the servers that start an app's Python themselves (uWSGI, mod_wsgi) or
start programs with a config's environment (supervisor), and each fix it prints there
applied, as printed, to that server's config, with the server restarted and the app
then seeing UTF-8 and doctor finding nothing.

Each server is started for real from no locale variable at all (env -i PATH=...; a
case may add LC_ALL=C): the WSGI app runs `utf8env doctor --json --no-pythons` as a
subprocess with its own os.environ and returns that JSON with what its own Python gets
(its version, UTF-8 mode, LC_CTYPE, the file system encoding, sys.stdout and sys.stderr,
open()'s default, locale.getpreferredencoding(False), and whether print("\\u00e9")
raises); doctor's prediction for the app's Python (the "embedded" one of its pythons,
issue 21) must be all of that, before the fix and after it. supervisor's program runs
doctor and Python 3.6's print("\\u00e9"). src/utf8env/doctor/_servers.py and _embedding.py
say what was measured."""
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

from support import machine
from utf8env._own_command import own_command

PATH = "/usr/bin:/bin"
E_ACUTE = b"\xc3\xa9\n"

APP = r'''import json, locale, os, subprocess, sys
DOCTOR = %s
def pair(stream):
    return [getattr(stream, "encoding", None), getattr(stream, "errors", None)]
def application(environ, start_response):
    doctor = subprocess.run(DOCTOR, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(os.environ))
    try:
        print("\u00e9")
        sys.stdout.flush()
        printed = "ok"
    except UnicodeEncodeError:
        printed = "fails"
    with open(os.devnull) as null:
        opened = pair(null)
    body = json.dumps({"fs": sys.getfilesystemencoding(),
                       "fs_errors": sys.getfilesystemencodeerrors(),
                       "stdout": getattr(sys.stdout, "encoding", None),
                       "stdout_pair": pair(sys.stdout), "stderr_pair": pair(sys.stderr),
                       "open": opened, "print": printed,
                       "version": "%%d.%%d" %% sys.version_info[:2],
                       "group": environ.get("mod_wsgi.process_group"),
                       "utf8_mode": sys.flags.utf8_mode,
                       "lc_ctype": locale.setlocale(locale.LC_CTYPE),
                       "preferred": locale.getpreferredencoding(False),
                       "doctor": doctor.stdout.decode("utf-8", "replace"),
                       "doctor_stderr": doctor.stderr.decode("utf-8", "replace")})
    start_response("200 OK", [("Content-Type", "application/json")])
    return [body.encode("ascii")]
'''


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _doctor(python):
    return own_command(python) + ["doctor", "--json", "--no-pythons"]


def _folder():
    """A folder every user can read (Apache's daemon user too): in /tmp itself, not in
    pytest's tmp (/tmp/pytest-of-root is 0700) nor in a TMPDIR that may be private."""
    folder = tempfile.mkdtemp(prefix="utf8env-servers-", dir="/tmp")
    os.chmod(folder, 0o755)
    return folder


def _readable_copy(folder):
    """This checkout's utf8env package copied into `folder`/lib, every folder 0755 and
    file 0644: the folder own_command() starts it from, for a user who cannot read the
    checkout (a clone in a private `mktemp -d`, a HOME of mode 0700)."""
    source = os.path.join(own_command()[-1], "utf8env")
    lib = os.path.join(folder, "lib")
    os.mkdir(lib)
    os.chmod(lib, 0o755)
    shutil.copytree(source, os.path.join(lib, "utf8env"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    for top, folders, files in os.walk(lib):
        for name in folders:
            os.chmod(os.path.join(top, name), 0o755)
        for name in files:
            os.chmod(os.path.join(top, name), 0o644)
    return lib


def _write(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o644)


def _serve(argv, port, env, log, timeout=30, stop=signal.SIGTERM, cwd=None):
    """The app's answer (a dict) from the server `argv` started with exactly `env` (in
    the folder `cwd`), and the server stopped (by `stop`: uWSGI reloads on SIGTERM, stops
    on SIGINT)."""
    with open(log, "ab") as out:
        server = subprocess.Popen(argv, env=env, stdout=out, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, start_new_session=True, cwd=cwd)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/" % port, timeout=20) as r:
                    answer = json.loads(r.read().decode("ascii"))
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    with open(log, "rb") as f:
                        raise AssertionError("no answer from %s:\n%s" % (
                            argv, f.read()[-3000:].decode("utf-8", "replace")))
                time.sleep(0.1)
    finally:
        if server.poll() is None:
            server.send_signal(stop)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, 9)
                server.wait()
    answer["doctor"] = json.loads(answer["doctor"]) if answer["doctor"].strip() else \
        AssertionError(answer["doctor_stderr"])
    return answer


def _only_finding(report, code):
    assert [f["code"] for f in report["findings"]] == [code], report["findings"]
    return report["findings"][0]


def _findings(report, *codes):
    """The findings of `report`, which must be those of `codes`, in that order."""
    assert [f["code"] for f in report["findings"]] == list(codes), report["findings"]
    return report["findings"]


def _codec(name):
    import codecs
    return codecs.lookup(name).name if name else name


def _embedded(answer, host, binary):
    """doctor's prediction for the app's Python, checked against what the app reported
    (codec names normalised: uWSGI's stdout says ANSI_X3.4-1968 where the engine's
    Py_Initialize() stdio says ascii, one codec). Returns doctor's entry for it."""
    report = answer["doctor"]
    [python] = [p for p in report["pythons"] if p["embedded"]]
    assert python["embedded"]["host"] == host and python["embedded"]["kind"] == "initialize", \
        python
    assert python["embedded"]["binary"] == binary or (
        binary is None and python["embedded"]["binary"].endswith("_plugin.so")), python
    assert python["version"] == answer["version"], (python, answer)
    got = python["prediction"]

    def pair(stream):
        return [_codec(stream["encoding"]), stream["errors"]]
    predicted = {"utf8_mode": got["utf8_mode"], "lc_ctype": got["lc_ctype"],
                 "fs": pair(got["filesystem"]), "stdout": pair(got["stdout"]),
                 "stderr": pair(got["stderr"]), "open": pair(got["open"]),
                 "preferred": _codec(got["preferred_encoding"]), "print": got["print"]}
    seen = {"utf8_mode": answer["utf8_mode"], "lc_ctype": answer["lc_ctype"],
            "fs": [_codec(answer["fs"]), answer["fs_errors"]],
            "stdout": [_codec(answer["stdout_pair"][0]), answer["stdout_pair"][1]],
            "stderr": [_codec(answer["stderr_pair"][0]), answer["stderr_pair"][1]],
            "open": [_codec(answer["open"][0]), answer["open"][1]],
            "preferred": _codec(answer["preferred"]), "print": answer["print"]}
    assert predicted == seen
    return python


def _fixes(finding):
    return [{k: fix[k] for k in ("option", "where", "context", "lines")}
            for fix in finding["fixes"]]


def _assert_gone(answer):
    assert (answer["fs"], answer["preferred"].upper().replace("-", "")) == ("utf-8", "UTF8"), \
        answer
    assert answer["doctor"]["verdict"] == "ok", answer["doctor"]["findings"]
    assert answer["doctor"]["findings"] == []


# --- uWSGI ---------------------------------------------------------------------------

def _uwsgi():
    uwsgi = machine.command("uwsgi", "uwsgi-core uwsgi-plugin-python3", "uWSGI")
    if not any(os.path.exists(os.path.join(d, "python3_plugin.so"))
               for d in ("/usr/lib/uwsgi/plugins", "/usr/lib/uwsgi")):
        pytest.skip("no uWSGI python3 plugin: apt-get install uwsgi-plugin-python3 (%s does)"
                    % machine.SETUP)
    return uwsgi


@pytest.mark.parametrize("case", ["ini", "relative-ini", "command-line"])
def test_uwsgi(case):
    """uWSGI's own Python from no locale (ini: `--ini FILE`, the fix an `env =` line of
    it; relative-ini: `--ini app.ini` in its folder, which the fix names by its absolute
    path, read from uWSGI's /proc/PID/cwd) and from LC_ALL=C over LANG=C.UTF-8 (every
    option on its command line, the fix `--unenv LC_ALL` added to it)."""
    machine.root("uWSGI on a loopback port")
    uwsgi = _uwsgi()
    folder = _folder()
    try:
        port = _free_port()
        app = os.path.join(folder, "app.py")
        _write(app, APP % json.dumps(_doctor(sys.executable)))
        options = ["--plugin", "python3", "--http-socket", "127.0.0.1:%d" % port,
                   "--wsgi-file", app, "--master", "--processes", "1"]
        env = {"PATH": PATH}
        ini = os.path.join(folder, "app.ini")
        if case in ("ini", "relative-ini"):
            _write(ini, "[uwsgi]\n" + "".join("%s = %s\n" % (options[i][2:], options[i + 1])
                                              for i in range(0, 6, 2))
                   + "master = true\nprocesses = 1\n")
            argv = [uwsgi, "--ini", ini if case == "ini" else "app.ini"]
        else:
            env.update(LC_ALL="C", LANG="C.UTF-8")
            argv = [uwsgi] + options
        log = os.path.join(folder, "uwsgi.log")
        before = _serve(argv, port, env, log, stop=signal.SIGINT, cwd=folder)
        assert (before["fs"], before["stdout"], before["preferred"]) == (
            "ascii", "ANSI_X3.4-1968", "ANSI_X3.4-1968"), before
        report = before["doctor"]
        server = report["contexts"][0]
        assert (server["name"], server["summary"]) == ("server", "uWSGI"), report["contexts"]
        assert server["evidence"][0].startswith("process "), server
        assert "UWSGI_RELOADS=0" in server["evidence"], server
        # The app's Python: Py_Initialize() of Debian's libpython3.11 (read from the
        # worker's memory map), ASCII everywhere, stdout uWSGI's own (strict): all of it
        # what the app reports, and the locale finding's fix said to remove it.
        python = _embedded(before, "uWSGI", None)
        assert "/maps" in python["identified"], python
        assert (python["prediction"]["print"], python["prediction"]["open_write"]) == (
            "fails", "fails")
        locale_code = "lc-all-overrides" if case == "command-line" else "c-locale"
        embedded, finding = _findings(report, "embedded-python", locale_code)
        assert embedded["fixes"] == [] and embedded["evidence"][-1].startswith(
            "the locale finding's fix makes it go away"), embedded
        assert any(line.startswith("PYTHONUTF8=1 changes nothing here")
                   for line in embedded["evidence"]), embedded
        if case != "command-line":
            assert _fixes(finding) == [{
                "option": 1, "context": "server", "lines": ["env = LANG=C.UTF-8"],
                "where": "the [uwsgi] section of %s (uWSGI applies env before it starts "
                         "Python; then restart uWSGI)" % ini}]
            with open(ini, "a") as f:
                f.write("".join(line + "\n" for line in finding["fixes"][0]["lines"]))
        else:
            assert _fixes(finding) == [{
                "option": 1, "context": "server", "lines": ["--unenv LC_ALL"],
                "where": "uWSGI's command line, with its other options (applied before it "
                         "starts Python; then restart uWSGI)"}]
            argv += shlex.split(finding["fixes"][0]["lines"][0])
        after = _serve(argv, port, env, log, stop=signal.SIGINT, cwd=folder)
        _assert_gone(after)
        assert _embedded(after, "uWSGI", None)["prediction"]["print"] == "ok"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# --- Apache mod_wsgi -----------------------------------------------------------------

MOD_WSGI = "/usr/lib/apache2/modules/mod_wsgi.so"
APACHE_CONF = """ServerRoot {folder}
PidFile {folder}/httpd.pid
ErrorLog {folder}/error.log
Listen 127.0.0.1:{port}
ServerName localhost
LoadModule mpm_prefork_module /usr/lib/apache2/modules/mod_mpm_prefork.so
LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so
LoadModule wsgi_module {mod_wsgi}
User daemon
Group daemon
WSGISocketPrefix {folder}/wsgi
{app}
<Directory {folder}>
Require all granted
</Directory>
"""
EMBEDDED_APP = "WSGIScriptAlias / {folder}/app.py"
# The app in a daemon process group of its own, in its VirtualHost (line 12 on), beside
# another group (whose line comes first).
DAEMON_APP = """<VirtualHost 127.0.0.1:{port}>
WSGIDaemonProcess other processes=1 threads=1
WSGIDaemonProcess myapp {display}processes=1 threads=2
WSGIProcessGroup myapp
WSGIScriptAlias / {folder}/app.py
</VirtualHost>"""
MYAPP_LINE = 14


def _as_daemon():
    import pwd
    entry = pwd.getpwnam("daemon")

    def demote():
        os.setgid(entry.pw_gid)
        os.setuid(entry.pw_uid)
    return demote


@pytest.mark.parametrize("mode", ["embedded", "daemon", "daemon-untitled"])
def test_mod_wsgi(mode):
    """Apache's mod_wsgi app from no locale: in embedded mode, and in a daemon process group
    of its own inside its VirtualHost, with display-name=%{GROUP} (the process title names
    the group: the fix is that WSGIDaemonProcess line with lang= and locale=, its file and
    line named; applied, the app's encoding is fixed and the app still in its group) and
    without (the group is not known: the options, and the groups there; added to the app's
    line, the same). Never a new group: appended after the VirtualHost it changes nothing,
    inside it it moves the app out of its own."""
    machine.root("Apache on a loopback port")
    apache = machine.command("apache2", "apache2", "Apache")
    if not os.path.exists(MOD_WSGI):
        pytest.skip("no mod_wsgi: apt-get install libapache2-mod-wsgi-py3 (%s does)"
                    % machine.SETUP)
    python = "/usr/bin/python3"
    folder = _folder()
    try:
        # Apache's user runs doctor: with Debian's python3 (root's pyenv is root's only),
        # from a copy of this checkout's utf8env it can read wherever the checkout is.
        doctor = own_command(python)[:-1] + [_readable_copy(folder), "doctor", "--json",
                                             "--no-pythons"]
        check = subprocess.run(doctor[:-2] + ["--help"], env={"PATH": PATH},
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               preexec_fn=_as_daemon())
        assert check.returncode == 0, check.stdout.decode("utf-8", "replace")[-2000:]
        port = _free_port()
        _write(os.path.join(folder, "app.py"), APP % json.dumps(doctor))
        conf = os.path.join(folder, "httpd.conf")
        app = (EMBEDDED_APP if mode == "embedded" else DAEMON_APP).format(
            folder=folder, port=port,
            display="display-name=%{GROUP} " if mode == "daemon" else "")
        _write(conf, APACHE_CONF.format(folder=folder, port=port, mod_wsgi=MOD_WSGI, app=app))
        with open(conf) as f:
            lines = f.read().splitlines()
        argv = [apache, "-f", conf, "-DFOREGROUND"]
        log = os.path.join(folder, "apache.log")
        before = _serve(argv, port, {"PATH": PATH}, log)
        assert (before["fs"], before["preferred"]) == ("ascii", "ANSI_X3.4-1968"), before
        assert before["group"] == ("" if mode == "embedded" else "myapp"), before
        report = before["doctor"]
        server = report["contexts"][0]
        assert (server["name"], server["summary"]) == ("server", "Apache mod_wsgi"), \
            report["contexts"]
        # The app's Python: Py_Initialize() of libpython3.11, read from the LoadModule line
        # (Apache's user cannot read its process's memory map); sys.stdout is mod_wsgi's
        # log (utf-8/replace: print() works), open() ASCII.
        python = _embedded(before, "mod_wsgi", MOD_WSGI)
        assert "maps is not readable" in python["identified"], python
        assert (python["prediction"]["print"], python["prediction"]["open_write"]) == (
            "ok", "fails")
        embedded, finding = _findings(report, "embedded-python", "c-locale")
        assert embedded["title"].endswith(
            ': open(path, "w").write("\u00e9") raises UnicodeEncodeError'), embedded
        generic = ("the WSGIDaemonProcess line of the app's own process group (the group its "
                   "WSGIProcessGroup names) in Apache's config (%s and the files it "
                   "includes): add these options to it (mod_wsgi sets lang= and locale= in "
                   "the group's processes before Python starts; then restart Apache). Which "
                   "group is the app's was not found: " % conf)
        if mode == "embedded":
            assert _fixes(finding) == [{
                "option": 1, "context": "server", "lines": ["lang=C.UTF-8 locale=C.UTF-8"],
                "where": generic + "no WSGIDaemonProcess line was found there: in embedded "
                                   "mode the app's Python has Apache's own environment"}]
            return
        if mode == "daemon":
            assert server["evidence"][-1] == (
                "process %d's title (wsgi:myapp): WSGIDaemonProcess myapp's display-name (%s, "
                "line %d)" % (python["embedded"]["process"], conf, MYAPP_LINE)), server
            edited = ("WSGIDaemonProcess myapp display-name=%{GROUP} processes=1 threads=2 "
                      "lang=C.UTF-8 locale=C.UTF-8")
            assert _fixes(finding) == [{
                "option": 1, "context": "server", "lines": [edited],
                "where": "the app's daemon process group, its WSGIDaemonProcess line (%s, "
                         "line %d), changed to this one (mod_wsgi sets lang= and locale= in "
                         "the group's processes before Python starts; then restart Apache)"
                         % (conf, MYAPP_LINE)}]
            # Applied as printed: that line replaced by the one printed.
            lines[MYAPP_LINE - 1] = finding["fixes"][0]["lines"][0]
        else:
            assert _fixes(finding) == [{
                "option": 1, "context": "server", "lines": ["lang=C.UTF-8 locale=C.UTF-8"],
                "where": generic + "this process's title names none of the groups there "
                                   "(other in {0}, line {1}, myapp in {0}, line {2}); "
                                   "display-name=%{{GROUP}} on the app's line makes it name "
                                   "its group".format(conf, MYAPP_LINE - 1, MYAPP_LINE)}]
            # Applied as printed: the options added to the app's group's line.
            lines[MYAPP_LINE - 1] += " " + finding["fixes"][0]["lines"][0]
        _write(conf, "\n".join(lines) + "\n")
        after = _serve(argv, port, {"PATH": PATH}, log)
        _assert_gone(after)
        assert after["group"] == "myapp", after
        _embedded(after, "mod_wsgi", MOD_WSGI)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# --- supervisor ----------------------------------------------------------------------

SUPERVISOR_CONF = """[supervisord]
nodaemon=true
logfile={folder}/supervisord.log
pidfile={folder}/supervisord.pid
childlogdir={folder}

[program:app]
command=/bin/sh {folder}/program.sh
autorestart=false
startsecs=0
stdout_logfile={folder}/program.log
redirect_stderr=true
"""
PROGRAM = """{doctor} > {folder}/doctor.json
{py36} -c 'print("\\u00e9")' > {folder}/py36.out 2>&1
echo $? > {folder}/done
"""


def _supervisord():
    beside = os.path.join(os.path.dirname(sys.executable), "supervisord")
    if os.access(beside, os.X_OK):
        return beside
    found = shutil.which("supervisord")
    if found is None:
        pytest.skip("supervisord not installed: pip install -c tests/constraints.txt "
                    "supervisor (%s does)" % machine.SETUP)
    return found


def _supervise(supervisord, conf, folder, env, timeout=30):
    """(doctor's report, Python 3.6's output) of one run of the program."""
    done = os.path.join(folder, "done")
    if os.path.exists(done):
        os.unlink(done)
    server = subprocess.Popen([supervisord, "-c", conf], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + timeout
        while not os.path.exists(done):
            assert server.poll() is None and time.monotonic() < deadline, \
                open(os.path.join(folder, "supervisord.log")).read()[-2000:]
            time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=15)
    with open(os.path.join(folder, "doctor.json")) as f:
        report = json.load(f)
    with open(os.path.join(folder, "py36.out"), "rb") as f:
        return report, f.read()


def test_supervisor():
    """A supervisor program (doctor, then Python 3.6's print("é")) under a supervisord
    started with LC_ALL=C and nothing else: the fix, its [program:app]'s environment=."""
    supervisord = _supervisord()
    py36 = machine.python("3.6")
    folder = _folder()
    try:
        conf = os.path.join(folder, "supervisord.conf")
        _write(conf, SUPERVISOR_CONF.format(folder=folder))
        doctor = " ".join(shlex.quote(w) for w in _doctor(sys.executable))
        _write(os.path.join(folder, "program.sh"),
               PROGRAM.format(doctor=doctor, folder=folder, py36=shlex.quote(py36)))
        env = {"PATH": PATH, "LC_ALL": "C"}
        report, printed = _supervise(supervisord, conf, folder, env)
        assert b"UnicodeEncodeError" in printed, printed
        server = report["contexts"][0]
        assert (server["name"], server["summary"]) == ("server", "supervisor program app"), \
            report["contexts"]
        assert "SUPERVISOR_PROCESS_NAME=app" in server["evidence"], server
        finding = _only_finding(report, "c-locale")
        assert _fixes(finding) == [{
            "option": 1, "context": "server", "lines": ['environment=LC_ALL="",LANG="C.UTF-8"'],
            "where": "the [program:app] section of %s (its one environment= line: join these "
                     "to one already there; then supervisorctl update)" % conf}]
        with open(conf, "a") as f:          # [program:app] is the file's last section
            f.write("".join(line + "\n" for line in finding["fixes"][0]["lines"]))
        report, printed = _supervise(supervisord, conf, folder, env)
        assert printed == E_ACUTE
        assert report["verdict"] == "ok" and report["findings"] == [], report["findings"]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# --- what detect() takes for evidence (pure) -----------------------------------------

def _place(environ, *ancestors):
    from utf8env.doctor._place import Place, Process
    return Place(environ=environ, files={}, markers=(), proc=True, ttys=(False, False, False),
                 sshd_configs=(), facts=None, pythons=(),
                 ancestors=tuple(Process(pid, name, tuple(argv))
                                 for pid, (name, argv) in enumerate(ancestors, 100)))


@pytest.mark.fast
def test_detect():
    from utf8env.doctor._contexts import detect, primary
    from utf8env.doctor._servers import detect as server
    uwsgi = ("uwsgi", ["/usr/bin/uwsgi", "--ini", "/usr/share/uwsgi/conf/default.ini",
                       "--ini", "/etc/uwsgi/apps-enabled/app.ini"])
    found = server(_place({"UWSGI_RELOADS": "0"}, uwsgi, ("supervisord", ["x"])))
    assert (found.details, found.summary) == (
        {"kind": "uwsgi", "config": "/etc/uwsgi/apps-enabled/app.ini"}, "uWSGI")
    assert found.evidence == ("process 100 (%s) is an ancestor" % " ".join(uwsgi[1]),
                              "UWSGI_RELOADS=0")
    assert server(_place({}, ("uwsgi", ["uwsgi", "app.ini"]))).details["config"] == "app.ini"
    # supervisor by its variables alone (no /proc); its -c FILE from its command line
    found = server(_place({"SUPERVISOR_ENABLED": "1", "SUPERVISOR_PROCESS_NAME": "web",
                           "SUPERVISOR_GROUP_NAME": "web"}))
    assert (found.summary, found.details["config"]) == ("supervisor program web", None)
    found = server(_place({}, ("supervisord", ["/usr/bin/python3", "/usr/bin/supervisord",
                                               "-c", "/etc/s.conf"])))
    assert found.details["config"] == "/etc/s.conf"
    found = server(_place({}, ("apache2", ["/usr/sbin/apache2", "-f", "/etc/a.conf"])))
    assert found.details == {"kind": "mod_wsgi", "config": "/etc/a.conf"}
    # Not an app of a server whose config the fix could go to: a CGI script of Apache's,
    # gunicorn (an ordinary python3: what starts it is the place to fix), nothing at all.
    assert server(_place({"GATEWAY_INTERFACE": "CGI/1.1"}, ("apache2", ["apache2"]))) is None
    assert server(_place({"SERVER_SOFTWARE": "gunicorn/20.1.0"},
                         ("gunicorn", ["/v/bin/python", "/v/bin/gunicorn", "app:app"]))) is None
    assert server(_place({}, ("bash", ["bash"]))) is None
    # The server's own config comes before the systemd unit that starts it.
    contexts = detect(_place({"INVOCATION_ID": "x", "UWSGI_RELOADS": "0"}, uwsgi))
    assert [c.name for c in contexts][:2] == ["server", "systemd"]
    assert primary(contexts).name == "server"


@pytest.mark.fast
def test_fixes_only_what_was_applied():
    """Only locale variables are written (PYTHONUTF8 does nothing to an embedded Python);
    mod_wsgi's one line needs one value."""
    from utf8env.doctor._records import Context
    from utf8env.doctor._apache import DaemonGroup
    from utf8env.doctor._servers import fixes

    def lines(kind, changes, **details):
        details.update(kind=kind)
        details.setdefault("config", None)
        return [[fix.lines for fix in option]
                for option in fixes(Context("server", "", (), details), changes)]
    assert lines("uwsgi", (("PYTHONUTF8", "1"),), config="a.ini") == []
    assert lines("uwsgi", (("LC_ALL", None), ("LANG", "C.UTF-8")), config="a.ini") == [
        [("unenv = LC_ALL", "env = LANG=C.UTF-8")]]
    assert lines("uwsgi", (("LANG", "C.UTF-8"),)) == [[("--env LANG=C.UTF-8",)]]
    assert lines("mod_wsgi", (("LC_ALL", None),)) == []
    # mod_wsgi: the app's own group's line where it is known; never a new group.
    group = DaemonGroup("web", "/etc/apache2/sites-enabled/web.conf", 3,
                        'WSGIDaemonProcess web "display-name=%{GROUP}" lang=C locale=C',
                        "%{GROUP}")
    assert lines("mod_wsgi", (("LC_ALL", None), ("LANG", "en_US.UTF-8")), group=group,
                 groups=(group,)) == [[(
                     'WSGIDaemonProcess web "display-name=%{GROUP}" lang=en_US.UTF-8 '
                     'locale=en_US.UTF-8',)]]
    assert lines("mod_wsgi", (("LANG", "C.UTF-8"),)) == [[("lang=C.UTF-8 locale=C.UTF-8",)]]
    assert lines("supervisor", (("LANG", "C.UTF-8"),), program="a", group="a") == [
        [('environment=LANG="C.UTF-8"',)]]


def _context(kind, argv, embedding):
    from utf8env.doctor._servers import detect
    place = _place({}, (kind, argv))._replace(embedding=embedding)
    return detect(place)


def _where(context):
    from utf8env.doctor._servers import fixes
    [[fix]] = fixes(context, (("LANG", "C.UTF-8"),))
    return fix.where, fix.lines


@pytest.mark.fast
def test_uwsgi_ini_by_a_relative_path(tmp_path):
    """`uwsgi --ini app.ini`: the file in uWSGI's working folder (its /proc/PID/cwd), by
    its absolute path; where that folder cannot be read (or holds no such file), said."""
    from utf8env.doctor._place import Process, Reader
    from utf8env.doctor._embedding import read_embedding
    (tmp_path / "srv" / "app").mkdir(parents=True)
    (tmp_path / "srv" / "app" / "app.ini").write_text("[uwsgi]\n")
    (tmp_path / "proc" / "100").mkdir(parents=True)
    os.symlink("/srv/app", str(tmp_path / "proc" / "100" / "cwd"))
    argv = ("uwsgi", "--ini", "app.ini")
    embedding = read_embedding((Process(100, "uwsgi", argv),), Reader(str(tmp_path)))
    assert embedding.folder == "/srv/app"
    tail = " (uWSGI applies env before it starts Python; then restart uWSGI)"
    assert _where(_context("uwsgi", argv, embedding)) == (
        "the [uwsgi] section of /srv/app/app.ini" + tail, ("env = LANG=C.UTF-8",))
    unknown = "the [uwsgi] section of app.ini, relative to the folder uWSGI was started " \
              "in (its working folder, /proc/100/cwd, could not be read or no longer holds " \
              "it)" + tail
    (tmp_path / "srv" / "app" / "app.ini").unlink()         # chdir= took it elsewhere
    embedding = read_embedding((Process(100, "uwsgi", argv),), Reader(str(tmp_path)))
    assert embedding.folder is None
    assert _where(_context("uwsgi", argv, embedding))[0] == unknown
    embedding = read_embedding((Process(100, "uwsgi", argv),), Reader("/nonexistent"))
    assert _where(_context("uwsgi", argv, embedding))[0] == unknown
    # No process read at all (no /proc): where the folder is, is not known.
    assert _where(_context("uwsgi", argv, None))[0] == (
        "the [uwsgi] section of app.ini, relative to the folder uWSGI was started in (not "
        "known here)" + tail)


DEBIAN_APACHE = {
    "/etc/apache2/apache2.conf": "# Debian's\nIncludeOptional mods-enabled/*.load\n"
                                 "IncludeOptional sites-enabled/*.conf\n",
    "/etc/apache2/mods-enabled/wsgi.load": "LoadModule wsgi_module "
                                           "/usr/lib/apache2/modules/mod_wsgi.so\n",
    "/etc/apache2/sites-enabled/000-default.conf": "<VirtualHost *:80>\n</VirtualHost>\n",
    "/etc/apache2/sites-enabled/shop.conf": "<VirtualHost *:80>\n"
                                            "  WSGIDaemonProcess shop user=shop \\\n"
                                            "      display-name=%{GROUP} threads=5\n"
                                            "  WSGIProcessGroup shop\n</VirtualHost>\n",
    "/etc/apache2/sites-enabled/web.conf": "# WSGIDaemonProcess commented\n"
                                           "WSGIDaemonProcess web display-name=web-app\n",
    "/etc/apache2/sites-available/off.conf": "WSGIDaemonProcess off\n",
}


@pytest.mark.fast
def test_mod_wsgi_group_from_the_title_and_config(tmp_path):
    """Debian's layout (IncludeOptional globs, a continued line): the group the process
    title names, by display-name=%{GROUP} (cut to argv[0]'s length too) or its own
    display-name; the title naming none, or several, is no group."""
    from utf8env.doctor._place import Process, Reader
    from utf8env.doctor._embedding import read_embedding
    for path, text in DEBIAN_APACHE.items():
        target = tmp_path / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    reader = Reader(str(tmp_path))

    def group(title):
        argv = (title, "-k", "start")
        embedding = read_embedding((Process(100, "apache2", argv),), reader)
        assert embedding.apache_config == "/etc/apache2/apache2.conf"
        assert [(g.name, g.path, g.number) for g in embedding.groups] == [
            ("shop", "/etc/apache2/sites-enabled/shop.conf", 2),
            ("web", "/etc/apache2/sites-enabled/web.conf", 2)]
        context = _context("apache2", argv, embedding)
        return embedding.group, context
    found, context = group("(wsgi:shop)      ")
    assert (found.name, found.display) == ("shop", "%{GROUP}")
    assert context.evidence[-1] == ("process 100's title (wsgi:shop): WSGIDaemonProcess "
                                    "shop's display-name (/etc/apache2/sites-enabled/"
                                    "shop.conf, line 2)")
    assert _where(context) == (
        "the app's daemon process group, its WSGIDaemonProcess line (/etc/apache2/sites-"
        "enabled/shop.conf, line 2), changed to this one (mod_wsgi sets lang= and locale= in "
        "the group's processes before Python starts; then restart Apache)",
        ("WSGIDaemonProcess shop user=shop display-name=%{GROUP} threads=5 lang=C.UTF-8 "
         "locale=C.UTF-8",))
    assert group("(wsgi:sh")[0].name == "shop"          # argv[0] shorter than the title
    assert group("web-app")[0].name == "web"
    assert group("(wsgi:")[0].name == "shop"            # the one %{GROUP} group
    from utf8env.doctor._apache import DaemonGroup, title_group
    two = (DaemonGroup("a", "f", 1, "", "%{GROUP}"), DaemonGroup("b", "f", 2, "", "%{GROUP}"))
    assert title_group("(wsgi:", two) is None          # several: which is not known
    assert title_group("(wsgi:b)", two) == two[1]
    found, context = group("/usr/sbin/apache2")
    assert found is None
    assert _where(context)[0].endswith(
        "Which group is the app's was not found: this process's title names none of the "
        "groups there (shop in /etc/apache2/sites-enabled/shop.conf, line 2, web in "
        "/etc/apache2/sites-enabled/web.conf, line 2); display-name=%{GROUP} on the app's "
        "line makes it name its group")
    # No config to read at all.
    context = _context("apache2", ("/usr/sbin/apache2",), read_embedding(
        (Process(100, "apache2", ("/usr/sbin/apache2",)),), Reader("/nonexistent")))
    assert _where(context) == (
        "the WSGIDaemonProcess line of the app's own process group (the group its "
        "WSGIProcessGroup names) in Apache's config: add these options to it (mod_wsgi sets "
        "lang= and locale= in the group's processes before Python starts; then restart "
        "Apache). Which group is the app's was not found: Apache's config could not be read "
        "here",
        ("lang=C.UTF-8 locale=C.UTF-8",))


@pytest.mark.fast
def test_apache_config_read_once_and_bounded(tmp_path):
    """`-d ROOT` alone names ROOT's apache2.conf (Debian's apache2@NAME); a file that
    includes itself, or `Include /`, is read once, and no whole disk is listed."""
    from utf8env.doctor._place import Process, Reader
    from utf8env.doctor._embedding import read_embedding
    conf = tmp_path / "etc" / "apache2-web" / "apache2.conf"
    conf.parent.mkdir(parents=True)
    conf.write_text("Include /\nInclude apache2.conf\nWSGIDaemonProcess web "
                    "display-name=%{GROUP}\n")
    argv = ("(wsgi:web)", "-d", "/etc/apache2-web", "-k", "start")
    found = read_embedding((Process(100, "apache2", argv),), Reader(str(tmp_path)))
    assert found.apache_config == "/etc/apache2-web/apache2.conf"
    assert [(g.name, g.number) for g in found.groups] == [("web", 3)]
    assert found.group.name == "web"
