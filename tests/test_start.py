"""The installed command's start (src/_utf8env_start.py): it loads the modules a command
needs from the bytecode pip compiled, without importlib's machinery, and must give what
`import` gives: the same modules, specs and attributes, never a .pyc that `import` would
not run (stale, hash-based), and the source where there is no bytecode. Its lists of
modules are held to what the commands import, and those modules must all take that path
(the start-up it buys is benchmarks/bench_launch.py's)."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from support import install
from utf8env.matrix import discovery as interpreters

_PYENV = {i.version: i.argv[0] for i in interpreters.interpreters() if i.root == "/"}
# 3.6 (its .pyc header has no flags word), a recent one, and the one running the tests.
_PYTHONS = {os.path.realpath(p): p for p in
            [_PYENV[v] for v in ("3.6", "3.13") if v in _PYENV] + [sys.executable]}

# Run in the interpreter under test, `argv[1]` the folder of the start module: the start
# module imported, and every module that importlib's SourceFileLoader loads recorded.
_RECORDING = r"""
import json, sys
sys.path[:0] = [sys.argv[1]]
import _utf8env_start as start
external = sys.modules["_frozen_importlib_external"]
through_importlib = []
get_code = external.SourceFileLoader.get_code
def recording(self, name):
    through_importlib.append(name)
    return get_code(self, name)
external.SourceFileLoader.get_code = recording
"""
# Then: the modules named load through importlib or through the start module (argv[2]);
# prints what each module looks like, and which went through importlib.
_PROBE = _RECORDING + r"""
names = start.EVERY_COMMAND + start.RUN
if sys.argv[2] == "import":
    for name in names:
        __import__(name)
else:
    start.load(names)
def described(name):
    module = sys.modules[name]
    spec = module.__spec__
    parent, _, child = name.rpartition(".")
    return dict(
        file=module.__file__, cached=module.__cached__, package=module.__package__,
        path=getattr(module, "__path__", None), doc=module.__doc__,
        loader_is_specs=module.__loader__ is spec.loader,
        spec=[spec.name, spec.origin, spec.cached, spec.parent, spec.submodule_search_locations,
              spec.has_location, type(spec.loader).__name__, spec.loader.name, spec.loader.path],
        attribute_of_parent=not parent or getattr(sys.modules[parent], child) is module,
        names=sorted(vars(module)))
print(json.dumps(dict(through_importlib=through_importlib,
                      modules={name: described(name) for name in names},
                      stale=getattr(sys.modules["utf8env.records"], "STALE", None))))
"""


@pytest.fixture(params=sorted(_PYTHONS), ids=os.path.basename)
def tree(request, tmp_path):
    """(interpreter, a folder holding a copy of the start module and the package, compiled
    by that interpreter as pip compiles at install)."""
    python = _PYTHONS[request.param]
    folder = tmp_path / "site-packages"
    folder.mkdir()
    shutil.copy(os.path.join(install.ROOT, "src", "_utf8env_start.py"), str(folder))
    shutil.copytree(os.path.join(install.ROOT, "src", "utf8env"), str(folder / "utf8env"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    _compile(python, folder)
    return python, folder


def _compile(python, folder, *options):
    subprocess.run([python, "-I", "-m", "compileall", "-q"] + list(options) + [str(folder)],
                   check=True, stdout=subprocess.DEVNULL)


def _probe(python, folder, how):
    out = subprocess.run([python, "-I", "-S", "-c", _PROBE, str(folder), how],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    return json.loads(out.stdout.decode())


def _lists():
    """(EVERY_COMMAND, RUN) of the checkout's start module."""
    sys.path.insert(0, os.path.join(install.ROOT, "src"))
    try:
        import _utf8env_start
    finally:
        del sys.path[0]
    return _utf8env_start.EVERY_COMMAND, _utf8env_start.RUN


def _names():
    every_command, run = _lists()
    return list(every_command + run)


def test_modules_are_made_as_import_makes_them_from_their_bytecode(tree):
    python, folder = tree
    imported, loaded = _probe(python, folder, "import"), _probe(python, folder, "load")
    assert loaded["modules"] == imported["modules"]
    assert all(m["attribute_of_parent"] and m["loader_is_specs"]
               for m in loaded["modules"].values())
    assert sorted(imported["through_importlib"]) == sorted(_names())
    assert loaded["through_importlib"] == []


def _edit_records(folder, keep_size=False, later=0):
    """Change utf8env/records.py after it was compiled, so that it sets STALE: appended
    (another size), or in place of its first bytes (the same size), its mtime moved on by
    `later` seconds."""
    path = folder / "utf8env" / "records.py"
    source, stat = path.read_bytes(), path.stat()
    line = b"STALE = 'the source'\n"
    if keep_size:
        # The docstring's opening quotes and first words become the line and new quotes.
        edited = line + b'"""' + source[len(line) + 3:]
        assert len(edited) == len(source)
    else:
        edited = source + b"\n" + line
    path.write_bytes(edited)
    os.utime(str(path), (stat.st_atime, stat.st_mtime + later))


@pytest.mark.parametrize("change", ["size", "mtime"])
def test_stale_bytecode_is_not_run(tree, change):
    python, folder = tree
    if change == "size":
        _edit_records(folder)
    else:
        _edit_records(folder, keep_size=True, later=10)
    loaded = _probe(python, folder, "load")
    assert loaded["stale"] == "the source"
    assert loaded["through_importlib"] == ["utf8env.records"]


def test_without_bytecode_the_source_is_run(tree):
    python, folder = tree
    for cache in folder.rglob("__pycache__"):
        shutil.rmtree(str(cache))
    loaded = _probe(python, folder, "load")     # first: importlib writes the bytecode
    assert sorted(loaded["through_importlib"]) == sorted(_names())
    assert loaded["modules"] == _probe(python, folder, "import")["modules"]


def test_hash_based_bytecode_is_left_to_importlib(tree):
    python, folder = tree
    version = subprocess.run([python, "-c", "import sys; print(sys.version_info >= (3, 7))"],
                             stdout=subprocess.PIPE, check=True).stdout
    if version.strip() != b"True":
        pytest.skip("hash-based .pyc files are 3.7+ (PEP 552)")
    _compile(python, folder, "-f", "--invalidation-mode", "checked-hash")
    _edit_records(folder, keep_size=True)       # the same size and mtime
    loaded = _probe(python, folder, "load")
    assert loaded["stale"] == "the source"
    assert sorted(loaded["through_importlib"]) == sorted(_names())


# What a command imports of utf8env, started as the installed command starts it (its
# exec replaced by a print of the modules imported and which went through importlib).
_COMMAND = _RECORDING + r"""
import posix
def report(*args):
    ours = sorted(n for n in sys.modules if n == "utf8env" or n.startswith("utf8env."))
    posix.write(2, json.dumps([ours, through_importlib]).encode())
    posix._exit(0)
posix.execve = report
sys.argv[1:] = ["companion", "", ""] + sys.argv[2:]
try:
    start.start()
finally:
    report()
"""


@pytest.mark.parametrize("command", [["run", "--", "/bin/true"], ["--version"],
                                     ["explain", "--version", "3.7", "--empty-env"]])
def test_the_lists_are_what_the_commands_import(tree, command):
    """`run -- COMMAND` imports exactly the lists' modules, every command imports at least
    EVERY_COMMAND's, and none of those goes through importlib."""
    python, folder = tree
    out = subprocess.run([python, "-I", "-S", "-c", _COMMAND, str(folder)] + command,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True,
                         env={"PATH": "/usr/bin:/bin", "LANG": "C"})
    imported, through_importlib = json.loads(out.stderr.decode())
    every_command = set(_lists()[0])
    if command[0] == "run":
        assert set(imported) == set(_names())
        assert through_importlib == []
    else:
        assert every_command <= set(imported)
        assert not every_command & set(through_importlib)
