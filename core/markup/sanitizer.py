"""The sanitiser every rendered text passes through (nh3, Ammonia): only the allowed tags,
attributes, classes and addresses stay, for the writer's HTML and a text's raw HTML alike."""

import functools
import re
from urllib.parse import urlsplit

import nh3
from django.conf import settings
from pygments.lexers import get_all_lexers
from pygments.token import STANDARD_TYPES

from core.markup.videos import VIDEO_HOSTS

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
# VIDEO_HOSTS of videos.py, which the CSP's frame-src lists alone), so the browser already
# keeps them from the page.
FRAME_ATTRIBUTES = {
    "iframe": {
        "loading": "lazy",
        "referrerpolicy": "strict-origin-when-cross-origin",
        "allow": "fullscreen; picture-in-picture",
    }
}
URL_SCHEMES = {"http", "https", "mailto"}


def image_hosts() -> list[str]:
    """The hosts images in Markdown may come from besides the site's own media:
    settings.MARKDOWN_IMAGE_HOSTS, e.g. ["images.example.org"]."""
    return [host.lower() for host in getattr(settings, "MARKDOWN_IMAGE_HOSTS", [])]


def allowed_image(url: str) -> bool:
    """An image address the site shows: the site's own media, or https on an allowed host."""
    url = url.strip()
    if url.startswith(settings.MEDIA_URL) and ".." not in url:
        return True
    parts = urlsplit(url)
    return parts.scheme == "https" and (parts.hostname or "") in image_hosts()


def _allowed_srcset(value: str) -> bool:
    return all(allowed_image(item.split()[0]) for item in value.split(",") if item.strip())


def _allowed_frame(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme == "https" and parts.hostname in VIDEO_HOSTS


def _attribute_filter(tag: str, attribute: str, value: str) -> str | None:
    """Addresses of images and frames checked against the lists above; the rest as is."""
    if tag == "img" and attribute == "src":
        return value if allowed_image(value) else None
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
