"""A new lab admin's first hour, in Chromium through the admin's real forms: a lab that
starts empty, the demo lab taken away with what they added kept, a refused form that keeps
its photo, and a banner button that follows the visitor's language."""

import io
import re
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from PIL import Image

from core import content
from lab.models import LabSettings
from people.models import Person
from publications.models import Publication
from website.models import Page

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def _save(page):
    page.click("input[name=_save]")
    page.wait_for_load_state()


def test_make_run_with_demo_off_loads_no_demo():
    """What `make run DEMO=off` would run (make -n prints it): no load_demo, the admin."""
    commands = {
        demo: subprocess.run(
            ["make", "-n", "run", "VENV=/nonexistent", *([f"DEMO={demo}"] if demo else [])],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout
        for demo in ("off", "")
    }

    assert "load_demo" not in commands["off"] and "ensure_admin" in commands["off"]
    assert "load_demo --if-empty" in commands[""]


def test_a_lab_started_with_demo_off_is_empty(lab_admin_page, live_server):
    # what `make run DEMO=off` leaves: migrate and ensure_admin, no load_demo
    call_command("ensure_admin", stdout=io.StringIO())
    page = lab_admin_page

    page.goto(live_server.url + "/admin/")
    assert not page.locator("#demo-lab").count()  # nothing to remove
    page.goto(live_server.url + "/people/")
    assert not page.locator(".person-card, .team-card").count()
    rows = {m._meta.label: m.objects.count() for m in content.models_of() if m is not LabSettings}
    assert set(rows.values()) == {0}, rows


def test_removing_the_demo_keeps_the_page_and_the_paper_the_admin_added(
    lab_admin_page, live_server
):
    call_command("load_demo", stdout=io.StringIO())
    page = lab_admin_page
    page.goto(live_server.url + "/admin/website/page/add/")
    page.fill("#id_title_en", "Join the Ren lab")
    page.check("#id_is_published")
    _save(page)
    assert not page.locator(".errornote").count()
    page.goto(live_server.url + "/admin/publications/publication/add/")
    page.fill("#id_title", "Our own first paper")
    page.fill("#id_date", "2026")
    _save(page)
    assert not page.locator(".errornote").count()

    page.goto(live_server.url + "/admin/")
    page.locator("#demo-lab a", has_text="remove the demo lab").click()
    page.wait_for_load_state()
    counts = dict(
        zip(
            page.locator("#demo-counts td:first-child").all_inner_texts(),
            page.locator("#demo-counts td:last-child").all_inner_texts(),
            strict=True,
        )
    )
    assert counts["People"] == "2" and counts["Publications"] == "53" and counts["Pages"] == "2"
    page.click("input[type=submit]")
    page.wait_for_load_state()

    assert "The demo lab is removed" in page.locator(".messagelist").inner_text()
    assert list(Page.objects.values_list("title_en", flat=True)) == ["Join the Ren lab"]
    assert list(Publication.objects.values_list("title", flat=True)) == ["Our own first paper"]
    left = {m._meta.label for m in content.models_of() if m.objects.exists()}
    assert left == {"lab.LabSettings", "website.Page", "publications.Publication"}


def test_a_refused_person_form_keeps_its_photo(lab_admin_page, live_server, tmp_path):
    photo = tmp_path / "portrait.jpg"
    Image.new("RGB", (600, 800), "teal").save(photo, "JPEG")
    page = lab_admin_page
    page.goto(live_server.url + "/admin/people/person/add/")
    page.fill("#id_name", "Wei Zhang")
    page.set_input_files("#id_photo", str(photo))
    page.fill("#id_orcid", "0000-0002-1825-0098")  # a wrong check digit: refused
    _save(page)
    assert "check digit" in page.locator(".errorlist").first.inner_text()
    assert "portrait.jpg" in page.locator(".kept-upload").inner_text()

    page.fill("#id_orcid", "0000-0002-1825-0097")  # corrected; the photo not chosen again
    _save(page)

    assert not page.locator(".errornote").count()
    person = Person.objects.get(name="Wei Zhang")
    assert person.photo and person.photo_thumb
    assert person.photo.name.endswith(".jpg")  # encoded afresh, as any upload


def test_a_banner_button_to_join_us_leads_to_the_chinese_page_on_the_chinese_home(
    lab_admin_page, browser, live_server
):
    page = lab_admin_page
    page.goto(live_server.url + "/admin/website/page/add/")
    page.fill("#id_title_en", "Join us")
    page.fill("#id_title_zh_hans", "加入我们")
    page.check("#id_is_published")
    _save(page)
    page.goto(live_server.url + "/admin/website/homesection/add/")
    page.select_option("#id_kind", "banner")
    page.fill("#id_text_en", "We build fast systems.")
    page.fill("#id_text_zh_hans", "我们构建快速的系统。")
    page.fill("#id_link_url", "/join-us/")
    page.fill("#id_link_label_en", "Join us")
    page.fill("#id_link_label_zh_hans", "加入我们")
    _save(page)
    assert not page.locator(".errornote").count()

    visitor = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    visitor.goto(live_server.url + "/zh-hans/")
    visitor.locator(".banner__link").click()
    visitor.wait_for_load_state()

    assert visitor.url == live_server.url + "/zh-hans/join-us/"
    assert visitor.locator("h1").inner_text() == "加入我们"
    visitor.goto(live_server.url + "/")
    assert re.fullmatch(r".*/join-us/", visitor.locator(".banner__link").get_attribute("href"))
    visitor.context.close()
