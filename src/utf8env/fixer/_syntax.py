"""The one line for a file that does not parse: where, what, and which Python's parser
said so. A pre-commit hook runs `fix` with pre-commit's own interpreter, which may be
older than the project's: valid 3.12 syntax (PEP 701 f-strings) is a syntax error to 3.11.
Where the nearest pyproject.toml's requires-python asks for a newer Python than the one
parsing, the line says so and how to run the hook with it."""
import os
import re
import sys

# requires-python's lower bound: ">=3.12", "~=3.12", ">= 3.12.1, <4" (PEP 440 specifiers)
_LOWER = re.compile(r"(?:>=|~=|==)\s*(\d+)\.(\d+)")
_REQUIRES = re.compile(r"""^\s*requires-python\s*=\s*(["'])(.*?)\1""", re.M)
_PROJECTS = {}        # folder: (its pyproject's requires-python, its lower bound) or None


def said(error, path):
    """LINE:COL: syntax error: MESSAGE (PARSER; left alone) for the SyntaxError (or the
    ValueError of a null byte) of the file `path`."""
    where = ""
    if isinstance(error, SyntaxError):
        if error.lineno:
            where = "%d:" % error.lineno + ("%d:" % error.offset if error.offset else "") + " "
        message = error.msg
    else:
        message = str(error)
    parser = "Python %d.%d's parser" % sys.version_info[:2]
    needs = _requires(os.path.dirname(os.path.abspath(path)))
    if needs is not None and needs[1] > sys.version_info[:2]:
        parser += (", and the project requires Python %s: run utf8env with %d.%d or later, "
                   "in pre-commit language_version: python%d.%d" % ((needs[0],) + needs[1] * 2))
    return "%ssyntax error: %s (%s; left alone)" % (where, message, parser)


def _requires(folder):
    """(requires-python, (major, minor) of its lower bound) of the nearest pyproject.toml
    at or above `folder` that says it; None where none does."""
    seen = []
    while folder not in _PROJECTS:
        seen.append(folder)
        found = None
        try:
            with open(os.path.join(folder, "pyproject.toml"), encoding="utf-8",
                      errors="replace") as f:
                m = _REQUIRES.search(f.read(1 << 20))
            if m:
                lower = _LOWER.search(m.group(2))
                found = (m.group(2), (int(lower.group(1)), int(lower.group(2)))) if lower \
                    else None
                if found is None:
                    _PROJECTS[folder] = None
                    break
        except OSError:
            pass
        if found is not None:
            _PROJECTS[folder] = found
            break
        parent = os.path.dirname(folder)
        if parent == folder:
            _PROJECTS[folder] = None
            break
        folder = parent
    answer = _PROJECTS[folder]
    for f in seen:
        _PROJECTS[f] = answer
    return answer
