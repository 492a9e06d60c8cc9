"""The ground-truth probe, from the parent's side: the command line that runs
_child/probe.py (its source, with -c) under an interpreter, and the reading of its report.
"""
import os

_SOURCE = []    # the probe's source, read once


def source():
    """The probe's program (utf8env/_child/probe.py), as `python -c` runs it."""
    if not _SOURCE:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_child", "probe.py")
        with open(path, encoding="ascii") as f:
            _SOURCE.append(f.read())
    return _SOURCE[0]


def command(python, options=()):
    """The command line that runs the probe under `python` (a list) with `options`."""
    return list(python) + list(options) + ["-c", source()]


def parse(stdout):
    """The report from the probe's stdout bytes, or None when it printed none."""
    import json
    for line in stdout.splitlines():
        if line.startswith(b"{"):
            return json.loads(line.decode("ascii"))
    return None


def exit_status(returncode):
    """The exit status as a shell shows it: death by signal N is 128 + N."""
    return 128 - returncode if returncode < 0 else returncode


__all__ = ["source", "command", "parse", "exit_status"]
