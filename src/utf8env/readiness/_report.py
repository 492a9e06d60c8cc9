"""readiness's report of a result, written in the asked format (and GitHub's step
summary), and its exit status; the lines that every way of running readiness prints
(in a Linux locale world: _cli; under Wine: _windows; on Windows itself: _native)."""
from .._environment import user_environ
from .._errors import Utf8envError
from .. import _output as output, _pages as pages
from . import _format_markdown as format_markdown, _formats as formats
from ._guard import INCOMPLETE

INTERRUPTED_LINE = "utf8env: readiness: interrupted; the runs were stopped\n"


def report(result, options):
    """Write the report of `result` in options.format (GitHub's step summary too); its
    exit status."""
    page = formats.render(result, options.format, pages.width())
    if options.format == "github":
        summary = user_environ().get("GITHUB_STEP_SUMMARY")
        if summary:
            # GitHub's limit bounds the summary (format_markdown.step_summary()); when it is cut,
            # the whole report goes to the step's log, where the summary says it is.
            bounded, cut = format_markdown.step_summary(result)
            try:
                with open(summary, "a", encoding="utf-8") as f:
                    f.write(bounded)
            except OSError as error:
                raise Utf8envError("cannot write the output: GITHUB_STEP_SUMMARY %s: %s"
                                   % (summary, error.strerror or error))
            if cut:
                page += "\n" + format_markdown.markdown(result)
        else:
            page += "\n" + format_markdown.markdown(result)
    output.write(page)
    return status(result)


def status(result):
    """readiness's exit status for `result` (when it was not interrupted)."""
    if not result.complete:
        return INCOMPLETE
    return 1 if result.changed else 0
