"""What doctor's modules hand one another, below them all (pure): the Context and Fix
records, which the modules of each kind of place (_sessions.py, _servers.py) make for the
ones that detect contexts (_contexts.py) and write fixes (_fixes.py), so that those two
import the places' modules and never the reverse; the Tool record, which _programs.py
makes for _diagnose.py (explain's verdict imports this module, not _programs.py); the
NAME=VALUE files they read, and the lines a shell's start-up file takes.
"""
from .._engine.records import Record, field


class Context(Record):
    name = field()              # one of _contexts.CONTEXTS
    summary = field()           # "ssh session from 10.0.0.2"
    evidence = field()          # ("SSH_CONNECTION=...", ...)
    details = field()           # {str: value} the fixes need (unit, accepted variables...)


class Fix(Record):
    where = field()             # "~/.ssh/config on the ssh client", ...
    lines = field()             # exactly what to write or run
    context = field()           # the context name it is for ("shell", "ssh", ...)
    option = field(1)           # fixes of one option are all needed; options are alternatives
    target = field(None)        # what `doctor --fix` may change for it: ("top"|"end", "~/FILE")
                                # for a start-up file, ("crontab", None); None: not the user's
    changes = field(())         # the variables its option gives a new process (Remedy.changes)


class Tool(Record):
    """A program other than Python that warns in this place."""
    name = field()              # "perl", "bash"
    message = field()           # what it prints
    when = field()              # when it prints it


def parse_assignments(text):
    """{name: value} of a NAME=VALUE file (/etc/default/locale, /etc/locale.conf)."""
    out = {}
    for line in (text or "").splitlines():
        line = line.strip()
        if line.startswith("export "):
            line = line[7:].strip()
        name, sep, value = line.partition("=")
        if sep and name and not name.startswith("#") and name.replace("_", "").isalnum():
            out[name] = value.strip().strip("\"'")
    return out


# -- a shell's start-up file ---------------------------------------------------------------

def _quote(value):
    from .._shellquote import quote
    return quote(value)


def shell_lines(changes, shell):
    """The lines that make `changes` in `shell` (a path or a name): fish's, or sh's."""
    if shell.endswith("fish"):
        lines = tuple("set -gx %s %s" % (n, _quote(v)) if v is not None else "set -e %s" % n
                      for n, v in changes)
        names = [n for n, _ in changes]
        if "LANG" in names and "LC_CTYPE" not in names:
            # fish (3.6, __fish_set_locale) started with no locale variable exports
            # LC_CTYPE=en_US.UTF-8 of its own before config.fish runs: it would beat LANG
            # (measured: tests/test_doctor_places.py).
            lines = ("set -e LC_CTYPE",) + lines
        return lines
    return tuple("export %s=%s" % (n, _quote(v)) if v is not None else "unset %s" % n
                 for n, v in changes)


# Where each shell's every start reads the user's settings. Debian's stock ~/.bashrc
# returns at once when the shell is not interactive ("If not running interactively,
# don't do anything"): a line below that guard never reaches `ssh host command`, which
# bash runs non-interactively after reading ~/.bashrc; at its top it does, and login
# shells get it too (Debian's ~/.profile reads ~/.bashrc). zsh reads ~/.zshenv at every
# start (zsh -c too), but $ZDOTDIR/.zshenv instead where ZDOTDIR is set when it starts,
# and not that one where ~/.zshenv sets ZDOTDIR: both, where it is set (measured,
# tests/test_doctor_places.py; --fix writes both, _repair.py). sh and dash read only
# ~/.profile, and only as login shells. Only the shells a test started get a line: not
# ksh, mksh, tcsh, csh (which reads no ~/.profile and has no `export`) or any other.
_RC_FILES = {"bash": ("the top of ~/.bashrc (above its \"If not running interactively\" "
                      "line)", ("top", "~/.bashrc")),
             "zsh": ("~/.zshenv (and, where ZDOTDIR is set, $ZDOTDIR/.zshenv too: zsh started "
                     "with ZDOTDIR reads that one instead)", ("end", "~/.zshenv")),
             "fish": ("~/.config/fish/config.fish", ("end", "~/.config/fish/config.fish")),
             "sh": ("~/.profile (login shells)", ("end", "~/.profile")),
             "dash": ("~/.profile (login shells)", ("end", "~/.profile"))}


def for_shell(shell, changes):
    """The Fix for the start-up file of `shell` (a path or a name), or None for a shell no
    test has started."""
    found = _RC_FILES.get(shell.rpartition("/")[2])
    if found is None:
        return None
    return Fix(found[0], shell_lines(changes, shell), "shell", target=found[1])
