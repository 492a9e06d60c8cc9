"""The generated half of the ground truth: combinations of locale variables, coercion,
UTF-8 mode and PYTHONIOENCODING settings, each run in every world and under every
interpreter, where decide() must agree with the real interpreter field by field.
The hand-written half (expectations stated up front) is tests/corpus.py."""

# Per world: a UTF-8 locale and a non-UTF-8 locale that exist there (or, where none
# exists, the name a user would try: it then behaves as a missing locale).
_UTF8 = {"en_US-only": "en_US.UTF-8"}
_LEGACY = {"gb18030": "zh_CN.GB18030"}
MISSING = "xx_YY.UTF-8"


def locale_values(world):
    return ("C", "POSIX", _UTF8.get(world, "C.UTF-8"), _LEGACY.get(world, "en_US.ISO-8859-1"), MISSING)


def locale_environments(world):
    """No variable, each variable alone with each kind of value, and mixtures that show
    the LC_ALL > LC_CTYPE > LANG order and empty values."""
    c, posix, utf8, legacy, missing = locale_values(world)
    envs = [{}]
    for variable in ("LC_ALL", "LC_CTYPE", "LANG"):
        for value in (c, posix, utf8, legacy, missing):
            envs.append({variable: value})
    envs += [
        {"LC_CTYPE": c, "LANG": utf8},
        {"LC_CTYPE": utf8, "LANG": c},
        {"LC_ALL": utf8, "LC_CTYPE": c},
        {"LC_ALL": c, "LANG": utf8},
        {"LC_ALL": "", "LANG": c},
        {"LC_ALL": "", "LC_CTYPE": "", "LANG": ""},
        {"LC_CTYPE": legacy, "LANG": c},
        {"LC_ALL": missing, "LANG": utf8},
        {"LC_CTYPE": c, "LC_MESSAGES": utf8},
    ]
    return envs


COERCE = (None, "0", "1", "warn")
UTF8_CONTROLS = (
    ((), {}), (("-X", "utf8"), {}), (("-X", "utf8=0"), {}), (("-X", "utf8=1"), {}),
    (("-X", "utf8=strict"), {}), (("-X", "utf8="), {}), (("-Xutf8",), {}),
    ((), {"PYTHONUTF8": "1"}), ((), {"PYTHONUTF8": "0"}), ((), {"PYTHONUTF8": "strict"}),
    ((), {"PYTHONUTF8": "bogus"}), ((), {"PYTHONUTF8": ""}),
    (("-X", "utf8"), {"PYTHONUTF8": "0"}), (("-X", "utf8=0"), {"PYTHONUTF8": "1"}),
    (("-X", "utf8=0", "-X", "utf8"), {}), (("-X", "utf8", "-X", "utf8=bogus"), {}),
    (("-X", "UTF8"), {}),
)
FLAGS = ((), ("-E",), ("-bI",))
PYTHONIOENCODING = ("latin1", "latin1:replace", ":replace", ":", "utf-8:", "UTF8",
                    "latin-1:strict:extra", "ascii:namereplace", "bogus_codec", "rot13")


def cases(world):
    """[(env, options)] for one world, without duplicates."""
    seen, out = set(), []

    def add(env, options):
        key = (tuple(sorted(env.items())), tuple(options))
        if key not in seen:
            seen.add(key)
            out.append((env, tuple(options)))

    envs = locale_environments(world)
    short = [{}, {"LANG": "C"}, {"LC_ALL": "C"}, {"LANG": locale_values(world)[2]},
             {"LANG": locale_values(world)[3]}]
    # Locale variables x PYTHONCOERCECLOCALE x the three UTF-8 mode states.
    for env in envs:
        for coerce in COERCE:
            for options, extra in (((), {}), (("-X", "utf8=0"), {}), ((), {"PYTHONUTF8": "1"})):
                full = dict(env, **extra)
                if coerce is not None:
                    full["PYTHONCOERCECLOCALE"] = coerce
                add(full, options)
    # UTF-8 mode controls x -E/-I, in a few locales, with coercion on and off.
    for env in short:
        for options, extra in UTF8_CONTROLS:
            for flags in FLAGS:
                add(dict(env, **extra), flags + options)
                if not flags:
                    add(dict(env, PYTHONCOERCECLOCALE="0", **extra), flags + options)
    # PYTHONIOENCODING against UTF-8 mode and the legacy C locale.
    for env in short:
        for value in PYTHONIOENCODING:
            for options, extra in (((), {}), (("-X", "utf8"), {}), ((), {"PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}),
                                   (("-E",), {})):
                add(dict(env, PYTHONIOENCODING=value, **extra), options)
    # A usage error stops start-up before any configuration is read.
    add({"LANG": "C", "PYTHONUTF8": "bogus"}, ("-z",))
    add({"LANG": "C", "PYTHONCOERCECLOCALE": "warn"}, ("-E", "-X", "utf8", "-z"))
    add({"LANG": "C", "PYTHONCOERCECLOCALE": "warn"}, ("-X", "utf8=bogus", "--bogus"))
    # Empty and odd PYTHONCOERCECLOCALE values are "not 0": coercion, silently.
    for value in ("", "WARN", "true"):
        add({"LANG": "C", "PYTHONCOERCECLOCALE": value}, ())
    return out
