"""Every public page names its canonical address for search engines (one
`<link rel="canonical">`, in each language), a list's later pages their own; a list
filtered or searched (`?kind=`, `?q=`, …) is `noindex` (its links still followed) and names
no canonical address of its own."""

import re

import pytest

from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def site(person):
    """One thing of every kind that has a page."""
    paper = factories.PublicationFactory(title="Mooncake", slug="mooncake")
    factories.AuthorshipFactory(publication=paper, person=person, position=1)
    talk = factories.TalkFactory()
    factories.SpeakerFactory(talk=talk, person=person)
    factories.NewsItemFactory()
    post = factories.PostFactory(slug="open-source")
    opening = factories.OpeningFactory(slug="phd-memory")
    theme = factories.ThemeFactory(slug="memory")
    course = factories.CourseFactory(slug="operating-systems")
    page = factories.PageFactory(slug="join-us")
    return [
        "/",
        "/people/",
        person.get_absolute_url(),
        "/publications/",
        paper.get_absolute_url(),
        "/talks/",
        talk.get_absolute_url(),
        "/awards/",
        "/news/",
        "/posts/",
        post.get_absolute_url(),
        "/openings/",
        opening.get_absolute_url(),
        "/themes/",
        theme.get_absolute_url(),
        "/teaching/",
        course.get_absolute_url(),
        page.get_absolute_url(),
    ]


def _canonical(html):
    return re.findall(r'<link rel="canonical" href="([^"]*)">', html)


def _robots(html):
    return re.findall(r'<meta name="robots" content="([^"]*)">', html)


@pytest.mark.parametrize("language", ["", "/zh-hans"])
def test_every_page_type_names_its_own_address_as_canonical(client, site, language):
    missing = {}
    for path in site:
        address = f"{language}{path}"
        response = client.get(address)
        assert response.status_code == 200, address
        html = response.content.decode()
        if _canonical(html) != [f"http://testserver{address}"] or _robots(html):
            missing[address] = (_canonical(html), _robots(html))

    assert missing == {}
    assert len(site) == 18


@pytest.mark.parametrize(
    "query",
    ["?kind=conference", "?q=mooncake", "?year=2024", "?kind=conference&page=1"],
)
def test_a_filtered_or_searched_publication_list_is_noindex(client, site, query):
    html = client.get(f"/publications/{query}", follow=True).content.decode()

    assert _robots(html) == ["noindex, follow"]
    assert _canonical(html) == []


def test_a_filtered_talk_list_is_noindex(client, site):
    html = client.get("/talks/?kind=invited", follow=True).content.decode()

    assert _robots(html) == ["noindex, follow"]


def test_a_lists_later_page_is_its_own_canonical_and_its_first_is_the_list(client, site):
    for number in range(60):
        factories.PublicationFactory(title=f"Paper {number}", slug=f"paper-{number}")

    second = client.get("/publications/?page=2").content.decode()
    first = client.get("/publications/?page=1").content.decode()

    assert _canonical(second) == ["http://testserver/publications/?page=2"]
    assert _canonical(first) == ["http://testserver/publications/"]
    assert _robots(second) == _robots(first) == []


def test_a_missing_page_names_no_canonical_address(client, site):
    response = client.get("/posts/no-such-post/")

    assert response.status_code == 404
    assert _canonical(response.content.decode()) == []
