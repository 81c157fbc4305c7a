import pytest
from django.core.exceptions import ValidationError

from people.models import Person
from tests import factories
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db


def test_admin_adds_person_with_sections_inline(admin_client):
    page = admin_client.get("/admin/people/person/add/")
    data = form_data(
        page,
        name="Feng Ren",
        slug="feng-ren",
        role="staff",
        orcid="https://orcid.org/0009-0006-3599-4086",
        **{
            "education-TOTAL_FORMS": "1",
            "education-0-degree": "Ph.D.",
            "education-0-institution": "Tsinghua University",
            "education-0-start": "2017.08",
            "education-0-end": "2023-06",
            "education-0-order": "0",
            "news-TOTAL_FORMS": "1",
            "news-0-date": "2025-10",
            "news-0-text_en": "Paper accepted.",
            "news-0-is_published": "on",
        },
    )

    response = admin_client.post("/admin/people/person/add/", data)

    assert response.status_code == 302, response.context["errors"]
    person = Person.objects.get(slug="feng-ren")
    assert person.orcid == "0009-0006-3599-4086"
    education = person.education.get()
    assert (education.start.isoformat(), education.end.isoformat()) == ("2017-08", "2023-06")
    assert person.news.get().text == "Paper accepted."


def test_admin_change_keeps_inline_rows_and_edits_one(admin_client):
    person = factories.PersonFactory(slug="teng-ma", name="Teng Ma")
    factories.ExperienceFactory(person=person, title="Senior Engineer (P7)")
    factories.ProjectFactory(person=person, name="Mooncake")
    url = f"/admin/people/person/{person.pk}/change/"

    data = form_data(admin_client.get(url), title="Staff Engineer")
    response = admin_client.post(url, data)

    assert response.status_code == 302
    person.refresh_from_db()
    assert person.title == "Staff Engineer"
    assert [e.title for e in person.experience.all()] == ["Senior Engineer (P7)"]
    assert [p.name for p in person.projects.all()] == ["Mooncake"]


def test_admin_refuses_orcid_with_wrong_check_digit(admin_client):
    page = admin_client.get("/admin/people/person/add/")
    data = form_data(page, name="X", slug="x", role="phd", orcid="0000-0002-7104-1527")

    response = admin_client.post("/admin/people/person/add/", data)

    assert response.status_code == 200
    assert "check digit is wrong" in response.content.decode()
    assert not Person.objects.filter(slug="x").exists()


def test_admin_refuses_bad_partial_date_with_a_clear_error(admin_client):
    page = admin_client.get("/admin/people/person/add/")
    data = form_data(page, name="X", slug="x", role="phd", member_since="2023-13")

    response = admin_client.post("/admin/people/person/add/", data)

    assert response.status_code == 200
    assert "Enter a date as YYYY, YYYY-MM or YYYY-MM-DD" in response.content.decode()


def test_admin_search_finds_people_by_name_variant(admin_client):
    factories.PersonFactory(name="Teng Ma", name_variants="T. Ma\nMa, Teng")
    factories.PersonFactory(name="Feng Ren")

    response = admin_client.get("/admin/people/person/", {"q": "Ma, Teng"})

    assert [p.name for p in response.context["cl"].result_list] == ["Teng Ma"]


def test_admin_filters_alumni(admin_client):
    factories.PersonFactory(name="Current One")
    factories.PersonFactory(name="Gone Away", member_until="2020-06")

    response = admin_client.get("/admin/people/person/", {"membership": "alumni"})

    assert [p.name for p in response.context["cl"].result_list] == ["Gone Away"]


def test_admin_change_page_links_to_the_public_profile(admin_client):
    person = factories.PersonFactory(slug="teng-ma")

    response = admin_client.get(f"/admin/people/person/{person.pk}/change/")

    assert b"View on site" in response.content


def test_an_orcid_is_one_persons_and_no_orcid_is_checked_without_the_database(
    django_assert_num_queries,
):
    factories.PersonFactory(name="Ann Lee", slug="ann-lee", orcid="0000-0002-1825-0097")
    twin = Person(name="Ann Li", slug="ann-li", role="phd", orcid="0000-0002-1825-0097")

    with pytest.raises(ValidationError, match="person_orcid_unique_when_set"):
        twin.full_clean(validate_unique=False)
    with django_assert_num_queries(0):  # Django's check asked in a savepoint: three queries
        Person(name="Bo Chen", slug="bo-chen", role="phd").full_clean(validate_unique=False)
