"""The README's table "What gets fixed where", measured: each place (a locale world and
the variables set there) is built for real, a small check runs in it directly, through
`utf8env run --` and after `eval "$(utf8env env)"`, and every cell of the table must say
what was measured, so that the table cannot lie.

The check, for each column, in four parts (a Python's) or one (a program that is not):
a Python prints `café`, creates a file named `café.txt`, calls its own
`locale.setlocale(locale.LC_ALL, "")` and starts `wc -m` with the bytes of `café\\n` on
its stdin; a program that is not Python counts the characters of `printf 'é' | wc -m`.
UTF-8 means: stdout is b"caf\\xc3\\xa9\\n", the file's name is b"caf\\xc3\\xa9.txt",
setlocale succeeds with the codeset UTF-8 (nl_langinfo), and the child counts 5 characters
(6 is bytes); or wc counts 1. A cell is "fixed" or "already" only when every part is UTF-8;
otherwise it names the parts that are, through utf8env (PARTS, NAMED).

The worlds are utf8env's own (src/utf8env/_worlds): the installed locales; a Latin-1
locale compiled by localedef into the user's cache and named by LOCPATH; no locale at all
(/usr/lib/locale hidden in a user namespace, or root's mount namespace)."""
import os
import shlex

import pytest

from support import machine
from utf8env import _worlds as worlds, probe_locales
from utf8env._own_command import own_command

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")

# (the row's label in the README, the world, the environments it is measured in: every
# one of them must give the same cell; and the options given to `run` and `env`)
ROWS = (
    ("the legacy C locale: nothing set, or `LANG=C`", "installed", ({}, {"LANG": "C"})),
    ("`LANG` names a locale that is not installed (`de_DE.UTF-8`)", "installed",
     ({"LANG": "de_DE.UTF-8"},)),
    ("no locale installed at all (an empty `/usr/lib/locale`)", "no-locales", ({},)),
    ("`LC_ALL=C` set explicitly", "installed", ({"LC_ALL": "C"},)),
    ("`LC_ALL=C`, with `run --override-lc-all` and `env --override-lc-all`", "installed",
     ({"LC_ALL": "C"},), ("--override-lc-all",)),
    ("a Latin-1 locale (`LANG=en_US.ISO-8859-1`)", "latin1", ({"LANG": "en_US.ISO-8859-1"},)),
)
COLUMNS = ("Python 3.6", "Python 3.7+", "other programs")
WAYS = ("run", "env")
HEADER = ["where"] + ["%s `%s`" % (c, w) for c in COLUMNS for w in WAYS]

NAME = "caf\u00e9"
# ASCII source: a -c command is decoded with the locale's encoding, which is what is tested.
# Each part runs whatever the others did; the last line of stdout says what setlocale gave
# (the codeset, or the error's name) and what the child counted, in ASCII written past
# Python's text layer.
PYTHON_CHECK = """\
import locale, os, subprocess, sys
try:
    print(%a)
    sys.stdout.flush()
except Exception:
    pass
try:
    open(%a, 'w').close()
except Exception:
    pass
try:
    locale.setlocale(locale.LC_ALL, '')
    own = locale.nl_langinfo(locale.CODESET)
except Exception as e:
    own = type(e).__name__
child = subprocess.run(['wc', '-m'], input=%a, stdout=subprocess.PIPE).stdout.strip()
os.write(1, b'check: ' + own.encode('ascii', 'replace') + b' ' + child + b'\\n')
""" % (NAME, NAME + ".txt", (NAME + "\n").encode())
OTHER_CHECK = ["sh", "-c", "printf '\\303\\251' | wc -m"]
UTF8_STDOUT, UTF8_FILE = NAME.encode() + b"\n", (NAME + ".txt").encode()
UTF8_CODESET, CHILD_CHARACTERS = b"UTF-8", b"5"
# The parts of a Python's check, and the word for the parts that alone are UTF-8 where
# another word than "<part> and <part> only" says it better.
PARTS = ("stdout", "file names", "setlocale", "children")
NAMED = {("stdout", "file names"): "text only"}


def _section():
    """The README's section of the table: its text."""
    with open(README, encoding="utf-8") as f:
        text = f.read()
    return text.split("\n## What gets fixed where\n", 1)[1].split("\n## ", 1)[0]


def readme_table():
    """(the header, {row label: its six cells}) of the README's table."""
    lines = [line for line in _section().splitlines() if line.startswith("|")]
    cells = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    assert cells[1] == ["---"] * len(HEADER)
    return cells[0], {row[0]: row[1:] for row in cells[2:]}


@pytest.mark.fast
def test_the_table_has_the_measured_rows_and_columns():
    header, rows = readme_table()
    assert header == HEADER
    assert list(rows) == [row[0] for row in ROWS]
    assert all(len(cells) == len(HEADER) - 1 for cells in rows.values())


@pytest.mark.fast
def test_the_legend_says_what_each_word_of_the_table_means():
    _, rows = readme_table()
    legend = " ".join(line for line in _section().splitlines() if not line.startswith("|"))
    legend = " ".join(legend.split())
    words = {cell for cells in rows.values() for cell in cells}
    assert sorted(word for word in words if "%s:" % word not in legend) == []


# -- the measurement ---------------------------------------------------------------------

def _programs():
    """{column: [(version, argv)]} of the programs this host has (3.6 and 3.7+: pyenv's)."""
    found = machine.host_pythons()
    newer = sorted((v for v in found if tuple(map(int, v.split("."))) >= (3, 7)),
                   key=lambda v: tuple(map(int, v.split("."))))
    programs = {"other programs": [("sh", OTHER_CHECK)]}
    if "3.6" in found:
        programs["Python 3.6"] = [("3.6", [found["3.6"], "-c", PYTHON_CHECK])]
    if newer:
        programs["Python 3.7+"] = [(v, [found[v], "-c", PYTHON_CHECK]) for v in newer]
    return programs


def _utf8(column, result, cwd):
    """Which parts of one run of the check are UTF-8: (one per PARTS), or (wc,)."""
    if column == "other programs":
        return (result.returncode == 0 and result.stdout == b"1\n",)
    lines = result.stdout.splitlines(True)
    last = lines.pop() if lines else b""
    facts = last.split() if last.startswith(b"check: ") else [b"", b"", b""]
    made = os.listdir(os.fsencode(cwd))
    return (b"".join(lines) == UTF8_STDOUT, made == [UTF8_FILE], facts[1] == UTF8_CODESET,
            result.returncode == 0 and facts[2:] == [CHILD_CHARACTERS])


def _cell(without, through):
    """The table's word for a check without utf8env and through it."""
    if all(through):
        return "already" if all(without) else "fixed"
    if all(without):
        return "broken by it"
    if not any(through):
        return "not fixed"
    parts = tuple(part for part, ok in zip(PARTS, through) if ok)
    return NAMED.get(parts, " and ".join(parts) + " only")


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    """{(column, row label, way): the cell measured}; a cell of several interpreters or
    environments that disagree says so."""
    machine.worlds()
    root = tmp_path_factory.mktemp("fixed-where")
    home = root / "home"
    os.makedirs(str(home / ".cache"), mode=0o700)
    bin_folder = root / "bin"
    bin_folder.mkdir()
    # `utf8env` on PATH for `eval "$(utf8env env)"`: this checkout's, as own_command starts it.
    launcher = bin_folder / "utf8env"
    launcher.write_text("#!/bin/sh\nexec %s \"$@\"\n" % " ".join(map(shlex.quote, own_command())))
    launcher.chmod(0o755)
    base = {"PATH": "%s:/usr/bin:/bin" % bin_folder, "HOME": str(home),
            "XDG_CACHE_HOME": str(home / ".cache")}
    ways = {
        "without": lambda argv, options: argv,
        "run": lambda argv, options: own_command() + ["run"] + list(options) + ["--"] + argv,
        "env": lambda argv, options: ["sh", "-c", 'eval "$(utf8env env %s)" && exec "$@"'
                                      % " ".join(options), "sh"] + argv,
    }
    programs = _programs()
    batches, keys, count = {}, [], 0
    for label, world, environments, *rest in ROWS:
        options = rest[0] if rest else ()
        for environ in environments:
            for column, found in programs.items():
                for version, argv in found:
                    for way, wrap in ways.items():
                        count += 1
                        cwd = root / ("job%d" % count)
                        cwd.mkdir()
                        batches.setdefault(world, []).append(
                            worlds.Job(wrap(argv, options), dict(base, **environ), cwd=str(cwd)))
                        keys.append((world, (column, label, version, str(environ), way), str(cwd)))
    names = list(batches)
    results = worlds.run_batches([(w, batches[w]) for w in names], ["/"])
    by_world = {w: iter(r) for w, r in zip(names, results)}
    seen = {}
    for world, key, cwd in keys:
        result = next(by_world[world])
        assert not result.timed_out, key
        seen[key] = _utf8(key[0], result, cwd)
    cells = {}
    for (column, label, version, environ, way), through in seen.items():
        if way == "without":
            continue
        without = seen[(column, label, version, environ, "without")]
        cells.setdefault((column, label, way), {})["%s %s" % (version, environ)] = \
            _cell(without, through)
    out = {}
    for key, per in cells.items():
        words = set(per.values())
        out[key] = words.pop() if len(words) == 1 else "differs: " + "; ".join(
            "%s: %s" % kv for kv in sorted(per.items()))
    return out


def _places():
    """A skip unless the places are what the rows say: C.UTF-8 installed (the coercion's
    target), de_DE.UTF-8 not."""
    facts = probe_locales({"PATH": "/usr/bin:/bin"}, names=["C.UTF-8", "de_DE.UTF-8"])
    if not facts.accepts("C.UTF-8"):
        pytest.skip("C.UTF-8 is not installed here: the rows of the installed locales need it")
    if facts.accepts("de_DE.UTF-8"):
        pytest.skip("de_DE.UTF-8 is installed here: the row of a missing LANG locale needs "
                    "it missing")


@pytest.mark.parametrize("column", COLUMNS)
def test_the_readme_says_what_was_measured(column, measured):
    if column == "Python 3.6":
        machine.python("3.6")
    elif column == "Python 3.7+" and not any((column, label, "run") in measured
                                             for label in (row[0] for row in ROWS)):
        pytest.skip("no CPython 3.7+ on this host: %s" % machine.missing(["3.7"]))
    _places()
    _, table = readme_table()
    said = {label: dict(zip(HEADER[1:], cells)) for label, cells in table.items()}
    expected = {label: {"%s `%s`" % (column, way): measured[(column, label, way)]
                        for way in WAYS} for label in (row[0] for row in ROWS)}
    assert {label: {h: said[label][h] for h in expected[label]} for label in said} == expected
