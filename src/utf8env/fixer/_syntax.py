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
# A table header line, [name] or [[name]], alone on its line but for a comment (a line of
# an array value, `["a", "b"],`, is not one): requires-python counts only inside
# [project] (PEP 621), not in another table that uses the key (a [tool.*] of some tool).
_TABLE = re.compile(r"^[ \t]*\[{1,2}[ \t]*([\w.\-]+)[ \t]*\]{1,2}[ \t]*(?:#.*)?$", re.M)
_PROJECTS = {}        # folder: its project's (requires-python, lower bound), or None


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
    """(requires-python, (major, minor) of its lower bound) of the project `folder` is
    in: the nearest pyproject.toml at or above it, whether or not it says requires-python
    (an enclosing project's is another project's); None where it says none with a lower
    bound, or where no pyproject.toml is found."""
    seen = []
    answer = None
    while folder not in _PROJECTS:
        seen.append(folder)
        text = _text(os.path.join(folder, "pyproject.toml"))
        if text is not None:
            answer = _lower_bound(text)
            break
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    else:
        answer = _PROJECTS[folder]
    for each in seen:
        _PROJECTS[each] = answer
    return answer


def _text(path):
    """The text of the pyproject.toml `path`; "" where it is there but cannot be read (it
    still ends the search: the project is there), None where there is none."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(1 << 20)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError:
        return ""


def _lower_bound(text):
    """(requires-python, (major, minor)) of the [project] table of pyproject.toml's
    `text`, or None."""
    tables = list(_TABLE.finditer(text))
    for i, header in enumerate(tables):
        if header.group(1) != "project":
            continue
        end = tables[i + 1].start() if i + 1 < len(tables) else len(text)
        found = _REQUIRES.search(text, header.end(), end)
        lower = _LOWER.search(found.group(2)) if found else None
        if lower:
            return found.group(2), (int(lower.group(1)), int(lower.group(2)))
    return None
