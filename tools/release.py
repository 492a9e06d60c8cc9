"""python3 tools/release.py DIR [--tools VENV]: every artifact of a release of this tree, in DIR.

DIR (new, or empty) then holds the sdist and eight wheels, each checked:
  utf8env-V.tar.gz                                        the sdist (the wheels are built from it)
  utf8env-V-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl    the compiled launcher over
  utf8env-V-py3-none-manylinux_2_17_aarch64.manylinux2014_aarch64.whl  glibc 2.17 and later
  utf8env-V-py3-none-musllinux_1_2_x86_64.whl             the launcher linked statically with
  utf8env-V-py3-none-musllinux_1_2_aarch64.whl            musl (Alpine)
  utf8env-V-py3-none-win_amd64.whl                        Windows (x64, x86, ARM64): no POSIX
  utf8env-V-py3-none-win32.whl                            script; the command is the console
  utf8env-V-py3-none-win_arm64.whl                        script utf8env (utf8env.exe in Scripts)
  utf8env-V-py3-none-any.whl                              the shell stub: every other platform,
                                                          and pips that know no manylinux tag
glibc 2.17 (manylinux2014) is older than every glibc still supported in 2026 (RHEL 8 has 2.28,
Debian 11 2.31), and the launcher needs nothing newer. The launchers are cross-compiled by
the `ziglang` package's C toolchain through the backend's own hooks (tools/build_backend.py:
CC, UTF8ENV_LAUNCHER=c, UTF8ENV_PLATFORM_TAG), with the backend's flags only (CFLAGS and
LDFLAGS of the environment are not passed: a release is the same wherever it is built).
Each Linux wheel's tag is checked by `auditwheel show`, and every artifact by `twine check
--strict`. The Windows wheels hold no compiled code: the backend builds them by their tag
(UTF8ENV_PLATFORM_TAG) alone.

ziglang, auditwheel and twine come from tools/release-requirements.txt (pinned) into a venv of
their own: a temporary one, removed at the end, or VENV (--tools), made where missing and
kept. zig keeps what it compiled for each target (musl's C library, a minute or two the
first time) in its cache: ZIG_GLOBAL_CACHE_DIR, else ~/.cache/zig.

Standard library only, like the backend. Exit status 0 when every artifact is built and
passes its checks; 1 with one line naming what failed; 2 for a bad command line.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile

TOOLS = os.path.dirname(os.path.abspath(__file__))
REQUIREMENTS = os.path.join(TOOLS, "release-requirements.txt")

# (zig's target, the wheel's platform tag): what each launcher is built for and called.
TARGETS = (
    ("x86_64-linux-gnu.2.17", "manylinux_2_17_x86_64.manylinux2014_x86_64"),
    ("aarch64-linux-gnu.2.17", "manylinux_2_17_aarch64.manylinux2014_aarch64"),
    ("x86_64-linux-musl", "musllinux_1_2_x86_64"),
    ("aarch64-linux-musl", "musllinux_1_2_aarch64"),
)
# The Windows wheels' platform tags: the backend's, which give the console script.
sys.path.insert(0, TOOLS)
from build_backend import WINDOWS_TAGS as WINDOWS  # noqa: E402


class Failed(Exception):
    """A step of the release failed: its one line."""


def _run(argv, env=None, cwd=None):
    """argv's stdout and stderr together, as text; Failed when it exits non-zero."""
    result = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    output = result.stdout.decode("utf-8", "replace")
    if result.returncode != 0:
        raise Failed("%s exited with status %d:\n%s" % (
            " ".join(shlex.quote(a) for a in argv), result.returncode, output.rstrip()))
    return output


def tools_venv(folder):
    """The venv at `folder` with the pinned tools (made where missing); its python."""
    python = os.path.join(folder, "bin", "python")
    if not os.path.exists(python):
        _run([sys.executable, "-m", "venv", folder])
    _run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r",
          REQUIREMENTS])
    return python


def _backend(tree, hook, folder, env):
    """tree's tools/build_backend.py hook (build_sdist, build_wheel) run into folder in a new
    interpreter with env: the file it built."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import build_backend; "
            "print(getattr(build_backend, sys.argv[2])(sys.argv[3]))")
    out = _run([sys.executable, "-I", "-c", code, os.path.join(tree, "tools"), hook, folder],
               env=env, cwd=tree)
    return out.strip().splitlines()[-1]


def build(dist, python, scratch):
    """The sdist of this tree, then each wheel from the sdist, into dist: [file name]."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("CC", "CFLAGS", "LDFLAGS", "UTF8ENV_LAUNCHER", "UTF8ENV_PLATFORM_TAG")}
    sdist = _backend(os.path.dirname(TOOLS), "build_sdist", dist, env)
    with tarfile.open(os.path.join(dist, sdist)) as tar:
        tar.extractall(scratch)
    tree = os.path.join(scratch, sdist[:-len(".tar.gz")])
    built = [sdist]
    for target, tag in TARGETS:
        cc = "%s -m ziglang cc -target %s" % (shlex.quote(python), target)
        built.append(_backend(tree, "build_wheel", dist, dict(
            env, CC=cc, UTF8ENV_LAUNCHER="c", UTF8ENV_PLATFORM_TAG=tag)))
    for tag in WINDOWS:
        built.append(_backend(tree, "build_wheel", dist, dict(env, UTF8ENV_PLATFORM_TAG=tag)))
    built.append(_backend(tree, "build_wheel", dist, dict(env, UTF8ENV_LAUNCHER="sh")))
    return built


def auditwheel_tag(output):
    """The tag `auditwheel show` says a wheel is consistent with, or None."""
    match = re.search(r'consistent with\s+the\s+following\s+platform\s+tag:\s*"([^"]+)"',
                      " ".join(output.split()))
    return match.group(1) if match else None


def check(dist, built, python):
    """auditwheel show for each platform wheel, twine check --strict for all: the reports."""
    reports = []
    bin_folder = os.path.dirname(python)
    for name in built:
        if not name.endswith(".whl") or not name.split("-")[-1].startswith(("manylinux",
                                                                             "musllinux")):
            continue
        output = _run([os.path.join(bin_folder, "auditwheel"), "show", os.path.join(dist, name)])
        tags = name[:-len(".whl")].split("-")[-1].split(".")
        seen = auditwheel_tag(output)
        if seen not in tags:
            raise Failed("%s: auditwheel show finds it consistent with %s, not with its tag %s:\n%s"
                         % (name, seen, ".".join(tags), output.rstrip()))
        reports.append("auditwheel show %s: %s" % (name, seen))
    output = _run([os.path.join(bin_folder, "twine"), "--no-color", "check", "--strict"]
                  + [os.path.join(dist, name) for name in built],
                  env=dict(os.environ, NO_COLOR="1", COLUMNS="1000"))    # a line per file
    reports += [line.rstrip() for line in output.splitlines() if line.strip()]
    return reports


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 tools/release.py",
        description="Build and check the sdist and the wheels of a release into DIR.")
    parser.add_argument("dir", metavar="DIR", help="where the artifacts go (new, or empty)")
    parser.add_argument("--tools", metavar="VENV",
                        help="keep the venv of ziglang, auditwheel and twine here (made where "
                             "missing); default: a temporary one")
    args = parser.parse_args(argv)
    dist = os.path.abspath(args.dir)
    if os.path.exists(dist) and (not os.path.isdir(dist) or os.listdir(dist)):
        parser.exit(2, "python3 tools/release.py: error: %s: expected a new or empty folder\n"
                    % args.dir)
    os.makedirs(dist, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="utf8env-release-")
    try:
        python = tools_venv(os.path.abspath(args.tools) if args.tools
                            else os.path.join(scratch, "tools"))
        built = build(dist, python, os.path.join(scratch, "sdist"))
        for line in check(dist, built, python):
            print(line)
    except Failed as failure:
        sys.stderr.write("python3 tools/release.py: error: %s\n" % failure)
        return 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for name in built:
        print(os.path.join(args.dir, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
