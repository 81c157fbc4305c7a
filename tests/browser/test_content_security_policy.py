"""The public pages and the admin work in Chromium with the Content-Security-Policy in force:
no violation is reported on any of them, and the admin's scripts still run."""

import pytest
from django.contrib.auth.models import Group

from lab.models import LabSettings
from tests import factories
from tests.browser.visitors import RECORD_VIOLATIONS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lab(transactional_db):
    teng = factories.PersonFactory(name="Teng Ma", native_name="马腾", slug="teng-ma", bio="**Hi**")
    factories.LinkFactory(person=teng)
    factories.NewsItemFactory(person=teng)
    factories.ProjectFactory(person=teng)
    paper = factories.authored(teng, ["Y Wang", "T Ma"], at=2, co_first=[1, 2], doi="10.1145/1")
    talk = factories.SpeakerFactory(person=teng).talk
    factories.RecipientFactory(person=teng)
    user = factories.UserFactory(username="labadmin", is_staff=True)
    user.groups.add(Group.objects.get(name="Lab admin"))
    settings = LabSettings.load()
    settings.primary_colour = "#8e1b3a"  # a stylesheet of its own, linked by every page
    settings.save()
    return {"person": teng, "paper": paper, "talk": talk}


def _visit(page, url):
    response = page.goto(url)
    assert response.status < 400, f"{url} answered {response.status}"
    assert response.headers.get("content-security-policy"), url
    return page.evaluate("window.__violations")


def test_pages_and_admin_report_no_csp_violation(browser, live_server, lab):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    console = []
    page.on("console", lambda message: console.append(message.text))
    base = live_server.url
    public = [
        "/",
        "/people/",
        "/people/teng-ma/",
        "/publications/",
        lab["paper"].get_absolute_url(),
        "/talks/",
        "/awards/",
        "/news/",
    ]
    violations = {url: _visit(page, base + url) for url in public}
    # the lab's colour came through: its stylesheet is the site's own, which the CSP allows
    assert page.evaluate("getComputedStyle(document.querySelector('main a')).color") == (
        "rgb(142, 27, 58)"
    )

    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", "labadmin")
    page.fill("#id_password", "a-long-test-password")
    page.click("input[type=submit]")
    page.wait_for_url(f"{base}/admin/")
    admin_pages = [
        "/admin/",
        f"/admin/people/person/{lab['person'].pk}/change/",
        f"/admin/publications/publication/{lab['paper'].pk}/change/",
        f"/admin/publications/publication/{lab['paper'].pk}/history/",
        "/admin/publications/publication/import/",
        f"/admin/talks/talk/{lab['talk'].pk}/change/",
        "/admin/auth/user/",
        "/admin/lab/labsettings/1/change/",
    ]
    for url in admin_pages:
        violations[url] = _visit(page, base + url)

    # The admin's own scripts ran: the inline "Add another" link is made by inlines.js.
    page.goto(f"{base}/admin/publications/publication/{lab['paper'].pk}/change/")
    assert page.locator(".add-row a").count() >= 1

    assert {url: found for url, found in violations.items() if found} == {}
    assert not [line for line in console if "Content Security Policy" in line]
    context.close()
