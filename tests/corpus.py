"""The shared case corpus: inputs -> expected start-up configuration.

Every case runs twice: through utf8env.decide() in-process (tests/test_policy_corpus.py)
and through the real interpreter in the real locale world (tests/test_ground_truth.py).
An expectation therefore states what CPython really does, never what the engine says.
"""
from utf8env._engine.records import Record, field

WORLDS = ("installed", "no-locales", "en_US-only", "latin1", "gb18030")

# The fields an expectation may assert; the probe reports every one of them.
#   utf8_mode          0 or 1 (3.6 reports 0: it has no UTF-8 mode)
#   filesystem         (encoding, errors) of sys.getfilesystemencoding/getfilesystemencodeerrors
#   stdin/stdout/stderr (encoding, errors)
#   open               (encoding, errors) of open(os.devnull) with no encoding argument
#   preferred_encoding locale.getpreferredencoding(False)
#   locale_encoding    locale.getencoding() (3.11+), None before
#   lc_ctype           locale.setlocale(LC_CTYPE, None) once started
#   child_environ      {name: value or None (removed)}: what differs from the given env in os.environ
#   stderr_messages    list of the lines the interpreter printed at start-up
#   exit_code          the exit status
# Encodings are compared after codecs.lookup() normalisation.
FIELDS = ("utf8_mode", "filesystem", "stdin", "stdout", "stderr", "open",
          "preferred_encoding", "locale_encoding", "lc_ctype", "child_environ",
          "stderr_messages", "exit_code")


class Case(Record):
    name = field()      # unique id
    world = field()     # one of WORLDS
    env = field()       # the complete environment of the interpreter (env -i semantics)
    options = field()   # interpreter options before "-c PROBE", e.g. ("-X", "utf8=0")
    versions = field()  # "3.7-3.13", "3.8+", "3.6", "all" (3.6 to 3.15)
    expect = field()    # field -> expected value, only the fields this case asserts
    source = field()    # where the expectation comes from


def version_in(version, spec):
    """True when "3.9" is covered by a spec such as "3.7-3.13", "3.8+", "3.6" or "all"."""
    def key(text):
        return tuple(int(part) for part in text.split("."))
    if spec == "all":
        return True
    if spec.endswith("+"):
        return key(version) >= key(spec[:-1])
    if "-" in spec:
        low, high = spec.split("-")
        return key(low) <= key(version) <= key(high)
    return key(version) == key(spec)


# ===========================================================================
# The cases.  Everything below builds the list returned by cases().
#
# An expectation is written as a function of the minor version ("3.6" ...
# "3.15"); _emit() evaluates it for every version, merges neighbouring
# versions with equal expectations into one Case, and names the parts by
# their version range.  A function returns None where a case does not apply.
# ===========================================================================

VERSIONS = ("3.6", "3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14", "3.15")


def _v(text):
    return tuple(int(part) for part in text.split("."))


def _spec(low, high):
    if low == high:
        return low
    if low == VERSIONS[0] and high == VERSIONS[-1]:
        return "all"
    if high == VERSIONS[-1]:
        return low + "+"
    return low + "-" + high


def _emit(out, name, world, env, options, source, expect_at, versions=VERSIONS):
    """Append the Cases of one input, split where the expectation changes."""
    runs = []                      # [low, high, expect]
    for version in versions:
        expect = expect_at(version)
        if expect is None:
            continue
        if runs and runs[-1][2] == expect and \
                VERSIONS.index(runs[-1][1]) + 1 == VERSIONS.index(version):
            runs[-1][1] = version
        else:
            runs.append([version, version, expect])
    for low, high, expect in runs:
        spec = _spec(low, high)
        full_name = name if len(runs) == 1 else "%s/%s" % (name, spec)
        out.append(Case(name=full_name, world=world, env=dict(env), options=tuple(options),
                        versions=spec, expect=expect, source=source))


def _since(first, expect_at):
    """expect_at restricted to `first` and later (None before)."""
    return lambda v: expect_at(v) if _v(v) >= _v(first) else None


# ---------------------------------------------------------------------------
# Building blocks for expectations
# ---------------------------------------------------------------------------

# The coercion targets present in each world, in CPython's order
# (C.UTF-8, C.utf8, UTF-8); no world has a locale named "UTF-8".
TARGETS = {
    "installed": ("C.UTF-8", "C.utf8"),
    "no-locales": (),
    "en_US-only": (),
    "latin1": ("C.UTF-8", "C.utf8"),
    "gb18030": ("C.UTF-8", "C.utf8"),
}

# A natural non-C locale of each world ("C" where there is none), used as the
# parent environment of the test_utf8_mode ports.
NATIVE = {
    "installed": "C.UTF-8",
    "no-locales": "C",
    "en_US-only": "en_US.UTF-8",
    "latin1": "en_US.ISO-8859-1",
    "gb18030": "zh_CN.GB18030",
}


# Section 2 of the research report (W1 takes the target's name).
def W1(target):
    return ("Python detected LC_CTYPE=C: LC_CTYPE coerced to %s (set another locale "
            "or PYTHONCOERCECLOCALE=0 to disable this locale coercion behavior)." % target)


W2 = ("Python runtime initialized with LC_CTYPE=C (a locale with default ASCII "
      "encoding), which may cause Unicode compatibility problems. Using C.UTF-8, "
      "C.utf8, or UTF-8 (if available) as alternative Unicode-compatible "
      "locales is recommended.")

E1 = "invalid PYTHONUTF8 environment variable value"
E2 = "invalid -X utf8 option value"

# What the real interpreters print for E1/E2 (exit status 1), by version.
FATAL = {
    E1: {"3.7": ["Fatal Python error: config_init_utf8_mode: " + E1, ""],
         "3.8+": ["Fatal Python error: preconfig_init_utf8_mode: " + E1,
                  "Python runtime state: preinitializing", ""]},
    E2: {"3.7": ["Fatal Python error: config_init_utf8_mode: " + E2, ""],
         "3.8+": ["Fatal Python error: preconfig_init_utf8_mode: " + E2,
                  "Python runtime state: preinitializing", ""]},
}

# What the real interpreters report once started, per LC_CTYPE and UTF-8 mode (0/1),
# by version: (filesystem, stdin and stdout, stderr, open() with no encoding,
# locale.getpreferredencoding(False), locale.getencoding() or None before 3.11).
# Stream encodings are compared normalised (codecs.lookup), so they are written in
# that spelling; the other three are nl_langinfo(CODESET) or "utf-8" as CPython
# returns them. test_ground_truth.py checks every row on the real interpreters.
_SE, _BR, _ST = "surrogateescape", "backslashreplace", "strict"
STARTED = {
    # UTF-8 mode off: everything follows the locale's CODESET. stdio errors are
    # surrogateescape in the C locale, and from 3.7 also in a coercion target
    # such as an explicit C.UTF-8 (research B5).
    ("C", 0): {
        "3.6-3.10": (("ascii", _SE), ("ascii", _SE), ("ascii", _BR), ("ANSI_X3.4-1968", _ST),
                     "ANSI_X3.4-1968", None),
        "3.11+": (("ascii", _SE), ("ascii", _SE), ("ascii", _BR), ("ANSI_X3.4-1968", _ST),
                  "ANSI_X3.4-1968", "ANSI_X3.4-1968")},
    ("C.UTF-8", 0): {
        "3.6": (("utf-8", _SE), ("utf-8", _ST), ("utf-8", _BR), ("UTF-8", _ST), "UTF-8", None),
        "3.7-3.10": (("utf-8", _SE), ("utf-8", _SE), ("utf-8", _BR), ("UTF-8", _ST), "UTF-8", None),
        "3.11+": (("utf-8", _SE), ("utf-8", _SE), ("utf-8", _BR), ("UTF-8", _ST), "UTF-8", "UTF-8")},
    ("en_US.UTF-8", 0): {
        "3.6-3.10": (("utf-8", _SE), ("utf-8", _ST), ("utf-8", _BR), ("UTF-8", _ST), "UTF-8", None),
        "3.11+": (("utf-8", _SE), ("utf-8", _ST), ("utf-8", _BR), ("UTF-8", _ST), "UTF-8", "UTF-8")},
    ("en_US.ISO-8859-1", 0): {
        "3.6-3.10": (("iso8859-1", _SE), ("iso8859-1", _ST), ("iso8859-1", _BR),
                     ("ISO-8859-1", _ST), "ISO-8859-1", None),
        "3.11+": (("iso8859-1", _SE), ("iso8859-1", _ST), ("iso8859-1", _BR),
                  ("ISO-8859-1", _ST), "ISO-8859-1", "ISO-8859-1")},
    ("zh_CN.GB18030", 0): {
        "3.6-3.10": (("gb18030", _SE), ("gb18030", _ST), ("gb18030", _BR),
                     ("GB18030", _ST), "GB18030", None),
        "3.11+": (("gb18030", _SE), ("gb18030", _ST), ("gb18030", _BR),
                  ("GB18030", _ST), "GB18030", "GB18030")},
    # UTF-8 mode on (3.7+): UTF-8 whatever the locale; only locale.getencoding()
    # still reports the locale's CODESET.
    ("C", 1): {
        "3.7-3.10": (("utf-8", _SE), ("utf-8", _SE), ("utf-8", _BR), ("utf-8", _ST), "utf-8", None),
        "3.11+": (("utf-8", _SE), ("utf-8", _SE), ("utf-8", _BR), ("utf-8", _ST), "utf-8",
                  "ANSI_X3.4-1968")},
    ("C.UTF-8", 1): {
        "3.7-3.10": (("utf-8", _SE), ("utf-8", _SE), ("utf-8", _BR), ("utf-8", _ST), "utf-8", None),
        "3.11+": (("utf-8", _SE), ("utf-8", _SE), ("utf-8", _BR), ("utf-8", _ST), "utf-8", "UTF-8")},
    ("en_US.UTF-8", 1): {   # only PEP 686's cases start so
        "3.15": (("utf-8", _SE), ("utf-8", _SE), ("utf-8", _BR), ("utf-8", _ST), "utf-8", "UTF-8")},
    ("en_US.ISO-8859-1", 1): {
        "3.7-3.10": (("utf-8", _SE), ("utf-8", _SE), ("utf-8", _BR), ("utf-8", _ST), "utf-8", None),
        "3.11+": (("utf-8", _SE), ("utf-8", _SE), ("utf-8", _BR), ("utf-8", _ST), "utf-8",
                  "ISO-8859-1")},
    ("zh_CN.GB18030", 1): {
        "3.7-3.10": (("utf-8", _SE), ("utf-8", _SE), ("utf-8", _BR), ("utf-8", _ST), "utf-8", None),
        "3.11+": (("utf-8", _SE), ("utf-8", _SE), ("utf-8", _BR), ("utf-8", _ST), "utf-8",
                  "GB18030")},
}


def at(table, v):
    """The entry of a {version spec: value} table that covers version `v`."""
    found = [value for spec, value in table.items() if version_in(v, spec)]
    if len(found) != 1:
        raise KeyError("%s: %d entries of %r cover it" % (v, len(found), sorted(table)))
    return found[0]


def started(v, lc_ctype, utf8, environ=None, messages=()):
    """Every field of a start-up that completes: the STARTED row of (lc_ctype, utf8)
    for version v, with what the case exports to a child and prints."""
    filesystem, stdio, stderr, open_default, preferred, getencoding = at(STARTED[lc_ctype, utf8], v)
    return {
        "utf8_mode": utf8,
        "filesystem": filesystem,
        "stdin": stdio,
        "stdout": stdio,
        "stderr": stderr,
        "open": open_default,
        "preferred_encoding": preferred,
        "locale_encoding": getencoding,
        "lc_ctype": lc_ctype,
        "child_environ": dict(environ or {}),
        "stderr_messages": list(messages),
        "exit_code": 0,
    }


def locale_mode(v, lc_ctype, environ=None, messages=()):
    return started(v, lc_ctype, 0, environ, messages)


def utf8_mode(v, lc_ctype, environ=None, messages=()):
    return started(v, lc_ctype, 1, environ, messages)


def c_locale(v, utf8, messages=()):
    """LC_CTYPE stays "C" (no coercion: disabled, LC_ALL set, or no target)."""
    return started(v, "C", 1 if utf8 else 0, messages=messages)


def coerced(v, target, utf8, messages=()):
    """PEP 538: LC_CTYPE=<target> is exported (W1: "LC_CTYPE coerced to") and used.
    UTF-8 mode, when on, was decided on the C locale before the coercion."""
    return started(v, target, 1 if utf8 else 0, {"LC_CTYPE": target}, messages)


def failure(v, message):
    return {"stderr_messages": at(FATAL[message], v), "exit_code": 1}


def only(expect, *fields):
    """Keep the fields a ported test really asserts."""
    return {field: expect[field] for field in fields}


def with_stdio(expect, encoding, errors):
    """PYTHONIOENCODING: stdin/stdout get encoding/errors; stderr keeps
    backslashreplace with the same encoding."""
    expect = dict(expect)
    expect["stdin"] = (encoding, errors)
    expect["stdout"] = (encoding, errors)
    expect["stderr"] = (encoding, "backslashreplace")
    return expect


# ---------------------------------------------------------------------------
# A. Ports of Lib/test/test_c_locale_coercion.py
#
# The child runs "-X utf8=0" (CPython's harness also adds -X faulthandler,
# which is left out here) so that only PEP 538 is observed.  The base
# environment "unsets" the locale variables with empty strings, exactly as
# the test does.  The test exists from 3.7; its expectations hold unchanged
# in 3.15 because -X utf8=0 switches PEP 686 off.
# ---------------------------------------------------------------------------

_COERCION_SRC = "Lib/test/test_c_locale_coercion.py::"
_COERCION_OPTS = ("-X", "utf8=0")
_COERCION_FIELDS = ("filesystem", "stdin", "stdout", "stderr", "child_environ",
                    "stderr_messages", "exit_code")
_BASE_ENV = {"LANG": "", "LC_CTYPE": "", "LC_ALL": "", "PYTHONCOERCECLOCALE": "",
             "PYTHONIOENCODING": ""}

# LocaleCoercionTests' subtests: the default locale, then each C equivalent
# ("C", "invalid.ascii", and "POSIX" on Linux) in LANG and in LC_CTYPE.  All
# seven behave alike on glibc (each resolves to "C"), so the installed world
# keeps five and the other worlds, where only the targets differ, keep one.
_SUBTESTS = {
    "installed": ((None, None), ("LANG", "C"), ("LC_CTYPE", "C"),
                  ("LANG", "invalid.ascii"), ("LC_CTYPE", "POSIX")),
    "no-locales": ((None, None),),
    "en_US-only": (("LANG", "C"),),
    "latin1": ((None, None),),
    "gb18030": (("LC_CTYPE", "invalid.ascii"),),
}


def _coercion_outcome(world, coercion_expected, warnings):
    """_check_c_locale_coercion's expectation, adapted to the world: without
    a target nothing is coerced, the C-locale encodings (ascii) are used and
    any expected warning becomes the legacy-locale warning W2."""
    targets = TARGETS[world]
    if coercion_expected and targets:
        return {
            "filesystem": ("utf-8", "surrogateescape"),
            "stdin": ("utf-8", "surrogateescape"),
            "stdout": ("utf-8", "surrogateescape"),
            "stderr": ("utf-8", "backslashreplace"),
            "child_environ": {"LC_CTYPE": targets[0]},
            "stderr_messages": [W1(targets[0])] if warnings else [],
            "exit_code": 0,
        }
    return {
        "filesystem": ("ascii", "surrogateescape"),
        # surrogateescape because the C locale is detected
        "stdin": ("ascii", "surrogateescape"),
        "stdout": ("ascii", "surrogateescape"),
        "stderr": ("ascii", "backslashreplace"),
        "child_environ": {},
        "stderr_messages": [W2] if warnings else [],
        "exit_code": 0,
    }


def _coercion_check(out, test, label, coerce_c_locale, coercion_expected,
                    warnings, extra=None, worlds=WORLDS):
    for world in worlds:
        for var, value in _SUBTESTS[world]:
            env = dict(_BASE_ENV, **(extra or {}))
            if coerce_c_locale is not None:
                env["PYTHONCOERCECLOCALE"] = coerce_c_locale
            where = "default"
            if var:
                env[var] = value
                where = "%s=%s" % (var, value)
            expect = _coercion_outcome(world, coercion_expected, warnings)
            name = "c_locale_coercion/%s/%s%s/%s" % (test, label, where, world)
            _emit(out, name, world, env, _COERCION_OPTS, _COERCION_SRC + test,
                  _since("3.7", lambda v, e=expect: e))


def _configured_target(out, test, ioencoding, errors):
    """LocaleConfigurationTests: an explicitly configured target locale
    behaves like a coerced one but nothing is exported.  Skipped by CPython
    where no target exists, and for LANG=UTF-8 (bpo-30672)."""
    for world in ("installed", "gb18030"):
        for var in ("LANG", "LC_CTYPE"):
            for target in TARGETS[world]:
                env = dict(_BASE_ENV, PYTHONIOENCODING=ioencoding)
                env[var] = target
                expect = {
                    "filesystem": ("utf-8", "surrogateescape"),
                    "stdin": ("utf-8", errors),
                    "stdout": ("utf-8", errors),
                    "stderr": ("utf-8", "backslashreplace"),
                    "child_environ": {},
                    "stderr_messages": [],
                    "exit_code": 0,
                }
                name = "c_locale_coercion/%s/%s=%s/%s" % (test, var, target, world)
                _emit(out, name, world, env, _COERCION_OPTS, _COERCION_SRC + test,
                      _since("3.7", lambda v, e=expect: e))


def _c_locale_coercion_cases(out):
    _configured_target(out, "test_external_target_locale_configuration", "",
                       "surrogateescape")
    # test_with_ioencoding is new in 3.13; its assertion holds from 3.7.
    _configured_target(out, "test_with_ioencoding", "UTF-8", "strict")

    _coercion_check(out, "test_PYTHONCOERCECLOCALE_not_set", "", None, True, False)
    # "" is also in the test's list; it is the not_set environment again.
    # These values only matter to CPython's parsing, so one world suffices.
    for setting in ("1", "true", "false"):
        _coercion_check(out, "test_PYTHONCOERCECLOCALE_not_zero",
                        "PYTHONCOERCECLOCALE=%s/" % setting, setting, True, False,
                        worlds=("installed", "no-locales"))
    _coercion_check(out, "test_PYTHONCOERCECLOCALE_set_to_warn", "", "warn",
                    True, True)
    _coercion_check(out, "test_PYTHONCOERCECLOCALE_set_to_zero", "", "0",
                    False, False)
    _coercion_check(out, "test_PYTHONCOERCECLOCALE_set_to_zero", "LC_ALL=C/", "0",
                    False, False, {"LC_ALL": "C"})
    _coercion_check(out, "test_LC_ALL_set_to_C", "", None, False, False,
                    {"LC_ALL": "C"})
    _coercion_check(out, "test_LC_ALL_set_to_C", "warn/", "warn", False, True,
                    {"LC_ALL": "C"})

    # bpo-35336: PYTHONCOERCECLOCALE=1 must not coerce a locale that is not C.
    # CPython skips it when the parent's locale is C or a target, so it runs
    # in the worlds that have another locale.  The child is a plain
    # "python -c" with the parent's environment.
    for world in ("en_US-only", "latin1", "gb18030"):
        lc_ctype = NATIVE[world]
        _emit(out, "c_locale_coercion/test_PYTHONCOERCECLOCALE_set_to_one/" + world,
              world, {"LANG": lc_ctype, "PYTHONCOERCECLOCALE": "1"}, (),
              _COERCION_SRC + "test_PYTHONCOERCECLOCALE_set_to_one",
              _since("3.7", lambda v, lc=lc_ctype: {"lc_ctype": lc, "child_environ": {}}))


# ---------------------------------------------------------------------------
# A. Ports of Lib/test/test_utf8_mode.py
#
# Every child gets DEFAULT_ENV (PYTHONUTF8='', PYTHONLEGACYWINDOWSFSENCODING='',
# PYTHONCOERCECLOCALE='0': coercion is off) on top of the parent's
# environment; the parent here is LANG=<the world's native locale>.  Windows-
# only branches, test_io_encoding/test_pyio_encoding (explicit arguments),
# test_optim_level's flags and test_device_encoding (needs a tty) do not
# concern start-up configuration and are not ported.
# ---------------------------------------------------------------------------

_UTF8_SRC = "Lib/test/test_utf8_mode.py::"
_UTF8_DEFAULT_ENV = {"PYTHONUTF8": "", "PYTHONLEGACYWINDOWSFSENCODING": "",
                     "PYTHONCOERCECLOCALE": "0"}

# The tests whose result does not depend on the parent's locale (LC_ALL
# overrides it) run in the installed world only; those where -X utf8 decides
# everything run in two worlds; the rest in all five.
_UTF8_LOCALE_FREE_WORLDS = ("installed",)
_UTF8_XOPTION_WORLDS = ("installed", "latin1")


def _utf8_env(world, **extra):
    env = dict(_UTF8_DEFAULT_ENV, LANG=NATIVE[world])
    env.update(extra)
    return env


def _utf8_case(out, test, label, world, env, options, expect_at):
    _emit(out, "utf8_mode/%s/%s/%s" % (test, label, world), world, env, options,
          _UTF8_SRC + test, _since("3.7", expect_at))


def _utf8_mode_cases(out):
    for world in WORLDS:
        locale_free = world in _UTF8_LOCALE_FREE_WORLDS
        xoption = world in _UTF8_XOPTION_WORLDS
        is_c = NATIVE[world] == "C"
        if locale_free:
            for loc in ("C", "POSIX"):
                _utf8_case(out, "test_posix_locale", "LC_ALL=" + loc, world,
                           _utf8_env(world, LC_ALL=loc), (),
                           lambda v: {"utf8_mode": 1, "exit_code": 0})

        # test_xoption
        for opt, mode in (("utf8", 1), ("utf8=1", 1), ("utf8=0", 0)):
            _utf8_case(out, "test_xoption", "-X " + opt, world, _utf8_env(world),
                       ("-X", opt), lambda v, m=mode: {"utf8_mode": m, "exit_code": 0})

        # test_env_var
        for value, mode in (("1", 1), ("0", 0)):
            _utf8_case(out, "test_env_var", "PYTHONUTF8=" + value, world,
                       _utf8_env(world, PYTHONUTF8=value), (),
                       lambda v, m=mode: {"utf8_mode": m, "exit_code": 0})
        _utf8_case(out, "test_env_var", "-X utf8=0 beats PYTHONUTF8=1", world,
                   _utf8_env(world, PYTHONUTF8="1"), ("-X", "utf8=0"),
                   lambda v: {"utf8_mode": 0, "exit_code": 0})
        if not is_c:
            # skipped by CPython in a POSIX parent locale; in 3.15 -E leaves
            # the PEP 686 default (on)
            _utf8_case(out, "test_env_var", "-E ignores PYTHONUTF8=1", world,
                       _utf8_env(world, PYTHONUTF8="1"), ("-E",),
                       lambda v: {"utf8_mode": at({"3.7-3.14": 0, "3.15": 1}, v), "exit_code": 0})
        _utf8_case(out, "test_env_var", "PYTHONUTF8=xxx", world,
                   _utf8_env(world, PYTHONUTF8="xxx"), (),
                   lambda v: failure(v, E1))

        # test_io: open() without an encoding
        _utf8_case(out, "test_io", "PYTHONUTF8=1", world,
                   _utf8_env(world, PYTHONUTF8="1"), (),
                   lambda v: {"open": ("utf-8", "strict")})
        if not xoption:
            continue

        # test_filesystemencoding
        _utf8_case(out, "test_filesystemencoding", "-X utf8", world, _utf8_env(world),
                   ("-X", "utf8"),
                   lambda v: {"filesystem": ("utf-8", "surrogateescape")})

        # test_stdio: PYTHONIOENCODING beats UTF-8 mode
        for value, encoding, errors in (("", "utf-8", "surrogateescape"),
                                        ("latin1", "iso8859-1", "strict"),
                                        (":namereplace", "utf-8", "namereplace")):
            _utf8_case(out, "test_stdio", "PYTHONIOENCODING=" + value, world,
                       _utf8_env(world, PYTHONIOENCODING=value), ("-X", "utf8"),
                       lambda v, e=encoding, r=errors: only(
                           with_stdio({}, e, r), "stdin", "stdout", "stderr"))

        # test_locale_getpreferredencoding (the False form)
        locs = (None, "C", "POSIX") if locale_free else (None,)
        for loc in locs:
            env = _utf8_env(world, LC_ALL=loc) if loc else _utf8_env(world)
            _utf8_case(out, "test_locale_getpreferredencoding",
                       "-X utf8" + ("/LC_ALL=" + loc if loc else ""), world, env,
                       ("-X", "utf8"), lambda v: {"preferred_encoding": "utf-8"})

        # test_cmd_line: sys.argv is decoded with the filesystem encoding and
        # surrogateescape, so the port asserts that pair.
        _utf8_case(out, "test_cmd_line", "-X utf8", world, _utf8_env(world),
                   ("-X", "utf8"),
                   lambda v: {"filesystem": ("utf-8", "surrogateescape")})
        if locale_free:
            for loc in ("C", "POSIX"):
                _utf8_case(out, "test_cmd_line", "-X utf8/LC_ALL=" + loc, world,
                           _utf8_env(world, LC_ALL=loc), ("-X", "utf8"),
                           lambda v: {"filesystem": ("utf-8", "surrogateescape")})
                _utf8_case(out, "test_cmd_line", "-X utf8=0/LC_ALL=" + loc, world,
                           _utf8_env(world, LC_ALL=loc), ("-X", "utf8=0"),
                           lambda v: {"filesystem": ("ascii", "surrogateescape"),
                                      "utf8_mode": 0})

        # test_optim_level: re-reading the configuration for -X utf8 keeps
        # the mode together with -O, -OO and -E.
        if locale_free:
            for extra in ("-O", "-OO", "-E"):
                _utf8_case(out, "test_optim_level", "-X utf8 " + extra, world,
                           _utf8_env(world), ("-X", "utf8", extra),
                           lambda v: {"utf8_mode": 1, "exit_code": 0})


# ---------------------------------------------------------------------------
# B. The research report's observed matrix (section 5) and its "other
#    confirmed cases".  The report ran 3.6-3.13; 3.14 behaves the same and
#    was checked here.  3.15 is left to part C, where PEP 686 changes it.
# ---------------------------------------------------------------------------

_TO_314 = VERSIONS[:-1]


def _research(out, case, world, env, options, expect_at, label=None, fields=None):
    """One input of the report; `fields` narrows what is asserted."""
    name = "research/%s" % case + ("/" + label if label else "")
    if fields:
        full = expect_at

        def expect_at(v):
            expect = full(v)
            return only(expect, *fields) if expect is not None else None
    _emit(out, name, world, env, options, "research §5 case %s" % case, expect_at,
          _TO_314)


def _auto(v, messages=()):
    """The C locale with nothing set: 3.6 stays legacy; 3.7+ coerce to C.UTF-8
    and turn UTF-8 mode on (decided on the C locale before coercing)."""
    if v == "3.6":
        return c_locale(v, False)
    return coerced(v, "C.UTF-8", True, messages)


def _no_coercion(v, messages=()):
    """LC_CTYPE stays C: legacy in 3.6, automatic UTF-8 mode in 3.7+."""
    if v == "3.6":
        return c_locale(v, False)
    return c_locale(v, True, messages)


def _c_utf8(v, utf8=False):
    """An explicit C.UTF-8 locale (a target, so surrogateescape in 3.7+)."""
    if utf8 and v != "3.6":
        return utf8_mode(v, "C.UTF-8")
    return locale_mode(v, "C.UTF-8")


def _research_matrix(out):
    I = "installed"
    _research(out, "A", I, {}, (), _auto)
    _research(out, "B", I, {"LANG": "C"}, (), _auto)
    _research(out, "C", I, {"LC_ALL": "C"}, (), _no_coercion)
    # 3.7+ overwrite an existing LC_CTYPE=C with the target
    _research(out, "D", I, {"LC_CTYPE": "C"}, (), _auto)
    # glibc reports POSIX as "C"
    _research(out, "E", I, {"LC_ALL": "POSIX"}, (), _no_coercion)
    _research(out, "F", I, {"LANG": "C.UTF-8"}, (), _c_utf8)
    _research(out, "G", I, {"LANG": "C", "PYTHONCOERCECLOCALE": "0"}, (), _no_coercion)
    _research(out, "H", I, {"LANG": "C", "PYTHONCOERCECLOCALE": "warn"}, (),
              lambda v: _auto(v, [W1("C.UTF-8")] if v != "3.6" else []))
    _research(out, "I", I, {"LC_ALL": "C", "PYTHONCOERCECLOCALE": "warn"}, (),
              lambda v: _no_coercion(v, [W2] if v != "3.6" else []))
    _research(out, "J", I, {"LANG": "C", "PYTHONUTF8": "0"}, (),
              lambda v: c_locale(v, False) if v == "3.6" else coerced(v, "C.UTF-8", False))
    _research(out, "K", I, {"LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
              (), lambda v: c_locale(v, False))
    _research(out, "L", I, {"LC_ALL": "C", "PYTHONUTF8": "0"}, (),
              lambda v: c_locale(v, False))
    _research(out, "M", I, {"LANG": "C.UTF-8", "PYTHONUTF8": "1"}, (),
              lambda v: _c_utf8(v, True))
    _research(out, "N", I, {"LANG": "C.UTF-8"}, ("-X", "utf8"),
              lambda v: _c_utf8(v, True))
    # -E ignores both variables: the same as case A
    _research(out, "O", I, {"LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"},
              ("-E",), _auto)
    _research(out, "P", "en_US-only", {"LANG": "en_US.UTF-8"}, (),
              lambda v: locale_mode(v, "en_US.UTF-8"))
    _research(out, "Q", "latin1", {"LANG": "en_US.ISO-8859-1"}, (),
              lambda v: locale_mode(v, "en_US.ISO-8859-1"))
    _research(out, "R", "latin1", {"LANG": "en_US.ISO-8859-1", "PYTHONUTF8": "1"}, (),
              lambda v: locale_mode(v, "en_US.ISO-8859-1") if v == "3.6"
              else utf8_mode(v, "en_US.ISO-8859-1"))
    # no target in the empty world: LC_CTYPE stays C, W2 instead of W1
    _research(out, "S", "no-locales", {"LANG": "C", "PYTHONCOERCECLOCALE": "warn"}, (),
              lambda v: _no_coercion(v, [W2] if v != "3.6" else []))
    _research(out, "T", "no-locales", {"LANG": "C", "PYTHONUTF8": "0"}, (),
              lambda v: c_locale(v, False))
    # Case U needs a world whose only target is a locale named "UTF-8"; none
    # of WORLDS has one.  The same matrix rows, carried to the other worlds:
    _research(out, "A", "no-locales", {}, (), _no_coercion, "no-locales")
    _research(out, "H", "en_US-only", {"LANG": "C", "PYTHONCOERCECLOCALE": "warn"}, (),
              lambda v: _no_coercion(v, [W2] if v != "3.6" else []), "en_US-only")
    _research(out, "Q", "gb18030", {"LANG": "zh_CN.GB18030"}, (),
              lambda v: locale_mode(v, "zh_CN.GB18030"), "gb18030")
    _research(out, "R", "gb18030", {"LANG": "zh_CN.GB18030", "PYTHONUTF8": "1"}, (),
              lambda v: locale_mode(v, "zh_CN.GB18030") if v == "3.6"
              else utf8_mode(v, "zh_CN.GB18030"), "gb18030")
    # en_US.UTF-8 is not a coercion target (it was only in a PEP 538 draft)
    _research(out, "Q", "latin1", {"LANG": "en_US.ISO-8859-1", "LC_ALL": "C"}, (),
              _no_coercion, "LC_ALL=C beats LANG")
    # C.UTF-8 is not installed: the name fails, LC_CTYPE stays C, no target
    _research(out, "F", "no-locales", {"LANG": "C.UTF-8"}, (), _no_coercion,
              "no-locales")


# Fields asserted by the short "other confirmed cases": the mode, the locale
# and what it exports, stdio, and the start-up messages.
_CORE = ("utf8_mode", "lc_ctype", "child_environ", "stdin", "stdout",
         "stderr_messages", "exit_code")


def _other_cases(out):
    I = "installed"
    warn = {"PYTHONCOERCECLOCALE": "warn"}

    def w1(v):
        return [W1("C.UTF-8")] if v != "3.6" else []

    def w2(v):
        return [W2] if v != "3.6" else []

    # an empty LC_ALL counts as unset
    _research(out, "other", I, dict(warn, LC_ALL="", LANG="C"), (),
              lambda v: _auto(v, w1(v)), "LC_ALL=''+warn", _CORE)
    # an unknown locale name leaves "C", which is coerced ...
    _research(out, "other", I, dict(warn, LANG="xx_YY.UTF-8"), (),
              lambda v: _auto(v, w1(v)), "LANG=xx_YY.UTF-8+warn", _CORE)
    # ... unless it is in LC_ALL, which blocks coercion
    _research(out, "other", I, dict(warn, LC_ALL="xx_YY.UTF-8"), (),
              lambda v: _no_coercion(v, w2(v)), "LC_ALL=xx_YY.UTF-8+warn", _CORE)
    # LC_ALL beats LC_CTYPE beats LANG (glibc)
    _research(out, "other", I, dict(warn, LC_ALL="C.UTF-8", LC_CTYPE="C"), (),
              _c_utf8, "LC_ALL=C.UTF-8 LC_CTYPE=C+warn", _CORE)
    _research(out, "other", I, {"LC_CTYPE": "C.UTF-8", "LANG": "C"}, (),
              _c_utf8, "LC_CTYPE=C.UTF-8 LANG=C", _CORE)
    _research(out, "other", I, {"LC_CTYPE": "C", "LANG": "C.UTF-8"}, (),
              _auto, "LC_CTYPE=C LANG=C.UTF-8", _CORE)
    _research(out, "other", I, {"LC_CTYPE": "C", "LC_MESSAGES": "C.UTF-8"}, (),
              _auto, "LC_CTYPE=C LC_MESSAGES=C.UTF-8", _CORE)
    # coercion overwrites LC_CTYPE=POSIX too; LANG is never touched
    _research(out, "other", I, {"LC_CTYPE": "POSIX", "LANG": "C"}, (),
              _auto, "LC_CTYPE=POSIX LANG=C", _CORE)
    _research(out, "other", I, {"PYTHONCOERCECLOCALE": "", "LANG": "C"}, (),
              _auto, "PYTHONCOERCECLOCALE=''", _CORE)
    # exact, case-sensitive compares: every other value just means "coerce",
    # and only "warn" prints
    for value in ("WARN", "0 ", "00"):
        _research(out, "other", I, {"PYTHONCOERCECLOCALE": value, "LANG": "C"}, (),
                  _auto, "PYTHONCOERCECLOCALE=%r" % value, _CORE)
    # PYTHONCOERCECLOCALE honours -E and -I (unlike the PEP text says)
    for opt in ("-E", "-I"):
        _research(out, "other", I, {"PYTHONCOERCECLOCALE": "0", "LANG": "C"}, (opt,),
                  _auto, "PYTHONCOERCECLOCALE=0 %s" % opt, _CORE)
    # the PEP 538 draft's opt-out variable does nothing
    _research(out, "other", I, {"PYTHONALLOWCLOCALE": "1", "LANG": "C"}, (),
              _auto, "PYTHONALLOWCLOCALE=1", _CORE)

    # -X utf8 values and spellings (3.6 has no UTF-8 mode and accepts anything)
    for value in ("", "01", "strict"):
        _research(out, "other", I, {"LANG": "C.UTF-8"}, ("-X", "utf8=" + value),
                  lambda v: _c_utf8(v) if v == "3.6" else failure(v, E2),
                  "-X utf8=%s" % value, ("stderr_messages", "exit_code"))
    _research(out, "other", I, {"LANG": "C.UTF-8"}, ("-Xutf8",),
              lambda v: _c_utf8(v, True), "-Xutf8", _CORE)
    _research(out, "other", I, {"LANG": "C.UTF-8"}, ("-X", "UTF8"),
              _c_utf8, "-X UTF8", _CORE)
    # the first -X utf8 entry wins, and PYTHONUTF8 is not even read
    _research(out, "other", I, {"LANG": "C.UTF-8"}, ("-X", "utf8=0", "-X", "utf8"),
              _c_utf8, "-X utf8=0 -X utf8", _CORE)
    _research(out, "other", I, {"LANG": "C.UTF-8"}, ("-X", "utf8", "-X", "utf8=bogus"),
              lambda v: _c_utf8(v, True), "-X utf8 -X utf8=bogus", _CORE)
    _research(out, "other", I, {"LANG": "C.UTF-8", "PYTHONUTF8": "bogus"}, ("-X", "utf8"),
              lambda v: _c_utf8(v, True), "PYTHONUTF8=bogus -X utf8", _CORE)

    # PYTHONUTF8 values
    for value in ("strict", " 1", "2"):
        _research(out, "other", I, {"LANG": "C.UTF-8", "PYTHONUTF8": value}, (),
                  lambda v: _c_utf8(v) if v == "3.6" else failure(v, E1),
                  "PYTHONUTF8=%r" % value, ("stderr_messages", "exit_code"))
    # the error comes before any coercion message
    _research(out, "other", I, {"LANG": "C", "PYTHONUTF8": "bogus",
                                "PYTHONCOERCECLOCALE": "warn"}, (),
              lambda v: c_locale(v, False) if v == "3.6" else failure(v, E1),
              "PYTHONUTF8=bogus+warn", ("stderr_messages", "exit_code"))
    _research(out, "other", I, {"LANG": "C.UTF-8", "PYTHONUTF8": ""}, (),
              _c_utf8, "PYTHONUTF8=''", _CORE)
    for opt in ("-E", "-I"):
        _research(out, "other", I, {"LANG": "C.UTF-8", "PYTHONUTF8": "1"}, (opt,),
                  _c_utf8, "PYTHONUTF8=1 %s" % opt, _CORE)
    _research(out, "other", I, {"LANG": "C.UTF-8", "PYTHONUTF8": "bogus"}, ("-E",),
              _c_utf8, "PYTHONUTF8=bogus -E", _CORE)
    _research(out, "other", I, {"LC_ALL": "C", "PYTHONUTF8": "0"}, ("-E",),
              _no_coercion, "PYTHONUTF8=0 -E LC_ALL=C", _CORE)
    # Windows-only variable, ignored on Linux
    _research(out, "other", I, {"LANG": "C.UTF-8", "PYTHONLEGACYWINDOWSFSENCODING": "1"},
              (), _c_utf8, "PYTHONLEGACYWINDOWSFSENCODING=1", _CORE)


# The PYTHONIOENCODING table: (value, environment, stdin/stdout per version).
# 3.6 and 3.7 keep the encoding name as typed; names are compared after
# normalisation, so "latin1" and "iso8859-1" are the same expectation.
_IO = ("stdin", "stdout", "stderr")


def _ioencoding_cases(out):
    I = "installed"
    u8 = {"LANG": "C.UTF-8"}
    c = {"LC_ALL": "C"}
    c0 = {"LC_ALL": "C", "PYTHONUTF8": "0"}

    def fixed(encoding, errors):
        return lambda v: with_stdio({}, encoding, errors)

    rows = [
        ("latin1", u8, fixed("iso8859-1", "strict")),
        ("latin1", {"LANG": "C"}, fixed("iso8859-1", "strict")),
        ("latin1:replace", u8, fixed("iso8859-1", "replace")),
        (":replace", u8, fixed("utf-8", "replace")),
        # the UTF-8 mode (automatic in LC_ALL=C, 3.7+) fills in the encoding
        (":replace", c, lambda v: with_stdio({}, "ascii" if v == "3.6" else "utf-8",
                                             "replace")),
        (":replace", c0, fixed("ascii", "replace")),
        # ":" alone sets nothing: 3.6 then picks strict outside the C locale
        (":", u8, lambda v: only(locale_mode(v, "C.UTF-8"), *_IO)),
        (":", c, lambda v: with_stdio({}, "ascii" if v == "3.6" else "utf-8",
                                      "surrogateescape")),
        ("utf-8:", u8, fixed("utf-8", "strict")),
        ("UTF8", u8, fixed("utf-8", "strict")),
        ("utf-8", c, fixed("utf-8", "strict")),
        # errors are everything after the first colon
        ("latin-1:strict:extra", u8, fixed("iso8859-1", "strict:extra")),
        # an unknown handler is accepted; it would fail at the first error
        ("latin1:bogus_handler", u8, fixed("iso8859-1", "bogus_handler")),
        ("", u8, lambda v: only(locale_mode(v, "C.UTF-8"), *_IO)),
        # utf-8 mode with an encoding part: strict, not surrogateescape
        ("latin1", dict(c, PYTHONUTF8="1"), fixed("iso8859-1", "strict")),
    ]
    for value, env, expect_at in rows:
        env = dict(env, PYTHONIOENCODING=value)
        label = "PYTHONIOENCODING=%r/%s" % (value, ",".join(
            "%s=%s" % kv for kv in sorted(env.items()) if kv[0] != "PYTHONIOENCODING"))
        _research(out, "other", I, env, (), expect_at, label)
    # -E ignores it
    _research(out, "other", I, {"LANG": "C.UTF-8", "PYTHONIOENCODING": "latin1"},
              ("-E",), lambda v: only(_c_utf8(v), *_IO), "PYTHONIOENCODING=latin1 -E")
    # an unknown codec is fatal: SIGABRT in 3.6/3.7 (the shell sees 128 + 6),
    # exit status 1 from 3.8.  The text includes a thread id, so only the
    # status is asserted.
    _research(out, "other", I, {"LANG": "C.UTF-8", "PYTHONIOENCODING": "bogus_codec"},
              (), lambda v: {"exit_code": 134 if v in ("3.6", "3.7") else 1},
              "PYTHONIOENCODING=bogus_codec")
    _research(out, "other", I, {"LANG": "C.UTF-8", "PYTHONIOENCODING": "rot13"},
              (), lambda v: {"exit_code": 134 if v in ("3.6", "3.7") else 1},
              "PYTHONIOENCODING=rot13")


# ---------------------------------------------------------------------------
# C. PEP 686: 3.15 turns UTF-8 mode on in every locale unless -X utf8=0 or
#    PYTHONUTF8=0 says otherwise.  Coercion of the C locale is unchanged (it
#    still exports LC_CTYPE), and so are the option parsing and its errors.
#    Run on Debian's 3.15.2.
# ---------------------------------------------------------------------------

_PEP686_SRC = "PEP 686 (run on 3.15.2)"


def _pep686(out, label, world, env, options, expect):
    _emit(out, "pep686/%s/%s" % (label, world), world, env, options, _PEP686_SRC,
          lambda v: expect, ("3.15",))


def _c_start(world, utf8, messages=()):
    """A start in the C locale: coerced where the world has a target."""
    if TARGETS[world]:
        return coerced("3.15", TARGETS[world][0], utf8, messages)
    return c_locale("3.15", utf8, messages)


def _pep686_c_locale(out, world):
    """The C locale in 3.15: UTF-8 mode was already automatic there, so
    only the explicit opt-outs and the warnings are worth pinning down."""
    v = "3.15"
    target = TARGETS[world][0] if TARGETS[world] else None
    _pep686(out, "LANG=C PYTHONUTF8=0", world, {"LANG": "C", "PYTHONUTF8": "0"}, (),
            _c_start(world, False))
    _pep686(out, "LANG=C -X utf8=0 PYTHONCOERCECLOCALE=warn", world,
            {"LANG": "C", "PYTHONCOERCECLOCALE": "warn"}, ("-X", "utf8=0"),
            _c_start(world, False, [W1(target)] if target else [W2]))
    _pep686(out, "LC_ALL=C PYTHONUTF8=0", world, {"LC_ALL": "C", "PYTHONUTF8": "0"},
            (), c_locale(v, False))
    _pep686(out, "LC_ALL=C PYTHONCOERCECLOCALE=warn", world,
            {"LC_ALL": "C", "PYTHONCOERCECLOCALE": "warn"}, (), c_locale(v, True, [W2]))
    # the values are still parsed strictly
    _pep686(out, "PYTHONUTF8=xxx", world, {"LANG": NATIVE[world], "PYTHONUTF8": "xxx"},
            (), failure(v, E1))
    _pep686(out, "-X utf8=strict", world, {"LANG": NATIVE[world]},
            ("-X", "utf8=strict"), failure(v, E2))


def _pep686_precedence(out, world, native, on, off):
    """The order of the inputs is unchanged; only the final default moved."""
    _pep686(out, "LANG=native PYTHONUTF8=1", world, dict(native, PYTHONUTF8="1"), (), on)
    _pep686(out, "LANG=native -X utf8", world, native, ("-X", "utf8"), on)
    _pep686(out, "LANG=native PYTHONUTF8=0 -I", world, dict(native, PYTHONUTF8="0"),
            ("-I",), on)
    # -X utf8 beats PYTHONUTF8 in both directions
    _pep686(out, "LANG=native PYTHONUTF8=0 -X utf8=1", world,
            dict(native, PYTHONUTF8="0"), ("-X", "utf8=1"), on)
    _pep686(out, "LANG=native PYTHONUTF8=1 -X utf8=0", world,
            dict(native, PYTHONUTF8="1"), ("-X", "utf8=0"), off)
    # PYTHONIOENCODING still beats the UTF-8 mode
    _pep686(out, "LANG=native PYTHONIOENCODING=latin1", world,
            dict(native, PYTHONIOENCODING="latin1"), (),
            with_stdio(on, "iso8859-1", "strict"))
    _pep686(out, "LANG=native PYTHONIOENCODING=:replace", world,
            dict(native, PYTHONIOENCODING=":replace"), (), with_stdio(on, "utf-8", "replace"))
    # a non-C locale is still never coerced, and nothing is printed
    _pep686(out, "LANG=native PYTHONCOERCECLOCALE=warn", world,
            dict(native, PYTHONCOERCECLOCALE="warn"), (), on)


def _pep686_cases(out):
    v = "3.15"
    for world in WORLDS:
        _pep686(out, "no locale variables", world, {}, (), _c_start(world, True))
        if world in ("installed", "no-locales"):
            _pep686_c_locale(out, world)
        lc_ctype = NATIVE[world]
        if lc_ctype == "C":
            continue
        # A real non-C locale: 3.14 gave UTF-8 mode 0 here.
        native = {"LANG": lc_ctype}
        on = utf8_mode(v, lc_ctype)
        off = locale_mode(v, lc_ctype)
        _pep686(out, "LANG=native", world, native, (), on)
        _pep686(out, "LANG=native PYTHONUTF8=0", world, dict(native, PYTHONUTF8="0"),
                (), off)
        _pep686(out, "LANG=native -X utf8=0", world, native, ("-X", "utf8=0"), off)
        # -E drops PYTHONUTF8=0, which leaves the new default
        _pep686(out, "LANG=native PYTHONUTF8=0 -E", world,
                dict(native, PYTHONUTF8="0"), ("-E",), on)
        if world == "latin1":
            _pep686_precedence(out, world, native, on, off)


def cases():
    out = []
    _c_locale_coercion_cases(out)
    _utf8_mode_cases(out)
    _research_matrix(out)
    _other_cases(out)
    _ioencoding_cases(out)
    _pep686_cases(out)
    return out


# What each world's libc accepts for LC_CTYPE, with the codeset of each: the content
# utf8env/_worlds.py builds (tests/test_worlds.py checks it on the real libc).
# test_policy_corpus.py gives these facts to decide(); the ground truth asks the libc.
_C_UTF8 = {"C.UTF-8": "UTF-8", "C.utf8": "UTF-8"}
WORLD_LOCALES = {
    "installed": dict(_C_UTF8),
    "no-locales": {},
    "en_US-only": {"en_US.UTF-8": "UTF-8", "en_US.utf8": "UTF-8"},
    "latin1": dict(_C_UTF8, **{"en_US.ISO-8859-1": "ISO-8859-1", "en_US.iso88591": "ISO-8859-1"}),
    "gb18030": dict(_C_UTF8, **{"zh_CN.GB18030": "GB18030", "zh_CN.gb18030": "GB18030"}),
}
