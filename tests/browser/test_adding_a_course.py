"""A lab admin adds a course through the admin's real form in Chromium, in both languages,
with two members who taught it in different roles, each picked in an autocomplete menu; a
visitor on a 390 px phone finds it in the teaching list, on its page with both teachers in
their roles, and on each teacher's profile with their own role."""

import pytest

from tests import factories
from tests.browser.admin_forms import pick
from website.models import Course, MenuItem

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_lab_admin_adds_a_course_with_two_teachers_in_their_roles(
    lab_admin_page, browser, live_server
):
    factories.PersonFactory(name="Teng Ma", slug="teng-ma")
    factories.PersonFactory(name="Feng Ren", slug="feng-ren")
    factories.PersonFactory(name="Someone Else", slug="someone-else")
    MenuItem.objects.create(section="teaching", position=60)

    page = lab_admin_page
    page.goto(live_server.url + "/admin/website/course/add/")
    page.fill("#id_title_en", "Systems for Large Language Models")
    page.fill("#id_title_zh_hans", "大模型系统")
    assert page.input_value("#id_slug") == "systems-for-large-language-models"
    page.fill("#id_code", "CS 598")
    page.fill("#id_term_en", "Spring 2025")
    page.fill("#id_term_zh_hans", "2025年春季")
    page.fill("#id_start", "2025-02")
    page.fill("#id_institution_en", "Tsinghua University")
    page.fill("#id_institution_zh_hans", "清华大学")
    page.fill("#id_syllabus_url", "https://example.org/llm-systems/syllabus/")
    pick(page, "id_teachers-0-person", "Feng Ren")
    page.select_option("#id_teachers-0-role", "assistant")
    page.locator(".add-row a").click()
    pick(page, "id_teachers-1-person", "Teng Ma")
    page.select_option("#id_teachers-1-role", "guest")
    page.fill("#id_teachers-1-position", "2")
    page.check("#id_is_published")
    page.click("input[name=_save]")
    page.wait_for_load_state()
    assert not page.locator(".errornote").count()
    course = Course.objects.get()
    teachers = [(t.person.slug, t.role) for t in course.teachers.all()]
    assert teachers == [("feng-ren", "assistant"), ("teng-ma", "guest")]

    visitor = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    visitor.goto(live_server.url + "/zh-hans/")
    in_menu = visitor.locator("nav a", has_text="教学")
    assert in_menu.get_attribute("href") == "/zh-hans/teaching/"
    visitor.goto(live_server.url + "/zh-hans/teaching/")
    assert visitor.locator(".year-heading").all_inner_texts() == ["2025"]
    visitor.locator(".courses a", has_text="大模型系统").click()
    visitor.wait_for_load_state()
    assert visitor.locator("h1").inner_text() == "大模型系统"
    assert visitor.locator(".course-teachers li").all_inner_texts() == [
        "Feng Ren 助教",
        "Teng Ma 客座讲者",
    ]
    assert visitor.locator(".pub__links a", has_text="教学大纲").get_attribute("href") == (
        "https://example.org/llm-systems/syllabus/"
    )
    visitor.locator(".course-teachers a", has_text="Teng Ma").click()
    visitor.wait_for_load_state()
    assert visitor.url == live_server.url + "/zh-hans/people/teng-ma/"
    assert visitor.locator("#teaching .course__title").inner_text() == "CS 598 大模型系统 客座讲者"
    visitor.context.close()
