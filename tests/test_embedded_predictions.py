"""decide() predicts what an embedded CPython gets (issue 21): every cell of the ground
truth measured with real C programs linked to each libpython
(tests/test_embedded_groundtruth.py: EXPECTED with this machine's locales, WORLD_EXPECTED
in a world without any compiled locale), field by field, from the engine alone. Pure:
nothing is run."""
import pytest

from utf8env._engine.policy import Inputs, InvalidInput, LocaleFacts, decide
from utf8env._engine.profiles import embedded_kinds, released

from test_embedded_groundtruth import ENVS, EXPECTED, WORLD_EXPECTED

pytestmark = pytest.mark.fast

# The locales of the machine the table was measured on, as setlocale() sees them (the
# environments name only C and C.UTF-8), and of the world without compiled locales.
INSTALLED = LocaleFacts({"C.UTF-8": "UTF-8"})
NO_LOCALES = LocaleFacts({})


def _pair(stream):
    return "%s/%s" % (stream.encoding, stream.errors)


def predicted_cell(version, kind, environ, locales):
    """decide()'s Decision in the table's form (test_embedded_groundtruth.cell)."""
    d = decide(Inputs(environ=dict(environ), version=version, locales=locales, embedded=kind))
    if d.startup_error is not None:
        return {"exit": d.startup_error.exit_code}
    out = dict(
        # sys.flags.utf8_mode exists from 3.7 on
        utf8=d.utf8_mode if released(version).utf8_mode else None,
        ctype=d.lc_ctype,
        LC_CTYPE=d.child_environ.get("LC_CTYPE", environ.get("LC_CTYPE")),
        fs=_pair(d.filesystem), stdin=_pair(d.stdin), stdout=_pair(d.stdout),
        stderr=_pair(d.stderr), pref=d.preferred_encoding,
        open=d.open.encoding, devnull=d.open.encoding)
    if d.stderr_messages:
        out["msgs"] = list(d.stderr_messages)
    return out


def _cases():
    for key in sorted(EXPECTED):
        yield pytest.param(key, INSTALLED, EXPECTED[key], id="%s-%s-%s" % key)
    for key in sorted(WORLD_EXPECTED):
        yield pytest.param(key, NO_LOCALES, WORLD_EXPECTED[key],
                           id="no-locales-%s-%s-%s" % key)


@pytest.mark.parametrize("key,locales,expected", list(_cases()))
def test_decide_reproduces_the_measured_cell(key, locales, expected):
    version, kind, env = key
    assert predicted_cell(version, kind, ENVS[env], locales) == expected


def test_every_cell_is_predicted():
    """One count for the report: every measured cell, every field."""
    matched = 0
    for table, locales in ((EXPECTED, INSTALLED), (WORLD_EXPECTED, NO_LOCALES)):
        for (version, kind, env), expected in table.items():
            matched += predicted_cell(version, kind, ENVS[env], locales) == expected
    assert matched == len(EXPECTED) + len(WORLD_EXPECTED) == 286


def test_every_value_has_a_reason_naming_the_api():
    d = decide(Inputs(environ={"LANG": "C.UTF-8"}, version="3.12", locales=INSTALLED,
                      embedded="isolated-config"))
    for name in ("utf8_mode", "coercion", "lc_ctype", "legacy_c_locale"):
        assert d.reasons[name].source == "PyConfig_InitIsolatedConfig()", name
    assert "configure_locale=0" in d.reasons["lc_ctype"].detail
    d = decide(Inputs(environ={"LANG": "C", "PYTHONUTF8": "1"}, version="3.9",
                      locales=INSTALLED, embedded="initialize"))
    assert d.reasons["utf8_mode"].source == "Py_Initialize()"
    assert "compat" in d.reasons["utf8_mode"].detail
    assert d.reasons["coercion"].detail.startswith("the compat configuration: no coercion")


def test_python_config_is_the_python_command():
    """PyConfig_InitPythonConfig is the command's own configuration: the same Decision,
    reasons included, for every version and environment of the table."""
    for version in ("3.8", "3.11", "3.15"):
        for environ in ENVS.values():
            for locales in (INSTALLED, NO_LOCALES):
                command = decide(Inputs(environ=dict(environ), version=version, locales=locales))
                embedded = decide(Inputs(environ=dict(environ), version=version,
                                         locales=locales, embedded="python-config"))
                assert embedded == command


def test_only_python_config_parses_a_command_line():
    args = ("-X", "utf8=0")
    config = decide(Inputs(environ={"LANG": "C"}, args=args, version="3.15",
                           locales=INSTALLED, embedded="python-config"))
    assert config.utf8_mode == 0
    initialize = decide(Inputs(environ={"LANG": "C"}, args=args, version="3.7",
                               locales=INSTALLED, embedded="initialize"))
    assert initialize.utf8_mode == 1


@pytest.mark.parametrize("version", ["3.6", "3.7"])
@pytest.mark.parametrize("kind", ["python-config", "isolated-config"])
def test_a_kind_the_version_lacks_is_a_usage_error(version, kind):
    assert embedded_kinds(version) == ("initialize",)
    with pytest.raises(InvalidInput) as raised:
        decide(Inputs(environ={}, version=version, embedded=kind))
    message = str(raised.value)
    assert "\n" not in message and "expected initialize" in message and version in message


def test_an_unknown_kind_is_a_usage_error():
    with pytest.raises(InvalidInput, match="expected one of initialize, python-config, "
                                           "isolated-config"):
        decide(Inputs(environ={}, version="3.12", embedded="main"))


# -- the command line: `utf8env explain --embedded KIND` -----------------------------------

def _explain(*args):
    import os
    import subprocess
    import sys
    src = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    result = subprocess.run(
        [sys.executable, "-m", "utf8env", "explain", "--empty-env", "--locales", "C.UTF-8"]
        + list(args), env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": src,
                           "LANG": "C.UTF-8"},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return result.returncode, result.stdout.decode("utf-8"), result.stderr.decode("utf-8")


def test_explain_json_says_the_kind_and_predicts_it():
    import json
    code, out, err = _explain("--json", "--version", "3.12", "--env", "LANG=C", "--env",
                              "PYTHONUTF8=1", "--embedded", "initialize")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["embedded"] == "initialize" and data["launcher"] is None
    assert data["utf8_mode"] == 0 and data["coercion"] is None
    assert data["stdout"] == {"encoding": "ascii", "errors": "surrogateescape"}
    assert data["reasons"]["utf8_mode"]["source"] == "Py_Initialize()"
    code, out, err = _explain("--json", "--version", "3.12", "--env", "LANG=C")
    assert (code, err) == (0, "") and json.loads(out)["embedded"] is None


def test_explain_text_names_the_call():
    code, out, err = _explain("--version", "3.15", "--env", "LANG=C.UTF-8", "--embedded",
                              "isolated-config")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == ("Python 3.15 on linux, policy 3.15, embedded: "
                                   "isolated-config (PyConfig_InitIsolatedConfig() + "
                                   "Py_InitializeFromConfig())")
    assert "PyConfig_InitIsolatedConfig(): the isolated configuration sets utf8_mode=1 " \
           "(PEP 686)" in out


@pytest.mark.parametrize("args,message", [
    (["--version", "3.7", "--embedded", "python-config"],
     "utf8env: error: embedded 'python-config': CPython 3.7 has no PyConfig (PEP 587 is "
     "3.8+): expected initialize\n"),
    (["--version", "3.12", "--embedded", "main"],
     "utf8env: error: --embedded 'main': expected initialize, python-config or "
     "isolated-config\n"),
    (["--version", "3.12", "--embedded", "initialize", "--", "python3", "-X", "utf8"],
     "utf8env: error: --embedded initialize parses no command line (parse_argv=0): got "
     "'-X'; give PYTHON alone, or --embedded python-config for PyConfig.argv\n"),
])
def test_explain_refuses_in_one_line(args, message):
    assert _explain(*args) == (2, "", message)
