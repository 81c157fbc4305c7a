"""Importing Crossref records: the seed record, the list form, DOIs looked up on Crossref."""

import io
import json

import pytest
from django.core.management import call_command

from publications import importing
from publications.importing import CROSSREF_WORKS, ImportProblem
from publications.models import Publication
from tests.factories import PersonFactory
from tests.publications.recorded import TOS_DOI, RecordedClient, tos_record

pytestmark = pytest.mark.django_db

CROSSREF_ORDER = [
    "Qin", "Li", "He", "Cui", "Tang", "Ren", "Ma", "Cai", "Zhang", "Zhang", "Wu", "Zheng", "Xu",
]  # fmt: skip


@pytest.fixture(params=["by ORCID", "by name"])
def members(request, db):
    """Teng Ma and Feng Ren, recognised by their ORCID iDs or, without them, by name."""
    with_orcid = request.param == "by ORCID"
    teng = PersonFactory(
        name="Teng Ma",
        native_name="马腾",
        slug="teng-ma",
        orcid="0000-0002-7104-1526" if with_orcid else "",
    )
    feng = PersonFactory(
        name="Feng Ren", slug="feng-ren", orcid="0009-0006-3599-4086" if with_orcid else ""
    )
    return teng, feng


def _import(records):
    plans = importing.plan(records)
    return plans, importing.apply(plans)


def _seed_records():
    return importing.read_crossref_json(json.dumps(tos_record()), "crossref-mooncake-tos.json")


def test_seed_record_imports_with_13_authors_in_order_and_both_members_matched(members):
    teng, feng = members

    _, summary = _import(_seed_records())

    assert (summary.created, summary.failed) == (1, 0)
    paper = Publication.objects.get(doi=TOS_DOI)
    rows = list(paper.authorships.all())
    assert [r.family_name for r in rows] == CROSSREF_ORDER
    assert [r.position for r in rows] == list(range(1, 14))
    assert {r.person for r in rows if r.person} == {teng, feng}
    assert rows[6].person == teng and rows[5].person == feng
    assert rows[0].affiliation == "Computer Science and Technology, Tsinghua University"
    assert rows[0].orcid == "0009-0001-7794-4400"


def test_seed_record_maps_venue_issue_pages_doi_and_citations(members):
    _import(_seed_records())

    paper = Publication.objects.get(doi=TOS_DOI)
    # No venue of the lab matched: a new one, named as Crossref names it (never a guessed
    # abbreviation); the lab's own "ACM ToS" would have been matched by its ISSN.
    assert (paper.venue.short_name, paper.venue.name) == (
        "ACM Trans. Storage",
        "ACM Transactions on Storage",
    )
    assert paper.venue.issns() == ["1553-3077", "1553-3093"]
    assert (paper.volume, paper.issue, paper.pages) == ("22", "4", "1–38")
    assert paper.kind == Publication.Kind.JOURNAL
    assert paper.date.isoformat() == "2026-08-17"  # Crossref gives the day
    assert (paper.citation_count, str(paper.citations_read_on)) == (27, "2026-10-07")
    assert paper.title == "Mooncake: A KVCache-centric Disaggregated Architecture for LLM Serving"


def test_jats_abstract_becomes_clean_text(members):
    _import(_seed_records())

    abstract = Publication.objects.get(doi=TOS_DOI).abstract
    assert abstract.startswith("Mooncake is the serving platform for Kimi")
    assert "<" not in abstract and "jats" not in abstract
    assert "Mooncake’s innovative architecture" in abstract


def _snapshot():
    out = io.StringIO()
    call_command("dumpdata", "publications", stdout=out)
    return out.getvalue()


def test_importing_the_seed_record_again_changes_nothing(members):
    _import(_seed_records())
    before = _snapshot()

    plans, summary = _import(_seed_records())

    assert [p.action for p in plans] == ["unchanged"]
    assert (summary.created, summary.updated, summary.unchanged) == (0, 0, 1)
    assert _snapshot() == before


def test_list_form_imports_every_item():
    second = tos_record()["message"] | {"DOI": "10.1145/0000001", "title": ["Another Paper"]}
    data = {"status": "ok", "message": {"items": [tos_record()["message"], second]}}

    records = importing.read_crossref_json(json.dumps(data), "works.json")
    _, summary = _import(records)

    assert summary.created == 2
    assert set(Publication.objects.values_list("doi", flat=True)) == {TOS_DOI, "10.1145/0000001"}


def test_doi_is_looked_up_through_the_injected_client(members):
    client = RecordedClient()

    record = importing.fetch_doi(f"https://doi.org/{TOS_DOI.upper()}", client)

    assert client.requested == [CROSSREF_WORKS + TOS_DOI]
    assert record.doi == TOS_DOI and not record.problems


def test_network_failure_is_a_clear_error_for_that_doi_only():
    client = RecordedClient(
        {
            CROSSREF_WORKS + "10.1000/down": ImportProblem(
                "could not reach api.crossref.org: timed out"
            )
        }
    )

    records = [importing.fetch_doi(d, client) for d in ("10.1000/down", TOS_DOI, "10.1000/missing")]
    plans = importing.plan(records)

    assert [p.action for p in plans] == ["error", "new", "error"]
    assert plans[0].problems == ["could not reach api.crossref.org: timed out"]
    assert "404" in plans[2].problems[0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "is not valid JSON"),
        ("[1, 2]", "is not a Crossref response"),
        ('{"message": {"items": 5}}', "is not a list"),
    ],
)
def test_malformed_crossref_json_is_refused_with_a_message(text, message):
    with pytest.raises(ImportProblem, match=message):
        importing.read_crossref_json(text, "bad.json")


def test_record_without_title_or_with_invalid_doi_is_an_error_naming_it():
    no_title = tos_record()["message"] | {"title": [], "DOI": "10.1145/notitle"}
    bad_doi = tos_record()["message"] | {"DOI": "not-a-doi"}
    data = {"message": {"items": [no_title, bad_doi]}}

    plans = importing.plan(importing.read_crossref_json(json.dumps(data), "works.json"))

    assert plans[0].record.label == "DOI 10.1145/notitle"
    assert plans[0].problems == ["it has no title"]
    assert plans[1].problems == ["invalid DOI “not-a-doi”"]
    assert importing.apply(plans).written is False
    assert not Publication.objects.exists()
