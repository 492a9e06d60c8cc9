"""The environment this process was started with.

os.environ is not it: a CPython 3.7+ running utf8env in the C locale has already
coerced itself and exported LC_CTYPE=C.UTF-8 into its own environment before any of our
code runs. Predicting or launching from that would describe a coerced world, and a
Python child would lose the UTF-8 mode it would have had. On Linux the kernel keeps
the environment as it was passed to execve() in /proc/self/environ; setenv() never
writes there.
"""
import os


def inherited():
    """The environment as passed to this process, as a dict of str (surrogate escapes
    for undecodable bytes); os.environ where /proc is not available."""
    try:
        with open("/proc/self/environ", "rb") as f:
            data = f.read()
    except OSError:
        return dict(os.environ)
    environ = {}
    for entry in data.split(b"\0"):
        name, sep, value = entry.partition(b"=")
        if sep and name:
            environ.setdefault(os.fsdecode(name), os.fsdecode(value))
    return environ
