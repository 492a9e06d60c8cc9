"""Locale worlds, shared by `utf8env matrix` and `utf8env readiness`: real glibc locales
added to, or hidden from, what real interpreters see, made without root where the kernel
allows it. Private: utf8env's own subcommands use it; nothing here is a documented API.

    catalog.py   the worlds and their locales, as data (the Windows code-page stand-ins too)
    build.py     localedef into the user's cache ($XDG_CACHE_HOME/utf8env/locales), reused
    access.py    how each world is entered here: LOCPATH, a user namespace, root's mount
                 namespace, or why it cannot be
    jobs.py      jobs run in a world by _child/world_runner.py, in parallel, with timeouts
    env_sets.py  the environments a program runs in: the PEP reproduction's rows, each a
                 set of concrete environments, and the named sets of the program mode
    cells.py     a run's sandbox: its own folder, a command line built from its
                 Environment, what a finished run shows (a UnicodeError's last line)
"""
from .access import LOCPATH, MOUNT, NONE, USERNS, Way, way
from .catalog import WINDOWS, WINDOWS_NOTE, WORLD, WORLDS, World, world
from .jobs import (Job, Result, Run, added_environ, available, prepare, problems, run, run_batches,
                   world_dir)
from .._errors import WorldError

__all__ = ["LOCPATH", "MOUNT", "NONE", "USERNS", "Way", "way", "WINDOWS", "WINDOWS_NOTE",
           "WORLD", "WORLDS", "World", "world", "Job", "Result", "Run", "added_environ", "available",
           "prepare", "problems", "run", "run_batches", "world_dir", "WorldError"]
