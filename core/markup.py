"""User-written Markdown turned into sanitized HTML, and plain text made safe for the page."""

import re
import threading
from functools import lru_cache

import markdown
import nh3
from django.utils.safestring import mark_safe

# Block and inline tags a bio or description may use. Page-level headings (h1, h2) and media
# are left out: the page owns its outline, and images go through the photo pipeline instead.
ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "del", "em", "h3", "h4", "h5", "h6", "hr",
    "i", "li", "ol", "p", "pre", "s", "strong", "sub", "sup", "table", "tbody", "td", "th",
    "thead", "tr", "ul",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}, "ol": {"start"}}
URL_SCHEMES = {"http", "https", "mailto"}


# What a Markdown field's form says under it (a page's, a post's, a theme's body).
MARKDOWN_HELP = (
    "Markdown: ## a heading, **bold**, [a link](https://…), - a list. "
    "Scripts and images are removed."
)

# A page of its own (the lab's Join us) has sections: its body's headings start at h2, under
# the page's title.
PAGE_TAGS = ALLOWED_TAGS | {"h2"}


def sanitize_html(html, tags=ALLOWED_TAGS):
    """Keep the allowed tags and safe links of an HTML fragment; drop scripts and handlers."""
    return nh3.clean(
        html,
        tags=tags,
        clean_content_tags={"script", "style"},
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="nofollow noopener",
    )


_converters = threading.local()


def _converter():
    """This thread's Markdown converter. Building one (its extensions and processors) costs
    twice what converting a bio does, and a profile converts a dozen texts; a converter is
    not safe to share between threads."""
    converter = getattr(_converters, "markdown", None)
    if converter is None:
        converter = markdown.Markdown(extensions=["extra", "sane_lists"], output_format="html")
        _converters.markdown = converter
    return converter


def render_markdown(text):
    """Markdown (with tables, footnotes and the like) rendered to sanitized, page-safe HTML."""
    if not text:
        return mark_safe("")
    return _rendered(str(text))


def render_page_markdown(text):
    """render_markdown for the body of a page of its own, whose sections may be h2."""
    if not text:
        return mark_safe("")
    return _rendered(str(text), frozenset(PAGE_TAGS))


@lru_cache(maxsize=2048)
def _rendered(text, tags=frozenset(ALLOWED_TAGS)):
    """`render_markdown` of a text, kept per process: the HTML depends on the text alone,
    and a page shows the same texts (a bio, each project's description) visit after visit,
    so a text is converted again only once it is edited."""
    converter = _converter()
    try:
        html = converter.convert(text)
    finally:
        converter.reset()  # footnotes, abbreviations and references stay with their text
    return mark_safe(sanitize_html(html, tags))


def render_inline_markdown(text):
    """Like render_markdown for one-line text (a news item): no wrapping paragraph."""
    html = str(render_markdown(text)).strip()
    if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        html = html[3:-4]
    return mark_safe(html)


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
