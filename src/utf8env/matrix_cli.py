"""`utf8env matrix`: parse the command line, run matrix.py, print matrix_report's page.
Raises UsageError for bad input; cli.main prints it."""
import os
import sys
import time

from .errors import UsageError

USAGE = ("utf8env matrix [--python PATH]... [--env-set NAME]... [--stdin FILE] [--hostile-files] "
         "[--format text|markdown|html|json] [--timeout SECONDS] [--] [COMMAND [ARGS...]]")
_WITH_VALUE = ("--python", "--env-set", "--stdin", "--format", "--timeout")
_FLAGS = ("--hostile-files", "--help", "-h")


def parse(argv):
    """(options dict, command list)."""
    opts = {"--python": [], "--env-set": [], "--stdin": None, "--format": "text",
            "--timeout": None, "--hostile-files": False, "--help": False}
    words = list(argv)
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--":
            return opts, words[i + 1:]
        if not word.startswith("-") or word == "-":
            return opts, words[i:]
        name, eq, value = word.partition("=")
        if name in _WITH_VALUE:
            if not eq:
                if i + 1 >= len(words):
                    raise UsageError("matrix: %s needs a value (usage: %s)" % (name, USAGE))
                i += 1
                value = words[i]
            if isinstance(opts[name], list):
                opts[name].extend(v for v in value.split(",") if v) if name == "--env-set" else opts[name].append(value)
            else:
                opts[name] = value
        elif word in _FLAGS and not eq:
            opts["--help" if word == "-h" else word] = True
        else:
            raise UsageError("matrix: unknown option %r (usage: %s)" % (word, USAGE))
        i += 1
    return opts, []


def _pythons(paths):
    from . import matrix
    from .interpreters import Interpreter
    found = []
    for path in paths:
        if os.sep not in path:
            import shutil
            path = shutil.which(path) or path
        if not os.access(path, os.X_OK) or os.path.isdir(path):
            raise UsageError("--python %r: not an executable file" % path)
        found.append(Interpreter(matrix.identify(path), [os.path.abspath(path)], "/"))
    return found


def _progress():
    """A callback printing one progress line on stderr once the run takes more than a
    second, when stderr is a terminal; None otherwise."""
    if not sys.stderr.isatty():
        return None
    started = time.monotonic()

    def show(done, total):
        if time.monotonic() - started > 1:
            sys.stderr.write("\rutf8env matrix: %d/%d jobs" % (done, total))
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()
    return show


def matrix(argv):
    from . import matrix as m, matrix_report
    opts, command = parse(argv)
    if opts["--help"]:
        sys.stdout.write("usage: %s\n" % USAGE)
        return 0
    fmt = opts["--format"]
    if fmt not in matrix_report.FORMATS:
        raise UsageError("--format %r: expected one of %s" % (fmt, ", ".join(matrix_report.FORMATS)))
    timeout = m.DEFAULT_TIMEOUT
    if opts["--timeout"] is not None:
        try:
            timeout = float(opts["--timeout"])
        except ValueError:
            timeout = -1
        if timeout <= 0:
            raise UsageError("--timeout %r: expected a positive number of seconds" % opts["--timeout"])
    from . import worlds
    ok, why = worlds.available()
    if not ok:
        raise UsageError("matrix: " + why)
    pythons = _pythons(opts["--python"])
    if not command:
        for name in ("--env-set", "--stdin"):
            if opts[name]:
                raise UsageError("matrix: %s applies to a COMMAND (the PEP reproduction has "
                                 "its own environments)" % name)
        if opts["--hostile-files"]:
            raise UsageError("matrix: --hostile-files applies to a COMMAND")
        envs = None
        if pythons:
            py27 = [p for p in pythons if p.version == "2.7"]
            envs = m.pep_environments([p for p in pythons if p.version != "2.7"], py27[0] if py27 else None)
        result = m.run_pep(envs, timeout=timeout, progress=_progress())
        sys.stdout.write(matrix_report.render(result, fmt))
        return 0
    stdin = b""
    if opts["--stdin"] is not None:
        try:
            with open(opts["--stdin"], "rb") as f:
                stdin = f.read()
        except OSError as error:
            raise UsageError("--stdin %r: %s" % (opts["--stdin"], error.strerror))
    if not pythons:
        from . import interpreters
        pythons = [i for i in interpreters.interpreters() if i.root == "/"]
        if not pythons:
            raise UsageError("matrix: no interpreter found; give --python PATH")
    result = m.run_program(command, pythons, opts["--env-set"] or m.DEFAULT_ENV_SETS, stdin,
                           opts["--hostile-files"], timeout=timeout, progress=_progress())
    sys.stdout.write(matrix_report.render(result, fmt))
    return 1 if result["problems"] else 0
