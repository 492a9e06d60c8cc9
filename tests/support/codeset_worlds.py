"""Real glibc locales of the codesets that CPython has no codec for (ARMSCII-8,
GEORGIAN-PS and EUC-TW in every version, WINDOWS-31J before 3.13), and two controls whose
codeset is an alias of another name (RK1048: kz1048, PT154: ptcp154): compiled with
`localedef -c -i INPUT -f CHARMAP FOLDER/NAME`, a second or two each, into a folder that
LOCPATH then names (it adds to glibc's search path). A root other than the host's (the
Debian chroot) compiles with its own localedef, entered with `chroot ROOT`.

Used by tests/test_codesets_groundtruth.py (every interpreter, every root) and
tests/test_codesets_places.py (utf8env's own commands in such a locale)."""
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from support import machine

# (the name LC_ALL gives, which is the folder localedef writes; localedef -i; -f)
NO_CODEC = (
    ("hy_AM.ARMSCII-8", "hy_AM", "ARMSCII-8"),
    ("ka_GE", "ka_GE", "GEORGIAN-PS"),            # SUPPORTED's name: no codeset in it
    ("zh_TW.EUC-TW", "zh_TW", "EUC-TW"),
    ("ja_JP.WINDOWS-31J", "ja_JP", "WINDOWS-31J"),
)
CONTROLS = (
    ("kk_KZ.RK1048", "kk_KZ", "RK1048"),
    ("kk_KZ", "kk_KZ", "PT154"),
)
LOCALES = NO_CODEC + CONTROLS


def require():
    """A skip unless localedef and glibc's locale sources are here."""
    machine.command("localedef", "libc-bin", "the codeset worlds")
    if not os.path.isdir("/usr/share/i18n/charmaps"):
        pytest.skip("no glibc locale sources (/usr/share/i18n): apt-get install locales")


def _localedef(prefix, folder, input_name, charmap, name):
    """localedef (of the root `prefix` enters) writes one locale; -c: it exits 1 after
    mere warnings, so the folder's LC_CTYPE says whether it worked."""
    subprocess.run(prefix + ["localedef", "-c", "-i", input_name, "-f", charmap,
                             os.path.join(folder, name)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env={"PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "LC_ALL": "C"})


def build(places, locales=LOCALES):
    """Compile every one of `locales` into each (prefix, folder) of `places` (prefix:
    [] for the host, ["chroot", ROOT] for a root, with the folder as seen inside it),
    all at once, as many at a time as there are cores."""
    jobs = [(prefix, folder) + locale[1:] + (locale[0],)
            for prefix, folder in places for locale in locales]
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        list(pool.map(lambda job: _localedef(*job), jobs))


def host_world(folder, locales=LOCALES):
    """`folder` (made if missing) holding `locales` compiled by the host's localedef, each
    checked live (`locale charmap` with LOCPATH gives its codeset), for LOCPATH."""
    require()
    os.makedirs(folder, exist_ok=True)
    build([([], folder)], locales)
    for name, _, codeset in locales:
        seen = subprocess.run(["locale", "charmap"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL,
                              env={"PATH": "/usr/bin:/bin", "LOCPATH": folder, "LC_ALL": name})
        assert seen.stdout.decode("ascii", "replace").strip() == codeset, \
            "%s: the world in %s has no %s" % (name, folder, codeset)
    return folder


def utf8env_command():
    """The installed `utf8env` command of the interpreter running the tests (the compiled
    launcher, or the shell stub), or a skip: it starts its own Python in the C locale, so
    it runs where that Python could not (`python3 -m utf8env` stops there)."""
    command = os.path.join(os.path.dirname(sys.executable), "utf8env")
    if not os.access(command, os.X_OK):
        pytest.skip("no utf8env command beside %s: bash tests/setup.sh installs it"
                    % sys.executable)
    return command
