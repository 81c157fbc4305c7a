"""One work, never twins, and nothing filled in unseen: an undated work joins the dated one
of the same title and authors; a work the lab holds by title alone is offered for review as
that paper, never written into it by a harvest."""

import json

import pytest

from harvest import review
from harvest.matching import fold
from harvest.models import Candidate
from harvest.sources import Found, dblp, orcid
from publications.importing.crossref import crossref_record
from publications.models import Publication
from tests.factories import PersonFactory, authored
from tests.harvest.replay import DATA
from tests.harvest.test_real_answers import Answers

pytestmark = pytest.mark.django_db

POLYZOS = "0000-0001-9232-4042"
LEPTIN = (
    "Circulating leptin in non-alcoholic fatty liver disease: a systematic review and meta-analysis"
)


@pytest.fixture
def polyzos(db):
    return PersonFactory(name="Stergios A. Polyzos", slug="polyzos", orcid=POLYZOS)


def _orcid_works(person):
    """The member's real ORCID list (dissemin's recording): its leptin review is dated year
    "0", so it comes in undated."""
    answer = json.loads((DATA / "real" / f"orcid-dissemin-{POLYZOS}-works.json").read_text())
    return orcid.works(person, Answers(answer), print)


def _dblp_entry(doi=""):
    """The same review as a DBLP-style entry that dates it and names no DOI."""
    import xml.etree.ElementTree as ElementTree

    ee = f"<ee>https://doi.org/{doi}</ee>" if doi else ""
    element = ElementTree.fromstring(
        f'<article key="journals/diabetologia/PolyzosAM16"><author>Stergios A. Polyzos</author>'
        f"<author>Jannis Kountouras</author><title>{LEPTIN}.</title><year>2016</year>"
        f"<journal>Diabetologia</journal>{ee}</article>"
    )
    return dblp.read_entry(element, print)


def test_an_undated_work_joins_the_dated_one_of_the_same_title_and_authors(polyzos):
    undated = next(f for f in _orcid_works(polyzos) if f.record.title == LEPTIN)
    assert undated.record.date is None

    fold([(polyzos, undated), (polyzos, _dblp_entry())])

    (candidate,) = Candidate.objects.filter(title=LEPTIN)
    assert candidate.year == 2016
    assert candidate.record["doi"] == "10.1007/s00125-015-3769-3"


def test_a_later_undated_harvest_joins_the_dated_candidate(polyzos):
    fold([(polyzos, _dblp_entry())])
    undated = next(f for f in _orcid_works(polyzos) if f.record.title == LEPTIN)

    fold([(polyzos, undated)])

    assert Candidate.objects.filter(title=LEPTIN).count() == 1
    assert Candidate.objects.get(title=LEPTIN).provenances.count() == 2


def test_works_of_one_title_with_unlike_dois_stay_two(polyzos):
    undated = next(f for f in _orcid_works(polyzos) if f.record.title == LEPTIN)

    fold([(polyzos, undated), (polyzos, _dblp_entry("10.5281/zenodo.1234"))])

    assert Candidate.objects.filter(title=LEPTIN).count() == 2


def _crossref_found(doi, year):
    record = crossref_record(
        {
            "DOI": doi,
            "type": "journal-article",
            "title": [LEPTIN],
            "container-title": ["Diabetologia"],
            "issued": {"date-parts": [[year]]},
            "author": [
                {"given": "Stergios A.", "family": "Polyzos"},
                {"given": "Jannis", "family": "Kountouras"},
            ],
        },
        "Crossref work",
    )
    return Found("crossref", doi, record, {"doi": doi})


def test_a_paper_held_by_title_alone_is_not_filled_without_review(polyzos, admin_user):
    paper = authored(
        polyzos, ["Stergios A. Polyzos", "Jannis Kountouras"], at=1, title=LEPTIN, date="2016"
    )

    fold([(polyzos, _crossref_found("10.1007/s00125-015-3769-3", 2015))])

    paper.refresh_from_db()
    assert (paper.doi, paper.date.isoformat()) == ("", "2016")  # nothing written unseen
    candidate = Candidate.objects.get()
    assert candidate.version_of == paper  # offered as that paper, for review
    review.accept(candidate, admin_user)
    paper.refresh_from_db()
    assert Publication.objects.count() == 1 and paper.doi == "10.1007/s00125-015-3769-3"


def test_a_work_whose_doi_is_not_the_papers_is_another_work(polyzos):
    paper = authored(
        polyzos,
        ["Stergios A. Polyzos"],
        at=1,
        title=LEPTIN,
        date="2016",
        doi="10.1007/s00125-015-3769-3",
    )

    fold([(polyzos, _crossref_found("10.6084/m9.figshare.1112581", 2016))])

    paper.refresh_from_db()
    assert paper.doi == "10.1007/s00125-015-3769-3"
    assert Candidate.objects.get().version_of is None


PRAGMATIC = "10.7717/peerj.12090"  # its Crossref record (habanero's, real) has-preprint:
BIORXIV = "10.1101/366815"


def _published_with_its_preprint_named():
    from harvest.sources import crossref

    answer = json.loads((DATA / "real" / "crossref-habanero-works.json").read_text())
    end = {"message": {"items": [], "next-cursor": ""}}
    found = crossref.works(_Someone(), Answers(answer, end), lambda _: None)
    return next(f for f in found if f.record.doi == PRAGMATIC)


def _preprint():
    """bioRxiv's version, as an ORCID list types such a DOI: "other", a title of its own."""
    record = crossref_record(
        {
            "DOI": BIORXIV,
            "title": ["A pragmatic use of statistics in ecology (preprint)"],
            "issued": {"date-parts": [[2018, 7]]},
            "author": [{"given": "Leonardo Braga", "family": "Castilho"}],
        },
        "ORCID work 1",
    )
    return Found("orcid", "1", record, {"doi": BIORXIV})


class _Someone:
    orcid, name = "0000-0002-1825-0097", "Leonardo Braga Castilho"


def test_a_published_work_naming_its_preprint_links_to_it_in_one_run_or_later(db):
    member = PersonFactory(name="Leonardo Braga Castilho", orcid=_Someone.orcid)
    published = _published_with_its_preprint_named()
    assert published.preprint_doi == BIORXIV

    fold([(member, _preprint())])
    fold([(member, published)])

    later = Candidate.objects.get(title__startswith="Towards a pragmatic")
    preprint = Candidate.objects.get(title__contains="(preprint)")
    assert later.version_of_candidate == preprint
    assert preprint.record["kind"] == "preprint"  # bioRxiv's DOI says what ORCID did not
    Candidate.objects.all().delete()

    fold([(member, _preprint()), (member, published)])

    preprint = Candidate.objects.get(title__contains="(preprint)")
    assert preprint.version_of_candidate.title.startswith("Towards a pragmatic")
