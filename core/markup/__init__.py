"""User-written Markdown turned into sanitized HTML, and plain text made safe for the page.

Every Markdown field (bios, bodies, descriptions, news) goes through `render_markdown` and
its page and inline variants: one parser, one HTML writer, one sanitiser.

- The parser is pulldown-cmark (Rust, through pyromark): CommonMark with tables, footnotes,
  strikethrough, definition lists, heading ids and `$…$`/`$$…$$` math, in time linear in the
  text with a small constant. markdown-it-py was measured first (bench/markdown.py): linear
  too, but 50 KB of `[` took seconds, so one news item could still hold a worker.
- The writer (writer.py, one part a module) turns its events into HTML: headings with ids
  and a table of contents on long pages, footnotes that link both ways, tables in a scroll
  box, code highlighted by Pygments and named by its language (class="language-python"),
  formulas as MathML (latex2mathml), videos from an allowlist of players in a frame
  (videos.py), images from allowed hosts (figures when titled), and `media:NAME`
  references resolved by the media library (`register_media_resolver`, media.py).
- nh3 (Ammonia) then keeps only the allowed tags, attributes, classes and addresses, for the
  writer's HTML and for whatever raw HTML a text carries alike (sanitizer.py).

Rendering is bounded twice: each field refuses text beyond its size (`text_limit`, a model
validator shared by admin forms, importers and commands; limits.py), and results are kept in
a memo bounded by the characters it holds (memo.py), so a page shows the same texts visit
after visit without converting them again, and a process never holds more than
`MEMO_CHARACTERS` of them.

Why a memo rather than HTML stored at save: with the size bound and a linear parser a render
costs tens of milliseconds at worst (bench/markdown_hostile.py) and the page cache keeps
whole pages on top; stored HTML would be ~40 more columns (two languages each) that backups,
the static copy and importers would have to exclude or recompute, and it would go stale
whenever a medium that a text references is replaced or the allowed hosts change. Media
references are resolved after the memo, on each render, so they follow the library.
"""

from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from core.markup.events import escape
from core.markup.limits import (
    BODY_LIMIT,
    DESCRIPTION_LIMIT,
    MEMO_CHARACTERS,
    NEWS_LIMIT,
    RENDER_LIMIT,
    SUMMARY_LIMIT,
    text_limit,
)
from core.markup.media import (
    register_media_resolver,
    unregister_media_resolver,
    with_media,
    without_media,
)
from core.markup.memo import Memo
from core.markup.sanitizer import ALLOWED_TAGS, PAGE_TAGS, image_hosts, sanitize_html
from core.markup.scripts import detect_language, mostly_cjk_language
from core.markup.videos import VIDEO_HOSTS
from core.markup.writer import Rendered, Writer

# What the rest of the site imports from here; the modules beside this one are the
# renderer's own.
__all__ = [
    "BODY_LIMIT",
    "DESCRIPTION_LIMIT",
    "MARKDOWN_HELP",
    "NEWS_LIMIT",
    "PAGE_TAGS",
    "SUMMARY_LIMIT",
    "VIDEO_HOSTS",
    "detect_language",
    "forget_rendered",
    "image_hosts",
    "is_markdown_field",
    "markdown_problems",
    "mostly_cjk_language",
    "register_media_resolver",
    "render_inline_markdown",
    "render_markdown",
    "render_markdown_without_media",
    "render_page_markdown",
    "sanitize_html",
    "text_limit",
    "unregister_media_resolver",
]

# What a Markdown field's form says under it (a page's, a post's, a theme's body, a bio…).
MARKDOWN_HELP = (
    "Markdown: ## a heading, **bold**, [a link](https://…), - a list, | a | table |, "
    "```python for code, $x^2$ for math, ![alt](media:NAME) or an image from an allowed "
    "host, a YouTube, Vimeo or Bilibili address on its own line for a video. "
    "Scripts and other HTML are removed."
)


def is_markdown_field(field) -> bool:
    """Whether a model field holds Markdown: its help says so (every Markdown field's does,
    most through MARKDOWN_HELP)."""
    return "Markdown" in str(getattr(field, "help_text", ""))


# The memo of rendered texts, and the renderers -------------------------------------------

_memo = Memo(MEMO_CHARACTERS)


def forget_rendered() -> None:
    """Empty the memo (tests, or after a change of settings such as the allowed hosts)."""
    _memo.clear()


def _render(text: str, page: bool, inline: bool = False) -> Rendered:
    """The text written and sanitised, from the memo when it holds it: its media
    references are still markers (each render resolves them, see media.py)."""
    key = (text, page, inline, translation.get_language())
    found = _memo.get(key)
    if found is None:
        shown = text[:RENDER_LIMIT]
        writer = Writer(source=shown, first_heading=2 if page else 3, toc=page, blocks=not inline)
        found = writer.write()
        if len(text) > RENDER_LIMIT:
            note = gettext(
                "The rest of this text (%(count)s more characters) is not shown: it is longer "
                "than a text here may be. An editor can shorten it."
            ) % {"count": len(text) - RENDER_LIMIT}
            found.html += f"<p><em>{escape(note)}</em></p>"
            found.problems.append(note)
        found.html = sanitize_html(found.html, PAGE_TAGS if page else ALLOWED_TAGS)
        _memo.put(key, found)
    return found


def render_markdown(text):
    """Markdown rendered to sanitized, page-safe HTML; its headings start at h3."""
    if not text:
        return mark_safe("")
    return mark_safe(with_media(_render(str(text), page=False)))


def render_markdown_without_media(text):
    """render_markdown with its media references left out, for what holds no images (a
    page's description): none is looked up in the library."""
    if not text:
        return mark_safe("")
    return mark_safe(without_media(_render(str(text), page=False).html))


def render_page_markdown(text):
    """render_markdown for the body of a page of its own: headings start at h2, and a table
    of contents heads a body with TOC_MIN_HEADINGS (headings.py) headings or more."""
    if not text:
        return mark_safe("")
    return mark_safe(with_media(_render(str(text), page=True)))


def render_inline_markdown(text):
    """Like render_markdown for one-line text (a news item): no wrapping paragraph, and no
    player or figure made of a lone address or image (the line sits in running text)."""
    if not text:
        return mark_safe("")
    html = with_media(_render(str(text), page=False, inline=True)).strip()
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
    with_media(rendered, problems)
    return problems
