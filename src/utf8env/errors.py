"""The one error tree of utf8env. Library code raises these; cli.main alone prints
`utf8env: error: MESSAGE` and exits with the class's `exit_code`.

The launcher's own failures must never be mistaken for the command's: a command's
status 1, 2, 126 or 127 is passed through, so `run` reports a bad option of its own
with 125 (LaunchUsageError) and a command it cannot start with 126/127, as a shell does.
"""
import sys


class Utf8envError(Exception):
    """A failure to report to the user as one line; `exit_code` is the status to exit with."""
    exit_code = 1


class UsageError(Utf8envError):
    """Bad input on the command line: an unknown value, a malformed option."""
    exit_code = 2


def _failures():
    """The errors that `utf8env run -- COMMAND` names only when something fails (run's own
    declaration names LaunchUsageError: it is made only for a run given options), where
    the two above are named by the engine and every declaration. A class costs the
    launcher's start-up about 0.08M instructions, so these are made when first named
    (the module's __getattr__ below). __qualname__: their name at the top of this module,
    where pickle and tracebacks look."""

    class LauncherError(Utf8envError):
        """`utf8env run` failed on its own account (not the command's): 125."""
        __qualname__ = "LauncherError"
        exit_code = 125

    class LaunchUsageError(LauncherError, UsageError):
        """Bad input to `utf8env run`: 125, so that the command's own 1, 2, 126, 127 stay its
        own."""
        __qualname__ = "LaunchUsageError"

    class InterpreterError(UsageError):
        """The named interpreter cannot be run or is not a CPython utf8env can model."""
        __qualname__ = "InterpreterError"

    class CommandNotFound(Utf8envError):
        """The command to launch does not exist (a shell's 127)."""
        __qualname__ = "CommandNotFound"
        exit_code = 127

    class NotExecutable(Utf8envError):
        """The command to launch exists but cannot be executed (a shell's 126)."""
        __qualname__ = "NotExecutable"
        exit_code = 126

    class WorldError(Utf8envError):
        """A locale world could not be built, entered or run in (no root, no mount namespace,
        a failed localedef or mount, a runner that died)."""
        __qualname__ = "WorldError"

    return {error.__name__: error for error in (LauncherError, LaunchUsageError, InterpreterError,
                                                CommandNotFound, NotExecutable, WorldError)}


_FAILURES = ("LauncherError", "LaunchUsageError", "InterpreterError", "CommandNotFound",
             "NotExecutable", "WorldError")


_MADE = []      # the one set made (two threads may both make one: the first kept is used)


def __getattr__(name):
    if name not in _FAILURES:
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    if not _MADE:
        _MADE.append(_failures())
    globals().update(_MADE[0])          # then they are ordinary attributes
    return _MADE[0][name]


def __dir__():
    return sorted(set(globals()) | set(_FAILURES))


if sys.version_info < (3, 7):
    class _Module(type(sys)):
        """3.6 reads no module __getattr__ (PEP 562), but a module's class may have one."""
        def __getattr__(self, name):
            return __getattr__(name)

        def __dir__(self):
            return __dir__()

    sys.modules[__name__].__class__ = _Module
