"""What the matrix's pages share, the PEP reproduction's and a user's program's: the
interpreters run and where each was found, versions as ranges, UTF-8 mode in words."""
from .. import _output as output
from .._discovery import NAMED


MODE = {0: "off", 1: "on", "strict": "strict"}


PYTHONS_HEAD = "Pythons, where each was found (the first found of each version runs):"


def python_lines(pythons, left_out):
    """Each interpreter run, "3.9: PATH (where it was found)", then each found that runs
    nowhere, with why; [] when --python named them all and nothing was left out. Paths
    with their control characters as \\xNN (a folder name must not drive the terminal)."""
    shown = [p for p in pythons if p.get("origin")]
    if all(p["origin"] == NAMED for p in shown) and not left_out:
        return []
    # A chroot's interpreter by its path there: its origin names the chroot.
    return (["%s: %s (%s)" % (p["version"], _line(p["argv"][-1]), _line(p["origin"]))
             for p in shown]
            + ["%s (%s) left out: %s" % (_line(u.path), _line(u.origin), _line(u.why))
               for u in left_out])


def pythons_text(lines):
    """The text page's block: each line whole, however long (a path is never cut, so that
    it can be copied)."""
    return ["", PYTHONS_HEAD] + ["  " + line for line in lines] if lines else []


def _line(text):
    """A value of the page (a path, a reason) as one line for any terminal."""
    return output.error_line(output.shown(text))


def ranges(versions, order, sep="/"):
    """"3.7-3.15" for three or more consecutive versions of `order`, else "3.6/3.10"."""
    if len(versions) < 3 or any(v not in order for v in versions):
        return sep.join(versions)
    at = [order.index(v) for v in versions]
    if at == list(range(at[0], at[0] + len(at))):
        return "%s-%s" % (versions[0], versions[-1])
    return sep.join(versions)
