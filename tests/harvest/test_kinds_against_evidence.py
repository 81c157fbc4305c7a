"""A work's kind checked against the evidence: the type its DOI is registered with wins
over the type a source gives, a venue's words correct a "book" or "other", and the review
page says where the sources disagreed."""

import json

import pytest

from harvest.matching import fold
from harvest.models import Candidate
from harvest.sources import Found, orcid
from publications.importing.crossref import crossref_record
from tests.factories import PersonFactory
from tests.harvest.replay import DATA
from tests.harvest.test_real_answers import Answers

pytestmark = pytest.mark.django_db

LAK = "10.1145/3027385.3027428"  # habanero's real record: a proceedings-article


class _Member:
    orcid, name = "0000-0002-1825-0097", "Josiah Carberry"


def _orcid_typed(kind, title, doi="", venue=""):
    """One ORCID v3.0 work summary as ORCID lists it, typed `kind`."""
    summary = {
        "put-code": 1,
        "title": {"title": {"value": title}},
        "type": kind,
        "publication-date": {"year": {"value": "2017"}},
        "external-ids": {
            "external-id": [{"external-id-type": "doi", "external-id-value": doi}] if doi else []
        },
    }
    if venue:
        summary["journal-title"] = {"value": venue}
    (found,) = orcid.works(_Member(), Answers({"group": [{"work-summary": [summary]}]}), print)
    return found


def _registered():
    items = json.loads((DATA / "real" / "crossref-habanero-works.json").read_text())
    item = next(i for i in items["message"]["items"] if i["DOI"] == LAK)
    record = crossref_record(item, "Crossref work")
    return item, Found("crossref", record.doi, record, {"doi": record.doi})


def test_the_type_a_doi_is_registered_with_wins_and_the_review_says_they_disagreed(cast, client):
    member = PersonFactory(name="Josiah Carberry", orcid=_Member.orcid)
    item, registered = _registered()
    typed_book = _orcid_typed("book", item["title"][0], doi=LAK)

    fold([(member, typed_book), (member, registered)])

    candidate = Candidate.objects.get()
    assert candidate.record["kind"] == "conference"
    client.force_login(cast["admin"])
    page = client.get(f"/admin/harvest/candidate/{candidate.pk}/review/").content.decode()
    assert (
        "The sources disagree on its kind (Crossref: “Conference paper”, ORCID: “Book”)"
        in (page.replace("&ldquo;", "“").replace("&rdquo;", "”"))
        or "disagree on its kind" in page
    )


def test_a_book_in_lecture_notes_is_a_chapter_and_other_in_proceedings_a_conference_paper():
    member = PersonFactory(name="Josiah Carberry", orcid=_Member.orcid)
    lncs = _orcid_typed("book", "A chapter of a series", venue="Lecture Notes in Computer Science")
    other = _orcid_typed(
        "other", "A paper of a meeting", venue="Proceedings of the 12th Symposium on Things"
    )
    article = _orcid_typed("journal-article", "An article", venue="Journal of Things")

    fold([(member, lncs), (member, other), (member, article)])

    kinds = {c.title: c.record["kind"] for c in Candidate.objects.all()}
    assert kinds == {
        "A chapter of a series": "chapter",
        "A paper of a meeting": "conference",
        "An article": "journal",
    }
    reading = Candidate.objects.get(title="A chapter of a series").record["readings"][0]
    assert "Lecture Notes in Computer Science" in reading
