"""Where reviewers meet: two accepts of one candidate at once (two reviewers, or a double
click) make one paper, the second told it is done."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from harvest import review
from harvest.models import Candidate
from publications.importing.records import AuthorRecord, Record
from publications.models import Publication

pytestmark = pytest.mark.django_db(transaction=True)


def _together(calls):
    """Runs the calls in threads released at once; returns what each returned or raised."""
    start, results = threading.Barrier(len(calls)), [None] * len(calls)

    def run(number, call):
        start.wait()
        try:
            results[number] = call()
        except Exception as error:
            results[number] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_two_simultaneous_accepts_of_one_candidate_make_one_paper():
    record = Record(
        label="OpenAlex work W1",
        title="A Work Two Reviewers Accept",
        kind=Publication.Kind.JOURNAL,
        doi="10.1000/race",
        authors=[AuthorRecord(given="Heather", family="Piwowar")],
    )
    candidate = Candidate.objects.create(title=record.title, record=record.to_json())
    admins = [get_user_model().objects.create(username=f"admin{n}") for n in range(2)]

    results = _together(
        [
            lambda user=user: review.accept(Candidate.objects.get(pk=candidate.pk), user)
            for user in admins
        ]
    )

    assert Publication.objects.filter(doi="10.1000/race").count() == 1
    papers = [r for r in results if isinstance(r, Publication)]
    refusals = [r for r in results if isinstance(r, review.ReviewProblem)]
    assert len(papers) == 1 and len(refusals) == 1, results
    assert "already been reviewed" in str(refusals[0])
    assert Candidate.objects.get(pk=candidate.pk).status == Candidate.Status.ACCEPTED


def test_two_harvest_runs_at_once_make_no_candidate_twice(services, piwowar):
    """Two runs for the same member started together (a scheduled run and "Harvest now"):
    one runs, the other is refused naming it; before, both made every work's candidate and
    the second's identifiers were dropped, so rejecting one remembered nothing."""
    import io

    from django.core.management import call_command

    def run():
        call_command("harvest", stdout=io.StringIO(), stderr=io.StringIO())
        return "done"

    results = _together([run, run])

    titles = list(Candidate.objects.values_list("title", flat=True))
    assert titles and len(titles) == len(set(titles)), titles
    assert results.count("done") >= 1, results
    refused = [r for r in results if r != "done"]
    assert all("Another harvest run" in str(r) for r in refused), refused
