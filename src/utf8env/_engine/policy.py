"""The pure engine: decide(inputs) -> Decision.

Nothing here reads the process: no os.environ, no locale, no subprocess, no sys.flags.
The structure follows CPython's own start-up (Python/preconfig.c, Python/initconfig.c,
Python/pylifecycle.c): read the inputs, decide one field at a time with the
precedence written as an ordered chain of early returns, and remember for every value
the input that decided it (a Reason).

Every rule is named after the Decision field it decides, takes `(context, the values
it depends on)` and returns `(value, Reason)`; `(None, None)` where the field does not
apply. A rule that makes the interpreter refuse to start returns a Failure as its
value. No rule reads another's result except through its arguments: decide() alone
calls them in CPython's order, collects the Reasons, and hands everything to
_decision(), the one place a Decision is made. The rules live by phase:
locale_rules.py (pre-initialisation: PEP 538 and PEP 540) and encoding_rules.py (the
configuration); the records in decision.py (Inputs, Decision: re-exported here, where
callers import them).
"""
from . import cmdline, preconfig
from .decision import (Coercion, Decision, Failure, Inputs, InvalidInput, LocaleFacts,  # noqa: F401
                       Preconfig, Reason, RuleContext, StartupError, Stream, present_lines,
                       py_getenv)
from . import encoding_rules, locale_rules
from .profiles import EMBEDDED, POLICIES, PLATFORMS, VERSIONS, profile as _profile  # noqa: F401
from .profiles import CODE_PAGES, embedded_kinds as _embedded_kinds, embedding as _embedding


def decide(inputs):
    """Decide the text configuration a CPython would start with, from `inputs` alone."""
    context = _context(inputs)
    reasons = {}
    if context.line.error and not context.profile.preconfig_first:
        # 3.6/3.7 parse the whole command line before reading any configuration.
        return _decision(context, reasons, _usage_error(context))

    # Python/preconfig.c: UTF-8 mode and the coercion, both decided on the locale
    # before coercion (PEP 538 "Interaction with PEP 540").
    if not context.profile.coercion:
        # Decided when the interpreter was built: shown even when preconfig fails.
        reasons["coercion"] = locale_rules.no_coercion_built(context)
    allowed, warn = locale_rules.coerce_c_locale(context)
    environ = dict(inputs.environ)          # the locale variables, as setlocale() reads them
    initial, source = locale_rules.setlocale(context, environ)
    mode, reasons["utf8_mode"] = locale_rules.utf8_mode(context, initial, source)
    if isinstance(mode, Failure):
        return _decision(context, reasons, mode)
    legacy, reasons["legacy_c_locale"] = locale_rules.legacy_c_locale(context, initial, source)
    (coercion, coercion_warning), reasons["coercion"] = locale_rules.coercion(
        context, legacy, reasons["legacy_c_locale"], allowed, warn, environ)
    printed = present_lines(coercion_warning)
    if context.line.error:
        # 3.8+ pre-initialise before they parse the whole command line
        # (Python/preconfig.c _PyPreCmdline_Read tolerates errors).
        return _decision(context, reasons, _usage_error(context), utf8_mode=mode,
                         coercion=coercion, stderr_messages=printed)
    if coercion:
        environ.update(coercion.environ)
    lc_ctype, reasons["lc_ctype"] = locale_rules.lc_ctype(context, environ, coercion)
    c_warning, reasons["c_locale_warning"] = locale_rules.c_locale_warning(context, lc_ctype, warn)
    printed += present_lines(c_warning)
    pre = Preconfig(mode, reasons["utf8_mode"], lc_ctype, locale_rules.codeset(context, lc_ctype))
    # What preconfig decided stands when a codec lookup after it stops the start-up.
    reached = dict(legacy_c_locale=legacy, legacy_c_locale_source=source if legacy else None,
                   coercion=coercion, coercion_warning=coercion_warning,
                   c_locale_warning=c_warning, utf8_mode=mode, lc_ctype=lc_ctype,
                   stderr_messages=printed)

    # Python/initconfig.c: the encodings, from what preconfig left; their codecs are
    # looked up filesystem first, then stdio (pylifecycle.c, _PyUnicode_InitEncodings).
    filesystem, reasons["filesystem"] = encoding_rules.filesystem(context, pre)
    if isinstance(filesystem, Failure):
        return _decision(context, reasons, filesystem, **reached)
    stdout, reasons["stdout"] = encoding_rules.stdio(context, pre)
    if isinstance(stdout, Failure):
        return _decision(context, reasons, stdout, **reached)
    reasons["stdin"] = reasons["stdout"]
    stderr, reasons["stderr"] = encoding_rules.stderr(context, stdout, reasons["stdout"])
    open_default, reasons["open"] = encoding_rules.open_encoding(context, pre)
    preferred, reasons["preferred_encoding"] = encoding_rules.preferred_encoding(context, pre)
    locale_encoding, reasons["locale_encoding"] = encoding_rules.locale_encoding(context, pre)
    # Python/pylifecycle.c init_import_site, the last step of start-up.
    site = encoding_rules.site_import(context, pre)
    if site is not None:
        return _decision(context, reasons, site, **reached)
    child, reasons["child_environ"] = _child_environ(context, environ)
    printed, reasons["stderr_messages"] = _stderr_messages(context, printed)
    return _decision(
        context, reasons, None, legacy_c_locale=legacy,
        legacy_c_locale_source=source if legacy else None, coercion=coercion,
        coercion_warning=coercion_warning, c_locale_warning=c_warning, utf8_mode=mode,
        lc_ctype=lc_ctype, filesystem=filesystem, stdin=stdout, stdout=stdout,
        stderr=stderr, open=open_default, preferred_encoding=preferred,
        locale_encoding=locale_encoding, stderr_messages=printed, child_environ=child)


# What a start-up that fails reports for the fields it never reached.
_NOT_STARTED = {
    "legacy_c_locale": False, "legacy_c_locale_source": None, "coercion": None,
    "coercion_warning": None, "c_locale_warning": None, "utf8_mode": 0, "lc_ctype": None,
    "filesystem": None, "stdin": None, "stdout": None, "stderr": None, "open": None,
    "preferred_encoding": None, "locale_encoding": None, "stderr_messages": ()}


_ENCODINGS = ("filesystem", "stdin", "stdout", "stderr", "open", "preferred_encoding",
              "locale_encoding")


def _decision(context, reasons, failure, **fields):
    """The one place a Decision is made. With a `failure`, `fields` holds only what
    preconfig did before it (UTF-8 mode, the coercion a child would see, the lines
    already printed); the rest is what a start-up that never ran reports."""
    reasons = {key: reason for key, reason in reasons.items() if reason is not None}
    startup_error = None
    if failure is not None:
        # Start-up stopped before any encoding was reported: none has a reason.
        reasons = {key: reason for key, reason in reasons.items() if key not in _ENCODINGS}
        startup_error = StartupError(failure.message, failure.exit_code)
        reasons["startup_error"] = failure.reason
        fields = dict(_NOT_STARTED, child_environ={}, **fields)
        fields["stderr_messages"] += failure.before + tuple(failure.message.split("\n"))
    fields.update(python=context.inputs.version, platform=context.inputs.platform,
                  policy=context.profile.policy, startup_error=startup_error,
                  stderr_complete=failure is None or failure.complete, reasons=reasons)
    # By name, without Record's keyword path: a launch makes this once, decide() callers
    # such as the matrix thousands of times.
    return Decision._make([fields[name] for name in Decision._fields])


def _context(inputs):
    if inputs.version not in VERSIONS:
        raise InvalidInput("version %r: expected one of %s" % (inputs.version, ", ".join(VERSIONS)))
    if inputs.policy is not None and inputs.policy not in POLICIES:
        raise InvalidInput("policy %r: expected one of %s" % (inputs.policy, ", ".join(POLICIES)))
    if inputs.platform not in PLATFORMS:
        raise InvalidInput("platform %r: expected one of %s" % (inputs.platform, ", ".join(PLATFORMS)))
    embedding = None
    if inputs.embedded is not None:
        if inputs.embedded not in EMBEDDED:
            raise InvalidInput("embedded %r: expected one of %s"
                               % (inputs.embedded, ", ".join(EMBEDDED)))
        kinds = _embedded_kinds(inputs.version)
        if inputs.embedded not in kinds:
            raise InvalidInput("embedded %r: CPython %s has no PyConfig (PEP 587 is 3.8+): "
                               "expected %s" % (inputs.embedded, inputs.version, " or ".join(kinds)))
        embedding = _embedding(inputs.embedded, inputs.version)
    if inputs.ansi_code_page is not None and inputs.ansi_code_page not in CODE_PAGES:
        raise InvalidInput("code page %r: not an ANSI code page of Windows: expected one of %s"
                           % (inputs.ansi_code_page, ", ".join(str(cp) for cp in CODE_PAGES)))
    prof = _profile(inputs.policy or inputs.version, inputs.version)
    if inputs.coercion_switch is not None or inputs.warning_switch is not None:
        coercion, warn_by_default, legacy_warning = preconfig.built(
            prof.coercion, prof.warn_by_default, prof.legacy_warning, inputs.coercion_switch,
            inputs.warning_switch, inputs.platform)
        prof = prof._replace(coercion=coercion, warn_by_default=warn_by_default,
                             legacy_warning=legacy_warning)
    # The command line is parsed as the target version parses it, whatever the policy; an
    # embedded interpreter parses one only from the Python configuration (parse_argv=1).
    args = inputs.args if embedding is None or embedding.parse_argv else ()
    line = cmdline.parse(list(args), tuple(int(part) for part in inputs.version.split(".")))
    return RuleContext(inputs, prof, line, inputs.platform == "win32", embedding)


# -- What the start-up leaves behind ----------------------------------------------------

def _child_environ(context, environ):
    """What differs from the given environment once started: the coerced locale."""
    given = context.inputs.environ
    child = {key: value for key, value in environ.items() if given.get(key) != value}
    if child:
        return child, Reason("coercion", "the coerced locale is exported to every child process")
    return child, Reason("default", "nothing is exported: UTF-8 mode reaches a child only "
                                    "through PYTHONUTF8 or -X utf8 on its own command line")


def _stderr_messages(context, printed):
    """The locale warnings, in the order start-up prints them."""
    if printed:
        return printed, Reason("PYTHONCOERCECLOCALE", "the locale warnings printed at start-up")
    return printed, Reason("default", "nothing is printed at start-up")


def _usage_error(context):
    # Python/getopt.c prints the error, then usage() two lines (Modules/main.c); status 2.
    message = "\n".join([
        context.line.error,
        "usage: %s [option] ... [-c cmd | -m mod | file | -] [arg] ..." % context.inputs.argv0,
        "Try `python -h' for more information."])
    return Failure(message, 2, Reason("command line", "CPython rejects the command line"))
