"""`utf8env run` starts as cheaply as it claims (README, "How the `utf8env` command
starts"): utf8env's interpreter, started as the compiled launcher starts it for `run`,
imports only its own modules and what every interpreter has loaded before any code runs.
A new import on that path fails here, so that the cost is a decision, not an accident
(benchmarks/bench_launch.py measures it)."""
import os
import subprocess

import pytest

from utf8env import _locales as locales
from utf8env._environment import KEPT_ASIDE
from support import machine
from utf8env._own_command import own_command

# What `python -I -S -c pass` imports itself (3.6-3.13 differ a little).
_INTERPRETER = {"_abc", "_codecs", "_collections", "_frozen_importlib", "_frozen_importlib_external",
                "_imp", "_io", "_signal", "_thread", "_warnings", "_weakref", "abc", "codecs",
                "encodings", "encodings.aliases", "encodings.utf_8", "encodings.latin_1", "io",
                "marshal", "posix", "time", "zipimport", "builtins", "sys",
                "linecache"}       # 3.13 imports it itself for -c (tracebacks show the source)
# utf8env's own modules on the way (`run -- COMMAND` makes no declaration: no _options.py;
# the launcher answered the locale question: no _locale; a program that is not Python
# needs the coercion rules of _engine/preconfig.py and nothing else of the engine).
_LAUNCHER = {"utf8env", "utf8env._cli", "utf8env._environment", "utf8env._run",
             "utf8env._engine", "utf8env._engine.preconfig"}
# A command whose name, symlink or #! line may say Python: identified by interpreter.py
# (the cache answers a known one: nothing more loads; no os for a venv's symlinked python).
# A 3.7+ with nothing asked is left as it is: no plan, no engine.
_FOR_A_PYTHON = {"utf8env._interpreter", "utf8env._errors", "utf8env._engine.profiles",
                 "utf8env._engine.records"}
_START = "import sys; sys.path.insert(0, sys.argv[2]); from utf8env._cli import start; start()"


def _imports(python, words, env):
    """The modules utf8env's interpreter imports for `utf8env WORDS...`, started as
    scripts/launcher.c starts it: LC_ALL=C, the variables kept aside and libc's answers to
    the locale question as arguments, and for `run` the plan written on a pipe."""
    kept = ["%s=%s" % (name, env[name]) for name in KEPT_ASIDE if name in env]
    names = locales.candidate_names(env)
    facts = locales.facts(env, names)
    answers = []
    for name in names:
        answers += [name, facts.c_codeset if name == "C" else facts.codesets.get(name, "")]
    child_env = {name: value for name, value in env.items() if name not in KEPT_ASIDE}
    child_env["LC_ALL"] = "C"
    folder = own_command(python)[-1]
    run = words[0] == "run"
    read_end, write_end = os.pipe()
    # (No installed command's path: the package's folder instead of its lib/pythonX.Y.)
    argv = ([python, "-X", "importtime", "-I", "-S", "-c", _START, "", folder,
             str(write_end) if run else "", "", "", str(len(kept))] + kept + [str(len(names))]
            + answers + words)
    out = subprocess.run(argv, env=child_env, pass_fds=[write_end], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    os.close(write_end)
    plan = os.read(read_end, 1 << 16) if run else b"exec\0"
    os.close(read_end)
    assert (out.returncode, plan[:5]) == (0, b"exec\0"), out.stderr
    names = set()
    for line in out.stderr.decode().splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            names.add(line.rsplit("|", 1)[1].strip())
    return names - {"imported package"}


def _pythons():
    """The versions checked: each a test of its own, skipped where it is missing."""
    return ["3.7", "3.11", "3.13"]


@pytest.mark.parametrize("python", _pythons())
def test_run_of_a_program_imports_only_the_launcher(python):
    python = machine.python(python)
    env = {"PATH": "/usr/bin:/bin", "LANG": "C"}
    assert _imports(python, ["run", "--", "/bin/true"], env) - _INTERPRETER == _LAUNCHER


@pytest.mark.parametrize("python", _pythons())
def test_run_of_a_known_python_imports_only_the_launcher(python, tmp_path):
    python = machine.python(python)
    env = {"PATH": "/usr/bin:/bin", "LANG": "C", "HOME": str(tmp_path)}
    target = [python, "-c", "pass"]
    _imports(python, ["run", "--"] + target, env)       # the first run asks it and caches
    assert _imports(python, ["run", "--"] + target, env) - _INTERPRETER == _LAUNCHER | _FOR_A_PYTHON


@pytest.mark.parametrize("python", _pythons())
def test_run_of_a_venv_console_script_imports_only_the_launcher(python, tmp_path):
    python = machine.python(python)
    # #!/venv/bin/python, a symlink to the interpreter: its name says Python, so the link
    # is not resolved (that would import os).
    venv = tmp_path / "venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").symlink_to(python)
    script = venv / "tool"
    script.write_text("#!%s\npass\n" % (venv / "python"))
    script.chmod(0o755)
    env = {"PATH": "/usr/bin:/bin", "LANG": "C", "HOME": str(tmp_path)}
    _imports(python, ["run", "--", str(script)], env)   # the first run asks it and caches
    assert _imports(python, ["run", "--", str(script)], env) - _INTERPRETER == _LAUNCHER | _FOR_A_PYTHON


@pytest.mark.parametrize("python", _pythons())
def test_run_of_a_symlinked_program_reads_the_link_without_os(python, tmp_path):
    python = machine.python(python)
    # /bin/sh -> dash: a link's target names it, read without importing os, and a program
    # that is no Python loads no interpreter.py.
    (tmp_path / "tool").symlink_to("/bin/true")
    env = {"PATH": "/usr/bin:/bin", "LANG": "C", "HOME": str(tmp_path)}
    assert _imports(python, ["run", "--", str(tmp_path / "tool")], env) - _INTERPRETER == _LAUNCHER
