"""The start of the installed `utf8env` command, once its -c code (scripts/start.py) has
found the folder pip installed into: load the modules the command needs from the bytecode
pip compiled for them, then run utf8env.cli.main.

Why not `import`: CPython's import machinery is itself Python code (importlib._bootstrap),
and for each of these small modules it spends longer finding, locking and setting up the
module than unmarshalling and running it: for the 13 modules of `utf8env run -- COMMAND`,
about half a millisecond of a start-up timed against a bare `python -I -S` exec wrapper
(benchmarks/bench_launch.py). Here each module is made as importlib makes it (the same
spec, loader and attributes), run from the same .pyc, checked against its source as
importlib checks it, in an order where what it imports is already there. Whatever
cannot be checked that way (no .pyc, a stale or hash-based one, -O, a pycache prefix,
unreadable data) goes to importlib's own loader: nothing runs that `import` would not run.

A top-level module, not one of the package: importing anything of the package first runs
its __init__, which imports the engine through importlib. Python 3.6 syntax, stdlib only.
"""
import _imp
import marshal
import posix
import sys

# The modules every command imports, then those `run` adds, each after the modules it
# imports (a package's __init__ may come after its submodules: it is made, as importlib
# makes it, before them). tests/test_start.py holds the lists to what the commands import.
EVERY_COMMAND = ("utf8env.records", "utf8env.errors", "utf8env.cmdline", "utf8env._child",
                 "utf8env._child.textnames", "utf8env.profiles", "utf8env.policy", "utf8env",
                 "utf8env.cli", "utf8env.environment")
RUN = ("utf8env.launch", "utf8env._child.ask_locales", "utf8env.locales")

_TOP = __file__.rpartition("/")[0]      # the folder this module and the package are in


def start():
    """The command. sys.argv is [-c, the companion's path, the mask of the signals ignored
    on entry, the names of the variables kept aside, ARGS...] (scripts/start.py); exits
    with main()'s status."""
    ignored, hidden = sys.argv[2:4]
    del sys.argv[1:4]
    run = sys.argv[1:2] == ["run"]
    if run:
        # `run` replaces itself with the command within milliseconds: collecting garbage
        # before that is wasted work.
        import gc
        gc.disable()
    load(EVERY_COMMAND + RUN if run else EVERY_COMMAND)
    from utf8env import environment
    environment.ignored_at_start = ignored
    environment.kept_aside = hidden.split()
    from utf8env.cli import main
    sys.exit(main())


def load(names):
    """Import each of `names` (dotted, in the utf8env package beside this module) that is
    not imported yet, in this order."""
    made = _importlib_parts()
    if made is None:
        for name in names:
            __import__(name)
        return
    waiting = {}        # packages made for a submodule, their __init__ not run yet
    for name in names:
        made_before = waiting.pop(name, None)
        if made_before is None and name in sys.modules:
            continue
        _run(name, made_before or _make(name, made, waiting), made)
    for name, made_before in list(waiting.items()):
        _run(name, made_before, made)


def _importlib_parts():
    """(ModuleSpec, SourceFileLoader, the .pyc name suffix, its magic) where this Python
    keeps its .pyc files beside the source, as pip wrote them; else None (-O, a pycache
    prefix, no cache tag): `import` then does it all."""
    bootstrap = sys.modules.get("_frozen_importlib")
    external = sys.modules.get("_frozen_importlib_external")
    tag = sys.implementation.cache_tag
    if (bootstrap is None or external is None or tag is None or sys.flags.optimize
            or getattr(sys, "pycache_prefix", None)):
        return None
    return (bootstrap.ModuleSpec, external.SourceFileLoader, ".%s.pyc" % tag,
            external.MAGIC_NUMBER)


def _make(name, made, waiting):
    """(the module `name` as importlib's FileFinder and module_from_spec make it, not run
    yet; its source's stat or None); its parent packages too, when they are not imported
    (registered, and kept in `waiting`)."""
    module_spec, loader, suffix, _ = made
    parent = name.rpartition(".")[0]
    if parent and parent not in sys.modules and parent not in waiting:
        waiting[parent] = _make(parent, made, waiting)
        sys.modules[parent] = waiting[parent][0]
    folder = _TOP + "/" + name.replace(".", "/")
    # The source's stat, which the .pyc is checked against, says which it is: FileFinder
    # takes a package's folder first, but a module and a package of one name are not here.
    source = _stat(folder + ".py")
    package = source is None
    origin = folder + "/__init__.py" if package else folder + ".py"
    spec = module_spec(name, loader(name, origin), origin=origin, is_package=package)
    spec.has_location = True
    home, _, base = origin.rpartition("/")
    # importlib.util.cache_from_source, for the one case used here (no -O, no prefix).
    spec.cached = home + "/__pycache__/" + base[:-3] + suffix
    if package:
        spec.submodule_search_locations = [folder]
    module = type(sys)(name)
    module.__spec__, module.__loader__, module.__file__ = spec, spec.loader, origin
    module.__package__, module.__cached__ = spec.parent, spec.cached
    if package:
        module.__path__ = spec.submodule_search_locations
    return module, source if source is not None else _stat(origin)


def _run(name, module_and_source, made):
    """Run the module's code in it, registered as importlib registers it (removed if it
    fails; the parent's attribute set once it succeeded)."""
    module, source = module_and_source
    sys.modules[name] = module
    try:
        code = _bytecode(module.__spec__, source, made[3])
        if code is None:
            module.__spec__.loader.exec_module(module)
        else:
            exec(code, module.__dict__)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, sys.modules[name])


def _bytecode(spec, source, magic):
    """The code of spec's .pyc where importlib would run it without reading the source: the
    magic of this Python, a timestamp .pyc (a hash-based one is checked against the
    source's hash: importlib's job), and the source's mtime and size as it recorded them
    (Lib/importlib/_bootstrap_external.py _validate_timestamp_pyc; 3.6's header has no
    flags word, PEP 552). `source`: the source's stat, None if it has none. None otherwise."""
    if source is None:
        return None
    try:
        data = _read(spec.cached)
    except OSError:
        return None
    start = 12 if sys.version_info < (3, 7) else 16
    flags = data[4:8] if start == 16 else b"\0\0\0\0"
    recorded = ((int(source.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
                + (source.st_size & 0xFFFFFFFF).to_bytes(4, "little"))
    if data[:4] != magic or flags != b"\0\0\0\0" or data[start - 8:start] != recorded:
        return None
    try:
        code = marshal.loads(memoryview(data)[start:])
    except (EOFError, ValueError, TypeError):
        return None         # importlib's loader meets the same data and says so
    _imp._fix_co_filename(code, spec.origin)    # as importlib does: the file is here now
    return code


def _read(path):
    fd = posix.open(path, posix.O_RDONLY | getattr(posix, "O_CLOEXEC", 0))
    try:
        # A regular file is read short only at its end: one call for any .pyc here. (Were
        # one cut short, marshal would fail on it, and importlib would load the module.)
        chunks = [posix.read(fd, _CHUNK)]
        while len(chunks[-1]) == _CHUNK:
            chunks.append(posix.read(fd, _CHUNK))
        return b"".join(chunks)
    finally:
        posix.close(fd)


_CHUNK = 1 << 16        # below malloc's threshold for a mapping of its own


def _stat(path):
    try:
        return posix.stat(path)
    except OSError:
        return None
