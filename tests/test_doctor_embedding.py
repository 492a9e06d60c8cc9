"""doctor where an embedding host started the app's Python (issue 21), pure and fast: what
_embedding.read_embedding() reads of the host (its process's memory map, else the plugin or
module its command line and config name) from handmade roots, and what diagnose() makes of
it: the app's Python predicted for the embedding kind its binary imports, the host's own
sys.stdout, one error finding that shares the locale finding's fix, and the default view
kept short. The real uWSGI and mod_wsgi, whose apps report what their Python gets, are
tests/test_doctor_servers.py's."""
import json
import os

import pytest

from utf8env._engine.policy import LocaleFacts
from utf8env.doctor import _diagnose as diagnosing, _render as render, _embedding as embedded
from utf8env.doctor._place import Place, Process, Reader
from utf8env.doctor._verdict import verdict_lines

pytestmark = pytest.mark.fast

FACTS = LocaleFacts({"C.UTF-8": "UTF-8", "C.utf8": "UTF-8"})
LIBPYTHON = "/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0"
PLUGIN = "/usr/lib/uwsgi/plugins/python311_plugin.so"
UWSGI = ("uwsgi", ("/usr/bin/uwsgi", "--ini", "/etc/uwsgi/apps-enabled/app.ini"))
APACHE = ("apache2", ("/usr/sbin/apache2", "-f", "/srv/httpd.conf", "-DFOREGROUND"))


def _elf(*names, library="libpython3.11.so.1.0", extra=b""):
    """Bytes shaped like a binary's dynamic strings: NUL-separated names."""
    return b"\x7fELF\0" + b"\0".join(n.encode() for n in names + (library,)) + b"\0" + extra


def _root(tmp_path, files):
    for path, data in files.items():
        target = tmp_path / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data if isinstance(data, bytes) else data.encode())
    return Reader(str(tmp_path))


def _maps(*paths):
    return "".join("7f00%04x000-7f00%04x000 r-xp 00000000 08:01 %d %s\n" % (i, i + 1, i, p)
                   for i, p in enumerate(paths))


def _ancestors(*processes):
    return tuple(Process(pid, name, tuple(argv)) for pid, (name, argv) in
                 enumerate(processes, 100))


def test_uwsgi_read_from_its_memory_map(tmp_path):
    reader = _root(tmp_path, {"/proc/101/maps": _maps("/usr/bin/uwsgi-core", PLUGIN, LIBPYTHON),
                              PLUGIN: _elf("Py_Initialize", "Py_IsInitialized")})
    found = embedded.read_embedding(_ancestors(("sh", ["sh"]), UWSGI), reader)
    assert found == embedded.Embedding(101, "uwsgi", PLUGIN, LIBPYTHON, ("Py_Initialize",),
                                      "strict", "/proc/101/maps")
    assert (embedded.embedded_kind(found), embedded.embedded_version(found)) == ("initialize",
                                                                              "3.11")
    # uWSGI 2.0.22+ gives its stdout errors=backslashreplace: its plugin holds the word.
    reader = _root(tmp_path, {PLUGIN: _elf("Py_Initialize", extra=b"backslashreplace\0")})
    found = embedded.read_embedding(_ancestors(("sh", ["sh"]), UWSGI), reader)
    assert found.stdio_errors == "backslashreplace"


def test_uwsgi_without_its_map_reads_the_plugin_its_ini_names(tmp_path):
    reader = _root(tmp_path, {
        "/etc/uwsgi/apps-enabled/app.ini": "[other]\nplugin = cgi\n[uwsgi]\n; plugin = php\nplugins = router, python3\n",
        "/usr/lib/uwsgi/plugins/python3_plugin.so": _elf("Py_Initialize")})
    found = embedded.read_embedding(_ancestors(UWSGI), reader)
    assert (found.binary, found.library, found.calls) == (
        "/usr/lib/uwsgi/plugins/python3_plugin.so", "libpython3.11.so.1.0", ("Py_Initialize",))
    assert "maps is not readable" in found.source
    # --plugin and --plugins-dir on the command line
    reader = _root(tmp_path, {"/opt/plugins/python39_plugin.so": _elf(
        "Py_Initialize", library="libpython3.9.so.1.0")})
    found = embedded.read_embedding(_ancestors(("uwsgi", ["uwsgi", "--plugins-dir",
                                                         "/opt/plugins", "--plugin=python39"])),
                                   reader)
    assert (found.binary, embedded.embedded_version(found)) == (
        "/opt/plugins/python39_plugin.so", "3.9")


def test_mod_wsgi_read_from_its_loadmodule_line(tmp_path):
    """Apache's children are non-dumpable after setuid(): their maps are root's."""
    reader = _root(tmp_path, {
        "/srv/httpd.conf": 'ServerRoot "/srv"\nLoadModule wsgi_module modules/mod_wsgi.so\n',
        "/srv/modules/mod_wsgi.so": _elf("PyConfig_InitPythonConfig", "Py_InitializeFromConfig",
                                         library="libpython3.12.so.1.0")})
    found = embedded.read_embedding(_ancestors(APACHE), reader)
    assert (found.kind, found.binary, found.stdio_errors) == (
        "mod_wsgi", "/srv/modules/mod_wsgi.so", None)
    assert (embedded.embedded_kind(found), embedded.embedded_version(found)) == (
        "python-config", "3.12")


def test_nothing_to_read():
    assert embedded.read_embedding(_ancestors(("bash", ["bash"])), Reader("/nonexistent")) is None
    found = embedded.read_embedding(_ancestors(UWSGI), Reader("/nonexistent"))
    assert (found.pid, found.binary, found.library) == (100, None, None)


def test_the_kind_is_known_only_from_one_kind_of_call():
    def kind(*calls):
        return embedded.embedded_kind(embedded.Embedding(1, "uwsgi", "x", None, calls))
    assert kind("Py_InitializeEx") == "initialize"
    assert kind("PyConfig_InitIsolatedConfig") == "isolated-config"
    assert kind("Py_Initialize", "PyConfig_InitPythonConfig") is None
    assert kind() is None


# -- what diagnose() says -------------------------------------------------------------

def _place(environ, embedding, process=UWSGI, ttys=(False, False, False)):
    return Place(environ=dict(environ, PATH="/usr/bin:/bin"), files={}, markers=(),
                 ancestors=_ancestors(process), ttys=ttys, proc=True, sshd_configs=(),
                 facts=FACTS, pythons=(), embedding=embedding)


def _uwsgi(version="3.11", calls=("Py_Initialize",), errors="strict"):
    return embedded.Embedding(100, "uwsgi", PLUGIN, "libpython%s.so.1.0" % version, calls,
                             errors, "/proc/100/maps")


def _diagnosis(environ, embedding, **kw):
    place = _place(environ, embedding, **kw)
    return place, diagnosing.diagnose(place)


def test_uwsgi_in_the_c_locale():
    place, d = _diagnosis({"UWSGI_RELOADS": "0"}, _uwsgi())
    assert [f.code for f in d.findings] == ["embedded-python", "c-locale"]
    embedded = d.findings[0]
    assert embedded.title == (
        "the app's Python 3.11 (Py_Initialize() in uWSGI): file system ascii, sys.stdout "
        "ascii/strict, open() ascii: print(\"\u00e9\") and open(path, \"w\").write(\"\u00e9\") "
        "raise UnicodeEncodeError")
    assert embedded.shared == "c-locale" and embedded.fixes == ()
    assert "UTF-8 mode off: Py_Initialize(): the compat configuration sets utf8_mode=0 " \
           "(bpo-36443): PYTHONUTF8 is not read" in embedded.evidence
    assert any(e.startswith("PYTHONUTF8=1 changes nothing here") for e in embedded.evidence)
    assert [(f.lines, f.context) for f in d.findings[1].fixes] == [
        (("env = LANG=C.UTF-8",), "server")]
    # The default view: one line and where its fix is; docs/doctor.md shows it whole.
    lines = verdict_lines(d.findings, verbose=False)
    assert lines[:4] == ["2 problems", "", "error   " + embedded.title,
                         "        fix: the first fix of the warning below (c-locale)"]
    page = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs",
                        "doctor.md")
    with open(page, encoding="utf-8") as f:
        assert "\n".join(["$ utf8env doctor --no-pythons      # run by the app"] + lines
                         + ["[exit 1]"]) in f.read()
    text = render.to_text(place, d, verbose=True)
    assert ("  3.11  libpython3.11.so.1.0, Py_Initialize() in uWSGI process 100: stdout "
            "ANSI_X3.4-1968/strict, filesystem ascii/surrogateescape, open() ANSI_X3.4-1968; "
            "print(\"\u00e9\") fails") in text.splitlines()
    [python] = json.loads(render.to_json(place, d))["pythons"]
    assert python["embedded"] == {"host": "uWSGI", "process": 100, "kind": "initialize",
                                  "binary": PLUGIN, "library": "libpython3.11.so.1.0"}
    assert python["prediction"]["stdout"] == {"encoding": "ANSI_X3.4-1968", "errors": "strict"}


def test_after_the_fix_nothing_is_said():
    _, d = _diagnosis({"UWSGI_RELOADS": "0", "LANG": "C.UTF-8"}, _uwsgi())
    assert d.findings == ()
    assert (d.pythons[0].decision.stdout.encoding, d.pythons[0].outcome.print_text) == (
        "UTF-8", "ok")


def test_lc_all_over_a_good_lang_shares_its_fix():
    _, d = _diagnosis({"LC_ALL": "C", "LANG": "C.UTF-8"}, _uwsgi())
    assert [(f.code, f.shared) for f in d.findings] == [("embedded-python", "lc-all-overrides"),
                                                        ("lc-all-overrides", None)]


def test_pythonutf8_is_no_fix_for_py_initialize():
    _, d = _diagnosis({"PYTHONUTF8": "1"}, _uwsgi())
    embedded = d.findings[0]
    assert embedded.code == "embedded-python" and not any(
        e.startswith("PYTHONUTF8=1 changes nothing") for e in embedded.evidence)
    assert "UTF-8 mode off: Py_Initialize(): the compat configuration sets utf8_mode=0 " \
           "(bpo-36443): PYTHONUTF8 is not read" in embedded.evidence
    assert embedded.shared == "c-locale"


def test_uwsgi_from_a_terminal_and_uwsgi_2_0_22():
    # stdin a terminal: uWSGI leaves CPython's own stdout (ascii/surrogateescape)
    _, d = _diagnosis({}, _uwsgi(), ttys=(True, True, True))
    assert d.pythons[0].decision.stdout == ("ascii", "surrogateescape")
    # backslashreplace: print() works, open() still fails
    _, d = _diagnosis({}, _uwsgi(errors="backslashreplace"))
    assert d.findings[0].title.endswith(
        ": open(path, \"w\").write(\"\u00e9\") raises UnicodeEncodeError")


def test_mod_wsgi_prints_through_its_log():
    embedding = embedded.Embedding(100, "mod_wsgi", "/usr/lib/apache2/modules/mod_wsgi.so",
                                  "libpython3.11.so.1.0", ("Py_Initialize",), None, "x")
    _, d = _diagnosis({}, embedding, process=APACHE)
    python = d.pythons[0]
    assert (python.decision.stdout, python.outcome.print_text, python.outcome.open_text) == (
        ("utf-8", "replace"), "ok", "fails")
    assert python.decision.reasons["stdout"].source == "mod_wsgi"
    # mod_wsgi 5 with PyConfig_InitPythonConfig: the command's rules, the C locale coerced
    embedding = embedding._replace(calls=("PyConfig_InitPythonConfig", "Py_InitializeFromConfig"))
    _, d = _diagnosis({}, embedding, process=APACHE)
    assert [f.code for f in d.findings] == ["c-locale"]
    assert d.pythons[0].label == "the app's Python 3.11 (PyConfig_InitPythonConfig() in mod_wsgi)"


@pytest.mark.parametrize("version, fails", [("3.6", True), ("3.7", False), ("3.14", True),
                                            ("3.15", False)])
def test_each_version_as_the_engine_says(version, fails):
    """3.7's Py_Initialize() turns UTF-8 mode on in the C locale, 3.15's always (PEP 686)."""
    _, d = _diagnosis({}, _uwsgi(version))
    assert ("embedded-python" in [f.code for f in d.findings]) == fails


def test_what_is_not_identified_is_a_note():
    _, d = _diagnosis({}, _uwsgi(calls=()))
    [note] = [f for f in d.findings if f.code == "not-identified"]
    assert "imports no initialisation function" in note.evidence[0]
    _, d = _diagnosis({}, embedded.Embedding(100, "uwsgi", None, None, (), None, "x"))
    assert d.pythons[0].found.error == "no python plugin or module of uWSGI was found to read"
    _, d = _diagnosis({}, _uwsgi("3.5"))
    assert d.pythons[0].found.error.startswith("Python 3.5 embedded by Py_Initialize(): ")


def test_a_cgi_script_of_apaches_has_no_app_python():
    embedding = embedded.Embedding(100, "mod_wsgi", "/usr/lib/apache2/modules/mod_wsgi.so",
                                  "libpython3.11.so.1.0", ("Py_Initialize",), None, "x")
    _, d = _diagnosis({"GATEWAY_INTERFACE": "CGI/1.1"}, embedding, process=APACHE)
    assert d.pythons == () and [f.code for f in d.findings] == ["c-locale"]
