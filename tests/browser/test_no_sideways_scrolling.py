"""No page scrolls sideways at any width from 320 to 1,920 px, in English or Chinese: every
public page type of the demo lab, in widths 40 px apart, the document no wider than the
window."""

import pytest
from django.core.management import call_command

from publications.models import Publication
from talks.models import Talk
from tests.browser.visitors import sideways_overflow

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = range(320, 1921, 40)


@pytest.fixture
def page_types(transactional_db):
    """One address of every public page type of the demo lab, in English and in Chinese."""
    call_command("load_demo", verbosity=0)
    papers = Publication.objects.published()
    talk = next(t for t in Talk.objects.published().for_listing() if t.has_page)
    english = [
        "/",
        "/people/",
        "/people/teng-ma/",
        "/people/teng-ma/cv/",
        "/publications/",
        papers.filter(kind="conference").first().get_absolute_url(),
        "/talks/",
        talk.get_absolute_url(),
        "/awards/",
        "/news/",
        "/posts/",
        "/posts/mooncake-open-source-2024/",
        "/openings/",
        "/openings/phd-kvcache-systems/",
        "/themes/",
        "/themes/kvcache-centric-serving/",
        "/teaching/",
        "/teaching/systems-for-large-language-models-2025/",
        "/join-us/",
    ]
    return english + ["/zh-hans" + url for url in english]


def test_no_page_scrolls_sideways_from_320_to_1920_px(browser, live_server, page_types):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    sideways = []
    for url in page_types:
        page.goto(live_server.url + url)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            excess, culprit = sideways_overflow(page)
            if excess > 0:
                sideways.append(f"{url} at {width} px: {excess} px too wide ({culprit})")
    context.close()

    assert sideways == [], f"{len(sideways)} of {len(page_types) * len(WIDTHS)}: " + "\n".join(
        sideways[:40]
    )
