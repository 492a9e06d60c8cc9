"""`doctor --compare FILE` against hostile snapshots (issue 30): a snapshot that --save's
own code wrote, mutated at every path with a value of every other JSON type, is either
what the schema allows (and compared without a traceback) or refused in one line with
status 2; files that are no snapshot (not regular: a FIFO, a device, a folder; larger
than the bound; nested too deeply; not JSON) are refused without blocking or reading
without end; the names --compare and --save print are escaped as the rest of the CLI
escapes them. Pure and fast: the snapshot comes from a handmade place (pythons found,
an embedded one, a missing locale), and the CLI runs in this process (cli.main), which
reads the snapshot before it looks at the place."""
import copy
import json
import os

import pytest
from hypothesis import given, settings, strategies as st

from utf8env import _cli as cli
from utf8env._errors import UsageError
from utf8env._engine.policy import LocaleFacts
from utf8env.doctor import _diagnose as diagnosing, _finding_records as finding_records
from utf8env.doctor import _render as render, _snapshot as snapshot
from utf8env.doctor import _embedding as embedded
from utf8env.doctor._place import Place, Process
from utf8env.doctor._pythons import Found

pytestmark = pytest.mark.fast

ACCEPTED = "expected the JSON object `utf8env doctor --save FILE` writes, \"schema\": 1"
FACTS = LocaleFacts({"C.UTF-8": "UTF-8", "C.utf8": "UTF-8", "en_US.UTF-8": "UTF-8"})


def _place():
    """A place with something at every level of the schema: a missing locale (its
    finding, fixes, tools' warnings), pythons identified (3.6, 3.11: predictions, PEP 686's
    changes), one not identified, the app's Python of a uWSGI (embedded)."""
    pythons = (
        Found("/usr/bin/python3.11", ("PATH",), ("python3",), "3.11", "asked once"),
        Found("/opt/python3.6", ("/opt",), (), "3.6", "asked once"),
        Found("/opt/python9", ("/opt",), (), None, "asked once", "no answer"))
    embedding = embedded.Embedding(100, "uwsgi", "/usr/lib/uwsgi/plugins/python311_plugin.so",
                                  "libpython3.11.so.1.0", ("Py_Initialize",), "strict", "x")
    return Place(environ={"PATH": "/usr/bin:/bin", "LANG": "en_us.UTF-8", "HOME": "/root",
                          "UWSGI_RELOADS": "0", "TERM": "dumb"},
                 files={}, markers=(), proc=True, ttys=(False, False, False),
                 sshd_configs=(), facts=FACTS, pythons=pythons,
                 ancestors=(Process(100, "uwsgi", ("uwsgi", "--ini", "/srv/app.ini")),),
                 embedding=embedding)


PLACE = _place()
DIAGNOSIS = diagnosing.diagnose(PLACE)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """(its path, its data): the snapshot as --save's own code writes it."""
    path = str(tmp_path_factory.mktemp("snapshot") / "saved.json")
    snapshot.save(path, render.to_object(PLACE, DIAGNOSIS))
    with open(path) as f:
        return path, json.load(f)


def _schema_at(where):
    """The part of _snapshot.SNAPSHOT that describes the value at `where`, or None."""
    schema = snapshot.SNAPSHOT
    for part in where:
        while isinstance(schema, (snapshot.Null, snapshot.Optional)):
            schema = schema.inner
        if isinstance(part, int) and isinstance(schema, list):
            schema = schema[0]
        elif isinstance(schema, snapshot.Map):
            schema = schema.inner
        elif isinstance(schema, dict) and part in schema:
            schema = schema[part]
        else:
            return None
    return schema


def _schema_in(where):
    """The schema entry of the key at `where` as its object lists it (Optional kept)."""
    parent = _schema_at(where[:-1])
    while isinstance(parent, snapshot.Null):
        parent = parent.inner
    return parent.get(where[-1]) if isinstance(parent, dict) else None


def test_the_saved_snapshot_has_every_level(saved):
    _, data = saved
    assert snapshot.load(saved[0]) == data
    kinds = {_pattern(where) for where, _ in _paths(data)}
    unknown = sorted(set(_pattern(w) for w, _ in _paths(data) if _schema_at(w) is None))
    # A key render.to_object() gains must be checked by load() too (Optional(...) there).
    assert unknown == [], "--save writes keys _snapshot.SNAPSHOT does not describe"
    for needed in ("findings[].fixes[].lines[]", "locale.missing[].spellings[]",
                   "pythons[].prediction.stdout.encoding", "pythons[].prediction.pep686[].now",
                   "pythons[].embedded.process", "tools[].message", "contexts[].evidence[]",
                   "locale.available.*", "environ.*"):
        assert needed in kinds, needed


# -- every path, every other type ------------------------------------------------------

# What --save writes where a value may be of more than one JSON type (render.to_object):
# null beside a string or an object, UTF-8 mode's 0/1 or true/false, and PEP 686's
# changes (a mode, an encoding), which compare() only shows.
NULLABLE = {"findings[].shared", "locale.decided_by", "locale.lc_ctype", "locale.codeset",
            "locale.utf8_locale",
            "locale.available.*", "pythons[].path", "pythons[].version",
            "pythons[].identified", "pythons[].error", "pythons[].prediction",
            "pythons[].embedded", "pythons[].prediction.startup_error",
            "pythons[].prediction.lc_ctype", "pythons[].prediction.preferred_encoding",
            "pythons[].embedded.kind", "pythons[].embedded.binary",
            "pythons[].embedded.library", "distribution"}
NULLABLE |= {"pythons[].prediction.%s%s" % (stream, part)
             for stream in ("filesystem", "stdin", "stdout", "stderr", "open")
             for part in ("", ".encoding", ".errors")}
ANY_SCALAR = {"pythons[].prediction.pep686[].now", "pythons[].prediction.pep686[].with_3.15"}
NUMBER_OR_BOOLEAN = {"pythons[].prediction.utf8_mode"}
REPLACEMENTS = (None, True, 7, 1.5, "x", [], {})


def _paths(value, where=()):
    """(where, value) of every value in `value`, itself first."""
    yield where, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, where + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, where + (index,))


def _pattern(where):
    """pythons[].prediction.stdout: a path with its list indexes and map keys left out."""
    out = ""
    for part in where:
        if isinstance(part, int):
            out += "[]"
        elif out in ("environ", "locale.variables", "locale.available"):
            out += ".*"
        else:
            out += ("." if out else "") + part
    return out


def _json_type(value):
    if isinstance(value, bool):
        return "boolean"
    return {type(None): "null", int: "integer", float: "number", str: "string",
            list: "list", dict: "object"}[type(value)]


def _allowed(where, original, value):
    pattern = _pattern(where)
    if pattern == "schema":
        return False            # 1, and nothing else, is this schema
    if pattern in ANY_SCALAR:
        return not isinstance(value, (list, dict))
    if pattern in NUMBER_OR_BOOLEAN and isinstance(value, (bool, int)):
        return True
    if value is None:
        return pattern in NULLABLE
    if original is None:
        # A nullable string or object: only a string is shaped as --save writes it here
        # with nothing inside (an empty object lacks its keys).
        return isinstance(value, str) and pattern not in (
            "pythons[].prediction", "pythons[].embedded", "pythons[].prediction.startup_error")
    if value == {}:
        # An object of any keys (the variables) may have none; another object has its keys.
        return pattern in ("environ", "locale.variables", "locale.available")
    return _json_type(value) == _json_type(original)        # [] too: a list of none


def _replaced(data, where, value):
    """A copy of `data` with `value` at `where` (through JSON: deepcopy costs 10 times
    more)."""
    target = data
    for part in where[:-1]:
        target = target[part]
    kept = target[where[-1]] if where[-1] in target or isinstance(target, list) else _ABSENT
    target[where[-1]] = value
    try:
        return json.loads(json.dumps(data))
    finally:
        if kept is _ABSENT:
            del target[where[-1]]
        else:
            target[where[-1]] = kept


_ABSENT = object()


def _write(tmp_path, data):
    """A new file each time: ext4 flushes a file that is truncated to be written again
    (auto_da_alloc), 20 times the cost of a new one."""
    _write.count = getattr(_write, "count", 0) + 1
    path = tmp_path / ("mutated-%d.json" % _write.count)
    path.write_text(json.dumps(data))
    return str(path)


def _refused(path, capsys):
    """The one line `utf8env doctor --compare PATH` answers, with status 2, and nothing on
    stdout. (Asked of load() first: an accepted one would have cli.main diagnose this
    machine.)"""
    from utf8env._errors import UsageError
    with pytest.raises(UsageError):
        snapshot.load(path)
    code = cli.main(["doctor", "--compare", path])
    out, err = capsys.readouterr()
    assert (code, out) == (2, ""), err
    assert err.startswith("utf8env: error: --compare %s: " % path) and err.count("\n") == 1, err
    return err


def _compared(data, monkeypatch):
    """compare() of an accepted snapshot against the place runs to its end; the places
    it imagines keep this one's locale facts (no libc asked)."""
    monkeypatch.setattr(snapshot, "_moved", lambda place, environ:
                        place._replace(environ=environ))
    result = snapshot.compare(data, PLACE, DIAGNOSIS)
    snapshot.to_text("saved.json", result, finding_records.problems(DIAGNOSIS.findings))
    json.dumps(result)


def test_every_path_with_every_other_type(saved, tmp_path, capsys, monkeypatch):
    """Each value the snapshot holds (the whole of it too) replaced by null, true, 7, 1.5,
    "x", [] and {} in turn: where --save could have written that, it is compared; anywhere
    else it is refused in one line, status 2 (the issue counted 42 tracebacks in 390).
    Each path's first refusal goes through the CLI; the others through load(), whose
    UsageError the CLI says in the same one line."""
    _, data = saved
    refused = accepted = 0
    for where, original in list(_paths(data))[1:]:
        through_cli = True
        for value in REPLACEMENTS:
            if value == original and type(value) is type(original):
                continue
            mutated = _replaced(data, where, value)
            path = _write(tmp_path, mutated)
            if _allowed(where, original, value):
                assert snapshot.load(path) == mutated, where
                _compared(mutated, monkeypatch)
                accepted += 1
            elif through_cli:
                _refused(path, capsys)
                through_cli = False
                refused += 1
            else:
                with pytest.raises(UsageError) as raised:
                    snapshot.load(path)
                message = str(raised.value)
                assert message.startswith("--compare %s: " % path) and "\n" not in message
                refused += 1
    assert refused > accepted > 0, (refused, accepted)


def test_a_key_removed_anywhere(saved, tmp_path, capsys):
    _, data = saved
    for where, _ in list(_paths(data))[1:]:
        if isinstance(where[-1], int) or _pattern(where).endswith(".*") or isinstance(
                _schema_in(where), snapshot.Optional):
            continue            # a list's item, a variable: any number of them is a snapshot;
            # a key added since schema 1 began
        mutated = copy.deepcopy(data)
        target = mutated
        for part in where[:-1]:
            target = target[part]
        del target[where[-1]]
        _refused(_write(tmp_path, mutated), capsys)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_any_json_anywhere(saved, data):
    """Any JSON value put anywhere in the snapshot: accepted and compared, or refused with
    a UsageError of one line (never another exception)."""
    from utf8env._errors import UsageError
    original = saved[1]
    paths = [where for where, _ in _paths(original)][1:]
    where = data.draw(st.sampled_from(paths))
    value = data.draw(st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5),
                                                                    inner, max_size=3),
        max_leaves=6))
    mutated = _replaced(original, where, value)
    _write.count = getattr(_write, "count", 0) + 1
    path = os.path.join(os.path.dirname(saved[0]), "any-%d.json" % _write.count)
    with open(path, "w") as f:
        json.dump(mutated, f)
    try:
        there = snapshot.load(path)
    except UsageError as error:
        assert "\n" not in str(error)
        return
    finally:
        os.unlink(path)
    moved = snapshot._moved      # (a fixture's monkeypatch would outlive one example)
    snapshot._moved = lambda place, environ: place._replace(environ=environ)
    try:
        result = snapshot.compare(there, PLACE, DIAGNOSIS)
        snapshot.to_text(path, result, 1)
        json.dumps(result)
    finally:
        snapshot._moved = moved


# -- each kind of bad input: its exact line --------------------------------------------

def _line(path, what):
    return "utf8env: error: --compare %s: %s\n" % (path, what)


def test_wrong_types_named_where_they_are(saved, tmp_path, capsys):
    _, data = saved
    fixed = [i for i, f in enumerate(data["findings"]) if f["fixes"]][0]
    cases = [
        (("contexts",), None, "contexts is null, not a list"),
        (("locale",), "x", "locale is a string, not an object"),
        (("environ", "LANG"), 1, "environ.LANG is a number, not a string"),
        (("problems",), True, "problems is true, not an integer"),
        (("pythons", 0, "prediction", "stdout"), [], "pythons[0].prediction.stdout is a "
                                                    "list, not an object or null"),
        (("pythons", 0, "version"), 3.11, "pythons[0].version is a number, not a string or "
                                           "null"),
        (("findings", fixed, "fixes", 0, "lines", 0), {}, "findings[%d].fixes[0].lines[0] "
                                                           "is an object, not a string" % fixed),
        (("locale", "available", "en_US.UTF-8"), False, "locale.available.en_US.UTF-8 is "
                                                         "false, not a string or null"),
        (("environ", "A B\x1b[2J"), None, 'environ["A B\\u001b[2J"] is null, not a string'),
    ]
    for where, value, what in cases:
        path = _write(tmp_path, _replaced(data, where, value))
        assert _refused(path, capsys) == _line(path, "not a utf8env doctor snapshot (%s; %s)"
                                               % (what, ACCEPTED)), where
    # compare() diagnoses the place again for each variable that differs: only those
    # --save keeps, and not thousands of them.
    path = _write(tmp_path, _replaced(data, ("environ", "LD_PRELOAD"), "/tmp/x.so"))
    assert _refused(path, capsys) == _line(path, "not a utf8env doctor snapshot (environ."
                                                 "LD_PRELOAD is a variable --save does not "
                                                 "keep; %s)" % ACCEPTED)
    many = dict(("LC_X%d" % i, "C") for i in range(snapshot.MAX_VARIABLES + 1))
    path = _write(tmp_path, dict(data, environ=many))
    assert _refused(path, capsys) == _line(path, "not a utf8env doctor snapshot (environ is "
                                                 "an object of 257 variables, more than the "
                                                 "256 --compare reads; %s)" % ACCEPTED)
    mutated = copy.deepcopy(data)
    del mutated["contexts"][0]["name"]
    path = _write(tmp_path, mutated)
    assert _refused(path, capsys) == _line(path, "not a utf8env doctor snapshot (contexts[0]."
                                                 "name is missing; %s)" % ACCEPTED)


def test_no_snapshot_at_all(saved, tmp_path, capsys):
    _, data = saved
    generic = "not a utf8env doctor snapshot (%s)" % ACCEPTED
    for text in ("", "[]", "null", '{"schema": 1}', json.dumps(dict(data, schema=2)),
                 json.dumps(dict(data, schema=True)), json.dumps(dict(data, schema="1")),
                 "\xff{", "{" + "\n" * 10):
        path = tmp_path / "other.json"
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        assert _refused(str(path), capsys) == _line(path, generic), text
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000)
    assert _refused(str(deep), capsys) == _line(deep, "not a utf8env doctor snapshot (nested "
                                                      "too deeply; %s)" % ACCEPTED)
    deep.write_text('{"schema": 1, "verdict": "ok", "environ": {}, "x": %s}' % (
        "[" * 100000 + "]" * 100000))
    assert _refused(str(deep), capsys) == _line(deep, "not a utf8env doctor snapshot (nested "
                                                      "too deeply; %s)" % ACCEPTED)


def test_files_that_are_not_regular_are_not_read(tmp_path, capsys):
    """A FIFO (opened without blocking: no writer needed), a device (/dev/zero: never read),
    a folder; a regular file one byte over the bound (sparse: nothing written)."""
    fifo = tmp_path / "fifo.json"
    os.mkfifo(str(fifo))
    regular = "not a regular file (%s)" % ACCEPTED
    for path in (str(fifo), "/dev/zero", str(tmp_path)):
        assert _refused(path, capsys) == _line(path, regular)
    big = tmp_path / "big.json"
    with open(str(big), "wb") as f:
        f.truncate(snapshot.MAX_BYTES + 1)
    assert _refused(str(big), capsys) == _line(big, "larger than 1048576 bytes, which no "
                                                    "snapshot is (%s)" % ACCEPTED)
    assert _refused(str(tmp_path / "none.json"), capsys) == _line(
        tmp_path / "none.json", "cannot read it (No such file or directory)")


def test_names_are_escaped(saved, tmp_path, capsys):
    """A file name holding an escape sequence or an undecodable byte, printed by
    --compare or --save, as the rest of the CLI shows such text (\\xNN)."""
    hostile = str(tmp_path) + "/\x1b]0;owned\x07-\udcff.json"
    shown = str(tmp_path) + "/\\x1b]0;owned\\x07-\\xff.json"
    assert cli.main(["doctor", "--compare", hostile]) == 2
    assert capsys.readouterr() == ("", "utf8env: error: --compare %s: cannot read it (No such "
                                       "file or directory)\n" % shown)
    with open(os.fsencode(hostile), "w") as f:
        f.write("[]")
    assert cli.main(["doctor", "--compare", hostile]) == 2
    assert capsys.readouterr() == ("", "utf8env: error: --compare %s: not a utf8env doctor "
                                       "snapshot (%s)\n" % (shown, ACCEPTED))
    missing = hostile[:-5] + "/s.json"
    with pytest.raises(UsageError) as raised:
        snapshot.save(missing, {})
    assert str(raised.value) == "--save %s: cannot write it (No such file or directory)" % (
        shown[:-5] + "/s.json")
    text = snapshot.to_text(hostile, {"differences": [], "explains": []}, 0)
    assert text.splitlines()[1] == "compared with %s (there) and this place (here):" % shown
    # A variable's name and value from the snapshot, shown so too.
    difference = {"what": "LC_\x1b[2J", "there": "C.UTF-8\x9b\udcff", "here": None}
    text = snapshot.to_text("s.json", {"differences": [difference], "explains": []}, 0)
    assert text.splitlines()[2:4] == ["  LC_\\x1b[2J  there: C.UTF-8\\x9b\\xff",
                                      "              here:  (unset)"]


def test_save_does_not_block_on_a_fifo(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(str(fifo))
    with pytest.raises(UsageError) as raised:
        snapshot.save(str(fifo), {})
    assert str(raised.value) == "--save %s: cannot write it (No such device or address)" % fifo
