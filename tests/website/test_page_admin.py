"""The pages' and the menu's admin: lab admins write pages and place them; members cannot."""

import pytest

from tests import factories
from tests.admin_forms import form_data
from website.models import MenuItem, Page

pytestmark = pytest.mark.django_db

PAGE_ADD = "/admin/website/page/add/"


def test_a_lab_admin_writes_a_page_in_two_languages_and_places_it_in_the_menu(
    cast, client, signed_in
):
    editor = signed_in(cast["admin"])
    data = form_data(
        editor.get(PAGE_ADD),
        title_en="Join us",
        title_zh_hans="加入我们",
        slug="join-us",
        body_en="We are hiring **PhD students**.",
        body_zh_hans="我们招收**博士生**。",
        is_published="on",
        **{
            "menu_item-TOTAL_FORMS": "1",
            "menu_item-0-position": "15",
            "menu_item-0-is_shown": "on",
        },
    )

    response = editor.post(PAGE_ADD, data)

    assert response.status_code == 302, response.context["errors"]
    page = Page.objects.get()
    assert (page.address, page.menu_item.position) == ("join-us", 15)
    home = client.get("/zh-hans/").content.decode()
    assert '<a href="/zh-hans/join-us/">加入我们</a>' in home
    assert "我们招收<strong>博士生</strong>。" in client.get("/zh-hans/join-us/").content.decode()


def test_the_admin_says_why_a_page_cannot_take_a_sections_address(cast, signed_in):
    editor = signed_in(cast["admin"])
    data = form_data(editor.get(PAGE_ADD), title_en="Our people", slug="people")

    response = editor.post(PAGE_ADD, data)

    assert response.status_code == 200
    assert "/people/ is one of the site&#x27;s own addresses." in response.content.decode()
    assert not Page.objects.exists()


def test_a_lab_admin_moves_renames_and_hides_built_in_sections(cast, client, signed_in):
    editor = signed_in(cast["admin"])
    add = "/admin/website/menuitem/add/"
    placed = [("news", "5", "Updates", "on"), ("awards", "40", "", "")]
    for section, position, label, shown in placed:
        data = form_data(editor.get(add), section=section, position=position, label_en=label)
        data["is_shown"] = shown
        assert editor.post(add, data).status_code == 302

    html = client.get("/").content.decode()

    assert html.index('<a href="/news/">Updates</a>') < html.index('<a href="/people/">People</a>')
    assert 'href="/awards/"' not in html.split("</nav>")[0]


@pytest.mark.parametrize("who", ["owner", "other"])
def test_a_member_can_neither_write_pages_nor_change_the_menu(cast, who, signed_in):
    page = factories.PageFactory()
    member = signed_in(cast[who])

    assert member.get(PAGE_ADD).status_code == 403
    assert member.get(f"/admin/website/page/{page.pk}/change/").status_code == 403
    assert member.get("/admin/website/menuitem/add/").status_code == 403
    index = member.get("/admin/").content.decode()
    assert "/admin/website/page/" not in index
    assert "/admin/website/menuitem/" not in index
    assert "/admin/website/post/" in index  # their posts, which they may write
    assert not MenuItem.objects.exists()
