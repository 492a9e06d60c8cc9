"""Immutable records: tuples with named fields, the part of typing.NamedTuple we use.

Why not NamedTuple: importing typing (with the re, enum, functools and collections it
pulls in) costs `utf8env run` several milliseconds at every start, more than all of the
launcher's own work; collections.namedtuple alone still costs about one. A record is a
tuple subclass, so it compares, unpacks, pickles and serialises to JSON exactly as a
NamedTuple did, and offers the same _fields, _field_defaults, _replace() and _asdict().

    class Stream(Record):
        encoding = field()              # what each field means, beside it
        errors = field("strict")
"""


def _getter(index, doc):
    """The accessor of item `index`: a plain function (namedtuple's C accessor lives in a
    private module, and operator's import costs the launcher more than every access)."""
    def get(self):
        return self[index]
    return property(get, doc=doc)


_REQUIRED = object()
# The accessor of field N, shared by every record: it reads item N of any tuple, so the
# some 130 fields of 20 records need only as many accessors as the widest record.
_ACCESSORS = []


def _accessor(index):
    while len(_ACCESSORS) <= index:
        _ACCESSORS.append(_getter(len(_ACCESSORS), "field %d of the record" % len(_ACCESSORS)))
    return _ACCESSORS[index]


class field(object):
    """Declares a record field in the class body; `default` makes it optional."""
    __slots__ = ("default",)

    def __init__(self, default=_REQUIRED):
        self.default = default


class _RecordType(type):
    def __new__(mcs, name, bases, namespace):
        fields = []
        defaults = {}
        for key, value in namespace.items():   # definition order (PEP 520)
            if isinstance(value, field):
                if value.default is not _REQUIRED:
                    defaults[key] = value.default
                elif defaults:
                    raise TypeError("%s.%s: a field without a default follows one with a "
                                    "default" % (name, key))
                namespace[key] = _accessor(len(fields))    # a value replaced: no new key
                fields.append(key)
        if fields or "_fields" not in namespace:
            namespace["_fields"] = tuple(fields)
            namespace["_field_defaults"] = defaults
        namespace["__slots__"] = ()
        return type.__new__(mcs, name, bases, namespace)


class Record(tuple, metaclass=_RecordType):
    __slots__ = ()

    def __new__(cls, *args, **kwargs):
        fields = cls._fields
        if not kwargs and len(args) == len(fields):
            return tuple.__new__(cls, args)
        if len(args) > len(fields):
            raise TypeError("%s() takes %d arguments, %d given" % (cls.__name__, len(fields), len(args)))
        defaults = cls._field_defaults
        values = list(args)
        for name in fields[len(args):]:
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif name in defaults:
                values.append(defaults[name])
            else:
                raise TypeError("%s() missing argument %r" % (cls.__name__, name))
        if kwargs:
            raise TypeError("%s() got unexpected or repeated arguments %s"
                            % (cls.__name__, ", ".join(sorted(kwargs))))
        return tuple.__new__(cls, values)

    def __getnewargs__(self):       # pickle and copy rebuild through __new__
        return tuple(self)

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join(
            "%s=%r" % pair for pair in zip(self._fields, self)))

    def _replace(self, **changes):
        values = [changes.pop(name, value) for name, value in zip(self._fields, self)]
        if changes:
            raise ValueError("%s has no fields %s" % (type(self).__name__, ", ".join(sorted(changes))))
        return tuple.__new__(type(self), values)

    def _asdict(self):
        return dict(zip(self._fields, self))

    @classmethod
    def _make(cls, iterable):
        return cls(*iterable)


def as_json(value):
    """`value` with every record in it turned into a dict (recursively), tuples into lists."""
    if isinstance(value, Record):
        value = value._json() if hasattr(value, "_json") else value._asdict()
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    return value
