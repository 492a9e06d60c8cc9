"""Render a Decision as text or as the JSON object of docs/json.md; decides nothing."""
import sys

from ._environment import described, user_environ
from ._errors import UsageError
from ._output import for_terminal, shown as _shown, write

SCHEMA = 1


def _stream(stream):
    return None if stream is None else {"encoding": stream.encoding, "errors": stream.errors}


def _launcher(launched):
    if launched is None:
        return None
    return {"utf8_mode": launched.utf8_mode, "bootstrap": launched.bootstrap,
            "environ": dict(launched.set_environ), "notes": list(launched.notes)}


def _code_page(windows):
    """The code page a win32 prediction used: the one given, else the one assumed."""
    from ._engine.profiles import DEFAULT_CODE_PAGE
    return DEFAULT_CODE_PAGE if windows[0] is None else windows[0]


def to_json_object(decision, launched=None, verdict=None, embedded=None, windows=None):
    """The documented "schema": 1 object (docs/json.md); `launched` is the
    launcher's Plan for a 3.6 ("launcher": what `utf8env run` would add); `verdict`, the
    "verdict", "problems" and "findings" keys of doctor's findings for the case;
    `embedded`, the Inputs' embedded kind (None: the python command); `windows`, for
    win32, the Inputs' (ansi_code_page, windows_console)."""
    d = decision
    return dict({
        "schema": SCHEMA,
        "python": d.python,
        "platform": d.platform,
        "policy": d.policy,
        "embedded": embedded,
        "code_page": None if windows is None else _code_page(windows),
        "console": None if windows is None else bool(windows[1]),
        "startup_error": (None if d.startup_error is None else
                          {"message": d.startup_error.message, "exit_code": d.startup_error.exit_code}),
        "legacy_c_locale": d.legacy_c_locale,
        "legacy_c_locale_source": d.legacy_c_locale_source,
        "coercion": (None if d.coercion is None else
                     {"target": d.coercion.target, "environ": dict(d.coercion.environ)}),
        "coercion_warning": d.coercion_warning,
        "c_locale_warning": d.c_locale_warning,
        "utf8_mode": d.utf8_mode,
        "lc_ctype": d.lc_ctype,
        "filesystem": _stream(d.filesystem),
        "stdin": _stream(d.stdin),
        "stdout": _stream(d.stdout),
        "stderr": _stream(d.stderr),
        "open": _stream(d.open),
        "preferred_encoding": d.preferred_encoding,
        "locale_encoding": d.locale_encoding,
        "stderr_messages": list(d.stderr_messages),
        "stderr_complete": d.stderr_complete,
        "child_environ": dict(d.child_environ),
        "reasons": {key: {"source": r.source, "detail": r.detail}
                    for key, r in sorted(d.reasons.items())},
        "launcher": _launcher(launched),
    }, **(verdict or {}))


def to_json(decision, launched=None, verdict=None, embedded=None, windows=None):
    import json
    return json.dumps(to_json_object(decision, launched, verdict, embedded, windows), indent=2,
                      sort_keys=False)


_ROWS = (
    ("startup_error", "start-up"),
    ("legacy_c_locale", "legacy C locale"),
    ("coercion", "locale coercion"),
    ("utf8_mode", "UTF-8 mode"),
    ("lc_ctype", "LC_CTYPE"),
    ("filesystem", "filesystem"),
    ("stdin", "stdin"),
    ("stdout", "stdout"),
    ("stderr", "stderr"),
    ("open", "open()"),
    ("preferred_encoding", "preferred encoding"),
    ("locale_encoding", "locale.getencoding()"),
    ("child_environ", "child processes"),
)


def _value(decision, key):
    value = getattr(decision, key)
    if key == "startup_error":
        return "fails, exit %d" % value.exit_code if value else "starts"
    if key == "legacy_c_locale":
        return "yes" if value else "no"
    if key == "coercion":
        return "to %s" % value.target if value else "none"
    if key == "utf8_mode":
        return {0: "off", 1: "on"}.get(value, value)
    if key == "child_environ":
        return (" ".join("%s=%s" % item for item in sorted(value.items())) or "inherit the environment")
    if hasattr(value, "encoding"):
        return "%s/%s" % (value.encoding, value.errors)
    return value


# How each embedded kind starts the interpreter, for the text's heading.
_EMBEDDED_CALLS = {
    "initialize": "Py_Initialize()",
    "python-config": "PyConfig_InitPythonConfig() + Py_InitializeFromConfig()",
    "isolated-config": "PyConfig_InitIsolatedConfig() + Py_InitializeFromConfig()"}


def to_text(decision, launched=None, verdict_lines=(), embedded=None, windows=None):
    """A table: setting, value, and the input that decided it with why; then
    `verdict_lines` (doctor's verdict and fixes for the case, rendered by doctor).
    `embedded`: the Inputs' embedded kind, named in the heading; `windows`, for win32,
    the Inputs' (ansi_code_page, windows_console), named there too."""
    d = decision
    rows = []
    for key, label in _ROWS:
        if getattr(d, key) is None and key not in ("coercion", "startup_error"):
            continue
        reason = d.reasons.get(key)
        rows.append((label, _shown(_value(d, key)), reason))
    width = max(len(label) for label, _, _ in rows)
    value_width = min(32, max(len(value) for _, value, _ in rows))
    lines = ["Python %s on %s, policy %s" % (d.python, d.platform, d.policy), ""]
    if embedded is not None:
        lines[0] += ", embedded: %s (%s)" % (embedded, _EMBEDDED_CALLS[embedded])
    if windows is not None:
        lines[0] += ", code page %d%s, stdio %s" % (
            _code_page(windows), " (assumed)" if windows[0] is None else "",
            "a console" if windows[1] else "pipes or files")
    for label, value, reason in rows:
        why = "" if reason is None else "%s: %s" % (reason.source, reason.detail)
        lines.append(("%-*s  %-*s  %s" % (width, label, value_width, value, why)).rstrip())
    if d.stderr_messages:
        lines += ["", "printed on stderr at start-up:"]
        lines += ["  " + line for line in d.stderr_messages]
        if not d.stderr_complete:
            lines.append("  (followed by a traceback)")
    if launched is not None:
        lines += ["", "through `utf8env run`:"]
        if launched.set_environ:
            lines.append("  the launcher sets %s" % " ".join(
                "%s=%s" % item for item in sorted(launched.set_environ.items())))
        lines.append("  UTF-8 mode %s" % ({0: "off", 1: "on (bootstrap)", "strict": "strict (bootstrap)"}
                                         .get(launched.utf8_mode, launched.utf8_mode)))
        lines += ["  cannot: " + _shown(note) for note in launched.notes]
    if verdict_lines:
        lines += [""] + list(verdict_lines)
    return "\n".join(lines) + "\n"


def run(args, command, verdict):
    """`utf8env explain`'s handler: the Decision for the described environment, as text or
    JSON, ending with `verdict(inputs, decision, here, as_json)`: the verdict another
    part gives the same case (utf8env/_commands.py hands doctor's), its JSON object
    (as_json) or its lines. `here`: the case is this machine's (its environment and
    libc)."""
    from . import _plan as launch
    _embedded_operands(args.embedded, command)
    environ = described(args)
    python = command[0] if command else None
    target = _target(python, args.version, args.platform)
    code_page, console = _windows(args, target.platform)
    if target.platform == "win32":
        # The C runtime's locale decides no encoding there: the code page does.
        from ._engine.policy import LocaleFacts
        facts = LocaleFacts({})
    elif args.locales is not None:
        from ._engine import locale_model
        facts = locale_model.modelled(args.locales)
    elif target.platform == _this_platform():
        from . import _locales as locales
        facts = locales.facts(environ, here=args.own_process)
    else:
        raise UsageError("--platform %s is not this machine: give --locales NAME,... to model "
                         "its locales" % target.platform)
    from ._engine.policy import Inputs, decide
    inputs = Inputs(environ=environ, args=tuple(command[1:]), version=target.version,
                    platform=target.platform, locales=facts, policy=args.policy,
                    coercion_switch=args.coercion, warning_switch=args.warning,
                    argv0=python or "python%s" % target.version, embedded=args.embedded,
                    ansi_code_page=code_page, windows_console=console)
    decision = decide(inputs)
    # `utf8env run` starts a python command, not a program that embeds one.
    launched = None if args.embedded else launch.what_run_adds(inputs, args.policy)
    here = not args.empty_env and args.locales is None
    ending = verdict(inputs, decision, here, args.json)
    windows = (code_page, console) if target.platform == "win32" else None
    if args.json:
        write(to_json(decision, launched, ending, args.embedded, windows) + "\n")
    else:
        write(for_terminal(to_text(decision, launched, ending, args.embedded, windows)))
    return 0


def _windows(args, platform):
    """--code-page N and --console: (the code page given or None, console), for win32
    only. On Windows itself, without --code-page, this machine's own GetACP()."""
    if platform != "win32":
        for given, option in ((args.code_page, "--code-page"), (args.console, "--console")):
            if given:
                raise UsageError("%s describes a Windows interpreter: give --platform win32 "
                                 "(the target here is %s)" % (option, platform))
        return None, False
    if args.code_page is not None:
        return int(args.code_page), bool(args.console)
    here = None
    if _this_platform() == "win32":
        try:
            import ctypes                   # the Win32 API's GetACP(), by the public ctypes
            here = ctypes.windll.kernel32.GetACP()
        except (ImportError, AttributeError, OSError):
            pass
    from ._engine.profiles import CODE_PAGES
    return (here if here in CODE_PAGES else None), bool(args.console)


def _embedded_operands(kind, command):
    """--embedded KIND: only the Python configuration parses a command line (PyConfig.argv
    with parse_argv=1); for another kind, PYTHON names the interpreter (its version) alone."""
    if kind is not None and kind != "python-config" and len(command) > 1:
        raise UsageError("--embedded %s parses no command line (parse_argv=0): got %r; give "
                         "PYTHON alone, or --embedded python-config for PyConfig.argv"
                         % (kind, command[1]))


def _target(python, version, platform):
    """The (version, platform) to predict for: --version, else the named interpreter
    (asked once), else the interpreter running utf8env."""
    from ._interpreter import Identity, identify_file
    if version is None and python is not None:
        found = identify_file(_find_interpreter(python), python)
        return Identity(found.version, platform or found.platform)
    if version is None:
        version = "%d.%d" % sys.version_info[:2]
    return Identity(version, platform or _this_platform())


def _find_interpreter(python):
    """The file `python` names, on the user's PATH (where utf8env is asked)."""
    from ._errors import CommandNotFound, InterpreterError, NotExecutable
    from ._run import find_command
    try:
        return find_command(python, user_environ())
    except CommandNotFound:
        raise InterpreterError("interpreter %r: not found (give a path, a name on PATH, "
                               "or --version X.Y to predict without running it)" % python)
    except NotExecutable as error:
        raise InterpreterError("interpreter %r: not executable (%s)" % (python, error))


def _this_platform():
    from ._engine.profiles import platform_name
    return platform_name(sys.platform)
