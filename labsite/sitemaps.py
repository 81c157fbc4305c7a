"""The sitemap: every public page that has its own address, once per language
(/people/teng-ma/, /zh-hans/people/teng-ma/), each entry naming the others as `hreflang`
alternates and English as the default, in the sitemaps protocol's XML.

Written directly rather than through Django's sitemaps framework, which reverses every
address four times (each language, the alternates, the default) and renders a template per
entry: at 10,000 papers that took 2.5 s, 806× the team page. Here each kind of page is
reversed once per language and every address is that pattern with the page's slug in it.
"""

import datetime

from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import escape

from labsite.pages.tags import tags_in_use
from media.models import MediaItem
from people.models import Person
from publications.models import Publication
from talks.models import Talk
from website.models import Course, Opening, Page, Post, Theme

_SLUG = "sitemap-slug-placeholder"


def _last_changed(model):
    """An annotation: when a row last changed, read from its history (one subquery)."""
    history = model.history.model.objects.filter(id=OuterRef("pk")).order_by("-history_date")
    return Subquery(history.values("history_date")[:1])


def _day(value):
    """A lastmod as the protocol's date, in the site's time zone (as Django's sitemaps give it)."""
    if isinstance(value, datetime.datetime):
        value = timezone.localtime(value) if timezone.is_aware(value) else value
        return value.date().isoformat()
    return value.isoformat() if value else ""


def _in_languages(address):
    """{language: the page's address in it}, `address()` called with each one active."""
    paths = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            paths[language] = escape(address())
    return paths


def _by_slug(view, rows, kwarg="slug"):
    """({language: address}, lastmod, image) for every (slug, changed[, image]) row: the
    view's address reversed once per language, each slug put in its place (a slug needs no
    escaping)."""
    patterns = _in_languages(lambda: reverse(view, kwargs={kwarg: _SLUG}))
    for slug, changed, *image in rows:
        paths = {language: path.replace(_SLUG, slug) for language, path in patterns.items()}
        yield paths, changed, (image or [None])[0]


_IMAGE_COLUMNS = ("featured_image__image", "featured_image__width")


def _featured(rows):
    """(slug, changed, the featured image's address or None) for (slug, changed, image
    name, image width) rows: the address worked out from the name, as a page does."""
    return [
        (slug, changed, MediaItem(image=name, width=width).share_image.url if name else None)
        for slug, changed, name, width in rows
    ]


def pages():
    """Every page with its own address, as ({language: address}, lastmod)."""
    team = [] if settings.PERSONAL_SITE else ["people:team"]
    for name in ["home", *team, "publications:list", "talks:list", "talks:awards", "news"]:
        yield _in_languages(lambda name=name: reverse(name)), None, None
    people = Person.objects.published().exclude(slug=settings.PERSONAL_SITE or None)
    people = people.annotate(changed=_last_changed(Person)).order_by("slug")
    yield from _by_slug("people:detail", people.values_list("slug", "changed"))
    papers = Publication.objects.published().order_by("pk")
    papers = papers.values_list("slug", "updated", *_IMAGE_COLUMNS)
    yield from _by_slug("publications:detail", _featured(papers))
    talks = Talk.objects.published().for_listing().annotate(changed=_last_changed(Talk))
    # talks with a page worth visiting (more than the line the list shows)
    shown = [t for t in talks.select_related("featured_image").order_by("pk") if t.has_page]
    rows = [(t.slug, t.changed, t.featured_image) for t in shown]
    yield from _by_slug(
        "talks:detail", [(s, c, i.share_image.url if i else None) for s, c, i in rows]
    )
    own = Page.objects.published().annotate(changed=_last_changed(Page)).order_by("address")
    yield from _by_slug("website:page", own.values_list("address", "changed"), kwarg="address")
    yield from _list_and_pages(tags_in_use(), "tags")
    for listed, namespace in [
        (Post.objects.published(), "posts"),
        # open openings only: search engines drop a job posting once it has closed
        (Opening.objects.open(), "openings"),
        (Theme.objects.published(), "themes"),
        (Course.objects.published(), "teaching"),
    ]:
        yield from _list_and_pages(listed, namespace)


def _list_and_pages(listed, namespace):
    """A section's list (when it lists anything: a lab that writes no posts has no posts
    page to offer) and a page for each row listed, with its featured image if it takes one."""
    listed = listed.annotate(changed=_last_changed(listed.model))
    if any(field.name == "featured_image" for field in listed.model._meta.fields):
        rows = _featured(listed.values_list("slug", "changed", *_IMAGE_COLUMNS))
    else:
        rows = list(listed.values_list("slug", "changed"))
    if rows:
        yield _in_languages(lambda: reverse(f"{namespace}:list")), None, None
    yield from _by_slug(f"{namespace}:detail", rows)


def sitemap(request):
    """The whole sitemap, each page once per language with its alternates."""
    base = escape(f"{request.scheme}://{request.get_host()}")
    languages = [code for code, _name in settings.LANGUAGES]
    default = settings.LANGUAGE_CODE
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml" '
        'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n'
    ]
    for paths, changed, image in pages():
        links = "".join(
            f'<xhtml:link rel="alternate" hreflang="{language}" href="{base}{paths[language]}"/>'
            for language in languages
        )
        links += f'<xhtml:link rel="alternate" hreflang="x-default" href="{base}{paths[default]}"/>'
        lastmod = f"<lastmod>{_day(changed)}</lastmod>" if changed else ""
        if image:  # the featured image, named for image search
            location = image if "://" in image else f"{base}{escape(image)}"
            links += f"<image:image><image:loc>{location}</image:loc></image:image>"
        out += [
            f"<url><loc>{base}{paths[language]}</loc>{lastmod}{links}</url>"
            for language in languages
        ]
    out.append("\n</urlset>\n")
    return HttpResponse("".join(out), content_type="application/xml")
