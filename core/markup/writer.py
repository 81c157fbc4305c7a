"""One text's Markdown written as HTML: pulldown-cmark's events (through pyromark) read in
one walk, blocks and inlines alike. Each kind of element with more to it than a tag has its
part, a class the writer is made of: headings, footnotes, tables, images and videos, code
blocks and formulas."""

import hashlib
import html as html_lib
import re
from dataclasses import dataclass, field

import pyromark
from django.utils.translation import gettext

from core.markup.code_blocks import CodeBlocks
from core.markup.events import escape
from core.markup.footnotes import Footnotes
from core.markup.formulas import Formulas
from core.markup.headings import TOC_MIN_HEADINGS, Headings
from core.markup.images import Images
from core.markup.limits import MAX_DEPTH, MAX_ELEMENTS, MAX_RAW_TAGS
from core.markup.prepare import prepare
from core.markup.tables import Tables

OPTIONS = (
    pyromark.Options.ENABLE_TABLES
    | pyromark.Options.ENABLE_FOOTNOTES
    | pyromark.Options.ENABLE_STRIKETHROUGH
    | pyromark.Options.ENABLE_MATH
    | pyromark.Options.ENABLE_HEADING_ATTRIBUTES
    | pyromark.Options.ENABLE_DEFINITION_LIST
)
_CLOSING = {
    "Paragraph": "</p>\n",
    "Emphasis": "</em>",
    "Strong": "</strong>",
    "Strikethrough": "</del>",
    "Link": "</a>",
    "Item": "</li>\n",
    "TableRow": "</tr>\n",
    "Table": "</tbody></table></div>\n",
    "BlockQuote": "</blockquote>\n",
    "DefinitionList": "</dl>\n",
    "DefinitionListTitle": "</dt>",
    "DefinitionListDefinition": "</dd>\n",
    "Superscript": "</sup>",
    "Subscript": "</sub>",
}
_OPENING = {
    "Emphasis": "<em>",
    "Strong": "<strong>",
    "Strikethrough": "<del>",
    "Item": "<li>",
    "TableHead": "<thead><tr>",
    "TableRow": "<tr>",
    "DefinitionList": "<dl>\n",
    "DefinitionListTitle": "<dt>",
    "DefinitionListDefinition": "<dd>",
    "Superscript": "<sup>",
    "Subscript": "<sub>",
}
_NESTING = {
    "BlockQuote", "List", "Item", "Emphasis", "Strong", "Strikethrough", "Superscript",
    "Subscript", "Link", "DefinitionList", "DefinitionListTitle", "DefinitionListDefinition",
}  # fmt: skip
_BREAKS = {"SoftBreak": "\n", "HardBreak": "<br>\n", "Rule": "<hr>\n"}


@dataclass
class Rendered:
    """A text as written: its HTML (a marker for each media reference, see media.py), its
    media references, and what its editor should know (markdown_problems)."""

    html: str
    media: list[tuple[str, str, str | None, bool]]  # (name, alt, title, alone) per marker
    problems: list[str]


@dataclass(kw_only=True)
class Writer(Headings, Footnotes, Tables, Images, CodeBlocks, Formulas):
    """One text's events written as HTML: the walk below writes the elements that are a tag
    and their text (the tables above), and hands the others to the part that knows them."""

    source: str
    abbreviations: dict[str, str] = field(default_factory=dict)
    abbreviation_pattern: re.Pattern | None = None
    depth: int = 0  # lists, quotes and emphasis open around the event being read
    opened: list[bool] = field(default_factory=list)  # per open element: counts in depth
    raw_tags: int = 0  # "<" in the raw HTML written so far

    def write(self) -> Rendered:
        self.doc = hashlib.blake2s(self.source.encode(), digest_size=3).hexdigest()
        source, self.abbreviations = prepare(self.source)
        if self.abbreviations:
            words = sorted(map(escape, self.abbreviations), key=len, reverse=True)
            self.abbreviation_pattern = re.compile(
                r"(?<!\w)(?:" + "|".join(map(re.escape, words)) + r")(?!\w)"
            )
        # The parser's own HTML (Rust, fast) counts the elements first: reading its events
        # in Python costs microseconds each, so a text made of markup is shown as text.
        if pyromark.html(source, options=OPTIONS).count("<") > MAX_ELEMENTS:
            return self._as_text()
        self.events = [
            {event: None} if type(event) is str else event  # "SoftBreak" and the like
            for event in pyromark.events(source, options=OPTIONS)
        ]
        self.top_heading = self._top_level()
        html = "".join(self._block(0, len(self.events)))
        if self.toc and len(self.headings) >= TOC_MIN_HEADINGS:
            html = self._table_of_contents() + html
        if self.notes:
            html += self._footnotes()
        return Rendered(html, self.media, self.problems)

    def _as_text(self) -> Rendered:
        """A text with more markup than MAX_ELEMENTS, shown as the text it is (line breaks
        kept), and its editor told why."""
        self.problems.append(
            gettext(
                "This text holds more markup than a page can show (%(count)s elements at "
                "most); it is shown as plain text. Splitting it helps."
            )
            % {"count": MAX_ELEMENTS}
        )
        return Rendered(f'<div class="plain-text">{escape(self.source)}</div>', [], self.problems)

    # One walk over the events from `start` to `end`, blocks and inlines alike.

    def _block(self, start: int, end: int) -> list[str]:
        out: list[str] = []
        events = self.events
        i = start
        while i < end:
            event = events[i]
            text = event.get("Text")
            if text is not None:  # most events: one escape, no call
                escaped = escape(text)
                if self.abbreviation_pattern is not None:
                    escaped = self._abbreviate(escaped)
                out.append(escaped)
                i += 1
            elif "Start" in event:
                tag = event["Start"]
                name = tag if isinstance(tag, str) else next(iter(tag))
                if name in _NESTING and self.depth >= MAX_DEPTH:
                    self.opened.append(False)  # shown as its text, without the element
                    i += 1
                    continue
                after = self._start(tag, i, out)
                if after == i + 1:
                    self.opened.append(name in _NESTING)
                    self.depth += name in _NESTING
                i = after
            elif "End" in event:
                nesting = self.opened.pop() if self.opened else False
                tag = event["End"]
                name = tag if isinstance(tag, str) else next(iter(tag))
                if nesting or name not in _NESTING:
                    out.append(self._end(tag))
                self.depth -= nesting
                i += 1
            else:
                out.append(self._leaf(event))
                i += 1
        return out

    def _start(self, tag, i: int, out: list[str]) -> int:
        """Write the element `tag` opens at event i; the index of the next event to read."""
        if tag == "Paragraph":
            alone = self._lone_paragraph(i) if self.blocks else None
            if alone is not None:
                html, end = alone
                out.append(html)
                return end + 1
            out.append("<p>")
            return i + 1
        if isinstance(tag, str):
            if tag == "TableHead":
                self.table_head, self.cell = True, 0
            elif tag == "TableRow":
                self.cell = 0
            elif tag == "TableCell":
                out.append(self._cell())
                return i + 1
            out.append(_OPENING.get(tag, ""))
            return i + 1
        ((name, value),) = tag.items()
        if name == "Heading":
            return self._heading(value, i, out)
        if name == "List":
            if value is None:
                out.append("<ul>\n")
            else:
                out.append("<ol>\n" if value == 1 else f'<ol start="{int(value)}">\n')
        elif name == "BlockQuote":
            out.append("<blockquote>\n")
        elif name == "CodeBlock":
            return self._code_block(value, i, out)
        elif name == "Table":
            self.alignments = tuple(value)
            out.append('<div class="table-scroll" tabindex="0"><table>')
        elif name == "Link":
            out.append(self._link(value))
        elif name == "Image":
            return self._image(value, i, out)
        elif name == "FootnoteDefinition":
            return self._footnote_definition(value, i)
        return i + 1

    def _end(self, tag) -> str:
        name, value = next(iter(tag.items())) if isinstance(tag, dict) else (tag, None)
        if name == "List":
            return "</ol>\n" if value else "</ul>\n"
        if name == "TableHead":
            self.table_head = False
            return "</tr></thead><tbody>"
        if name == "TableCell":
            self.cell += 1
            return "</th>" if self.table_head else "</td>"
        return _CLOSING.get(name, "")

    def _leaf(self, event: dict) -> str:
        ((name, value),) = event.items()
        if name in _BREAKS:
            return _BREAKS[name]
        if name == "Code":
            return f"<code>{escape(value)}</code>"
        if name in ("Html", "InlineHtml"):
            self.raw_tags += value.count("<")
            if self.raw_tags > MAX_RAW_TAGS:
                if self.raw_tags - value.count("<") <= MAX_RAW_TAGS:
                    self.problems.append(
                        gettext(
                            "Only the first %(count)s HTML tags are read; the rest show as text."
                        )
                        % {"count": MAX_RAW_TAGS}
                    )
                return escape(value)
            return value
        if name == "InlineMath":
            return self._math(value, display=False)
        if name == "DisplayMath":
            return self._math(value, display=True)
        if name == "FootnoteReference":
            return self._footnote_reference(value)
        return ""  # task-list markers and metadata: not enabled

    # Inline elements with more to them than a tag

    def _abbreviate(self, escaped: str) -> str:
        def wrap(found: re.Match) -> str:
            title = escape(self.abbreviations[html_lib.unescape(found[0])])
            return f'<abbr title="{title}">{found[0]}</abbr>'

        pattern = self.abbreviation_pattern
        return pattern.sub(wrap, escaped) if pattern is not None else escaped

    def _link(self, value: dict) -> str:
        href = value["dest_url"]
        if value.get("link_type") == "Email" and not href.startswith("mailto:"):
            href = f"mailto:{href}"
        title = f' title="{escape(value["title"])}"' if value.get("title") else ""
        return f'<a href="{escape(href)}"{title}>'
