"""doctor's text and its JSON object ("schema": 1, keys in docs/json.md); decides nothing.
The verdict and the findings, which explain prints too, are verdict.py's."""
from ._verdict import text, verdict_lines, verdict_object
from ._findings import without_advice
from ._embedding import call_name, host_name

SCHEMA = 1
# The variables a snapshot keeps besides the locale ones: what decides a Python's text
# and what shows the context. Everything else (tokens, keys) stays out of --save files.
_KEPT = ("PATH", "SHELL", "TERM", "HOME", "LOGNAME", "USER", "LOCPATH", "VIRTUAL_ENV",
         "PYENV_ROOT", "PYENV_VERSION", "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY",
         "INVOCATION_ID", "JOURNAL_STREAM", "CI", "GITHUB_ACTIONS", "GITLAB_CI", "container")


def kept_environ(environ):
    """The part of `environ` doctor reports and saves."""
    return {name: value for name, value in sorted(environ.items())
            if name in _KEPT or name.startswith(("LC_", "PYTHON")) or name in ("LANG", "LANGUAGE")}


def to_text(place, diagnosis, verbose=False, width=None):
    """The verdict and each problem with its first fix; `verbose`: every finding with its
    evidence and every fix, then where this is, the locale, the pythons, other programs.
    `width`: the terminal's, to fold the findings' words to."""
    d = diagnosis
    lines = verdict_lines(d.findings, verbose, width)
    if not verbose:
        return "\n".join(lines) + "\n"
    lines += ["", "where:"]
    for context in d.contexts:
        lines.append("  %-10s %s: %s" % (context.name, text(context.summary),
                                          text("; ".join(context.evidence))))
    lines += ["", "locale:"]
    shown = " ".join("%s=%s" % item for item in d.state.variables) or "no locale variable set"
    lines.append("  variables  %s" % text(shown))
    lines.append("  LC_CTYPE   %s (%s)%s" % (text(d.state.lc_ctype), text(d.state.codeset),
                                             ", from %s" % d.state.decided_by if d.state.decided_by
                                             else ""))
    lines.append("  UTF-8      %s" % (d.state.utf8_locale or "no UTF-8 locale installed"))
    lines += ["", "pythons:"]
    if not d.pythons:
        lines.append("  none found")
    for item in d.pythons:
        lines.append("  " + _python_line(item))
    if d.tools:
        lines += ["", "other programs:"]
        lines += ["  %s %s: %s" % (t.name, t.when, text(t.message)) for t in d.tools]
    return "\n".join(lines) + "\n"


def _python_line(item):
    found, dec, out = item.found, item.decision, item.outcome
    head = "%-5s %s" % (found.version or "?", text(found.path))
    if found.commands:
        head += " (%s on PATH)" % ", ".join(found.commands)
    if item.host is not None:
        head += ", %sin %s process %d" % (
            "%s " % call_name(item.inputs.embedded) if item.inputs is not None else "",
            host_name(item.host), item.host.pid)
    if dec is None:
        return "%s: %s" % (head, text(without_advice(found.error) or found.how))
    if dec.startup_error is not None:
        return "%s: refuses to start (exit %d)" % (head, dec.startup_error.exit_code)
    return "%s: stdout %s/%s, filesystem %s/%s, open() %s; print(\"\u00e9\") %s" % (
        head, dec.stdout.encoding, dec.stdout.errors, dec.filesystem.encoding,
        dec.filesystem.errors, dec.open.encoding, out.print_text)


def _stream(stream):
    return None if stream is None else {"encoding": stream.encoding, "errors": stream.errors}


def to_object(place, diagnosis):
    d = diagnosis
    out = {"schema": SCHEMA}
    out.update(verdict_object(d.findings))
    out["contexts"] = [{"name": c.name, "summary": c.summary, "evidence": list(c.evidence)}
                       for c in d.contexts]
    out["locale"] = {
        "variables": dict(d.state.variables), "decided_by": d.state.decided_by,
        "lc_ctype": d.state.lc_ctype, "codeset": d.state.codeset,
        "missing": [{"variable": m.variable, "value": m.value, "spellings": list(m.spellings),
                     "utf8_variants": list(m.utf8_variants)} for m in d.state.missing],
        "utf8_locale": d.state.utf8_locale,
        "available": dict(sorted(place.facts.codesets.items())),
    }
    out["pythons"] = [_python_object(item) for item in d.pythons]
    out["tools"] = [{"name": t.name, "message": t.message, "when": t.when} for t in d.tools]
    out["distribution"] = d.distribution
    out["environ"] = kept_environ(place.environ)
    return out


def _python_object(item):
    found, dec, out = item.found, item.decision, item.outcome
    data = {"path": found.path, "version": found.version, "sources": list(found.sources),
            "commands": list(found.commands), "identified": found.how, "error": found.error,
            "prediction": None, "embedded": None}
    if item.host is not None:
        data["embedded"] = {"host": host_name(item.host), "process": item.host.pid,
                            "kind": item.inputs.embedded if item.inputs is not None else None,
                            "binary": item.host.binary, "library": item.host.library}
    if dec is not None:
        data["prediction"] = {
            "startup_error": (None if dec.startup_error is None else
                              {"message": dec.startup_error.message,
                               "exit_code": dec.startup_error.exit_code}),
            "utf8_mode": dec.utf8_mode, "lc_ctype": dec.lc_ctype,
            "filesystem": _stream(dec.filesystem), "stdin": _stream(dec.stdin),
            "stdout": _stream(dec.stdout), "stderr": _stream(dec.stderr), "open": _stream(dec.open),
            "preferred_encoding": dec.preferred_encoding,
            "print": out.print_text, "names": out.names, "open_write": out.open_text,
            "pep686": [{"field": f, "now": a, "with_3.15": b} for f, a, b in out.pep686],
        }
    return data


def to_json(place, diagnosis):
    import json
    return json.dumps(to_object(place, diagnosis), indent=2)
