"""User-written Markdown turned into sanitized HTML, and plain text made safe for the page.

Every Markdown field (bios, bodies, descriptions, news) goes through `render_markdown` and
its page and inline variants: one parser, one HTML writer, one sanitiser.

- The parser is pulldown-cmark (Rust, through pyromark): CommonMark with tables, footnotes,
  strikethrough, definition lists, heading ids and `$…$`/`$$…$$` math, in time linear in the
  text with a small constant. markdown-it-py was measured first (bench/markdown.py): linear
  too, but 50 KB of `[` took seconds, so one news item could still hold a worker.
- The writer below turns its events into HTML: headings with ids and a table of contents on
  long pages, footnotes that link both ways, tables in a scroll box, code highlighted by
  Pygments and named by its language (class="language-python"), formulas as MathML
  (latex2mathml), videos from an allowlist of players in a frame, images from
  allowed hosts (figures when titled), and `media:NAME` references resolved by the media
  library (`register_media_resolver`).
- nh3 (Ammonia) then keeps only the allowed tags, attributes, classes and addresses, for the
  writer's HTML and for whatever raw HTML a text carries alike.

Rendering is bounded twice: each field refuses text beyond its size (`text_limit`, a model
validator shared by admin forms, importers and commands), and results are kept in a memo
bounded by the characters it holds, so a page shows the same texts visit after visit without
converting them again, and a process never holds more than `MEMO_CHARACTERS` of them.

Why a memo rather than HTML stored at save: with the size bound and a linear parser a render
costs tens of milliseconds at worst (bench/markdown_hostile.py) and the page cache keeps
whole pages on top; stored HTML would be ~40 more columns (two languages each) that backups,
the static copy and importers would have to exclude or recompute, and it would go stale
whenever a medium that a text references is replaced or the allowed hosts change. Media
references are resolved after the memo, on each render, so they follow the library.
"""

from __future__ import annotations

import functools
import hashlib
import html as html_lib
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

import nh3
import pyromark
from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext
from latex2mathml.converter import convert as latex_to_mathml
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_all_lexers, get_lexer_by_name
from pygments.token import STANDARD_TYPES
from pygments.util import ClassNotFound

# What a Markdown field's form says under it (a page's, a post's, a theme's body, a bio…).
MARKDOWN_HELP = (
    "Markdown: ## a heading, **bold**, [a link](https://…), - a list, | a | table |, "
    "```python for code, $x^2$ for math, ![alt](media:NAME) or an image from an allowed "
    "host, a YouTube, Vimeo or Bilibili address on its own line for a video. "
    "Scripts and other HTML are removed."
)

# The size each kind of text may have, in characters: room for its use, and a bound on
# what one visit can cost (bench/markdown.py).
BODY_LIMIT = 100_000  # a page's, a post's, a theme's or a course's body
DESCRIPTION_LIMIT = 20_000  # a bio, an abstract, a talk's description, the lab's about
SUMMARY_LIMIT = 5_000  # a project's or an education's few lines, a banner's text
NEWS_LIMIT = 2_000  # one or two sentences

# Beyond this, text saved before the limits existed is shown only up to it, with a note.
RENDER_LIMIT = BODY_LIMIT
# Code blocks longer than this are shown without highlighting (Pygments is regex-driven).
HIGHLIGHT_LIMIT = 20_000
# Formulas typeset per text; the rest show as code (latex2mathml takes ~0.1 ms each).
MAX_FORMULAS = 500
# Lists, quotes and emphasis nested deeper than this show their text without the elements
# (an HTML parser's cost grows with the depth of what it reads), and raw HTML past this
# many tags in one text shows as text, for the same reason.
MAX_DEPTH = 32
MAX_RAW_TAGS = 2_000
# A text with more elements than this is shown as plain text (a 100 KB page of prose has
# about 5,000; a table of 1,000 rows of 4 cells 10,000).
MAX_ELEMENTS = 20_000
# A table of contents heads a page's body once it has this many headings.
TOC_MIN_HEADINGS = 4
# The memo holds at most this many characters of source text (and about 3x in HTML).
MEMO_CHARACTERS = 4_000_000


def is_markdown_field(field) -> bool:
    """Whether a model field holds Markdown: its help says so (every Markdown field's does,
    most through MARKDOWN_HELP)."""
    return "Markdown" in str(getattr(field, "help_text", ""))


def text_limit(limit: int) -> MaxLengthValidator:
    """The model validator bounding a text field at `limit` characters; admin forms,
    importers (`full_clean`) and commands all refuse longer text with Django's message,
    which names both lengths."""
    return MaxLengthValidator(limit)


# The sanitiser ---------------------------------------------------------------------------

MATHML_TAGS = {
    "math", "annotation", "maction", "menclose", "merror", "mfenced", "mfrac", "mi",
    "mmultiscripts", "mn", "mo", "mover", "mpadded", "mphantom", "mprescripts", "mroot",
    "mrow", "ms", "mspace", "msqrt", "mstyle", "msub", "msubsup", "msup", "mtable", "mtd",
    "mtext", "mtr", "munder", "munderover", "none", "semantics",
}  # fmt: skip
MATHML_ATTRIBUTES = {
    "accent", "accentunder", "columnalign", "columnlines", "columnspacing", "close",
    "depth", "display", "displaystyle", "encoding", "fence", "form", "frame", "height",
    "largeop", "linethickness", "lspace", "mathvariant", "maxsize", "minsize",
    "movablelimits", "notation", "open", "rowalign", "rowlines", "rowspacing", "rspace",
    "scriptlevel", "separator", "separators", "stretchy", "symmetric", "width", "xmlns",
}  # fmt: skip

# Block and inline tags a bio or description may use. Page-level headings (h1, h2) are
# left out: the page owns its outline, and a text's headings start below it.
ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em",
    "figcaption", "figure", "h3", "h4", "h5", "h6", "hr", "i", "iframe", "img", "li", "nav",
    "ol", "p", "picture", "pre", "s", "section", "source", "span", "strong", "sub", "sup",
    "table", "tbody", "td", "th", "thead", "tr", "ul",
} | MATHML_TAGS  # fmt: skip
# A page of its own (the lab's Join us) has sections: its body's headings start at h2, under
# the page's title.
PAGE_TAGS = ALLOWED_TAGS | {"h2"}

_HEADINGS = {f"h{level}": {"id"} for level in range(2, 7)}
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title", "id", "aria-label"},
    "abbr": {"title"},
    "ol": {"start"},
    "li": {"id"},
    "sup": {"id"},
    "nav": {"aria-label"},
    "section": {"aria-label"},
    "div": {"tabindex"},
    "pre": {"tabindex"},
    "img": {"src", "alt", "title", "width", "height", "loading", "decoding", "srcset", "sizes"},
    "source": {"srcset", "sizes", "type", "media", "width", "height"},
    "iframe": {"src", "title", "allowfullscreen"},
    **_HEADINGS,
    **{tag: MATHML_ATTRIBUTES for tag in MATHML_TAGS},
}
ALLOWED_CLASSES = {
    "span": {*STANDARD_TYPES.values()} - {""} | {"math-block", "media-missing", "figure__credit"},
    "pre": {"highlight"},
    "code": {"math-error"},
    "div": {"table-scroll", "video", "plain-text", "footnotes"},
    "nav": {"toc"},
    "sup": {"footnote-ref"},
    "a": {"footnote-backref"},
    # the media library's figures and galleries (media/references.py), styled in site.css
    "figure": {"figure", "gallery", "gallery__item"},
    "ul": {"gallery__grid"},
    "th": {"align-left", "align-center", "align-right"},
    "td": {"align-left", "align-center", "align-right"},
}
# Every frame is a lazily loaded player that sends only the site's origin and may use no
# browser feature but fullscreen and picture-in-picture. It is not sandboxed: the players
# need their scripts and their own origin (YouTube's reads its cookies), and the HTML
# checker refuses sandbox="allow-scripts allow-same-origin" outright, as a frame of the
# page's own origin could lift it. These frames are never of the site's origin (only the
# VIDEO_HOSTS below, which the CSP's frame-src lists alone), so the browser already keeps
# them from the page.
FRAME_ATTRIBUTES = {
    "iframe": {
        "loading": "lazy",
        "referrerpolicy": "strict-origin-when-cross-origin",
        "allow": "fullscreen; picture-in-picture",
    }
}
URL_SCHEMES = {"http", "https", "mailto"}

# The video players a text may show, and the hosts the CSP's frame-src lists.
VIDEO_HOSTS = ("www.youtube-nocookie.com", "player.vimeo.com", "player.bilibili.com")


def image_hosts() -> list[str]:
    """The hosts images in Markdown may come from besides the site's own media:
    settings.MARKDOWN_IMAGE_HOSTS, e.g. ["images.example.org"]."""
    return [host.lower() for host in getattr(settings, "MARKDOWN_IMAGE_HOSTS", [])]


def _allowed_image(url: str) -> bool:
    """An image address the site shows: the site's own media, or https on an allowed host."""
    url = url.strip()
    if url.startswith(settings.MEDIA_URL) and ".." not in url:
        return True
    parts = urlsplit(url)
    return parts.scheme == "https" and (parts.hostname or "") in image_hosts()


def _allowed_srcset(value: str) -> bool:
    return all(_allowed_image(item.split()[0]) for item in value.split(",") if item.strip())


def _allowed_frame(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme == "https" and parts.hostname in VIDEO_HOSTS


def _attribute_filter(tag: str, attribute: str, value: str) -> str | None:
    """Addresses of images and frames checked against the lists above; the rest as is."""
    if tag == "img" and attribute == "src":
        return value if _allowed_image(value) else None
    if tag in ("img", "source") and attribute == "srcset":
        return value if _allowed_srcset(value) else None
    if tag == "iframe" and attribute == "src":
        return value if _allowed_frame(value) else None
    return value


_SOURCELESS = re.compile(r"<(img|iframe)\b(?![^>]*\ssrc=)[^>]*>(?:</iframe>)?")


@functools.lru_cache(maxsize=4)
def _cleaner(tags: frozenset[str]) -> nh3.Cleaner:
    """The sanitiser for `tags`, built once: nh3.clean converts every list above on each
    call, 0.28 ms even for "<p>x</p>" (1.7 µs with a built Cleaner), and a page asks once
    per text and once per image it shows. Code blocks may name their language as HTML
    suggests, class="language-python": one class per Pygments lexer, by its first alias."""
    languages = {f"language-{aliases[0]}" for _n, aliases, _f, _m in get_all_lexers() if aliases}
    return nh3.Cleaner(
        tags=set(tags),
        clean_content_tags={"script", "style"},
        attributes=ALLOWED_ATTRIBUTES,
        attribute_filter=_attribute_filter,
        allowed_classes={**ALLOWED_CLASSES, "code": ALLOWED_CLASSES["code"] | languages},
        set_tag_attribute_values=FRAME_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="nofollow noopener",
    )


def sanitize_html(html: str, tags=ALLOWED_TAGS) -> str:
    """Keep the allowed tags, classes and safe addresses of an HTML fragment; drop scripts,
    styles, handlers, and images and frames whose source is not allowed."""
    cleaned = _cleaner(frozenset(tags)).clean(html)
    return _SOURCELESS.sub("", cleaned)  # an image or frame left without its source


# Media references ------------------------------------------------------------------------

MediaResolver = Callable[[str, str, "str | None"], "str | None"]
_media_resolvers: list[MediaResolver] = []


def register_media_resolver(resolver: MediaResolver) -> None:
    """Let `resolver(name, alt, title)` answer `![alt](media:NAME "title")`: HTML for the
    medium (a figure or picture with its srcset; it is sanitised like the rest, see
    ALLOWED_TAGS), or None when it knows no such medium. A resolver that also has
    `resolve_many([(name, alt, title), …])` is asked once for all of a text's references
    (a page's ten images then cost what one does). The media library registers one;
    resolvers are asked in turn, and their answers are not memoized (a replaced medium
    shows at once)."""
    if resolver not in _media_resolvers:
        _media_resolvers.append(resolver)


def unregister_media_resolver(resolver: MediaResolver) -> None:
    if resolver in _media_resolvers:
        _media_resolvers.remove(resolver)


def _resolve_media(references: list[tuple[str, str, str | None]]) -> list[str | None]:
    """Each reference's answer, from the first resolver that knows it."""
    answers: list[str | None] = [None] * len(references)
    for resolver in _media_resolvers:
        missing = [i for i, answer in enumerate(answers) if answer is None]
        if not missing:
            break
        asked = [references[i] for i in missing]
        many = getattr(resolver, "resolve_many", None)
        found = many(asked) if many is not None else [resolver(*ref) for ref in asked]
        for i, answer in zip(missing, found, strict=True):
            answers[i] = answer
    return answers


# Videos ----------------------------------------------------------------------------------

_YOUTUBE_ID = re.compile(r"[\w-]{11}")
_VIMEO_ID = re.compile(r"\d{1,12}")
_BILIBILI_ID = re.compile(r"(BV[0-9A-Za-z]{10})|av(\d{1,12})")


def video_player(url: str) -> tuple[str, str] | None:
    """(player address, provider) for the address of a video on YouTube, Vimeo or
    Bilibili as people paste it; None for anything else."""
    if len(url) > 300 or any(c.isspace() for c in url):
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return None
    host = (parts.hostname or "").removeprefix("www.").removeprefix("m.")
    path = [p for p in parts.path.split("/") if p]
    if host in ("youtube.com", "youtube-nocookie.com", "youtu.be"):
        if host == "youtu.be" and path:
            video = path[0]
        elif path[:1] == ["watch"]:
            video = parse_qs(parts.query).get("v", [""])[0]
        elif len(path) == 2 and path[0] in ("embed", "shorts", "live"):
            video = path[1]
        else:
            return None
        if _YOUTUBE_ID.fullmatch(video):
            return f"https://www.youtube-nocookie.com/embed/{video}", "YouTube"
    if host in ("vimeo.com", "player.vimeo.com"):
        video = path[-1] if path else ""
        if _VIMEO_ID.fullmatch(video) and (host == "vimeo.com" or path[0] == "video"):
            return f"https://player.vimeo.com/video/{video}", "Vimeo"
    if host in ("bilibili.com", "player.bilibili.com"):
        found = None
        if host == "bilibili.com" and len(path) >= 2 and path[0] == "video":
            found = _BILIBILI_ID.fullmatch(path[1])
        elif host == "player.bilibili.com":
            query = parse_qs(parts.query)
            bvid, aid = query.get("bvid", [""])[0], query.get("aid", [""])[0]
            found = _BILIBILI_ID.fullmatch(bvid or (f"av{aid}" if aid else ""))
        if found and found.group(1):
            return f"https://player.bilibili.com/player.html?bvid={found.group(1)}", "Bilibili"
        if found:
            return f"https://player.bilibili.com/player.html?aid={found.group(2)}", "Bilibili"
    return None


# The writer ------------------------------------------------------------------------------

OPTIONS = (
    pyromark.Options.ENABLE_TABLES
    | pyromark.Options.ENABLE_FOOTNOTES
    | pyromark.Options.ENABLE_STRIKETHROUGH
    | pyromark.Options.ENABLE_MATH
    | pyromark.Options.ENABLE_HEADING_ATTRIBUTES
    | pyromark.Options.ENABLE_DEFINITION_LIST
)
_FORMATTER = HtmlFormatter(nowrap=True)
_ABBREVIATION = re.compile(r"\*\[([^\]\n]{1,40})\]:[ \t]*([^\n]{1,200})")
_MAX_ABBREVIATIONS = 50
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
_ALIGN = {"Left": "align-left", "Center": "align-center", "Right": "align-right"}
# Markers the writer leaves where the media library's answer goes (after sanitising): a
# random word per process, so no text can forge one.
_NONCE = secrets.token_hex(8)
_MEDIA_MARK = re.compile(rf"\ue000{_NONCE}(\d+)\ue001")
_RESERVED_IDS = {"content", "main", "top", "menu", "footer", "header"}


def _escape(text: str) -> str:
    return html_lib.escape(text, quote=True)


@dataclass
class _Rendered:
    html: str
    media: list[tuple[str, str, str | None, bool]]  # (name, alt, title, alone) per marker
    problems: list[str]


_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_BRACKET_MATH = re.compile(r"\\[()]|`+")


def _prepare(source: str) -> tuple[str, dict[str, str]]:
    """The text as the parser reads it, and its abbreviations. Two things written in the
    ways of LaTeX and Python-Markdown, which CommonMark does not know, are read first, line
    by line outside code blocks: `\\(…\\)` formulas become `$…$` (the parser's own math),
    and `*[KV]: key-value` lines are taken out as abbreviations. One pass, linear."""
    if "\\(" not in source and "*[" not in source:
        return source, {}
    lines: list[str] = []
    abbreviations: dict[str, str] = {}
    fence = None
    for line in source.split("\n"):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened[1][0] == fence[0] and len(opened[1]) >= len(fence):
                fence = None
            lines.append(line)
            continue
        if opened:
            fence = opened[1]
            lines.append(line)
            continue
        if line.startswith("*[") and (found := _ABBREVIATION.fullmatch(line.strip())):
            if len(abbreviations) < _MAX_ABBREVIATIONS:
                abbreviations[found[1]] = found[2].strip()
            continue
        lines.append(_bracket_math(line) if "\\(" in line else line)
    return "\n".join(lines), abbreviations


def _bracket_math(line: str) -> str:
    """A line's `\\(…\\)` formulas as `$…$`, outside its code spans: each opening paired
    with the next closing, in one scan."""
    parts, last, opening, code = [], 0, None, None
    for found in _BRACKET_MATH.finditer(line):
        token, at = found[0], found.start()
        if token.startswith("`"):
            if code is None:
                code = token
            elif token == code:
                code = None
            continue
        if code is not None or _escaped(line, at):
            continue
        if token == "\\(":
            opening = at
        elif opening is not None:
            tex = line[opening + 2 : at].strip()
            if tex and "$" not in tex:
                parts.append(line[last:opening] + f"${tex}$")
                last = at + 2
            opening = None
    return "".join(parts) + line[last:]


def _escaped(text: str, at: int) -> bool:
    """Whether the character at `at` follows an odd run of backslashes."""
    count = 0
    while at - count - 1 >= 0 and text[at - count - 1] == "\\":
        count += 1
    return count % 2 == 1


@dataclass
class _Writer:
    """One text's events written as HTML; see the module's docstring for what it makes."""

    source: str
    first_heading: int  # a text's top heading level becomes this: 3 in a bio, 2 on a page
    toc: bool
    blocks: bool = True  # a lone video address or image becomes a player or a figure
    events: list = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    media: list[tuple[str, str, str | None, bool]] = field(default_factory=list)
    top_heading: int = 1
    headings: list[tuple[int, str, str]] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    notes: dict[str, str] = field(default_factory=dict)  # footnote label → its HTML
    note_numbers: dict[str, int] = field(default_factory=dict)
    note_refs: dict[str, int] = field(default_factory=dict)
    abbreviations: dict[str, str] = field(default_factory=dict)
    abbreviation_pattern: re.Pattern | None = None
    formulas: int = 0
    depth: int = 0  # lists, quotes and emphasis open around the event being read
    opened: list[bool] = field(default_factory=list)  # per open element: counts in depth
    raw_tags: int = 0  # "<" in the raw HTML written so far
    table_head: bool = False
    alignments: tuple = ()
    cell: int = 0

    def write(self) -> _Rendered:
        self.doc = hashlib.blake2s(self.source.encode(), digest_size=3).hexdigest()
        source, self.abbreviations = _prepare(self.source)
        if self.abbreviations:
            words = sorted(map(_escape, self.abbreviations), key=len, reverse=True)
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
        levels = [
            int(e["Start"]["Heading"]["level"][1])
            for e in self.events
            if "Start" in e and isinstance(e["Start"], dict) and "Heading" in e["Start"]
        ]
        self.top_heading = min(levels, default=1)
        html = "".join(self._block(0, len(self.events)))
        if self.toc and len(self.headings) >= TOC_MIN_HEADINGS:
            html = self._table_of_contents() + html
        if self.notes:
            html += self._footnotes()
        return _Rendered(html, self.media, self.problems)

    def _as_text(self) -> _Rendered:
        """A text with more markup than MAX_ELEMENTS, shown as the text it is (line breaks
        kept), and its editor told why."""
        self.problems.append(
            gettext(
                "This text holds more markup than a page can show (%(count)s elements at "
                "most); it is shown as plain text. Splitting it helps."
            )
            % {"count": MAX_ELEMENTS}
        )
        return _Rendered(f'<div class="plain-text">{_escape(self.source)}</div>', [], self.problems)

    # One walk over the events from `start` to `end`, blocks and inlines alike.

    def _block(self, start: int, end: int) -> list[str]:
        out: list[str] = []
        events = self.events
        i = start
        while i < end:
            event = events[i]
            text = event.get("Text")
            if text is not None:  # most events: one escape, no call
                escaped = _escape(text)
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

    def _matching_end(self, i: int) -> int:
        depth = 0
        for j in range(i, len(self.events)):
            event = self.events[j]
            if "Start" in event:
                depth += 1
            elif "End" in event:
                depth -= 1
                if depth == 0:
                    return j
        return len(self.events) - 1

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
            end = self._matching_end(i)
            self.notes.setdefault(value, "".join(self._block(i + 1, end)))
            return end + 1
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
            return f"<code>{_escape(value)}</code>"
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
                return _escape(value)
            return value
        if name == "InlineMath":
            return self._math(value, display=False)
        if name == "DisplayMath":
            return self._math(value, display=True)
        if name == "FootnoteReference":
            return self._footnote_reference(value)
        return ""  # task-list markers and metadata: not enabled

    # Text

    def _abbreviate(self, escaped: str) -> str:
        def wrap(found: re.Match) -> str:
            title = _escape(self.abbreviations[html_lib.unescape(found[0])])
            return f'<abbr title="{title}">{found[0]}</abbr>'

        pattern = self.abbreviation_pattern
        return pattern.sub(wrap, escaped) if pattern is not None else escaped

    def _plain(self, start: int, end: int) -> str:
        """The text of events start..end, without markup (an image's alt, a heading's)."""
        parts = []
        for event in self.events[start:end]:
            if "SoftBreak" in event or "HardBreak" in event:
                parts.append(" ")
            for name in ("Text", "Code", "InlineMath"):
                if name in event:
                    parts.append(event[name])
        return "".join(parts)

    # Headings

    def _heading(self, value: dict, i: int, out: list[str]) -> int:
        end = self._matching_end(i)
        level = min(int(value["level"][1]) - self.top_heading + self.first_heading, 6)
        inner = "".join(self._block(i + 1, end))
        text = " ".join(self._plain(i + 1, end).split())
        wanted = value.get("id") or slugify(text, allow_unicode=True) or "section"
        anchor = self._unique_id(wanted[:80])
        self.headings.append((level, anchor, text))
        out.append(f'<h{level} id="{_escape(anchor)}">{inner}</h{level}>\n')
        return end + 1

    def _unique_id(self, wanted: str) -> str:
        anchor, n = wanted, 1
        while anchor in self.ids or anchor in _RESERVED_IDS:
            n += 1
            anchor = f"{wanted}-{n}"
        self.ids.add(anchor)
        return anchor

    def _table_of_contents(self) -> str:
        """The text's headings at its two top levels, as links, nested as they are."""
        top = min(level for level, _a, _t in self.headings)
        items: list[str] = []
        open_sub = False
        for level, anchor, text in self.headings:
            if level > top + 1:
                continue
            link = f'<a href="#{_escape(anchor)}">{_escape(text)}</a>'
            if level > top and not open_sub and items:
                items[-1] = items[-1].removesuffix("</li>") + "<ol>"
                open_sub = True
            elif level == top and open_sub:
                items.append("</ol></li>")
                open_sub = False
            items.append(f"<li>{link}</li>")
        if open_sub:
            items.append("</ol></li>")
        label = _escape(gettext("Contents"))
        return f'<nav class="toc" aria-label="{label}"><ol>{"".join(items)}</ol></nav>\n'

    # Tables

    def _cell(self) -> str:
        tag = "th" if self.table_head else "td"
        align = self.alignments[self.cell] if self.cell < len(self.alignments) else "None"
        return f'<{tag} class="{_ALIGN[align]}">' if align in _ALIGN else f"<{tag}>"

    # Links, images and videos

    def _link(self, value: dict) -> str:
        href = value["dest_url"]
        if value.get("link_type") == "Email" and not href.startswith("mailto:"):
            href = f"mailto:{href}"
        title = f' title="{_escape(value["title"])}"' if value.get("title") else ""
        return f'<a href="{_escape(href)}"{title}>'

    def _lone_paragraph(self, start: int) -> tuple[str, int] | None:
        """A paragraph holding only a video's address, or only an image: (its HTML without
        the paragraph, a player or a figure; the index of its end). Looks at a few events."""
        inner: list[int] = []
        j = start + 1
        while len(inner) < 4:
            event = self.events[j]
            if "End" in event and event["End"] == "Paragraph":
                break
            if not self._blank(event):
                inner.append(j)
            j += 1
        if not inner or len(inner) > 3:
            return None
        first = self.events[inner[0]]
        if len(inner) == 1 and "Text" in first:
            video = self._video(first["Text"].strip())
            return (video, j) if video else None
        if "Start" not in first or not isinstance(first["Start"], dict):
            return None
        ((name, value),) = first["Start"].items()
        if name == "Link" and value.get("link_type") == "Autolink" and len(inner) == 3:
            video = self._video(value["dest_url"])
            return (video, j) if video else None
        if name == "Image" and self._matching_end(inner[0]) == inner[-1]:
            out: list[str] = []
            self._image(value, inner[0], out, alone=True)
            return "".join(out) + "\n", j
        return None

    @staticmethod
    def _blank(event: dict) -> bool:
        return "SoftBreak" in event or ("Text" in event and not event["Text"].strip())

    def _video(self, url: str) -> str | None:
        found = video_player(url)
        if found is None:
            return None
        player, provider = found
        title = _escape(gettext("Video on %(provider)s") % {"provider": provider})
        return (
            f'<div class="video"><iframe src="{_escape(player)}" title="{title}" '
            "allowfullscreen></iframe></div>\n"
        )

    def _image(self, value: dict, i: int, out: list[str], alone: bool = False) -> int:
        end = self._matching_end(i)
        alt = " ".join(self._plain(i + 1, end).split())
        url = value["dest_url"].strip()
        title = value.get("title") or None
        if url.startswith("media:"):
            self.media.append((url.removeprefix("media:").strip(), alt, title, alone))
            out.append(f"\ue000{_NONCE}{len(self.media) - 1}\ue001")
        elif not _allowed_image(url):
            host = urlsplit(url).hostname or url[:60]
            self.problems.append(
                gettext(
                    "The image “%(alt)s” (%(url)s) is not shown: %(host)s is not a host the "
                    "lab allows images from. Upload it to the media library, or ask for "
                    "its host to be added to MARKDOWN_IMAGE_HOSTS."
                )
                % {"alt": alt or "…", "url": url[:200], "host": host}
            )
            out.append(f"<p>{_missing(alt)}</p>" if alone else _missing(alt))
        else:
            image = f'<img src="{_escape(url)}" alt="{_escape(alt)}" loading="lazy">'
            if title and alone:
                image = (
                    f'<figure class="figure">{image}'
                    f"<figcaption>{_escape(title)}</figcaption></figure>"
                )
            elif title:
                image = image.replace(" loading=", f' title="{_escape(title)}" loading=', 1)
            elif alone:
                image = f"<p>{image}</p>"
            out.append(image)
        return end + 1

    # Code

    def _code_block(self, kind, i: int, out: list[str]) -> int:
        end = self._matching_end(i)
        code = "".join(e["Text"] for e in self.events[i + 1 : end] if "Text" in e)
        language = ""
        if isinstance(kind, dict) and "Fenced" in kind:
            language = (kind["Fenced"] or "").strip().split(" ")[0].strip("{}.")
        body, named = _escape(code), ""
        lexer = _lexer(language) if language else None
        if lexer is not None:
            # the language by its lexer's first name ("py" is "python"), as HTML suggests
            named = f' class="language-{_escape(lexer.aliases[0])}"' if lexer.aliases else ""
            if len(code) <= HIGHLIGHT_LIMIT:
                body = highlight(code, lexer, _FORMATTER)
        out.append(f'<pre class="highlight" tabindex="0"><code{named}>{body}</code></pre>\n')
        return end + 1

    # Math

    def _math(self, tex: str, display: bool) -> str:
        tex = tex.strip()
        self.formulas += 1
        if self.formulas > MAX_FORMULAS or len(tex) > 5_000:
            if self.formulas == MAX_FORMULAS + 1:
                self.problems.append(
                    gettext("Only the first %(count)s formulas are typeset; the rest show as code.")
                    % {"count": MAX_FORMULAS}
                )
            return f"<code>{_escape(tex)}</code>"
        try:
            mathml = _mathml(tex, display)
        except Exception as error:  # latex2mathml raises many kinds; each is bad TeX
            reason = str(error) or type(error).__name__
            self.problems.append(
                gettext("The formula “%(tex)s” cannot be read (%(reason)s); it is shown as code.")
                % {"tex": tex[:200], "reason": reason[:200]}
            )
            return f"<code>{_escape(tex)}</code>"
        return f'<span class="math-block">{mathml}</span>' if display else mathml

    # Footnotes

    def _footnote_reference(self, label: str) -> str:
        number = self.note_numbers.setdefault(label, len(self.note_numbers) + 1)
        self.note_refs[label] = self.note_refs.get(label, 0) + 1
        count = self.note_refs[label]
        ref = f"fnref-{self.doc}-{number}" + (f"-{count}" if count > 1 else "")
        return (
            f'<sup class="footnote-ref" id="{ref}">'
            f'<a href="#fn-{self.doc}-{number}">{number}</a></sup>'
        )

    def _footnotes(self) -> str:
        """The notes in the order the text first cites them (then those never cited), each
        linking back to every place that cites it."""
        back = _escape(gettext("Back to the text"))
        labels = sorted(self.note_numbers, key=self.note_numbers.__getitem__)
        labels += [label for label in self.notes if label not in self.note_numbers]
        items = []
        for label in labels:
            if label not in self.notes:
                continue  # cited, never written: its reference links nowhere
            number = self.note_numbers.get(label)
            body = self.notes[label].strip()
            links = ""
            if number is not None:
                links = " ".join(
                    f'<a href="#fnref-{self.doc}-{number}{"" if n == 1 else f"-{n}"}" '
                    f'class="footnote-backref" aria-label="{back}">↩</a>'
                    for n in range(1, self.note_refs[label] + 1)
                )
            if body.endswith("</p>"):
                body = body[:-4] + f" {links}</p>"
            else:
                body += links
            anchor = f' id="fn-{self.doc}-{number}"' if number is not None else ""
            items.append(f"<li{anchor}>{body}</li>\n")
        return f'<div class="footnotes"><hr><ol>{"".join(items)}</ol></div>\n'


def _lexer(language: str):
    """The Pygments lexer a fence's language names ("py", "python3", "c++"), or None."""
    try:
        return get_lexer_by_name(language[:40], stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


@functools.lru_cache(maxsize=1024)
def _mathml(tex: str, display: bool) -> str:
    """A formula as MathML (a text repeats its formulas; the same ones recur across pages)."""
    return latex_to_mathml(tex, display="block" if display else "inline")


def _missing(alt: str) -> str:
    """What stands in for an image the site cannot show: its alt text, visibly."""
    shown = alt or gettext("An image")
    return f'<span class="media-missing">{_escape(shown)}</span>'


# The memo --------------------------------------------------------------------------------


class _Memo:
    """Rendered texts by (text, variant, language), least recently used dropped first once
    the texts held pass `limit` characters."""

    def __init__(self, limit: int):
        self.limit = limit
        self.held = 0
        self.entries: OrderedDict[tuple, _Rendered] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple) -> _Rendered | None:
        with self.lock:
            found = self.entries.get(key)
            if found is not None:
                self.entries.move_to_end(key)
            return found

    def put(self, key: tuple, value: _Rendered) -> None:
        size = len(key[0])
        if size > self.limit:
            return
        with self.lock:
            if key in self.entries:
                return
            self.entries[key] = value
            self.held += size
            while self.held > self.limit:
                old, _value = self.entries.popitem(last=False)
                self.held -= len(old[0])

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.held = 0


_memo = _Memo(MEMO_CHARACTERS)


def forget_rendered() -> None:
    """Empty the memo (tests, or after a change of settings such as the allowed hosts)."""
    _memo.clear()


def _render(text: str, page: bool, inline: bool = False) -> _Rendered:
    key = (text, page, inline, translation.get_language())
    found = _memo.get(key)
    if found is None:
        shown = text[:RENDER_LIMIT]
        writer = _Writer(shown, first_heading=2 if page else 3, toc=page, blocks=not inline)
        found = writer.write()
        if len(text) > RENDER_LIMIT:
            note = gettext(
                "The rest of this text (%(count)s more characters) is not shown: it is longer "
                "than a text here may be. An editor can shorten it."
            ) % {"count": len(text) - RENDER_LIMIT}
            found.html += f"<p><em>{_escape(note)}</em></p>"
            found.problems.append(note)
        found.html = sanitize_html(found.html, PAGE_TAGS if page else ALLOWED_TAGS)
        _memo.put(key, found)
    return found


def _with_media(rendered: _Rendered, problems: list[str] | None = None) -> str:
    """The rendered HTML with each media reference replaced by the library's answer."""
    if not rendered.media:
        return rendered.html

    answers = _resolve_media([(name, alt, title) for name, alt, title, _ in rendered.media])

    def figure(match: re.Match) -> str:
        name, alt, _title, alone = rendered.media[int(match[1])]
        answer = answers[int(match[1])]
        if answer is None:
            if problems is not None:
                problems.append(
                    gettext(
                        "The image “media:%(name)s” is not in the media library; its alt "
                        "text is shown instead."
                    )
                    % {"name": name}
                )
            return f"<p>{_missing(alt)}</p>" if alone else _missing(alt)
        return sanitize_html(answer, ALLOWED_TAGS)

    return _MEDIA_MARK.sub(figure, rendered.html)


# The renderers ---------------------------------------------------------------------------


def render_markdown(text):
    """Markdown rendered to sanitized, page-safe HTML; its headings start at h3."""
    if not text:
        return mark_safe("")
    return mark_safe(_with_media(_render(str(text), page=False)))


def render_markdown_without_media(text):
    """render_markdown with its media references left out, for what holds no images (a
    page's description): none is looked up in the library."""
    if not text:
        return mark_safe("")
    return mark_safe(_MEDIA_MARK.sub("", _render(str(text), page=False).html))


def render_page_markdown(text):
    """render_markdown for the body of a page of its own: headings start at h2, and a table
    of contents heads a body with TOC_MIN_HEADINGS headings or more."""
    if not text:
        return mark_safe("")
    return mark_safe(_with_media(_render(str(text), page=True)))


def render_inline_markdown(text):
    """Like render_markdown for one-line text (a news item): no wrapping paragraph, and no
    player or figure made of a lone address or image (the line sits in running text)."""
    if not text:
        return mark_safe("")
    html = _with_media(_render(str(text), page=False, inline=True)).strip()
    if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        html = html[3:-4]
    return mark_safe(html)


def markdown_problems(text: str, page: bool = False) -> list[str]:
    """What an editor should know about a text before it is shown: images from hosts the
    lab does not allow, media references the library does not know, formulas that cannot be
    read. Empty when the text shows as written."""
    if not text:
        return []
    rendered = _render(str(text), page=page)
    problems = list(rendered.problems)
    _with_media(rendered, problems)
    return problems


_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_HAN = re.compile(r"[\u3400-\u9fff]")


def detect_language(text):
    """The language a short text is written in when its script tells (zh, ja, ko); else en.
    Marked on the page as lang="…", so browsers choose the right font."""
    if _KANA.search(text):
        return "ja"
    if _HANGUL.search(text):
        return "ko"
    if _HAN.search(text):
        return "zh"
    return "en"


_LATIN = re.compile(r"[A-Za-z]")
_CJK = re.compile(r"[\u3040-\u30ff\uac00-\ud7af\u3400-\u9fff]")


def mostly_cjk_language(text):
    """zh, ja or ko when most of a text's letters are in that script ("记忆感知的大模型
    KVCache优化" is zh); None for a text mostly in Latin letters, even one that names "马腾"."""
    if len(_CJK.findall(text)) <= len(_LATIN.findall(text)):
        return None
    return detect_language(text)
