"""For pips without PEP 517 (before 19: the pip of a new 3.6 venv is 18.1, RHEL 8's 9.0.3),
which run this file with the environment's setuptools. Every later pip builds with
tools/build_backend.py (pyproject.toml [build-system]); both take the metadata from
pyproject.toml and the files from src/utf8env through that module."""
import atexit
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools"))
import build_backend  # noqa: E402

from setuptools import setup  # noqa: E402
from distutils.command.build_scripts import build_scripts  # noqa: E402

# A fresh build folder: setuptools installs all of build/lib, so one left in the tree
# (pip before 21.3 copies the whole tree) would ship modules that no longer exist.
build_base = tempfile.mkdtemp(prefix="utf8env-setup-")
atexit.register(shutil.rmtree, build_base, True)


class BuildScripts(build_scripts):
    """distutils reads every script as Python source (to rewrite a #! line naming python),
    which a compiled launcher is not: that one is copied as it is, the rest as usual."""

    def copy_scripts(self):
        scripts, compiled = [], []
        for script in self.scripts:
            with open(script, "rb") as f:
                (compiled if f.read(4) == b"\x7fELF" else scripts).append(script)
        self.scripts = scripts
        try:
            done = build_scripts.copy_scripts(self)
        finally:
            self.scripts = scripts + compiled
        for script in compiled:
            self.copy_file(script, os.path.join(self.build_dir, os.path.basename(script)))
        return done


setup(options={"build": {"build_base": build_base}}, cmdclass={"build_scripts": BuildScripts},
      **build_backend.setuptools_arguments(build_base))
