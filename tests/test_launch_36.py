"""CPython 3.6 through the launcher, against what the corpus says 3.7 does.

Every corpus case ported from CPython's Lib/test/test_c_locale_coercion.py and
Lib/test/test_utf8_mode.py that applies to 3.7 runs, in its own locale world, as

    utf8env run -- python3.6 OPTIONS -c PROBE     (the checkout's launcher, started as installed)

with the case's environment, and its report is compared with the case's (3.7)
expectation. The launcher coerces the locale itself (PEP 538) and gives the UTF-8 mode
(PEP 540, by 3.7's rules) through the bootstrap sitecustomize, so every field must
agree, except where a running 3.6 cannot show what 3.7 shows: those differences are the
rules of known_difference(), each explained in KNOWN_DIFFERENCES, and each must really
occur (a rule that never fires is an error too: it would hide a future regression).

`pytest -s` prints the cases run per world and a table of the differences.
"""
import collections

import pytest

import corpus
from support import groundtruth, machine
from utf8env import _worlds as worlds
from utf8env._engine import cmdline
from utf8env import _probe as probe
from utf8env._own_command import own_command

# As installed (-I -S: the launcher's own interpreter must not read the PYTHON* variables
# of the case), from this checkout.
LAUNCHER = own_command() + ["run", "--"]
SOURCES = ("Lib/test/test_c_locale_coercion.py", "Lib/test/test_utf8_mode.py")

# (field, rule) -> why 3.6 through the launcher cannot give the 3.7 value. Shown in the
# summary table; every entry must fire at least once.
KNOWN_DIFFERENCES = {
    ("utf8_mode", "no-sys.flags.utf8_mode"):
        "3.6 has no sys.flags.utf8_mode: the probe reports 0 although the bootstrap "
        "applied the UTF-8 mode (stdio and open() show it)",
    ("utf8_mode", "-E/-I-ignores-PYTHONPATH"):
        "under -E/-I 3.6 ignores PYTHONPATH, so the bootstrap sitecustomize cannot be "
        "injected and the child runs without the UTF-8 mode (the launcher notes it)",
    ("child_environ", "whole-locale"):
        "a locale variable that names a locale the libc lacks gets the coercion's target "
        "too (preconfig.whole_locale): 3.6, as a C program, decodes its command line after "
        "setlocale(LC_ALL, \"\"), which such a variable makes fail; its children inherit "
        "that target where 3.7's keep the missing name",
    ("filesystem", "fixed-at-start-up"):
        "3.6 fixes sys.getfilesystemencoding() at start-up from LC_CTYPE; where no "
        "coercion applies (LC_ALL set, or a non-C locale) it stays the locale's codec, "
        "which the bootstrap's UTF-8 mode cannot change",
}


def _py36():
    return [machine.python("3.6")]


def selected_cases():
    return [case for case in corpus.cases()
            if case.source.startswith(SOURCES) and corpus.version_in("3.7", case.versions)]


# -- The rules ------------------------------------------------------------------------------

def _same(field, a, b):
    return groundtruth.normal(field, a) == groundtruth.normal(field, b)


def _ignores_environment(case):
    return cmdline.parse(list(case.options), (3, 6)).ignore_environment


def _shows_utf8_mode(case, observed):
    """The marks of the UTF-8 mode that a 3.6 never shows by itself: stdin/stdout
    utf-8 with surrogateescape (3.6 alone gives surrogateescape only in the C locale,
    and then with its ascii codec), stderr utf-8/backslashreplace, open() in UTF-8.
    Only claimed without PYTHONIOENCODING, which would decide stdio instead."""
    if case.env.get("PYTHONIOENCODING") and not _ignores_environment(case):
        return False
    return (_same("stdin", observed.get("stdin"), ("utf-8", "surrogateescape"))
            and _same("stdout", observed.get("stdout"), ("utf-8", "surrogateescape"))
            and _same("stderr", observed.get("stderr"), ("utf-8", "backslashreplace"))
            and _same("open", observed.get("open"), ("utf-8", "strict")))


def _codec_of_locale(world, lc_ctype):
    """The codec 3.6 derives from the world's LC_CTYPE locale `lc_ctype` (the world's
    locales are corpus.WORLD_LOCALES), or None."""
    from utf8env._engine.textnames import codec_name
    if lc_ctype in ("C", "POSIX"):
        return "ascii"
    codeset = corpus.WORLD_LOCALES[world].get(lc_ctype)
    return codec_name(codeset) if codeset else None


def known_difference(case, field, expected, observed):
    """The key of KNOWN_DIFFERENCES explaining why `field` of `case` differs from its
    3.7 value `expected`, given the whole `observed` report of the run; None when no
    rule explains it (a bug, or a new limit to understand first)."""
    got = observed.get(field)
    if field == "utf8_mode" and expected == 1 and got == 0 and observed.get("exit_code") == 0:
        # 3.7 runs in the UTF-8 mode (-X utf8, PYTHONUTF8=1, the POSIX locale). The probe
        # reads getattr(sys.flags, "utf8_mode", 0): always 0 on 3.6. What the mode
        # changes must be visible instead ...
        if _shows_utf8_mode(case, observed):
            return ("utf8_mode", "no-sys.flags.utf8_mode")
        # ... except under -E/-I, where 3.6 never reads PYTHONPATH: the launcher cannot
        # inject the bootstrap at all (3.6's own stdio is what is seen).
        if _ignores_environment(case) and not _shows_utf8_mode(case, observed):
            return ("utf8_mode", "-E/-I-ignores-PYTHONPATH")
    if field == "child_environ" and isinstance(expected, dict) and isinstance(got, dict):
        changed = {name for name in set(expected) | set(got) if expected.get(name) != got.get(name)}
        target = expected.get("LC_CTYPE")
        if target and changed and all(
                name.startswith(("LANG", "LC_")) and name != "LC_ALL" and got.get(name) == target
                and case.env.get(name) not in (None, "", "C", "POSIX") for name in changed):
            return ("child_environ", "whole-locale")
    if field == "filesystem" and _same(field, expected, ("utf-8", "surrogateescape")):
        # 3.7's UTF-8 mode makes the filesystem encoding utf-8 whatever the locale. 3.6
        # computes it once, before site (and so the bootstrap) runs, from LC_CTYPE: when
        # the child's LC_CTYPE is not a UTF-8 locale (the launcher could not coerce:
        # LC_ALL=C/POSIX wins over LC_CTYPE, or the locale is a real non-C one, which
        # neither 3.7 nor the launcher coerces) the encoding is that locale's codec.
        lc_ctype = observed.get("lc_ctype")
        codec = _codec_of_locale(case.world, lc_ctype)
        if codec and codec != "utf-8" and _same(field, got, (codec, "surrogateescape")):
            return ("filesystem", "fixed-at-start-up")
    return None


# -- Running --------------------------------------------------------------------------------

def run_all():
    """(cases by world, [(case, observed)]), one worlds.run() per world with all its jobs."""
    py36 = _py36()
    by_world = collections.OrderedDict()
    for case in selected_cases():
        by_world.setdefault(case.world, []).append(case)
    runs = []
    for world, cases in by_world.items():
        jobs = [worlds.Job(LAUNCHER + probe.command(py36, case.options), dict(case.env),
                           timeout=60) for case in cases]
        results = worlds.run(world, jobs, ["/"])     # host jobs only
        runs += [(case, groundtruth.observe(result, case.env))
                 for case, result in zip(cases, results)]
    return by_world, runs


def _short(value, limit=240):
    text = repr(value)
    return text if len(text) <= limit else text[:limit // 2] + " ... " + text[-limit // 2:]


@pytest.fixture(scope="module")
def outcome():
    _py36()
    machine.worlds()
    by_world, runs = run_all()
    explained, unexplained = collections.Counter(), []
    for case, observed in runs:
        for field, want, got in groundtruth.differences(case.expect, observed):
            rule = known_difference(case, field, want, observed)
            if rule is None:
                unexplained.append((case, field, want, got))
            else:
                explained[rule] += 1
    print()
    print("3.6 through the launcher vs 3.7, cases run per world:")
    for world, cases in by_world.items():
        print("  %-12s %3d" % (world, len(cases)))
    print("  %-12s %3d" % ("total", sum(len(c) for c in by_world.values())))
    print("differences:")
    print("  %-16s %-28s %5s" % ("field", "rule", "count"))
    for (field, rule) in KNOWN_DIFFERENCES:
        print("  %-16s %-28s %5d" % (field, rule, explained[(field, rule)]))
    unexplained_fields = collections.Counter(field for _, field, _, _ in unexplained)
    for field, count in sorted(unexplained_fields.items()):
        print("  %-16s %-28s %5d" % (field, "UNEXPLAINED", count))
    return explained, unexplained


def test_every_difference_is_explained(outcome):
    _, unexplained = outcome
    # Grouped by what differs, so that one cause reads as one block.
    groups = collections.OrderedDict()
    for case, field, want, got in unexplained:
        key = (field, repr(groundtruth.normal(field, want)), repr(groundtruth.normal(field, got)))
        groups.setdefault(key, []).append(case.name)
    lines = []
    for (field, want, got), names in groups.items():
        lines.append("%s: expected (3.7) %s, observed (3.6 + launcher) %s, in %d case(s):"
                     % (field, _short(want), _short(got), len(names)))
        lines += ["    " + name for name in names]
    assert not unexplained, "%d unexplained differences:\n%s" % (len(unexplained), "\n".join(lines))


def test_every_known_difference_occurs(outcome):
    explained, _ = outcome
    dead = [key for key in KNOWN_DIFFERENCES if not explained[key]]
    assert not dead, "rules that explain nothing (remove them): %s" % dead
