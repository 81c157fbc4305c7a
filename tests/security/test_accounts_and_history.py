"""No role can grant itself more: account administration, history revert and restore."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission

from people.models import Person
from publications.models import Publication
from tests import factories
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture
def superuser(db):
    return User.objects.create_superuser("root", "root@example.org", "a-long-test-password")


def test_lab_admin_cannot_make_itself_superuser(client, cast):
    admin = cast["admin"]
    client.force_login(admin)

    response = client.get(f"/admin/auth/user/{admin.pk}/change/")
    client.post(
        f"/admin/auth/user/{admin.pk}/change/",
        {"username": admin.username, "is_superuser": "on", "is_staff": "on", "is_active": "on"},
    )

    admin.refresh_from_db()
    assert response.status_code == 302  # as if the account did not exist
    assert not admin.is_superuser


@pytest.mark.parametrize("target", ["superuser", "other lab admin"])
def test_lab_admin_cannot_touch_superusers_or_other_lab_admins(client, cast, superuser, target):
    if target == "superuser":
        account = superuser
    else:
        account = factories.UserFactory(username="admin2", is_staff=True)
        account.groups.add(Group.objects.get(name="Lab admin"))
    client.force_login(cast["admin"])

    pages = [
        f"/admin/auth/user/{account.pk}/change/",
        f"/admin/auth/user/{account.pk}/password/",
        f"/admin/auth/user/{account.pk}/delete/",
    ]
    statuses = [client.get(page).status_code for page in pages]
    client.post(
        f"/admin/auth/user/{account.pk}/password/",
        {"password1": "Hijacked-password-1", "password2": "Hijacked-password-1"},
    )
    client.post(f"/admin/auth/user/{account.pk}/delete/", {"post": "yes"})

    account.refresh_from_db()
    assert all(status in (302, 403, 404) for status in statuses)
    assert not account.check_password("Hijacked-password-1")
    assert "root" not in client.get("/admin/auth/user/").content.decode()


def test_lab_admin_manages_member_accounts_with_only_the_member_group(client, cast):
    member = cast["owner"]
    client.force_login(cast["admin"])
    url = f"/admin/auth/user/{member.pk}/change/"

    response = client.get(url)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="is_superuser"' not in html
    assert 'name="user_permissions"' not in html
    lab_admin = Group.objects.get(name="Lab admin")
    data = form_data(response, first_name="Renamed", groups=[str(lab_admin.pk)])
    data["user_permissions"] = [str(Permission.objects.get(codename="change_user").pk)]
    client.post(url, data)

    member.refresh_from_db()
    assert member.first_name == ""  # the forged group choice made the form invalid
    assert not member.groups.filter(name="Lab admin").exists()
    assert not member.user_permissions.exists()

    client.post(url, form_data(client.get(url), first_name="Renamed"))
    member.refresh_from_db()
    assert member.first_name == "Renamed"
    assert list(member.groups.values_list("name", flat=True)) == ["Lab member"]


def test_superuser_keeps_the_full_user_admin(client, superuser, cast):
    client.force_login(superuser)

    html = client.get(f"/admin/auth/user/{cast['admin'].pk}/change/").content.decode()

    assert 'name="is_superuser"' in html


def test_member_revert_keeps_fields_read_only_to_members(client, cast):
    owner = Person.objects.get(slug="owner")
    owner.tagline, owner.role, owner.is_published = "first", "phd", False
    owner.save()
    old = owner.history.latest("history_id")
    owner.tagline, owner.role, owner.is_published = "second", "postdoc", True  # a lab admin's call
    owner.save()
    client.force_login(cast["owner"])
    url = f"/admin/people/person/{owner.pk}/history/{old.history_id}/"

    page = client.get(url)
    client.post(url, form_data(page))

    owner.refresh_from_db()
    assert page.status_code == 200
    assert owner.tagline == "first"  # the member's own field went back
    assert (owner.role, owner.is_published) == ("postdoc", True)  # the lab admin's stayed


def test_view_only_users_cannot_revert_shared_data(client, cast):
    venue = factories.VenueFactory(short_name="SOSP", name="Symposium")
    old = venue.history.latest("history_id")
    venue.name = "Symposium on Operating Systems Principles"
    venue.save()
    client.force_login(cast["owner"])  # members may view venues, not change them
    url = f"/admin/publications/venue/{venue.pk}/history/{old.history_id}/"

    response = client.post(url, {"short_name": "SOSP", "name": "Reverted", "kind": "conference"})

    venue.refresh_from_db()
    assert response.status_code == 403
    assert venue.name == "Symposium on Operating Systems Principles"


def test_restoring_a_paper_whose_doi_was_reused_says_so(admin_client):
    paper = factories.authored(None, ["A Author"], at=0, doi="10.1145/1", title="Old")
    paper.delete()
    factories.authored(None, ["B Author"], at=0, doi="10.1145/1", title="New")
    record = Publication.history.filter(history_type="-").get()

    response = admin_client.post(
        f"/admin/publications/publication/deleted/{record.history_id}/restore/", follow=True
    )

    assert response.status_code == 200
    assert "cannot be restored" in response.content.decode()
    assert list(Publication.objects.values_list("title", flat=True)) == ["New"]


def test_a_book_with_a_publisher_and_no_venue_has_a_page(client):
    book = factories.authored(
        None, ["A Author"], at=0, kind="book", venue=None, publisher="MIT Press"
    )

    response = client.get(book.get_absolute_url())

    assert response.status_code == 200
    assert '<meta name="citation_publisher" content="MIT Press">' in response.content.decode()
    assert client.get("/sitemap.xml").status_code == 200


@pytest.mark.parametrize("target", ["superuser", "other lab admin"])
def test_lab_admin_cannot_link_a_superuser_or_another_lab_admin_to_a_profile(
    client, cast, superuser, target
):
    """The autocomplete offers only member accounts; a forged id is refused all the same."""
    if target == "superuser":
        account = superuser
    else:
        account = factories.UserFactory(username="admin2", is_staff=True)
        account.groups.add(Group.objects.get(name="Lab admin"))
    person = factories.PersonFactory(name="Feng Ren", email="feng@example.org")
    client.force_login(cast["admin"])
    url = f"/admin/people/person/{person.pk}/change/"

    response = client.post(url, form_data(client.get(url), user=str(account.pk), email="x@y.z"))

    person.refresh_from_db()
    assert response.status_code == 200  # the form again, with its error
    assert "Select a valid choice" in response.content.decode()
    assert person.user is None and person.email == "feng@example.org"


def test_lab_admin_links_member_accounts_and_keeps_the_link_a_superuser_made(
    client, cast, superuser
):
    member = factories.UserFactory(username="feng", is_staff=True)
    member.groups.add(Group.objects.get(name="Lab member"))
    pi_account = factories.UserFactory(username="pi", is_staff=True)
    pi_account.groups.add(Group.objects.get(name="Lab admin"))
    person = factories.PersonFactory(name="Feng Ren")
    pi = factories.PersonFactory(name="The PI", user=pi_account)  # linked by a superuser
    client.force_login(cast["admin"])

    url = f"/admin/people/person/{person.pk}/change/"
    client.post(url, form_data(client.get(url), user=str(member.pk)))
    pi_url = f"/admin/people/person/{pi.pk}/change/"
    client.post(pi_url, form_data(client.get(pi_url), tagline="Saved by a lab admin"))

    person.refresh_from_db()
    pi.refresh_from_db()
    assert person.user == member
    assert (pi.user, pi.tagline) == (pi_account, "Saved by a lab admin")
