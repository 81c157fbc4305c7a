"""Auto-accept, the lab's choice: a new work whose source names the member by their own
identifier, with a DOI or an arXiv id and nothing for a reviewer to decide, is accepted by
the harvest itself through the review's accept, said so in its history and in the member's
digest, and undone by one button that restores the lab as it was."""

import pytest

from harvest import review
from harvest.matching import fold
from harvest.models import Candidate, Source
from harvest.sources import harvesters
from publications.models import Authorship, Publication, Venue
from tags.models import Tag
from tests.factories import PersonFactory
from tests.harvest.test_real_answers import Recorded, _every_real_work

pytestmark = pytest.mark.django_db


def dump():
    """The rows an acceptance writes and its undo must restore, as plain values."""
    candidates = Candidate.objects.order_by("pk").values_list(
        "pk", "status", "publication", "reviewed", "reviewed_by", "auto_accepted_from"
    )
    return {
        "papers": list(Publication.objects.order_by("pk").values()),
        "authors": list(Authorship.objects.order_by("pk").values()),
        "venues": list(Venue.objects.order_by("pk").values()),
        "tags": list(Tag.objects.order_by("pk").values()),
        "paper tags": list(Publication.tags.through.objects.order_by("pk").values()),
        "candidates": list(candidates),
        "notified": list(Candidate.notified.through.objects.order_by("pk").values()),
    }


def test_on_the_real_answers_every_auto_accepted_paper_has_its_member_and_an_id_and_undo_restores():
    member = PersonFactory(name="Adrian Del Maestro", orcid=Recorded.orcid)
    works = _every_real_work()
    outcome = fold([(member, found) for source in works.values() for found in source])
    before = dump()

    accepted = review.auto_accept(outcome.created, list(harvesters()))

    papers = Publication.objects.filter(harvest_candidates__auto_accepted_from__gt="")
    print("auto-accepted per source:", accepted, "of", len(outcome.created), "candidates")
    # Only ORCID's lists name the member by their iD (the other answers are other people's)
    assert accepted == {Source.ORCID: papers.count()} and papers.count() > 100
    wrong = [
        p.display_title
        for p in papers.prefetch_related("authorships")
        if not (p.doi or p.arxiv_id) or member.pk not in {a.person_id for a in p.authorships.all()}
    ]
    assert wrong == []
    assert Candidate.objects.open().count() == len(outcome.created) - papers.count()

    for candidate in Candidate.objects.auto_accepted():
        review.undo_auto_accept(candidate, None)

    assert dump() == before
