from setuptools import setup

PROGRAMS = ["hello", "argv_open", "argv_copy", "listdir", "stdin_read", "textfile",
            "threads_atexit", "grandchild", "mp_spawn", "flags", "fails"]

setup(
    name="nrapp",
    version="1.0",
    packages=["nrapp"],
    entry_points={"console_scripts": ["nr-%s = nrapp.%s:main" % (p.replace("_", "-"), p)
                                      for p in PROGRAMS] + ["nr-click = nrapp.clickapp:main"]},
)
