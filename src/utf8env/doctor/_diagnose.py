"""doctor's Diagnosis of a whole place (pure, from place.py's facts): the locale state, the
contexts, what the engine predicts for every Python found (the app's Python of a uWSGI
or mod_wsgi host too), the tools that will warn, and the findings, with the notes about
what this process could not read and a parent CPython's coercion."""
from .._engine.preconfig import SHIPPED_TARGETS
from .._own_command import installed_command
from . import _contexts as detecting, _pythons as predicting, _embedding as embedded
from . import _fixes as fixing
from . import _locale_state as locale_state
from ._coercion import finding_parts, parent_coercion
from ._finding_records import Diagnosis, Finding, Predicted
from ._findings import collect
from ._locale_findings import warning_tools
from ._outcome import outcome
from ._place import this_platform
from ._programs import tools as program_tools
from ._records import parse_assignments
from ._sshd import use_pam


def diagnose(place):
    """The Diagnosis of a place.Place."""
    coercion = parent_coercion(place)
    if coercion is not None:
        # The place's own variables, not the ones the parent Python exported (coercion.py).
        place = place._replace(environ=coercion.environ)
    environ = place.environ
    state = locale_state.analyse(environ, place.facts, place.libc[0] if place.libc else None)
    found_contexts = detecting.detect(place)
    platform = this_platform()
    predicted = []
    for found in place.pythons:
        decision = outcome = None
        if found.version is not None and found.error is None:
            decision = predicting.decision(found, environ, place.facts, platform)
            later = predicting.decision(found, environ, place.facts, platform, version="3.15")
            outcome = predicting.outcome(decision, later)
        label = "Python %s (%s)" % (found.version or "?", found.path)
        predicted.append(Predicted(label, found, decision, outcome))
    # The app's Python where the server context is the host read (not a CGI script's).
    if place.embedding is not None and any(c.name == "server" and c.details.get("kind") ==
                                           place.embedding.kind for c in found_contexts):
        predicted.insert(0, _embedded(place, platform))
    info = _info(place, found_contexts)
    tools = warning_tools(state, environ)
    findings = collect(state, found_contexts, predicted, environ, place.facts, info, tools)
    # click 7's and ansible's start-up checks, measured with the python command, not in a host
    tools += program_tools([p for p in predicted if p.host is None], environ, place.facts,
                           state, findings)
    if not place.proc:
        # environment.inherited() falls back to os.environ, which a CPython 3.7+ running
        # doctor has already changed by its own coercion (PEP 538: LC_CTYPE exported).
        coerced = [n for target, names, _ in SHIPPED_TARGETS for n in names
                   if environ.get(n) == target]
        findings += (Finding("no-proc", "note", "/proc is not readable: the environment is "
                             "os.environ, not the one this process was started with",
                             tuple("%s=%s may be this Python's own locale coercion (PEP 538); "
                                   "the value it replaced cannot be known" % (n, environ[n])
                                   for n in coerced), ()),)
    if coercion is not None:
        title, evidence = finding_parts(coercion)
        findings += (Finding("parent-coercion", "note", title, evidence, ()),)
    return Diagnosis(state=state, contexts=found_contexts, pythons=tuple(predicted), tools=tools,
                     findings=findings, distribution=info["distribution"])


def _embedded(place, platform):
    """The Predicted of the app's Python that a uWSGI or mod_wsgi ancestor started: the
    engine's Decision for the embedding read from the host's binary (_embedding.py)."""
    host = place.embedding._replace(stdin_tty=bool(place.ttys and place.ttys[0]))
    found, decision, inputs = embedded.embedded_python(host, place.environ, place.facts, platform)
    label = "the app's Python %s (%s in %s)" % (
        found.version, embedded.call_name(inputs.embedded), embedded.host_name(host)) \
        if inputs is not None else "the app's Python (in %s)" % embedded.host_name(host)
    return Predicted(label, found, decision, outcome(decision) if decision else None, inputs,
                     host)


def _info(place, found_contexts):
    return {"distribution": fixing.distribution(place.files.get("/etc/os-release")),
            "locale_gen": place.files.get("/etc/locale.gen"), "files": place.files,
            "utf8env": installed_command(), "use_pam": use_pam(place.sshd_configs),
            "libc": place.libc, "apache_envvars": _envvars_line(place),
            "parent": place.ancestors[0] if place.ancestors else None}


def _envvars_line(place):
    """(path, line number, line) of the `export LANG=VALUE` line of Apache's envvars
    that gave this process its LANG (the last that sets it), or None."""
    if place.apache_envvars is None or not place.environ.get("LANG"):
        return None
    path, text = place.apache_envvars
    found = None
    for number, line in enumerate(text.splitlines(), 1):
        if parse_assignments(line).get("LANG") is not None:
            found = (path, number, line.strip(), parse_assignments(line)["LANG"])
    if found is None or found[3] != place.environ["LANG"]:
        return None
    return found[:3]
