"""PERSONAL_SITE: a lab of one, whose member's profile is the home page."""

import re

import bibtexparser
import feedparser
import pytest

from labsite.static_site import export_static
from people.models import Person
from publications.models import Publication
from tests.labsite.test_static_site import crawl

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo")]


@pytest.fixture(autouse=True)
def personal_site(settings):
    settings.PERSONAL_SITE = "teng-ma"


def test_the_home_page_is_the_members_profile_and_the_team_page_is_gone(client):
    home = client.get("/")
    page = home.content.decode()

    assert home.status_code == 200
    assert '<h1 class="profile-name">' in page and "Teng Ma" in page
    assert 'id="publications"' in page
    menu = re.search(r'<nav class="site-nav".*?</nav>', page, re.S)[0]
    assert 'href="/people/"' not in menu and 'href="/people/teng-ma/cv/"' in menu
    assert client.get("/people/").url == "/"
    moved = client.get("/people/teng-ma/?kind=journal")
    assert (moved.status_code, moved.url) == (301, "/?kind=journal")
    assert client.get("/?kind=journal").status_code == 200  # the profile's own filters
    assert '<link rel="canonical" href="http://testserver/">' in page


def test_every_link_to_the_member_leads_home(client):
    paper = Publication.objects.published().filter(authorships__person__slug="teng-ma").first()
    page = client.get(paper.get_absolute_url()).content.decode()

    assert 'href="/people/teng-ma/"' not in page
    assert Person.objects.get(slug="teng-ma").get_absolute_url() == "/"
    sitemap = client.get("/sitemap.xml").content.decode()
    assert "<loc>http://testserver/</loc>" in sitemap
    assert "/people/</loc>" not in sitemap and "/people/teng-ma/</loc>" not in sitemap


def test_exports_feeds_cv_and_admin_still_work(client, admin_client):
    mine = client.get("/people/teng-ma/publications.bib")
    entries = bibtexparser.parse_string(
        b"".join(mine).decode() if mine.streaming else mine.content.decode()
    ).entries
    assert (
        entries
        and len(entries)
        == Publication.objects.published().for_person(Person.objects.get(slug="teng-ma")).count()
    )
    assert client.get("/publications/export.bib").status_code == 200
    feed = feedparser.parse(client.get("/publications/feed/").content)
    assert feed.entries and not feed.bozo
    assert client.get("/people/teng-ma/cv/").status_code == 200
    assert admin_client.get("/admin/").status_code == 200


def test_the_static_copy_of_a_personal_site_is_whole(tmp_path):
    export_static(tmp_path, "http://testserver/")

    found, missing = crawl(tmp_path)
    assert missing == [] and "/people/teng-ma/cv/" in found
    assert "Teng Ma" in (tmp_path / "index.html").read_text()
    assert not (tmp_path / "people/index.html").exists()
    assert (tmp_path / "people/teng-ma/cv.pdf").read_bytes().startswith(b"%PDF")
