"""The one error type of utf8env; cli.main turns it into a message and an exit code."""


class Utf8envError(Exception):
    """A failure to report to the user as one line; `exit_code` is the status to exit with."""
    exit_code = 1


class UsageError(Utf8envError):
    """Bad input on the command line: an unknown value, a malformed option."""
    exit_code = 2


class InterpreterError(UsageError):
    """The named interpreter cannot be run or is not a CPython utf8env can model."""
