"""Sitemap sections: every public page that has its own address."""

from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from people.models import Person


class StaticSitemap(Sitemap):
    def items(self):
        return ["home", "people:team", "news"]

    def location(self, item):
        return reverse(item)


class PersonSitemap(Sitemap):
    def items(self):
        return Person.objects.published().order_by("slug")


SITEMAPS = {"pages": StaticSitemap, "people": PersonSitemap}
