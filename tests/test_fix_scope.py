"""`utf8env fix --check`: a rebinding hides a call's name only where Python's scoping rules
put it in scope: a function's locals (assignment, parameter, for/with/except targets,
import, del, nested def and class, :=, match captures), a comprehension's variables in the
comprehension only, a class body's names not in its methods, the module's names (and what
a function declares global) in the module and the functions that do not rebind them; an
attribute or a subscript never.

The reference is ruff 0.17.6 (`check --preview --select PLW1514`) and pylint 4.1.5 / astroid
4.4.0 (`--enable=unspecified-encoding`), run on these very files; every place they differ
from this listing is named at its case with the reason. Neither covers subprocess's text
calls (only `fix` lists those)."""
import sys

import pytest

from support.fix_listing import check_one, listing

_OPEN = "open: text in the locale's encoding; fix: encoding=\"utf-8\""
_IO_OPEN = "io.open: text in the locale's encoding; fix: encoding=\"utf-8\""
_RUN = "subprocess.run: decodes its output with the locale's encoding; fix: encoding=\"utf-8\""

# name -> (source, [(line, column, message)] that `fix --check` lists)
CASES = {
    # Django's tests/files/tests.py shape: an attribute or a subscript named open hides
    # nothing (all three tools agree).
    "attribute": ('''import images


class Opener:
    def __init__(self):
        self.open = None

    def read(self):
        return open("a").read()


images.open = print
table = {}
table["open"] = print
open("b")
''', [(9, 16, _OPEN), (15, 1, _OPEN)]),
    # A local of one function hides open there only (all three agree).
    "local": ('''def shadowed():
    open = print
    open("a")


def other():
    return open("b")


open("c")
''', [(7, 12, _OPEN), (10, 1, _OPEN)]),
    # A parameter (a lambda's too) hides open in its function. pylint also lists line 2:
    # it infers the default (the builtin), though a caller may pass any callable; ruff
    # agrees with this listing.
    "parameter": ('''def given(path, open=open):
    return open(path)


reader = lambda path, open: open(path)


def plain(path):
    return open(path)
''', [(9, 12, _OPEN)]),
    # Each kind of local binding hides open in its own function only, and in a function
    # nested in it (inner). pylint also lists "d": after `del open` it falls back to the
    # builtin, but `del` makes open a local of the function, so that call raises
    # UnboundLocalError; ruff agrees with this listing.
    "targets": ('''import contextlib


def loop(openers):
    for open in openers:
        open("a")


def managed():
    with contextlib.nullcontext(print) as open:
        open("b")


def handled():
    try:
        pass
    except OSError as open:
        open("c")


def deleted():
    del open
    open("d")


def imported():
    from gzip import open
    open("e")


def defined():
    def open(path):
        return path

    def inner():
        return open("f")
    return open("g")


def classed():
    class open:
        def __init__(self, path):
            self.path = path
    return open("h")


def walrus(openers):
    [(open := o) for o in openers]
    open("i")


def untouched():
    open("j")
''', [(53, 5, _OPEN)]),
    # A comprehension's variable is its own: the call after it, and the first iterable
    # (evaluated outside), are the builtin's (all three agree).
    "comprehension": ('''def listed(openers):
    first = [open("a") for open in openers]
    return first, open("b")


def iterated(names):
    return [name for name in open(names)]


def nested(names):
    return {key: open(key) for key in names}
''', [(3, 19, _OPEN), (7, 30, _OPEN), (11, 18, _OPEN)]),
    # `global open` then an assignment rebinds the module's open, for every function that
    # does not rebind it: "a" is not listed (pylint agrees; ruff lists it, taking only
    # module-level statements as the module's bindings). nonlocal rebinds the enclosing
    # function's (all agree).
    "declared": ('''def rebinds():
    global open
    open = print


def uses():
    open("a")


def outer():
    open = None

    def inner():
        nonlocal open
        open = print
        open("b")
    inner()
    open("c")
''', []),
    "nonlocal": ('''def outer():
    open = None

    def inner():
        nonlocal open
        open("a")
    return inner


def other():
    open("b")
''', [(11, 5, _OPEN)]),
    # A class body's names are not its methods' (all three agree).
    "class body": ('''class Reader:
    open = staticmethod(print)
    opened = open("a")

    def read(self):
        return open("b")
''', [(6, 16, _OPEN)]),
    # A module-level assignment hides open in the functions that do not rebind it; a
    # function's own import rebinds it. `from io import open` is the builtin open (io.open
    # is builtins.open): listed as io.open, as pylint does; ruff's rule does not cover
    # io.open at all (not even `import io; io.open(...)`), so it lists neither line 12
    # here nor from_io's line 5.
    "module assignment": ('''import codecs

open = codecs.open


def read(path):
    return open(path)


def reread(path):
    from io import open
    return open(path)


def builtin(path):
    import builtins
    return builtins.open(path)
''', [(12, 12, _IO_OPEN), (17, 12, _OPEN)]),
    "from io": ('''from io import open


def read(path):
    return open(path)
''', [(5, 12, _IO_OPEN)]),
    "from gzip": ('''from gzip import open


def read(path):
    return open(path)
''', []),
    # The other names the rules cover (module names, imported functions) follow the same
    # rules: a parameter or a local hides them, an attribute does not. ruff's and pylint's
    # rule do not cover subprocess.
    "modules": ('''import subprocess
from subprocess import run


class Runner:
    def __init__(self):
        self.subprocess = None
        self.run = None


def given(subprocess):
    return subprocess.run(["ls"], text=True)


def local():
    run = print
    return run(["ls"], text=True)


def plain():
    subprocess.run(["ls"], text=True)
    return run(["ls"], text=True)
''', [(21, 5, _RUN), (22, 12, _RUN)]),
}

if sys.version_info >= (3, 10):
    # A match capture binds like an assignment (all three agree).
    CASES["match"] = ('''def matched(value):
    match value:
        case open:
            open("a")
    return open("b")
''', [])


@pytest.mark.fast
@pytest.mark.parametrize("name", sorted(CASES))
def test_a_rebinding_hides_the_name_only_in_its_scope(name, tmp_path, capsys):
    source, sites = CASES[name]
    path = tmp_path / "case.py"
    path.write_text(source)
    assert check_one(path, capsys) == listing(path, sites)
