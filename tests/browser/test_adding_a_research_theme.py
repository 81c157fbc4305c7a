"""A lab admin adds a research theme through the admin's real form in Chromium, picking two
members and three papers in its autocomplete menus; a visitor finds the theme in the list
and on its page with those people and papers, in both languages, also on a 390 px phone."""

import pytest

from tests import factories
from website.models import Theme

pytestmark = pytest.mark.django_db(transaction=True)


def _pick(page, select_id, text):
    """A select2 autocomplete of several: open it, type, pick the match."""
    page.click(f"#{select_id} + .select2")
    page.locator(".select2-container--open .select2-search__field").fill(text)
    page.locator(".select2-results__option[role=option]", has_text=text).click()


def test_a_lab_admin_adds_a_theme_with_two_members_and_three_papers(
    lab_admin_page, browser, live_server
):
    teng = factories.PersonFactory(name="Teng Ma", slug="teng-ma")
    factories.PersonFactory(name="Feng Ren", slug="feng-ren")
    factories.PersonFactory(name="Someone Else", slug="someone-else")
    for title in ("Mooncake store", "Mooncake transfer engine", "Slice spraying engine"):
        factories.authored(teng, ["R Qin", "T Ma"], title=title)
    factories.authored(teng, ["R Qin", "T Ma"], title="An unrelated paper")

    page = lab_admin_page
    page.goto(live_server.url + "/admin/website/theme/add/")
    page.fill("#id_title_en", "KVCache-centric serving")
    page.fill("#id_title_zh_hans", "以 KVCache 为中心的推理")
    assert page.input_value("#id_slug") == "kvcache-centric-serving"
    page.fill("#id_summary_en", "Serving large models around a shared cache.")
    _pick(page, "id_members", "Teng Ma")
    _pick(page, "id_members", "Feng Ren")
    for title in ("Mooncake store", "Mooncake transfer engine", "Slice spraying engine"):
        _pick(page, "id_publications", title)
    page.check("#id_is_published")
    page.click("input[name=_save]")
    page.wait_for_load_state()
    assert not page.locator(".errornote").count()
    theme = Theme.objects.get()
    assert sorted(theme.members.values_list("slug", flat=True)) == ["feng-ren", "teng-ma"]
    assert theme.publications.count() == 3

    visitor = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    visitor.goto(live_server.url + "/zh-hans/themes/")
    visitor.locator(".themes a", has_text="以 KVCache 为中心的推理").click()
    visitor.wait_for_load_state()
    assert visitor.locator("h1").inner_text() == "以 KVCache 为中心的推理"
    assert visitor.locator(".person-card__name").all_inner_texts() == ["Feng Ren", "Teng Ma"]
    papers = visitor.locator(".pub__title").all_inner_texts()
    assert sorted(papers) == ["Mooncake store", "Mooncake transfer engine", "Slice spraying engine"]
    visitor.context.close()
