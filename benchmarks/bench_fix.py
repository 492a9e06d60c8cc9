"""`utf8env fix --check` against pylint (`--disable=all --enable=unspecified-encoding`) and
ruff (`check --preview --select PLW1514`) on the same files: the standard library of a
CPython (default: pyenv's 3.11.7, ~1,800 files, ~700k lines; the files `fix` walks there,
given to all three as one list), measured side by side in one run, the best of ROUNDS
for utf8env and ruff, one round of pylint (minutes). Every tool may use every core
(pylint -j 0; ruff's threads; fix's worker processes), and each starts cold: ruff with
--no-cache, utf8env with no cache at all (it parses only the files that can hold a call:
_sources/prefilter.py, _sources/chunks.py). Not a test: it prints the times, the ratios and what each found.
Goals (issue 31): within 3x of ruff, and at least 30x faster than pylint.

pylint and ruff are installed into a throw-away venv in a temporary folder (their
versions are printed), or taken from --venv DIR (a venv that has both).

    python3 benchmarks/bench_fix.py [--venv DIR] [--lib DIR] [ROUNDS]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")
sys.path.insert(0, SRC)

from utf8env._own_command import own_command  # noqa: E402
from utf8env.fixer._cli import paths  # noqa: E402

DEFAULT_LIB = "/root/.pyenv/versions/3.11.7/lib/python3.11"


def _venv(folder):
    subprocess.run([sys.executable, "-m", "venv", folder], check=True)
    subprocess.run([os.path.join(folder, "bin", "pip"), "install", "-q", "pylint", "ruff"],
                   check=True)
    return folder


def _timed(argv, cwd):
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return time.perf_counter() - started, done.stdout.decode("utf-8", "replace")


def main(argv):
    venv = lib = None
    while argv[:1] in (["--venv"], ["--lib"]):
        if argv[0] == "--venv":
            venv = argv[1]
        else:
            lib = argv[1]
        argv = argv[2:]
    rounds = int(argv[0]) if argv else 3
    lib = lib or DEFAULT_LIB
    scratch = tempfile.mkdtemp(prefix="bench_fix.")
    try:
        venv = venv or _venv(os.path.join(scratch, "venv"))
        python = os.path.join(venv, "bin", "python")
        pylint, ruff = ([python, "-m", name] for name in ("pylint", "ruff"))
        versions = [subprocess.run(tool + ["--version"], stdout=subprocess.PIPE).stdout.decode()
                    .splitlines()[0] for tool in (pylint, ruff)]
        files = paths([lib])
        lines = 0
        for path in files:
            with open(path, "rb") as f:
                lines += f.read().count(b"\n")
        print("%s: %d files, %d lines; %s; %s; %d cores" % (
            lib, len(files), lines, versions[0], versions[1], os.cpu_count() or 1))
        # cwd: the scratch folder, so that no project's configuration applies.
        # Rounds of one and the other in turn, so that both meet the same load.
        ours, theirs = [], []
        for _ in range(rounds):
            ours.append(_timed(own_command() + ["fix", "--check"] + files, scratch))
            theirs.append(_timed(ruff + ["check", "--preview", "--select", "PLW1514",
                                         "--no-cache", "--isolated", "--exit-zero",
                                         "--output-format", "concise"] + files, scratch))
        slow = _timed(pylint + ["--disable=all", "--enable=unspecified-encoding", "-j", "0",
                                "--score=n", "--persistent=n"] + files, scratch)
        fix_s, fix_out = min(ours)
        ruff_s, ruff_out = min(theirs)
        pylint_s, pylint_out = slow
        found = re.search(r"^(\d+) call sites? in", fix_out, re.M)
        print("utf8env fix --check   %7.2f s  %s call sites (all kinds; open-likes: %d)" % (
            fix_s, found.group(1) if found else "?", _open_likes(fix_out)))
        print("ruff PLW1514          %7.2f s  %d findings" % (ruff_s, ruff_out.count("unspecified-encoding")))
        print("pylint W1514          %7.2f s  %d findings" % (pylint_s, pylint_out.count("unspecified-encoding")))
        print("fix vs pylint: %.1fx faster (goal >= 30x); fix vs ruff: %.2fx ruff's time "
              "(goal <= 3x)" % (pylint_s / fix_s, fix_s / ruff_s))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _open_likes(out):
    """The sites of the calls ruff and pylint also check (open, Path.*, TextIOWrapper...)."""
    return len(re.findall(r": (open|io\.open|Path\.\w+|io\.TextIOWrapper|tempfile\.\w+|"
                          r"fileinput\.\w+): ", out))


if __name__ == "__main__":
    main(sys.argv[1:])
