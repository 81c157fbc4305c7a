"""The sitemap, through Django's sitemaps framework: an index (/sitemap.xml) naming one
sitemap for the sections' lists and one for each public section of the registry
(lab/sections.py), each paginated at the protocol's 50,000 addresses. Every page is listed
once per language, naming the others as `hreflang` alternates and English as the default,
with its last change and featured image.

The framework reverses an address four times for each entry (its language, each alternate,
the default); here `location` reverses each kind of page once per language and puts a row's
slug in its place, which is what made the hand-written sitemap fast (bench/sitemap.py).
"""

import datetime
from typing import Any, NamedTuple

from django.apps import apps
from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.contrib.sitemaps import views as sitemap_views
from django.db.models import OuterRef, Subquery
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.safestring import mark_safe

from core import queries
from lab import sections
from labsite.pages.tags import tags_in_use
from media.models import MediaItem
from people.models import Person
from publications.models import Publication
from talks.models import Talk
from website.models import Page

_SLUG = "sitemap-slug-placeholder"
_IMAGE_COLUMNS = ("featured_image__image", "featured_image__width")


class Row(NamedTuple):
    """One page of a section: its slug, when it last changed, its featured image's address."""

    slug: str
    changed: Any = None
    image: str | None = None


def _last_changed(model):
    """An annotation: when a row last changed, read from its history (one subquery)."""
    history = model.history.model.objects.filter(id=OuterRef("pk")).order_by("-history_date")
    return Subquery(history.values("history_date")[:1])


def _day(value, zone):
    """A lastmod as the protocol's date, in the site's time zone `zone` (as Django's
    sitemaps give it)."""
    if isinstance(value, datetime.datetime):
        value = value.astimezone(zone) if timezone.is_aware(value) else value
        return value.date().isoformat()
    return value.isoformat()


def _in_languages(address):
    """{language: the page's address in it}, `address()` called with each one active."""
    paths = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            paths[language] = escape(address())
    return paths


def _image(name, width):
    """A featured image's address, worked out from its name as a page does."""
    return MediaItem(image=name, width=width).share_image.url if name else None


def _public(section):
    """The section's public rows, by the rule the registry names for it."""
    model = apps.get_model(section.rows.model)
    return getattr(model.objects, section.rows.public)()


def _rows(listed, order=None, field="slug"):
    """Rows of a queryset: slug, last change from history, featured image if it takes one."""
    listed = listed.annotate(changed=_last_changed(listed.model))
    if order:
        listed = listed.order_by(order)
    if any(f.name == "featured_image" for f in listed.model._meta.fields):
        found = listed.values_list(field, "changed", *_IMAGE_COLUMNS)
        return [Row(slug, changed, _image(name, width)) for slug, changed, name, width in found]
    return [Row(slug, changed) for slug, changed in listed.values_list(field, "changed")]


def _people():
    people = Person.objects.published().exclude(slug=settings.PERSONAL_SITE or None)
    return _rows(people, order="slug")


def _publications():
    papers = Publication.objects.published().order_by("pk")
    found = papers.values_list("slug", "updated", *_IMAGE_COLUMNS)
    return [Row(slug, updated, _image(name, width)) for slug, updated, name, width in found]


def _talks():
    """Talks with a page worth visiting (more than the line the list shows)."""
    talks = Talk.objects.published().for_listing().annotate(changed=_last_changed(Talk))
    shown = [t for t in talks.select_related("featured_image").order_by("pk") if t.has_page]
    return [
        Row(t.slug, t.changed, t.featured_image.share_image.url if t.featured_image else None)
        for t in shown
    ]


def _own_pages():
    """The lab's own pages (/join-us/), by address."""
    return _rows(Page.objects.published(), order="address", field="address")


# Sections whose rows the sitemap reads otherwise than `_rows(public rows)`.
_ROWS = {
    "people": _people,
    "publications": _publications,
    "talks": _talks,
    "tags": lambda: _rows(tags_in_use()),
    "pages": _own_pages,
}


def section_rows(section):
    """The rows of `section` that have a page of their own, in the sitemap's order."""
    read = _ROWS.get(section.key)
    return read() if read else _rows(_public(section))


class _Entry(dict):
    """A sitemap entry as the framework gives it (item, location, lastmod) and its XML,
    written once: the template joins the entries (`__html__`), with no loop of its own."""

    def __html__(self):
        return self["xml"]


class _I18nSitemap(Sitemap):
    """Each entry once per language, the others as alternates, English as the default.

    The framework's own entries (`Sitemap._urls`) reverse each address four times, each
    in a language switched on for it, and its template spells out every alternate: at
    10,000 papers that was 17x the sitemap written by hand (bench/sitemap.py). Here
    `paths` gives a row's address in every language at once, and each entry is written
    as the template would, once; the framework keeps the pagination, the index, the
    views and the Last-Modified header."""

    i18n = True
    alternates = True
    x_default = True

    def paths(self, item):
        """{language: the item's address in it}."""
        raise NotImplementedError

    def get_urls(self, page=1, site=None, protocol=None):
        base = escape(f"{self.get_protocol(protocol)}://{self.get_domain(site)}")
        default = settings.LANGUAGE_CODE
        zone = timezone.get_current_timezone()  # read once: it is a thread-local lookup
        urls, latest, dated = [], None, True
        for item, language in self.paginator.page(page).object_list:
            paths = self.paths(item)
            changed = getattr(item, "changed", None)
            dated = dated and changed is not None
            if dated and (latest is None or changed > latest):
                latest = changed
            xml = [f"<url><loc>{base}{paths[language]}</loc>"]
            if changed:
                xml.append(f"<lastmod>{_day(changed, zone)}</lastmod>")
            alternates = [*paths.items(), ("x-default", paths[default])]
            xml += [
                f'<xhtml:link rel="alternate" hreflang="{code}" href="{base}{path}"/>'
                for code, path in alternates
            ]
            image = getattr(item, "image", None)
            if image:  # the featured image, named for image search
                location = escape(image if "://" in image else f"{base}{image}")
                xml.append(f"<image:image><image:loc>{location}</image:loc></image:image>")
            xml.append("</url>")
            location = f"{base}{paths[language]}"
            entry = _Entry(item=(item, language), location=location, lastmod=changed)
            entry["xml"] = mark_safe("".join(xml))  # escaped above
            urls.append(entry)
        if dated and latest:
            self.latest_lastmod = latest
        return urls


class ListsSitemap(_I18nSitemap):
    """The home and each section's list: those every lab has always; the others (posts,
    openings, research, teaching, tags) when they list anything, as a lab that writes no
    posts has no posts page to offer."""

    def items(self):
        names = ["home"]
        for section in sections.SECTIONS:
            if not section.list_url:
                continue
            if section.key == "people" and settings.PERSONAL_SITE:
                continue  # a personal site has no team page
            if (section.menu and section.menu.shown) or section_rows(section):
                names.append(section.list_url)
        return names

    def paths(self, item):
        return _in_languages(lambda: reverse(item))


class SectionSitemap(_I18nSitemap):
    """The pages of one section's rows."""

    def __init__(self, section):
        self.section = section
        self._patterns = {}
        self._rows = None

    def items(self):
        if self._rows is None:  # read once for the index's count and for its pages
            self._rows = section_rows(self.section)
        return self._rows

    def paths(self, item):
        # each kind of address reversed once per language, the row's slug put in its
        # place (a slug needs no escaping)
        if not self._patterns:
            section = self.section
            slug = {section.detail_kwarg: _SLUG}
            self._patterns = _in_languages(lambda: reverse(section.detail_url, kwargs=slug))
        return {code: path.replace(_SLUG, item.slug) for code, path in self._patterns.items()}

    def lastmod(self, item):
        return item.changed


def sitemaps():
    """{name: sitemap class} for the index: the lists, then each section with pages of its
    own (lab/sections.py), in the registry's order."""
    found: dict[str, Any] = {"lists": ListsSitemap}
    for section in sections.SECTIONS:
        if section.detail_url:
            found[section.key] = lambda section=section: SectionSitemap(section)
    return found


SITEMAPS = sitemaps()


def index(request):
    """/sitemap.xml: the sitemaps of the site, each page of each."""
    return sitemap_views.index(
        request,
        SITEMAPS,
        template_name="labsite/sitemap_index.xml",
        sitemap_url_name="sitemap-section",
    )


def sitemap(request, section):
    """/sitemap-<section>.xml[?p=2]: one sitemap of the index."""
    return sitemap_views.sitemap(
        request, SITEMAPS, section=section, template_name="labsite/sitemap.xml"
    )


# What the page cache keys a sitemap's page on: its page number, if a whole number from 1
# (any other value redirects to the first page).
sitemap.canonical_query = lambda params: queries.encode(  # type: ignore[attr-defined]
    [("p", queries.page_number(params.get("p", "")))]
)
