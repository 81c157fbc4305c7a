"""Template filters shared by every app: Markdown, partial dates, bilingual names."""

from html import unescape
from urllib.parse import urlsplit

from django import template
from django.conf import settings
from django.utils.html import format_html, strip_tags

from core import languages, markup, weblinks
from core.partial_dates import format_range

register = template.Library()


@register.filter
def markdown(text):
    return markup.render_markdown(text)


@register.filter
def page_markdown(text):
    return markup.render_page_markdown(text)


@register.filter
def plain_text(html):
    """The text of rendered HTML, as plain text (tags dropped, "&amp;" read as "&") and no
    longer marked safe, so the template escapes it for where it goes: a `content="…"`
    attribute gets its quotes escaped, which striptags on safe HTML leaves as they are."""
    return unescape(strip_tags(str(html or "")))


@register.filter
def markdown_text(text):
    """The words of a Markdown text as plain text (see plain_text), for a page's description:
    its images left out, so that none is looked up for it."""
    return plain_text(markup.render_markdown_without_media(text))


@register.filter
def inline_markdown(text):
    return markup.render_inline_markdown(text)


@register.filter
def script_lang(text):
    """lang attribute value for a short text: "zh" for "AICon 全球人工智能开发与应用大会"."""
    return markup.detect_language(text or "")


@register.filter
def partial_date(value):
    """<time datetime="2026-06">Jun 2026</time>, or nothing for an empty date."""
    if not value:
        return ""
    return format_html('<time datetime="{}">{}</time>', value.isoformat(), str(value))


@register.simple_tag
def date_range(start, end, open_end=None):
    return format_range(start, end, open_end=open_end)


@register.simple_tag
def bilingual_name(person):
    """ "Teng Ma / 马腾", the native part marked with its language for font choice."""
    if not person.native_name:
        return person.name
    return format_html(
        '{} <span class="name-sep" aria-hidden="true">/</span> <span lang="{}">{}</span>',
        person.name,
        person.native_name_lang or "und",
        person.native_name,
    )


@register.filter
def web_url(value):
    """The link itself when it is http(s), else "": the last guard before an href."""
    return weblinks.web_url_or_empty(value)


@register.filter
def site_or_web_url(value):
    """An http(s) link as it is, a path on the site as the page's language has it
    ("/join-us/" on a Chinese page: "/zh-hans/join-us/"), anything else ""."""
    return weblinks.site_or_web_url(value)


@register.simple_tag(takes_context=True)
def absolute_url(context, url):
    """`url` as an address any reader can follow: as it is when it names its host (a file
    on object storage), else on this site's host (a path)."""
    if urlsplit(url or "").netloc:
        return url
    return context["request"].build_absolute_uri(url)


@register.filter
def language_tag(code):
    """`lang="{{ LANGUAGE_CODE|language_tag }}"`: "zh-hans" → "zh-Hans"."""
    return languages.language_tag(code or settings.LANGUAGE_CODE)


@register.filter
def fallback_lang(obj, name):
    """` lang="en"` when `obj.<name>`, a text kept in two languages, is shown in the other
    language because the page's own is empty; else nothing (the page's `lang` holds). A
    text written in Chinese characters in the English column is marked by its script."""
    shown = languages.shown_language(obj, name)
    if shown is None:
        return ""
    tag = languages.language_tag(shown)
    script = markup.mostly_cjk_language(getattr(obj, name))
    if script and not tag.startswith(script):
        tag = script
    page = languages.language_tag(languages.active_language())
    if tag.split("-")[0] == page.split("-")[0]:
        return ""
    return format_html(' lang="{}"', tag)
