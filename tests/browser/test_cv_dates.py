"""The CV's page in Chromium: every date on one line, in one column beside its entry."""

import pytest
from django.core.management import call_command

from people.models import Person

pytestmark = pytest.mark.django_db(transaction=True)

# Each CV date (a period, a talk's or an award's date): the lines it takes, where it and its
# entry's text start, in CSS pixels.
DATES = """() => [...document.querySelectorAll(
    ".cv .timeline__when, .cv .dated-list__date")].map((date) => {
  const range = document.createRange();
  range.selectNodeContents(date);
  const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
  return {
    text: date.textContent.trim(),
    lines: lines.size,
    left: Math.round(date.getBoundingClientRect().left),
    textLeft: Math.round(date.nextElementSibling.getBoundingClientRect().left),
  };
})"""


@pytest.mark.parametrize("width", [1280, 390])
def test_every_cv_date_is_on_one_line_in_one_column_in_both_languages(browser, live_server, width):
    call_command("load_demo", verbosity=0)
    members = [p.slug for p in Person.objects.published() if p.has_page]
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    checked = []
    for slug in members:
        for prefix in ("", "/zh-hans"):
            page.goto(f"{live_server.url}{prefix}/people/{slug}/cv/")
            dates = [d for d in page.evaluate(DATES) if d["text"]]  # undated: nothing to break
            assert [d for d in dates if d["lines"] != 1] == [], (prefix, slug)
            if width > 760:  # beside their entries: one column for every section
                assert len({d["left"] for d in dates}) == 1, (prefix, slug)
                assert len({d["textLeft"] for d in dates}) == 1, (prefix, slug)
            checked += dates
    context.close()
    assert len(checked) >= 60 and any("至今" in d["text"] for d in checked)
