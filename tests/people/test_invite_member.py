"""manage.py invite_member: an account for a member, and a one-time link to set its password."""

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import CommandError, call_command

from tests.factories import PersonFactory, UserFactory

pytestmark = pytest.mark.django_db


def _invite(*args):
    out = io.StringIO()
    call_command("invite_member", *args, stdout=out)
    return out.getvalue()


def test_invite_creates_a_member_account_with_no_usable_password(db):
    person = PersonFactory(slug="feng-ren", name="Feng Ren")

    output = _invite("feng-ren", "feng@example.org")

    user = get_user_model().objects.get(username="feng-ren")
    person.refresh_from_db()
    assert person.user == user
    assert user.is_staff and not user.is_superuser
    assert list(user.groups.values_list("name", flat=True)) == ["Lab member"]
    assert not user.has_usable_password()
    assert "http://127.0.0.1:8000/accounts/reset/" in output


def test_the_link_sets_a_password_once_and_the_member_can_log_in(client, db):
    PersonFactory(slug="feng-ren", name="Feng Ren")
    link = re.search(r"http://127\.0\.0\.1:8000(\S+)", _invite("feng-ren", "feng@example.org"))[1]

    form = client.get(link, follow=True)
    set_url = form.redirect_chain[-1][0]
    new = "mooncake-transfer-engine-2025"
    done = client.post(set_url, {"new_password1": new, "new_password2": new})

    assert done.status_code == 302
    login = client.post("/admin/login/?next=/admin/", {"username": "feng-ren", "password": new})
    assert login.status_code == 302 and login["Location"] == "/admin/"
    client.logout()
    again = client.get(link, follow=True)
    assert "The password reset link was invalid" in again.content.decode()


def test_invite_mails_the_link_when_mail_is_configured(db):
    PersonFactory(slug="feng-ren", name="Feng Ren")

    output = _invite("feng-ren", "feng@example.org")

    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["feng@example.org"]
    link = re.search(r"(http://\S+/accounts/reset/\S+)", output)[1]
    assert link in mail.outbox[0].body


def test_invite_mails_in_chinese_when_asked(db):
    PersonFactory(slug="feng-ren", name="Feng Ren")

    _invite("feng-ren", "feng@example.org", "--language", "zh-hans")

    message = mail.outbox[0]
    assert message.subject == "你在实验室网站上的账号"
    assert message.body.startswith("Feng Ren，你好：")
    assert "/accounts/reset/" in message.body


@pytest.mark.parametrize("is_superuser", [False, True])
def test_invite_never_takes_over_an_existing_account_with_that_email(db, is_superuser):
    account = UserFactory(username="root", email="feng@example.org", is_superuser=is_superuser)
    person = PersonFactory(slug="feng-ren")

    with pytest.raises(CommandError, match="with this e-mail or user name already exists"):
        _invite("feng-ren", "feng@example.org")

    person.refresh_from_db()
    account.refresh_from_db()
    assert person.user is None
    assert account.groups.count() == 0
    assert account.has_usable_password()


def test_invite_refuses_a_member_whose_account_is_a_lab_admin(db):
    from django.contrib.auth.models import Group

    pi = UserFactory(username="pi", email="pi@example.org")
    pi.groups.add(Group.objects.get(name="Lab admin"))
    PersonFactory(slug="the-pi", user=pi)

    with pytest.raises(CommandError, match="invitations only set up member accounts"):
        _invite("the-pi", "pi@example.org")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nobody", "a@example.org"), "No member has the slug"),
        (("feng-ren", "not-an-email"), "is not an e-mail address"),
    ],
)
def test_invite_refuses_bad_input(db, args, message):
    PersonFactory(slug="feng-ren")

    with pytest.raises(CommandError, match=message):
        _invite(*args)


def test_invite_refuses_an_account_that_belongs_to_another_member(db):
    account = UserFactory(email="shared@example.org")
    PersonFactory(slug="teng-ma", user=account)
    PersonFactory(slug="feng-ren")

    with pytest.raises(CommandError, match="with this e-mail or user name already exists"):
        _invite("feng-ren", "shared@example.org")
