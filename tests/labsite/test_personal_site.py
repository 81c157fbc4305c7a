"""PERSONAL_SITE: a lab of one, whose member's profile is the home page."""

import re

import bibtexparser
import feedparser
import pytest

from labsite.static_site import export_static
from people.models import Person
from publications.models import Publication
from tests.labsite.test_static_site import crawl
from tests.sitemaps import whole_sitemap

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
    sitemap = whole_sitemap(client)
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


def _owner_papers():
    return set(
        Publication.objects.filter(authorships__person__slug="teng-ma").values_list(
            "slug", flat=True
        )
    )


def _body(response):
    return b"".join(response).decode() if response.streaming else response.content.decode()


def test_lists_exports_and_the_feed_hold_only_the_owners_papers(client):
    mine = _owner_papers()
    others = set(Publication.objects.values_list("slug", flat=True)) - mine
    assert mine and others  # the demo lab has papers he did not write

    listed = set(
        re.findall(
            r'<li class="pub" id="pub-([^"]+)"', client.get("/publications/").content.decode()
        )
    )
    assert listed and listed <= mine
    searched = client.get("/publications/?q=memory").content.decode()
    assert set(re.findall(r'id="pub-([^"]+)"', searched)) <= mine
    bib = bibtexparser.parse_string(_body(client.get("/publications/export.bib"))).entries
    assert len(bib) == len(listed)
    ris = _body(client.get("/publications/export.ris"))
    assert ris.count("ER  -") == len(listed)
    csl = __import__("json").loads(_body(client.get("/publications/export.json")))
    assert len(csl) == len(listed)
    feed = feedparser.parse(client.get("/publications/feed/").content)
    assert feed.entries and {e.link.rstrip("/").rsplit("/", 1)[1] for e in feed.entries} <= mine
    for slug in list(others)[:3]:
        assert client.get(f"/publications/{slug}/").status_code == 404


def test_talks_awards_news_and_the_sitemap_are_about_the_owner_alone(client):
    from people.models import NewsItem
    from talks.models import Award, Talk

    owner = Person.objects.get(slug="teng-ma")
    other = Person.objects.exclude(pk=owner.pk).filter(is_published=True).first()
    assert Talk.objects.exclude(speakers__person=owner).exists()
    assert NewsItem.objects.exclude(person=owner).exists()

    assert set(Talk.objects.published()) == set(
        Talk.objects.filter(is_published=True, speakers__person=owner)
    )
    assert set(Award.objects.published()) == set(
        Award.objects.filter(is_published=True, recipients__person=owner)
    )
    assert all(item.person == owner for item in NewsItem.objects.published())
    talks = client.get("/talks/").content.decode()
    for talk in Talk.objects.exclude(speakers__person=owner)[:5]:
        assert f"/talks/{talk.slug}/" not in talks
    news = feedparser.parse(client.get("/news/feed/").content)
    texts = set(NewsItem.objects.filter(person=owner).values_list("text_en", flat=True))
    assert all(any(e.title[:20] in t for t in texts) for e in news.entries)
    assert client.get(f"/people/{other.slug}/").status_code == 404
    sitemap = whole_sitemap(client)
    assert f"/people/{other.slug}/" not in sitemap
    papers = set(re.findall(r"<loc>http://testserver/publications/([^/<]+)/</loc>", sitemap))
    assert papers and papers <= _owner_papers()
    assert f'href="/people/{other.slug}/"' not in client.get("/").content.decode()


def test_a_lab_site_still_shows_the_whole_lab(client, settings):
    settings.PERSONAL_SITE = ""
    assert (
        Publication.objects.published().count()
        == Publication.objects.filter(is_published=True).count()
    )
    assert Person.objects.exclude(slug="teng-ma").filter(is_published=True).first().has_page
