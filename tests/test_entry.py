"""The installed `utf8env` command (scripts/utf8env and scripts/.utf8env.py), as pip puts
it in a new venv: it starts its interpreter without site and without the user's PYTHON*
variables, finds its package, passes bytes and status through, and where it cannot take
that path (a link, a long path, a package found elsewhere) it still works, the usual way."""
import os
import shutil
import signal
import subprocess

import pytest

from support import install
from utf8env.matrix import discovery as interpreters, worlds

PYENV = {i.version: i for i in interpreters.interpreters() if i.root == "/"}
VERSIONS = [v for v in ("3.6", "3.13") if v in PYENV]
SITE_MARK = b"site ran\n"
BASE = {"PATH": "/usr/bin:/bin", "LANG": "C"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    return install.build_wheel(str(tmp_path_factory.mktemp("wheel")))


def _venv(wheel, folder, version):
    bin_folder = install.venv_with(wheel, folder, PYENV[version].argv[0])
    # A .pth file that shows whether site ran: site executes its import lines (once, though
    # a 3.6 venv's lib64 link shows site the same folder twice).
    (packages,) = [os.path.join(root, "site-packages") for root, dirs, _ in
                   os.walk(os.path.join(folder, "lib")) if "site-packages" in dirs]
    with open(os.path.join(packages, "zz_site_mark.pth"), "w") as f:
        f.write("import os, sys; hasattr(sys, 'site_mark') or "
                "(os.write(2, b'site ran\\n'), setattr(sys, 'site_mark', 1))\n")
    return bin_folder


@pytest.fixture(scope="module", params=VERSIONS)
def venv(request, wheel, tmp_path_factory):
    return _venv(wheel, str(tmp_path_factory.mktemp("venv" + request.param)), request.param)


def run(command, env=None, **kw):
    return subprocess.run(command, env=dict(BASE, **(env or {})), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, **kw)


def test_pip_installs_the_stub_and_writes_its_interpreter_beside_it(venv):
    with open(os.path.join(venv, "utf8env"), "rb") as f:
        assert f.readline() == b"#!/bin/sh\n"
    with open(os.path.join(venv, ".utf8env.py"), "rb") as f:
        assert f.readline() == b"#!" + os.fsencode(os.path.join(venv, "python")) + b"\n"


def test_the_command_starts_without_site(venv):
    control = run([os.path.join(venv, "python"), "-c", "pass"])
    assert control.stderr == SITE_MARK          # the mark works: a normal start prints it
    result = run([os.path.join(venv, "utf8env"), "run", "--", "echo", "hi"])
    assert (result.returncode, result.stdout, result.stderr) == (0, b"hi\n", b"")


def test_python_variables_reach_the_command_not_utf8env(venv, tmp_path):
    # Each of these stops a normal start of utf8env's own interpreter, or replaces its code.
    shadow = tmp_path / "utf8env"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("raise SystemExit('the wrong utf8env')\n")
    hostile = {"PYTHONIOENCODING": "no-such-codec", "PYTHONPATH": str(tmp_path),
               "PYTHONUTF8": "maybe"}
    control = run([os.path.join(venv, "python"), "-c", "pass"], env=hostile)
    assert control.returncode != 0
    result = run([os.path.join(venv, "utf8env"), "run", "--", "sh", "-c",
                  'echo "$PYTHONIOENCODING $PYTHONUTF8"'], env=hostile)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"no-such-codec maybe\n", b"")


def test_the_coercion_warning_is_printed_once_as_cpython_prints_it(venv):
    # PYTHONCOERCECLOCALE=warn: the launcher warns for the command it coerces, with 3.7's
    # words; its own interpreter, started with -I, adds no second warning.
    if "3.7" not in PYENV:
        pytest.skip("no Python 3.7")
    warn = {"PYTHONCOERCECLOCALE": "warn"}
    native = run([PYENV["3.7"].argv[0], "-c", "pass"], env=warn)
    assert native.stderr.count(b"\n") == 1
    result = run([os.path.join(venv, "utf8env"), "run", "--", "sh", "-c", ":"], env=warn)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", native.stderr)


def test_bytes_status_and_signals_pass_through_the_stub(venv):
    utf8env = os.path.join(venv, "utf8env")
    words = [b"", b"a b", b"\xff\xfe", b"--", b'"$@"', b"*"]
    result = run([utf8env.encode(), b"run", b"--", b"printf", b"[%s]\\n"] + words)
    assert result.stdout == b"".join(b"[" + w + b"]\n" for w in words)
    assert run([utf8env, "run", "--", "sh", "-c", "exit 3"]).returncode == 3
    assert run([utf8env, "run", "--", "sh", "-c", "kill -TERM $$"]).returncode == -signal.SIGTERM
    missing = run([utf8env, "run", "--", "/no/such/command"])
    assert (missing.returncode, missing.stdout, missing.stderr) == (
        127, b"", b"utf8env: error: command '/no/such/command': not found\n")


def test_pep538_example_for_36_through_the_installed_command(wheel, venv):
    if "3.6" not in PYENV:
        pytest.skip("no Python 3.6")
    py36 = PYENV["3.6"].argv[0]
    program = ["-c", 'print("\u2119\u01b4\u2602\u210c\u00f8\u1f24")']
    alone = subprocess.run([py36] + program, env={}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert alone.returncode == 1 and b"UnicodeEncodeError" in alone.stderr
    result = subprocess.run([os.path.join(venv, "utf8env"), "run", "--", py36] + program, env={},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (result.returncode, result.stdout, result.stderr) == (
        0, "\u2119\u01b4\u2602\u210c\u00f8\u1f24\n".encode("utf-8"), b"")


def test_the_locale_facts_follow_the_commands_locpath(venv):
    # The launcher asks libc in its own process, under the command's environment: a
    # locale that only LOCPATH provides is not the legacy C locale, so nothing is coerced.
    ok, reason = worlds.available()
    if not ok:
        pytest.skip(reason)
    worlds.prepare(["/"])
    show = [os.path.join(venv, "utf8env"), "run", "--", "sh", "-c", 'echo "${LC_CTYPE-unset}"']
    lang = {"LANG": "en_US.UTF-8"}
    assert run(show, env=lang).stdout == b"C.UTF-8\n"      # not installed: coerced
    provided = dict(lang, LOCPATH=worlds.world_dir("en_US-only", "/"))
    result = run(show, env=provided)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"unset\n", b"")


def test_debians_dist_packages_is_found_without_site(venv, tmp_path):
    # pip on Debian's own python3 installs into /usr/local: bin/ and
    # lib/python3.X/dist-packages/. The same layout, made by hand around the venv's files.
    (packages,) = [os.path.join(root, "site-packages") for root, dirs, _ in
                   os.walk(os.path.join(os.path.dirname(venv), "lib")) if "site-packages" in dirs]
    prefix = tmp_path / "usr-local"
    (prefix / "bin").mkdir(parents=True)
    for name in ("utf8env", ".utf8env.py"):
        shutil.copy2(os.path.join(venv, name), str(prefix / "bin" / name))
    dist = prefix / "lib" / os.path.basename(os.path.dirname(packages)) / "dist-packages"
    shutil.copytree(os.path.join(packages, "utf8env"), str(dist / "utf8env"))
    result = run([str(prefix / "bin" / "utf8env"), "run", "--", "echo", "debian"])
    assert (result.returncode, result.stdout, result.stderr) == (0, b"debian\n", b"")


def test_a_link_to_the_command_works_as_the_command(venv, tmp_path):
    link = tmp_path / "utf8env"       # as pipx links it into ~/.local/bin
    link.symlink_to(os.path.join(venv, "utf8env"))
    result = run([str(link), "run", "--", "echo", "linked"])
    assert (result.returncode, result.stdout, result.stderr) == (0, b"linked\n", b"")


def test_outside_its_scheme_it_starts_the_usual_way(venv, tmp_path):
    # An editable install or a copied bin folder: no ../lib/pythonX.Y/site-packages with
    # the package. The entry starts again with site, so PYTHONPATH finds the package.
    elsewhere = tmp_path / "bin"
    elsewhere.mkdir()
    for name in ("utf8env", ".utf8env.py"):
        shutil.copy2(os.path.join(venv, name), str(elsewhere / name))
    args = ["explain", "--version", "3.7", "--empty-env", "--env", "LANG=C", "--json"]
    packages = os.path.join(install.ROOT, "src")
    result = run([str(elsewhere / "utf8env")] + args, env={"PYTHONPATH": packages})
    expected = run([os.path.join(venv, "python"), "-I", "-S", "-c",
                    "import sys; sys.path.insert(0, %r); from utf8env.cli import main; main()"
                    % packages] + args)
    assert (result.returncode, result.stdout) == (0, expected.stdout)
    assert result.stderr == SITE_MARK           # the usual way: with site


def test_without_its_companion_the_stub_says_so(tmp_path):
    stub = tmp_path / "utf8env"
    shutil.copy2(os.path.join(install.ROOT, "scripts", "utf8env"), str(stub))
    result = run([str(stub), "run", "--", "true"])
    assert (result.returncode, result.stdout, result.stderr) == (
        125, b"", ("utf8env: error: %s/.utf8env.py: cannot be read (reinstall utf8env)\n"
                   % tmp_path).encode())


def test_a_long_interpreter_path(wheel, tmp_path):
    # Longer than the 127 bytes older kernels read of a #! line: the stub reads the
    # interpreter itself and never relies on the kernel for it.
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    bin_folder = _venv(wheel, str(deep), VERSIONS[-1])
    assert len(os.path.join(bin_folder, "python")) > 127
    result = run([os.path.join(bin_folder, "utf8env"), "run", "--", "echo", "deep"])
    assert (result.returncode, result.stdout, result.stderr) == (0, b"deep\n", b"")


def test_a_companion_in_the_sh_form_starts_the_usual_way(venv, tmp_path):
    # The form distlib writes for interpreter paths too long for the kernel.
    with open(os.path.join(venv, ".utf8env.py")) as f:
        interpreter, body = f.readline()[2:].strip(), f.read()
    elsewhere = tmp_path / "bin"
    elsewhere.mkdir()
    shutil.copy2(os.path.join(venv, "utf8env"), str(elsewhere / "utf8env"))
    companion = elsewhere / ".utf8env.py"
    companion.write_text("#!/bin/sh\n\'\'\'exec\' \"%s\" \"$0\" \"$@\"\n\' \'\'\'\n%s"
                         % (interpreter, body))
    companion.chmod(0o755)
    result = run([str(elsewhere / "utf8env"), "run", "--", "echo", "sh form"])
    assert (result.returncode, result.stdout, result.stderr) == (0, b"sh form\n", SITE_MARK)
