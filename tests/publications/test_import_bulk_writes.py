"""The importer's fast inserts write what Django's bulk_create and django-simple-history
would: the same rows, the same history records."""

import pytest
from simple_history.utils import bulk_create_with_history

from core.bulk import insert_with_history
from publications.models import Authorship, Publication
from tests import factories

pytestmark = pytest.mark.django_db

SKIP = {"id", "history_id", "history_date", "publication_id"}


def _rows(paper):
    return [
        Authorship(publication=paper, position=1, given_name="Teng", family_name="Ma"),
        Authorship(
            publication=paper, position=2, family_name="马", given_name="腾", is_corresponding=True
        ),
        Authorship(publication=paper, position=3, is_unlisted=True),
    ]


def _history(paper):
    records = Authorship.history.filter(publication_id=paper.pk).order_by("position")
    return [
        {k: v for k, v in r.__dict__.items() if k not in SKIP and not k.startswith("_")}
        for r in records
    ]


def test_rows_and_history_equal_those_bulk_create_with_history_writes(admin_user):
    ours, theirs = factories.PublicationFactory(), factories.PublicationFactory()

    insert_with_history(Authorship, _rows(ours), ("publication_id", "position"), admin_user)
    bulk_create_with_history(_rows(theirs), Authorship, default_user=admin_user)

    fields = ["position", "given_name", "family_name", "is_corresponding", "is_unlisted"]
    assert list(ours.authorships.values(*fields)) == list(theirs.authorships.values(*fields))
    assert _history(ours) == _history(theirs)
    assert all(r.history_user == admin_user for r in Authorship.history.all())


def test_new_publications_get_their_ids_and_history(admin_user):
    venue = factories.VenueFactory()
    papers = [Publication(title=f"Paper {n}", slug=f"paper-{n}", venue=venue) for n in range(3)]

    insert_with_history(Publication, papers, ("slug",), admin_user)

    assert [p.pk for p in papers] == list(
        Publication.objects.order_by("slug").values_list("pk", flat=True)
    )
    assert Publication.history.filter(history_type="+").count() == 3
    assert Publication.objects.filter(venue=venue).count() == 3
