"""Ground truth for glibc's codesets that CPython has no codec for (issue 21): every
CPython 3.6-3.15 here, started in real glibc locales of those codesets, against decide().

Which codesets matter was measured once over every codeset of /usr/share/i18n/SUPPORTED
(31, the same in glibc 2.36 and 2.43) plus WINDOWS-31J, with LC_ALL set to a locale of
each: ARMSCII-8, GEORGIAN-PS and EUC-TW have no codec in any version, WINDOWS-31J none
before 3.13 (cp932 from then on); the interpreter refuses to start there. Every other
codeset finds the same codec in every version. The worlds here hold a locale of each of
the four and two controls whose codeset is an alias of another name (RK1048: kz1048,
PT154: ptcp154); test_codec_table_holds_for_every_interpreter checks the rest of
codecs_by_version's table (every glibc codeset, every alias) against each interpreter's
own codecs.lookup(), without a locale.

The locales are compiled once per session into a temporary folder (localedef -i -f, a
second or two each), one for the host's glibc and one inside the Debian chroot for its
own (LOCPATH names it there). Each cell is one start of one interpreter (start-up is what
is measured), every cell of the session in one parallel batch; the libc's answers
(LocaleFacts) come from one child per root. Every field of every cell must equal the
prediction exactly, names unnormalised. The path configuration that 3.8+ print before
the fatal error of init_fs_encoding is the installation's: the prediction holds its first
line and a placeholder (codecs_by_version.PATH_CONFIGURATION) for the indented lines.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import pytest

import utf8env
from utf8env import _locales as locales, _probe as probe
from utf8env._engine import codecs_by_version, profiles
from utf8env._engine.codecs_by_version import PATH_CONFIGURATION

from support import codeset_worlds, groundtruth, machine
from support.codeset_worlds import CONTROLS, LOCALES

VERSIONS = profiles.VERSIONS


def variable_sets(name, codeset, control=False):
    """[(environment, options)]: the axes of tests/sweep.py around one locale: each locale
    variable alone with UTF-8 mode as it comes, off and on; -X utf8, -E, -I, -S; then
    PYTHONIOENCODING, and the coercion of LC_CTYPE=C beside the locale in LANG."""
    cells = []
    for variable in ("LC_ALL", "LC_CTYPE", "LANG"):
        cells += [({variable: name}, ()), ({variable: name}, ("-X", "utf8=0")),
                  ({variable: name, "PYTHONUTF8": "1"}, ())]
    cells += [
        ({"LC_ALL": name}, ("-X", "utf8")),
        ({"LC_ALL": name, "PYTHONIOENCODING": ":replace"}, ()),
        ({"LC_ALL": name, "PYTHONUTF8": "1", "PYTHONIOENCODING": codeset}, ()),
        ({"LC_ALL": "C", "PYTHONIOENCODING": codeset}, ()),
        ({"LC_CTYPE": "C", "LANG": name}, ()),
    ]
    if control:
        return cells
    return cells + [
        ({"LC_ALL": name, "PYTHONUTF8": "1"}, ("-E",)),
        ({"LC_ALL": name, "PYTHONUTF8": "1"}, ("-I",)),
        ({"LC_ALL": name}, ("-I", "-X", "utf8")),
        ({"LC_ALL": name}, ("-S", "-X", "utf8")),
        ({"LC_ALL": name, "PYTHONIOENCODING": "utf-8"}, ()),
        ({"LC_ALL": name, "PYTHONIOENCODING": "bogus_codec"}, ()),
        ({"LC_ALL": "C.UTF-8", "PYTHONIOENCODING": codeset}, ()),
        ({"LC_CTYPE": "C", "LANG": name, "PYTHONCOERCECLOCALE": "0"}, ()),
        ({"LC_ALL": "C", "LANG": name}, ()),
        ({"LANG": name, "PYTHONCOERCECLOCALE": "warn"}, ()),
    ]


def cases():
    out = []
    for name, _, codeset in LOCALES:
        out += variable_sets(name, codeset, control=(name, _, codeset) in CONTROLS)
    return out


# -- the worlds ---------------------------------------------------------------------------

@pytest.fixture(scope="session")
def worlds(tmp_path_factory):
    """{root: LOCPATH as that root's interpreters see it}, every locale compiled by the
    root's own localedef; the chroot's folder is removed after the session."""
    found = machine.interpreters()
    if not found:
        pytest.skip(machine.missing(VERSIONS))
    codeset_worlds.require()
    roots = sorted({i.root for i in found}, key=lambda r: (r != "/", r))
    places, made, builds = {}, [], []
    for root in roots:
        if root == "/":
            folder = str(tmp_path_factory.mktemp("codesets"))
            places[root], prefix = folder, []
        else:
            host = tempfile.mkdtemp(prefix="utf8env-codesets-", dir=os.path.join(root, "tmp"))
            os.chmod(host, 0o755)
            made.append(host)
            folder = "/" + os.path.relpath(host, os.path.realpath(root))
            places[root], prefix = folder, ["chroot", root]
        builds.append((prefix, folder))
    codeset_worlds.build(builds, LOCALES)
    yield places
    for host in made:
        shutil.rmtree(host, ignore_errors=True)


def _run(job):
    argv, env = job
    try:
        return subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=120)
    except subprocess.TimeoutExpired as expired:
        return subprocess.CompletedProcess(argv, None, expired.stdout or b"",
                                           (expired.stderr or b"") + b"\n(timed out)")


def run_all(jobs):
    """Every job at once, as many at a time as there are cores."""
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        return list(pool.map(_run, jobs))


_PTH_QUESTION = r"""
import glob, os, site
folders = site.getsitepackages() + [site.getusersitepackages()]
print(int(any(glob.glob(os.path.join(folder, "*.pth")) for folder in folders)))
"""


@pytest.fixture(scope="session")
def measured(worlds):
    """(cases, {(version, index): observed}, {version: decide() inputs maker}), once."""
    found = machine.interpreters()
    names = set()
    for env, _ in cases():
        names.update(locales.candidate_names(env))
    by_root = {}
    for interp in found:
        by_root.setdefault(interp.root, interp)
    # One child per root asks its libc (LOCPATH counts); one per interpreter asks whether
    # its site module will read a .pth file (pyenv's here all have one).
    asks = [(by_root[root].argv + ["-I", "-S", "-c", locales.child_program()] + sorted(names),
             {"LOCPATH": worlds[root]}) for root in sorted(by_root)]
    asks += [(i.argv + ["-I", "-S", "-c", _PTH_QUESTION], {}) for i in found]
    keys, jobs = [], []
    all_cases = cases()
    for index, (env, options) in enumerate(all_cases):
        for interp in found:
            keys.append((interp.version, index))
            jobs.append((probe.command(interp.argv, options), dict(env, LOCPATH=worlds[interp.root])))
    results = run_all(asks + jobs)
    facts = {}
    for root, result in zip(sorted(by_root), results):
        assert result.returncode == 0, result.stderr
        answer = json.loads(result.stdout.decode("ascii"))
        c_codeset = answer.pop("C", None)
        for name, _, codeset in LOCALES:
            assert answer.get(name) == codeset, "%s: the world in %s has no %s" % (name, root, codeset)
        facts[root] = utf8env.LocaleFacts(answer, c_codeset)
    pth = {}
    for interp, result in zip(found, results[len(by_root):len(asks)]):
        assert result.returncode == 0, result.stderr
        pth[interp.version] = result.stdout.strip() == b"1"
    observed = {key: groundtruth.observe(result, all_cases[key[1]][0])
                for key, result in zip(keys, results[len(asks):])}
    return all_cases, observed, facts, pth


def decide_for(interp, facts, pth, env, options):
    return utf8env.decide(utf8env.Inputs(
        environ=dict(env), args=tuple(options), version=interp.version,
        locales=facts[interp.root], argv0=interp.argv[-1], pth_files=pth[interp.version]))


def printed_differs(want, got, complete):
    """Why the lines printed differ from the prediction, or None. PATH_CONFIGURATION in
    `want` stands for the header and the indented lines of the dump after it."""
    got = list(got or ())
    if tuple(want[:2]) == PATH_CONFIGURATION:
        if not got or got[0] != want[0]:
            return "no path configuration first"
        end = 1
        while end < len(got) and got[end].startswith("  "):
            end += 1
        want, got = list(want[2:]), got[end:]
    if not complete:
        got = got[:len(want)]
    return None if list(want) == got else "printed %r, predicted %r" % (got, list(want))


def differences(decision, observed):
    """[(field, predicted, observed)]: every field exactly, no name normalised."""
    expected = groundtruth.predicted(decision)
    out = []
    for field, want in expected.items():
        got = observed.get(field)
        if field == "stderr_messages":
            why = printed_differs(want, got, decision.stderr_complete)
            if why:
                out.append((field, want, got))
        elif want != got:
            out.append((field, want, got))
    return out


def test_every_interpreter_starts_or_says_why(measured):
    # Runs the session's batch, so that --durations charges it here. Each cell either
    # reports its configuration or printed why it did not start.
    all_cases, observed, _, _ = measured
    silent = [(v, all_cases[i]) for (v, i), seen in sorted(observed.items())
              if "utf8_mode" not in seen and not seen["stderr_messages"]]
    assert silent == []
    assert len(observed) == len(all_cases) * len(machine.interpreters())


@pytest.mark.parametrize("version", VERSIONS)
def test_every_cell_agrees_with_decide(measured, version):
    interp = machine.interpreter(version)
    all_cases, observed, facts, pth = measured
    failures = []
    for index, (env, options) in enumerate(all_cases):
        decision = decide_for(interp, facts, pth, env, options)
        diff = differences(decision, observed[(version, index)])
        if diff:
            failures.append("%s %s: %s" % (env, " ".join(options), diff))
    assert not failures, "%d of %d cells differ:\n%s" % (
        len(failures), len(all_cases), "\n".join(failures[:20]))


def test_the_failures_are_the_ones_measured(measured):
    # What the cells found, in words (and what the docs say): with LC_ALL naming the
    # locale, which versions refuse to start, and with what.
    all_cases, observed, _, _ = measured
    starts = {}
    for name, _, codeset in LOCALES:
        index = all_cases.index(({"LC_ALL": name}, ()))
        starts[codeset] = tuple(v for v in VERSIONS if (v, index) in observed
                                and observed[(v, index)]["exit_code"] == 0)
    here = tuple(i.version for i in machine.interpreters())
    expect = {"ARMSCII-8": ("3.15",), "GEORGIAN-PS": ("3.15",), "EUC-TW": ("3.15",),
              "WINDOWS-31J": ("3.13", "3.14", "3.15"), "RK1048": VERSIONS, "PT154": VERSIONS}
    assert starts == {cs: tuple(v for v in want if v in here) for cs, want in expect.items()}


_TABLE_QUESTION = r"""
import codecs, encodings, encodings.aliases, json, pkgutil, sys
names = set(sys.argv[1:]) | set(encodings.aliases.aliases)
names |= set(m[1] for m in pkgutil.iter_modules(encodings.__path__))
out = {}
for name in sorted(names):
    try:
        codec = codecs.lookup(name)
    except LookupError:
        out[name] = None
    else:
        out[name] = [codec.name, getattr(codec, "_is_text_encoding", True)]
print(json.dumps(out))
"""


@pytest.fixture(scope="session")
def lookups():
    """{version: {name: [codec name, text encoding] or None}} of every interpreter: the
    table's names and the interpreter's own aliases and encodings modules."""
    found = machine.interpreters()
    asked = sorted(set(codecs_by_version.GLIBC_CODESETS) | set(codecs_by_version.BY_VERSION))
    results = run_all([(i.argv + ["-I", "-S", "-c", _TABLE_QUESTION] + asked, {}) for i in found])
    out = {}
    for interp, result in zip(found, results):
        assert result.returncode == 0, result.stderr
        out[interp.version] = json.loads(result.stdout.decode("ascii"))
    return out


@pytest.mark.parametrize("version", VERSIONS)
def test_codec_table_holds_for_every_interpreter(lookups, version):
    machine.interpreter(version)
    minor = tuple(int(part) for part in version.split("."))
    from utf8env._engine.textnames import lookup
    wrong = []
    for name, seen in sorted(lookups[version].items()):
        predicted = codecs_by_version.codec_name(name, minor)
        if predicted != (seen[0] if seen else None):
            wrong.append((name, predicted, seen))
        host = lookup(name)
        if seen and host is not None and seen[1] != getattr(host, "_is_text_encoding", True):
            wrong.append((name, "text encoding as here", seen))
    assert wrong == []


# -- utf8env itself in such a locale --------------------------------------------------------

def test_utf8env_works_where_its_own_python_could_not_start(worlds, tmp_path):
    command = codeset_worlds.utf8env_command()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LOCPATH": worlds["/"],
           "LC_ALL": "hy_AM.ARMSCII-8"}
    version = "%d.%d" % sys.version_info[:2]
    explained = subprocess.run([command, "explain", "--json", "--version", "3.12"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert explained.returncode == 0, explained.stderr
    report = json.loads(explained.stdout.decode("utf-8"))
    assert report["startup_error"]["exit_code"] == 1
    assert report["startup_error"]["message"].endswith("LookupError: unknown encoding: ARMSCII-8")
    ran = subprocess.run([command, "run", "--", "true"], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    assert (ran.returncode, ran.stderr) == (0, b"")
    # `python3 -m utf8env` is that Python started in the locale: it stops before a line of
    # utf8env runs, exactly as decide() says a CPython of its version stops there.
    by_module = subprocess.run([sys.executable, "-m", "utf8env", "explain"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    own = utf8env.decide(utf8env.Inputs(
        environ={"LC_ALL": "hy_AM.ARMSCII-8"}, args=("-m", "utf8env"), version=version,
        locales=utf8env.LocaleFacts({"hy_AM.ARMSCII-8": "ARMSCII-8"})))
    assert own.startup_error is not None
    assert probe.exit_status(by_module.returncode) == own.startup_error.exit_code
    printed = by_module.stderr.decode("utf-8", "replace").splitlines()
    assert printed_differs(own.stderr_messages, printed, own.stderr_complete) is None
