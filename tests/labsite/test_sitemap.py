"""The sitemap: an index of one sitemap per public section, each paginated."""

import re

import pytest

from lab import sections
from labsite.sitemaps import SectionSitemap
from tests import factories
from tests.sitemaps import whole_sitemap

pytestmark = pytest.mark.django_db


def _locs(xml):
    return re.findall(r"<loc>([^<]+)</loc>", xml)


def test_the_index_names_a_sitemap_for_each_section_with_pages_of_its_own(client):
    index = _locs(client.get("/sitemap.xml").content.decode())

    named = {loc.removeprefix("http://testserver/sitemap-").removesuffix(".xml") for loc in index}

    assert "lists" in named
    assert {s.key for s in sections.SECTIONS if s.detail_url} <= named


def test_a_section_past_its_page_size_is_split_into_pages_the_index_names(client, monkeypatch):
    # 50,000 addresses a sitemap in production; three here, so five people (ten addresses,
    # one a language) fill four pages
    monkeypatch.setattr(SectionSitemap, "limit", 3)
    for number in range(5):
        factories.PersonFactory(slug=f"member-{number}")

    index = _locs(client.get("/sitemap.xml").content.decode())
    whole = whole_sitemap(client)

    people = [loc for loc in index if "/sitemap-people.xml" in loc]
    assert people == [
        "http://testserver/sitemap-people.xml",
        *[f"http://testserver/sitemap-people.xml?p={page}" for page in (2, 3, 4)],
    ]
    for number in range(5):
        assert _locs(whole).count(f"http://testserver/people/member-{number}/") == 1
        assert _locs(whole).count(f"http://testserver/zh-hans/people/member-{number}/") == 1
    assert len(_locs(client.get("/sitemap-people.xml?p=4").content.decode())) == 1


@pytest.mark.parametrize("address", ["/sitemap-people.xml?p=5", "/sitemap-nothing.xml"])
def test_a_sitemap_page_that_does_not_exist_is_not_found(client, address):
    factories.PersonFactory()

    assert client.get(address).status_code == 404


def test_a_page_number_that_is_no_number_leads_to_the_first_page(client):
    factories.PersonFactory()

    response = client.get("/sitemap-people.xml?p=x")

    assert response.status_code == 301 and response["Location"] == "/sitemap-people.xml"


def test_each_page_is_listed_once_a_language_with_the_others_as_alternates(client):
    factories.PersonFactory(slug="ada")

    people = client.get("/sitemap-people.xml").content.decode()

    entry = people.split("<url>")[1]
    assert "<loc>http://testserver/people/ada/</loc>" in entry
    assert 'hreflang="zh-hans" href="http://testserver/zh-hans/people/ada/"' in entry
    assert 'hreflang="x-default" href="http://testserver/people/ada/"' in entry
