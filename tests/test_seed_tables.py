"""The seeds' own tables and rules, encoded as data and checked through decide():
PEP 540 v2 (seed 006) "Annex: Encodings And Error Handlers" for POSIX and Windows under
the pep540-draft policy, its "By comparison, Python 3.6 uses" tables under 3.6, and the
PEP 538 draft (seed 002) coercion under pep538-draft."""
import pytest

import utf8env
from utf8env._engine.textnames import codec_name

# The fast tier (`python3 -m pytest -m fast`): pure, no real interpreters, worlds or daemons.
pytestmark = pytest.mark.fast

LOCALES = utf8env.LocaleFacts({"C.UTF-8": "UTF-8", "C.utf8": "UTF-8",
                               "en_US.ISO-8859-1": "ISO-8859-1"}, "ANSI_X3.4-1968")
LOCALE = "ISO-8859-1"   # "locale" in the tables, for LANG=en_US.ISO-8859-1

# Seed 006, POSIX: function -> (Default, UTF-8 mode or POSIX locale, Strict UTF-8 mode)
POSIX_TABLE = {
    "open": (("locale", "strict"), ("UTF-8", "surrogateescape"), ("UTF-8", "strict")),
    "filesystem": (("locale", "surrogateescape"), ("UTF-8", "surrogateescape"), ("UTF-8", "surrogateescape")),
    "stdout": (("locale", "strict"), ("UTF-8", "surrogateescape"), ("UTF-8", "strict")),
    "stdin": (("locale", "strict"), ("UTF-8", "surrogateescape"), ("UTF-8", "strict")),
    "stderr": (("locale", "backslashreplace"), ("UTF-8", "backslashreplace"), ("UTF-8", "backslashreplace")),
}
# Seed 006, Windows: (Default, Legacy Windows FS encoding, UTF-8 mode, Strict UTF-8 mode);
# "mbcs" is the ANSI code page, which CPython names cp1252 here.
WINDOWS_TABLE = {
    "open": (("mbcs", "strict"), ("mbcs", "strict"), ("UTF-8", "surrogateescape"), ("UTF-8", "strict")),
    "filesystem": (("UTF-8", "surrogatepass"), ("mbcs", "replace"), ("UTF-8", "surrogatepass"), ("UTF-8", "surrogatepass")),
    "stdout": (("UTF-8", "surrogateescape"), ("UTF-8", "surrogateescape"), ("UTF-8", "surrogateescape"), ("UTF-8", "strict")),
    "stderr": (("UTF-8", "backslashreplace"), ("UTF-8", "backslashreplace"), ("UTF-8", "backslashreplace"), ("UTF-8", "backslashreplace")),
}
# Seed 006, "By comparison, Python 3.6 uses": (Default, POSIX locale)
PY36_TABLE = {
    "open": (("locale", "strict"), ("locale", "strict")),
    "filesystem": (("locale", "surrogateescape"), ("locale", "surrogateescape")),
    "stdout": (("locale", "strict"), ("locale", "surrogateescape")),
    "stderr": (("locale", "backslashreplace"), ("locale", "backslashreplace")),
}


def same(actual, expected, locale, function=None):
    encoding = locale if expected[0] == "locale" else expected[0]
    if function == "open" and encoding == "mbcs":     # open() names the code page itself
        encoding = "cp1252"
    return (codec_name(actual.encoding), actual.errors) == (codec_name(encoding), expected[1])


def decide(environ, args=(), version="3.7", policy="pep540-draft", **more):
    return utf8env.decide(utf8env.Inputs(environ=environ, args=args, version=version,
                                         locales=LOCALES, policy=policy, **more))


@pytest.mark.parametrize("version", ["3.7", "3.12"])
@pytest.mark.parametrize("function", sorted(POSIX_TABLE))
def test_pep540_posix_table(function, version):
    default, utf8, strict = POSIX_TABLE[function]
    latin1 = {"LANG": "en_US.ISO-8859-1"}
    assert same(getattr(decide(latin1, version=version), function), default, LOCALE)
    assert same(getattr(decide(latin1, ("-X", "utf8"), version), function), utf8, LOCALE)
    assert same(getattr(decide(dict(latin1, PYTHONUTF8="strict"), (), version), function), strict, LOCALE)
    assert same(getattr(decide(latin1, ("-X", "utf8=strict"), version), function), strict, LOCALE)
    # "The POSIX locale enables the UTF-8 mode" (LC_ALL=C: no coercion gets in the way).
    assert same(getattr(decide({"LC_ALL": "C"}, (), version), function), utf8, LOCALE)


@pytest.mark.parametrize("function", sorted(WINDOWS_TABLE))
def test_pep540_windows_table(function):
    default, legacy, utf8, strict = WINDOWS_TABLE[function]
    win = dict(platform="win32", windows_console=True)
    assert same(getattr(decide({}, **win), function), default, None, function)
    assert same(getattr(decide({"PYTHONLEGACYWINDOWSFSENCODING": "1"}, **win), function), legacy, None, function)
    assert same(getattr(decide({}, ("-X", "utf8"), **win), function), utf8, None, function)
    assert same(getattr(decide({}, ("-X", "utf8=strict"), **win), function), strict, None, function)


def test_windows_legacy_fs_encoding_beats_utf8_mode():
    d = decide({"PYTHONLEGACYWINDOWSFSENCODING": "1", "PYTHONUTF8": "1"}, ("-X", "utf8"),
               platform="win32", version="3.9", policy=None)
    assert (d.utf8_mode, d.filesystem) == (0, utf8env.Stream("mbcs", "replace"))
    assert d.reasons["utf8_mode"].source == "PYTHONLEGACYWINDOWSFSENCODING"


def test_windows_pipe_uses_the_ansi_code_page_unless_utf8_mode():
    pipe = decide({}, platform="win32", version="3.9", policy=None)
    assert (pipe.stdout, pipe.open) == (utf8env.Stream("cp1252", "surrogateescape"), utf8env.Stream("cp1252", "strict"))
    utf8 = decide({}, ("-X", "utf8"), platform="win32", version="3.9", policy=None)
    assert utf8.stdout == utf8env.Stream("utf-8", "surrogateescape")
    assert (utf8.legacy_c_locale, utf8.coercion, utf8.stderr_messages) == (False, None, ())


@pytest.mark.parametrize("function", sorted(PY36_TABLE))
def test_python36_comparison_table(function):
    default, posix = PY36_TABLE[function]
    assert same(getattr(decide({"LANG": "en_US.ISO-8859-1"}, version="3.6", policy=None), function),
                default, LOCALE)
    assert same(getattr(decide({"LANG": "C"}, version="3.6", policy=None), function), posix, "ascii")


def test_pep538_draft_sets_lang_and_lc_all_and_warns_by_default():
    d = decide({}, version="3.6", policy="pep538-draft")
    assert d.coercion == utf8env.Coercion("C.UTF-8", {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
    assert d.child_environ == {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    assert d.stderr_messages == ("Python detected LC_CTYPE=C, LC_ALL & LANG set to C.UTF-8 (set "
                                 "PYTHONCOERCECLOCALE=0 to disable this locale coercion behaviour).",)
    # "Using strict error handling by default": the coerced locale is not C any more.
    assert d.stdout == utf8env.Stream("UTF-8", "strict")


def test_pep538_draft_falls_back_to_en_US_with_LC_CTYPE_only():
    facts = utf8env.LocaleFacts({"en_US.UTF-8": "UTF-8"}, "ANSI_X3.4-1968")
    d = utf8env.decide(utf8env.Inputs(environ={"LANG": "C"}, version="3.7", locales=facts,
                                      policy="pep538-draft"))
    assert d.coercion == utf8env.Coercion("en_US.UTF-8", {"LC_CTYPE": "en_US.UTF-8"})
    assert d.stderr_messages == ("Python detected LC_CTYPE=C, LC_CTYPE set to en_US.UTF-8 (set "
                                 "PYTHONCOERCECLOCALE=0 to disable this locale coercion behaviour).",)
    # CPython as released never tries en_US.UTF-8: the C locale stays.
    shipped = utf8env.decide(utf8env.Inputs(environ={"LANG": "C"}, version="3.7", locales=facts))
    assert (shipped.coercion, shipped.lc_ctype) == (None, "C")


def test_pep538_draft_reads_PYTHONCOERCECLOCALE_under_E_and_warns_when_off():
    d = decide({"LANG": "C", "PYTHONCOERCECLOCALE": "0"}, ("-E",), version="3.6", policy="pep538-draft")
    assert d.coercion is None
    assert d.stderr_messages == (
        "Python runtime initialized with LC_CTYPE=C (a locale with default ASCII encoding), which "
        "may cause Unicode compatibility problems. Using C.UTF-8 (if available) as an alternative "
        "Unicode-compatible locale is recommended.",)
    shipped = decide({"LANG": "C", "PYTHONCOERCECLOCALE": "0"}, ("-E",), version="3.7", policy=None)
    assert shipped.coercion.target == "C.UTF-8"


def test_redistributor_switches():
    off = decide({"LANG": "C"}, version="3.9", policy=None, coercion_switch=False)
    assert (off.coercion, off.lc_ctype, off.utf8_mode) == (None, "C", 1)
    assert off.reasons["coercion"].detail == "this interpreter has no C locale coercion"
    loud = decide({"LANG": "C"}, version="3.9", policy=None, warning_switch=True)
    assert loud.stderr_messages == (
        "Python detected LC_CTYPE=C: LC_CTYPE coerced to C.UTF-8 (set another locale or "
        "PYTHONCOERCECLOCALE=0 to disable this locale coercion behavior).",)
    quiet = decide({"LC_ALL": "C", "PYTHONCOERCECLOCALE": "warn"}, version="3.9", policy=None,
                   warning_switch=False)
    assert quiet.stderr_messages == ()
