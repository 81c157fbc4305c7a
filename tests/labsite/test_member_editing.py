"""What a lab member can and cannot do to their own profile and work in the admin."""

import pytest
from django.urls import reverse

from lab.models import LabSettings
from people.models import Person
from publications.models import Publication
from talks.models import Award, Talk
from tests import factories
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner_client(client, cast):
    client.force_login(cast["owner"])
    return client


@pytest.fixture
def owner():
    return Person.objects.get(slug="owner")


def _titles(response):
    return [str(obj) for obj in response.context["cl"].result_list]


def test_members_see_only_their_own_rows_in_changelists(owner_client, owner):
    factories.authored(owner, ["O Member"], at=1, title="Mine")
    factories.authored(None, ["S Else"], at=0, title="Not mine")

    response = owner_client.get("/admin/publications/publication/")

    assert _titles(response) == ["Mine"]
    assert _titles(owner_client.get("/admin/people/person/")) == ["Owner Member"]


def test_member_adding_a_publication_becomes_its_author(owner_client, owner):
    data = form_data(
        owner_client.get("/admin/publications/publication/add/"),
        title="New Paper",
        kind="conference",
        status="published",
    )

    response = owner_client.post("/admin/publications/publication/add/", data)

    assert response.status_code == 302
    paper = Publication.objects.get(title="New Paper")
    assert [(a.person, a.given_name, a.family_name) for a in paper.authorships.all()] == [
        (owner, "Owner", "Member")
    ]
    assert (
        owner_client.get(
            reverse("admin:publications_publication_change", args=[paper.pk])
        ).status_code
        == 200
    )


def test_member_adding_a_talk_or_award_becomes_speaker_or_recipient(owner_client, owner):
    owner_client.post(
        "/admin/talks/talk/add/",
        form_data(
            owner_client.get("/admin/talks/talk/add/"),
            title="My Talk",
            kind="invited",
            date="2026-01",
        ),
    )
    owner_client.post(
        "/admin/talks/award/add/",
        form_data(
            owner_client.get("/admin/talks/award/add/"), name="My Award", kind="award", date="2026"
        ),
    )

    assert [s.person for s in Talk.objects.get(title_en="My Talk").speakers.all()] == [owner]
    assert [r.person for r in Award.objects.get(name_en="My Award").recipients.all()] == [owner]


def test_member_cannot_remove_themselves_from_an_author_list(owner_client, owner):
    paper = factories.authored(owner, ["O Member", "X Coauthor"], at=1)
    url = reverse("admin:publications_publication_change", args=[paper.pk])

    deleted = owner_client.post(
        url, form_data(owner_client.get(url), **{"authorships-0-DELETE": "on"})
    )
    repointed = owner_client.post(
        url, form_data(owner_client.get(url), **{"authorships-0-person": ""})
    )

    for response in (deleted, repointed):
        assert response.status_code == 200
        assert (
            "You cannot remove yourself (Owner Member) from this list" in response.content.decode()
        )
    assert paper.authorships.get(position=1).person == owner


def test_lab_admin_may_remove_a_member_from_an_author_list(admin_client, cast):
    owner = Person.objects.get(slug="owner")
    paper = factories.authored(owner, ["O Member", "X Coauthor"], at=1)
    url = reverse("admin:publications_publication_change", args=[paper.pk])

    admin_client.post(url, form_data(admin_client.get(url), **{"authorships-0-DELETE": "on"}))

    assert list(paper.authorships.values_list("family_name", flat=True)) == ["Coauthor"]


def test_member_cannot_change_their_account_link_role_or_publication_state(
    owner_client, owner, cast
):
    url = reverse("admin:people_person_change", args=[owner.pk])
    data = form_data(
        owner_client.get(url),
        tagline="Updated",
        user=str(cast["other"].pk),
        role="pi",
        is_published="",
    )

    owner_client.post(url, data)

    owner.refresh_from_db()
    assert owner.tagline == "Updated"
    assert (owner.user, owner.role, owner.is_published) == (cast["owner"], "phd", True)


def test_member_cannot_reach_accounts_or_groups(owner_client):
    assert owner_client.get("/admin/auth/user/").status_code == 403
    assert owner_client.get("/admin/auth/group/").status_code == 403


def test_person_autocomplete_offers_public_profiles_only(owner_client, owner):
    factories.PersonFactory(name="Public Coauthor")
    factories.PersonFactory(name="Hidden Coauthor", is_published=False)
    params = {
        "app_label": "publications",
        "model_name": "authorship",
        "field_name": "person",
        "term": "Coauthor",
    }

    names = [r["text"] for r in owner_client.get("/admin/autocomplete/", params).json()["results"]]

    assert names == ["Public Coauthor"]


def test_publication_autocomplete_offers_only_the_members_papers(owner_client, owner):
    factories.authored(owner, ["O Member"], at=1, title="Mine to present")
    factories.authored(None, ["S Else"], at=0, title="Someone else's")
    params = {"app_label": "talks", "model_name": "talk", "field_name": "publication", "term": ""}

    titles = [r["text"] for r in owner_client.get("/admin/autocomplete/", params).json()["results"]]

    assert titles == ["Mine to present"]


def test_admin_index_offers_members_their_profile(owner_client, owner):
    html = owner_client.get("/admin/").content.decode()

    assert "My profile" in html
    assert reverse("admin:people_person_change", args=[owner.pk]) in html
    assert 'href="/people/owner/"' in html


def test_admin_index_has_no_profile_box_for_an_admin_without_a_profile(admin_client):
    assert "My profile" not in admin_client.get("/admin/").content.decode()


def test_admin_home_carries_the_lab_name_and_the_import_and_hides_lockout_tables(
    client, cast, admin_client
):
    lab = LabSettings.load()
    lab.name = "Systems Lab at Example University"
    lab.save()
    client.force_login(cast["admin"])  # a lab admin, not a superuser

    html = client.get("/admin/").content.decode()

    assert '<a href="/admin/">Systems Lab at Example University</a>' in html
    assert "<title>Edit the lab’s site | Systems Lab at Example University admin</title>" in html
    assert 'href="/admin/publications/publication/import/"' in html
    assert "Access attempts" not in html and "Access logs" not in html
    superuser_home = admin_client.get("/admin/").content.decode()
    assert "Access attempts" in superuser_home


def test_a_member_writes_an_introduction_for_a_section_of_their_profile(owner_client, owner):
    url = reverse("admin:people_person_change", args=[owner.pk])
    data = form_data(
        owner_client.get(url),
        **{
            "section_introductions-TOTAL_FORMS": "1",
            "section_introductions-0-section": "publications",
            "section_introductions-0-text_en": "Selected papers; all of them are on Scholar.",
        },
    )

    assert owner_client.post(url, data).status_code == 302
    assert owner.section_introductions.get().text.startswith("Selected papers")
