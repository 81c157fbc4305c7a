"""Folding harvested works costs a bounded number of queries per new candidate, and a second
run over the same works a number that does not grow with them."""

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
PER_CANDIDATE = 2  # the candidate and its history row; ids, sources and people are batched
BASE = 10


def works(n, source=Source.OPENALEX):
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
        for i in range(n)
    ]


def queries(pairs):
    with CaptureQueriesContext(connection) as captured:
        fold(pairs)
    return len(captured)


@pytest.mark.parametrize("n", [10, 40])
def test_queries_per_new_candidate_are_bounded(n):
    person = PersonFactory()

    count = queries([(person, found) for found in works(n)])

    assert Candidate.objects.count() == n
    assert count <= BASE + PER_CANDIDATE * n


def test_a_second_run_over_the_same_works_costs_the_same_for_10_or_40():
    person = PersonFactory()
    small, large = works(10), works(40)
    fold([(person, f) for f in large])

    assert queries([(person, f) for f in small]) == queries([(person, f) for f in large])
