"""`utf8env fix` where pre-commit and projects run it: the repository's two hooks
(.pre-commit-hooks.yaml) run by a real pre-commit (`try-repo`, which installs this
checkout, uncommitted changes included, in a virtualenv of its own) on a commit's file;
a folder's files that git ignores and those --exclude names are left out; a syntax error
says which Python's parser found it and, where the project's requires-python is newer,
how to run the hook with that Python."""
import os
import subprocess
import sys

import pytest

from utf8env._cli import main
from utf8env.fixer import _syntax

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CALL = "def f(p):\n    return open(p).read()\n"
FIXED = 'def f(p):\n    return open(p, encoding="utf-8").read()\n'
# valid from Python 3.12 (PEP 701): a syntax error to 3.11's parser
NEW_SYNTAX = 'x = f"{"a"}"\n' + CALL


def _fix(capsys, *words):
    status = main(["fix"] + list(words))
    out, err = capsys.readouterr()
    return status, out, err


def _git(folder, *words):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org",
               GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    subprocess.run(["git"] + list(words), cwd=str(folder), env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# -- what a folder's walk leaves out -------------------------------------------------------

@pytest.mark.fast
def test_a_folders_files_that_git_ignores_are_left_out(tmp_path, monkeypatch, capsys):
    _git(tmp_path, "init", "-q")
    for name in ("pkg/a.py", "generated/g.py", "pkg/out/o.py", "pkg/kept.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(CALL, encoding="utf-8")
    (tmp_path / ".gitignore").write_text("generated/\nout/\nkept.py\n", encoding="utf-8")
    _git(tmp_path, "add", "-f", "pkg/kept.py")      # tracked: never ignored, as git says
    monkeypatch.chdir(str(tmp_path))
    assert _fix(capsys, "--check", ".") == (1, (
        "./pkg/a.py:2:12: open: text in the locale's encoding; fix: encoding=\"utf-8\"\n"
        "./pkg/kept.py:2:12: open: text in the locale's encoding; fix: encoding=\"utf-8\"\n"
        "2 call sites in 2 files open text in the locale's encoding: 2 to fix (--write), 0 "
        "to review\n"), "")
    # a file named on the command line is taken, ignored or not (pre-commit names them)
    assert _fix(capsys, "--check", "generated/g.py")[0] == 1


@pytest.mark.fast
def test_a_folder_named_on_purpose_is_walked_though_git_ignores_it(tmp_path, monkeypatch,
                                                                   capsys):
    """As a pyenv version's library in pyenv's own clone (`/versions/` ignored there): the
    folder the user names is theirs to check."""
    _git(tmp_path, "init", "-q")
    (tmp_path / ".gitignore").write_text("/versions/\n", encoding="utf-8")
    (tmp_path / "versions" / "lib").mkdir(parents=True)
    (tmp_path / "versions" / "lib" / "a.py").write_text(CALL, encoding="utf-8")
    monkeypatch.chdir(str(tmp_path))
    assert _fix(capsys, "--check", "versions/lib") == (1, (
        "versions/lib/a.py:2:12: open: text in the locale's encoding; fix: encoding=\"utf-8\"\n"
        "1 call site in 1 file open text in the locale's encoding: 1 to fix (--write), 0 to "
        "review\n"), "")
    assert _fix(capsys, "--check", ".") == (0, (
        "no call site opens text in the locale's encoding (0 files)\n"), "")


@pytest.mark.fast
def test_outside_a_work_tree_every_file_is_walked(tmp_path, monkeypatch, capsys):
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "g.py").write_text(CALL, encoding="utf-8")
    (tmp_path / ".gitignore").write_text("generated/\n", encoding="utf-8")
    monkeypatch.chdir(str(tmp_path))
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert _fix(capsys, "--check", ".")[0:2] == (1, (
        "./generated/g.py:2:12: open: text in the locale's encoding; fix: encoding=\"utf-8\"\n"
        "1 call site in 1 file open text in the locale's encoding: 1 to fix (--write), 0 "
        "to review\n"))


@pytest.mark.fast
def test_exclude_leaves_out_names_and_paths_given_or_walked(tmp_path, monkeypatch, capsys):
    for name in ("src/a.py", "src/migrations/m.py", "src/b_pb2.py", "tools/t.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(CALL, encoding="utf-8")
    monkeypatch.chdir(str(tmp_path))
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    site = "%s:2:12: open: text in the locale's encoding; fix: encoding=\"utf-8\"\n"
    assert _fix(capsys, "--check", "--exclude", "migrations", "--exclude", "*_pb2.py",
                "--exclude", "tools/*", "src", "tools/t.py") == (1, (
                    site % "src/a.py" + "1 call site in 1 file open text in the locale's "
                    "encoding: 1 to fix (--write), 0 to review\n"), "")


# -- syntax errors: whose parser ------------------------------------------------------------

def _parser():
    return "Python %d.%d's parser" % sys.version_info[:2]


@pytest.mark.fast
def test_a_syntax_error_names_the_parser(tmp_path, monkeypatch, capsys):
    (tmp_path / "m.py").write_text("open(\n", encoding="utf-8")
    monkeypatch.chdir(str(tmp_path))
    assert _fix(capsys, "--check", "m.py") == (1, (
        "no call site opens text in the locale's encoding (1 file)\n"),
        "utf8env: m.py:1:5: syntax error: '(' was never closed (%s; left alone)\n" % _parser())


@pytest.mark.fast
@pytest.mark.skipif(sys.version_info >= (3, 12), reason="this Python parses PEP 701 f-strings")
def test_newer_syntax_than_the_parser_names_the_python_the_project_requires(
        tmp_path, monkeypatch, capsys):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "p"\nrequires-python = ">= 3.12, <4"\n', encoding="utf-8")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "new.py").write_text(NEW_SYNTAX, encoding="utf-8")
    monkeypatch.chdir(str(tmp_path / "pkg"))
    status, out, err = _fix(capsys, "--check", "new.py")
    assert (status, out) == (1, "no call site opens text in the locale's encoding (1 file)\n")
    assert err.startswith("utf8env: new.py:1:")
    assert err.endswith(": syntax error: f-string: expecting '}' (%s, and the project requires "
                        "Python >= 3.12, <4: run utf8env with 3.12 or later, in pre-commit "
                        "language_version: python3.12; left alone)\n" % _parser())


def _said_of(path):
    """The syntax error line of the file `path` (a SyntaxError at 1:1)."""
    return _syntax.said(SyntaxError("invalid syntax", (str(path), 1, 1, "?")), str(path))


FUTURE = "1:1: syntax error: invalid syntax (%s, and the project requires Python >=3.99: run " \
    "utf8env with 3.99 or later, in pre-commit language_version: python3.99; left alone)"


@pytest.mark.fast
def test_requires_python_is_read_from_the_project_table_only(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["x"]\n\n[tool.other]\nrequires-python = ">=3.98"\n\n'
        '[project]  # the project\nname = "p"\nclassifiers = [\n  ["nested", "array"],\n]\n'
        'requires-python = ">=3.99"\n\n[[tool.list]]\nrequires-python = ">=3.97"\n',
        encoding="utf-8")
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert _said_of(tmp_path / "a" / "b" / "m.py") == FUTURE % _parser()
    (tmp_path / "tool").mkdir()
    (tmp_path / "tool" / "pyproject.toml").write_text(
        '[tool.other]\nrequires-python = ">=3.99"\n', encoding="utf-8")
    assert _said_of(tmp_path / "tool" / "m.py") == (
        "1:1: syntax error: invalid syntax (%s; left alone)" % _parser())


@pytest.mark.fast
def test_an_inner_project_without_requires_python_is_not_given_the_outer_ones(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "outer"\nrequires-python = ">=3.99"\n', encoding="utf-8")
    (tmp_path / "vendored" / "src").mkdir(parents=True)
    (tmp_path / "vendored" / "pyproject.toml").write_text(
        '[project]\nname = "inner"\n', encoding="utf-8")
    assert _said_of(tmp_path / "vendored" / "src" / "m.py") == (
        "1:1: syntax error: invalid syntax (%s; left alone)" % _parser())
    assert _said_of(tmp_path / "m.py") == FUTURE % _parser()


# -- the hooks, run by pre-commit -----------------------------------------------------------

def _try_repo(repo, home, *words):
    """`pre-commit try-repo ROOT WORDS` in `repo`: (status, what it printed after the
    config it shows, which names temporary paths)."""
    env = dict(os.environ, HOME=str(home), PRE_COMMIT_HOME=str(home / "cache"),
               GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    proc = subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", ROOT] + list(words),
                          cwd=str(repo), env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=600)
    out = proc.stdout.decode("utf-8", "replace")
    return proc.returncode, out.split("=" * 79 + "\n")[-1]


@pytest.fixture
def commit(tmp_path):
    pytest.importorskip("pre_commit", reason="pre-commit is a test dependency (bash tests/setup.sh)")
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "a.py").write_text(CALL, encoding="utf-8")
    _git(repo, "add", "a.py")
    _git(repo, "commit", "-q", "-m", "a call")
    return repo


def test_the_hooks_check_then_fix_a_commits_file(commit, tmp_path):
    """Both hooks on a commit's file: the check fails naming the call; the fixer adds
    encoding= and fails as pre-commit's fixers do (the file changed); then both pass."""
    status, out = _try_repo(commit, tmp_path, "--files", "a.py")
    # what precedes the hooks: pre-commit installing this checkout in a virtualenv
    assert (status, out[out.index("utf8env fix (encoding="):]) == (1, (
        "utf8env fix (encoding= for PEP 686)......................................Failed\n"
        "- hook id: utf8env-fix\n"
        "- exit code: 1\n\n"
        "a.py:2:12: open: text in the locale's encoding; fix: encoding=\"utf-8\"\n"
        "1 call site in 1 file open text in the locale's encoding: 1 to fix (--write), 0 to "
        "review\n\n"
        "utf8env fix --write (add encoding= for PEP 686)..........................Failed\n"
        "- hook id: utf8env-fix-write\n"
        "- files were modified by this hook\n\n"
        "a.py:2:12: open: fixed: encoding=\"utf-8\"\n"
        "1 call site fixed (encoding=\"utf-8\") in 1 file; 0 to review\n\n"))
    assert (commit / "a.py").read_text(encoding="utf-8") == FIXED
    status, out = _try_repo(commit, tmp_path, "--files", "a.py")
    assert (status, out[out.index("utf8env fix (encoding="):]) == (0, (
        "utf8env fix (encoding= for PEP 686)......................................Passed\n"
        "utf8env fix --write (add encoding= for PEP 686)..........................Passed\n"))
