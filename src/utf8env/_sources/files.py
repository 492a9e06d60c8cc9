"""Which Python sources a folder holds, as `utf8env fix` and readiness's search for
untested call sites walk it: *.py files, sorted, no symbolic link followed or listed,
none in a folder of tools or builds (SKIPPED) or of a virtual environment, none that
git ignores there (`git check-ignore`: git's own rules) or a pattern leaves out."""
import os

# Folders never walked into (a folder holding pyvenv.cfg, a virtual environment, neither).
SKIPPED = frozenset((".git", ".hg", ".svn", "__pycache__", ".tox", ".nox", "node_modules",
                     "build", "dist", "_build", ".eggs", ".mypy_cache", ".pytest_cache",
                     ".ruff_cache", "site-packages", ".venv", "venv"))
SOURCE_SUFFIXES = (".py", ".pyw", ".pyi")


def is_source(path):
    """Whether the file at `path` is a Python source: its suffix, or a python #! line."""
    if path.endswith(SOURCE_SUFFIXES):
        return True
    try:        # a script: what pre-commit's `types: [python]` passes too
        with open(path, "rb") as f:
            first = f.readline(200)
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def excluded(path, patterns):
    """Whether a pattern matches the name of `path` or the whole of it."""
    import fnmatch
    name = os.path.basename(os.path.normpath(path))
    return any(fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(path, p) for p in patterns)


def walk(top, exclude=()):
    """The Python files `fix` takes in the folder `top`: _walk()'s, less those git ignores."""
    found = _walk(top, exclude)
    return _not_ignored(top, found) if found else found


def _walk(top, exclude=()):
    """The *.py files under `top`, sorted, symlinks not followed (nor listed: a link may
    lead out of the tree, or to a file listed already), none that `exclude` matches."""
    found = []
    for folder, folders, names in os.walk(top):
        folders[:] = sorted(name for name in folders if name not in SKIPPED
                            and not name.endswith(".egg-info")
                            and not os.path.islink(os.path.join(folder, name))
                            and not os.path.exists(os.path.join(folder, name, "pyvenv.cfg"))
                            and not excluded(os.path.join(folder, name), exclude))
        for name in sorted(names):
            path = os.path.join(folder, name)
            if name.endswith(".py") and not os.path.islink(path) and not excluded(path, exclude):
                found.append(path)
    return found


def _not_ignored(top, found):
    """`found` (files walked under the folder `top`) less those git ignores there: one
    `git check-ignore` (git's own rules, tracked files never ignored). Where git is
    missing, `top` is in no work tree, or `top` itself is ignored (named on purpose: a
    pyenv version's library in pyenv's own clone), all of them."""
    import subprocess
    parent, name = os.path.split(os.path.abspath(top))
    try:
        if name and subprocess.run(["git", "check-ignore", "-q", "--", name], cwd=parent,
                                   stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL).returncode == 0:
            return found
        proc = subprocess.run(["git", "check-ignore", "--stdin", "-z"], cwd=top,
                              input=b"".join(os.fsencode(os.path.relpath(p, top)) + b"\0"
                                             for p in found),
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:
        return found
    if proc.returncode != 0:        # 1: none ignored; 128: not a work tree (or no git)
        return found
    ignored = set(proc.stdout.split(b"\0"))
    return [p for p in found if os.fsencode(os.path.relpath(p, top)) not in ignored]
