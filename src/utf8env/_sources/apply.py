"""The fixer's edit at chosen call sites, by file:line as `utf8env readiness` names them
(an EncodingWarning's line): what readiness's measured advice applies in its copies of a
project, and what `fix --from REPORT.json` chooses per site.

A warning's line is one line of the call: the line the call starts on, or (a call over
several lines) one of its lines; the scan's site whose lines hold it is the one edited."""
import os
import warnings

from . import edit, scan


def scan_file(path, encoding):
    """(the scan's Sites of the file at `path` with encoding=ENCODING edits, its Source),
    or (None, the one line that says why not)."""
    try:
        data = edit.read_bytes(path)
        source = edit.decode(path, data)
    except edit.Unreadable as error:
        return None, str(error)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return scan.scan(source.text, encoding), source
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None, "it does not parse"


def site_at(sites, line):
    """The scan's site whose lines hold `line` (the one starting there first), or None."""
    starting = [s for s in sites if s.line == line]
    if starting:
        fixable = [s for s in starting if s.verdict == scan.FIX]
        return (fixable or starting)[0]
    holding = [s for s in sites if s.line <= line <= s.end]
    return holding[-1] if holding else None       # the innermost: it starts last


def _split(where):
    file, _, line = where.rpartition(":")
    return file, int(line)


def at_sites(root, wanted, encoding):
    """Add encoding=ENCODING at the call sites `wanted` ["file:line", relative to the
    project folder `root`] in the files under `root` (a copy: written in place).
    Returns ({where: "call" edited}, {where: why it was not}), both keyed by `wanted`."""
    edited, refused = {}, {}
    by_file = {}
    for where in wanted:
        file, line = _split(where)
        by_file.setdefault(file, []).append((line, where))
    for file, lines in sorted(by_file.items()):
        path = os.path.join(root, file)
        real_root = os.path.realpath(root)
        if os.path.isabs(file) or not os.path.realpath(path).startswith(real_root + os.sep) \
                or not os.path.isfile(path):
            for _, where in lines:
                refused[where] = "not a file of the project: the fixer cannot edit it"
            continue
        sites, source = scan_file(path, encoding)
        if sites is None:
            for _, where in lines:
                refused[where] = "the fixer cannot read its file (%s)" % source
            continue
        chosen = []
        for line, where in lines:
            site = site_at(sites, line)
            if site is None:
                refused[where] = "the fixer finds no call it knows on that line"
            elif site.verdict != scan.FIX:
                refused[where] = "the fixer cannot edit it (review: %s)" % site.message
            else:
                edited[where] = site.call
                if site not in chosen:
                    chosen.append(site)
        if chosen:
            try:
                edit.write(path, edit.encoded(source, scan.apply(source.text, chosen)))
            except edit.Unreadable as error:
                for _, where in lines:
                    if where in edited:
                        del edited[where]
                        refused[where] = "the fixer cannot write its file (%s)" % error
    return edited, refused
