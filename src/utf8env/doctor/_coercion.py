"""A parent CPython's PEP 538 coercion, from evidence (pure: from a place.Place).

CPython 3.7+ started in the C locale (LANG, LC_ALL and LC_CTYPE giving C or POSIX, LC_ALL
empty) exports LC_CTYPE set to the first coercion target its libc has
(Python/pylifecycle.c _Py_CoerceLegacyLocale; utf8env._engine.preconfig.SHIPPED_TARGETS),
and every program it starts gets that LC_CTYPE: Ansible's `command` module runs doctor
so under LANG=C. The value is the parent's doing, not the place's: doctor diagnoses the
variables the place gave instead, and says so. Recognised only where the parent process
is a Python (its /proc/PID/exe, else its command line) and, where /proc/PID/environ can
be read, the parent was not started with that LC_CTYPE itself.
"""
import re

from .._engine.preconfig import C_LOCALE_NAMES, SHIPPED_TARGETS
from .._engine.records import Record, field

# CPython's executables: python, python3, python3.11, python3.13t, python3.11d.
_PYTHON = re.compile(r"^python(\d+(\.\d+)?)?[a-z]*$")
# 3.6 has no coercion (PEP 538 is 3.7's).
_BEFORE_PEP538 = ("python2", "python3.6")


class Coercion(Record):
    variable = field()          # "LC_CTYPE"
    value = field()             # the target found in the environment: "C.UTF-8"
    parent = field()            # place.Process: the Python that started this one
    started = field()           # {name: value} of the locale variables it started with,
                                # or None: /proc/PID/environ could not be read
    environ = field()           # the environment with the variable as the parent got it


def parent_coercion(place):
    """The Coercion of the Python that started this process, or None."""
    if not place.ancestors:
        return None
    parent = place.ancestors[0]
    if not is_python(parent):
        return None
    environ, started = place.environ, place.parent_locale
    # The coercion exports the first target the libc has, and no other.
    usable = [t for t in SHIPPED_TARGETS if place.facts.accepts(t[0])]
    if not usable:
        return None
    target, variables, _ = usable[0]
    for variable in variables:
        if environ.get(variable) != target:
            continue
        # A non-empty LC_ALL exempts a start from the coercion; LANG must give C.
        if environ.get("LC_ALL") or environ.get("LANG") not in C_LOCALE_NAMES + ("", None):
            return None
        if started is not None and not _gives_c(started, place.facts, variable, target):
            return None     # the parent's own start was not in the C locale
        before = dict(environ)
        del before[variable]
        if started is not None and started.get(variable) is not None:
            before[variable] = started[variable]
        return Coercion(variable, target, parent, started, before)
    return None


def _gives_c(started, facts, variable, target):
    """Whether the locale variables a Python started with give the C locale, which it
    coerces (PEP 538: LC_ALL empty; LC_CTYPE, else LANG, C, POSIX, unset or a name the
    libc lacks), and not already the target (then it was given, not coerced)."""
    if started.get("LC_ALL") or started.get(variable) == target:
        return False
    value = started.get("LC_CTYPE") or started.get("LANG")
    return value in C_LOCALE_NAMES + ("", None) or not facts.accepts(value)


def _path(process):
    """The program a process runs: /proc/PID/exe, else its argv[0], else its name."""
    return process.exe or (process.argv[0] if process.argv else process.name)


def is_python(process):
    """Whether a process is a CPython 3.7+ (or one whose version its name does not say)."""
    name = _path(process).rpartition("/")[2]
    return bool(_PYTHON.match(name)) and not name.startswith(_BEFORE_PEP538)


def finding_parts(coercion):
    """(title, evidence) of the note that says so."""
    variable, value, parent = coercion.variable, coercion.value, coercion.parent
    given = " ".join("%s=%s" % (n, coercion.environ[n]) for n in ("LC_ALL", "LC_CTYPE", "LANG")
                     if coercion.environ.get(n)) or "no locale variable"
    title = ("%s=%s was set by the parent Python's locale coercion (PEP 538), not by this "
             "place: programs started elsewhere here get %s" % (variable, value, given))
    tried = ", ".join(target for target, _, _ in SHIPPED_TARGETS)
    evidence = [
        "process %d (%s) is the parent and a Python: CPython 3.7+ started in the C locale "
        "exports %s set to the first of %s its libc has" % (
            parent.pid, _path(parent), variable, tried),
        "%s, LC_ALL %s: the C locale that coercion replaces" % (
            "LANG=%s" % coercion.environ["LANG"] if coercion.environ.get("LANG")
            else "LANG unset", "empty" if "LC_ALL" in coercion.environ else "unset")]
    if coercion.started is None:
        evidence.append("/proc/%d/environ could not be read: %s is taken as unset where the "
                        "parent started" % (parent.pid, variable))
    else:
        before = coercion.started.get(variable)
        evidence.append("/proc/%d/environ: the parent was started with %s" % (
            parent.pid, "%s=%s" % (variable, before) if before is not None
            else "%s unset" % variable))
    evidence.append("the other findings are those of %s" % given)
    return title, tuple(evidence)
