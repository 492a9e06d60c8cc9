"""utf8env._engine.records: the NamedTuple behaviour the engine relies on, without typing."""
import copy
import json
import pickle

import pytest

from utf8env._engine.policy import Decision, Stream
from utf8env._engine.records import Record, field

# The fast tier (`python3 -m pytest -m fast`): pure, no real interpreters, worlds or daemons.
pytestmark = pytest.mark.fast


class Point(Record):
    x = field()
    y = field(0)        # a default
    label = field("")


def test_fields_defaults_and_construction():
    assert Point._fields == ("x", "y", "label")
    assert Point._field_defaults == {"y": 0, "label": ""}
    assert Point(1) == (1, 0, "") and Point(1, 2, "a") == (1, 2, "a")
    assert Point(label="b", x=3) == (3, 0, "b")
    p = Point(1, y=5)
    assert (p.x, p.y, p.label) == (1, 5, "")
    assert repr(p) == "Point(x=1, y=5, label='')"


def test_bad_construction_is_a_type_error():
    with pytest.raises(TypeError, match=r"^Point\(\) missing argument 'x'$"):
        Point()
    with pytest.raises(TypeError, match=r"^Point\(\) takes 3 arguments, 4 given$"):
        Point(1, 2, 3, 4)
    with pytest.raises(TypeError, match=r"^Point\(\) got unexpected or repeated arguments x, z$"):
        Point(1, x=2, z=3)
    with pytest.raises(TypeError, match=r"^Bad\.b: a field without a default follows one with a default$"):
        class Bad(Record):
            a = field(1)
            b = field()


def test_records_are_immutable_tuples():
    p = Point(1)
    with pytest.raises(AttributeError):
        p.x = 2
    with pytest.raises(AttributeError):
        p.other = 2         # no __dict__
    assert isinstance(p, tuple) and tuple(p) == (1, 0, "")
    assert json.dumps(Stream("utf-8", "strict")) == '["utf-8", "strict"]'


def test_replace_asdict_make_pickle_copy():
    p = Point(1, 2, "a")
    assert p._replace(y=7) == Point(1, 7, "a") and type(p._replace()) is Point
    with pytest.raises(ValueError, match=r"^Point has no fields z$"):
        p._replace(z=1)
    assert p._asdict() == {"x": 1, "y": 2, "label": "a"}
    assert Point._make([4, 5, "c"]) == Point(4, 5, "c")
    for other in (pickle.loads(pickle.dumps(p)), copy.copy(p), copy.deepcopy(p)):
        assert other == p and type(other) is Point


def test_the_engine_records_keep_their_fields():
    assert Decision._fields[:4] == ("python", "platform", "policy", "startup_error")
    assert Decision._fields[-1] == "reasons" and len(Decision._fields) == 22
