"""The sitemap, through Django's sitemaps framework: an index (/sitemap.xml) naming one
sitemap for the sections' lists and one for each public section of the registry
(lab/sections.py), each paginated at the protocol's 50,000 addresses. Every page is listed
once per language, naming the others as `hreflang` alternates and English as the default,
with its last change and featured image.

The framework reverses an address four times for each entry (its language, each alternate,
the default); here `paths` reverses each kind of page once per language and puts a row's
slug in its place, which is what made the hand-written sitemap fast (bench/sitemap.py). The
index reads no row (a COUNT and a MAX a section), and each page reads only its own rows.
"""

import datetime
import itertools
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.contrib.sitemaps import views as sitemap_views
from django.core.paginator import Paginator
from django.db.models import Count, F, Max, OuterRef, Q, Subquery
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
    return section.rows.public_rows()


def _latest(changes):
    """The latest of `changes` as the framework's `Sitemap.get_latest_lastmod` gives it:
    None when there is none or when any row has no date (then no Last-Modified is sent)."""
    changes = list(changes)
    if not changes or None in changes:
        return None
    return max(changes)


class _QueriedRows:
    """A section's rows that have pages, read from one query in SQL: the index counts and
    dates them with an aggregate each, and a page reads only its own window of rows and only
    the columns its entries need (slug, last change, featured image).

    `listed`: the public rows; `changed`: the expression of a row's last change; `field`:
    the column that names a row in its address. The rows keep `listed`'s order, with the
    primary key last so that a window of them is the same on every read."""

    def __init__(self, listed, changed, field="slug", order=None):
        model = listed.model
        order = order or listed.query.order_by or model._meta.ordering
        self.listed = listed.annotate(changed=changed).order_by(*order, "pk")
        self.imaged = any(f.name == "featured_image" for f in model._meta.fields)
        image = _IMAGE_COLUMNS if self.imaged else ()
        self.values = self.listed.values_list(field, "changed", *image)

    def count(self):
        """How many rows (one COUNT query)."""
        return self.listed.count()

    def exists(self):
        """Whether there is any row (one query)."""
        return self.listed.exists()

    def latest(self):
        """When the latest row last changed, None if some row has no date (one query)."""
        found = self.listed.aggregate(
            latest=Max("changed"), undated=Count("pk", filter=Q(changed__isnull=True))
        )
        return None if found["undated"] else found["latest"]

    def __getitem__(self, window):
        """The Rows of a slice of the rows (one query)."""
        if self.imaged:
            found = self.values[window]
            return [Row(slug, when, _image(name, width)) for slug, when, name, width in found]
        return [Row(slug, when) for slug, when in self.values[window]]


class _ListedRows:
    """A section's rows that are picked in Python (talks worth a page), read whole once; the
    same interface as `_QueriedRows`."""

    def __init__(self, read):
        self._read = read
        self._rows = None

    @property
    def rows(self):
        if self._rows is None:
            self._rows = self._read()
        return self._rows

    def count(self):
        return len(self.rows)

    def exists(self):
        return bool(self.rows)

    def latest(self):
        return _latest(row.changed for row in self.rows)

    def __getitem__(self, window):
        return self.rows[window]


def _people():
    people = Person.objects.published().exclude(slug=settings.PERSONAL_SITE or None)
    return _QueriedRows(people, _last_changed(Person), order=["slug"])


def _publications():
    papers = Publication.objects.published()
    return _QueriedRows(papers, F("updated"), order=["pk"])


def _talks():
    """Talks with a page worth visiting (more than the line the list shows)."""

    def read():
        talks = Talk.objects.published().for_listing().annotate(changed=_last_changed(Talk))
        shown = [t for t in talks.select_related("featured_image").order_by("pk") if t.has_page]
        return [
            Row(t.slug, t.changed, t.featured_image.share_image.url if t.featured_image else None)
            for t in shown
        ]

    return _ListedRows(read)


def _public_rows(listed, **how):
    return _QueriedRows(listed, _last_changed(listed.model), **how)


# Sections whose rows the sitemap reads otherwise than from their public rows, by slug.
_ROWS = {
    "people": _people,
    "publications": _publications,
    "talks": _talks,
    "tags": lambda: _public_rows(tags_in_use()),
    # the lab's own pages (/join-us/), by address
    "pages": lambda: _public_rows(Page.objects.published(), field="address", order=["address"]),
}


def section_rows(section):
    """The rows of `section` that have a page of their own, in the sitemap's order: counted,
    dated and read by window (`_QueriedRows`)."""
    read = _ROWS.get(section.key)
    return read() if read else _public_rows(_public(section))


class _InLanguages:
    """A section's rows, each once per language, as the framework's paginator takes them:
    counted without reading a row, and sliced by reading only the rows of the slice."""

    def __init__(self, rows, languages):
        self.rows = rows
        self.languages = languages

    def count(self):
        return self.rows.count() * len(self.languages)

    def __getitem__(self, window):
        each = len(self.languages)
        start, stop = window.start or 0, window.stop
        first = start // each
        rows = self.rows[first : -(-stop // each)]  # the rows the slice touches
        return _Window(rows, self.languages, start - first * each, stop - start)


class _Window:
    """A page's (row, language) pairs, made as they are read rather than kept: `length` of
    them from the `skip`th pair of `rows` in `languages`."""

    def __init__(self, rows, languages, skip, length):
        self.rows, self.languages = rows, languages
        self.skip, self.length = skip, min(length, len(rows) * len(languages) - skip)

    def __len__(self):
        return self.length

    def __iter__(self):
        pairs = ((row, language) for row in self.rows for language in self.languages)
        return itertools.islice(pairs, self.skip, self.skip + self.length)


class _I18nSitemap(Sitemap):
    """Each entry once per language, the others as alternates, English as the default.

    The framework's own entries (`Sitemap._urls`) reverse each address four times, each
    in a language switched on for it, and its template spells out every alternate: at
    10,000 papers that was 17x the sitemap written by hand (bench/sitemap.py). Here
    `paths` gives a row's address in every language at once, and a row's entries are
    written as the template would, once, into one piece of XML for the page; the
    framework keeps the pagination, the index, the views and the Last-Modified header.

    The page is one string rather than an entry object each (the framework's dicts): at
    20,000 entries those objects, each one the garbage collector tracks, set off a full
    collection of the process's objects on every page, which took longer than writing
    the page (bench/sitemap.py)."""

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
        written, latest, dated = [], None, True
        shown = None  # (item, its paths, what follows its <loc>): a row's entries share it
        for item, language in self.paginator.page(page).object_list:
            if shown is None or shown[0] is not item:
                changed = getattr(item, "changed", None)
                dated = dated and changed is not None
                if dated and (latest is None or changed > latest):
                    latest = changed
                paths = self.paths(item)
                xml = [f"<lastmod>{_day(changed, zone)}</lastmod>"] if changed else []
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
                shown = (item, paths, "".join(xml))
            written.append(f"<url><loc>{base}{shown[1][language]}</loc>{shown[2]}")
        if dated and latest:
            self.latest_lastmod = latest
        return [mark_safe("".join(written))]  # every part escaped above


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
            if (section.menu and section.menu.shown) or section_rows(section).exists():
                names.append(section.list_url)
        return names

    def paths(self, item):
        return _in_languages(lambda: reverse(item))


class SectionSitemap(_I18nSitemap):
    """The pages of one section's rows. The index reads no row of it (a COUNT for its
    pages, a MAX for its last change) and each of its pages reads only that page's rows."""

    def __init__(self, section):
        self.section = section
        self._patterns = {}
        self._rows = None

    @property
    def rows(self):
        if self._rows is None:
            self._rows = section_rows(self.section)
        return self._rows

    def items(self):
        return self.rows[:]

    @property
    def paginator(self):
        return Paginator(_InLanguages(self.rows, self._languages()), self.limit)

    def get_latest_lastmod(self):
        return self.rows.latest()

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
