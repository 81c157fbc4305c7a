"""Every edit is recorded with its author; old versions can be reverted to; deleted
publications, people, talks and awards can be restored with what went with them."""

import pytest
from django.urls import reverse

from people.models import Person
from publications.models import Publication
from talks.models import Talk
from tests import factories
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db


def test_an_edit_by_a_member_shows_in_history_with_their_name(client, cast):
    owner = Person.objects.get(slug="owner")
    client.force_login(cast["owner"])
    url = reverse("admin:people_person_change", args=[owner.pk])
    client.post(url, form_data(client.get(url), tagline="Building RDMA systems"))

    html = client.get(reverse("admin:people_person_history", args=[owner.pk])).content.decode()

    assert owner.history.latest().history_user == cast["owner"]
    assert '/change/">owner</a>' in html
    assert "<strong>Tagline (English):</strong>" in html
    assert "Building RDMA systems" in html


def test_revert_restores_the_old_values(admin_client):
    paper = factories.PublicationFactory(title="Original Title", volume="22")
    url = reverse("admin:publications_publication_change", args=[paper.pk])
    admin_client.post(url, form_data(admin_client.get(url), title="Wrong Title", volume="99"))
    original = paper.history.earliest()
    revert_url = reverse(
        "admin:publications_publication_simple_history", args=[paper.pk, original.history_id]
    )

    admin_client.post(revert_url, form_data(admin_client.get(revert_url)))

    paper.refresh_from_db()
    assert (paper.title, paper.volume) == ("Original Title", "22")
    assert paper.history.count() == 3


def test_publication_history_lists_author_list_changes_with_who_made_them(admin_client, admin_user):
    teng = factories.PersonFactory(name="Teng Ma")
    paper = factories.authored(None, ["Y Wang", "T Ma"], at=0)
    url = reverse("admin:publications_publication_change", args=[paper.pk])
    data = form_data(
        admin_client.get(url),
        **{"authorships-1-person": str(teng.pk), "authorships-1-is_equal_contribution": "on"},
    )
    admin_client.post(url, data)

    html = admin_client.get(
        reverse("admin:publications_publication_history", args=[paper.pk])
    ).content.decode()
    changes = html[html.index('id="author-changes"') :]

    assert "<strong>lab member:</strong> — → Teng Ma" in changes
    assert "<strong>co-first:</strong> False → True" in changes
    assert admin_user.username in changes


def _delete_and_restore(admin_client, model_name, app, obj):
    admin_client.post(reverse(f"admin:{app}_{model_name}_delete", args=[obj.pk]), {"post": "yes"})
    listing = admin_client.get(reverse(f"admin:{app}_{model_name}_deleted"))
    record = listing.context["records"][0]
    assert str(record.instance) == str(obj)
    return admin_client.post(reverse(f"admin:{app}_{model_name}_restore", args=[record.history_id]))


def test_a_deleted_publication_is_restored_with_its_authorships(admin_client):
    teng = factories.PersonFactory(name="Teng Ma")
    paper = factories.authored(
        teng, ["Y Wang", "T Ma", "Y Luo"], at=2, co_first=[1, 2], title="LightDSA"
    )

    response = _delete_and_restore(admin_client, "publication", "publications", paper)

    assert response.status_code == 302
    restored = Publication.objects.get(pk=paper.pk)
    rows = [
        (a.position, a.family_name, a.person, a.is_equal_contribution)
        for a in restored.authorships.all()
    ]
    assert rows == [(1, "Wang", None, True), (2, "Ma", teng, True), (3, "Luo", None, False)]
    deleted = admin_client.get(reverse("admin:publications_publication_deleted"))
    assert list(deleted.context["records"]) == []


def test_a_deleted_person_is_restored_with_sections_talks_and_author_links(admin_client):
    teng = factories.PersonFactory(name="Teng Ma", slug="teng-ma")
    factories.ExperienceFactory(person=teng, title="Staff Engineer")
    paper = factories.authored(teng, ["T Ma", "K Chen"], at=1)
    talk = factories.SpeakerFactory(person=teng).talk

    _delete_and_restore(admin_client, "person", "people", teng)

    teng = Person.objects.get(slug="teng-ma")
    assert [e.title for e in teng.experience.all()] == ["Staff Engineer"]
    assert paper.authorships.get(position=1).person == teng
    assert [s.person for s in Talk.objects.get(pk=talk.pk).speakers.all()] == [teng]


def test_a_deleted_talk_and_award_come_back(admin_client):
    talk = factories.SpeakerFactory(talk__title="HydraRPC").talk
    award = factories.RecipientFactory(award__name="Best Poster").award

    _delete_and_restore(admin_client, "talk", "talks", talk)
    _delete_and_restore(admin_client, "award", "talks", award)

    assert Talk.objects.get(pk=talk.pk).speakers.count() == 1
    assert award.__class__.objects.get(pk=award.pk).recipients.count() == 1


def test_members_cannot_open_deleted_lists_or_restore(client, cast):
    client.force_login(cast["owner"])

    assert client.get(reverse("admin:publications_publication_deleted")).status_code == 403
    assert (
        client.post(reverse("admin:publications_publication_restore", args=[1])).status_code == 403
    )
