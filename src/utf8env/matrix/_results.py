"""The matrix's results as records: what pep.py and program.py return and report.py
renders. `as_json()` (_engine/records.py) turns a result into the JSON-ready value of
`--format json` (the schema 1, docs/json.md): records become objects through their
`_asdict()`, or their `_json()` where the JSON shape differs from the fields; `timing` is a
_worlds.jobs.Timing."""
from .._engine.records import Record, as_json, field

SCHEMA = 1


# -- the PEP reproduction ----------------------------------------------------------------

class _Absent(object):
    """The value of a field that has no key in the JSON."""
    __slots__ = ()

    def __bool__(self):
        return False

    def __repr__(self):
        return "ABSENT"


ABSENT = _Absent()


class Stage(Record):
    """One process of a cell's pipe (the producer, then the consumer)."""
    returncode = field()
    stdout = field()           # repr() of the bytes, or None
    stderr = field()           # its last 2000 characters
    seconds = field()


class PepCell(Record):
    """One scenario in one concrete environment, with its evidence."""
    scenario = field()
    row = field()
    environment = field()      # Environment.name
    exception = field()        # a Python stage exited on a UnicodeError
    mojibake = field()
    error = field()            # None, or why the cell says nothing (timed out, exit N, ...)
    traceback = field()        # the UnicodeError's last line
    stage = field()            # "producer" or "consumer": who raised
    encoding = field()         # the consumer's
    produced = field()         # repr() of the bytes the consumer got
    expected = field()         # repr() of the bytes it should have got
    shown = field()            # what the consumer shows (decoded with "replace")
    stages = field()           # [Stage]
    read = field(ABSENT)       # what the Python consumer read (only for a Python consumer)

    def _json(self):
        d = self._asdict()
        if self.read is ABSENT:
            del d["read"]
        return d


class Columns(Record):
    """A value per column of the PEP's tables."""
    exception = field()
    mojibake = field()


class Agreement(Record):
    agree = field()
    why = field(None)          # the evidence of a difference (absent from the JSON when agreeing)

    def _json(self):
        return {"agree": self.agree} if self.why is None else self._asdict()


class RowResult(Record):
    """One row of one scenario's table: its cells pooled, and the PEP's values."""
    row = field()
    exception = field()        # True/False, None when no cell of the row is valid
    mojibake = field()
    exception_in = field()     # [environment names]
    mojibake_in = field()
    errors = field()           # [environment names of cells with an error]
    pep = field()              # Columns of the published values, or None (not a PEP row)
    cells = field()            # [PepCell]
    agreement = field()        # Columns of Agreement or None


class Table(Record):
    scenario = field()
    title = field()
    source = field()
    mojibake_definition = field()
    rows = field()             # [RowResult]


class CheckedEnvironment(Record):
    """An Environment with what its configuration check saw."""
    environment = field()
    observed = field()         # the check's dict, or None
    problem = field()          # None, or why the environment is not as declared
    python_3_15 = field(None)  # _pep686.On315: UTF-8 mode on Python 3.15 there

    def _json(self):
        return dict(self.environment._json(), observed=self.observed, problem=self.problem,
                    python_3_15=as_json(self.python_3_15))


class PepResult(Record):
    schema = field()
    mode = field()             # "pep"
    environments = field()     # [CheckedEnvironment]
    rows = field()             # the row names that have environments
    tables = field()           # [Table]
    timing = field()
    pythons_left_out = field(())   # [_discovery.Unusable]: found, but runs nowhere


# -- the user's own program --------------------------------------------------------------

class WarningSeen(Record):
    """An EncodingWarning a cell's program printed (named apart from the builtin class)."""
    file = field()
    line = field()
    message = field()


class Evidence(Record):
    """A cell's raw bytes, for the reports' display (decoded for a reader, or as bytes);
    not in the JSON, which has them as repr() strings."""
    reader = field()           # the encoding a reader in the environment decodes with
    stdout = field()           # bytes
    stderr = field()           # bytes
    files = field()            # {name bytes: content bytes}
    off = field()              # (status, stdout, files) with UTF-8 mode off, or None
    on = field()               # the same with UTF-8 mode on, or None


class ProgramCell(Record):
    """The user's command under one interpreter and one environment set."""
    python = field()
    interpreter = field()      # its argv
    env_set = field()
    status = field()           # "ok", "timeout", "UnicodeError", "exit N"
    exit = field()
    unicode_error = field()
    where = field()            # "file:line" that raised it
    encoding_warnings = field()   # [EncodingWarning], None before 3.10
    utf8_mode_changes = field()   # what differs between UTF-8 mode off and on, or None
    stdout = field()
    stderr = field()
    files = field()            # {name: repr(bytes)} left in the working folder
    seconds = field()
    evidence = field(None)     # Evidence, or None (not in the JSON)
    platform = field(ABSENT)   # "win32": a Windows row's cell (absent from a Linux cell's JSON)

    def _json(self):
        d = self._asdict()
        del d["evidence"]
        if self.platform is ABSENT:
            del d["platform"]
        return d


class ProgramResult(Record):
    schema = field()
    mode = field()             # "program"
    command = field()
    env_sets = field()         # [EnvSet]
    pythons = field()          # [{"version", "argv", "origin"}]
    hostile_files = field()
    stdin = field()            # repr() of the bytes fed
    cells = field()            # [ProgramCell]
    problems = field()         # how many cells are not "ok"
    timing = field()
    not_run = field(())        # [NotRun]: the environment sets whose world cannot be made here
    pythons_left_out = field(())   # [_discovery.Unusable]: found, but runs nowhere
    python_3_15 = field(())    # {env set name: _pep686.On315}: UTF-8 mode on Python 3.15
    windows = field(ABSENT)    # --windows: the Windows rows' interpreter, Wine, world line,
                               # code pages, or why they were not run (absent without it)

    def _json(self):
        d = self._asdict()
        if self.windows is ABSENT:
            del d["windows"]
        return d


class NotRun(Record):
    """An environment set left out: its locale world cannot be made here."""
    env_set = field()
    world = field()
    reason = field()           # one line: the world, why, and what would make it possible
