"""utf8env installed the way a user gets it: a wheel built from this checkout, installed
by pip into a new virtual environment (as pipx does). Shared by tests/test_entry.py and
benchmarks/bench_launch.py."""
import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def build_wheel(folder):
    """The wheel of this checkout, built into `folder` from a copy of its sources: a
    setuptools build/ folder left in the checkout would ship modules that no longer exist."""
    import shutil
    source = os.path.join(folder, "source")
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--wheel-dir", folder, source], check=True, stdout=subprocess.DEVNULL)
    (wheel,) = glob.glob(os.path.join(folder, "utf8env-*.whl"))
    return wheel


def venv_with(wheel, folder, python=sys.executable):
    """A new venv in `folder` made by `python`, with `wheel` installed; its bin folder."""
    subprocess.run([python, "-m", "venv", folder], check=True)
    bin_folder = os.path.join(folder, "bin")
    environ = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    subprocess.run([os.path.join(bin_folder, "python"), "-m", "pip", "install", "--quiet",
                    "--no-deps", "--no-index", wheel], check=True, env=environ,
                   stdout=subprocess.DEVNULL)
    return bin_folder
