"""/publications/: the lab's list, its filters, pagination and query counts."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import PersonFactory, PublicationFactory, VenueFactory, authored

pytestmark = pytest.mark.django_db


@pytest.fixture
def lab(db):
    teng = PersonFactory(name="Teng Ma", slug="teng-ma")
    feng = PersonFactory(name="Feng Ren", slug="feng-ren", native_name="任峰")
    sosp, tos = VenueFactory(short_name="SOSP"), VenueFactory(short_name="ACM ToS", kind="journal")
    authored(teng, ["T Ma", "K Chen"], at=1, title="Scheduler Live Update", venue=sosp, date="2023")
    authored(
        teng,
        ["M Zhang", "T Ma"],
        at=2,
        co_first=[1, 2],
        title="Partial Failure",
        venue=sosp,
        date="2023",
    )
    authored(
        teng,
        ["R Ma", "T Ma"],
        at=2,
        corresponding=[2],
        title="Engram Pooling",
        venue=tos,
        date="2026",
        kind="journal",
    )
    authored(
        feng,
        ["F Ren", "K Chen"],
        at=1,
        title="SMART Scaling",
        venue=sosp,
        date="2024",
        is_selected=True,
    )
    PublicationFactory(title="Hidden Draft", is_published=False)
    return teng, feng


def _titles(client, query=""):
    response = client.get(f"/publications/{query}", follow=True)  # to its canonical address
    assert response.status_code == 200
    return {entry.publication.title for entry in response.context["entries"]}


def test_list_shows_public_publications_grouped_by_year_newest_first(client, lab):
    html = client.get("/publications/").content.decode()

    assert "Hidden Draft" not in html
    assert (
        html.index('id="year-2026"') < html.index('id="year-2024"') < html.index('id="year-2023"')
    )


def test_list_filters_by_year_kind_venue_and_selected(client, lab):
    assert _titles(client, "?year=2023") == {"Scheduler Live Update", "Partial Failure"}
    assert _titles(client, "?kind=journal") == {"Engram Pooling"}
    assert _titles(client, "?venue=ACM+ToS") == {"Engram Pooling"}
    assert _titles(client, "?selected=on") == {"SMART Scaling"}


def test_list_filters_by_member_and_role(client, lab):
    assert _titles(client, "?member=feng-ren") == {"SMART Scaling"}
    assert _titles(client, "?member=teng-ma&role=co-first") == {"Partial Failure"}
    assert _titles(client, "?member=teng-ma&role=corresponding") == {"Engram Pooling"}
    assert _titles(client, "?member=teng-ma&role=first") == {"Scheduler Live Update"}
    assert _titles(client, "?role=first") == {"Scheduler Live Update", "SMART Scaling"}


def test_member_filter_highlights_that_member(client, lab):
    html = client.get("/publications/?member=teng-ma").content.decode()

    assert '<strong class="author-self"><a href="/people/teng-ma/">T Ma</a></strong>' in html


def test_text_search_matches_title_author_venue_and_native_name(client, lab):
    assert _titles(client, "?q=engram") == {"Engram Pooling"}
    assert _titles(client, "?q=Feng") == {"SMART Scaling"}
    assert _titles(client, "?q=ToS") == {"Engram Pooling"}
    assert _titles(client, "?q=任峰") == {"SMART Scaling"}


def test_invalid_filter_values_are_dropped_from_the_address_for_visitors(client, lab):
    response = client.get("/publications/?year=abc&kind=nonsense&member=nobody&kind=journal")

    assert (response.status_code, response["Location"]) == (301, "/publications/?kind=journal")


def test_invalid_filter_values_show_an_error_to_editors_instead_of_failing(admin_client, lab):
    response = admin_client.get("/publications/?year=abc&kind=nonsense&member=nobody")

    assert response.status_code == 200
    assert len(response.context["entries"]) == 4
    assert "Select a valid choice" in response.content.decode()


def test_list_paginates_and_keeps_filters_in_page_links(client):
    for n in range(55):
        PublicationFactory(title=f"Paper {n}", date="2020")

    first = client.get("/publications/?year=2020")
    second = client.get("/publications/?year=2020&page=2")

    assert len(first.context["entries"]) == 50
    assert len(second.context["entries"]) == 5
    assert 'href="?year=2020&amp;page=2"' in first.content.decode()


def _fill(person, venue, count, start=0):
    for n in range(start, start + count):
        authored(
            person, [f"A Author{n}", "T Ma", "C Other"], at=2, venue=venue, date=str(1990 + n % 30)
        )


def _queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    ("url", "pinned"),
    # 12: the tags filter's choices and the papers' tags are a query each, and the page's
    # canonical address (or noindex) reads the filter form's years once more
    [("/publications/", 12), ("/publications/?member=teng-ma&role=first&q=author", 12)],
)
def test_list_query_count_is_pinned_and_the_same_with_10_and_300(client, url, pinned, settings):
    settings.PAGE_CACHE = False  # what building the page costs, visit after visit
    person, venue = PersonFactory(slug="teng-ma"), VenueFactory()
    _fill(person, venue, 10)
    client.get(url)
    with_10 = _queries(client, url)
    _fill(person, venue, 290, start=10)
    client.get(url)  # renders and stores the new papers' entries (publications.listing)

    assert _queries(client, url) == with_10 <= pinned
