"""The CPython command-line parser: what ends the interpreter options, bundled flags,
-X spellings, usage errors. The ground-truth sweep checks the consequences against real
interpreters; these pin the parser itself."""
import pytest

from utf8env._engine import cmdline

# The fast tier (`python3 -m pytest -m fast`): pure, no real interpreters, worlds or daemons.
pytestmark = pytest.mark.fast


@pytest.mark.parametrize("args,ignore_env,isolated,xoptions,rest", [
    (["-E", "-c", "pass"], True, False, (), ("-c", "pass")),
    (["-I", "-c", "pass"], True, True, (), ("-c", "pass")),
    (["-IE"], True, True, (), ()),
    (["-bEX", "utf8", "script.py", "-I"], True, False, ("utf8",), ("script.py", "-I")),
    (["-Xutf8", "-X", "utf8=0", "-m", "mod", "-E"], False, False, ("utf8", "utf8=0"), ("-m", "mod", "-E")),
    (["-cpass", "-E"], False, False, (), ("-c", "pass", "-E")),
    (["-", "-E"], False, False, (), ("-", "-E")),
    (["--", "-E"], False, False, (), ("-E",)),
    (["-W", "error", "-E"], True, False, (), ()),
    (["-Wignore", "-X", "dev", "-E", "x.py"], True, False, ("dev",), ("x.py",)),
    (["--check-hash-based-pycs", "always", "-E"], True, False, (), ()),
])
def test_parse(args, ignore_env, isolated, xoptions, rest):
    line = cmdline.parse(args)
    assert (line.ignore_environment, line.isolated, line.xoptions, line.rest, line.error) == \
        (ignore_env, isolated, xoptions, rest, None)


def test_first_xoption_wins():
    line = cmdline.parse(["-X", "utf8=0", "-X", "utf8", "-X", "UTF8=1"])
    assert line.xoption("utf8") == (True, "0")
    assert cmdline.parse(["-X", "utf8"]).xoption("utf8") == (True, None)
    assert cmdline.parse(["-X", "utf8="]).xoption("utf8") == (True, "")
    assert cmdline.parse(["-X", "UTF8"]).xoption("utf8") == (False, None)


@pytest.mark.parametrize("args,version,error", [
    (["-z"], (3, 13), "Unknown option: -z"),
    (["-Ez"], (3, 13), "Unknown option: -z"),
    (["-X"], (3, 13), "Argument expected for the -X option"),
    (["-c"], (3, 13), "Argument expected for the -c option"),
    (["--bogus"], (3, 13), "unknown option --bogus"),
    (["--bogus"], (3, 6), "Unknown option: --"),
    (["-P"], (3, 10), "Unknown option: -P"),
    (["--help-env"], (3, 10), "unknown option --help-env"),
])
def test_usage_errors(args, version, error):
    assert cmdline.parse(args, version).error == error


def test_flags_before_an_error_still_count():
    # 3.8+ pre-initialisation reads -E and -X before it meets the bad option.
    line = cmdline.parse(["-E", "-X", "utf8", "-z"])
    assert (line.ignore_environment, line.xoptions, line.error) == (True, ("utf8",), "Unknown option: -z")


def test_P_is_a_flag_from_311():
    assert cmdline.parse(["-P", "-E"], (3, 11)).ignore_environment is True
