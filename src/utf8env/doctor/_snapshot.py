"""Here against there: `--save FILE` writes this place's doctor object (the --json one,
with the locale, Python and context variables of its environment, and nothing else of
it); `--compare FILE` says what differs between that place and this one, and which
difference explains the failure.

"Explains" is a counterfactual asked of the engine, not a guess: each variable that
differs is given, here, the value it had there (the libc here asked about the new
names), the diagnosis made again, and the change that removes the most problems is the
one that explains them.

A snapshot is input from anywhere (another machine, a hand edit, a hostile file): load()
reads only a regular file, at most MAX_BYTES of it, and checks it whole against the
schema --save writes (SNAPSHOT) before compare() touches it; everything else is one
line and status 2. File names are shown as the rest of the CLI shows text.
"""
from .._errors import UsageError
from .._output import for_terminal, shown
from . import _render as render
from ._verdict import text
from . import _diagnose as diagnosing, _finding_records as finding_records
from . import _locale_state as locale_state
from ._place import _probe
from .._engine.textnames import codec_name
from .._userfile import Unreadable, json_kind, read_bounded

_COMPARED = ("verdict", "problems")
# A snapshot is a few kB (the kept variables, the findings, one entry per Python); a file
# larger than this is not one, and /dev/zero is not read without end.
MAX_BYTES = 1 << 20
# The variables a snapshot's environ may hold (render.kept_environ's: the locale's,
# PYTHON*, a few more), each one compared by diagnosing this place again: far more than
# any environment has.
MAX_VARIABLES = 256
_ACCEPTED = "expected the JSON object `utf8env doctor --save FILE` writes, \"schema\": 1"


def _named(path):
    """A file name as the rest of the CLI shows it: undecodable bytes as \\xNN, control
    characters too (a name must not drive the reader's terminal)."""
    return for_terminal(shown(path))


def save(path, data):
    import json
    import os
    try:
        # O_NONBLOCK: a FIFO nobody reads is refused (ENXIO) instead of blocking for ever;
        # once open, writes wait as usual (a FIFO's reader takes 64 kB at a time).
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK, 0o666)
        os.set_blocking(fd, True)
        with open(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(json.dumps(data, indent=2) + "\n")
    except (OSError, ValueError) as error:
        raise UsageError("--save %s: cannot write it (%s)" % (
            _named(path), getattr(error, "strerror", None) or error))


def load(path):
    """The snapshot in `path`, checked whole against the schema --save writes (SNAPSHOT);
    UsageError, one line, for anything else: a file that is not regular (a FIFO, a
    device), larger than MAX_BYTES, not JSON, nested too deep, not a schema-1 doctor
    object, or one with a value of the wrong type at any depth."""
    import json
    data = _read(path)
    try:
        data = json.loads(data.decode("utf-8", "surrogateescape"))
    except RecursionError:
        raise UsageError("--compare %s: not a utf8env doctor snapshot (nested too deeply; %s)"
                         % (_named(path), _ACCEPTED))
    except ValueError:
        data = None
    if not isinstance(data, dict) or type(data.get("schema")) is not int \
            or data.get("schema") != render.SCHEMA \
            or any(key not in data for key in _REQUIRED):
        raise UsageError("--compare %s: not a utf8env doctor snapshot (%s)" % (
            _named(path), _ACCEPTED))
    wrong = _wrong(data, SNAPSHOT, ()) or _wrong_environ(data["environ"])
    if wrong is not None:
        raise UsageError("--compare %s: not a utf8env doctor snapshot (%s is %s; %s)" % (
            _named(path), _named(_path(wrong[0])), wrong[1], _ACCEPTED))
    return data


def _wrong_environ(environ):
    """(where, what is wrong) of a variable --save does not keep, or of more variables
    than MAX_VARIABLES; else None. compare() diagnoses this place again for each variable
    that differs (a child asks the libc each time): what it is given is bounded."""
    kept = render.kept_environ(environ)
    for name in environ:
        if name not in kept:
            return ("environ", name), "a variable --save does not keep"
    if len(environ) > MAX_VARIABLES:
        return ("environ",), "an object of %d variables, more than the %d --compare reads" % (
            len(environ), MAX_VARIABLES)
    return None


def _read(path):
    """At most MAX_BYTES of the regular file `path` (_userfile.read_bounded), or the
    one line that says why not."""
    try:
        return read_bounded(path, MAX_BYTES)
    except Unreadable as error:
        if error.reason == "not regular":
            raise UsageError("--compare %s: not a regular file (%s)" % (_named(path), _ACCEPTED))
        if error.reason == "too large":
            raise UsageError("--compare %s: larger than %d bytes, which no snapshot is (%s)" % (
                _named(path), MAX_BYTES, _ACCEPTED))
        raise UsageError("--compare %s: cannot read it (%s)" % (_named(path), error.detail))


# -- the schema --save writes (render.to_object) ---------------------------------------
# A type (a tuple: any of them); Null(t): that or null; [t]: a list of t; Map(t): an
# object of any keys, each a t; {key: t}: an object with those keys, of those types (any
# other key is left alone: a later schema-1 writer may add one), Optional(t) the keys
# added since schema 1 began.


class Null(object):
    def __init__(self, inner):
        self.inner = inner


class Map(object):
    def __init__(self, inner):
        self.inner = inner


class Optional(object):
    """A key a snapshot written before it was added lacks (checked where present)."""
    def __init__(self, inner):
        self.inner = inner


_SCALAR = (str, int, bool, float, type(None))   # a value compare() only shows
_STRINGS = [str]
_STREAM = Null({"encoding": Null(str), "errors": Null(str)})
SNAPSHOT = {
    "schema": int, "verdict": str, "problems": int,
    "findings": [{"code": str, "severity": str, "title": str, "evidence": _STRINGS,
                  "shared": Optional(Null(str)),
                  "fixes": [{"option": int, "where": str, "context": str,
                             "lines": _STRINGS}]}],
    "contexts": [{"name": str, "summary": str, "evidence": _STRINGS}],
    "locale": {"variables": Map(str), "decided_by": Null(str), "lc_ctype": Null(str),
               "codeset": Null(str),
               "missing": [{"variable": str, "value": str, "spellings": _STRINGS,
                            "utf8_variants": _STRINGS}],
               "utf8_locale": Null(str), "available": Map(Null(str))},
    "pythons": [{"path": Null(str), "version": Null(str), "sources": _STRINGS,
                 "commands": _STRINGS, "identified": Null(str), "error": Null(str),
                 "prediction": Null({
                     "startup_error": Null({"message": str, "exit_code": int}),
                     "utf8_mode": (bool, int), "lc_ctype": Null(str),
                     "filesystem": _STREAM, "stdin": _STREAM, "stdout": _STREAM,
                     "stderr": _STREAM, "open": _STREAM, "preferred_encoding": Null(str),
                     "print": str, "names": str, "open_write": str,
                     "pep686": [{"field": str, "now": _SCALAR, "with_3.15": _SCALAR}]}),
                 "embedded": Null({"host": str, "process": int, "kind": Null(str),
                                   "binary": Null(str), "library": Null(str)})}],
    "tools": [{"name": str, "message": str, "when": str}],
    "distribution": Null(str),
    "environ": Map(str),
}
# Without these it is no doctor snapshot at all (said without naming what is missing).
_REQUIRED = ("schema", "verdict", "environ")


def _wrong(value, schema, where):
    """(where, what is wrong there) of the first value not of its type or key missing,
    or None. Goes no deeper than the schema: what lies below a value it does not
    describe is never visited."""
    if isinstance(schema, Optional):
        return _wrong(value, schema.inner, where)
    if isinstance(schema, Null):
        if value is None:
            return None
        found = _wrong(value, schema.inner, where)
        if found is not None and found[0] == where:     # this value itself: null was fine too
            return where, found[1] + " or null"
        return found
    if isinstance(schema, list):
        if not isinstance(value, list):
            return where, "%s, not a list" % _kind(value)
        for index, item in enumerate(value):
            found = _wrong(item, schema[0], where + (index,))
            if found is not None:
                return found
        return None
    if isinstance(schema, (dict, Map)):
        if not isinstance(value, dict):
            return where, "%s, not an object" % _kind(value)
        if isinstance(schema, dict):
            for key in schema:
                if key not in value and not isinstance(schema[key], Optional):
                    return where + (key,), "missing"
        for key, item in value.items():
            inner = schema.inner if isinstance(schema, Map) else schema.get(key)
            found = None if inner is None else _wrong(item, inner, where + (key,))
            if found is not None:
                return found
        return None
    types = schema if isinstance(schema, tuple) else (schema,)
    # JSON's true and false are not its numbers (bool is int's subclass in Python).
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        return where, "%s, not %s" % (_kind(value), _expected(types))
    return None


def _expected(types):
    if types == _SCALAR:
        return "a string, a number, true, false or null"
    names = {str: "a string", int: "an integer", bool: "true or false"}
    return " or ".join(names[t] for t in types)


def _kind(value):
    return json_kind(value)


def _path(where):
    """contexts[0].name, environ.LANG, environ["A B"]: where a value is, as one line."""
    import json
    import re
    out = ""
    for part in where:
        if isinstance(part, int):
            out += "[%d]" % part
        elif re.match(r"\A[A-Za-z_][A-Za-z0-9_.-]*\Z", part):
            out += ("." if out else "") + part
        else:
            out += "[%s]" % json.dumps(part)
    return out


def compare(there, place, diagnosis):
    """{"differences": [...], "explains": [...]} between the snapshot `there` and here."""
    here = render.to_object(place, diagnosis)
    differences = []
    names = sorted(set(there["environ"]) | set(here["environ"]))
    for name in names:
        a, b = there["environ"].get(name), here["environ"].get(name)
        if a != b:
            differences.append({"what": name, "there": a, "here": b})
    for key, label in (("contexts", "contexts"),):
        a = [c.get("name") for c in there.get(key, []) if isinstance(c, dict)]
        b = [c["name"] for c in here[key]]
        if a != b:
            differences.append({"what": label, "there": ", ".join(a), "here": ", ".join(b)})
    # The locale as set (not the variable LC_CTYPE, compared above), and whether a UTF-8
    # locale exists at all (which locales the libc has).
    for key, label in (("lc_ctype", "locale set (LC_CTYPE)"), ("codeset", "its codeset"),
                       ("utf8_locale", "a UTF-8 locale")):
        a, b = (there.get("locale") or {}).get(key), here["locale"][key]
        if a != b:
            differences.append({"what": label, "there": a, "here": b})
    theirs = {p.get("path"): p for p in there.get("pythons", []) if isinstance(p, dict)}
    for python in here["pythons"]:
        other = theirs.get(python["path"])
        if other is None or not python["prediction"] or not other.get("prediction"):
            continue
        for key in ("stdout", "print"):
            a, b = _short(other["prediction"].get(key)), _short(python["prediction"][key])
            if a != b:
                differences.append({"what": "%s %s" % (python["path"], key), "there": a,
                                    "here": b})
    for key in _COMPARED:
        if there.get(key) != here[key]:
            differences.append({"what": key, "there": there.get(key), "here": here[key]})
    explains = []
    now = finding_records.problems(diagnosis.findings)
    for entry in differences:
        name = entry["what"]
        if name not in there["environ"] and name not in here["environ"]:
            continue
        environ = dict(place.environ)
        if entry["there"] is None:
            environ.pop(name, None)
        else:
            environ[name] = entry["there"]
        after = finding_records.problems(diagnosing.diagnose(_moved(place, environ)).findings)
        if after < now:
            explains.append({"what": name, "there": entry["there"], "here": entry["here"],
                             "problems_here": now, "problems_with_it": after})
    explains.sort(key=lambda e: e["problems_with_it"])
    return {"differences": differences, "explains": explains}


def _short(value):
    """A prediction's encoding/errors, the encoding by its codec name: 3.11 spells UTF-8
    "utf-8" where 3.10 says "UTF-8", which is no difference."""
    if isinstance(value, dict):
        encoding = value.get("encoding")
        if isinstance(encoding, str):
            encoding = codec_name(encoding)
        return "%s/%s" % (encoding, value.get("errors"))
    return value


def _moved(place, environ):
    """`place` with another environment: the libc asked about its names."""
    return place._replace(environ=environ,
                          facts=_probe(environ, locale_state.names_to_ask(environ)))


def to_text(path, result, problems_here):
    lines = ["", "compared with %s (there) and this place (here):" % _named(path)]
    if not result["differences"]:
        lines.append("  no difference")
    width = max([len(_named(d["what"])) for d in result["differences"]] + [0])
    for d in result["differences"]:
        lines.append("  %-*s  there: %s" % (width, _named(d["what"]), _value(d["there"])))
        lines.append("  %-*s  here:  %s" % (width, "", _value(d["here"])))
    for e in result["explains"]:
        lines.append("explains: %s (there %s, here %s): with the value it has there, this place "
                     "has %d problem%s instead of %d" % (
                         e["what"], _value(e["there"]), _value(e["here"]), e["problems_with_it"],
                         "" if e["problems_with_it"] == 1 else "s", e["problems_here"]))
    if result["differences"] and not result["explains"]:
        lines.append("explains: no single difference of the environment removes a problem here"
                     if problems_here else "explains: nothing: there is no problem here")
    # Names and values from the snapshot as the rest of the page shows text (_named).
    return "\n".join(for_terminal(text(line)) for line in lines) + "\n"


def _value(value):
    return "(unset)" if value is None else value
