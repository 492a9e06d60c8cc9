"""The command line that starts this very copy of utf8env the way the installed
`utf8env` command does (scripts/utf8env): `-I -S`, so that neither the PYTHON* variables
of the environment being tested nor site's .pth files reach utf8env's own interpreter,
and from the folder this package was imported from, so that what runs is this copy and
not whatever other copy an installation put on sys.path."""
import sys

_PACKAGES = __file__.rpartition("/")[0].rpartition("/")[0] or "."
# sys.argv.pop(1) takes the folder back out: utf8env's main() sees only its own arguments.
_START = ("import sys; sys.path.insert(0, sys.argv.pop(1)); from utf8env._cli import main; "
          "sys.exit(main())")


def own_command(python=None):
    """[python, -I, -S, -c, ...]: append utf8env's own arguments ("run", "--", ...)."""
    folder = _PACKAGES
    if not folder.startswith("/"):
        import os
        folder = os.path.abspath(folder)
    return [python or sys.executable, "-I", "-S", "-c", _START, folder]


def installed_command():
    """The words that start this utf8env as the user started it, by absolute path, for a
    line a fix writes (a crontab's PATH is /usr/bin:/bin; a venv's utf8env is on no other
    PATH): the installed command when it started us (utf8env._cli.start records its real
    path), else this interpreter with -m."""
    import os
    cli = sys.modules.get("utf8env._cli")
    command = getattr(cli, "launched_by", None)
    if command and os.access(command, os.X_OK):
        return (os.path.abspath(command),)
    return (os.path.abspath(sys.executable), "-m", "utf8env")
