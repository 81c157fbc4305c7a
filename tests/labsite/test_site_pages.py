import io

import feedparser
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connections
from django.test import override_settings
from PIL import Image

from lab.models import LabSettings
from tests import factories
from tests.admin_forms import form_data
from tests.sitemaps import whole_sitemap

pytestmark = pytest.mark.django_db


def test_home_shows_lab_name_about_team_and_latest_news(client):
    lab = LabSettings.load()
    lab.name = "Systems Lab"
    lab.tagline = "We build fast systems."
    lab.about = "We study **memory**."
    lab.save()
    person = factories.PersonFactory(name="Teng Ma", native_name="马腾")
    factories.NewsItemFactory(person=person, text="Paper accepted at [SOSP](https://sosp.org).")

    html = client.get("/").content.decode()

    assert "<h1>Systems Lab</h1>" in html
    assert "We build fast systems." in html
    assert "<strong>memory</strong>" in html
    assert '<span lang="zh">马腾</span>' in html
    assert 'Paper accepted at <a href="https://sosp.org" rel="nofollow noopener">SOSP</a>' in html


def test_news_page_lists_lab_and_member_news_but_not_unpublished(client):
    factories.NewsItemFactory(person=None, text="Lab moved to a new building.")
    factories.NewsItemFactory(text="Member news.")
    factories.NewsItemFactory(text="Draft news.", is_published=False)
    factories.NewsItemFactory(person__is_published=False, text="About a hidden person.")

    html = client.get("/news/").content.decode()

    assert "Lab moved to a new building." in html
    assert "Member news." in html
    assert "Draft news." not in html
    assert "About a hidden person." not in html


def test_robots_txt_points_to_the_sitemap_and_keeps_crawlers_out_of_admin(client):
    response = client.get("/robots.txt")

    assert response["Content-Type"] == "text/plain"
    assert "Disallow: /admin/" in response.content.decode()
    assert "Sitemap: http://testserver/sitemap.xml" in response.content.decode()


def test_sitemap_lists_published_profiles_only(client):
    factories.PersonFactory(slug="visible")
    factories.PersonFactory(slug="hidden", is_published=False)

    xml = whole_sitemap(client)

    assert "http://testserver/people/visible/" in xml
    assert "/people/hidden/" not in xml


def test_lab_settings_admin_opens_the_single_row(admin_client):
    response = admin_client.get("/admin/lab/labsettings/")

    assert response.status_code == 302
    assert response["Location"] == "/admin/lab/labsettings/1/change/"


def test_lab_settings_refuse_unknown_role_codes(admin_client):
    url = "/admin/lab/labsettings/1/change/"
    LabSettings.load()
    response = admin_client.post(url, form_data(admin_client.get(url), team_role_order="pi,boss"))

    assert "Unknown role code(s): boss." in response.content.decode()


def test_news_feed_lists_published_news_with_links_rendered(client):
    person = factories.PersonFactory(name="Feng Ren", slug="feng-ren")
    mooncake = factories.NewsItemFactory(
        person=person, date="2025-02", text="Mooncake won [Best Paper](https://fast.org)."
    )
    factories.NewsItemFactory(person=person, text="Draft", is_published=False)

    factories.NewsItemFactory(person=None, date="2026-06", text="The lab moves to a new building.")

    xml = client.get("/news/feed/").content.decode()
    feed = feedparser.parse(xml)

    assert [entry.title for entry in feed.entries] == [
        "The lab moves to a new building.",
        "Feng Ren: Mooncake won Best Paper.",
    ]
    assert [entry.published_parsed[:3] for entry in feed.entries] == [(2026, 6, 1), (2025, 2, 1)]
    assert feed.entries[1].link.endswith(f"/news/#news-{mooncake.pk}")
    assert 'Mooncake won <a href="https://fast.org" rel="nofollow noopener">Best Paper' in (
        feed.entries[1].description
    )
    assert "Draft" not in xml


def test_publication_feed_prints_authors_with_the_one_renderer(client):
    teng = factories.PersonFactory(name="Teng Ma", slug="teng-ma")
    factories.authored(teng, ["Y Wang", "T Ma"], at=2, co_first=[1, 2], title="LightDSA")

    xml = client.get("/publications/feed/").content.decode()

    assert "<title>LightDSA</title>" in xml
    assert "Y Wang*, T Ma* (* equal contribution)" in xml


def test_lab_logo_upload_is_reencoded_and_shown_in_the_header(admin_client, client):
    buffer = io.BytesIO()
    Image.new("RGBA", (1200, 400), (10, 80, 160, 255)).save(buffer, "PNG")
    url = "/admin/lab/labsettings/1/change/"
    LabSettings.load()
    logo = SimpleUploadedFile("logo.png", buffer.getvalue() + b"<script>x</script>")

    admin_client.post(url, form_data(admin_client.get(url), logo=logo))

    lab = LabSettings.load()
    stored = Image.open(lab.logo.path)
    assert stored.format == "PNG" and stored.size == (480, 160)
    assert "logo" not in lab.logo.name
    assert (
        f'<img src="{lab.logo.url}" alt="" class="site-logo">' in client.get("/").content.decode()
    )


def test_lab_logo_refuses_svg(admin_client):
    url = "/admin/lab/labsettings/1/change/"
    LabSettings.load()
    svg = SimpleUploadedFile("logo.svg", b'<svg xmlns="http://www.w3.org/2000/svg"/>')

    response = admin_client.post(url, form_data(admin_client.get(url), logo=svg))

    assert "SVG files are not accepted" in response.content.decode()
    assert not LabSettings.load().logo


def test_health_says_ok_when_both_answer_degraded_without_the_cache_503_without_database(
    client, monkeypatch
):
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "cache": "ok",
        "storage": "ok",
        "disk": "ok",
    }
    assert "no-cache" in response["Cache-Control"]

    def down(*args, **kwargs):
        raise ConnectionError("server is down")

    # The site still serves its pages without the cache: a balancer must keep it.
    monkeypatch.setattr("django.core.cache.backends.locmem.LocMemCache.set", down)
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json() == {
        "status": "degraded",
        "database": "ok",
        "cache": "error: ConnectionError",
        "storage": "ok",
        "disk": "ok",
    }

    monkeypatch.setattr(type(connections["default"]), "cursor", down)
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["status"] == "error"
    assert response.json()["database"] == "error: ConnectionError"


@override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}})
def test_health_is_ok_on_a_site_configured_without_a_cache(client):
    # CACHE_URL=dummycache:// is a supported set-up: its load balancer must not take the
    # site out of service because a cache that keeps nothing keeps nothing.
    response = client.get("/health/")

    assert response.status_code == 200
    assert response.json()["status"] == "ok"
    assert response.json()["cache"] == "off"


def test_health_names_a_media_storage_that_does_not_answer_and_a_disk_running_full(
    client, monkeypatch, settings
):
    def hung(*args, **kwargs):
        raise TimeoutError("read timed out")

    monkeypatch.setattr("labsite.views.default_storage.location", "/nonexistent/media")
    response = client.get("/health/")
    assert response.status_code == 200  # pages are still served; uploads are refused
    assert response.json()["status"] == "degraded"
    assert response.json()["storage"] == "error: the media folder is missing or not writable"

    monkeypatch.undo()
    settings.HEALTH_MIN_FREE_DISK_MB = 10**9  # more than any disk here has
    response = client.get("/health/")
    assert response.json()["status"] == "degraded"
    assert response.json()["disk"].startswith("error: ") and "MB free" in response.json()["disk"]


@override_settings(SECURE_SSL_REDIRECT=True)
def test_health_answers_plain_http_for_load_balancers(client):
    assert client.get("/health/").status_code == 200
    assert client.get("/people/").status_code == 301
