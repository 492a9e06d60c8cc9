"""utf8env.initialize() and utf8env.enable() inside an embedded CPython (issue 21): what
docs/api.md says of them, measured in the real thing.

The program is tests/support/embedding.py's (a C program linked to each libpython 3.6-3.15,
started with Py_Initialize(), never calling setlocale()), run with LANG=C and
PYTHONCOERCECLOCALE=warn. Python code runs inside that interpreter the way an
application's own would, once Py_Initialize() has fixed the encodings: through the
sitecustomize its `site` imports (PYTHONPATH, which Py_Initialize() reads on every
version, names the folder holding it and this checkout's utf8env). That code reports what
the interpreter got (which the engine predicted: tests/test_embedded_predictions.py), then
calls initialize() and enable() and reports again."""
import json
import os
import shutil
import tempfile

import pytest

from utf8env._engine.policy import Inputs, LocaleFacts, decide
from utf8env._engine.profiles import SHIPPED_LEGACY_WARNING

from support import embedding

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
VERSIONS = ("3.6", "3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14", "3.15")
ENV = {"LANG": "C", "PYTHONCOERCECLOCALE": "warn"}
MARK = b"@@utf8env@@\n"

SITECUSTOMIZE = r'''
import codecs, json, locale, os, sys
def pair(stream):
    return [codecs.lookup(stream.encoding).name, stream.errors]
def state():
    with open(os.devnull) as f:
        opened = pair(f)
    return {"fs": [codecs.lookup(sys.getfilesystemencoding()).name,
                   sys.getfilesystemencodeerrors()],
            "stdin": pair(sys.stdin), "stdout": pair(sys.stdout), "stderr": pair(sys.stderr),
            "open": opened, "preferred": codecs.lookup(locale.getpreferredencoding(False)).name,
            "utf8_mode": getattr(sys.flags, "utf8_mode", None),
            "lc_ctype": locale.setlocale(locale.LC_CTYPE), "LANG": os.environ.get("LANG")}
import utf8env
report = {"before": state()}
sys.stderr.flush()
os.write(2, b"@@utf8env@@\n")
report["initialize"] = utf8env.initialize()
os.write(2, b"@@utf8env@@\n")
done = utf8env.enable()
report["enable"] = {"changed": sorted(done["changed"]), "unchanged": sorted(done["unchanged"]),
                    "cannot": sorted(done["cannot"])}
report["after"] = state()
try:
    print("\u00e9")
    sys.stdout.flush()
    report["print"] = "ok"
except UnicodeEncodeError:
    report["print"] = "fails"
with open(os.environ["UTF8ENV_REPORT"], "w") as f:
    json.dump(report, f)
'''


@pytest.fixture(scope="module")
def embedder(tmp_path_factory):
    made = embedding.Embedder(tmp_path_factory.mktemp("embedding"))
    yield made
    made.close()


def _codec(name):
    import codecs
    return codecs.lookup(name).name


def _predicted(version):
    d = decide(Inputs(environ=dict(ENV), version=version, embedded="initialize",
                      locales=LocaleFacts({"C.UTF-8": "UTF-8"})))

    def pair(stream):
        return [_codec(stream.encoding), stream.errors]
    return {"fs": pair(d.filesystem), "stdin": pair(d.stdin), "stdout": pair(d.stdout),
            "stderr": pair(d.stderr), "open": pair(d.open),
            "preferred": _codec(d.preferred_encoding),
            "utf8_mode": d.utf8_mode if version != "3.6" else None, "lc_ctype": d.lc_ctype,
            "LANG": "C"}


def _run(embedder, version):
    """The report of the sitecustomize, and the program's stderr split at MARK."""
    built = embedder.built(version)         # skips, naming what is missing
    folder = tempfile.mkdtemp(prefix="utf8env-embedded-runtime-",
                              dir=os.path.join(built.root, "tmp"))
    try:
        os.chmod(folder, 0o755)
        shutil.copytree(os.path.join(SRC, "utf8env"), os.path.join(folder, "utf8env"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        with open(os.path.join(folder, "sitecustomize.py"), "w") as f:
            f.write(SITECUSTOMIZE)
        inside = "/" + os.path.relpath(folder, built.root) if built.root != "/" else folder
        env = dict(ENV, PYTHONPATH=inside, UTF8ENV_REPORT=inside + "/report.json")
        import subprocess
        proc = subprocess.run(built.argv + ["initialize"], env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
        with open(os.path.join(folder, "report.json")) as f:
            report = json.load(f)
        return report, proc.stderr.split(MARK), proc.stdout
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("version", VERSIONS)
def test_initialize_and_enable_inside_py_initialize(embedder, version):
    report, stderr, stdout = _run(embedder, version)
    before, after = report["before"], report["after"]
    # What Py_Initialize() gave, as the engine predicts it (and the ground truth measured).
    assert before == _predicted(version)
    # initialize() writes the C locale warning to fd 2: LC_CTYPE is still C in every
    # version (Py_Initialize() never coerces); 3.7's own Py_Initialize() printed it first.
    assert report["initialize"] == SHIPPED_LEGACY_WARNING
    assert stderr[1] == SHIPPED_LEGACY_WARNING.encode() + b"\n"
    assert (SHIPPED_LEGACY_WARNING.encode() in stderr[0]) == (version == "3.7")
    # enable(): UTF-8 stdio and open() from now on; the file system encoding, UTF-8 mode's
    # flag, LC_CTYPE and the environment children inherit stay as they were.
    assert after["stdin"] == after["stdout"] == ["utf-8", "surrogateescape"]
    assert after["stderr"] == ["utf-8", "backslashreplace"]
    assert after["open"] == ["utf-8", "strict"] and after["preferred"] == "utf-8"
    assert report["print"] == "ok" and "\u00e9".encode("utf-8") in stdout
    for same in ("fs", "utf8_mode", "lc_ctype", "LANG"):
        assert after[same] == before[same], same
    utf8 = before["fs"][0] == "utf-8"
    assert utf8 == (version in ("3.7", "3.15"))         # UTF-8 mode on (3.7: the C locale)
    assert report["enable"]["cannot"] == ([] if utf8 else ["filesystem"])
    assert report["enable"]["changed"] == ([] if utf8 else [
        "open", "preferred_encoding", "stderr", "stdin", "stdout"])
