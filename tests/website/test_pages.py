"""The lab's own pages: each at its address, in both languages, in the menu where the lab
admin places it, in the sitemap; drafts nowhere."""

import pytest
from django.core.exceptions import ValidationError

from lab.models import LabSettings
from labsite.static_site import export_static
from tests import factories
from tests.sitemaps import whole_sitemap
from website.models import MenuItem, Page

pytestmark = pytest.mark.django_db


def _menu(html):
    """The main menu's markup."""
    start = html.index('<nav class="site-nav"')
    return html[start : html.index("</nav>", start)]


def test_a_page_shows_its_title_and_sanitised_body_in_each_language(client):
    factories.PageFactory(
        slug="join-us",
        title="Join us",
        title_zh_hans="加入我们",
        body="## Open positions\n\nWrite to **us**.<script>alert(1)</script>",
        body_zh_hans="## 招生\n\n欢迎来信。",
    )

    english = client.get("/join-us/").content.decode()
    chinese = client.get("/zh-hans/join-us/").content.decode()

    assert "<h1>Join us</h1>" in english
    assert '<h2 id="open-positions">Open positions</h2>' in english
    assert "<strong>us</strong>" in english
    assert "<script>alert" not in english
    assert "<h1>加入我们</h1>" in chinese
    assert '<h2 id="招生">招生</h2>' in chinese


def test_a_page_written_in_one_language_shows_it_marked_on_the_other(client):
    factories.PageFactory(slug="contact", title="Contact", body="Room 101.")

    chinese = client.get("/zh-hans/contact/").content.decode()

    assert '<h1 lang="en">Contact</h1>' in chinese
    assert '<div class="prose" lang="en"><p>Room 101.</p>' in chinese


def test_a_draft_is_found_nowhere(client):
    draft = factories.PageFactory(slug="draft", title="Secret plans", is_published=False)
    factories.MenuItemFactory(page=draft)

    assert client.get("/draft/").status_code == 404
    assert "Secret plans" not in client.get("/").content.decode()
    assert "/draft/" not in whole_sitemap(client)


def test_a_subpage_lives_under_its_parents_address_and_moves_with_it(client):
    research = factories.PageFactory(slug="research", title="Research")
    factories.PageFactory(slug="memory", title="Memory systems", parent=research)

    listed = client.get("/research/").content.decode()
    research.slug = "projects"
    research.save()

    assert '<a href="/research/memory/">Memory systems</a>' in listed
    assert client.get("/research/memory/").status_code == 404
    child = client.get("/projects/memory/").content.decode()
    assert '<a href="/projects/">Research</a>' in child


@pytest.mark.parametrize("slug", ["people", "publications", "talks", "zh-hans", "admin", "static"])
def test_a_page_cannot_take_an_address_the_site_answers(slug):
    page = Page(title_en="Ours", slug=slug)

    with pytest.raises(ValidationError) as refused:
        page.full_clean()

    assert refused.value.message_dict["slug"] == [f"/{slug}/ is one of the site's own addresses."]


def test_two_pages_cannot_share_an_address_and_none_sits_under_itself():
    parent = factories.PageFactory(slug="research")
    child = factories.PageFactory(slug="memory", parent=parent)

    with pytest.raises(ValidationError, match=r"Another page has the address /research/memory/\."):
        Page(title_en="Again", slug="memory", parent=parent).full_clean()
    parent.parent = child
    with pytest.raises(ValidationError, match=r"A page cannot sit under itself\."):
        parent.full_clean()


def test_a_page_with_no_slug_gets_one_from_its_title():
    page = Page(title_en="Join Us Today", is_published=True)
    page.full_clean()
    page.save()

    assert page.get_absolute_url() == "/join-us-today/"


def test_a_file_name_is_not_taken_for_a_page(client):
    assert client.get("/wp-login.php").status_code == 404  # not sent on to /wp-login.php/


def test_the_menu_is_todays_until_the_lab_admin_changes_it(client):
    menu = _menu(client.get("/news/").content.decode())

    assert [line.strip() for line in menu.splitlines() if line.strip()] == [
        '<nav class="site-nav" aria-label="Main">',
        '<a href="/people/">People</a>',
        '<a href="/publications/">Publications</a>',
        '<a href="/talks/">Talks</a>',
        '<a href="/awards/">Awards</a>',
        '<a href="/news/" aria-current="page">News</a>',
    ]


def test_the_menu_holds_pages_and_sections_in_the_admins_order_names_and_choices(client):
    join = factories.PageFactory(slug="join-us", title="Join us", title_zh_hans="加入我们")
    factories.MenuItemFactory(page=join, position=15)
    MenuItem.objects.create(section="news", position=5, label="Updates", label_zh_hans="动态")
    MenuItem.objects.create(section="awards", is_shown=False)

    english = _menu(client.get("/join-us/").content.decode())
    chinese = _menu(client.get("/zh-hans/").content.decode())

    assert [line.strip() for line in english.splitlines() if line.strip()][1:] == [
        '<a href="/news/">Updates</a>',
        '<a href="/people/">People</a>',
        '<a href="/join-us/" aria-current="page">Join us</a>',
        '<a href="/publications/">Publications</a>',
        '<a href="/talks/">Talks</a>',
    ]
    assert '<a href="/zh-hans/news/">动态</a>' in chinese
    assert '<a href="/zh-hans/join-us/">加入我们</a>' in chinese


def test_a_subpage_marks_its_parents_menu_item_and_an_untranslated_label_says_its_language(
    client,
):
    research = factories.PageFactory(slug="research", title="Research")
    factories.PageFactory(slug="memory", parent=research)
    factories.MenuItemFactory(page=research)

    english = _menu(client.get("/research/memory/").content.decode())
    chinese = _menu(client.get("/zh-hans/research/memory/").content.decode())

    assert '<a href="/research/" aria-current="page">Research</a>' in english
    assert '<a href="/zh-hans/research/" lang="en" aria-current="page">Research</a>' in chinese


def test_the_sitemap_lists_published_pages_in_both_languages(client):
    research = factories.PageFactory(slug="research")
    factories.PageFactory(slug="memory", parent=research)

    xml = whole_sitemap(client)

    assert "<loc>http://testserver/research/memory/</loc>" in xml
    assert "<loc>http://testserver/zh-hans/research/memory/</loc>" in xml


def test_a_pages_query_count_does_not_grow_with_its_subpages_or_the_menu(
    client, django_assert_max_num_queries, site_rows
):
    research = factories.PageFactory(slug="research")
    for number in range(8):
        page = factories.PageFactory(parent=research, slug=f"topic-{number}")
        factories.MenuItemFactory(page=page)

    # content version, lab settings, the page and its parent, its subpages, the menu
    with django_assert_max_num_queries(5):
        assert client.get("/research/").status_code == 200


def test_pages_sit_at_most_three_levels_deep_subpages_included():
    top = factories.PageFactory(slug="top")
    middle = factories.PageFactory(slug="middle", parent=top)
    factories.PageFactory(slug="bottom", parent=middle)
    other = factories.PageFactory(slug="other")

    with pytest.raises(ValidationError, match="at most three levels deep"):
        Page(
            title_en="Too deep", slug="deeper", parent=Page.objects.get(slug="bottom")
        ).full_clean()
    top.parent = other  # would push "bottom" to a fourth level
    with pytest.raises(ValidationError, match="at most three levels deep"):
        top.full_clean()


def test_a_cached_page_and_the_menu_on_every_page_change_with_an_edit(client):
    page = factories.PageFactory(slug="join-us", title="Join us")
    factories.MenuItemFactory(page=page)
    LabSettings.load()
    for url in ("/join-us/", "/news/"):
        client.get(url)
        assert client.get(url)["X-Page-Cache"] == "hit"

    page.title_en = "Work with us"
    page.save()

    assert "<h1>Work with us</h1>" in client.get("/join-us/").content.decode()
    assert '<a href="/join-us/">Work with us</a>' in client.get("/news/").content.decode()


def test_the_static_copy_holds_the_pages_the_menu_and_parents_lead_to(tmp_path):
    research = factories.PageFactory(slug="research", title="Research")
    factories.PageFactory(slug="memory", parent=research)
    factories.MenuItemFactory(page=research)
    factories.PageFactory(slug="draft", is_published=False)

    result = export_static(tmp_path, "http://testserver/")

    assert result.broken == []
    for name in ["research", "memory"]:
        path = "research/" + ("" if name == "research" else "memory/")
        assert (tmp_path / path / "index.html").is_file(), path
        assert (tmp_path / "zh-hans" / path / "index.html").is_file(), path
    assert not (tmp_path / "draft").exists()
