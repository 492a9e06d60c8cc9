"""The one error tree of utf8env. Library code raises these; cli.main alone prints
`utf8env: error: MESSAGE` and exits with the class's `exit_code`.

The launcher's own failures must never be mistaken for the command's: a command's
status 1, 2, 126 or 127 is passed through, so `run` reports a bad option of its own
with 125 (LaunchUsageError) and a command it cannot start with 126/127, as a shell does.
"""
# The root of the tree is the engine's (it imports nothing of the rest, and raises them).
from ._engine import Utf8envError, UsageError  # noqa: F401


class LauncherError(Utf8envError):
    """`utf8env run` failed on its own account (not the command's): 125."""
    exit_code = 125


class LaunchUsageError(LauncherError, UsageError):
    """Bad input to `utf8env run`: 125, so that the command's own 1, 2, 126, 127 stay its
    own."""


class InterpreterError(UsageError):
    """The named interpreter cannot be run or is not a CPython utf8env can model."""


class CommandNotFound(Utf8envError):
    """The command to launch does not exist (a shell's 127)."""
    exit_code = 127


class NotExecutable(Utf8envError):
    """The command to launch exists but cannot be executed (a shell's 126)."""
    exit_code = 126


class WorldError(Utf8envError):
    """A locale world could not be built, entered or run in (no root, no mount namespace,
    a failed localedef or mount, a runner that died)."""
