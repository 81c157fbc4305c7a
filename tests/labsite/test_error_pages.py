"""With DEBUG off, a missing page and a failing one are the site's own pages: a 404 in the
site's layout, and a 500 that stands alone, safe when the database is what failed."""

import pytest
from django.test import RequestFactory
from django.views.defaults import server_error

from tests.sitemaps import whole_sitemap

pytestmark = pytest.mark.django_db


def test_a_missing_page_is_the_sites_own_with_its_navigation(client):
    response = client.get("/people/nobody-here/")

    html = response.content.decode()
    assert response.status_code == 404
    assert "<main" in html and 'name="viewport"' in html
    assert 'aria-label="Main"' in html and "Page not found" in html
    assert '<a href="/people/">People</a>' in html


def test_the_error_page_is_shown_without_the_database(django_db_blocker):
    request = RequestFactory().get("/people/teng-ma/")

    with django_db_blocker.block():
        response = server_error(request)

    html = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong" in html and 'name="viewport"' in html and "<main" in html


def test_the_sitemap_dates_each_profile_by_its_last_change(client, person):
    other = type(person).objects.create(name="Feng Ren", slug="feng-ren")

    xml = whole_sitemap(client)

    for someone in (person, other):
        changed = someone.history.latest().history_date.date().isoformat()
        entry = xml[xml.index(f"/people/{someone.slug}/") :]
        assert entry[: entry.index("</url>")].count(f"<lastmod>{changed}</lastmod>") == 1
