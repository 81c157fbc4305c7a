"""Listed papers (publications.listing): each entry says what the paper, its authors and
their roles, its venue and awards say now, after any change a visitor could see."""

import pytest

from lab.models import LabSettings
from publications.models import Authorship
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


def test_an_entry_shows_the_paper_its_authors_roles_award_and_links(client, teng, yan):
    paper = authored(teng, ["Y Wang", "T Ma", "Y Luo"], corresponding=[2], award="Best Paper")
    paper.code_url = "https://github.com/kvcache-ai/Mooncake"
    paper.save()
    authored(yan, ["Y Wang", "T Ma"], at=1, title="Yan's paper")
    Authorship.objects.filter(family_name="Ma", person=None).update(person=teng)

    page = _page(client, "/people/teng-ma/")

    entry = page[page.index(f'<li class="pub" id="pub-{paper.slug}">') :]
    entry = entry[: entry.index("</li>")]
    assert f'<a href="/publications/{paper.slug}/">{paper.title}</a>' in entry
    assert '<strong class="author-self">T Ma</strong><sup class="marker"' in entry
    assert '<span class="badge badge--role">Corresponding</span>' in entry
    assert '<span class="badge badge--award">Best Paper</span>' in entry
    assert '<a href="https://github.com/kvcache-ai/Mooncake">Code</a>' in entry
    assert '<a href="/people/yan-wang/">Y Wang</a>' in page  # another member: linked


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


def test_lab_settings_an_entry_shows_change_it_at_once(client, teng):
    authored(teng, ["Y Wang", "T Ma", "Y Luo"], co_first=[1, 2])
    assert ">*</sup>" in _page(client, "/people/teng-ma/")

    lab = LabSettings.load()
    lab.marker_equal_contribution = "‡"
    lab.author_name_style = LabSettings.AuthorNameStyle.FULL
    lab.save()

    page = _page(client, "/people/teng-ma/")
    assert ">‡</sup>" in page
    assert ">*</sup>" not in page


def test_each_language_shows_its_own_entry(client, teng):
    authored(teng, ["Y Wang", "T Ma"], co_first=[1, 2])

    assert "Co-first" in _page(client, "/people/teng-ma/")
    chinese = _page(client, "/zh-hans/people/teng-ma/")

    assert "共同一作" in chinese
    assert "Co-first" not in chinese
    assert 'href="/zh-hans/publications/' in chinese
    assert "Co-first" in _page(client, "/people/teng-ma/")


def test_saving_a_paper_changes_its_entry_at_once(client, teng):
    paper = authored(teng, title="Old title")
    _page(client, "/people/teng-ma/")

    paper.title = "New title"
    paper.save(update_fields=["title"])

    page = _page(client, "/people/teng-ma/")
    assert "New title" in page
    assert "Old title" not in page
