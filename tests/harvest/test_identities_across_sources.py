"""A member's work stays theirs across sources: an author keeps every identifier any source
gave through the merge, a work ORCID lists without its authors takes them from its DOI's
registration at harvest time, a preprint naming its journal DOI is joined to that version,
and a work that would still be written without its member is not accepted so silently."""

import io
import json
import xml.etree.ElementTree as ElementTree

import pytest
from django.core.management import call_command

from harvest import review
from harvest.matching import fold
from harvest.models import Candidate, HarvestRun, Provenance
from harvest.sources import arxiv, openalex, orcid
from publications.importing.crossref import crossref_record
from publications.models import Publication
from tests.factories import PersonFactory
from tests.harvest.replay import DATA

pytestmark = pytest.mark.django_db

CARBERRY = "0000-0002-1825-0097"  # ORCID's documented example iD (Josiah Carberry)
TITLE = "Psychoceramics and the cracked pot"
COAUTHORS = [("Anne", "Lee"), ("Wei", "Zhang")]


def _openalex_work():
    """The work as OpenAlex gives it: the member's name with its suffix, and his ORCID."""
    names = [("Josiah S. Carberry Jr.", CARBERRY, "A5000000001")] + [
        (f"{g} {f}", None, f"A500000000{n}") for n, (g, f) in enumerate(COAUTHORS, 2)
    ]
    return {
        "id": "https://openalex.org/W4000000001",
        "doi": "https://doi.org/10.5555/12345678",
        "title": TITLE,
        "type": "article",
        "publication_date": "2008-08-14",
        "primary_location": {
            "source": {"display_name": "Journal of Psychoceramics", "type": "journal"}
        },
        "authorships": [
            {
                "raw_author_name": name,
                "author": {
                    "id": f"https://openalex.org/{author_id}",
                    "display_name": name,
                    "orcid": f"https://orcid.org/{orcid_id}" if orcid_id else None,
                },
            }
            for name, orcid_id, author_id in names
        ],
    }


def _crossref_work():
    """The same work as Crossref gives it: the name spelled another way, no ORCID."""
    return {
        "DOI": "10.5555/12345678",
        "type": "journal-article",
        "title": [TITLE],
        "container-title": ["Journal of Psychoceramics"],
        "issued": {"date-parts": [[2008, 8, 14]]},
        "author": [{"given": "J. S.", "family": "Carberry Jr."}]
        + [{"given": g, "family": f} for g, f in COAUTHORS],
    }


def _found():
    from harvest.sources import Found

    work = openalex.read_work(_openalex_work(), print)
    record = crossref_record(_crossref_work(), "Crossref work 1")
    return work, Found("crossref", record.doi, record, {"doi": record.doi})


def test_a_members_orcid_given_by_one_source_stays_on_them_when_anothers_list_wins(admin_user):
    member = PersonFactory(name="Josiah Carberry Jr.", orcid=CARBERRY)
    from_openalex, from_crossref = _found()

    fold([(member, from_openalex), (member, from_crossref)])

    candidate = Candidate.objects.get()
    paper = review.accept(candidate, admin_user)
    first = paper.authorships.order_by("position").first()
    assert first.person == member  # Crossref's list, OpenAlex's identities on it
    assert (first.given_name, first.family_name, first.suffix) == ("J. S.", "Carberry", "Jr.")
    assert (first.orcid, first.author_ids) == (CARBERRY, {"openalex": "A5000000001"})
    assert [a.author_ids for a in paper.authorships.order_by("position")][1:] == [
        {"openalex": "A5000000002"},
        {"openalex": "A5000000003"},
    ]
    origins = Candidate.objects.get().record["origins"]
    assert (origins["authors"], origins["title"]) == ("crossref", "crossref")


def test_a_member_is_matched_by_their_id_at_a_source_before_their_name(admin_user):
    member = PersonFactory(name="Someone Else Entirely", openalex_id="A5000000001")
    from_openalex, _ = _found()

    fold([(member, from_openalex)])
    paper = review.accept(Candidate.objects.get(), admin_user)

    assert paper.authorships.get(position=1).person == member


@pytest.fixture
def unrecognised(db):
    """A work found for a member whose printed name in it is not one of theirs."""
    member = PersonFactory(name="Josiah Carberry Jr.", slug="josiah-carberry")
    _, from_crossref = _found()
    fold([(member, from_crossref)])
    return member, Candidate.objects.get()


def test_a_work_that_would_be_written_without_its_member_is_not_accepted_silently(
    unrecognised, admin_user
):
    member, candidate = unrecognised

    with pytest.raises(review.ReviewProblem, match="would be written without them"):
        review.accept(candidate, admin_user)

    assert Publication.objects.count() == 0
    paper = review.accept(candidate, admin_user, without_members=True)
    assert not paper.authorships.filter(person=member).exists()


def test_the_review_page_says_who_a_work_would_be_written_without(unrecognised, cast, client):
    _, candidate = unrecognised
    client.force_login(cast["admin"])
    url = f"/admin/harvest/candidate/{candidate.pk}/review/"

    page = client.get(url).content.decode()
    assert "was found for Josiah Carberry Jr., but none of its authors" in page
    assert 'name="without_members"' in page

    refused = client.post(url, {"action": "accept"}, follow=True).content.decode()
    assert "would be written without them" in refused and Publication.objects.count() == 0
    client.post(url, {"action": "accept", "without_members": "yes"})
    assert Publication.objects.count() == 1


PIT_CLAUDEL = "0000-0002-1900-3901"  # dissemin's recorded ORCID works list (real/)
POPL = "10.1145/2676726.2677006"


@pytest.fixture
def orcid_only(services):
    """A member known to ORCID alone, whose list (a real answer) names two DOIs: a POPL
    paper Crossref registers, and a Zenodo record it does not (DataCite's)."""
    services.routes.update(
        {
            f"/orcid/v3.0/{PIT_CLAUDEL}/works": f"real/orcid-dissemin-{PIT_CLAUDEL}-works.json",
            f"/crossref/works/{POPL}": "crossref-popl-2677006.json",
        }
    )
    return PersonFactory(name="Clément Pit-Claudel", slug="pit-claudel", orcid=PIT_CLAUDEL)


def _harvest(*sources):
    call_command(
        "harvest", *(f"--source={s}" for s in sources), stdout=io.StringIO(), stderr=io.StringIO()
    )
    return HarvestRun.objects.order_by("-pk").first()


def test_an_orcid_work_with_a_doi_takes_its_authors_from_crossref_at_harvest_time(
    orcid_only, services, admin_user
):
    run = _harvest("orcid")

    assert run.report["completion"] | {"errors": []} == {
        "asked": 2,
        "completed": 1,
        "not at Crossref": 1,
        "left for the next run": 0,
        "errors": [],
        "new": 1,  # with ORCID's summary of it, one new work
        "matched": 0,
    }
    fiat = Candidate.objects.get(title__startswith="Fiat")
    assert [a["family"] for a in fiat.record["authors"]] == [
        "Delaware",
        "Pit-Claudel",
        "Gross",
        "Chlipala",
    ]
    assert fiat.record["origins"]["authors"] == "crossref (by DOI)"
    assert fiat.record["kind"] == "conference"
    assert Provenance.objects.filter(candidate=fiat, source="crossref").count() == 1
    paper = review.accept(fiat, admin_user)
    assert paper.authorships.get(position=2).person == orcid_only
    assert not paper.authorships.filter(is_unlisted=True).exists()
    # Nothing is asked twice: the next run asks Crossref for no DOI the lab holds
    asked = len([p for p, _ in services.requests if p.startswith("/crossref/works/10.")])
    assert _harvest("orcid").report["completion"]["asked"] == 0
    assert len([p for p, _ in services.requests if p.startswith("/crossref/works/10.")]) == asked


def test_completion_stops_at_its_bound_and_says_how_many_wait(orcid_only, services, settings):
    settings.HARVEST_MAX_COMPLETIONS = 1

    completion = _harvest("orcid").report["completion"]

    assert (completion["asked"], completion["left for the next run"]) == (1, 1)
    assert len([p for p, _ in services.requests if p.startswith("/crossref/works/10.")]) == 1


MAESTRO_ENTRY = "1111.2011v2"
PHYSREVB = "10.1103/PhysRevB.85.115117"


@pytest.fixture
def arxiv_only(services):
    """A member known to arXiv alone, whose entry (a real answer) names its journal DOI."""
    feed = ElementTree.parse(DATA / "real" / "arxiv-arxivpy-entries.atom").getroot()
    entry = next(
        e
        for e in feed.findall(f"{arxiv.ATOM}entry")
        if e.findtext(f"{arxiv.ATOM}id").endswith(MAESTRO_ENTRY)
    )
    for other in list(feed.findall(f"{arxiv.ATOM}entry")):
        if other is not entry:
            feed.remove(other)
    listed = json.loads((DATA / "crossref-physrevb-85-115117.json").read_text())
    single = {"status": "ok", "message": listed["message"]["items"][0]}
    services.routes.update(
        {
            "/arxiv/a/del_maestro_a_1.atom2": (200, ElementTree.tostring(feed)),
            f"/crossref/works/{PHYSREVB.lower()}": (200, json.dumps(single).encode()),
        }
    )
    return PersonFactory(name="Adrian Del Maestro", arxiv_author_id="del_maestro_a_1")


def test_a_preprint_naming_its_journal_doi_becomes_one_paper_with_both_ids(arxiv_only, admin_user):
    _harvest("arxiv")

    for candidate in Candidate.objects.order_by("pk"):
        review.accept(candidate, admin_user)

    paper = Publication.objects.get()
    assert (paper.doi, paper.arxiv_id, paper.kind) == (PHYSREVB.lower(), "1111.2011", "journal")
    assert paper.authorships.get(family_name="Del Maestro").person == arxiv_only


def test_a_month_00_is_an_unknown_month_not_an_unknown_year():
    group = json.loads((DATA / "real" / f"orcid-dissemin-{PIT_CLAUDEL}-works.json").read_text())
    summary = group["group"][1]["work-summary"][0]
    summary["publication-date"] = {"year": {"value": "2015"}, "month": {"value": "00"}}

    (found,) = [
        f for f in orcid.works(_Member(), _Answer(group), print) if "Fiat" in f.record.title
    ]

    assert found.record.date.isoformat() == "2015"


class _Member:
    orcid, name = PIT_CLAUDEL, "Clément Pit-Claudel"


class _Answer:
    def __init__(self, data):
        self.data = data

    def get_json(self, url, headers=None):
        return self.data


def test_a_published_work_whose_openalex_locations_name_its_arxiv_preprint_is_one_work(
    admin_user,
):
    """OpenAlex's work for the journal paper (documented shape: its locations, the journal's
    page and arXiv's) and arXiv's own entry for 1111.2011v2 (real): one candidate, one paper
    with the DOI and the arXiv id."""
    member = PersonFactory(name="Adrian Del Maestro", arxiv_author_id="del_maestro_a_1")
    feed = ElementTree.parse(DATA / "real" / "arxiv-arxivpy-entries.atom").getroot()
    entry = next(
        e
        for e in feed.findall(f"{arxiv.ATOM}entry")
        if e.findtext(f"{arxiv.ATOM}id").endswith(MAESTRO_ENTRY)
    )
    work = {
        "id": "https://openalex.org/W2000000001",
        "doi": f"https://doi.org/{PHYSREVB}",
        "title": "Quantum criticality for extended nodes on a Bethe lattice in the large "
        "connectivity limit",
        "type": "article",
        "publication_date": "2012-03-19",
        "primary_location": {
            "landing_page_url": f"https://doi.org/{PHYSREVB}",
            "source": {"display_name": "Physical Review B", "type": "journal"},
        },
        "locations": [
            {"landing_page_url": f"https://doi.org/{PHYSREVB}"},
            {"landing_page_url": "https://arxiv.org/abs/1111.2011", "pdf_url": None},
        ],
        "authorships": [
            {"raw_author_name": name, "author": {"display_name": name}}
            for name in ("James M. Murray", "Adrian Del Maestro", "Zlatko Tešanović")
        ],
    }
    published = openalex.read_work(work, print)
    assert published.ids["arxiv"] == "1111.2011"

    fold([(member, arxiv.read_entry(entry, print)), (member, published)])

    candidate = Candidate.objects.get()
    paper = review.accept(candidate, admin_user)
    assert (paper.doi, paper.arxiv_id, paper.kind) == (PHYSREVB.lower(), "1111.2011", "journal")
