"""A lab admin invites a member in one action in Chromium; the member follows the e-mailed
link, chooses a password, lands on their own page and edits it."""

import re

import pytest
from django.core import mail

from people.models import Person
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_member_is_invited_in_one_action_and_edits_their_profile(
    lab_admin_page, browser, live_server
):
    person = factories.PersonFactory(name="Feng Ren", slug="feng-ren", email="feng@example.org")
    page = lab_admin_page

    page.goto(live_server.url + "/admin/people/person/")
    page.check(f"input[name=_selected_action][value='{person.pk}']")
    page.select_option("select[name=action]", "invite_by_email")
    page.click("button[name=index]")
    page.wait_for_load_state()

    assert "the link to choose a password went to feng@example.org" in page.inner_text(
        ".messagelist"
    )
    assert "not yet signed in" in page.inner_text("#result_list")
    (message,) = mail.outbox
    link = re.search(r"http://[^/\s]+(/accounts/reset/\S+)", message.body)[1]

    member = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    member.goto(live_server.url + link)
    member.fill("#id_new_password1", "mooncake-transfer-engine-2025")
    member.fill("#id_new_password2", "mooncake-transfer-engine-2025")
    member.click("input[type=submit]")
    member.wait_for_url(f"**/admin/people/person/{person.pk}/change/")
    member.fill("#id_title_en", "PhD Student")
    member.click("input[name=_save]")
    member.wait_for_load_state()

    assert Person.objects.get(pk=person.pk).title_en == "PhD Student"
    assert "was changed successfully" in member.inner_text(".messagelist")
    member.context.close()
