"""Sitemap sections: every public page that has its own address."""

from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from people.models import Person
from publications.models import Publication
from talks.models import Talk


class StaticSitemap(Sitemap):
    def items(self):
        return ["home", "people:team", "publications:list", "talks:list", "talks:awards", "news"]

    def location(self, item):
        return reverse(item)


class PersonSitemap(Sitemap):
    def items(self):
        return Person.objects.published().order_by("slug")


class PublicationSitemap(Sitemap):
    def items(self):
        return Publication.objects.public().order_by("pk")

    def lastmod(self, publication):
        return publication.updated


class TalkSitemap(Sitemap):
    def items(self):
        """Talks with a page worth visiting (more than the line the list shows)."""
        return [t for t in Talk.objects.published().for_listing().order_by("pk") if t.has_page]


SITEMAPS = {
    "pages": StaticSitemap,
    "people": PersonSitemap,
    "publications": PublicationSitemap,
    "talks": TalkSitemap,
}
