"""utf8env installed the way a user gets it: a wheel or an sdist built from this checkout
by its own backend (tools/build_backend.py), installed by pip into a new virtual
environment. Shared by tests/test_entry.py, tests/test_no_regression.py and the benchmarks."""
import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools")


def pip_environ(base=None, **extra):
    """`base` (os.environ) without this machine's pip configuration: its extra indexes and
    find-links lack the Requires-Python of what they list, so an old pip picks releases
    that do not run on its Python. PyPI alone, and the CA bundle if one is named."""
    environ = {k: v for k, v in (os.environ if base is None else base).items()
               if not k.startswith("PIP_")}
    if "PIP_CERT" in os.environ:
        environ["PIP_CERT"] = os.environ["PIP_CERT"]
    environ.update(PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1",
                   PIP_NO_INPUT="1")
    environ.update(extra)
    return environ


def build_wheel(folder, launcher=None):
    """The wheel of this checkout, built by pip into `folder` (offline: the backend needs
    nothing). The backend takes exactly the files under src/utf8env, so a build/ folder or
    an egg-info left in the checkout cannot reach the wheel. `launcher`: the form of
    bin/utf8env, "c" (the compiled launcher) or "sh" (the shell stub); None: the
    backend's choice (c where a compiler works)."""
    extra = {"UTF8ENV_LAUNCHER": launcher} if launcher else {}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index",
                    "--wheel-dir", folder, ROOT], check=True, stdout=subprocess.DEVNULL,
                   env=pip_environ(**extra))
    (wheel,) = glob.glob(os.path.join(folder, "utf8env-*.whl"))
    return wheel


def build_sdist(folder, root=ROOT):
    """The sdist of the checkout at `root`, by its backend's build_sdist hook (pip has no
    sdist command)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import build_backend; "
            "print(build_backend.build_sdist(sys.argv[2]))")
    out = subprocess.run([sys.executable, "-I", "-c", code, os.path.join(root, "tools"), folder],
                         check=True, stdout=subprocess.PIPE, universal_newlines=True).stdout
    return os.path.join(folder, out.strip())


def venv_with(wheel, folder, python=sys.executable):
    """A new venv in `folder` made by `python`, with `wheel` installed; its bin folder."""
    subprocess.run([python, "-m", "venv", folder], check=True)
    bin_folder = os.path.join(folder, "bin")
    subprocess.run([os.path.join(bin_folder, "python"), "-m", "pip", "install", "--quiet",
                    "--no-deps", "--no-index", wheel], check=True, env=pip_environ(),
                   stdout=subprocess.DEVNULL)
    return bin_folder
