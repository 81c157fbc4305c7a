"""Publications on a member's profile: the seed cases, filters, figures and query counts."""

import io
import re

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from lab.models import LabSettings
from publications.figures import h_index
from tests.factories import PersonFactory, VenueFactory, authored

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo_profile(client, demo):
    return client.get("/people/teng-ma/").content.decode()


def _entry(html, title):
    """The <li> of the publication whose title starts with `title`."""
    start = html.index(title)
    return html[html.rindex("<li", 0, start) : html.index("</li>", start)]


def test_demo_lightdsa_shows_co_first_markers_and_badge(demo_profile):
    entry = _entry(demo_profile, "LightDSA")

    assert 'Y Wang<sup class="marker" title="Equal contribution">*</sup>' in entry
    assert 'T Ma</strong><sup class="marker" title="Equal contribution">*</sup>' in entry
    assert '<span class="badge badge--role">Co-first</span>' in entry


def test_demo_pooling_engram_shows_corresponding_marker_and_badge(demo_profile):
    entry = _entry(demo_profile, "Pooling Engram")

    assert 'T Ma</strong><sup class="marker" title="Corresponding author">†</sup>' in entry
    assert '<span class="badge badge--role">Corresponding</span>' in entry


def test_demo_x_rdma_highlights_only_the_first_t_ma(demo_profile):
    entry = _entry(demo_profile, "X-RDMA")

    authors = re.search(r'<span class="authors">(.*?)</p>', entry, re.S)[1]
    assert authors.count("author-self") == 1
    assert authors.index('<strong class="author-self">T Ma</strong>') < authors.index(
        '<span class="author">T Ma</span>'
    )


def test_demo_surviving_partial_rank_failures_is_shortened_with_teng_ma_highlighted(demo_profile):
    entry = _entry(demo_profile, "Surviving Partial Rank Failures")

    assert "X Sun" in entry and '<span class="author-gap">…</span>' in entry
    assert '<strong class="author-self">T Ma</strong>' in entry


def test_demo_mooncake_tos_is_shortened_on_both_profiles(client, demo_profile):
    teng_entry = _entry(demo_profile, "Mooncake: A KVCache-centric")
    feng_entry = _entry(client.get("/people/feng-ren/").content.decode(), "Mooncake: A KVCache")

    assert '<strong class="author-self">T Ma</strong>' in teng_entry
    assert "Y Zhang" not in teng_entry  # one of the 13 Crossref authors the short list drops
    assert '<strong class="author-self">F Ren</strong>' in feng_entry


def test_demo_venue_summary_is_computed_and_scholars_h_index_stands_alone(demo_profile):
    summary = (
        "SOSP (2), ASPLOS (2), ATC (4), EuroSys (2), VLDB (2), ICDE, IEEE TPDS (3), "
        "IEEE/ACM ToN, ACM ToS, DAC (2), CLUSTER (2), SC, IEEE INFOCOM"
    )
    assert summary in demo_profile
    assert "40 publications" in demo_profile
    # 1 of 40 papers has a recorded count: an h-index of 1 computed from it would stand
    # beside Google Scholar's 13, read by hand; only the latter is shown.
    assert demo_profile.count("<dt>h-index</dt>") == 1
    assert '<dt>h-index</dt>\n        <dd class="stat__value">13</dd>' in demo_profile


def test_demo_patents_are_listed_by_number(demo_profile):
    assert "US Patent 10,613,992" in demo_profile
    assert "CN Patent 202010427533" in demo_profile


def test_h_index_counts_papers_with_at_least_h_citations():
    assert h_index([10, 8, 5, 4, 3]) == 4
    assert h_index([0, 0]) == 0
    assert h_index([]) == 0
    assert h_index([100]) == 1


def test_profile_filters_by_kind_and_role(client):
    person = PersonFactory(slug="teng-ma", name="Teng Ma")
    authored(person, ["T Ma", "K Chen"], at=1, title="First Paper", kind="conference")
    authored(
        person, ["K Chen", "T Ma"], at=2, corresponding=[2], title="Corr Journal", kind="journal"
    )
    authored(person, ["K Chen", "T Ma"], at=2, title="Plain Middle", kind="conference")

    by_kind = client.get("/people/teng-ma/?kind=journal").content.decode()
    by_role = client.get("/people/teng-ma/?role=first").content.decode()

    assert "Corr Journal" in by_kind and "First Paper" not in by_kind
    assert "First Paper" in by_role and "Plain Middle" not in by_role
    assert "Corresponding (1)" in by_role


def test_venue_summary_follows_the_lab_order_and_skips_posters(client):
    lab = LabSettings.load()
    lab.venue_summary_order = "ATC, SOSP"
    lab.save()
    person = PersonFactory(slug="p")
    sosp, atc = VenueFactory(short_name="SOSP"), VenueFactory(short_name="ATC")
    authored(person, ["A B", "C D"], at=1, venue=sosp)
    authored(person, ["A B", "C D"], at=1, venue=atc)
    authored(person, ["A B", "C D"], at=1, venue=atc)
    authored(person, ["A B", "C D"], at=1, venue=sosp, kind="poster")

    assert "ATC (2), SOSP</p>" in client.get("/people/p/").content.decode()


def _fill(person, count):
    venue = VenueFactory()
    for n in range(count):
        authored(
            person,
            [f"A Author{n}", "T Ma", "B Other", "C Other"],
            at=2,
            co_first=[1, 2] if n % 3 == 0 else [],
            venue=venue,
            date=str(2000 + n % 25),
            citation_count=n,
            citations_read_on="2026-12-01",
        )


def _queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_profile_query_count_is_the_same_with_10_and_300_publications(
    client, django_assert_max_num_queries, settings
):
    settings.PAGE_CACHE = False  # what building the page costs, visit after visit
    few, many = PersonFactory(slug="few"), PersonFactory(slug="many")
    _fill(few, 10)
    _fill(many, 300)
    client.get("/people/few/")  # makes the lab settings row

    # the person (with which of their sections have rows: here none, so no section is
    # queried), their papers with venues, the papers' awards, their author rows with the
    # people they link, the lab settings, and the readings of their citation counts (the
    # citation chart), the papers' tags, and the site's menu
    with django_assert_max_num_queries(8):
        client.get("/people/many/")
    assert _queries(client, "/people/few/") == _queries(client, "/people/many/")


def test_the_first_profile_view_after_an_import_costs_what_any_later_view_does(
    client, settings, tmp_path
):
    settings.PAGE_CACHE = False  # every view a cold build
    PersonFactory(name="Teng Ma", slug="teng-ma")
    client.get("/people/teng-ma/")  # makes the lab settings row
    entries = "\n".join(
        f"@inproceedings{{p{n}, title={{Paper {n}}}, author={{Ma, Teng and Ren, Feng and "
        f"Other, Ann}}, booktitle={{SOSP}}, year={{{2000 + n % 25}}}}}"
        for n in range(300)
    )
    bib = tmp_path / "many.bib"
    bib.write_text(entries)
    call_command("import_publications", str(bib), stdout=io.StringIO())  # "Ma, Teng" is her

    first = _queries(client, "/people/teng-ma/")
    later = _queries(client, "/people/teng-ma/")

    assert first == later
    assert "Paper 299" in client.get("/people/teng-ma/").content.decode()
