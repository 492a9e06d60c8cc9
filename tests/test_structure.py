"""Rules of the code's structure that CONTRIBUTING states, held by reading src/ (AST).

- One source of the environment: the user's environment is read through
  utf8env._environment (inherited(), user_environ()), never from os.environ, which
  under the installed command lacks what the launcher kept aside (PYTHONHASHSEED,
  PYTHONMALLOC, LC_ALL, ...). A read of a process's own environment on purpose is
  listed in OWN_ENVIRONMENT with its reason.
- Layers (LAYERS): an import goes to its module's layer or below, at module and at
  function level; _engine imports nothing of the rest; _cli imports the other modules
  inside functions alone, and nothing imports it but __main__;
  a tool imports no other tool but the debts TOOL_TO_TOOL lists with their reasons; no
  import cycle among the modules, imports inside functions counted (CYCLES_LEFT: none); utf8env's modules imported inside functions only where LAZY says
  why (the measured start paths, code run in other processes, debts).
- Constants once: the code pages' one table (profiles.CODE_PAGES); the launcher's and the
  shell stub's tables (the variables kept aside, the locale names asked) equal to the
  Python definitions they copy; one way to kill a process group (_processes.kill_group,
  its standalone copies equal to it).
"""
import ast
import functools
import pathlib
import re

import pytest

pytestmark = pytest.mark.fast

SRC = pathlib.Path(__file__).resolve().parent.parent / "src" / "utf8env"

# Code that runs standalone inside another interpreter (a child, a suite's own processes,
# the supervisor of a readiness run, started by its file's path): its environment is its
# own by definition.
CHILD_SIDE = ("_child/", "readiness/_childsite/", "readiness/_supervise.py")

# (module, function) -> why it reads its own process's environment rather than the user's.
OWN_ENVIRONMENT = {
    ("_locales.py", "_c_locpath"):
        "LOCPATH in this process's C environment, which a fork passes to the probe",
    ("_locales.py", "_adopt_locpath"):
        "sets LOCPATH in this process's C environment for a fork, and restores it",
    ("_runtime.py", "initialize"):
        "the API's initialize() acts in the caller's process, as CPython reads its own",
    ("doctor/_place.py", "_probe"):
        "the probe's child gets this process's environment, one variable changed (a fork "
        "that unsets 100k variables one by one takes half a minute)",
    ("readiness/plugin.py", "pytest_cmdline_main"):
        "the pytest plugin runs inside the user's suite",
    ("readiness/_recorder.py", "*"):
        "runs inside the user's suite (the pytest plugin's recorder)",
    ("readiness/_children.py", "*"):
        "runs inside the user's suite: sets the environment its processes inherit",
    ("readiness/_unittest_runner.py", "*"):
        "runs inside the user's suite (the unittest runner's recorder)",
}

_READS = ("environ", "environb", "getenv", "getenvb")
_MODULES = ("os", "posix", "nt")


@functools.lru_cache(maxsize=None)
def _modules():
    """[(path below SRC, its AST)], parsed once for every test here."""
    return [(path.relative_to(SRC).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
            for path in sorted(SRC.rglob("*.py"))]


def _functions(tree):
    """(node, name of the outermost function or class around it; "" at module level)."""
    for top in tree.body:
        name = getattr(top, "name", "")
        for node in ast.walk(top):
            yield node, name


def _aliases(tree):
    """The names os, posix and nt are bound to in a module (at any level): _environment's
    `system` is posix (nt on Windows); a module may take os from sys.modules too."""
    names = set(_MODULES)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.asname or a.name for a in node.names if a.name in _MODULES)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").endswith("_environment"):
            names.update(a.asname or a.name for a in node.names if a.name == "system")
    return names


@functools.lru_cache(maxsize=None)
def environment_reads():
    """[(module, function, line)] of every read of os.environ (environb, getenv, ...)."""
    found = []
    for module, tree in _modules():
        if module == "_environment.py" or module.startswith(CHILD_SIDE):
            continue
        aliases = _aliases(tree)
        for node, function in _functions(tree):
            if (isinstance(node, ast.Attribute) and node.attr in _READS
                    and isinstance(node.value, ast.Name) and node.value.id in aliases):
                found.append((module, function, node.lineno))
            elif (isinstance(node, ast.ImportFrom) and node.module in _MODULES
                  and any(a.name in _READS for a in node.names)):
                found.append((module, function, node.lineno))
    return found


def _allowed(module, function):
    return (module, function) in OWN_ENVIRONMENT or (module, "*") in OWN_ENVIRONMENT


def test_the_users_environment_is_read_through_environment_alone():
    unlisted = ["%s:%d (%s)" % (module, line, function or "module level")
                for module, function, line in environment_reads()
                if not _allowed(module, function)]
    assert unlisted == [], (
        "read the user's environment with utf8env._environment.user_environ() or "
        "inherited(), or list the read in OWN_ENVIRONMENT with its reason")


def test_every_listed_own_environment_read_is_still_there():
    reads = {(module, function) for module, function, _ in environment_reads()}
    modules = {module for module, _ in reads}
    stale = sorted(key for key in OWN_ENVIRONMENT
                   if (key not in reads if key[1] != "*" else key[0] not in modules))
    assert stale == []


def _imports(module, tree):
    """[(line, absolute dotted name)] of every import in `module` (a path below SRC)."""
    package = ["utf8env"] + module.split("/")[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            if node.module:
                found.append((node.lineno, target))
            else:       # from . import x: each x is a module of that package
                found.extend((node.lineno, target + "." + a.name) for a in node.names)
    return found


def test_the_engine_imports_nothing_of_the_rest():
    outside = ["%s:%d imports %s" % (module, line, name)
               for module, tree in _modules() if module.startswith("_engine/")
               for line, name in _imports(module, tree)
               if name.split(".")[0] == "utf8env" and not name.startswith("utf8env._engine")]
    assert outside == []


def test_the_cli_is_imported_by_main_alone():
    # CONTRIBUTING: nothing imports _cli but __main__ (and the launcher's start code).
    importers = ["%s:%d" % (module, line) for module, tree in _modules()
                 for line, name in _imports(module, tree)
                 if name == "utf8env._cli" and module not in ("__main__.py", "_cli.py")]
    assert importers == []


def test_the_cli_imports_the_others_inside_functions_alone():
    # CONTRIBUTING: `_cli` imports the others only inside functions (each command pays
    # for its own modules alone); the package's __version__ is no module.
    tree = ast.parse((SRC / "_cli.py").read_text(encoding="utf-8"))
    top = ast.Module(body=[node for node in tree.body if not isinstance(
        node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))], type_ignores=[])
    assert [name for _, name in _imports("_cli.py", top)
            if name.startswith("utf8env.") and name != "utf8env.__version__"] == []


def test_the_code_pages_have_one_table():
    # profiles.CODE_PAGES is the table; Wine has a Unix locale for each but 65001, and
    # each Windows stand-in world names one of them.
    from utf8env._engine import profiles
    from utf8env._windows import wine
    from utf8env._worlds import catalog
    assert sorted(wine.LOCALES) == [page for page in profiles.CODE_PAGES if page != 65001]
    assert wine.CODE_PAGES == tuple(sorted(wine.LOCALES))
    assert wine.DEFAULT_CODE_PAGE == profiles.DEFAULT_CODE_PAGE
    assert [catalog.WORLD[name].windows in wine.CODE_PAGES for name in catalog.WINDOWS] == [
        True] * len(catalog.WINDOWS)


# The tools (layer 4): each a leaf; what two of them share moves down to layer 2 (DESIGN,
# CONTRIBUTING). The imports between tools that remain, each with why, until they move:
# a new one fails, and one that has gone must leave this list.
TOOLS = ("utf8env._explain", "utf8env.doctor", "utf8env.fixer", "utf8env.matrix",
         "utf8env.readiness")
TOOL_TO_TOOL = {}


def _tool(name):
    return next((tool for tool in TOOLS if name == tool or name.startswith(tool + ".")), None)


def _tool_imports():
    """{(module, the tool it imports)} of every import of one tool by another."""
    found = set()
    for module, tree in _modules():
        own = _tool("utf8env." + module[:-3].replace("/", "."))
        for _, name in _imports(module, tree):
            other = _tool(name)
            if own and other and other != own:
                found.add((module, other))
    return found


def test_tools_import_no_other_tool_but_the_listed_debts():
    assert sorted(_tool_imports() - set(TOOL_TO_TOOL)) == []
    assert sorted(set(TOOL_TO_TOOL) - _tool_imports()) == []


# -- layers -------------------------------------------------------------------------------

# Each top-level module or package of utf8env in its layer (CONTRIBUTING, "How the code is
# organised"): an import, at module or at function level, goes to its own layer or one
# below, never above; a new module is placed here.
LAYERS = {
    # 0: the pure engine
    "_engine": 0,
    # 1: the platform's facts and what the layers above share: this process's environment,
    # the libc's locales, interpreters, processes, output, locale worlds, Windows under
    # Wine, Python sources, the option parser
    "_environment": 1, "_locales": 1, "_interpreter": 1, "_discovery": 1, "_processes": 1,
    "_errors": 1, "_output": 1, "_own_command": 1, "_pages": 1, "_probe": 1,
    "_child": 1, "_runtime": 1, "_shellquote": 1, "_userfile": 1,
    "_windows": 1, "_worlds": 1, "_sources": 1, "_options": 1,
    # 2: applying: run and its plan, env and its formats, the public API in this process
    "_run": 2, "_plan": 2, "_plan_python": 2, "_env": 2, "_env_formats": 2, "__init__": 2,
    # 3: the tools, each a leaf (TOOL_TO_TOOL)
    "_explain": 3, "doctor": 3, "fixer": 3, "matrix": 3, "readiness": 3,
    # 4: the CLI, and what joins two tools
    "_cli": 4, "_commands": 4, "_prove": 4, "__main__": 4,
}


def _layer(name):
    """The layer of a module's dotted name (utf8env.x.y)."""
    parts = name.split(".")
    return LAYERS[parts[1] if len(parts) > 1 else "__init__"]


def test_every_module_has_its_layer():
    tops = sorted(set(path.name[:-3] if path.suffix == ".py" else path.name
                      for path in SRC.iterdir()
                      if path.suffix == ".py" or (path / "__init__.py").exists()))
    assert tops == sorted(LAYERS)


def test_imports_go_to_the_same_layer_or_below():
    upward = ["%s (%d) imports %s (%d)" % (name, _layer(name), target, _layer(target))
              for name, targets in sorted(_import_graph().items())
              for target in sorted(targets) if _layer(target) > _layer(name)]
    assert upward == []


# -- imports inside functions ---------------------------------------------------------------

# The modules that import utf8env's own modules inside functions, each with why: the start
# paths that tests measure (each command pays for its own modules alone), code that runs
# in another process, and the debts left (a new one fails; one that has gone must leave).
LAZY = {
    "_cli.py": "the start path: each command loads its own modules (test_startup_imports)",
    "_commands.py": "the start path: each handler loads its command's modules",
    "_run.py": "the start path of `run` (test_startup_imports, benchmarks/bench_launch.py)",
    "_environment.py": "the start path of `run`",
    "_interpreter.py": "the start path of `run` of a Python",
    "_plan.py": "the start path of `run` of a Python",
    "_locales.py": "the start path of `run` where the launcher did not ask the libc",
    "_engine/codecs_by_version.py": "the start path of `run`: the engine's tables on demand",
    "__init__.py": "`import utf8env` (the public API) loads the rest on first use",
    "_explain.py": "the start path of explain (tests/test_explain_imports.py)",
    "readiness/plugin.py": "runs inside the user's pytest: loads only what a run records",
    "readiness/_unittest_runner.py": "runs as the suite's own process (python -m unittest)",
    # doctor's modules that explain loads (tests/test_explain_imports.py): the rest of
    # doctor on demand, so that explain's start stays small
    "doctor/_findings.py": "explain's start", "doctor/_records.py": "explain's start",
    "doctor/_locale_findings.py": "explain's start",
    "doctor/_locale_state.py": "explain's start", "doctor/_fixes.py": "explain's start",
}


def _lazy_importers():
    found = set()
    for module, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                    isinstance(inner, ast.ImportFrom) and (
                        inner.level or (inner.module or "").startswith("utf8env"))
                    for inner in ast.walk(node)):
                found.add(module)
                break
    return found


def test_imports_inside_functions_only_where_listed():
    found = _lazy_importers()
    assert sorted(found - set(LAZY)) == []
    assert sorted(set(LAZY) - found) == []


# -- no import cycle ------------------------------------------------------------------------

# The cycles among the package's modules, counting the imports inside functions too
# (which hide a cycle from `python -c "import ..."`): none is left, and a new one fails.
CYCLES_LEFT = []


def _import_graph():
    """{module: the package's modules it imports, at any level} (a name imported from a
    module counts as that module; a package, as its __init__)."""
    names = {}
    for module, tree in _modules():
        name = "utf8env." + module[:-3].replace("/", ".")
        names[name[:-len(".__init__")] if name.endswith(".__init__") else name] = tree, module
    graph = {}
    for name, (tree, module) in names.items():
        targets = set()
        for _, target in _imports(module, tree):
            while target and target not in names:
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
        graph[name] = targets
    return graph


def _cycles(graph):
    """The strongly connected components of more than one module, each sorted (Tarjan's,
    by an explicit stack)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def test_the_cycles_among_modules_are_the_listed_debts():
    assert _cycles(_import_graph()) == sorted(CYCLES_LEFT)


def test_a_cycle_is_found_where_imports_inside_functions_make_one():
    # the test's own check, on a graph with a cycle of three and a module beside it
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles(dict(graph, c={"d"})) == []


# -- one way to kill a process group ------------------------------------------------------

# The standalone copies of _processes.kill_group: each file runs by its path in another
# interpreter (-I), where utf8env cannot be imported.
KILL_GROUP_COPIES = ("_child/world_runner.py", "readiness/_supervise.py")


def _kill_group(module):
    """[the AST of each top-level kill_group() of `module`, dumped]."""
    return [ast.dump(node) for node in dict(_modules())[module].body
            if isinstance(node, ast.FunctionDef) and node.name == "kill_group"]


def test_the_copies_of_kill_group_are_the_one_definition():
    one = _kill_group("_processes.py")
    assert len(one) == 1
    assert [_kill_group(module) for module in KILL_GROUP_COPIES] == [one] * len(
        KILL_GROUP_COPIES)


def test_process_groups_are_killed_by_kill_group_alone():
    elsewhere = ["%s:%d (%s)" % (module, node.lineno, function or "module level")
                 for module, tree in _modules() for node, function in _functions(tree)
                 if isinstance(node, ast.Attribute) and node.attr == "killpg"
                 and function != "kill_group"]
    assert elsewhere == []


# -- the launcher's and the stub's tables, held equal to the Python definitions ---------------

SCRIPTS = SRC.parent.parent / "scripts"


def _c_strings(name):
    """The strings of `static const char *const NAME[] = {...};` in scripts/launcher.c."""
    text = (SCRIPTS / "launcher.c").read_text(encoding="utf-8")
    body = re.search(r"\b%s\[\]\s*=\s*\{([^}]*)\}" % name, text)
    assert body, "launcher.c has no table %s" % name
    return tuple(re.findall(r'"([^"]*)"', body.group(1)))


def test_the_launcher_and_the_stub_keep_aside_the_variables_python_names():
    from utf8env import _environment
    assert _c_strings("kept_aside") == _environment.KEPT_ASIDE
    stub = (SCRIPTS / "utf8env.sh").read_text(encoding="utf-8")
    # The stub puts each in front of the arguments: it walks them in reverse.
    words = re.search(r"^for utf8env_name in ([A-Z_ \\\n]+); do$", stub, re.M)
    assert tuple(reversed(words.group(1).replace("\\", " ").split())) == _environment.KEPT_ASIDE


def test_the_launcher_asks_the_locale_names_python_asks():
    from utf8env import _environment
    from utf8env._engine.preconfig import C_LOCALE_NAMES
    # The C locale, then every coercion target; POSIX is the C locale by another name,
    # which the launcher never asks (to_ask()).
    assert _c_strings("always_asked") == C_LOCALE_NAMES[:1] + _environment._TARGET_NAMES
    assert C_LOCALE_NAMES[1:] == ("POSIX",)
    assert 'strcmp(name, "POSIX") == 0' in (SCRIPTS / "launcher.c").read_text(encoding="utf-8")


# -- the map ------------------------------------------------------------------------------

def test_every_module_is_on_the_map():
    # CONTRIBUTING's "How the code is organised", or its package's own map (the
    # __init__.py docstring), names every module: a new one is placed on the map.
    text = (SRC.parent.parent / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text[text.index("## How the code is organised"):
                   text.index("## How the `utf8env` command starts")]
    unmapped = []
    for module, _ in _modules():
        path = SRC / module
        if path.name == "__init__.py":
            continue
        init = path.parent / "__init__.py"
        own = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or "" \
            if path.parent != SRC and init.exists() else ""
        name = re.compile(r"(?<!\w)%s(?!\w)" % re.escape(path.stem))
        if not name.search(section) and not name.search(own):
            unmapped.append(module)
    assert unmapped == []
