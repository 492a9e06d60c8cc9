"""`PYTHON -I -S pinned.py CPU -- COMMAND...`: COMMAND exec'd with this process's CPU
affinity set to CPU alone (os.sched_setaffinity), so that a Wine prefix's wineserver, its
services and every program run in it share one CPU.

Why: every Windows system call that Wine cannot do alone is a round trip to the
wineserver (and, for a file's volume, on to the mount manager in winedevice.exe). When
the client and the server run on two CPUs, each round trip waits for the other CPU to be
woken. Measured on a 2-CPU virtual machine (Wine 8.0, Windows CPython 3.13): an
OpenProcess+CloseHandle pair 163 us unpinned, 9 us pinned; mistune's suite (pytest, fd
capture) 22 s unpinned, 5-6 s pinned.

Where the affinity cannot be set (no os.sched_setaffinity; CPU no longer allowed),
COMMAND runs unpinned: slower, never different.

STANDALONE: standard library only, no relative imports, Python 3.6 syntax.
"""
import os
import sys


def main(argv):
    if len(argv) < 3 or argv[1] != "--" or not argv[0].isdigit():
        sys.stderr.write("usage: pinned.py CPU -- COMMAND...\n")
        return 2
    try:
        os.sched_setaffinity(0, {int(argv[0])})
    except (AttributeError, OSError, ValueError):
        pass
    command = argv[2:]
    try:
        os.execvp(command[0], command)
    except OSError as error:
        sys.stderr.write("%s: %s\n" % (command[0], error))
        return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
