"""The page of a readiness result (results.py) in the format asked: JSON here; text
(_format_text.py), Markdown, the GitHub step summary (_format_markdown.py), GitHub
workflow annotations (_format_github.py), JUnit XML (_format_junit.py), over what they
share (_format_words.py). Renders only; shares pages.py with the matrix's reports."""
import json

from .. import _pages as pages
from .._engine.records import as_json
from . import FORMATS  # noqa: F401 (the formats render() knows)
from ._format_github import github
from ._format_junit import junit
from ._format_markdown import markdown
from ._format_text import text


def render(result, fmt, columns=pages.WIDTH):
    if fmt == "json":
        return json.dumps(as_json(result), indent=1, sort_keys=True, ensure_ascii=True) + "\n"
    return {"text": lambda r: text(r, columns), "markdown": markdown, "github": github,
            "junit": junit}[fmt](result)
