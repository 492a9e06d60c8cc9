"""Each subcommand of the command line: its declaration (options.Command) and its handler,
which takes the parsed options and the operands and only connects the parts that do the
work. cli.py dispatches to them, and holds `run`'s handler (its start-up path)."""
import sys

from ._errors import UsageError


# Every declaration is made on first use: `run -- COMMAND` makes none (cli._dispatch), and a
# command pays only for its own (env's and matrix's format lists live with their
# renderers, which `run` and `explain` must not import).

def _shared():
    """The options that explain, run and env share, declared once."""
    from ._options import Option
    return dict(
        no_coercion=Option(("--no-coercion",), "coercion", "flag", "as if built "
                           "--without-c-locale-coercion (PEP 538): no locale coercion",
                           const=False),
        no_warning=Option(("--no-warning",), "warning", "flag", "as if built "
                          "--without-c-locale-warning: never print the locale warnings",
                          const=False, usage="[--no-warning | --warning]"),
        warning=Option(("--warning",), "warning", "flag", "as if built --with-c-locale-warning "
                       "(PEP 538 draft): print both warnings", usage=None),
        utf8=Option(("--utf8",), "utf8", "value", "the child's UTF-8 mode: 0, 1, or strict (the "
                    "PEP 540 draft's strict mode)", metavar="0|1|strict",
                    usage="[--utf8 0|1|strict]", choices=("0", "1", "strict"),
                    expected="0, 1 or strict"),
        override_lc_all=Option(("--override-lc-all",), "override_lc_all", "flag", "remove an "
                               "LC_ALL that keeps the C locale (C, POSIX, or a locale the libc "
                               "lacks), which CPython and utf8env otherwise leave as an "
                               "explicit choice, so that the coercion applies",
                               usage="[--override-lc-all]"),
        launch_policy=Option(("--policy",), "policy", "value", "the coercion applied: default "
                             "(CPython 3.7+ as shipped) or pep538-draft", metavar="NAME",
                             usage="[--policy NAME]", choices=("default", "pep538-draft"),
                             expected="default or pep538-draft (the coercion the launcher "
                                      "applies)"))


def _explain_spec():
    from ._options import HELP, Command, Option
    from ._engine.profiles import CODE_PAGES, DEFAULT_CODE_PAGE, EMBEDDED, PLATFORMS, POLICIES
    from ._engine.profiles import VERSIONS
    shared = _shared()
    pages = tuple(str(page) for page in CODE_PAGES)
    return Command(
        name="explain",
        summary="Predict and explain the text encodings a CPython starts with in an environment.",
        options=(
            Option(("--json",), "json", "flag", "one JSON object (\"schema\": 1; keys in "
                   "docs/json.md)",
                   usage="[--json]"),
            Option(("--empty-env",), "empty_env", "flag", "start from an empty environment instead "
                   "of this process's", usage="[--empty-env]"),
            Option(("--env",), "env", "append", "set a variable in the target environment (repeatable)",
                   metavar="NAME=VALUE", usage="[--env NAME=VALUE]..."),
            Option(("--version",), "version", "value", "predict for CPython X.Y (%s ... %s) without "
                   "running anything" % (VERSIONS[0], VERSIONS[-1]), metavar="X.Y",
                   usage="[--version X.Y]"),
            Option(("--platform",), "platform", "value", "the target platform: %s" % ", ".join(PLATFORMS),
                   metavar="NAME", usage="[--platform NAME]"),
            Option(("--policy",), "policy", "value", "the rules: %s (default: the target's version)"
                   % ", ".join(POLICIES), metavar="NAME", usage="[--policy NAME]"),
            Option(("--locales",), "locales", "value", "model a libc that has exactly these locales "
                   "(codeset guessed from the name when not given)", metavar="NAME[=CODESET],...",
                   usage="[--locales NAME[=CODESET],...]"),
            Option(("--embedded",), "embedded", "value", "predict for CPython embedded in a C "
                   "program, started by Py_Initialize() (initialize) or, 3.8+, by "
                   "Py_InitializeFromConfig() with PyConfig_InitPythonConfig (python-config) "
                   "or PyConfig_InitIsolatedConfig (isolated-config)", metavar="KIND",
                   usage="[--embedded KIND]", choices=EMBEDDED,
                   expected=", ".join(EMBEDDED[:-1]) + " or " + EMBEDDED[-1]),
            Option(("--code-page",), "code_page", "value", "with --platform win32: the ANSI "
                   "code page, GetACP() (default %d; chcp's console code page is another)"
                   % DEFAULT_CODE_PAGE, metavar="N", usage="[--code-page N]", choices=pages,
                   expected="an ANSI code page of Windows: %s (OEM code pages such as 437 "
                            "and 850 are the console's, never GetACP()'s)" % ", ".join(pages)),
            Option(("--console",), "console", "flag", "with --platform win32: stdin and "
                   "stdout are a console (default: pipes or files)", usage="[--console]"),
            shared["no_coercion"]._replace(usage="[--no-coercion]"), shared["no_warning"],
            shared["warning"], HELP),
        operands="[--] [PYTHON [PYTHON-OPTIONS...]]")


def _run_spec():
    from ._errors import LaunchUsageError
    from ._options import HELP, Command
    shared = _shared()
    return Command(
        name="run",
        summary="Coerce the legacy C locale and apply UTF-8 mode as CPython 3.7+ would, then exec "
                "COMMAND (its bytes, signals and exit status pass through).",
        options=(shared["utf8"], shared["launch_policy"],
                 shared["no_coercion"]._replace(usage="[--no-coercion]"),
                 shared["no_warning"]._replace(usage="[--no-warning]"),
                 shared["override_lc_all"], HELP),
        operands="[--] COMMAND [ARGS...]",
        error=LaunchUsageError)


def _env_spec():
    from ._env import FORMATS
    from ._options import HELP, Command, Option
    from ._engine.profiles import VERSIONS
    shared = _shared()
    # The target is described as explain describes it: the same options, declared once.
    target = {option.dest: option for option in _explain_spec().options}
    return Command(
        name="env",
        summary="Print what makes a target start COMMAND (without one: any program) as `utf8env "
                "run` would, for a shell, a Dockerfile, a systemd unit, a crontab or a GitHub "
                "Actions step; where no variable can, the line that starts it through `run`.",
        options=(Option(("--format",), "format", "value", "the output format (default sh)",
                        metavar="|".join(FORMATS), usage="[--format %s]" % "|".join(FORMATS),
                        default="sh", choices=FORMATS),
                 shared["utf8"], shared["launch_policy"], shared["no_coercion"]._replace(usage=None),
                 shared["no_warning"]._replace(usage=None), shared["override_lc_all"],
                 target["empty_env"], target["env"],
                 target["locales"],
                 target["version"]._replace(help="COMMAND starts CPython X.Y (%s ... %s): it is "
                                            "neither looked up nor run" % (VERSIONS[0], VERSIONS[-1]),
                                            choices=VERSIONS, expected="one of %s" % ", ".join(VERSIONS)),
                 HELP),
        operands="[--] [COMMAND [ARGS...]]")


def _matrix_spec():
    from .matrix import ENV_SET_HELP, FORMATS
    from ._options import HELP, Command, Option
    from ._windows.builds import VERSIONS as WINDOWS
    from ._worlds.catalog import WINDOWS as CODE_PAGE_SETS
    return Command(
        name="matrix",
        summary="Run the PEPs' use cases, or your own COMMAND, under real interpreters in real "
                "locale worlds, and classify each cell.",
        options=(
            Option(("--python",), "python", "append", "an interpreter to run (repeatable; default: "
                   "every one found)", metavar="PATH", usage="[--python PATH]..."),
            Option(("--env-set",), "env_set", "list", ENV_SET_HELP, metavar="NAME",
                   usage="[--env-set NAME]..."),
            Option(("--stdin",), "stdin", "value", "the bytes COMMAND reads on stdin", metavar="FILE",
                   usage="[--stdin FILE]"),
            Option(("--hostile-files",), "hostile_files", "flag", "run COMMAND in a folder holding "
                   "undecodable and non-ASCII file names", usage="[--hostile-files]"),
            Option(("--format",), "format", "value", "the report format (default text)",
                   metavar="|".join(FORMATS), usage="[--format %s]" % "|".join(FORMATS),
                   default="text", choices=FORMATS),
            Option(("--timeout",), "timeout", "value", "the seconds each cell may run (default 60)",
                   metavar="SECONDS", usage="[--timeout SECONDS]"),
            Option(("--bytes",), "bytes", "flag", "show outputs and files as their raw bytes "
                   "(repr) everywhere, not decoded for display", usage="[--bytes]"),
            Option(("--windows",), "windows", "optional", "add a row of real Windows CPython "
                   "X.Y under Wine (python.org's embeddable build, fetched once into the "
                   "cache; %s, default %s), run in the Windows ANSI code page of each set "
                   "that stands for one (without --env-set: %s)"
                   % (", ".join(WINDOWS), WINDOWS[-1], ", ".join(CODE_PAGE_SETS)), metavar="[X.Y]",
                   usage="[--windows [X.Y]]", const=WINDOWS[-1], choices=WINDOWS,
                   expected="%s (python.org's embeddable builds on PyPI)" % ", ".join(WINDOWS)),
            HELP),
        operands="[--] [COMMAND [ARGS...]]",
        dash_is_operand=True)


def _explain(args, command):
    from ._explain import run as run_explain
    return run_explain(args, command, _doctors_verdict)


def _doctors_verdict(inputs, decision, here, as_json):
    """explain ends with the verdict and fixes doctor gives the same case, in doctor's
    words (its findings, its renderer): the two tools meet here, so that neither imports
    the other. The JSON object (as_json), else the lines."""
    from .doctor import _findings as findings, _verdict as verdict
    found = findings.for_decision(inputs, decision, here=here)
    return verdict.verdict_object(found) if as_json else verdict.verdict_lines(found)


def _run(args, command):
    if not command:
        from ._errors import LaunchUsageError
        from ._options import usage
        raise LaunchUsageError("run: no COMMAND given (usage: %s)" % usage(_run_spec()))
    from ._run import run as run_command
    return run_command(args, command)


def _env(args, command):
    from ._env import run as run_env
    return run_env(args, command)


def _matrix(args, command):
    from .matrix._cli import run as run_matrix
    return run_matrix(args, command)


def _readiness_spec():
    from ._options import HELP, Command, Option
    from .readiness import FORMATS
    from .readiness._suite import WORLD_HELP, WORLD_NAMES
    from ._windows.builds import VERSIONS as WINDOWS
    from ._windows.wine import CODE_PAGES, DEFAULT_CODE_PAGE
    return Command(
        name="readiness",
        summary="Run a pytest (or unittest) suite twice, UTF-8 mode off (today) and on "
                "(Python 3.15), in a non-UTF-8 locale world, on Windows CPython under Wine, or "
                "on Windows itself in its code page, and list the tests that change and the "
                "call sites that use the locale encoding.",
        options=(
            Option(("--python",), "python", "append", "a Python to run, with pytest of its own "
                   "(repeatable; default: a Python 3.15: python3.15 on PATH, pyenv's, uv's)",
                   metavar="PATH", usage="[--python PATH]..."),
            Option(("--world",), "world", "value", WORLD_HELP,
                   metavar="NAME", usage="[--world NAME]", choices=WORLD_NAMES),
            Option(("--format",), "format", "value", "the report format (default text)",
                   metavar="|".join(FORMATS), usage="[--format %s]" % "|".join(FORMATS),
                   default="text", choices=FORMATS),
            Option(("--all",), "all", "flag", "also list stdlib and site-packages call sites",
                   usage="[--all]"),
            Option(("--timeout",), "timeout", "value", "the seconds each run may take (default "
                   "900)", metavar="SECONDS", usage="[--timeout SECONDS]"),
            Option(("--windows",), "windows", "optional", "run on real Windows CPython X.Y "
                   "under Wine (python.org's embeddable build, fetched once into the cache; "
                   "%s, default %s) instead of --python; its run with UTF-8 mode on stands in "
                   "for 3.15" % (", ".join(WINDOWS), WINDOWS[-1]), metavar="[X.Y]",
                   usage="[--windows [X.Y] [--code-page N] [--windows-requirements FILE]]",
                   const=WINDOWS[-1], choices=WINDOWS,
                   expected="%s (python.org's embeddable builds on PyPI; 3.15's behaviour is "
                            "the run with UTF-8 mode on)" % ", ".join(WINDOWS)),
            Option(("--code-page",), "code_page", "value", "with --windows: the ANSI code page "
                   "Wine gives, GetACP() (default %d)" % DEFAULT_CODE_PAGE, metavar="N",
                   usage=None, choices=tuple(str(c) for c in CODE_PAGES),
                   expected="an ANSI code page Wine gives: %s" % ", ".join(
                       str(c) for c in CODE_PAGES)),
            Option(("--windows-requirements",), "windows_requirements", "value", "with "
                   "--windows: a pip requirements file of what the suite needs besides "
                   "pytest (win_amd64 wheels)", metavar="FILE", usage=None),
            HELP),
        operands="-- pytest [ARGS...] | -- python -m unittest [ARGS...]")


def _readiness(args, command):
    from .readiness._cli import run as run_readiness
    return run_readiness(args, command)


def _doctor_spec():
    from ._options import HELP, Command, Option
    return Command(
        name="doctor",
        summary="Say what breaks text in the place this runs in (an ssh session, cron, a "
                "service, a container, CI) and the exact line to change there.",
        options=(
            Option(("--verbose", "-v"), "verbose", "flag", "every finding with its evidence and "
                   "every fix, then the place, its locale and its pythons (default: each "
                   "problem and its first fix)", usage="[--verbose]"),
            Option(("--fix",), "fix", "flag", "apply the fixes that are the user's own (a shell "
                   "start-up file, the crontab; a backup of each), then start new sessions of "
                   "this kind and say what they said (or what could not be checked)",
                   usage="[--fix [--dry-run]]"),
            Option(("--dry-run",), "dry_run", "flag", "with --fix: say what it would write, "
                   "and write nothing", usage=None),
            Option(("--json",), "json", "flag", "one JSON object (\"schema\": 1; keys in "
                   "docs/json.md)", usage="[--json]"),
            Option(("--save",), "save", "value", "also write this place's snapshot (the JSON "
                   "object) to FILE", metavar="FILE", usage="[--save FILE]"),
            Option(("--compare",), "compare", "value", "say what differs between the snapshot "
                   "FILE and this place, and which difference explains a failure",
                   metavar="FILE", usage="[--compare FILE]"),
            Option(("--no-pythons",), "no_pythons", "flag", "do not look for interpreters "
                   "(the locale and the context only)", usage=None),
            HELP),
        operands="[--no-pythons]")     # no operands: the last option ends the usage line


def _doctor(args, command):
    if command:
        from ._options import usage
        raise UsageError("doctor takes no operands (got %r): it diagnoses the place it runs "
                         "in; usage: %s" % (command[0], usage(_doctor_spec())))
    from .doctor._cli import run as run_doctor
    return run_doctor(args)


def _fix_spec():
    from ._options import HELP, Command, Option
    return Command(
        name="fix",
        summary="Find the calls that open text in the locale's encoding by default (open, "
                "Path.read_text, subprocess text=True, ...: what Python 3.15's UTF-8 mode "
                "changes, PEP 686) and add encoding=, keeping the file's formatting. Exit "
                "status: 0 nothing found (listing: always), 1 found (--check, --diff), left "
                "to review (--write) or a file left alone, 2 bad input.",
        options=(
            Option(("--check",), "mode", "flag", "exit 1 when a call site is found (for "
                   "pre-commit and CI), else 0", const="check",
                   usage="[--check | --diff | --write]"),
            Option(("--diff",), "mode", "flag", "print the fixes as a unified diff (exit 1 "
                   "when a call site is found)", const="diff", usage=None),
            Option(("--write",), "mode", "flag", "add encoding= in place (atomically; a file "
                   "that does not parse is left alone); exit 1 when a site is left to "
                   "review", const="write", usage=None),
            Option(("--exclude",), "exclude", "append", "leave out a file or folder whose "
                   "name or path matches the glob PATTERN (repeatable); a folder's files "
                   "that git ignores (.gitignore) are left out too", metavar="PATTERN",
                   usage="[--exclude PATTERN]..."),
            Option(("--encoding",), "encoding", "value", "the encoding added: utf-8 (the "
                   "default: what 3.15 does) or locale (today's behaviour, said; Python "
                   "3.10+)", metavar="utf-8|locale", usage="[--encoding utf-8|locale]",
                   default="utf-8", choices=("utf-8", "locale")),
            Option(("--from",), "report", "value", "each site's encoding as `utf8env "
                   "readiness --format json` measured it in REPORT (the fix that made the "
                   "changed tests pass in both modes; a site no test changed with: "
                   "--encoding; a site measured with neither passing, or that no test "
                   "exercised: review); run it from pytest's rootdir",
                   metavar="REPORT.json", usage="[--from REPORT.json]"),
            Option(("--prove",), "prove", "flag", "apply the fix in copies of the project "
                   "(never your files) and run the suite (-- pytest ARGS...) in a non-UTF-8 "
                   "locale world: unfixed with UTF-8 mode off, fixed with it off and on; exit "
                   "0 no test changed, 1 the tests that changed, 3 a run did not complete",
                   usage="[--prove [--python PATH]... [--world NAME] [--timeout SECONDS]]"),
            Option(("--python",), "python", "append", "with --prove: a Python to run, with "
                   "pytest of its own (repeatable; default: a Python 3.15, as readiness)",
                   metavar="PATH", usage=None),
            Option(("--world",), "world", "value", "with --prove: the locale world (default "
                   "latin1; those of readiness)", metavar="NAME", usage=None),
            Option(("--timeout",), "timeout", "value", "with --prove: the seconds each run "
                   "may take (default 900)", metavar="SECONDS", usage=None),
            HELP),
        operands="PATH... [-- pytest ARGS...]")


def _fix(args, paths):
    if getattr(args, "prove", None):
        # fix --prove composes two tools (the fixer's edits, readiness's runs): here, above
        # both, so that neither imports the other for it.
        if windows_refusal("fix --prove"):
            raise UsageError(windows_refusal("fix --prove"))
        from ._prove import run as prove
        return prove(args, paths, _fix_usage)
    from .fixer._cli import run as run_fix
    return run_fix(args, paths, _fix_usage)


def _fix_usage():
    """fix's usage line, for the error of no PATH given (the fixer's and --prove's)."""
    from ._options import usage
    return usage(_fix_spec())


# (name, its declaration, its handler).
COMMANDS = (("explain", _explain_spec, _explain), ("run", _run_spec, _run),
            ("env", _env_spec, _env), ("matrix", _matrix_spec, _matrix),
            ("readiness", _readiness_spec, _readiness), ("doctor", _doctor_spec, _doctor),
            ("fix", _fix_spec, _fix))


# What does not run on Windows itself, each with why: one line there, status 2 (usage),
# and `utf8env --help` lists them apart. For POSIX places: what they act on is the locale
# of a POSIX process (LANG, LC_*, the C locale PEP 538 coerces), which Windows has not
# (its text follows the ANSI code page; PYTHONUTF8=1 or -X utf8 is how UTF-8 mode is asked
# there). Not yet: their runs are made in Linux locale worlds, or under Wine from Linux
# (--windows), and no run of theirs has been made on Windows itself (readiness's are:
# readiness/_native.py).
POSIX_ONLY = (
    ("run", "it starts a program in a POSIX locale (PEP 538's coercion of the C locale)"),
    ("env", "its lines set the locale variables a POSIX shell, unit or image passes on"),
    ("doctor", "it reads the locale of POSIX places (ssh, cron, systemd, containers)"),
)
NOT_ON_WINDOWS_YET = (
    ("matrix", "its cells run in Linux locale worlds (matrix --windows: Windows CPython "
               "under Wine, from Linux)"),
    ("fix --prove", "its runs are made in Linux locale worlds; here, utf8env readiness "
                    "-- pytest ARGS runs the suite in this code page, UTF-8 mode off and on, "
                    "and tries the fixes"),
)


def windows_refusal(name, platform=None):
    """The one line that says the subcommand `name` does not run on `platform` (Windows:
    "win32"; None: this one), or None where it runs there."""
    if (sys.platform if platform is None else platform) != "win32":
        return None
    for known, why in POSIX_ONLY:
        if known == name:
            return "%s is for POSIX places, not Windows: %s" % (name, why)
    for known, why in NOT_ON_WINDOWS_YET:
        if known == name:
            return "%s does not run on Windows itself yet: %s" % (name, why)
    return None


def declaration(name):
    """The options.Command that declares the subcommand `name`."""
    for known, declare, _ in COMMANDS:
        if known == name:
            return declare()
    raise KeyError(name)


def main_help(platform=None):
    """utf8env --help; on Windows (platform "win32"; None: this one) the commands that do
    not run there are named apart, with why (windows_refusal), not offered as working."""
    import textwrap
    platform = sys.platform if platform is None else platform
    specs = [declare() for _, declare, _ in COMMANDS]
    width = max([len(spec.name) + 2 for spec in specs] + [len("  -h, --help")]) + 2
    lines = ["usage: utf8env COMMAND [OPTIONS...]   (utf8env COMMAND --help: its options)", "",
             "commands:"]
    windows = platform == "win32"
    apart = (("for POSIX places, not Windows:", POSIX_ONLY),
             ("not on Windows itself yet:", NOT_ON_WINDOWS_YET)) if windows else ()
    refused = [name for _, table in apart for name, _ in table]
    for spec in specs:
        if spec.name not in refused:
            lines += textwrap.wrap(spec.summary, 79,
                                   initial_indent=("  " + spec.name).ljust(width),
                                   subsequent_indent=" " * width)
    for heading, table in apart:
        lines += ["", heading]
        for name, why in table:
            lines += textwrap.wrap(why, 79, initial_indent=("  " + name).ljust(width),
                                   subsequent_indent=" " * width)
    lines += ["", "options:", "  --version".ljust(width) + "print utf8env's version and exit",
              "  -h, --help".ljust(width) + "show this help and exit"]
    folder = docs_folder()
    if folder:
        import os
        said = "Documentation: %s (%s)" % (folder, ", ".join(
            sorted(name for name in os.listdir(folder) if name.endswith(".md"))))
    else:
        said = "Documentation: docs/ in utf8env's source distribution"
    lines += [""] + textwrap.wrap(said, 79, break_on_hyphens=False, break_long_words=False)
    return "\n".join(lines) + "\n"


def docs_folder():
    """Where the pages of docs/ are: in the installed package (utf8env/docs/, which the
    build puts there), or beside src/ in the checkout this copy runs from (an editable
    install); None where neither has them."""
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    for folder in (os.path.join(here, "docs"),
                   os.path.join(os.path.dirname(os.path.dirname(here)), "docs")):
        if os.path.isfile(os.path.join(folder, "explain.md")):
            return folder
    return None
