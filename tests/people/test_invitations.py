"""The admin's "Invite by email": a member's login in one action, and what they are told
when they reach for someone else's page."""

import re

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.test import Client

from lab.models import LabSettings
from labsite.page_cache import content_version
from people.models import Person
from tests import factories

pytestmark = pytest.mark.django_db
CHANGELIST = "/admin/people/person/"


@pytest.fixture
def lab_admin_client(client):
    user = factories.UserFactory(username="labadmin", is_staff=True)
    user.groups.add(Group.objects.get(name="Lab admin"))
    client.force_login(user)
    return client


def _invite(client, *people):
    data = {"action": "invite_by_email", "_selected_action": [p.pk for p in people]}
    return client.post(CHANGELIST, data, follow=True)


def test_one_action_gives_a_member_a_login_and_mails_the_link(lab_admin_client):
    person = factories.PersonFactory(name="Feng Ren", slug="feng-ren", email="feng@example.org")

    page = _invite(lab_admin_client, person).content.decode()

    person.refresh_from_db()
    assert person.user.username == "feng-ren" and not person.user.has_usable_password()
    assert list(person.user.groups.values_list("name", flat=True)) == ["Lab member"]
    assert "Feng Ren is invited: the link to choose a password went to feng@example.org." in page
    (message,) = mail.outbox
    assert message.to == ["feng@example.org"] and "/accounts/reset/" in message.body
    assert person.invited is not None
    assert "not yet signed in" in lab_admin_client.get(CHANGELIST).content.decode()


def test_an_invitation_leaves_every_cached_page_a_hit(lab_admin_client):
    """No page shows a member's account or when they were invited: an invitation made
    every cached page cold."""
    LabSettings.load()
    person = factories.PersonFactory(name="Feng Ren", slug="feng-ren", email="feng@example.org")
    visitor, pages = Client(), ["/people/", "/people/feng-ren/"]
    for url in pages:
        visitor.get(url)
    before = content_version()

    _invite(lab_admin_client, person)

    assert Person.objects.get(pk=person.pk).invited is not None
    assert content_version() == before
    assert [visitor.get(url)["X-Page-Cache"] for url in pages] == ["hit", "hit"]


def test_sending_again_sends_a_new_link(lab_admin_client):
    person = factories.PersonFactory(slug="feng-ren", email="feng@example.org")
    _invite(lab_admin_client, person)
    first = Person.objects.get(pk=person.pk).invited

    _invite(lab_admin_client, person)

    assert len(mail.outbox) == 2 and Person.objects.get(pk=person.pk).invited >= first
    assert Person.objects.get(pk=person.pk).user.username == "feng-ren"  # the same account


def test_a_member_without_an_email_is_not_invited_and_the_admin_is_told(lab_admin_client):
    person = factories.PersonFactory(name="Feng Ren", email="")

    page = _invite(lab_admin_client, person).content.decode()

    assert "Feng Ren has no e-mail address: add one on their page, then invite them." in page
    assert Person.objects.get(pk=person.pk).user is None and not mail.outbox


def test_members_cannot_invite_and_are_told_why_they_cannot_open_others_pages(client):
    user = factories.UserFactory(username="owner", is_staff=True)
    user.groups.add(Group.objects.get(name="Lab member"))
    factories.PersonFactory(slug="owner", user=user)
    other = factories.PersonFactory(slug="other", email="other@example.org")
    client.force_login(user)

    assert "invite_by_email" not in client.get(CHANGELIST).content.decode()
    _invite(client, other)
    assert Person.objects.get(pk=other.pk).user is None
    page = client.get(f"{CHANGELIST}{other.pk}/change/", follow=True).content.decode()
    assert (
        "You can edit only your own profile and the papers, talks and awards you are "
        "credited on." in page
    )
    assert "Perhaps it was deleted" not in page


def test_the_chosen_password_signs_the_member_in_on_their_own_page(client, lab_admin_client):
    person = factories.PersonFactory(slug="feng-ren", email="feng@example.org")
    _invite(lab_admin_client, person)
    link = re.search(r"http://[^/\s]+(/accounts/reset/\S+)", mail.outbox[0].body)[1]

    form = client.get(link, follow=True)
    password = "mooncake-transfer-engine-2025"
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": password, "new_password2": password},
        follow=True,
    )

    assert done.redirect_chain[-1][0] == f"/admin/people/person/{person.pk}/change/"
    assert done.status_code == 200


def test_a_refusing_mail_server_is_reported_and_the_member_is_not_marked_invited(
    lab_admin_client, monkeypatch
):
    import smtplib

    from django.core.mail import send_mail

    def refuse_one(subject, body, sender, to):
        if to == ["gone@example.org"]:
            raise smtplib.SMTPRecipientsRefused({"gone@example.org": (550, b"No such user")})
        return send_mail(subject, body, sender, to)

    monkeypatch.setattr("people.invitations.send_mail", refuse_one)
    refused = factories.PersonFactory(name="Gone Away", slug="gone", email="gone@example.org")
    invited = factories.PersonFactory(name="Feng Ren", slug="feng-ren", email="feng@example.org")

    response = _invite(lab_admin_client, refused, invited)

    page = response.content.decode()
    assert response.status_code == 200
    assert "did not take the invitation to gone@example.org" in page
    assert "Gone Away is not invited" in page
    assert "Feng Ren is invited" in page
    refused.refresh_from_db()
    invited.refresh_from_db()
    assert refused.invited is None and invited.invited is not None
    assert [m.to for m in mail.outbox] == [["feng@example.org"]]


def test_the_mail_server_has_a_deadline(settings):
    assert 0 < settings.EMAIL_TIMEOUT <= 30


def test_an_invitation_never_publishes_the_address_it_was_sent_to(lab_admin_client, client):
    person = factories.PersonFactory(name="Feng Ren", slug="feng-ren", email="feng@example.org")

    _invite(lab_admin_client, person)

    assert mail.outbox[0].to == ["feng@example.org"]
    for page in ("/people/feng-ren/", "/people/feng-ren/cv/", "/zh-hans/people/feng-ren/"):
        assert "feng@example.org" not in client.get(page).content.decode()


def test_the_profile_shows_the_address_once_someone_chooses_to(lab_admin_client, client):
    person = factories.PersonFactory(name="Feng Ren", slug="feng-ren", email="feng@example.org")
    _invite(lab_admin_client, person)

    Person.objects.filter(pk=person.pk).update(show_email=True)

    assert 'href="mailto:feng@example.org"' in client.get("/people/feng-ren/").content.decode()
    assert "feng@example.org</a>" in client.get("/people/feng-ren/cv/").content.decode()


@pytest.mark.parametrize("signed_in", [True, False], ids=["signed-in", "password-set"])
def test_inviting_a_member_who_has_a_password_resets_nothing(lab_admin_client, signed_in):
    """The profile's address may have been changed to anyone's: a link to choose a password
    for an account its member already uses would hand the account over."""
    from django.utils import timezone

    account = factories.UserFactory(username="feng", email="feng@example.org", is_staff=True)
    account.groups.add(Group.objects.get(name="Lab member"))
    if signed_in:
        account.set_unusable_password()  # signed in through a way that kept no password
        account.last_login = timezone.now()
        account.save()
    person = factories.PersonFactory(name="Feng Ren", user=account, email="someone@evil.example")

    page = _invite(lab_admin_client, person).content.decode()

    account.refresh_from_db()
    person.refresh_from_db()
    assert "Feng Ren already has a password for the account “feng”" in page
    assert not mail.outbox
    assert account.email == "feng@example.org"
    assert person.invited is None
    if not signed_in:
        assert account.check_password("a-long-test-password")
