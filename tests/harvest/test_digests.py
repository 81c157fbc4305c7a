"""The weekly digest: each member hears of the works newly waiting for them, once."""

import io

import pytest
from django.core import mail
from django.core.management import call_command

from harvest.models import Candidate

pytestmark = pytest.mark.django_db


def digests():
    out = io.StringIO()
    call_command("send_harvest_digests", stdout=out)
    return out.getvalue()


def test_a_member_hears_of_their_new_works_once(services, piwowar, settings):
    settings.SITE_URL = "https://lab.example"
    piwowar.email = "heather@example.org"
    piwowar.save()
    call_command("harvest", stdout=io.StringIO(), stderr=io.StringIO())

    out = digests()

    assert "Heather A. Piwowar: 5 work(s)" in out
    (message,) = mail.outbox
    assert message.to == ["heather@example.org"]
    assert message.subject == "5 new works found for you to review"
    assert "Data reuse and the open data citation advantage (2013)" in message.body
    first = Candidate.objects.get(title__startswith="Data reuse")
    assert f"https://lab.example/admin/harvest/candidate/{first.pk}/change/" in message.body

    assert "0 digest(s) sent." in digests()
    assert len(mail.outbox) == 1


def test_a_member_without_an_address_or_with_nothing_new_gets_none(services, piwowar):
    call_command("harvest", stdout=io.StringIO(), stderr=io.StringIO())

    assert "0 digest(s) sent." in digests()  # no address on the profile or the account
    assert mail.outbox == []


def test_a_reviewed_or_disowned_work_is_not_in_the_digest(services, piwowar, admin_user):
    from harvest import review

    piwowar.email = "heather@example.org"
    piwowar.save()
    call_command("harvest", stdout=io.StringIO(), stderr=io.StringIO())
    for candidate in Candidate.objects.exclude(title__startswith="Data reuse"):
        review.reject(candidate, admin_user)

    digests()

    assert mail.outbox[0].subject == "1 new work found for you to review"
