"""Re-importing a work updates what the source owns and keeps what the admin set."""

import datetime
import json

import pytest

from publications import importing
from publications.models import Publication
from tests.factories import PersonFactory, PublicationFactory
from tests.publications.recorded import TOS_DOI, tos_record

pytestmark = pytest.mark.django_db


def _import(message, **options):
    records = importing.read_crossref_json(json.dumps({"message": message}), "record.json")
    plans = importing.plan(records, **options)
    importing.apply(plans)
    return plans[0]


def test_reimport_keeps_role_flags_person_links_links_and_selected():
    teng = PersonFactory(name="Teng Ma", slug="teng-ma", orcid="0000-0002-7104-1526")
    _import(tos_record()["message"])
    paper = Publication.objects.get(doi=TOS_DOI)
    outsider = paper.authorships.get(family_name="Qin")
    outsider.is_equal_contribution = outsider.is_corresponding = True
    outsider.person = PersonFactory(name="Ruoyu Qin", slug="ruoyu-qin")
    outsider.save()
    Publication.objects.filter(pk=paper.pk).update(
        code_url="https://github.com/kvcache-ai/Mooncake", is_selected=True
    )

    newer = tos_record()["message"] | {
        "is-referenced-by-count": 31,
        "indexed": {"date-parts": [[2026, 11, 30]]},
    }
    plan = _import(newer)

    assert plan.action == "update" and plan.changes == ["citation_count", "citations_read_on"]
    paper.refresh_from_db()
    assert (paper.citation_count, paper.citations_read_on) == (31, datetime.date(2026, 11, 30))
    assert paper.code_url == "https://github.com/kvcache-ai/Mooncake" and paper.is_selected
    qin = paper.authorships.get(family_name="Qin")
    assert qin.is_equal_contribution and qin.is_corresponding and qin.person.slug == "ruoyu-qin"
    assert paper.authorships.get(family_name="Ma").person == teng
    assert Publication.objects.count() == 1


def test_reimport_with_a_changed_author_list_follows_the_source():
    _import(tos_record()["message"])
    paper = Publication.objects.get(doi=TOS_DOI)
    paper.authorships.filter(family_name="Tang").update(is_corresponding=True)
    authors = tos_record()["message"]["author"]
    reordered = [authors[4], *authors[:4], *authors[5:12]]  # Tang first, Xu dropped

    kept = _import(tos_record()["message"] | {"author": reordered})
    assert kept.kept == ["authors"]  # a list naming fewer authors removes none by default
    assert paper.authorships.count() == 13

    _import(tos_record()["message"] | {"author": reordered}, take_source=True)

    rows = list(paper.authorships.all())
    assert [r.family_name for r in rows][:2] == ["Tang", "Qin"]
    assert len(rows) == 12 and rows[0].is_corresponding


def test_hand_typed_list_is_replaced_by_the_imported_one_matched_by_title_and_year():
    hand_made = PublicationFactory(
        title="Mooncake: A KVCache-centric Disaggregated Architecture for LLM Serving", date="2026"
    )
    for position, family in enumerate(["Qin", "Li", "Ma"], start=1):
        hand_made.authorships.create(position=position, given_name="X", family_name=family)

    plan = _import(tos_record()["message"])

    assert plan.action == "update" and plan.publication == hand_made
    hand_made.refresh_from_db()
    assert hand_made.doi == TOS_DOI
    assert hand_made.authorships.count() == 13


def test_reimport_finds_the_work_by_arxiv_id():
    existing = PublicationFactory(title="Old Title", arxiv_id="2407.00079", date="2024")
    record = importing.Record(
        label="x",
        title="New Title",
        arxiv_id="2407.00079",
        authors=[importing.AuthorRecord(given="A", family="B")],
    )

    (plan,) = importing.plan([record])

    assert plan.action == "update" and plan.publication == existing
