"""Browser tests drive the Debian Chromium through Playwright (no browser is downloaded).

Without /usr/bin/chromium they are skipped, unless REQUIRE_BROWSER is set (as CI does),
in which case they fail: CI installs Chromium and must run them.
"""

import os
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def shots(tmp_path_factory):
    """A folder of this run's own for the screenshots a test leaves to be looked at."""
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail("REQUIRE_BROWSER is set but Chromium is not installed")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
    # still synchronous, so Django's async-safety guard is told so.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def lab_admin_page(browser, live_server):
    """A 1,280 px browser page signed in as a lab admin (the "Lab admin" group, not a
    superuser)."""
    from django.contrib.auth.models import Group

    from tests import factories

    user = factories.UserFactory(username="labadmin", is_staff=True)
    user.set_password("a long test password")
    user.save()
    user.groups.add(Group.objects.get(name="Lab admin"))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/admin/login/")
    page.fill("#id_username", "labadmin")
    page.fill("#id_password", "a long test password")
    page.click("input[type=submit]")
    yield page
    context.close()
