"""A lab admin posts an opening with a deadline through the admin's real form in Chromium;
a visitor finds it listed (on a 390 px phone too) up to its deadline and not the day after,
and its page carries the JobPosting data Google requires."""

import datetime
import json

import pytest

from website.models import Opening

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_lab_admin_posts_an_opening_listed_until_its_deadline(
    lab_admin_page, browser, live_server, client, monkeypatch
):
    page = lab_admin_page
    page.goto(live_server.url + "/admin/website/opening/add/")
    page.fill("#id_title_en", "Summer interns: RDMA transfer engines")
    page.fill("#id_title_zh_hans", "暑期实习：RDMA 传输引擎")
    assert page.input_value("#id_slug") == "summer-interns-rdma-transfer-engines"
    page.select_option("#id_kind", "intern")
    page.fill("#id_posted", "2026-03-01")
    page.fill("#id_deadline", "2026-04-30")
    page.fill("#id_city_en", "Beijing")
    page.fill("#id_country", "CN")
    page.fill("#id_description_en", "Three months on the **Transfer Engine**.")
    page.fill("#id_description_zh_hans", "在**传输引擎**上工作三个月。")
    page.fill("#id_how_to_apply_en", "Send your CV to lab@example.org.")
    page.check("#id_is_published")
    page.click("input[name=_save]")
    page.wait_for_load_state()
    assert not page.locator(".errornote").count()
    opening = Opening.objects.get()
    assert (opening.kind, opening.deadline) == ("intern", datetime.date(2026, 4, 30))

    # The day of the deadline: listed, in both languages.
    monkeypatch.setattr("django.utils.timezone.localdate", lambda *a: datetime.date(2026, 4, 30))
    visitor = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    visitor.goto(live_server.url + "/zh-hans/openings/")
    visitor.locator(".openings a", has_text="暑期实习：RDMA 传输引擎").click()
    visitor.wait_for_load_state()
    assert visitor.locator("h1").inner_text() == "暑期实习：RDMA 传输引擎"
    data = json.loads(visitor.locator("script[type='application/ld+json']").text_content())
    assert data["@type"] == "JobPosting"
    assert data["validThrough"].startswith("2026-04-30T23:59:59")
    assert data["jobLocation"]["address"]["addressCountry"] == "CN"
    assert {"title", "description", "datePosted", "hiringOrganization"} <= data.keys()
    visitor.context.close()

    # The day after: no longer listed; its page says it closed.
    monkeypatch.setattr("django.utils.timezone.localdate", lambda *a: datetime.date(2026, 5, 1))
    listing = client.get("/openings/").content.decode()
    assert "Summer interns" not in listing
    closed = client.get("/openings/summer-interns-rdma-transfer-engines/").content.decode()
    assert "Applications closed on 30 Apr 2026." in closed
