"""The Publication admin: ordered authorship inline, filters, search, bad input."""

import pytest

from publications.models import Publication
from tests.admin_forms import form_data
from tests.factories import PersonFactory, PublicationFactory, VenueFactory, authored

pytestmark = pytest.mark.django_db

ADD = "/admin/publications/publication/add/"


def _author(n, given, family, **extra):
    return {
        f"authorships-{n}-given_name": given,
        f"authorships-{n}-family_name": family,
        **{f"authorships-{n}-{k}": v for k, v in extra.items()},
    }


def test_admin_adds_a_paper_with_ordered_authors_and_roles(admin_client):
    teng = PersonFactory(name="Teng Ma", slug="teng-ma")
    venue = VenueFactory(short_name="EuroSys")
    data = form_data(
        admin_client.get(ADD),
        title="LightDSA",
        kind="conference",
        status="published",
        venue=str(venue.pk),
        date="2026",
        doi="https://doi.org/10.1145/ABC.123",
        **{"authorships-TOTAL_FORMS": "3"},
        **_author(0, "Y", "Wang", position="1", is_equal_contribution="on"),
        **_author(1, "T", "Ma", position="2", person=str(teng.pk), is_equal_contribution="on"),
        **_author(2, "Y", "Luo"),
    )

    response = admin_client.post(ADD, data)

    assert response.status_code == 302, response.context["errors"]
    paper = Publication.objects.get(title="LightDSA")
    assert paper.doi == "10.1145/abc.123"
    rows = list(
        paper.authorships.values_list(
            "position", "family_name", "person__slug", "is_equal_contribution"
        )
    )
    assert rows == [(1, "Wang", None, True), (2, "Ma", "teng-ma", True), (3, "Luo", None, False)]


def test_admin_reorders_authors_by_swapping_positions(admin_client):
    paper = authored(None, ["A First", "B Second", "C Third"], at=0)
    url = f"/admin/publications/publication/{paper.pk}/change/"
    data = form_data(admin_client.get(url))
    data["authorships-0-position"], data["authorships-1-position"] = "2", "1"

    response = admin_client.post(url, data)

    assert response.status_code == 302, response.context["errors"]
    assert list(paper.authorships.values_list("family_name", flat=True)) == [
        "Second",
        "First",
        "Third",
    ]


def test_admin_deleting_an_author_closes_the_gap(admin_client):
    paper = authored(None, ["A First", "B Second", "C Third"], at=0)
    url = f"/admin/publications/publication/{paper.pk}/change/"
    data = form_data(admin_client.get(url), **{"authorships-0-DELETE": "on"})

    admin_client.post(url, data)

    assert list(paper.authorships.values_list("position", "family_name")) == [
        (1, "Second"),
        (2, "Third"),
    ]


def test_admin_refuses_two_authors_at_one_position(admin_client):
    paper = authored(None, ["A First", "B Second"], at=0)
    url = f"/admin/publications/publication/{paper.pk}/change/"
    data = form_data(admin_client.get(url), **{"authorships-1-position": "1"})

    response = admin_client.post(url, data)

    assert response.status_code == 200
    assert "Two authors share position 1" in response.content.decode()


def test_admin_refuses_a_duplicate_doi_with_a_field_error(admin_client):
    PublicationFactory(doi="10.1145/3773772")
    data = form_data(
        admin_client.get(ADD),
        title="Copy",
        kind="conference",
        status="published",
        doi="https://doi.org/10.1145/3773772",
    )

    response = admin_client.post(ADD, data)

    assert response.status_code == 200
    assert "This DOI already belongs to" in response.content.decode()


def test_admin_refuses_an_invalid_doi_and_arxiv_id(admin_client):
    data = form_data(
        admin_client.get(ADD),
        title="X",
        kind="conference",
        status="published",
        doi="not-a-doi",
        arxiv_id="abc",
    )

    html = admin_client.post(ADD, data).content.decode()

    assert "is not a DOI" in html
    assert "Enter an arXiv id such as 2407.00079." in html


def test_admin_refuses_a_paper_without_title(admin_client):
    data = form_data(admin_client.get(ADD), kind="conference", status="published")

    assert "Give the title" in admin_client.post(ADD, data).content.decode()


def test_admin_searches_by_author_name_and_filters_by_member_and_year(admin_client):
    teng = PersonFactory(slug="teng-ma")
    authored(teng, ["T Ma", "S Deng"], at=1, title="RAGNAR", date="2025")
    authored(None, ["X Sun", "S Chen"], at=0, title="Surviving", date="2026")

    def titles(query):
        response = admin_client.get("/admin/publications/publication/", query)
        return [p.title for p in response.context["cl"].result_list]

    assert titles({"q": "Deng"}) == ["RAGNAR"]
    assert titles({"member": "teng-ma"}) == ["RAGNAR"]
    assert titles({"year": "2026"}) == ["Surviving"]


def test_person_autocomplete_finds_members_for_the_authorship_inline(admin_client):
    PersonFactory(name="Teng Ma", name_variants="Ma Teng")

    response = admin_client.get(
        "/admin/autocomplete/",
        {
            "term": "Teng",
            "app_label": "publications",
            "model_name": "authorship",
            "field_name": "person",
        },
    )

    assert [r["text"] for r in response.json()["results"]] == ["Teng Ma"]


def test_the_admin_list_prints_authors_as_the_site_does_in_constant_queries(admin_client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.factories import PersonFactory, authored

    teng = PersonFactory(name="Teng Ma", slug="teng-ma")
    authored(teng, ["Y Wang", "T Ma", "Y Luo"], at=2, co_first=[1, 2], title="LightDSA")

    def queries():
        with CaptureQueriesContext(connection) as captured:
            html = admin_client.get("/admin/publications/publication/").content.decode()
        return len(captured), html

    admin_client.get("/admin/publications/publication/")  # creates the lab settings row
    few, html = queries()
    for n in range(20):
        authored(teng, ["A B", "T Ma"], at=2, title=f"Paper {n}")
    many, _ = queries()

    assert "Y Wang*, T Ma*, Y Luo" in html  # the markers of the one renderer
    assert few == many


def test_an_author_row_with_a_member_and_no_name_takes_the_members_name(admin_client):
    teng = PersonFactory(name="Teng Ma", slug="teng-ma")
    data = form_data(
        admin_client.get(ADD),
        title="LightDSA",
        kind="conference",
        status="published",
        date="2026",
        **{"authorships-TOTAL_FORMS": "2"},
        **_author(0, "", "", person=str(teng.pk)),
        **_author(1, "Ana", "Lee"),
    )

    assert admin_client.post(ADD, data).status_code == 302

    rows = Publication.objects.get().authorships.order_by("position")
    assert [(a.given_name, a.family_name, a.person_id) for a in rows] == [
        ("Teng", "Ma", teng.pk),
        ("Ana", "Lee", None),
    ]


def test_a_printed_name_typed_beside_a_member_is_kept(admin_client):
    teng = PersonFactory(name="Teng Ma", slug="teng-ma")
    data = form_data(
        admin_client.get(ADD),
        title="LightDSA",
        kind="conference",
        status="published",
        date="2026",
        **_author(0, "T.", "Ma", person=str(teng.pk)),
    )

    assert admin_client.post(ADD, data).status_code == 302
    assert Publication.objects.get().authorships.get().given_name == "T."
