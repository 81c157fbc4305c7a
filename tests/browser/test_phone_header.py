"""On a phone (390 px wide) the header is one short row, the lab's name and a Menu button,
and the menu opens by keyboard and reads out to a screen reader, with JavaScript off; on a
desktop the menu shows in the header without being opened."""

import pytest

from lab.models import LabSettings
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# What the menu holds on this lab's site: the built-in sections and a page the lab wrote.
MENU = ["People", "Join us", "Publications", "Talks", "Awards", "News"]


@pytest.fixture
def site(transactional_db):
    lab = LabSettings.load()
    # a long name, as real labs have: it may take two lines, never a third
    lab.name = "Laboratory for Parallel and Distributed Systems, Institute of Computing"
    lab.save()
    factories.PersonFactory(slug="teng-ma")
    page = factories.PageFactory(title="Join us", slug="join-us")
    factories.MenuItemFactory(page=page, position=15)
    return lab


def _page(browser, viewport, **options):
    context = browser.new_context(viewport=viewport, java_script_enabled=False, **options)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _header_height(page):
    return page.locator(".site-header").bounding_box()["height"]


def _menu_button_as_read_out(page):
    """(role, name, expanded) of the menu button in the page's accessibility tree, as
    Chromium hands it to a screen reader."""
    cdp = page.context.new_cdp_session(page)
    for node in cdp.send("Accessibility.getFullAXTree")["nodes"]:
        if node.get("role", {}).get("value") == "DisclosureTriangle":
            states = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
            return node["role"]["value"], node["name"]["value"], states.get("expanded")
    return None


def test_on_a_phone_the_header_is_one_row_at_most_80_px_with_a_menu_button(
    browser, live_server, site
):
    page = _page(browser, PHONE)
    page.goto(live_server.url + "/people/")

    assert _header_height(page) <= 80
    assert page.locator("summary").inner_text() == "Menu"
    assert page.locator(".site-name").is_visible()
    assert not page.get_by_role("link", name="Publications").is_visible()  # folded away
    # a screen reader hears a button named "Menu", collapsed
    assert _menu_button_as_read_out(page) == ("DisclosureTriangle", "Menu", False)


def test_the_menu_opens_by_keyboard_and_leads_to_a_page_without_javascript(
    browser, live_server, site
):
    page = _page(browser, PHONE)
    page.goto(live_server.url + "/")

    for _press in range(3):  # skip link, lab name, then the menu button
        page.keyboard.press("Tab")
    assert page.locator("summary:focus").count() == 1
    page.keyboard.press("Enter")

    assert page.locator("details.site-menu[open]").count() == 1
    assert _menu_button_as_read_out(page) == ("DisclosureTriangle", "Menu", True)
    for label in MENU:
        assert page.get_by_role("link", name=label, exact=True).is_visible(), label
    for _press in range(3):  # People, Join us, Publications
        page.keyboard.press("Tab")
    assert page.locator("a:focus").inner_text() == "Publications"
    page.keyboard.press("Enter")
    page.wait_for_url(live_server.url + "/publications/")
    assert page.get_by_role("heading", level=1).inner_text() == "Publications"


def test_the_menu_button_is_named_in_chinese_on_chinese_pages(browser, live_server, site):
    page = _page(browser, PHONE)
    page.goto(live_server.url + "/zh-hans/")

    assert _header_height(page) <= 80
    assert page.locator("summary").inner_text() == "菜单"
    assert _menu_button_as_read_out(page) == ("DisclosureTriangle", "菜单", False)
    page.locator("summary").click()
    assert page.get_by_role("link", name="English").is_visible()


def test_on_a_desktop_every_menu_link_shows_without_opening_the_menu(browser, live_server, site):
    page = _page(browser, DESKTOP)
    page.goto(live_server.url + "/people/")

    assert not page.locator("summary").is_visible()
    assert page.locator("details.site-menu[open]").count() == 0
    for label in MENU:
        assert page.get_by_role("link", name=label, exact=True).is_visible(), label
    assert page.get_by_role("link", name="简体中文").is_visible()
    # in one row, as before the menu could fold (a long name may sit above it)
    tops = {page.get_by_role("link", name=label, exact=True).bounding_box()["y"] for label in MENU}
    assert len(tops) == 1


def test_a_browser_that_cannot_show_a_closed_menu_keeps_the_button_on_a_desktop(
    browser, live_server, site
):
    """A browser without ::details-content (Safari before 18.4, Firefox before 143) is
    given the phone's menu at every width, rather than a menu it would hide for good."""
    page = _page(browser, DESKTOP)

    def older_browser(route):
        response = route.fetch()
        css = response.text().replace("selector(::details-content)", "selector(::no-such-part)")
        route.fulfill(response=response, body=css)

    page.route("**/site.css", older_browser)
    page.goto(live_server.url + "/people/")

    assert page.locator("summary").is_visible()
    page.locator("summary").click()
    for label in MENU:
        assert page.get_by_role("link", name=label, exact=True).is_visible(), label
