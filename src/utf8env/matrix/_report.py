"""The page of a matrix result (results.py's records) in the format asked: JSON here, the
others by the modules of each page (the PEP reproduction's: _pep_text, _pep_markdown,
_pep_html; a user's program's: _program_text, _program_markdown, _program_html). Renders
only: every value comes from the result, what Python 3.15 does too (the engine's answer,
_pep686.py, asked when the result was built).
Text is decoded for a reader of the cell's environment, with the bytes where they are
the evidence, or everywhere with `raw` (--bytes)."""
import json

from . import FORMATS  # noqa: F401 (the formats render() knows)
from . import _pep_html as pep_html, _pep_markdown as pep_markdown, _pep_text as pep_text
from . import _program_html as program_html, _program_markdown as program_markdown
from . import _program_text as program_text
from ._program_view import ProgramView
from .._engine.records import as_json
from .. import _pages as pages


def render(result, fmt, columns=None, raw=False):
    """The page of `result` in `fmt`; text lines fit `columns` (default: pages.width());
    `raw`: the bytes (repr) of outputs and files everywhere."""
    if fmt == "json":
        return json.dumps(as_json(result), indent=1, sort_keys=True, ensure_ascii=True) + "\n"
    columns = columns or pages.width()
    if result.mode == "program":
        view = ProgramView(result, raw)
        return {"text": lambda: program_text.text(view, columns),
                "markdown": lambda: program_markdown.markdown(view),
                "html": lambda: program_html.html(view)}[fmt]()
    return {"text": lambda: pep_text.text(result, columns),
            "markdown": lambda: pep_markdown.markdown(result),
            "html": lambda: pep_html.html(result, raw)}[fmt]()
