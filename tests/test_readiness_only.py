"""--utf8env-only (readiness/_progress.py), the reruns' and trials' choice of tests: the
tests listed run, the others are deselected, and the files none of them is in are not
collected at all (a rerun of one test of Babel's 6,900 took 3.5 s, collecting them all;
1.8 s so), unless a listed node id names no file this process sees: then everything is
collected and deselection alone chooses."""
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.fast

FILES = {
    "tests/test_a.py": "def test_one():\n    pass\n\n\ndef test_two():\n    pass\n",
    # collected, it fails: an import that no environment has
    "tests/test_b.py": "import utf8env_no_such_module\n\n\ndef test_three():\n    pass\n",
    "tests/conftest.py": "",
}


def _run(tmp_path, wanted, extra=None):
    project = tmp_path / "p"
    for name, text in dict(FILES, **(extra or {})).items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    only = tmp_path / "only.txt"
    only.write_text("".join(line + "\n" for line in wanted), encoding="utf-8",
                    errors="surrogateescape")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
         "-p", "utf8env.readiness._progress", "--utf8env-only=" + str(only), "tests"],
        cwd=str(project), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _summary(proc):
    return proc.stdout.decode().strip().splitlines()[-1].split(" in ")[0]


def test_only_the_listed_tests_run_and_other_files_are_not_collected(tmp_path):
    proc = _run(tmp_path, ["tests/test_a.py::test_two"])
    assert (proc.returncode, _summary(proc)) == (0, "1 passed, 1 deselected")


def test_a_node_id_of_no_file_leaves_the_collection_whole(tmp_path):
    proc = _run(tmp_path, ["tests/test_a.py::test_two", "tests/gone.py::test_four"])
    assert (proc.returncode, _summary(proc)) == (2, "1 deselected, 1 error")
    assert b"utf8env_no_such_module" in proc.stdout


def test_a_folder_whose_name_is_not_utf8_is_found(tmp_path):
    # readiness writes the list with surrogateescape (advice._only): read back alike
    folder = os.fsdecode(b"tests/caf\xe9")
    proc = _run(tmp_path, [folder + "/test_c.py::test_five"],
                extra={folder + "/test_c.py": "def test_five():\n    pass\n"})
    assert (proc.returncode, _summary(proc)) == (0, "1 passed")
