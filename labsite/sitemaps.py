"""Sitemap sections: every public page that has its own address."""

from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from people.models import Person
from publications.models import Publication


class StaticSitemap(Sitemap):
    def items(self):
        return ["home", "people:team", "publications:list", "news"]

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


SITEMAPS = {"pages": StaticSitemap, "people": PersonSitemap, "publications": PublicationSitemap}
