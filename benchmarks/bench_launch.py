"""Benchmark of the launcher's start-up, measured side by side in one run (never a timed test).

utf8env is installed the way a user gets it: a wheel of this checkout, installed by pip
into a new venv (what pipx does). Then, alternating, N runs of each, medians, in LANG=C
(so the launcher has a coercion to make):

  utf8env run -- /bin/true         the installed command, bin/utf8env
  python -I -S -c 'os.execv(...)'  the minimal Python exec wrapper, same interpreter
                                   (goal: the first within 1.15x of this)
  utf8env run -- CONSOLE_SCRIPT    a console script of the venv (#!.../venv/bin/python,
                                   asked once and cached), against the same wrapper
                                   exec'ing it (goal 1.15x)
  libc: utf8env run -- /bin/true   the same command with the launcher built over the C
                                   library (where its freestanding build fails), in a
                                   second venv
  stub: utf8env run -- /bin/true   the same command where no compiler built the launcher:
                                   the /bin/sh stub (scripts/utf8env.sh), in a third venv

and, to show what the entry point avoids, two starts with site, as a console script that
pip generates would start: the same wrapper, and `python -m utf8env run -- /bin/true`.

Run: python benchmarks/bench_launch.py [--runs N] [--python PATH]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from support import install  # noqa: E402

WRAPPER = 'import os; os.execv("/bin/true", ["true"])'
SCRIPT_WRAPPER = 'import os, sys; os.execv(sys.argv[1], sys.argv[1:])'
# A console script as pip writes one (the venv's interpreter on its #! line), doing nothing.
CONSOLE_SCRIPT = "#!%s\nimport sys\nsys.exit(0)\n"


def wall(argv, env):
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--python", default=sys.executable, help="the interpreter of the venv")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        wheel = install.build_wheel(os.path.join(folder, "c"), launcher="c")
        bin_folder = install.venv_with(wheel, os.path.join(folder, "venv"), args.python)
        libc_wheel = install.build_wheel(os.path.join(folder, "libc"), launcher="libc")
        libc_bin = install.venv_with(libc_wheel, os.path.join(folder, "libc-venv"), args.python)
        stub_wheel = install.build_wheel(os.path.join(folder, "sh"), launcher="sh")
        stub_bin = install.venv_with(stub_wheel, os.path.join(folder, "stub-venv"), args.python)
        python = os.path.join(bin_folder, "python")
        script = os.path.join(bin_folder, "noop-tool")
        with open(script, "w") as f:
            f.write(CONSOLE_SCRIPT % python)
        os.chmod(script, 0o755)
        commands = {
            "utf8env run -- CONSOLE_SCRIPT": [os.path.join(bin_folder, "utf8env"), "run", "--", script],
            "python -I -S -c execv SCRIPT": [python, "-I", "-S", "-c", SCRIPT_WRAPPER, script],
            "utf8env run -- /bin/true": [os.path.join(bin_folder, "utf8env"), "run", "--", "/bin/true"],
            "python -I -S -c execv": [python, "-I", "-S", "-c", WRAPPER],
            "libc: utf8env run -- /bin/true": [os.path.join(libc_bin, "utf8env"), "run", "--",
                                               "/bin/true"],
            "stub: utf8env run -- /bin/true": [os.path.join(stub_bin, "utf8env"), "run", "--",
                                               "/bin/true"],
            "python -c execv (with site)": [python, "-c", WRAPPER],
            "python -m utf8env run (site)": [python, "-m", "utf8env", "run", "--", "/bin/true"],
        }
        env = {"PATH": os.environ.get("PATH", ""), "LANG": "C", "HOME": folder}
        times = {name: [] for name in commands}
        for _ in range(3):
            for argv in commands.values():
                wall(argv, env)
        for _ in range(args.runs):
            for name, argv in commands.items():
                times[name].append(wall(argv, env))
    version = subprocess.check_output([args.python, "-c", "import sys; print(sys.version.split()[0])"])
    print("Python %s, %d runs each, alternating" % (version.decode().strip(), args.runs))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, value in medians.items():
        print("%-30s median %.1f ms" % (name, value * 1000))
    ours = medians["utf8env run -- /bin/true"]
    print("ratio run / (python -I -S exec wrapper): %.2f  (goal <= 1.15)"
          % (ours / medians["python -I -S -c execv"]))
    print("ratio run CONSOLE_SCRIPT / (python -I -S exec wrapper of it): %.2f  (goal <= 1.15)"
          % (medians["utf8env run -- CONSOLE_SCRIPT"] / medians["python -I -S -c execv SCRIPT"]))
    print("ratio libc run / (python -I -S exec wrapper): %.2f  (the launcher over libc, for "
          "comparison)" % (medians["libc: utf8env run -- /bin/true"] / medians["python -I -S -c execv"]))
    print("ratio stub run / (python -I -S exec wrapper): %.2f  (the shell stub, for comparison)"
          % (medians["stub: utf8env run -- /bin/true"] / medians["python -I -S -c execv"]))
    print("ratio run / (python exec wrapper with site): %.2f"
          % (ours / medians["python -c execv (with site)"]))


if __name__ == "__main__":
    main()
