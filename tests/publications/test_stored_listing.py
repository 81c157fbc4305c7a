"""Listed papers rendered once per change and stored (publications.listing): a later page
reads them without the author rows, and every change a visitor could see renders them
again."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from lab.models import LabSettings
from publications import listing
from publications.authors import PROFILE
from publications.models import Authorship, Publication
from tests.factories import AwardFactory, PersonFactory, authored

pytestmark = pytest.mark.django_db


@pytest.fixture
def teng(db):
    return PersonFactory(name="Teng Ma", slug="teng-ma")


@pytest.fixture
def yan(db):
    return PersonFactory(name="Yan Wang", slug="yan-wang")


def _page(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_a_second_visit_builds_the_list_from_stored_entries_without_author_rows(client, teng):
    for n in range(5):
        authored(teng, ["Y Wang", "T Ma", "Y Luo"], title=f"Paper {n}", co_first=[1, 2])

    first = _page(client, "/people/teng-ma/")
    with CaptureQueriesContext(connection) as queries:
        second = _page(client, "/people/teng-ma/")

    assert second == first
    # author rows are read (SELECT "publications_authorship"."id", ...) only to render
    author_rows = 'SELECT "publications_authorship".'
    assert not [q["sql"] for q in queries if q["sql"].startswith(author_rows)]
    assert not [q for q in queries if q["sql"].startswith("UPDATE")]
    assert second.count('<strong class="author-self">T Ma</strong>') == 5
    assert second.count('<span class="badge badge--role">Co-first</span>') == 5


def test_the_stored_entry_is_what_the_renderer_gives(client, teng, yan):
    """The page from stored entries equals the page with the entries rendered afresh."""
    authored(teng, ["Y Wang", "T Ma", "Y Luo"], corresponding=[2], award="Best Paper")
    authored(yan, ["Y Wang", "T Ma"], at=1, title="Yan's paper")
    Authorship.objects.filter(family_name="Ma", person=None).update(person=teng)

    stored_once = _page(client, "/people/teng-ma/")
    Publication.objects.update(listing=None)
    afresh = _page(client, "/people/teng-ma/")

    assert stored_once == afresh
    assert '<a href="/people/yan-wang/">Y Wang</a>' in afresh


def test_editing_an_author_row_shows_at_once(client, teng):
    paper = authored(teng, ["Y Wang", "T Ma", "Y Luo"])
    _page(client, "/people/teng-ma/")
    _page(client, "/publications/")

    row = paper.authorships.get(position=3)
    row.family_name = "Luo-Chen"
    row.save()

    assert "Y Luo-Chen" in _page(client, "/people/teng-ma/")
    assert "Y Luo-Chen" in _page(client, "/publications/")


def test_a_member_renamed_or_unpublished_is_linked_as_they_are_now(client, teng, yan):
    authored(teng, ["Y Wang", "T Ma"], at=2)
    Authorship.objects.filter(family_name="Wang").update(person=yan)
    assert 'href="/people/yan-wang/"' in _page(client, "/people/teng-ma/")

    yan.slug = "yan-w"
    yan.save()
    assert 'href="/people/yan-w/"' in _page(client, "/people/teng-ma/")

    yan.is_published = False
    yan.save()
    page = _page(client, "/people/teng-ma/")
    assert "/people/yan-w/" not in page
    assert "Y Wang" in page

    yan.delete()
    assert "Y Wang" in _page(client, "/people/teng-ma/")


def test_a_venue_renamed_shows_at_once(client, teng):
    paper = authored(teng)
    _page(client, "/people/teng-ma/")

    paper.venue.short_name = "EuroSys"
    paper.venue.save()

    assert "EuroSys 2024" in _page(client, "/people/teng-ma/")


def test_an_award_tied_moved_or_removed_shows_at_once(client, teng):
    first = authored(teng, title="First paper")
    second = authored(teng, title="Second paper")
    _page(client, "/people/teng-ma/")

    award = AwardFactory(name="Best Artifact", publication=first)
    page = _page(client, "/people/teng-ma/")
    assert page.count("Best Artifact") == 1
    assert page.index("Best Artifact") > page.index("First paper")

    award.publication = second
    award.save()
    page = _page(client, "/people/teng-ma/")
    assert page.count("Best Artifact") == 1
    assert page.index("Best Artifact") > page.index("Second paper")

    award.delete()
    assert "Best Artifact" not in _page(client, "/people/teng-ma/")


def test_lab_settings_an_entry_shows_render_it_again(client, teng):
    authored(teng, ["Y Wang", "T Ma", "Y Luo"], co_first=[1, 2])
    assert ">*</sup>" in _page(client, "/people/teng-ma/")

    lab = LabSettings.load()
    lab.marker_equal_contribution = "‡"
    lab.author_name_style = LabSettings.AuthorNameStyle.FULL
    lab.save()

    page = _page(client, "/people/teng-ma/")
    assert ">‡</sup>" in page
    assert ">*</sup>" not in page


def test_each_language_has_its_own_stored_entry(client, teng):
    authored(teng, ["Y Wang", "T Ma"], co_first=[1, 2])

    assert "Co-first" in _page(client, "/people/teng-ma/")
    chinese = _page(client, "/zh-hans/people/teng-ma/")

    assert "共同一作" in chinese
    assert "Co-first" not in chinese
    assert 'href="/zh-hans/publications/' in chinese
    assert "Co-first" in _page(client, "/people/teng-ma/")


def test_a_page_that_read_the_rows_before_an_edit_cannot_store_over_it(teng):
    """A page reads a paper, an editor changes it, the page then stores what it rendered
    from the rows as they were: the edit's stamp refuses it."""
    paper = authored(teng, ["Y Wang", "T Ma"])
    form = listing.form(PROFILE, teng)
    [read_before] = listing.papers(Publication.objects.filter(pk=paper.pk).listed(form))
    read_before.listing = {"en": {form: "\n\nas before"}}
    read_before.listing_key = listing.key(LabSettings.load())

    row = paper.authorships.get(position=1)
    row.family_name = "Wong"
    row.save()
    listing._store([read_before])

    paper.refresh_from_db()
    assert paper.listing is None
    [entry] = listing.entries(listing.papers(Publication.objects.filter(pk=paper.pk).listed(form)))
    assert "Y Wong" in entry.html


def test_saving_a_paper_renders_its_entry_again(client, teng):
    paper = authored(teng, title="Old title")
    _page(client, "/people/teng-ma/")

    paper.title = "New title"
    paper.save(update_fields=["title"])

    page = _page(client, "/people/teng-ma/")
    assert "New title" in page
    assert "Old title" not in page


def test_a_change_renders_again_only_the_entries_it_touches(client, teng):
    papers = [authored(teng, title=f"Paper {n}") for n in range(5)]
    _page(client, "/people/teng-ma/")

    row = papers[0].authorships.get(position=1)
    row.family_name = "Wong"
    row.save()
    with CaptureQueriesContext(connection) as queries:
        page = _page(client, "/people/teng-ma/")

    assert page.count("Y Wong") == 1
    assert len([q for q in queries if q["sql"].startswith("UPDATE")]) == 1
