"""Reviewing harvested work in the admin: accept (the import's preview, then a new paper),
merge into a paper (only what it lacks), reject, "not me"; members see and review only their
own candidates; lab admins everyone's, and they queue harvests."""

import io

import pytest
from django.core.management import call_command

from harvest.models import Candidate, HarvestRun
from people.models import Person
from publications.models import Publication
from tests.factories import authored

pytestmark = pytest.mark.django_db
DATA_REUSE = "Data reuse and the open data citation advantage"


@pytest.fixture
def harvested(services, piwowar, cast):
    """The recorded member is the cast's owner member; their works harvested."""
    Person.objects.filter(slug="owner").delete()
    piwowar.user = cast["owner"]
    piwowar.save()
    call_command("harvest", stdout=io.StringIO(), stderr=io.StringIO())
    return {c.title: c for c in Candidate.objects.all()}


def review_url(candidate):
    return f"/admin/harvest/candidate/{candidate.pk}/review/"


def test_accepting_shows_what_the_import_would_write_then_writes_it(
    harvested, cast, client, piwowar
):
    client.force_login(cast["admin"])
    candidate = harvested[DATA_REUSE]

    page = client.get(review_url(candidate)).content.decode()
    assert "A new paper." in page
    assert "Heather A. Piwowar (Heather A. Piwowar)" in page  # the author linked to the member
    assert "ORCID" in page and "DBLP" in page and "Crossref" in page and "OpenAlex" in page
    assert not Publication.objects.filter(title=DATA_REUSE).exists()

    response = client.post(review_url(candidate), {"action": "accept"})

    assert response.status_code == 302
    paper = Publication.objects.get(title=DATA_REUSE)
    assert (paper.doi, paper.volume, paper.pages) == ("10.7717/peerj.175", "1", "e175")
    assert [a.person for a in paper.authorships.order_by("position")] == [piwowar, None]
    candidate.refresh_from_db()
    assert (candidate.status, candidate.publication, candidate.reviewed_by) == (
        "accepted",
        paper,
        cast["admin"],
    )
    assert paper.history.first().history_user == cast["admin"]


def test_merging_into_a_paper_previews_then_fills_only_what_it_lacks(
    harvested, cast, client, piwowar
):
    paper = authored(
        piwowar,
        names=("Heather Piwowar", "Todd Vision"),
        at=1,
        title="Data reuse and citation (working title)",
        date="2013",
    )
    client.force_login(cast["admin"])
    candidate = harvested[DATA_REUSE]

    page = client.post(
        review_url(candidate), {"action": "merge-preview", "publication": paper.pk}
    ).content.decode()
    assert "Fills what the paper lacks:" in page and "doi" in page
    paper.refresh_from_db()
    assert paper.doi == ""

    client.post(review_url(candidate), {"action": "merge", "publication": paper.pk})

    paper.refresh_from_db()
    assert paper.doi == "10.7717/peerj.175"
    assert paper.title == "Data reuse and citation (working title)"  # the lab's title stays
    candidate.refresh_from_db()
    assert (candidate.status, candidate.publication) == ("merged", paper)


def test_rejecting_from_the_review_page(harvested, cast, client):
    client.force_login(cast["owner"])
    candidate = harvested[DATA_REUSE]

    client.post(review_url(candidate), {"action": "reject"})

    candidate.refresh_from_db()
    assert candidate.status == "rejected"
    page = client.post(review_url(candidate), {"action": "accept"}, follow=True).content.decode()
    assert "has already been reviewed" in page
    assert not Publication.objects.filter(title=DATA_REUSE).exists()


def test_a_member_rejects_a_shared_work_for_themselves_only(harvested, cast, signed_in):
    """A work found for two members: one member's "reject" is theirs; the other still
    decides, and it is rejected for good once neither claims it."""
    candidate = harvested[DATA_REUSE]
    candidate.people.add(Person.objects.get(slug="other"))
    owner, other = signed_in(cast["owner"]), signed_in(cast["other"])

    page = owner.post(review_url(candidate), {"action": "reject"}, follow=True)

    candidate.refresh_from_db()
    assert candidate.status == "open"
    assert "It stays open for the others it was found for." in page.content.decode()
    assert DATA_REUSE not in owner.get("/admin/harvest/candidate/").content.decode()
    assert DATA_REUSE in other.get("/admin/harvest/candidate/").content.decode()
    assert other.get(review_url(candidate)).status_code == 200

    other.post(review_url(candidate), {"action": "reject"})

    candidate.refresh_from_db()
    assert candidate.status == "rejected"


def test_the_reject_action_on_a_shared_work_is_per_member_too(harvested, cast, signed_in):
    candidate = harvested[DATA_REUSE]
    candidate.people.add(Person.objects.get(slug="other"))

    signed_in(cast["owner"]).post(
        "/admin/harvest/candidate/",
        {"action": "reject_selected", "_selected_action": [candidate.pk]},
    )

    candidate.refresh_from_db()
    assert candidate.status == "open"
    assert list(Candidate.objects.for_person(Person.objects.get(slug="other"))) == [candidate]


def test_a_lab_admin_rejects_a_shared_work_for_everyone(harvested, cast, signed_in):
    candidate = harvested[DATA_REUSE]
    candidate.people.add(Person.objects.get(slug="other"))

    signed_in(cast["admin"]).post(review_url(candidate), {"action": "reject"})

    candidate.refresh_from_db()
    assert candidate.status == "rejected"


def test_a_member_says_not_mine_and_no_longer_sees_it(harvested, cast, client):
    client.force_login(cast["owner"])
    candidate = harvested[DATA_REUSE]

    client.post(review_url(candidate), {"action": "disown"})

    listing = client.get("/admin/harvest/candidate/").content.decode()
    assert DATA_REUSE not in listing
    assert "Altmetrics in the wild" in listing


def test_a_member_sees_only_their_own_candidates(harvested, cast, client):
    client.force_login(cast["other"])

    listing = client.get("/admin/harvest/candidate/")
    response = client.get(review_url(harvested[DATA_REUSE]))

    assert listing.status_code == 200 and DATA_REUSE not in listing.content.decode()
    assert response.status_code == 404
    client.post(review_url(harvested[DATA_REUSE]), {"action": "reject"})
    assert Candidate.objects.get(title=DATA_REUSE).status == "open"


def test_a_lab_admin_sees_everyones_and_filters_by_source(harvested, cast, client):
    client.force_login(cast["admin"])

    listing = client.get("/admin/harvest/candidate/?source=arxiv").content.decode()

    assert "Altmetrics in the wild" in listing and DATA_REUSE not in listing


def test_nobody_adds_or_deletes_candidates_by_hand(harvested, cast, client):
    client.force_login(cast["admin"])

    assert client.get("/admin/harvest/candidate/add/").status_code == 403
    assert (
        client.get(f"/admin/harvest/candidate/{harvested[DATA_REUSE].pk}/delete/").status_code
        == 403
    )


def test_harvest_now_queues_the_same_work_and_shows_its_report(services, piwowar, cast, client):
    client.force_login(cast["admin"])

    response = client.post("/admin/harvest/harvestrun/now/")

    run = HarvestRun.objects.get()
    assert response.status_code == 302 and run.trigger == "admin: labadmin"
    assert run.status == "done" and run.report["orcid"]["fetched"] == 4
    page = client.get(f"/admin/harvest/harvestrun/{run.pk}/change/").content.decode()
    assert "fetched" in page and "Crossref" in page
    assert Candidate.objects.count() == 5


def test_members_neither_see_runs_nor_queue_them(cast, client):
    client.force_login(cast["owner"])

    assert client.get("/admin/harvest/harvestrun/").status_code == 403
    assert client.post("/admin/harvest/harvestrun/now/").status_code == 403
    assert not HarvestRun.objects.exists()


def test_a_member_cannot_merge_into_a_paper_they_do_not_author(harvested, cast, client):
    someone_elses = authored(
        Person.objects.get(slug="other"), ["Other Member"], at=1, title="Not theirs"
    )
    client.force_login(cast["owner"])
    candidate = harvested[DATA_REUSE]

    page = client.post(
        review_url(candidate), {"action": "merge", "publication": someone_elses.pk}
    ).content.decode()

    someone_elses.refresh_from_db()
    assert someone_elses.doi == ""
    assert "Select a valid choice" in page
    assert Candidate.objects.get(pk=candidate.pk).status == "open"


def test_a_member_accepting_a_work_that_is_now_someone_elses_paper_is_refused(
    harvested, cast, client
):
    paper = authored(
        Person.objects.get(slug="other"),
        ["Other Member"],
        at=1,
        title=DATA_REUSE,
        doi="10.7717/peerj.175",
    )
    client.force_login(cast["owner"])
    candidate = harvested[DATA_REUSE]

    page = client.post(review_url(candidate), {"action": "accept"}, follow=True).content.decode()

    assert "a paper you are not an author of" in page
    paper.refresh_from_db()
    assert paper.volume == "" and Candidate.objects.get(pk=candidate.pk).status == "open"


def test_once_the_journal_version_is_accepted_its_preprints_review_offers_the_merge_into_it(
    harvested, cast, client
):
    client.force_login(cast["admin"])
    journal = next(c for c in harvested.values() if c.title.startswith("The state of OA"))
    preprint = next(c for c in harvested.values() if c.title.startswith("The State of OA"))
    assert preprint.version_of_candidate == journal
    client.post(review_url(journal), {"action": "accept"})
    paper = Publication.objects.get(doi="10.7717/peerj.4375")

    page = client.get(review_url(preprint)).content.decode()

    assert f'<option value="{paper.pk}" selected>' in page


def _versions(harvested):
    journal = next(c for c in harvested.values() if c.title.startswith("The state of OA"))
    preprint = next(c for c in harvested.values() if c.title.startswith("The State of OA"))
    return journal, preprint


def test_accepting_a_preprint_whose_journal_version_is_in_the_lab_joins_that_paper(
    harvested, cast, client
):
    client.force_login(cast["admin"])
    journal, preprint = _versions(harvested)
    client.post(review_url(journal), {"action": "accept"})
    paper = Publication.objects.get(doi="10.7717/peerj.4375")

    page = client.get(review_url(preprint)).content.decode()
    assert "It joins “The state of OA" in page
    response = client.post(review_url(preprint), {"action": "accept"}, follow=True)

    assert "Accepted into “The state of OA" in response.content.decode()
    assert list(Publication.objects.filter(title_key=paper.title_key)) == [paper]
    paper.refresh_from_db()
    assert (paper.doi, paper.status, paper.kind) == ("10.7717/peerj.4375", "published", "journal")
    preprint.refresh_from_db()
    assert (preprint.status, preprint.publication) == ("merged", paper)


def test_accepting_the_journal_version_of_a_preprint_in_the_lab_makes_it_the_version_of_record(
    harvested, cast, client
):
    client.force_login(cast["admin"])
    journal, preprint = _versions(harvested)
    client.post(review_url(preprint), {"action": "accept"})
    paper = Publication.objects.get(doi="10.7287/peerj.preprints.3119v1")
    assert (paper.status, paper.kind) == ("preprint", "preprint")

    page = client.get(review_url(journal)).content.decode()
    assert "The paper becomes this published version:" in page
    client.post(review_url(journal), {"action": "accept"})

    assert list(Publication.objects.filter(title_key=paper.title_key)) == [paper]
    paper.refresh_from_db()
    assert (paper.doi, paper.status, paper.kind) == ("10.7717/peerj.4375", "published", "journal")
    assert paper.title == journal.title and paper.date.isoformat() == "2018-02-13"
    assert paper.venue.short_name != "PeerJ Preprints" and paper.volume == "6"
    assert paper.source_fields["preprint_doi"] == "10.7287/peerj.preprints.3119v1"
    rows = paper.authorships.order_by("position")
    assert [a.family_name for a in rows] == [a["family"] for a in journal.record["authors"]]
    assert rows[0].person.name == "Heather A. Piwowar" and len(rows) == 9
    journal.refresh_from_db()
    assert (journal.status, journal.publication) == ("merged", paper)


def test_accepting_both_versions_at_once_makes_one_paper(harvested, cast, client):
    client.force_login(cast["admin"])
    journal, preprint = _versions(harvested)

    client.post(
        "/admin/harvest/candidate/",
        {"action": "accept_selected", "_selected_action": [journal.pk, preprint.pk]},
    )

    paper = Publication.objects.get(doi="10.7717/peerj.4375")
    assert list(Publication.objects.filter(title_key=paper.title_key)) == [paper]
    assert paper.status == "published"
    statuses = set(Candidate.objects.filter(publication=paper).values_list("status", flat=True))
    assert statuses == {"accepted", "merged"}


def test_a_member_accepting_a_version_of_someone_elses_paper_is_refused(harvested, cast, client):
    journal, preprint = _versions(harvested)
    client.force_login(cast["admin"])
    client.post(review_url(journal), {"action": "accept"})
    paper = Publication.objects.get(doi="10.7717/peerj.4375")
    paper.authorships.update(person=None)  # no longer the member's
    client.force_login(cast["owner"])

    page = client.post(review_url(preprint), {"action": "accept"}, follow=True).content.decode()

    assert "another version of it is" in page and "a paper you are not an author of" in page
    assert Publication.objects.filter(title_key=paper.title_key).count() == 1
    assert Candidate.objects.get(pk=preprint.pk).status == "open"
