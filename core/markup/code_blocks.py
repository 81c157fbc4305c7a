"""Code blocks as the writer writes them: highlighted by Pygments and named by their
language (class="language-python"), as HTML suggests."""

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from core.markup.events import Events, escape
from core.markup.limits import HIGHLIGHT_LIMIT

_FORMATTER = HtmlFormatter(nowrap=True)


class CodeBlocks(Events):
    def _code_block(self, kind, i: int, out: list[str]) -> int:
        end = self._matching_end(i)
        code = "".join(e["Text"] for e in self.events[i + 1 : end] if "Text" in e)
        language = ""
        if isinstance(kind, dict) and "Fenced" in kind:
            language = (kind["Fenced"] or "").strip().split(" ")[0].strip("{}.")
        body, named = escape(code), ""
        lexer = _lexer(language) if language else None
        if lexer is not None:
            # the language by its lexer's first name ("py" is "python"), as HTML suggests
            named = f' class="language-{escape(lexer.aliases[0])}"' if lexer.aliases else ""
            if len(code) <= HIGHLIGHT_LIMIT:
                body = highlight(code, lexer, _FORMATTER)
        out.append(f'<pre class="highlight" tabindex="0"><code{named}>{body}</code></pre>\n')
        return end + 1


def _lexer(language: str):
    """The Pygments lexer a fence's language names ("py", "python3", "c++"), or None."""
    try:
        return get_lexer_by_name(language[:40], stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None
