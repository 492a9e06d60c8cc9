"""`fix --from REPORT.json`: the report's call sites that the scan does not find. A site
there is a call that warned in the tests (readiness recorded its EncodingWarning): the
report proves a text default was used at that line, whatever the receiver. The scan
takes `X.open()` as a pathlib.Path's only where X is evidently a path (`pot_file.open()`
is not); here the call at the reported line is taken on any receiver when it is the one
text-mode `X.open()`, `X.read_text()` or `X.write_text()` there, and edited as the
scan edits a Path's. A call there that names its encoding already (the fix applied
before: a second run) or keeps the default by a comment (`# utf8env: ignore`, the
linters' noqa) needs nothing. Anything else at that line is left, with why (one line each).

Uses the scan's own walk and judgement (scan.collect, scan.judge, scan.kept_lines) and
insertion's edit: the calls, their scopes, the f-strings, the keyword's place are found
exactly as for the scan's sites."""
import ast

from . import calls, insertion, scan

_SPECS = {"open": calls.PATH_OPEN, "read_text": calls.READ_TEXT,
          "write_text": calls.WRITE_TEXT}


def _lines_of(call):
    return call.lineno, getattr(call, "end_lineno", None) or call.lineno


def sites_at(text, wanted):
    """{line: Site, None (nothing to do) or the one line that says why none} for the
    report's lines `wanted`
    [(line, encoding)] the scan found nothing at (encoding: the measured one, or None
    for review, with why in the site's message by the caller)."""
    tree = ast.parse(text)
    module, calls, in_fstring = scan.collect(tree)
    lines = insertion.split_lines(text)
    kept = scan.kept_lines(text)
    out = {}
    for line, encoding in wanted:
        if line > len(lines):
            out[line] = "the file has %d lines (changed since the report?)" % len(lines)
            continue
        spanning = [(call, scope) for call, scope in calls
                    if _lines_of(call)[0] <= line <= _lines_of(call)[1]]
        here = [(call, scope) for call, scope in spanning
                if isinstance(call.func, ast.Attribute) and call.func.attr in _SPECS]
        starting = [c for c in here if c[0].lineno == line]
        here = starting or here[-1:]        # the innermost: it starts last
        if any(n in kept for call, _ in spanning
               for n in range(_lines_of(call)[0], _lines_of(call)[1] + 1)) or \
                not here and any(_named_encoding(call) for call, _ in spanning):
            out[line] = None
            continue
        if not here:
            out[line] = ("the fixer finds no call there it can edit (its scan's, X.open(), "
                         "X.read_text(), X.write_text())" if spanning else
                         "no call there (the file changed since the report?)")
            continue
        if len(here) > 1:
            out[line] = "%d calls there: which one warned is not known" % len(here)
            continue
        call, _ = here[0]
        last = _lines_of(call)[1]
        spec = _SPECS[call.func.attr] + (True,)
        judged = scan.judge(call, spec, module)
        if judged is None and (_named_encoding(call) or len(call.args) > spec[3]):
            out[line] = None
            continue
        if judged is None:
            out[line] = ("the call there opens in binary mode (the file changed since the "
                         "report?)")
            continue
        verdict, message = judged
        col = insertion.char_col(lines[call.lineno - 1], call.col_offset) + 1
        shown = "X." + call.func.attr
        if verdict == scan.FIX and id(call) in in_fstring:
            verdict, message = scan.REVIEW, "inside an f-string: add encoding= by hand"
        edits = ()
        if verdict == scan.FIX and encoding is not None:
            made = insertion.edits(lines, call, encoding)
            if made is None:
                verdict, message = scan.REVIEW, \
                    "the call's parenthesis cannot be placed: add encoding= by hand"
            else:
                edits, swallowed = made
                col = insertion.outside(lines[call.lineno - 1], col, swallowed)
                message = ("text in the locale's encoding (the report's warning, any "
                           "receiver); fix: encoding=\"%s\"" % encoding)
        elif verdict == scan.FIX:
            verdict, message = scan.REVIEW, "the report's warning"
        out[line] = scan.Site(call.lineno, col, shown, verdict, message, edits, last)
    return out


def _named_encoding(call):
    return any(keyword.arg == "encoding" for keyword in call.keywords)
