"""The pure rules: decide(Inputs) -> Decision, the version profiles, the
interpreter's command line. Nothing here reads the process (CONTRIBUTING), and nothing here
imports the rest of utf8env: the root of the one error tree, which the engine raises on
input it cannot model, is defined here; _errors.py builds the rest of the tree on it."""


class Utf8envError(Exception):
    """A failure to report to the user as one line; `exit_code` is the status to exit with."""
    exit_code = 1


class UsageError(Utf8envError):
    """Bad input on the command line: an unknown value, a malformed option."""
    exit_code = 2
