"""CPython embedded in a C program: what an application linked to libpython gets, which
is not what the `python3` command gets (PEP 538 coercion and PEP 540's locale-driven
UTF-8 Mode live partly in the command's own main(); the legacy Py_Initialize() uses
the "compat" pre-configuration, which ignores PYTHONUTF8 from 3.8 on).

Three kinds of embedding (KINDS):

    initialize       Py_Initialize(), the legacy API (every version)
    python-config    PyConfig_InitPythonConfig() + Py_InitializeFromConfig() (3.8+)
    isolated-config  PyConfig_InitIsolatedConfig() + Py_InitializeFromConfig() (3.8+)

The program never calls setlocale() itself, never sets a program name, home or flag: it
is the smallest honest embedder. Once initialized it runs SNIPPET, which writes one JSON
object (REPORT_FIELDS) to fd 1.

One program per version, built once per test session (`Embedder(folder)`, `folder` from
the caller's tmp_path_factory): pyenv's 3.6-3.13 against their shared libpython with the
host's gcc and `pythonX.Y-config --cflags --ldflags [--embed]`; Debian's 3.14 and 3.15
inside the suite's chroot, by the chroot's own gcc and x86_64-linux-gnu-pythonX.Y-config
(the packages libpython3.14-dev, libpython3.15-dev and gcc, which
tests/support/build_debian_pythons.sh installs). Whatever is missing is a one-line skip.
"""
import json
import os
import shutil
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from support import machine

KINDS = ("initialize", "python-config", "isolated-config")
CONFIG_KINDS = KINDS[1:]
CONFIG_SINCE = (3, 8)        # PyConfig (PEP 587)
CHROOT_DEV = "libpython{v}-dev"

# The report, in this order. Encodings as "encoding/errors".
REPORT_FIELDS = ("utf8_mode", "lc_ctype", "env_lc_ctype", "fs", "stdin", "stdout", "stderr",
                 "preferred", "open", "devnull")

SNIPPET = r"""
import io, json, locale, os, sys
def pair(stream):
    return None if stream is None else "%s/%s" % (stream.encoding, stream.errors)
with open(os.devnull) as null:
    devnull = null.encoding
report = {
    "utf8_mode": getattr(sys.flags, "utf8_mode", None),
    "lc_ctype": locale.setlocale(locale.LC_CTYPE),
    "env_lc_ctype": os.environ.get("LC_CTYPE"),
    "fs": "%s/%s" % (sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()),
    "stdin": pair(sys.stdin), "stdout": pair(sys.stdout), "stderr": pair(sys.stderr),
    "preferred": locale.getpreferredencoding(False),
    "open": io.TextIOWrapper(io.BytesIO()).encoding,
    "devnull": devnull,
}
for stream in (sys.stdout, sys.stderr):
    if stream is not None:
        stream.flush()
os.write(1, json.dumps(report, sort_keys=True).encode("ascii") + b"\n")
"""

EMBED_C = r"""
/* embed KIND: initialize CPython the way KIND says, run the snippet, exit 0. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdio.h>
#include <string.h>

static const char snippet[] = SNIPPET_LITERAL;

int main(int argc, char **argv) {
    const char *kind = argc > 1 ? argv[1] : "initialize";
    if (strcmp(kind, "initialize") == 0) {
        Py_Initialize();
    }
#if PY_VERSION_HEX >= 0x03080000
    else if (strcmp(kind, "python-config") == 0 || strcmp(kind, "isolated-config") == 0) {
        PyConfig config;
        if (strcmp(kind, "python-config") == 0)
            PyConfig_InitPythonConfig(&config);
        else
            PyConfig_InitIsolatedConfig(&config);
        PyStatus status = Py_InitializeFromConfig(&config);
        PyConfig_Clear(&config);
        if (PyStatus_Exception(status))
            Py_ExitStatusException(status);
    }
#endif
    else {
        fprintf(stderr, "embed: unknown kind %s\n", kind);
        return 120;
    }
    int failed = PyRun_SimpleString(snippet);
    if (Py_FinalizeEx() < 0)
        return 121;
    return failed ? 122 : 0;
}
"""


def c_source():
    return EMBED_C.replace("SNIPPET_LITERAL", json.dumps(SNIPPET))


def kinds_for(version):
    """The KINDS version `version` ("3.X") has."""
    if tuple(int(p) for p in version.split(".")) >= CONFIG_SINCE:
        return KINDS
    return KINDS[:1]


class Built(object):
    """One version's program: `argv` starts it (a chroot's through chroot(8));
    `how` says which libpython it was linked to and how that was found."""

    def __init__(self, version, argv, root, how):
        self.version, self.argv, self.root, self.how = version, argv, root, how


def _run(argv, **kw):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def _text(data):
    return data.decode("utf-8", "replace").strip()


_SYSCONFIG = ("import sysconfig as s; print('\\n'.join(str(s.get_config_var(n)) for n in "
              "('Py_ENABLE_SHARED', 'LIBDIR', 'LDLIBRARY', 'INCLUDEPY')))")


class Embedder(object):
    """Builds (once per version, thread-safe) and runs the embedding program."""

    def __init__(self, folder):
        self.folder = str(folder)
        self._lock = threading.Lock()
        self._locks = {}
        self._built = {}        # version -> Built, or the skip reason (str)
        self._chroot_dirs = []

    def close(self):
        """Remove what was built inside the chroot (the host's is in `folder`)."""
        for path in self._chroot_dirs:
            shutil.rmtree(path, ignore_errors=True)
        self._chroot_dirs = []

    # -- building ---------------------------------------------------------------------

    def built(self, version):
        """The Built program for `version`, or a pytest skip naming what is missing."""
        with self._lock:
            lock = self._locks.setdefault(version, threading.Lock())
        with lock:
            if version not in self._built:
                self._built[version] = self._build(version)
        found = self._built[version]
        if isinstance(found, str):
            pytest.skip(found)
        return found

    def _build(self, version):
        interp = machine.interpreter(version)        # skips when there is none
        if interp.root == "/":
            return self._build_host(version, interp)
        return self._build_chroot(version, interp)

    def _shared(self, prefix_argv, version):
        """(LIBDIR, LDLIBRARY) of a shared build, or the reason it is not one."""
        proc = _run(prefix_argv + ["-I", "-S", "-c", _SYSCONFIG])
        if proc.returncode != 0:
            return "CPython %s cannot report its sysconfig: %s" % (version, _text(proc.stderr))
        shared, libdir, ldlibrary, _ = proc.stdout.decode().split("\n")[:4]
        if shared != "1" or not ldlibrary.endswith(".so"):
            return ("no shared libpython for %s: built without --enable-shared "
                    "(Py_ENABLE_SHARED=%s, LDLIBRARY=%s)" % (version, shared, ldlibrary))
        return libdir, ldlibrary

    def _build_host(self, version, interp):
        cc = os.environ.get("CC") or shutil.which("gcc") or shutil.which("cc")
        if not cc or not os.path.exists("/usr/include/stdlib.h"):
            return "no gcc on the host to embed CPython %s: apt-get install gcc libc6-dev" % version
        python = interp.argv[0]
        shared = self._shared([python], version)
        if isinstance(shared, str):
            return shared
        libdir, ldlibrary = shared
        if not os.path.exists(os.path.join(libdir, ldlibrary)):
            return "no shared libpython for %s: %s missing" % (
                version, os.path.join(libdir, ldlibrary))
        config = os.path.join(os.path.dirname(python), "python%s-config" % version)
        if not os.path.exists(config):
            return "no %s (the headers and link flags of CPython %s)" % (config, version)
        flags = [config, "--cflags", "--ldflags"]
        if kinds_for(version) == KINDS:
            flags.append("--embed")
        proc = _run(flags)
        if proc.returncode != 0:
            return "%s failed: %s" % (" ".join(flags), _text(proc.stderr))
        out_dir = os.path.join(self.folder, version)
        os.makedirs(out_dir, exist_ok=True)
        source = os.path.join(out_dir, "embed.c")
        with open(source, "w") as f:
            f.write(c_source())
        program = os.path.join(out_dir, "embed")
        cmd = ([cc, "-o", program, source] + proc.stdout.decode().split()
               + ["-Wl,-rpath," + libdir])
        made = _run(cmd)
        if made.returncode != 0:
            return "%s cannot build the embedding program for %s: %s" % (
                cc, version, _text(made.stderr)[-500:])
        how = "%s/%s (sysconfig Py_ENABLE_SHARED=1), flags from %s" % (
            libdir, ldlibrary, " ".join(os.path.basename(a) if i == 0 else a
                                        for i, a in enumerate(flags)))
        return Built(version, [program], "/", how)

    def _build_chroot(self, version, interp):
        chroot_cmd, root, python = interp.argv[:-1], interp.root, interp.argv[-1]
        inside = chroot_cmd + [python]
        shared = self._shared(inside, version)
        if isinstance(shared, str):
            return shared
        libdir, ldlibrary = shared
        dev = CHROOT_DEV.format(v=version)
        fix = "chroot %s apt-get install -y %s gcc" % (root, dev)
        if not os.path.exists(os.path.join(root, libdir.lstrip("/"), ldlibrary)):
            return "no shared libpython for %s in the chroot %s (%s): %s" % (
                version, root, os.path.join(libdir, ldlibrary), fix)
        config = "/usr/bin/x86_64-linux-gnu-python%s-config" % version
        if not os.path.exists(os.path.join(root, config.lstrip("/"))):
            config = "/usr/bin/python%s-config" % version
        if not os.path.exists(os.path.join(root, config.lstrip("/"))):
            return "no python%s-config in the chroot %s: %s" % (version, root, fix)
        if not os.path.exists(os.path.join(root, "usr/bin/gcc")):
            return "no gcc in the chroot %s to embed CPython %s: %s" % (root, version, fix)
        flags = [config, "--cflags", "--ldflags", "--embed"]
        proc = _run(chroot_cmd + flags)
        if proc.returncode != 0:
            return "%s failed in the chroot: %s" % (" ".join(flags), _text(proc.stderr))
        host_dir = tempfile.mkdtemp(prefix="utf8env-embed-%s-" % version,
                                    dir=os.path.join(root, "tmp"))
        self._chroot_dirs.append(host_dir)
        os.chmod(host_dir, 0o755)
        inner = "/" + os.path.relpath(host_dir, root)
        with open(os.path.join(host_dir, "embed.c"), "w") as f:
            f.write(c_source())
        program = inner + "/embed"
        cmd = chroot_cmd + ["/usr/bin/gcc", "-o", program, inner + "/embed.c"] + \
            proc.stdout.decode().split()
        made = _run(cmd, env={"PATH": "/usr/bin:/bin"})
        if made.returncode != 0:
            return "the chroot's gcc cannot build the embedding program for %s: %s" % (
                version, _text(made.stderr)[-500:])
        how = "%s%s/%s (chroot; sysconfig Py_ENABLE_SHARED=1), flags from %s" % (
            root, libdir, ldlibrary, " ".join(flags))
        return Built(version, chroot_cmd + [program], root, how)

    # -- running ----------------------------------------------------------------------

    def run(self, version, kind, env, world=None, timeout=60):
        """Run the program of `version` as `kind` with exactly `env` (env -i + env), in
        locale world `world` (None: the installed locales). Returns
        {"exit_code", "report": {REPORT_FIELDS} or None, "messages": [stderr lines],
        "stdout": bytes}."""
        return self.run_all([(version, kind, env)], world, timeout)[0]

    def run_all(self, cells, world=None, timeout=60, workers=None):
        """run() for every (version, kind, env) of `cells`, in parallel: threads for the
        installed locales, one batch for a locale world. Results in the order of `cells`."""
        cells = list(cells)
        argvs = []
        for version, kind, env in cells:
            if kind not in kinds_for(version):
                raise ValueError("CPython %s has no %s embedding" % (version, kind))
            argvs.append(self.built(version).argv + [kind])
        workers = workers or (os.cpu_count() or 1) * 2
        if world in (None, "installed"):
            def one(index):
                proc = subprocess.run(argvs[index], env=dict(cells[index][2]),
                                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, timeout=timeout)
                return proc.returncode, proc.stdout, proc.stderr
            with ThreadPoolExecutor(max_workers=workers) as pool:
                raw = list(pool.map(one, range(len(cells))))
        else:
            from utf8env import _worlds as worlds
            machine.worlds()
            roots = sorted({self.built(v).root for v, _, _ in cells},
                           key=lambda r: (r != "/", r))
            jobs = [worlds.Job(argv, dict(env), timeout=timeout)
                    for argv, (_, _, env) in zip(argvs, cells)]
            raw = [(r.returncode, r.stdout, r.stderr)
                   for r in worlds.run(world, jobs, roots, workers=workers)]
        return [_result(*r) for r in raw]


def _result(code, out, err):
    report = None
    if code == 0:
        try:
            report = json.loads(out.decode("ascii").strip().splitlines()[-1])
        except (ValueError, IndexError):
            report = None
    return {"exit_code": code, "report": report,
            "messages": err.decode("utf-8", "surrogateescape").splitlines(), "stdout": out}
