"""The README's examples are what the tool prints, and every page's links lead somewhere.

Every `$ ` example of README.md is listed in EXAMPLES with where its output is checked:
HERE (this file runs the command line as shown, in sh, with this checkout's `utf8env` on
PATH, and compares the lines shown), or the page of docs/ holding the whole output, which
that page's test keeps byte-exact (the README shows an excerpt of it). An excerpt's "..."
line stands for lines left out; every other line is the real output's, in order. The two
set-up commands at the top are shown as they are typed, and CI runs the second."""
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from support import install, machine
from test_worlds import Nobody
from utf8env import probe_locales
from utf8env._own_command import own_command

sys.path.insert(0, install.TOOLS)
import build_backend  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")

SETUP = (
    "python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/utf8env matrix",
    "bash tests/setup.sh && python3 -m pytest",
)
HERE = "here"
# The README's examples: (where the output is checked, the exit status when HERE)
EXAMPLES = {
    '$ env -i SHELL=/bin/sh PATH=/usr/bin:/bin HOME="$HOME" LOGNAME=root "$(command -v utf8env)" doctor '
    '--no-pythons': (HERE, 1),
    "$ env -i PATH=\"$PATH\" utf8env run -- sh -c 'locale | grep LC_CTYPE'": (HERE, 0),
    "$ utf8env env --empty-env --env LANG=C --locales C.UTF-8 --version 3.6 -- python3.6 "
    "app.py": (HERE, 0),        # docs/run.md too (tests/test_envformat.py)
    "$ utf8env readiness -- pytest -q": ("docs/readiness.md", "tests/test_readiness.py"),
    "$ utf8env explain --empty-env --env LANG=C --locales C.UTF-8 --version 3.6 -- "
    "python3.6": (HERE, 0),
    "$ utf8env matrix -- writes.py": ("docs/matrix.md", "tests/test_matrix_report.py"),
}
# The examples that show a machine with C.UTF-8 installed (the coercion's target).
NEEDS_C_UTF8 = (" doctor ", " run ")


def _blocks(path):
    """The fenced code blocks of `path`: (the fence's info string, [lines])."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return [(info, body.splitlines())
            for info, body in re.findall(r"(?ms)^```(\w*)\n(.*?)^```$", text)]


def _examples(path):
    """{the `$ ` line: the lines shown after it} of the blocks of `path` that start with one."""
    found = {}
    for _, lines in _blocks(path):
        if lines and lines[0].startswith("$ "):
            assert not [l for l in lines[1:] if l.startswith("$ ")], lines[0]
            found[lines[0]] = lines[1:]
    return found


def excerpt(shown, real):
    """Whether the lines `shown` are the lines `real`, some left out where "..." stands."""
    chunks, chunk = [], []
    for line in shown:
        if line == "...":
            chunks.append(chunk)
            chunk = []
        else:
            chunk.append(line)
    chunks.append(chunk)
    at = 0
    for i, chunk in enumerate(chunks):
        last = i == len(chunks) - 1
        if i == 0:
            if real[:len(chunk)] != chunk:
                return False
            at = len(chunk)
            if last:
                return at == len(real)
            continue
        if last and chunk:
            return len(real) - len(chunk) >= at and real[len(real) - len(chunk):] == chunk
        if last:
            return True
        found = next((j for j in range(at, len(real) - len(chunk) + 1)
                      if real[j:j + len(chunk)] == chunk), None)
        if found is None:
            return False
        at = found + len(chunk)
    return True


@pytest.mark.fast
def test_excerpt():
    real = ["a", "b", "c", "d"]
    assert excerpt(real, real)
    assert excerpt(["a", "...", "d"], real) and excerpt(["a", "b", "..."], real)
    assert excerpt(["a", "...", "c", "..."], real)
    assert not excerpt(["a", "b"], real) and not excerpt(["b", "..."], real)
    assert not excerpt(["a", "...", "c"], real) and not excerpt(["a", "...", "x", "..."], real)


@pytest.mark.fast
def test_the_readme_starts_with_the_two_set_up_commands():
    blocks = _blocks(README)
    assert [(info, lines) for info, lines in blocks[:2]] == [("sh", [c]) for c in SETUP]


def test_the_first_command_works_for_an_ordinary_user():
    """The first command, typed in sh as the README shows it, by nobody (no root, no pyenv:
    Debian's python3 alone on PATH) in a copy of this checkout's source: it installs and
    runs the matrix of the PEPs' use cases under the Pythons found, Debian's among them."""
    nobody = Nobody()
    try:
        source = nobody.path("utf8env")
        for entry in ("pyproject.toml", "setup.py", "README.md", "LICENSE", "tools", "scripts",
                      "src", "docs"):
            where = os.path.join(install.ROOT, entry)
            if os.path.isdir(where):
                shutil.copytree(where, os.path.join(source, entry),
                                ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
            else:
                os.makedirs(source, exist_ok=True)
                shutil.copy(where, source)
        nobody.own(source)
        version = subprocess.run([Nobody.PYTHON, "-c", "import sys; print('%d.%d' % "
                                  "sys.version_info[:2])"], stdout=subprocess.PIPE,
                                 universal_newlines=True, check=True).stdout.strip()
        # No PYTHONPATH: what runs is what the command installed.
        env = install.pip_environ(nobody.env(), PIP_NO_INDEX="1")
        del env["PYTHONPATH"]
        ran = nobody.run(["sh", "-c", SETUP[0]], env=env, cwd=source)
        assert (ran.returncode, ran.stderr) == (0, b"")
        lines = ran.stdout.decode("utf-8").splitlines()
        assert lines[0] == "List a directory into stdout (PEP 540: ls-stdout)"
        found = lines[lines.index("Pythons, where each was found (the first found of each "
                                  "version runs):") + 1:-2]
        assert "  %s: /usr/bin/python%s (PATH)" % (version, version) in found
        assert re.match(r"\d+ environments, \d+ jobs, ", lines[-1]), lines[-1]
    finally:
        nobody.remove()


@pytest.mark.fast
def test_every_example_of_the_readme_is_checked():
    assert sorted(_examples(README)) == sorted(EXAMPLES)


@pytest.fixture
def shell(tmp_path):
    """Runs a README line in sh with this checkout's `utf8env` first on PATH:
    (status, stdout, stderr)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    launcher = folder / "utf8env"
    launcher.write_text("#!/bin/sh\nexec %s \"$@\"\n" % " ".join(map(shlex.quote, own_command())))
    launcher.chmod(0o755)
    home = tmp_path / "home"
    (home / ".cache").mkdir(parents=True)
    environ = {"PATH": "%s:/usr/bin:/bin" % folder, "HOME": str(home),
               "XDG_CACHE_HOME": str(home / ".cache"), "LANG": "C.UTF-8"}

    def run(line, path=()):
        env = dict(environ, PATH=":".join(list(path) + [environ["PATH"]]))
        out = subprocess.run(["sh", "-c", line], env=env, cwd=str(tmp_path),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        return out.returncode, out.stdout.decode("utf-8"), out.stderr.decode("utf-8")
    return run


@pytest.mark.parametrize("command", [c for c, (where, _) in EXAMPLES.items() if where == HERE])
@pytest.mark.fast
def test_the_readmes_example_is_what_the_tool_prints(command, shell):
    if any(n in command for n in NEEDS_C_UTF8) and \
            not probe_locales({"PATH": "/usr/bin:/bin"}, names=["C.UTF-8"]).accepts("C.UTF-8"):
        pytest.skip("C.UTF-8 is not installed here: the example shows a machine that has it")
    shown = _examples(README)[command]
    status, out, err = shell(command[2:])
    assert (status, err) == (EXAMPLES[command][1], "")
    assert excerpt(shown, out.splitlines()), out


@pytest.mark.parametrize("command", [c for c, (where, _) in EXAMPLES.items() if where != HERE])
@pytest.mark.fast
def test_the_readmes_excerpt_is_of_a_page_kept_byte_exact(command):
    page, test = EXAMPLES[command]
    with open(os.path.join(ROOT, test), encoding="utf-8") as f:
        assert '"docs", "%s"' % os.path.basename(page) in f.read()   # that test reads the page
    for _, lines in _blocks(os.path.join(ROOT, page)):
        if command in lines:
            whole = lines[lines.index(command) + 1:]
            break
    else:
        raise AssertionError("%s shows no %s" % (page, command))
    assert excerpt(_examples(README)[command], whole)


def test_the_explain_example_of_its_page_is_what_the_tool_prints(shell, tmp_path):
    """docs/explain.md's example, on the real 3.11 (named python3.11 on PATH)."""
    python = machine.python("3.11")
    folder = tmp_path / "python"
    folder.mkdir()
    os.symlink(python, str(folder / "python3.11"))
    [(command, shown)] = [(c, lines) for c, lines in
                          _examples(os.path.join(ROOT, "docs", "explain.md")).items()]
    status, out, err = shell(command[2:], path=[str(folder)])
    assert (status, err, out.splitlines()) == (0, "", shown)


# -- links ---------------------------------------------------------------------------------

PAGES = ["README.md", "CONTRIBUTING.md"] + sorted(
    "docs/" + name for name in os.listdir(os.path.join(ROOT, "docs")) if name.endswith(".md"))


def _anchors(path):
    """The anchors GitHub gives the headings of `path`."""
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"(?ms)^```.*?^```$", "", f.read())
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"(?m)^#+ (.*)$", text)}


@pytest.mark.fast
def test_every_relative_link_leads_to_a_file_and_its_heading():
    broken = []
    for page in PAGES:
        with open(os.path.join(ROOT, page), encoding="utf-8") as f:
            text = re.sub(r"(?ms)^```.*?^```$", "", f.read())
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(ROOT, os.path.dirname(page), path)) if path \
                else os.path.join(ROOT, page)
            if not os.path.exists(full):
                broken.append((page, target, "no such file"))
            elif anchor and anchor not in _anchors(full):
                broken.append((page, target, "no such heading"))
    assert broken == []


@pytest.mark.fast
def test_an_installed_page_links_only_what_is_installed_beside_it():
    # utf8env/docs/ holds the pages and the files they link (the build's DOC_SUFFIXES), not
    # the README or CONTRIBUTING: a link there would lead nowhere once installed.
    installed = {os.path.basename(path) for path in build_backend.doc_pages()}
    outside = []
    for page in PAGES[2:]:
        with open(os.path.join(ROOT, page), encoding="utf-8") as f:
            text = re.sub(r"(?ms)^```.*?^```$", "", f.read())
        outside += [(page, target) for target in re.findall(r"\]\(([^)\s#]+)[^)\s]*\)", text)
                    if not re.match(r"[a-z]+:", target) and target not in installed]
    assert outside == []


@pytest.mark.fast
def test_the_readme_links_every_page_and_stays_short():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    assert [p for p in PAGES[1:] if "](%s)" % p not in text] == []
    assert len(text.splitlines()) <= 300
