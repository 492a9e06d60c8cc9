"""`utf8env fix`: run(options, operands) -> exit status.

    0  listing (the default): always, unless a file could not be read or parsed;
       --check / --diff: no call site found; --write: every site found was fixed
    1  --check / --diff: a call site found (to fix or to review); --write: a site left to
       review; any mode: a file left alone (unreadable, undecodable, a syntax error), a
       call site of --from's report not applied
    2  bad input: no PATH, a missing path, a file that is not Python source, a --from
       file that is not a readiness JSON report

Sites go to stdout as PATH:LINE:COL: CALL: MESSAGE (columns in characters, from 1),
then one summary line; --diff prints only the diff there (the sites to review go to
stderr); a file left alone is one line on stderr, and the others go on. A site of --from's
report that is not applied is PATH:LINE: not applied: WHY, with the sites (stderr with
--diff). File names are shown with control characters and undecodable bytes as \\xNN."""
import os

from .._errors import UsageError
from .._sources.files import excluded, is_source, walk
from .._output import for_terminal, shown, to_stderr, write, write_bytes
from . import _measured
from ._syntax import said
from .._sources import edit, prefilter, reported, scan
from .._sources.literals import Literals

LEFT = "left"       # a row's verdict: a call site of --from's report not applied

PARALLEL_FROM = 64          # files: below, one process does it faster than a pool starts


def run(options, operands, usage=None):
    """`utf8env fix` but --prove: the exit status. `usage`: a function giving the
    command's usage line, for the error of no PATH."""
    if "--" in operands:
        raise UsageError("fix: `-- pytest ARGS...` goes with --prove only")
    mode = options.mode or "list"
    encoding = options.encoding or "utf-8"
    files = paths(operands, getattr(options, "exclude", None) or (), usage)
    report = None
    if getattr(options, "report", None):
        report = _measured.load(options.report)
    results = _results(files, encoding, mode, report)
    errors = found = to_review = fixed = left = 0
    with_sites = edited = 0
    used = {}
    out = []
    for path, (error, sites, payload) in zip(files, results):
        name = named(path)
        if error is not None:
            errors += 1
            _error_line(name, error)
            continue
        if any(site[3] != LEFT for site in sites):
            with_sites += 1
        if mode == "write" and any(site[3] == "fix" for site in sites):
            edited += 1
        for line, col, call, verdict, message, chosen, why in sites:
            if verdict == LEFT:
                left += 1
                text = "%s:%d: not applied: %s\n" % (name, line, message)
                if mode == "diff":
                    _stderr(text)
                else:
                    out.append(text)
                continue
            found += 1
            if verdict == "review":
                to_review += 1
                text = "%s:%d:%d: %s: review: %s\n" % (name, line, col, call, message)
                if mode == "diff":
                    _stderr(text)
                    continue
            elif mode == "write":
                fixed += 1
                used[chosen] = used.get(chosen, 0) + 1
                text = "%s:%d:%d: %s: fixed: encoding=\"%s\"%s\n" % (
                    name, line, col, call, chosen, " (%s)" % why if why else "")
            elif mode == "diff":
                continue
            else:
                text = "%s:%d:%d: %s: %s\n" % (name, line, col, call, message)
            out.append(text)
        if mode == "diff" and payload:
            if out:
                write("".join(out))
                out = []
            write_bytes(payload)
    if report is not None:
        for where, line in _measured.not_given(report, files):
            left += 1
            text = "%s:%d: not applied: not among the files given\n" % (named(where), line)
            if mode == "diff":
                _stderr(text)
            else:
                out.append(text)
    if mode != "diff":
        out.append(_summary(mode, len(files), with_sites, found, to_review, fixed,
                            encodings_text(used, encoding), edited, left))
        write("".join(out))
    elif left:
        _stderr(_left(left))
    if errors or left:
        return 1
    if mode in ("check", "diff"):
        return 1 if found else 0
    if mode == "write":
        return 1 if to_review else 0
    return 0


def _plural(number, word):
    return "%d %s%s" % (number, word, "" if number == 1 else "s")


def encodings_text(used, encoding):
    """encoding="utf-8", or with --from the count of each: 2 encoding="utf-8", 1 ..."""
    if len(used) <= 1:
        return 'encoding="%s"' % (list(used)[0] if used else encoding)
    return ", ".join('%d encoding="%s"' % (used[e], e) for e in sorted(used, reverse=True))


def _summary(mode, files, with_sites, found, to_review, fixed, encodings, edited, left):
    if not found:
        line = "no call site opens text in the locale's encoding (%s)" % _plural(files, "file")
    elif mode == "write":
        # the files written: a file whose sites are all to review is not one of them
        line = "%s fixed (%s) in %s; %d to review" % (
            _plural(fixed, "call site"), encodings, _plural(edited, "file"), to_review)
    else:
        line = "%s in %s open text in the locale's encoding: %d to fix (--write), %d to " \
            "review" % (_plural(found, "call site"), _plural(with_sites, "file"),
                        found - to_review, to_review)
    return line + "\n" + (_left(left) if left else "")


def _left(left):
    return "%s of the report not applied (listed above)\n" % _plural(left, "call site")


def named(path):
    """A file name as the rest of the CLI shows it (doctor's _snapshot._named): undecodable
    bytes as \\xNN, control characters too, and the newline and tab that would split or
    shift a PATH:LINE line."""
    return for_terminal(shown(path)).replace("\n", "\\x0a").replace("\t", "\\x09")


def _stderr(text):
    to_stderr(text)


def _error_line(name, error):
    _stderr("utf8env: %s:%s%s\n" % (name, "" if error[:1].isdigit() else " ", error))


# -- the paths ------------------------------------------------------------------------------

def paths(operands, exclude=(), usage=None):
    """The files to scan, in order, each once; UsageError for bad input. A folder's files
    are those git does not ignore (.gitignore, .git/info/exclude, the user's excludes:
    `git check-ignore`, where the folder is in a git work tree); `exclude`: glob patterns
    (--exclude) that leave out a file or folder whose name, or whose path as walked or
    given, matches. `usage`: run()'s."""
    if not operands:
        raise UsageError("fix: no PATH given%s" % (" (usage: %s)" % usage() if usage else ""))
    import stat
    kinds = []
    for operand in operands:
        try:
            mode = os.stat(operand).st_mode
        except (OSError, ValueError):
            raise UsageError("fix: %s: no such file or directory" % named(operand))
        if not stat.S_ISDIR(mode) and not (stat.S_ISREG(mode) and is_source(operand)):
            raise UsageError("fix: %s: not a Python source file (*.py, *.pyw, *.pyi, or a "
                             "script starting with a python #! line)" % named(operand))
        kinds.append(stat.S_ISDIR(mode))
    files, seen = [], set()
    for operand, is_folder in zip(operands, kinds):
        if is_folder:
            found = walk(operand, exclude)
        else:
            found = [] if excluded(operand, exclude) else [operand]
        for path in found:
            # each file once, however named (a link, a folder given twice, a hard link):
            # by its identity, one stat where a real path would take one per folder
            try:
                status = os.stat(path)
                identity = (status.st_dev, status.st_ino)
            except OSError:
                identity = os.path.realpath(path)   # gone since: process() says so
            if identity not in seen:
                seen.add(identity)
                files.append(path)
    return files


# -- the work, one file at a time --------------------------------------------------------------

def process(path, encoding, mode, report=None, left=False):
    """(error or None, [(line, col, call, verdict, message, encoding, why)], the diff's
    bytes for mode "diff"), the rows in line order. Writes the file for mode "write".
    `report`: --from's (_measured.load), which chooses each site's encoding; `left`: the
    rows include the report's sites not applied (verdict LEFT, col 0, call None)."""
    import gc
    import warnings
    try:
        data = edit.read_bytes(path)
        entries = _measured.for_file(report, path) if report is not None else ()
        literals = Literals(data)
        if not entries and not prefilter.candidate(data, literals):
            return None, [], None
        source = edit.decode(path, data)
        # The cyclic garbage collector off while the tree is made and walked: it finds
        # nothing there (a tree holds no cycle) and costs a sixth of the time.
        collecting = gc.isenabled()
        gc.disable()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")         # SyntaxWarning: invalid escapes
            try:
                # (a file to edit parsed whole: one that does not parse is left alone)
                sites = scan.scan(source.text, encoding, data, literals=literals,
                                   whole=mode in ("diff", "write") or report is not None)
                if report is not None:
                    sites = _from_report(source.text, sites, entries, encoding)
            except (SyntaxError, ValueError) as error:
                return said(error, path), [], None
            except (RecursionError, MemoryError):
                return "too deeply nested to parse: left alone", [], None
            finally:
                if collecting:
                    gc.enable()
        rows = [(s.line, s.col, s.call, s.verdict, s.message, getattr(s, "chosen", encoding),
                 getattr(s, "why", None)) for s in sites if left or s.verdict != LEFT]
        rows.sort(key=lambda row: row[:2])
        payload = None
        if mode in ("diff", "write") and any(s.verdict == scan.FIX for s in sites):
            fixed = scan.apply(source.text, sites)
            if mode == "diff":
                payload = edit.diff(source, fixed)
            else:
                edit.write(path, edit.encoded(source, fixed))
        return None, rows, payload
    except edit.Unreadable as error:
        return str(error), [], None


def _from_report(text, sites, entries, default):
    """The sites with --from's choice: each FIX site rescanned with its measured encoding
    (the same calls in the same order), or made REVIEW with why; then the report's sites
    the scan does not find (_sources/reported: `pot_file.open()`), each applied or LEFT with why."""
    other = {}
    out = []
    unseen = [(line, encoding, why) for line, encoding, why in entries
              if not any(s.line <= line <= s.end for s in sites)]
    for index, site in enumerate(sites):
        encoding, why = _measured.pick(site, entries, default)
        if site.verdict != scan.FIX:
            out.append(site)
            continue
        if encoding is None:
            out.append(scan.Site(site.line, site.col, site.call, scan.REVIEW, why,
                                  end=site.end))
            continue
        if encoding != default:
            if encoding not in other:
                other[encoding] = scan.scan(text, encoding)
            site = other[encoding][index]
        chosen = scan.Site(site.line, site.col, site.call, site.verdict,
                            "%s (%s)" % (site.message, why), site.edits, site.end)
        out.append(_Chosen(chosen, encoding, why))
    if unseen:
        choices = {}
        for line, encoding, why in unseen:
            choices.setdefault(line, ((default if encoding == "default" else encoding), why))
        found = reported.sites_at(text, [(line, choices[line][0]) for line in sorted(choices)])
        taken = set()
        for line in sorted(choices):
            encoding, why = choices[line]
            site = found[line]
            if site is None:
                continue            # applied already, or kept by a comment
            if isinstance(site, str):
                out.append(scan.Site(line, 0, None, LEFT, site))
            elif id(site) in taken or any(s.line == site.line and s.col == site.col
                                          for s in out if s.verdict != LEFT):
                continue            # two lines of the report in one call: edited once
            elif site.verdict == scan.FIX:
                taken.add(id(site))
                site = scan.Site(site.line, site.col, site.call, site.verdict,
                                  "%s (%s)" % (site.message, why), site.edits, site.end)
                out.append(_Chosen(site, encoding, why))
            else:
                taken.add(id(site))
                out.append(scan.Site(site.line, site.col, site.call, site.verdict,
                                      site.message if encoding is not None else why,
                                      end=site.end))
    return out


class _Chosen(object):
    """A scan Site with the encoding --from chose for it."""

    def __init__(self, site, chosen, why):
        self.site, self.chosen, self.why = site, chosen, why

    def __getattr__(self, name):
        return getattr(self.site, name)


def _process_star(job):
    return process(*job)


def _results(files, encoding, mode, report=None):
    jobs = [(path, encoding, mode, report, True) for path in files]
    workers = os.cpu_count() or 1
    if len(jobs) < PARALLEL_FROM or workers < 2:
        return [process(*job) for job in jobs]
    import multiprocessing
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        context = multiprocessing.get_context()
    # The largest files first, so that no worker is left with a large one at the end
    # while the others wait; the results back in the files' order.
    order = sorted(range(len(jobs)), key=lambda index: -_size(files[index]))
    results = [None] * len(jobs)
    pool = context.Pool(workers)
    try:
        for index, result in zip(order, pool.imap(_process_star, [jobs[i] for i in order],
                                                  chunksize=16)):
            results[index] = result
        return results
    finally:
        pool.close()
        pool.join()


def _size(path):
    try:
        return os.stat(path).st_size
    except OSError:
        return 0
