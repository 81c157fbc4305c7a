"""Auto-accept, the lab's choice: a new work whose source names the member by their own
identifier, with a DOI or an arXiv id and nothing for a reviewer to decide, is accepted by
the harvest itself through the review's accept, said so in its history and in the member's
digest, and undone by one button that restores the lab as it was."""

import io
import json

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client

from harvest import review
from harvest.matching import fold
from harvest.models import Candidate, HarvestRun, Source
from harvest.runs import execute
from harvest.sources import arxiv, crossref, dblp, harvesters, openalex, orcid
from lab.models import LabSettings
from people.models import Person
from publications.models import Authorship, Publication, Venue
from tags.models import Tag
from tests.admin_forms import form_data
from tests.factories import PersonFactory, authored
from tests.harvest.test_harvested_kinds import WITH_A_THESIS, RecordedOrcid
from tests.harvest.test_real_answers import REAL, Answers, Recorded, _read

pytestmark = pytest.mark.django_db


def dump():
    """The rows an acceptance writes and its undo must restore, as plain values."""
    candidates = Candidate.objects.order_by("pk").values_list(
        "pk", "status", "publication", "reviewed", "reviewed_by", "auto_accepted_from"
    )
    return {
        "papers": list(Publication.objects.order_by("pk").values()),
        "authors": list(Authorship.objects.order_by("pk").values()),
        "venues": list(Venue.objects.order_by("pk").values()),
        "tags": list(Tag.objects.order_by("pk").values()),
        "paper tags": list(Publication.tags.through.objects.order_by("pk").values()),
        "candidates": list(candidates),
        "notified": list(Candidate.notified.through.objects.order_by("pk").values()),
    }


def _works(module, member, *answers):
    """The works (no skipped ones) a reader finds for `member` in recorded answers."""
    found = module.works(member, Answers(*answers), [].append)
    return [f for f in found if not f.skipped]


def _real_works_for_their_members():
    """[(member, work)] over every recorded real answer, each read for the member it
    lists (an ORCID list for its iD's owner, DBLP's person page for its pid, OpenAlex's list
    for its most frequent author); the answers no member owns (Crossref's and arXiv's
    lists, DBLP's encyclopedia) are read for a member with no identifier there."""
    pairs = []
    for path in sorted(REAL.glob("orcid-*-works.json")):
        orcid_id = path.name.split("-", 2)[2].rsplit("-works", 1)[0]
        member = PersonFactory(name=f"ORCID {orcid_id}", orcid=orcid_id)
        pairs += [(member, f) for f in _works(orcid, member, json.loads(path.read_text()))]
    di_xu = PersonFactory(name="Di Xu", dblp_pid="95/7448-1")
    pairs += [
        (di_xu, f) for f in _read(dblp, (REAL / "dblp-openreview-95-7448-1.xml").read_text())[0]
    ]
    results = json.loads((REAL / "openalex-openalexpro-works.json").read_text())["results"]
    page = {"meta": {"next_cursor": None}, "results": results}
    author = PersonFactory(name="OpenAlex A5007671479", openalex_id="A5007671479")
    pairs += [(author, f) for f in _read(openalex, page)[0]]
    nobody = PersonFactory(name="Adrian Del Maestro", orcid=Recorded.orcid)
    crossref_page = json.loads((REAL / "crossref-habanero-works.json").read_text())
    end = {"message": {"items": [], "next-cursor": ""}}
    pairs += [(nobody, f) for f in _read(crossref, crossref_page, end)[0]]
    pairs += [
        (nobody, f) for f in _read(arxiv, (REAL / "arxiv-arxivpy-entries.atom").read_text())[0]
    ]
    pairs += [(nobody, f) for f in _read(dblp, (REAL / "dblp-dump-excerpt.xml").read_text())[0]]
    return pairs


def test_on_the_real_answers_every_auto_accepted_paper_has_its_member_and_an_id_and_undo_restores():
    pairs = _real_works_for_their_members()
    outcome = fold(pairs)
    before = dump()

    accepted = review.auto_accept(outcome.created, list(harvesters()))

    papers = Publication.objects.filter(harvest_candidates__auto_accepted_from__gt="")
    # 224 of 791: the ORCID lists' works with a DOI and nothing to review, Di Xu's DBLP
    # papers, and the OpenAlex works naming their author; Crossref's and arXiv's answers
    # name no member by an identifier, and a work found for a member it does not name waits
    assert accepted == {Source.ORCID: 210, Source.DBLP: 8, Source.OPENALEX: 6}
    assert (len(outcome.created), papers.count()) == (791, 224)
    wrong = []
    for paper in papers.prefetch_related("authorships", "harvest_candidates__people"):
        (work,) = paper.harvest_candidates.all()
        members = {p.pk for p in work.people.all()}
        if not (paper.doi or paper.arxiv_id) or not members <= {
            a.person_id for a in paper.authorships.all()
        }:
            wrong.append(paper.display_title)
    assert wrong == []
    assert Candidate.objects.open().count() == len(outcome.created) - papers.count()

    # undone one by one (a venue several of them share goes with the last)
    for candidate in Candidate.objects.auto_accepted():
        review.undo_auto_accept(candidate, None)

    assert dump() == before


DATA_REUSE = "Data reuse and the open data citation advantage"
SHARING = "Sharing Detailed Research Data Is Associated with Increased Citation Rate"
ALTMETRICS = "Altmetrics in the wild"
SETTINGS = "/admin/lab/labsettings/1/change/"


def auto_accept_from(*sources):
    lab = LabSettings.load()
    lab.auto_accepted_sources = list(sources)
    lab.full_clean()
    lab.save()


def harvest():
    out = io.StringIO()
    call_command("harvest", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def candidate(title):
    return Candidate.objects.get(title__startswith=title)


def test_auto_accept_is_off_by_default_and_every_work_waits_for_review(services, piwowar):
    assert LabSettings.load().auto_accepted_sources == []

    out = harvest()

    assert "accepted without review" not in out
    assert not Publication.objects.exists()
    assert set(Candidate.objects.values_list("status", flat=True)) == {"open"}


def test_a_run_accepts_the_works_whose_chosen_source_names_the_member_and_says_so(
    services, piwowar
):
    auto_accept_from(Source.ORCID)

    out = harvest()

    assert "accepted without review: orcid 2" in out
    for title in (DATA_REUSE, SHARING):
        work = candidate(title)
        paper = Publication.objects.get(title__startswith=title)
        assert (work.status, work.publication, work.auto_accepted_from) == (
            "accepted",
            paper,
            "orcid",
        )
        assert work.reviewed_by is None and paper.doi
        assert piwowar in [a.person for a in paper.authorships.all()]
        assert paper.history.get().history_change_reason == "auto-accepted from ORCID"
        assert work.history.first().history_change_reason == "auto-accepted from ORCID"
    # found at arXiv, DBLP and OpenAlex only: ORCID's choice does not reach it
    assert candidate(ALTMETRICS).status == "open"
    # a preprint and its published version: which is the paper is a reviewer's decision
    assert set(
        Candidate.objects.filter(title__istartswith="The state of OA").values_list(
            "status", flat=True
        )
    ) == {"open"}
    run = HarvestRun.objects.get()
    assert run.report["auto_accepted"] == {"orcid": 2}
    client = Client()
    client.force_login(_admin())
    page = client.get(run.get_absolute_url()).content.decode()
    assert "Accepted without review, as the lab&#x27;s settings let it: ORCID 2." in page


def _admin():
    from tests.factories import UserFactory

    return UserFactory(username="root", is_staff=True, is_superuser=True)


def test_with_every_source_chosen_each_work_is_accepted_from_the_source_naming_the_member(
    services, piwowar
):
    auto_accept_from(*harvesters())

    harvest()

    assert HarvestRun.objects.get().report["auto_accepted"] == {"orcid": 2, "openalex": 1}
    assert candidate(ALTMETRICS).auto_accepted_from == "openalex"
    assert Publication.objects.count() == 3


def test_a_work_the_lab_may_hold_by_its_title_waits_for_review(services, piwowar):
    authored(piwowar, names=("Heather Piwowar", "Todd Vision"), at=1, title=SHARING, date="2007")
    auto_accept_from(Source.ORCID)

    harvest()

    assert candidate(SHARING).status == "open"
    assert Publication.objects.filter(title=SHARING).count() == 1
    assert candidate(DATA_REUSE).status == "accepted"


def test_a_work_whose_author_list_the_run_could_not_complete_waits(settings):
    settings.HARVEST_MAX_COMPLETIONS = 0  # every DOI left for the next run
    auto_accept_from(Source.ORCID)
    PersonFactory(name="Adrian Del Maestro", orcid="0000-0002-1825-0097")

    run = execute(HarvestRun.objects.create(sources=["orcid"]), RecordedOrcid(WITH_A_THESIS))

    assert run.report["auto_accepted"] == {}
    assert not Publication.objects.exists()


def test_a_work_crossref_does_not_know_is_accepted_with_the_authors_orcid_gives():
    auto_accept_from(Source.ORCID)
    member = PersonFactory(name="Adrian Del Maestro", orcid="0000-0002-1825-0097")

    run = execute(HarvestRun.objects.create(sources=["orcid"]), RecordedOrcid(WITH_A_THESIS))

    # 31 candidates: the 4 with a DOI, nothing to review, are accepted
    assert run.report["auto_accepted"] == {"orcid": 4}
    for paper in Publication.objects.all():
        assert paper.doi and member in [a.person for a in paper.authorships.all()]


@pytest.fixture
def accepted(services, piwowar, cast):
    """The cast's owner is the recorded member; ORCID's works naming her accepted."""
    Person.objects.filter(slug="owner").delete()
    piwowar.user = cast["owner"]
    piwowar.email = "heather@example.org"
    piwowar.save()
    auto_accept_from(Source.ORCID)
    harvest()
    return candidate(DATA_REUSE)


def undo_url(work):
    return f"/admin/harvest/candidate/{work.pk}/undo/"


def test_the_digest_lists_the_accepted_works_each_with_its_undo_link_once(accepted, settings):
    settings.SITE_URL = "https://lab.example"

    call_command("send_harvest_digests", stdout=io.StringIO())

    (message,) = mail.outbox
    assert message.subject == "3 new works found for you to review"
    assert "accepted these works for you without waiting for review" in message.body
    assert f"{DATA_REUSE} (2013) (ORCID)" in message.body
    assert f"Undo: https://lab.example{undo_url(accepted)}" in message.body
    waiting = message.body.split("without waiting for review")[0]
    assert DATA_REUSE not in waiting and ALTMETRICS in waiting
    call_command("send_harvest_digests", stdout=io.StringIO())
    assert len(mail.outbox) == 1


def test_a_digest_of_accepted_works_alone_says_so_in_its_subject(accepted, admin_user):
    for work in Candidate.objects.open():
        review.reject(work, admin_user)

    call_command("send_harvest_digests", stdout=io.StringIO())

    assert mail.outbox[0].subject == "2 works accepted for you by the harvest"


def test_the_member_undoes_an_acceptance_with_one_button_and_the_work_waits_again(accepted, cast):
    client = Client(enforce_csrf_checks=True)
    client.force_login(cast["owner"])
    paper = accepted.publication

    page = client.get(undo_url(accepted))

    assert page.status_code == 200 and Publication.objects.filter(pk=paper.pk).exists()
    html = page.content.decode()
    assert "Undo: review it myself" in html and "csrfmiddlewaretoken" in html
    token = page.cookies["csrftoken"].value
    assert client.post(undo_url(accepted)).status_code == 403  # no CSRF token
    response = client.post(undo_url(accepted), {"csrfmiddlewaretoken": token})

    assert response.status_code == 302
    assert response["Location"] == f"/admin/harvest/candidate/{accepted.pk}/review/"
    assert not Publication.objects.filter(pk=paper.pk).exists()
    accepted.refresh_from_db()
    assert (accepted.status, accepted.publication, accepted.auto_accepted_from) == (
        "open",
        None,
        "",
    )
    assert accepted.history.first().history_change_reason == "auto-accept undone"
    review_page = client.get(f"/admin/harvest/candidate/{accepted.pk}/review/").content.decode()
    assert "Accepting it would write" in review_page
    # undone once: a second press changes nothing and says why
    again = client.post(undo_url(accepted), {"csrfmiddlewaretoken": token}, follow=True)
    assert "is not a work the harvest accepted" in again.content.decode()


def test_only_the_member_or_a_lab_admin_may_undo(accepted, cast, signed_in):
    paper = accepted.publication

    assert signed_in(cast["other"]).post(undo_url(accepted)).status_code in (403, 404)
    assert Client().post(undo_url(accepted)).status_code == 302  # to the login page
    assert Publication.objects.filter(pk=paper.pk).exists()

    assert signed_in(cast["admin"]).post(undo_url(accepted)).status_code == 302
    assert not Publication.objects.filter(pk=paper.pk).exists()


def test_the_review_page_of_an_accepted_work_links_to_its_undo(accepted, cast, signed_in):
    page = signed_in(cast["owner"]).get(f"/admin/harvest/candidate/{accepted.pk}/review/")

    assert "Accepted by the harvest without review" in page.content.decode()
    assert undo_url(accepted) in page.content.decode()


def test_undo_is_refused_once_another_work_was_merged_into_the_paper(accepted, admin_user):
    other = candidate(ALTMETRICS)
    review.merge(other, accepted.publication, admin_user)

    with pytest.raises(review.ReviewProblem):
        review.undo_auto_accept(accepted, admin_user)

    assert Publication.objects.filter(pk=accepted.publication_id).exists()


@pytest.mark.parametrize("edited", ["paper", "authors"])
def test_undo_is_refused_once_a_person_edited_the_paper_and_their_edit_stays(
    accepted, cast, signed_in, edited
):
    paper = accepted.publication
    if edited == "paper":
        paper.title = "Mooncake, as the member corrected it"
        paper._history_user = cast["owner"]
        paper.save()
    else:
        authorship = paper.authorships.first()
        authorship.is_corresponding = True
        authorship._history_user = cast["owner"]
        authorship.save()

    page = signed_in(cast["owner"]).post(undo_url(accepted), follow=True)

    assert "has been edited since the harvest accepted it" in page.content.decode()
    paper.refresh_from_db()
    accepted.refresh_from_db()
    assert accepted.status == "accepted" and accepted.publication == paper
    if edited == "paper":
        assert paper.title == "Mooncake, as the member corrected it"


def test_the_settings_refuse_a_source_the_harvest_does_not_read_and_order_the_rest():
    lab = LabSettings.load()
    lab.auto_accepted_sources = ["dblp", "orcid", "dblp"]
    lab.full_clean()
    assert lab.auto_accepted_sources == ["orcid", "dblp"]

    lab.auto_accepted_sources = ["orcid", "scholar"]
    with pytest.raises(ValidationError) as refused:
        lab.full_clean()
    assert refused.value.message_dict == {"auto_accepted_sources": ["Unknown source(s): scholar."]}


def test_a_lab_admin_chooses_the_sources_in_the_settings_form_which_lists_every_source(
    cast, signed_in, monkeypatch
):
    from harvest import sources

    registry = sources.harvesters()
    monkeypatch.setattr(sources, "harvesters", lambda: {**registry, "newsource": None})
    LabSettings.load()
    client = signed_in(cast["admin"])
    page = client.get(SETTINGS)
    html = page.content.decode()
    for code in [*registry, "newsource"]:  # a source added to the registry is offered
        assert f'value="{code}"' in html

    response = client.post(SETTINGS, form_data(page, auto_accepted_sources=["newsource", "orcid"]))

    assert response.status_code == 302
    assert LabSettings.objects.get().auto_accepted_sources == ["orcid", "newsource"]


def test_the_settings_form_offers_auto_accept_in_chinese(cast, signed_in):
    LabSettings.load()
    client = signed_in(cast["admin"])
    client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/admin/"})

    html = client.get(SETTINGS).content.decode()

    assert "无需审核即接受其成果的来源" in html
