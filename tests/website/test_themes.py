"""The lab's research themes: a list in the lab admin's order and a page each, with the
theme's people, papers (printed as the lists print them) and talks, in both languages."""

import pytest
from django.core.exceptions import ValidationError

from core.partial_dates import PartialDate
from tests import factories
from tests.sitemaps import whole_sitemap
from website.models import MenuItem, Theme

pytestmark = pytest.mark.django_db


@pytest.fixture
def kvcache(person):
    theme = factories.ThemeFactory(
        slug="kvcache",
        title="KVCache-centric serving",
        title_zh_hans="以 KVCache 为中心的推理",
        summary="Serving LLMs around a shared cache.",
        body="## Why\n\nThe **cache** dominates.<script>alert(1)</script>",
        code_url="https://github.com/kvcache-ai/Mooncake",
        start=PartialDate.parse("2023"),
    )
    theme.members.add(person, factories.PersonFactory(name="Feng Ren", slug="feng-ren"))
    theme.publications.add(
        factories.authored(person, ["R Qin", "T Ma"], title="Mooncake: a KVCache store"),
        factories.PublicationFactory(title="A draft paper", is_published=False),
    )
    theme.talks.add(factories.TalkFactory(title="Mooncake in production", slug="mooncake-talk"))
    return theme


def test_a_theme_shows_its_people_papers_talks_and_code_in_each_language(client, kvcache):
    english = client.get("/themes/kvcache/").content.decode()
    chinese = client.get("/zh-hans/themes/kvcache/").content.decode()

    assert "<h1>KVCache-centric serving</h1>" in english
    assert '<time datetime="2023">2023</time> – Present' in english
    assert '<h2 id="why">Why</h2>' in english and "<strong>cache</strong>" in english
    assert "<script>alert" not in english
    assert '<a href="https://github.com/kvcache-ai/Mooncake">Code</a>' in english
    assert 'href="/people/teng-ma/"' in english and 'href="/people/feng-ren/"' in english
    assert "Mooncake: a KVCache store" in english
    assert "A draft paper" not in english
    assert "Mooncake in production" in english
    assert "<h1>以 KVCache 为中心的推理</h1>" in chinese
    assert 'href="/zh-hans/people/teng-ma/"' in chinese


def test_the_list_holds_published_themes_in_the_lab_admins_order(client, kvcache):
    kvcache.position = 20
    kvcache.save()
    factories.ThemeFactory(title="Memory disaggregation", position=10)
    factories.ThemeFactory(title="A secret project", is_published=False)

    html = client.get("/themes/").content.decode()

    assert html.index("Memory disaggregation") < html.index("KVCache-centric serving")
    assert "A secret project" not in html
    assert "Serving LLMs around a shared cache." in html
    assert '<a href="/people/feng-ren/">Feng Ren</a>' in html


def test_a_draft_theme_is_found_nowhere(client):
    factories.ThemeFactory(slug="secret", is_published=False)

    assert client.get("/themes/secret/").status_code == 404
    assert "/themes/" not in whole_sitemap(client)


def test_a_themes_end_cannot_come_before_its_start():
    theme = Theme(
        title_en="Old work", start=PartialDate.parse("2024"), end=PartialDate.parse("2022")
    )

    with pytest.raises(ValidationError) as refused:
        theme.full_clean()

    assert "end" in refused.value.message_dict


def test_a_themes_links_are_web_addresses_only():
    theme = Theme(title_en="Unsafe", code_url="javascript:alert(1)")

    with pytest.raises(ValidationError) as refused:
        theme.full_clean()

    assert "code_url" in refused.value.message_dict


def test_themes_join_the_menu_and_sitemap(client, kvcache):
    MenuItem.objects.create(section="research", position=5)

    assert '<a href="/themes/">Research</a>' in client.get("/").content.decode()
    assert "<loc>http://testserver/themes/kvcache/</loc>" in whole_sitemap(client)


def test_the_themes_pages_query_counts_do_not_grow_with_members_and_papers(
    client, django_assert_max_num_queries, person, site_rows
):
    theme = factories.ThemeFactory(slug="big")
    for number in range(8):
        theme.members.add(factories.PersonFactory(slug=f"member-{number}"))
        theme.publications.add(factories.authored(person, ["A B", "T Ma"], title=f"Paper {number}"))
        theme.talks.add(factories.TalkFactory(slug=f"talk-{number}"))
    for number in range(5):
        factories.ThemeFactory(slug=f"other-{number}").members.add(person)

    # content version, lab settings, the menu, the themes, their members, their tags
    with django_assert_max_num_queries(6):
        assert client.get("/themes/").status_code == 200
    # content version, lab settings, the menu, the theme, its members, its papers (four:
    # papers, awards, authors, venues' rows), its talks (two), its tags and its papers'
    with django_assert_max_num_queries(14):
        assert client.get("/themes/big/").status_code == 200
