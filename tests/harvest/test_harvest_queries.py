"""Folding harvested works costs a number of queries that does not grow with the works: new
candidates (each with its history record), their identifiers, sources and people, and the
links between a preprint and its published version are written in bulk, and a second run
over the same works costs the same for 10 works or 40."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.partial_dates import PartialDate
from harvest.matching import fold
from harvest.models import Candidate, Source
from harvest.sources import Found
from publications.importing.records import AuthorRecord, Record
from tests.factories import PersonFactory

pytestmark = pytest.mark.django_db
BASE = 12  # the lab's papers, the known ids by kind, the versions, and the bulk writes
# SQLite takes 999 values a statement: a bulk write of history rows (17 columns) takes 58
# rows a statement, so 30 more new candidates may cost a statement or two more, not 60.
MORE_FOR_30 = 3


def works(n, source=Source.OPENALEX, start=0):
    return [
        Found(
            source,
            f"W{1000 + i}",
            Record(
                label=f"work {i}",
                title=f"A study of harvested systems number {i}",
                date=PartialDate(2020 + i % 5),
                doi=f"10.5555/harvest.{i}",
                authors=[AuthorRecord(given="Heather", family="Piwowar")],
            ),
            {"doi": f"10.5555/harvest.{i}", "openalex": f"W{1000 + i}"},
        )
        for i in range(start, start + n)
    ]


def preprints_of(published):
    """arXiv's preprint of each work, naming the work's DOI as its published version."""
    return [
        Found(
            Source.ARXIV,
            f"2001.{found.source_id[1:]}",
            Record(
                label=f"preprint of {found.source_id}",
                title=found.record.title,
                kind="preprint",
                date=found.record.date,
                arxiv_id=f"2001.{found.source_id[1:]}",
                authors=[AuthorRecord(given="Heather", family="Piwowar")],
            ),
            {"arxiv": f"2001.{found.source_id[1:]}"},
            published_doi=found.ids["doi"],
        )
        for found in published
    ]


def queries(pairs):
    with CaptureQueriesContext(connection) as captured:
        fold(pairs)
    return len(captured)


@pytest.mark.parametrize("n", [10, 40])
def test_new_candidates_cost_a_bounded_number_of_queries_whatever_their_number(n):
    person = PersonFactory()

    count = queries([(person, found) for found in works(n)])

    assert Candidate.objects.count() == n
    assert count <= BASE + n // 20


def test_40_new_candidates_cost_about_what_10_do_and_each_has_its_creation_in_its_history():
    person = PersonFactory()

    few = queries([(person, found) for found in works(10)])
    many = queries([(person, found) for found in works(40, start=10)])

    assert many - few <= MORE_FOR_30
    assert Candidate.objects.count() == 50
    created = Candidate.history.filter(history_type="+")
    assert sorted(created.values_list("id", flat=True)) == sorted(
        Candidate.objects.values_list("pk", flat=True)
    )
    assert not Candidate.history.exclude(history_type="+").exists()
    assert set(Candidate.objects.values_list("people", flat=True)) == {person.pk}


def test_preprints_are_linked_to_their_published_versions_in_about_the_same_queries_for_10_or_40():
    person = PersonFactory()
    few, many = works(10), works(40, start=10)

    counts = [queries([(person, f) for f in batch + preprints_of(batch)]) for batch in (few, many)]

    assert counts[1] - counts[0] <= MORE_FOR_30
    published = dict(Candidate.objects.filter(ids__kind="doi").values_list("ids__value", "pk"))
    preprints = Candidate.objects.filter(ids__kind="arxiv").values_list("ids__value", "pk")
    links = dict(Candidate.objects.values_list("pk", "version_of_candidate"))
    assert len(published) == len(preprints) == 50
    for arxiv_id, pk in preprints:  # "2001.1007" is the preprint of "10.5555/harvest.7"
        assert links[pk] == published[f"10.5555/harvest.{int(arxiv_id[5:]) - 1000}"]
    # each link is a change in the preprint's history, as a save of it would record
    changed = Candidate.history.filter(history_type="~")
    assert dict(changed.values_list("id", "version_of_candidate")) == {
        pk: links[pk] for _, pk in preprints
    }


def test_a_second_run_over_the_same_works_costs_the_same_for_10_or_40():
    person = PersonFactory()
    small, large = works(10), works(40)
    fold([(person, f) for f in large])

    assert queries([(person, f) for f in small]) == queries([(person, f) for f in large])
