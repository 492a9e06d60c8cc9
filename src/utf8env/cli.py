"""The command line: `utf8env explain ...`. The one place that prints errors and picks
exit codes (0 ok, 1 a problem found, 2 usage error)."""
import sys

from .errors import UsageError, Utf8envError

USAGE = ("utf8env explain [--json] [--empty-env] [--env NAME=VALUE]... [--version X.Y] "
         "[--platform NAME] [--policy NAME] [--locales NAME[=CODESET],...] "
         "[--no-coercion] [--no-warning | --warning] [--] [PYTHON [PYTHON-OPTIONS...]]")



# Each option: (attribute, kind, stored value). A hand-made parser rather than argparse:
# argparse and the gettext/locale modules it pulls in would double the start-up cost
# of a command that is meant to be cheap enough to run per process.
_EXPLAIN_OPTIONS = {
    "--json": ("json", "flag", True), "--empty-env": ("empty_env", "flag", True),
    "--env": ("env", "append", None), "--version": ("version", "value", None),
    "--platform": ("platform", "value", None), "--policy": ("policy", "value", None),
    "--locales": ("locales", "value", None),
    "--no-coercion": ("coercion", "flag", False),
    "--no-warning": ("warning", "flag", False), "--warning": ("warning", "flag", True),
    "-h": ("help", "flag", True), "--help": ("help", "flag", True),
}
_LAUNCH_OPTIONS = {
    "--utf8": ("utf8", "value", None), "--policy": ("policy", "value", None),
    "--no-coercion": ("coercion", "flag", False), "--no-warning": ("warning", "flag", False),
    "-h": ("help", "flag", True), "--help": ("help", "flag", True),
}
_ENV_OPTIONS = dict(_LAUNCH_OPTIONS, **{"--format": ("format", "value", None)})


class Options(object):
    """The parsed options: every attribute of the spec, None (or []) when not given."""
    def __init__(self, spec):
        for attribute, kind, _ in spec.values():
            setattr(self, attribute, [] if kind == "append" else None)


def parse_options(words, spec):
    options = Options(spec)
    seen = {}
    index = 0
    while index < len(words):
        word = words[index]
        name, has_value, value = word.partition("=") if word.startswith("--") else (word, "", "")
        if name not in spec:
            raise UsageError("unrecognized arguments: %s" % " ".join(words[index:]))
        attribute, kind, stored = spec[name]
        if kind == "flag":
            if has_value:
                raise UsageError("argument %s: ignored explicit argument %r" % (name, value))
            if attribute in seen and seen[attribute] != name:
                raise UsageError("argument %s: not allowed with argument %s" % (name, seen[attribute]))
            seen[attribute] = name
            setattr(options, attribute, stored)
        else:
            if not has_value:
                index += 1
                if index >= len(words):
                    raise UsageError("argument %s: expected one argument" % name)
                value = words[index]
            if kind == "append":
                getattr(options, attribute).append(value)
            else:
                setattr(options, attribute, value)
        index += 1
    return options


def split_command(argv, spec=_EXPLAIN_OPTIONS):
    """(the subcommand's own options, [COMMAND, ARGS...]): COMMAND is the first word that
    is not an option of the subcommand, or the word after "--"."""
    index = 0
    while index < len(argv):
        word = argv[index]
        if word == "--":
            return argv[:index], argv[index + 1:]
        if not word.startswith("-"):
            return argv[:index], argv[index:]
        if spec.get(word, ("", "flag"))[1] != "flag":
            index += 1
        index += 1
    return argv, []


def environment(args):
    from .environment import inherited
    env = {} if args.empty_env else inherited()
    args.env = args.env or []
    for item in args.env:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise UsageError("--env %r: expected NAME=VALUE" % item)
        env[name] = value
    return env


def guess_codeset(name):
    """The codeset a libc gives a locale name such as en_US.ISO-8859-1 or zh_CN.gb18030."""
    if name.upper().replace("-", "") == "UTF8":
        return "UTF-8"
    base, dot, codeset = name.partition("@")[0].partition(".")
    if not dot:
        return "ANSI_X3.4-1968" if base in ("C", "POSIX") else "ISO-8859-1"
    key = codeset.lower().replace("-", "").replace("_", "")
    known = {"utf8": "UTF-8", "iso88591": "ISO-8859-1", "iso885915": "ISO-8859-15",
             "gb18030": "GB18030", "gbk": "GBK", "gb2312": "GB2312", "eucjp": "EUC-JP",
             "euckr": "EUC-KR", "big5": "BIG5", "koi8r": "KOI8-R", "cp1251": "CP1251"}
    return known.get(key, codeset.upper())


def modelled_locales(text):
    """--locales NAME[=CODESET],...: a machine whose libc has exactly these locales."""
    from .policy import LocaleFacts
    codesets = {}
    for item in text.split(","):
        name, sep, codeset = item.strip().partition("=")
        if not name or (sep and not codeset):
            raise UsageError("--locales %r: expected NAME[=CODESET],... such as "
                             "C.UTF-8,en_US.ISO-8859-1" % text)
        codesets[name] = codeset or guess_codeset(name)
    return LocaleFacts(codesets)


def explain(argv):
    own, command = split_command(argv)
    args = parse_options(own, _EXPLAIN_OPTIONS)
    if args.help:
        sys.stdout.write("usage: %s\n" % USAGE)
        return 0
    from . import policy
    env = environment(args)
    python = command[0] if command else None
    version, platform = args.version, args.platform
    if version is None:
        if python is None:
            version = "%d.%d" % sys.version_info[:2]
            platform = platform or policy_platform(sys.platform)
        else:
            from .interpreter import identify
            identity = identify(python)
            version, platform = identity.version, platform or identity.platform
    platform = platform or policy_platform(sys.platform)
    if args.locales is not None:
        facts = modelled_locales(args.locales)
    elif platform == policy_platform(sys.platform):
        from . import locales
        facts = locales.probe(env)
    else:
        raise UsageError("--platform %s is not this machine: give --locales NAME,... to model "
                         "its locales" % platform)
    inputs = policy.Inputs(environ=env, args=tuple(command[1:]), version=version,
                           platform=platform, locales=facts, policy=args.policy,
                           coercion_switch=args.coercion, warning_switch=args.warning,
                           argv0=python or "python%s" % version)
    try:
        decision = policy.decide(inputs)
    except policy.InvalidInput as error:
        raise UsageError(str(error))
    from . import report
    launched = None
    if version == "3.6" and platform != "win32":
        # What `utf8env run` adds to this 3.6, and what it cannot change inside it.
        from . import launch
        launched = launch.plan(env, inputs.argv0, [inputs.argv0] + list(inputs.args), facts,
                               python="3.6", policy=args.policy if args.policy == "pep538-draft" else None)
    sys.stdout.write(report.to_json(decision, launched) + "\n" if args.json
                     else report.to_text(decision, launched))
    return 0


def policy_platform(name):
    from .profiles import platform_name
    return platform_name(name)


RUN_USAGE = ("utf8env run [--utf8 0|1|strict] [--policy NAME] [--no-coercion] [--no-warning] "
             "[--] COMMAND [ARGS...]")
ENV_USAGE = ("utf8env env [--format sh|fish|dockerfile|systemd|github-actions] [--utf8 0|1] "
             "[--policy NAME] [--] [COMMAND [ARGS...]]")


def _launch_plan(args, command, about_to_exec=False):
    """The Plan for `command` in this process's environment (shared by run and env).
    about_to_exec: this process is replaced by the command next, so the locale facts may
    be asked in it rather than in a fork (the cheapest truthful way: about 2 ms less)."""
    from . import launch, locales
    if args.utf8 is not None and args.utf8 not in launch.UTF8_REQUESTS:
        raise UsageError("--utf8 %r: expected 0, 1 or strict" % args.utf8)
    if args.policy is not None and args.policy not in ("default", "pep538-draft"):
        raise UsageError("--policy %r: expected default or pep538-draft (the coercion the "
                         "launcher applies)" % args.policy)
    from .environment import inherited
    environ = inherited()
    path = launch.find_command(command[0], environ)
    python = None
    if launch.looks_like_python(path):
        from .interpreter import identify_cached
        python = identify_cached(path).version
    policy = None if args.policy == "default" else args.policy
    facts = locales.probe(environ, here=about_to_exec)
    launched = launch.plan(environ, path, command, facts, python=python, policy=policy,
                           utf8=args.utf8, coercion_switch=args.coercion,
                           warning_switch=args.warning)
    # utf8env's own interpreter (3.7+) has already printed its locale warnings, from the
    # same environment: the launcher does not print the same line a second time.
    printed = set(_own_startup_messages(environ, facts))
    return launched._replace(messages=tuple(m for m in launched.messages if m not in printed))


def _own_startup_messages(environ, facts):
    """The lines this very interpreter printed at start-up, by decide() on its own inputs."""
    from .policy import Inputs, decide
    from .profiles import VERSIONS
    version = "%d.%d" % sys.version_info[:2]
    if version not in VERSIONS:
        return ()
    options = ["-I"] if sys.flags.isolated else ["-E"] if sys.flags.ignore_environment else []
    utf8 = getattr(sys, "_xoptions", {}).get("utf8")
    if utf8 is not None:
        options += ["-X", "utf8" if utf8 is True else "utf8=%s" % utf8]
    own = decide(Inputs(environ=environ, args=tuple(options), version=version, locales=facts))
    return own.stderr_messages


def run(argv):
    own, command = split_command(argv, _LAUNCH_OPTIONS)
    args = parse_options(own, _LAUNCH_OPTIONS)
    if args.help:
        sys.stdout.write("usage: %s\n" % RUN_USAGE)
        return 0
    if not command:
        raise UsageError("run: no COMMAND given (usage: %s)" % RUN_USAGE)
    from . import launch
    return launch.execute(_launch_plan(args, command, about_to_exec=True))     # returns only when refused


def env_command(argv):
    own, command = split_command(argv, _ENV_OPTIONS)
    args = parse_options(own, _ENV_OPTIONS)
    args.format = args.format or "sh"
    if args.help:
        sys.stdout.write("usage: %s\n" % ENV_USAGE)
        return 0
    from . import envformat
    if args.format not in envformat.FORMATS:
        raise UsageError("--format %r: expected one of %s" % (args.format, ", ".join(envformat.FORMATS)))
    if args.utf8 == "strict":
        raise UsageError("--utf8 strict: no variable gives the strict mode; use utf8env run")
    # No COMMAND: any program that is not a Python, i.e. the coercion alone.
    launched = _launch_plan(args, command or ["sh"])
    sys.stdout.write(envformat.render(args.format, envformat.variables(launched, args.utf8), launched))
    return 0


def matrix(argv):
    from .matrix_cli import matrix as run_matrix
    return run_matrix(argv)


COMMANDS = {"explain": explain, "run": run, "env": env_command, "matrix": matrix}
# utf8env's own failures in `run` exit 125, so that the child's 126/127/1/2 stay the child's.
_OWN_FAILURE = {"run": 125}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        from .matrix_cli import USAGE as MATRIX_USAGE
        sys.stdout.write("usage: %s\n       %s\n       %s\n       %s\n" % (USAGE, RUN_USAGE, ENV_USAGE, MATRIX_USAGE))
        return 0 if argv else 2
    handler = COMMANDS.get(argv[0])
    try:
        if handler is None:
            raise UsageError("unknown command %r: expected one of %s" % (argv[0], ", ".join(sorted(COMMANDS))))
        return handler(argv[1:])
    except Utf8envError as error:
        sys.stderr.write("utf8env: error: %s\n" % error)
        if isinstance(error, UsageError):
            return _OWN_FAILURE.get(argv[0], error.exit_code)
        return error.exit_code
    except BrokenPipeError:
        return 1
