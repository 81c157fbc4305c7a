"""A lab admin composes the home page through the admin's real forms in Chromium: lists the
team and the news, swaps their places in the changelist, and adds a banner with an image,
its description, a text in both languages and a link; a visitor then finds the sections in
that order, in English at 1,280 px and in Chinese on a 390 px phone."""

import re

import pytest
from PIL import Image

from lab.models import LabSettings
from tests import factories
from website.models import HomeSection

pytestmark = pytest.mark.django_db(transaction=True)


def _headings(page):
    ids = page.locator("main h2").evaluate_all("(hs) => hs.map((h) => h.id)")
    return [re.sub(r"-heading$", "", name) for name in ids]


def _add_section(page, live_server, kind):
    page.goto(live_server.url + "/admin/website/homesection/add/")
    page.select_option("#id_kind", kind)
    page.click("input[name=_save]")
    page.wait_for_load_state()
    assert not page.locator(".errornote").count()


def test_a_lab_admin_reorders_two_sections_and_adds_a_banner(
    lab_admin_page, browser, live_server, tmp_path
):
    lab = LabSettings.load()
    lab.about = "We study memory."
    lab.save()
    teng = factories.PersonFactory(name="Teng Ma", slug="teng-ma")
    factories.authored(teng, ["T Ma", "F Ren"], title="Mooncake store")
    factories.NewsItemFactory(person=teng, text="Mooncake won a prize.")
    visitor = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    visitor.goto(live_server.url + "/")
    assert _headings(visitor) == ["about", "team", "publications", "news"]

    page = lab_admin_page
    _add_section(page, live_server, "team")
    _add_section(page, live_server, "news")
    # the changelist lists them at their own places (team 20, news 40): swap them
    page.goto(live_server.url + "/admin/website/homesection/")
    page.locator("#result_list tr", has_text="News").locator("input[name$=position]").fill("15")
    page.locator("#result_list tr", has_text="Team").locator("input[name$=position]").fill("45")
    page.click("input[name=_save]")
    page.wait_for_load_state()
    assert not page.locator(".errornote").count()

    image = tmp_path / "servers.jpg"
    Image.new("RGB", (2000, 1000), "steelblue").save(image, "JPEG")
    page.goto(live_server.url + "/admin/website/homesection/add/")
    page.select_option("#id_kind", "banner")
    page.fill("#id_heading_en", "Welcome to the lab")
    page.fill("#id_heading_zh_hans", "欢迎来到实验室")
    page.set_input_files("#id_image", str(image))
    page.fill("#id_text_en", "We build **fast** systems.")
    page.fill("#id_text_zh_hans", "我们构建**快速**的系统。")
    page.fill("#id_link_url", "javascript:alert(1)")
    page.fill("#id_link_label_en", "Join us")
    page.click("input[name=_save]")
    page.wait_for_load_state()
    # refused, each with its reason: the link, and the image undescribed
    errors = page.locator(".errorlist").all_inner_texts()
    assert any("Enter a web address starting with http:// or https://" in e for e in errors)
    assert any("Say what the image shows" in error for error in errors)
    assert not HomeSection.objects.filter(kind="banner").exists()
    # the refused form kept the image: not chosen again
    assert "servers.jpg" in page.locator(".kept-upload").inner_text()
    page.fill("#id_image_alt_en", "The lab's servers")
    page.fill("#id_link_url", "https://example.org/join")
    page.click("input[name=_save]")
    page.wait_for_load_state()
    assert not page.locator(".errornote").count()
    banner = HomeSection.objects.get(kind="banner")
    assert (banner.position, banner.image_width, banner.image_height) == (5, 1600, 800)

    visitor.goto(live_server.url + "/")
    assert _headings(visitor) == ["banner", "about", "news", "publications", "team"]
    assert visitor.locator(".banner__text strong").inner_text() == "fast"
    assert visitor.locator(".banner__image").get_attribute("alt") == "The lab's servers"
    assert visitor.locator(".banner__link").get_attribute("href") == "https://example.org/join"
    visitor.context.close()

    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(live_server.url + "/zh-hans/")
    assert _headings(phone) == ["banner", "about", "news", "publications", "team"]
    assert phone.locator("#banner-heading").inner_text() == "欢迎来到实验室"
    assert phone.locator(".banner__text").inner_text() == "我们构建快速的系统。"
    # the image sits above the text, as wide as the banner, within the phone's width
    image_box = phone.locator(".banner__image").bounding_box()
    text_box = phone.locator(".banner__text").bounding_box()
    assert image_box["y"] + image_box["height"] <= text_box["y"]
    assert image_box["x"] >= 0 and image_box["x"] + image_box["width"] <= 390
    phone.context.close()
