"""The merge rules' modes, all in `planning`: an import keeps an admin's edits, taking the
source replaces them, a harvest fills only gaps, and a published version makes the lab's
preprint the version of record. The harvest's review asks planning for a mode and shows
the plan planning made, untouched."""

from dataclasses import FrozenInstanceError

import pytest

from core.partial_dates import PartialDate
from harvest import review
from publications import importing
from publications.importing import planning
from publications.models import Publication, Venue
from tests import factories

pytestmark = pytest.mark.django_db

PREPRINT_DOI, JOURNAL_DOI = "10.48550/arxiv.2407.00079", "10.1145/3773772"


def _journal_version():
    record = importing.Record(
        label=f"DOI {JOURNAL_DOI}",
        title="Mooncake: A KVCache-centric Architecture",
        kind="journal",
        status="published",
        doi=JOURNAL_DOI,
        venue_name="ACM Transactions on Storage",
        volume="22",
        pages="1–38",
        date=PartialDate(2026, 2),
        abstract="An abstract.",
    )
    record.authors = [
        importing.AuthorRecord(given="R", family="Qin"),
        importing.AuthorRecord(given="Z", family="Li"),
    ]
    return record


def _preprint():
    """The lab's preprint of the work, its title typed by an admin."""
    arxiv = factories.VenueFactory(short_name="arXiv", name="arXiv", kind=Venue.Kind.PREPRINT)
    paper = factories.authored(
        None,
        ["R Qin", "Z Li"],
        venue=arxiv,
        title="Mooncake (our title)",
        kind="preprint",
        status="preprint",
        doi=PREPRINT_DOI,
        arxiv_id="2407.00079",
        date="2024-07",
    )
    return Publication.objects.get(pk=paper.pk)


def _published():
    """The lab's journal paper: its title typed by an admin, its volume from an import."""
    tos = factories.VenueFactory(short_name="ACM ToS", name="ACM ToS", kind=Venue.Kind.JOURNAL)
    paper = factories.authored(
        None,
        ["R Qin", "Z Li"],
        venue=tos,
        title="Mooncake",
        kind="journal",
        status="published",
        doi=JOURNAL_DOI,
        date="2026-02",
        volume="7",
        imported_values={"volume": "7"},
    )
    return Publication.objects.get(pk=paper.pk)


@pytest.mark.parametrize("mode", planning.MODES)
def test_a_plan_in_every_mode_says_its_mode_and_holds_nothing_else(mode):
    plan = planning.plan_into(_preprint(), _journal_version(), mode=mode)

    assert plan.mode == mode and plan.action == importing.UPDATE
    with pytest.raises(FrozenInstanceError):
        plan.of_record = True  # type: ignore[attr-defined]  # no attribute outside the class
    with pytest.raises(FrozenInstanceError):
        plan.action = importing.UNCHANGED  # type: ignore[misc]  # nor edits once planned


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="unknown merge mode"):
        planning.plan_into(_published(), _journal_version(), mode="overwrite everything")


def test_each_mode_merges_the_same_record_by_its_own_rule():
    paper = _published()
    record = _journal_version

    imported = planning.plan_into(paper, record(), mode=planning.IMPORT)
    taken = planning.plan_into(paper, record(), mode=planning.TAKE_SOURCE)
    gaps = planning.plan_into(paper, record(), mode=planning.GAPS)

    # the import replaces its own earlier volume and keeps the admin's title
    assert set(imported.changes) == {"volume", "pages", "abstract", "container_title"}
    assert imported.kept == ["title"] and imported.written().volume == "22"
    # taking the source replaces the admin's title too
    assert set(taken.changes) == {"title", "volume", "pages", "abstract", "container_title"}
    # a harvest only fills what the paper lacks
    assert set(gaps.changes) == {"pages", "abstract", "container_title"}
    assert (gaps.written().volume, gaps.written().title) == ("7", "Mooncake")


def test_the_published_version_makes_the_labs_preprint_the_version_of_record():
    preprint = _preprint()

    plan = planning.plan_into(preprint, _journal_version(), mode=planning.OF_RECORD)
    importing.apply([plan])

    paper = Publication.objects.get(pk=preprint.pk)
    assert (paper.doi, paper.status, paper.kind) == (JOURNAL_DOI, "published", "journal")
    assert paper.source_fields["preprint_doi"] == PREPRINT_DOI
    assert paper.date.isoformat() == "2026-02" and paper.volume == "22"
    assert paper.venue.kind == Venue.Kind.JOURNAL and paper.arxiv_id == "2407.00079"
    assert paper.title == "Mooncake (our title)"  # what the versions share follows the import
    assert [a.family_name for a in paper.authorships.order_by("position")] == ["Qin", "Li"]


@pytest.mark.parametrize(
    ("paper", "mode"), [(_preprint, planning.OF_RECORD), (_published, planning.GAPS)]
)
def test_a_reviewers_merge_preview_is_the_plan_planning_makes_in_its_mode(paper, mode):
    target = paper()
    candidate = factories.CandidateFactory(record=_journal_version().to_json())

    shown = review.merge_plan(candidate, target)
    planned = planning.plan_into(target, importing.Record.from_json(candidate.record), mode=mode)

    assert (shown.mode, shown.action, shown.publication) == (mode, planned.action, target)
    assert (shown.changes, shown.kept) == (planned.changes, planned.kept)
    written = {f.attname for f in Publication._meta.concrete_fields} - {"id"}
    assert {n: getattr(shown.written(), n) for n in written} == {
        n: getattr(planned.written(), n) for n in written
    }
