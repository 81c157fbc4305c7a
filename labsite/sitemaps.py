"""Sitemap sections: every public page that has its own address."""

from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.db.models import OuterRef, Subquery
from django.urls import reverse

from people.models import Person
from publications.models import Publication
from talks.models import Talk


class InLanguages(Sitemap):
    """Each page once per language (/people/teng-ma/, /zh-hans/people/teng-ma/), each entry
    naming the others as `hreflang` alternates, English as the default."""

    i18n = True
    alternates = True
    x_default = True


class StaticSitemap(InLanguages):
    def items(self):
        team = [] if settings.PERSONAL_SITE else ["people:team"]
        return ["home", *team, "publications:list", "talks:list", "talks:awards", "news"]

    def location(self, item):
        return reverse(item)


def _last_changed(model):
    """An annotation: when a row last changed, read from its history (one subquery)."""
    history = model.history.model.objects.filter(id=OuterRef("pk")).order_by("-history_date")
    return Subquery(history.values("history_date")[:1])


class PersonSitemap(InLanguages):
    def items(self):
        people = Person.objects.published().exclude(slug=settings.PERSONAL_SITE or None)
        return people.annotate(changed=_last_changed(Person)).order_by("slug")

    def lastmod(self, person):
        return person.changed


class PublicationSitemap(InLanguages):
    def items(self):
        return Publication.objects.published().order_by("pk")

    def lastmod(self, publication):
        return publication.updated


class TalkSitemap(InLanguages):
    def items(self):
        """Talks with a page worth visiting (more than the line the list shows)."""
        talks = Talk.objects.published().for_listing().annotate(changed=_last_changed(Talk))
        return [t for t in talks.order_by("pk") if t.has_page]

    def lastmod(self, talk):
        return talk.changed


SITEMAPS = {
    "pages": StaticSitemap,
    "people": PersonSitemap,
    "publications": PublicationSitemap,
    "talks": TalkSitemap,
}
