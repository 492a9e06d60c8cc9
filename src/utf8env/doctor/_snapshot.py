"""Here against there: `--save FILE` writes this place's doctor object (the --json one,
with the locale, Python and context variables of its environment, and nothing else of
it); `--compare FILE` says what differs between that place and this one, and which
difference explains the failure.

"Explains" is a counterfactual asked of the engine, not a guess: each variable that
differs is given, here, the value it had there (the libc here asked about the new
names), the diagnosis made again, and the change that removes the most problems is the
one that explains them.
"""
from .._errors import UsageError
from . import _render as render
from ._verdict import text

_COMPARED = ("verdict", "problems")


def save(path, data):
    import json
    try:
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(json.dumps(data, indent=2) + "\n")
    except OSError as error:
        raise UsageError("--save %s: cannot write it (%s)" % (path, error.strerror or error))


def load(path):
    import json
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read().decode("utf-8", "surrogateescape"))
    except OSError as error:
        raise UsageError("--compare %s: cannot read it (%s)" % (path, error.strerror or error))
    except ValueError:
        data = None
    if not isinstance(data, dict) or data.get("schema") != render.SCHEMA \
            or not isinstance(data.get("environ"), dict) or "verdict" not in data:
        raise UsageError("--compare %s: not a utf8env doctor snapshot (expected the JSON "
                         "object `utf8env doctor --save FILE` writes, \"schema\": 1)" % path)
    return data


def compare(there, place, diagnosis):
    """{"differences": [...], "explains": [...]} between the snapshot `there` and here."""
    from . import _findings as findings
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
                differences.append({"what": "%s %s" % (python["path"], key), "there": a, "here": b})
    for key in _COMPARED:
        if there.get(key) != here[key]:
            differences.append({"what": key, "there": there.get(key), "here": here[key]})
    explains = []
    now = findings.problems(diagnosis.findings)
    for entry in differences:
        name = entry["what"]
        if name not in there["environ"] and name not in here["environ"]:
            continue
        environ = dict(place.environ)
        if entry["there"] is None:
            environ.pop(name, None)
        else:
            environ[name] = entry["there"]
        after = findings.problems(findings.diagnose(_moved(place, environ)).findings)
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
            from .._child.textnames import codec_name
            encoding = codec_name(encoding)
        return "%s/%s" % (encoding, value.get("errors"))
    return value


def _moved(place, environ):
    """`place` with another environment: the libc asked about its names."""
    from ._place import _probe
    from . import _locale_state as locale_state
    return place._replace(environ=environ, facts=_probe(environ, locale_state.names_to_ask(environ)))


def to_text(path, result, problems_here):
    lines = ["", "compared with %s (there) and this place (here):" % path]
    if not result["differences"]:
        lines.append("  no difference")
    width = max([len(str(d["what"])) for d in result["differences"]] + [0])
    for d in result["differences"]:
        lines.append("  %-*s  there: %s" % (width, d["what"], _value(d["there"])))
        lines.append("  %-*s  here:  %s" % (width, "", _value(d["here"])))
    for e in result["explains"]:
        lines.append("explains: %s (there %s, here %s): with the value it has there, this place "
                     "has %d problem%s instead of %d" % (
                         e["what"], _value(e["there"]), _value(e["here"]), e["problems_with_it"],
                         "" if e["problems_with_it"] == 1 else "s", e["problems_here"]))
    if result["differences"] and not result["explains"]:
        lines.append("explains: no single difference of the environment removes a problem here"
                     if problems_here else "explains: nothing: there is no problem here")
    return "\n".join(text(line) for line in lines) + "\n"


def _value(value):
    return "(unset)" if value is None else value
