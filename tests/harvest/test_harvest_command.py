"""`manage.py harvest` over the recorded services: one candidate per work with all its
provenances, works already in the lab only filled, preprints linked, nothing twice, and a
failing source reported while the others go on."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from harvest.models import Candidate, HarvestRun
from lab.models import LabSettings
from labsite.page_cache import content_version
from publications.models import Publication
from tests.factories import PersonFactory, authored

pytestmark = pytest.mark.django_db

STATE_OF_OA = (
    "The state of OA: a large-scale analysis of the prevalence and impact of Open Access articles"
)
PREPRINT = (
    "The State of OA: A large-scale analysis of the prevalence and impact of Open Access articles"
)
DATA_REUSE = "Data reuse and the open data citation advantage"
ALTMETRICS = "Altmetrics in the wild: Using social media to explore scholarly impact"
SHARING = "Sharing Detailed Research Data Is Associated with Increased Citation Rate"


def harvest(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("harvest", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def candidate_table():
    return {
        c.title: sorted({p.source for p in c.provenances.all()})
        for c in Candidate.objects.prefetch_related("provenances")
    }


@pytest.fixture
def sharing_in_lab(piwowar):
    """The 2007 paper, already in the lab without its volume, issue and pages."""
    return authored(
        piwowar,
        names=("Heather A. Piwowar", "Roger S. Day", "Douglas B. Fridsma"),
        at=1,
        title=SHARING,
        doi="10.1371/journal.pone.0000308",
        date="2007-03",
        kind=Publication.Kind.JOURNAL,
    )


def test_each_work_becomes_one_candidate_with_every_source_that_lists_it(
    services, piwowar, sharing_in_lab
):
    out, err = harvest()

    assert candidate_table() == {
        STATE_OF_OA: ["crossref", "openalex", "orcid"],
        PREPRINT: ["crossref", "openalex", "orcid"],
        DATA_REUSE: ["crossref", "dblp", "openalex", "orcid"],
        ALTMETRICS: ["arxiv", "dblp", "openalex"],
    }
    assert set(Candidate.objects.values_list("status", flat=True)) == {"open"}
    assert list(
        Candidate.objects.for_person(piwowar).order_by("title").values_list("title", flat=True)
    ) == sorted(candidate_table())
    assert "orcid: 4 fetched, 3 new, 1 matched, 0 error(s)" in out
    assert "openalex: 5 fetched, 4 new, 1 matched, 0 error(s)" in out
    assert "dblp: 3 fetched, 2 new, 1 matched, 0 error(s)" in out
    assert "arxiv: 1 fetched, 1 new, 0 matched, 0 error(s)" in out
    assert "4 candidate(s) created." in out
    assert err == ""


def test_a_harvest_of_new_works_leaves_every_cached_page_a_hit(services, piwowar, client):
    """Candidates wait for review on no page: a harvest made every cached page cold."""
    LabSettings.load()
    pages = ["/people/", "/people/heather-piwowar/", "/publications/"]
    for url in pages:
        client.get(url)
    before = content_version()

    harvest()

    assert Candidate.objects.filter(people=piwowar).count() == 5
    assert content_version() == before
    assert [client.get(url)["X-Page-Cache"] for url in pages] == ["hit"] * 3


def test_a_work_already_in_the_lab_gives_no_candidate_and_only_fills_what_it_lacks(
    services, piwowar, sharing_in_lab
):
    sharing_in_lab.abstract = "Typed by the lab."
    sharing_in_lab.save()

    harvest()

    sharing_in_lab.refresh_from_db()
    assert not Candidate.objects.filter(title=SHARING).exists()
    assert (sharing_in_lab.volume, sharing_in_lab.issue, sharing_in_lab.pages) == ("2", "3", "e308")
    assert sharing_in_lab.title == SHARING and sharing_in_lab.abstract == "Typed by the lab."
    assert sharing_in_lab.authorships.count() == 3


def test_a_preprint_and_its_published_version_are_two_linked_candidates(services, piwowar):
    harvest()

    preprint = Candidate.objects.get(title=PREPRINT)
    published = Candidate.objects.get(title=STATE_OF_OA)
    assert preprint.version_of_candidate == published
    assert preprint.record["status"] == "preprint" and published.record["status"] == "published"


def test_a_preprint_of_a_paper_in_the_lab_is_linked_to_that_paper(services, piwowar):
    paper = authored(
        piwowar,
        names=("Heather Piwowar", "Jason Priem"),
        at=1,
        title=STATE_OF_OA,
        doi="10.7717/peerj.4375",
        date="2018-02",
    )

    harvest()

    assert Candidate.objects.get(title=PREPRINT).version_of == paper
    assert not Candidate.objects.filter(title=STATE_OF_OA).exists()


def test_a_published_work_whose_preprint_is_in_the_lab_is_linked_to_that_paper(services, piwowar):
    paper = authored(
        piwowar,
        names=("Heather Piwowar", "Jason Priem"),
        at=1,
        title=PREPRINT,
        kind="preprint",
        status="preprint",
        date="2017-08",
    )

    harvest()

    assert Candidate.objects.get(title=STATE_OF_OA).version_of == paper


def test_a_published_work_harvested_after_its_preprint_is_linked_to_it(services, piwowar):
    harvest("--source", "orcid")
    Candidate.objects.filter(title=STATE_OF_OA).delete()  # as if not yet published then

    harvest()

    published = Candidate.objects.get(title=STATE_OF_OA)
    assert published.version_of_candidate == Candidate.objects.get(title=PREPRINT)


def test_a_second_run_adds_no_candidate(services, piwowar):
    harvest()
    before = candidate_table()

    out, _ = harvest()

    assert candidate_table() == before
    assert "0 candidate(s) created." in out


def test_a_rejected_work_never_returns_from_any_source(services, piwowar, admin_user):
    from harvest import review

    harvest()
    review.reject(Candidate.objects.get(title=DATA_REUSE), admin_user)
    # the work comes back from DBLP alone, under its DBLP key only
    services.routes.pop("/crossref/works")
    services.routes.pop(f"/orcid/v3.0/{piwowar.orcid}/works")

    out, _ = harvest("--source", "dblp")

    rejected = Candidate.objects.get(title=DATA_REUSE)
    assert rejected.status == "rejected"
    assert Candidate.objects.filter(title=DATA_REUSE).count() == 1
    assert "dblp: 3 fetched, 0 new" in out


def test_not_me_sticks_for_that_member(services, piwowar, admin_user):
    from harvest import review

    colleague = PersonFactory(name="Jason Priem", orcid="0000-0001-6187-6610")
    harvest()
    altmetrics = Candidate.objects.get(title=ALTMETRICS)
    altmetrics.people.add(colleague)
    review.disown(altmetrics, piwowar, admin_user)

    harvest()

    assert altmetrics not in Candidate.objects.for_person(piwowar)
    assert altmetrics in Candidate.objects.for_person(colleague)
    assert Candidate.objects.filter(title=ALTMETRICS).count() == 1


def test_a_work_nobody_claims_any_more_is_rejected(services, piwowar, admin_user):
    from harvest import review

    harvest()
    altmetrics = Candidate.objects.get(title=ALTMETRICS)

    review.disown(altmetrics, piwowar, admin_user)

    altmetrics.refresh_from_db()
    assert altmetrics.status == "rejected"


def test_a_failing_source_is_reported_and_the_others_go_on(services, piwowar):
    services.routes["/dblp/pid/p/HeatherAPiwowar.xml"] = (503, b"Service Unavailable")
    services.routes["/arxiv/a/piwowar_h_1.atom2"] = (200, b"<html><body>Rate exceeded.")
    services.routes["/crossref/works"] = (200, b'{"status": "ok", "message": {"items": 7}}')

    out, err = harvest()

    run = HarvestRun.objects.get()
    assert run.status == "done"
    assert "dblp: 0 fetched, 0 new, 0 matched, 1 error(s)" in out
    assert "arxiv: 0 fetched, 0 new, 0 matched, 1 error(s)" in out
    assert "crossref: 0 fetched, 0 new, 0 matched, 1 error(s)" in out
    assert "503" in run.report["dblp"]["errors"][0]
    assert "not XML" in run.report["arxiv"]["errors"][0]
    assert "no list of works" in run.report["crossref"]["errors"][0]
    assert "dblp: Heather A. Piwowar:" in err
    # what ORCID and OpenAlex list still came in, whole
    assert set(candidate_table()) == {STATE_OF_OA, PREPRINT, DATA_REUSE, ALTMETRICS, SHARING}
    assert all(c.record["authors"] for c in Candidate.objects.all())


def test_a_run_in_which_every_source_failed_is_failed_not_done(services, piwowar):
    for path in list(services.routes):
        if not path.startswith("/github"):
            services.routes[path] = (503, b"Service Unavailable")

    with pytest.raises(CommandError, match="Every source failed"):
        harvest()

    run = HarvestRun.objects.get()
    assert run.status == "failed"
    assert "503" in run.report["orcid"]["errors"][0]
    assert not Candidate.objects.exists()


def test_a_slow_source_times_out_without_holding_up_the_others(services, piwowar, settings):
    import time

    settings.HARVEST_TIMEOUT = 0.2

    def slow(query):
        time.sleep(1)
        return "arxiv-author.atom2"

    services.routes["/arxiv/a/piwowar_h_1.atom2"] = slow

    out, _ = harvest("--source", "arxiv", "--source", "orcid")

    assert "arxiv: 0 fetched, 0 new, 0 matched, 1 error(s)" in out
    assert "orcid: 4 fetched, 4 new" in out
    assert (
        "did not answer in full within 0.2 s"
        in HarvestRun.objects.get().report["arxiv"]["errors"][0]
    )


def test_a_dry_run_counts_and_writes_nothing(services, piwowar):
    out, _ = harvest("--dry-run")

    assert "5 candidate(s) would be created." in out  # the 2007 paper is not in this lab
    assert not Candidate.objects.exists()


def test_one_person_and_one_source(services, piwowar):
    PersonFactory(name="Other Member", orcid="0000-0002-1825-0097")

    out, _ = harvest("--person", "heather-piwowar", "--source", "arxiv")

    assert out.splitlines()[0] == "arxiv: 1 fetched, 1 new, 0 matched, 0 error(s)"
    assert [path for path, _ in services.requests] == ["/arxiv/a/piwowar_h_1.atom2"]


def test_an_unknown_person_is_a_clear_error(services):

    with pytest.raises(CommandError, match="No person has the address “nobody”"):
        harvest("--person", "nobody")


def test_a_merged_openalex_author_is_followed_and_reported(services, piwowar):
    piwowar.openalex_id = "A5000000001"
    piwowar.save()
    services.routes["/openalex/authors/A5000000001"] = "openalex-author.json"  # now A1969205032

    out, err = harvest("--source", "openalex")

    assert "openalex: 5 fetched, 5 new" in out
    assert "A5000000001 is now A1969205032" in err


def test_every_request_names_the_site_and_a_contact(services, piwowar):
    harvest()

    assert services.agents and all("mailto:webmaster@lab.example" in a for a in services.agents)
    openalex = services.asked("/openalex/works")
    assert openalex and all(q.get("mailto") == "webmaster@lab.example" for q in openalex)


def test_a_second_run_for_the_same_members_waits_its_turn_and_makes_no_duplicate(services, piwowar):
    import datetime

    from django.utils import timezone

    under_way = HarvestRun.objects.create(
        status=HarvestRun.Status.RUNNING, started=timezone.now(), person=piwowar
    )

    with pytest.raises(CommandError, match=f"Another harvest run \\(#{under_way.pk}\\)"):
        harvest()

    assert not Candidate.objects.exists()
    # a run its killed worker left "running" for hours no longer holds the others back
    HarvestRun.objects.filter(pk=under_way.pk).update(
        started=timezone.now() - datetime.timedelta(hours=7)
    )
    harvest()
    under_way.refresh_from_db()
    assert under_way.status == "failed" and "Interrupted" in under_way.message
    assert HarvestRun.objects.latest("pk").status == "done"
    assert Candidate.objects.count() == 5
