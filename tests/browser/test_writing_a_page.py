"""A lab admin writes a "Join us" page in both languages through the admin's real form in
Chromium and places it in the menu; a visitor then finds it in the menu of every page, in
English and in Chinese, also on a 390 px phone. A member is refused the page form."""

import pytest

from tests import factories
from website.models import Page

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_lab_admin_writes_join_us_in_two_languages_and_places_it_in_the_menu(
    lab_admin_page, browser, live_server
):
    page = lab_admin_page
    page.goto(live_server.url + "/admin/website/page/add/")
    page.fill("#id_title_en", "Join us")
    page.fill("#id_title_zh_hans", "加入我们")
    assert page.input_value("#id_slug") == "join-us"  # made from the English title
    page.fill("#id_body_en", "## Open positions\n\nWe take **PhD students** every autumn.")
    page.fill("#id_body_zh_hans", "## 招生\n\n我们每年秋季招收**博士生**。")
    page.check("#id_is_published")
    page.locator(".add-row a").first.click()  # "Add another place in the menu"
    page.fill("#id_menu_item-0-position", "15")
    page.click("input[name=_save]")
    page.wait_for_load_state()
    assert not page.locator(".errornote").count()

    visitor = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    visitor.goto(live_server.url + "/zh-hans/news/")
    visitor.get_by_text("菜单").click()  # a phone's menu opens from its button
    visitor.locator(".site-nav a", has_text="加入我们").click()
    visitor.wait_for_load_state()
    visitor.get_by_text("菜单").click()

    assert visitor.url == live_server.url + "/zh-hans/join-us/"
    assert visitor.locator("h1").inner_text() == "加入我们"
    assert visitor.locator(".prose h2").inner_text() == "招生"
    assert visitor.locator(".site-nav a[aria-current=page]").inner_text() == "加入我们"
    menu = visitor.locator(".site-nav a").all_inner_texts()
    assert menu.index("加入我们") == menu.index("成员") + 1  # after People (10), at 15
    visitor.goto(live_server.url + "/join-us/")
    assert "We take PhD students every autumn." in visitor.locator(".prose").inner_text()
    assert Page.objects.get().menu_item.position == 15
    visitor.context.close()


def test_a_member_cannot_open_the_page_form(browser, live_server):
    from django.contrib.auth.models import Group

    user = factories.UserFactory(username="member", is_staff=True)
    user.set_password("a long test password")
    user.save()
    user.groups.add(Group.objects.get(name="Lab member"))
    factories.PersonFactory(user=user)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(live_server.url + "/admin/login/")
    page.fill("#id_username", "member")
    page.fill("#id_password", "a long test password")
    page.click("input[type=submit]")
    page.wait_for_load_state()

    assert "/admin/website/page/" not in page.content()
    response = page.goto(live_server.url + "/admin/website/page/add/")
    assert response.status == 403
    context.close()
