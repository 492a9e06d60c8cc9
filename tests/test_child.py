"""utf8env/_child: the code that runs inside another interpreter is loaded there by file
path, so every file must be valid Python 3.6, import only the standard library (of 3.6),
import nothing relative and nothing of utf8env (so must _engine/textnames.py, which it
loads from there); the folder put on a child's PYTHONPATH
holds the bootstrap alone; and the programs sent with -c run as they are."""
import ast
import json
import os
import subprocess
import sys

import pytest

from support import machine
from utf8env import _locales as locales
from utf8env import _probe as probe, _plan_python as python_child

CHILD = os.path.join(os.path.dirname(os.path.abspath(locales.__file__)), "_child")
# The engine's codec names, which the child code imports from their folder.
TEXTNAMES = os.path.join(os.path.dirname(CHILD), "_engine", "textnames.py")
FILES = sorted([os.path.join(folder, name)
                for folder, dirs, names in os.walk(CHILD)
                for name in names if name.endswith(".py")] + [TEXTNAMES])
# Sent with `python -c SOURCE`: 3.6 decodes its command line with the locale's codec.
SENT_WITH_C = ("probe.py", "ask_locales.py")


def _pyenv(version):
    """[the pyenv interpreter of `version`] (the real one, whatever the test runs on)."""
    return [machine.python(version)]


def _imports(path):
    """[(module, level)] of every import statement in the file, at any depth."""
    with open(path, "rb") as f:
        tree = ast.parse(f.read(), path)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name, 0) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.module or "", node.level))
    return out


@pytest.mark.fast
def test_the_files_are_found():
    names = {os.path.relpath(path, CHILD) for path in FILES}
    assert {"__init__.py", "../_engine/textnames.py", "reconfigure.py", "probe.py", "ask_locales.py",
            os.path.join("bootstrap", "sitecustomize.py")} <= names


def test_every_file_compiles_with_python_36():
    code = ("import sys\nfor path in sys.argv[1:]:\n"
            "    with open(path, 'rb') as f:\n"
            "        compile(f.read(), path, 'exec')\n")
    result = subprocess.run(_pyenv("3.6") + ["-I", "-S", "-c", code] + FILES,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert result.returncode == 0, result.stderr.decode(errors="replace")


def test_the_probe_compiles_with_python_27():
    path = os.path.join(CHILD, "probe.py")
    code = "import sys\ncompile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')\n"
    result = subprocess.run(_pyenv("2.7") + ["-E", "-S", "-c", code, path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert result.returncode == 0, result.stderr.decode(errors="replace")


@pytest.mark.fast
def test_nothing_relative_and_nothing_of_utf8env():
    bad = [(os.path.relpath(path, CHILD), module, level)
           for path in FILES for module, level in _imports(path)
           if level or module.partition(".")[0] == "utf8env"]
    assert bad == []


def test_only_modules_of_the_standard_library_of_36():
    """Every imported module is found by a bare 3.6 (-I -S: no site-packages), or is of
    the standard library of this newer Python."""
    # The bootstrap imports the user's own sitecustomize, if any, to chain to it, and
    # reconfigure.py from its own folder.
    own = {name[:-3] for name in os.listdir(CHILD) if name.endswith(".py")} | {"textnames"}
    modules = sorted({module for path in FILES for module, _ in _imports(path)}
                     - {"sitecustomize"} - own)
    code = ("import importlib.util, json, sys\n"
            "missing = []\n"
            "for name in sys.argv[1:]:\n"
            "    try:\n"
            "        found = importlib.util.find_spec(name) is not None\n"
            "    except ImportError:\n"
            "        found = False\n"
            "    if not found:\n"
            "        missing.append(name)\n"
            "sys.stdout.write(json.dumps(missing))\n")
    result = subprocess.run(_pyenv("3.6") + ["-I", "-S", "-c", code] + modules,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd="/")
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    # Not in 3.6, then of a later standard library (for a branch of a later version).
    later = getattr(sys, "stdlib_module_names", ())
    missing = json.loads(result.stdout.decode("ascii"))
    assert [m for m in missing if m.partition(".")[0] not in later] == []


@pytest.mark.fast
def test_the_programs_sent_with_c_are_ascii():
    for name in SENT_WITH_C:
        with open(os.path.join(CHILD, name), "rb") as f:
            f.read().decode("ascii")


@pytest.mark.fast
def test_the_bootstrap_folder_holds_only_the_bootstrap():
    """It is first on a child's sys.path: any other module there would shadow the user's."""
    assert os.path.realpath(python_child.BOOTSTRAP_DIR) == os.path.realpath(os.path.join(CHILD, "bootstrap"))
    names = set(os.listdir(python_child.BOOTSTRAP_DIR)) - {"__pycache__"}
    assert names == {"sitecustomize.py"}


def test_the_locale_question_is_the_same_in_a_child_and_in_a_fork():
    names = ["C", "C.UTF-8", "C.utf8", "POSIX", "no_SUCH.locale"]
    result = subprocess.run(_pyenv("3.6") + ["-I", "-S", "-c", locales.child_program()] + names,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={"PATH": "/usr/bin:/bin"})
    assert (result.returncode, result.stderr) == (0, b"")
    answer = json.loads(result.stdout.decode("ascii"))
    facts = locales.facts({"PATH": "/usr/bin:/bin"}, names)
    assert answer.pop("C") == facts.c_codeset
    assert answer == facts.codesets
    assert "no_SUCH.locale" not in answer


@pytest.mark.parametrize("version", ["2.7", "3.6"])
def test_the_probe_reports_on_old_interpreters(version):
    options = ["-E", "-s"] if version == "2.7" else ["-I"]      # 2.7 has no -I
    result = subprocess.run(probe.command(_pyenv(version), options), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={"LC_ALL": "C"})
    assert (result.returncode, result.stderr) == (0, b"")
    report = probe.parse(result.stdout)
    assert report["version"] == version and report["lc_ctype"] == "C"
    assert set(report) == {"version", "utf8_mode", "filesystem", "stdin", "stdout", "stderr",
                           "open", "preferred_encoding", "locale_encoding", "lc_ctype", "environ"}
