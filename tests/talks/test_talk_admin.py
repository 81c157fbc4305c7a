"""Talk and Award admins: speakers in order, autocomplete, filters, and bad dates refused."""

import pytest

from talks.models import Award, Talk
from tests.admin_forms import form_data
from tests.factories import PersonFactory, PublicationFactory, RecipientFactory, SpeakerFactory

pytestmark = pytest.mark.django_db

TALK_ADD = "/admin/talks/talk/add/"
AWARD_ADD = "/admin/talks/award/add/"


def test_admin_adds_a_talk_with_speakers_in_order_and_detects_chinese(admin_client):
    teng = PersonFactory(name="Teng Ma")
    data = form_data(
        admin_client.get(TALK_ADD),
        title="记忆感知的大模型KVCache优化",
        kind="invited",
        date="2026.06",
        event="AICon",
        is_published="on",
        **{
            "speakers-TOTAL_FORMS": "2",
            "speakers-0-position": "2",
            "speakers-0-name": "Guest Speaker",
            "speakers-1-position": "1",
            "speakers-1-person": str(teng.pk),
        },
    )

    response = admin_client.post(TALK_ADD, data)

    assert response.status_code == 302, response.context["errors"]
    talk = Talk.objects.get()
    assert (talk.date.isoformat(), talk.language) == ("2026-06", "zh")
    assert [str(s) for s in talk.speakers.all()] == ["Teng Ma", "Guest Speaker"]


@pytest.mark.parametrize("bad", ["2026.13", "June", "2026-02-30", "26"])
def test_admin_refuses_bad_partial_dates_with_a_clear_error(admin_client, bad):
    data = form_data(admin_client.get(TALK_ADD), title="T", kind="invited", date=bad)

    response = admin_client.post(TALK_ADD, data)

    assert response.status_code == 200
    assert "Enter a date as YYYY, YYYY-MM or YYYY-MM-DD" in response.content.decode()
    assert not Talk.objects.exists()


def test_admin_refuses_a_speaker_row_with_neither_person_nor_name(admin_client):
    data = form_data(
        admin_client.get(TALK_ADD),
        title="T",
        kind="invited",
        date="2025",
        **{"speakers-TOTAL_FORMS": "1", "speakers-0-position": "3"},
    )

    response = admin_client.post(TALK_ADD, data)

    assert "Choose a lab member or type the name." in response.content.decode()


def test_admin_adds_an_award_tied_to_a_publication(admin_client):
    paper = PublicationFactory(title="Mooncake FAST")
    feng = PersonFactory(name="Feng Ren")
    data = form_data(
        admin_client.get(AWARD_ADD),
        name="Best Paper",
        kind="best-paper",
        date="2025-02",
        publication=str(paper.pk),
        is_published="on",
        **{
            "recipients-TOTAL_FORMS": "1",
            "recipients-0-person": str(feng.pk),
            "recipients-0-position": "1",
        },
    )

    response = admin_client.post(AWARD_ADD, data)

    assert response.status_code == 302, response.context["errors"]
    award = Award.objects.get()
    assert award.publication == paper and [r.person for r in award.recipients.all()] == [feng]
    assert paper.award_labels() == ["Best Paper"]


def test_admin_filters_talks_by_year_and_member_and_searches_speakers(admin_client):
    teng = PersonFactory(slug="teng-ma", name="Teng Ma")
    SpeakerFactory(person=teng, talk__title="HydraRPC", talk__date="2024-07")
    SpeakerFactory(person=None, name="Outside Person", talk__title="Other", talk__date="2020")

    def titles(query):
        return [
            t.title for t in admin_client.get("/admin/talks/talk/", query).context["cl"].result_list
        ]

    assert titles({"year": "2024"}) == ["HydraRPC"]
    assert titles({"member": "teng-ma"}) == ["HydraRPC"]
    assert titles({"q": "Outside"}) == ["Other"]


def test_admin_filters_awards_by_member(admin_client):
    teng = PersonFactory(slug="teng-ma")
    RecipientFactory(person=teng, award__name="Mine")
    RecipientFactory(award__name="Theirs")

    response = admin_client.get("/admin/talks/award/", {"member": "teng-ma"})

    assert [a.name for a in response.context["cl"].result_list] == ["Mine"]


def test_deleting_a_person_keeps_their_printed_name_on_shared_talks_and_awards(db):
    from talks.models import Recipient, Speaker
    from tests.factories import PersonFactory, RecipientFactory, SpeakerFactory

    member = PersonFactory(name="Feng Ren")
    speaker = SpeakerFactory(person=member)
    SpeakerFactory(talk=speaker.talk, person=None, name="Guest Speaker", position=2)
    recipient = RecipientFactory(person=member)

    member.delete()

    speaker, recipient = Speaker.objects.get(pk=speaker.pk), Recipient.objects.get(pk=recipient.pk)
    assert (speaker.person, speaker.name) == (None, "Feng Ren")
    assert (recipient.person, recipient.name) == (None, "Feng Ren")
    assert speaker.talk.speakers.count() == 2
