"""The lab's teaching: every course by year, a page each, and each course on its teachers'
profiles and CVs with their role, in both languages; drafts nowhere."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from core.partial_dates import PartialDate
from tests import factories
from tests.admin_forms import form_data
from tests.sitemaps import whole_sitemap
from website.models import Course, CourseTeacher, MenuItem

pytestmark = pytest.mark.django_db


@pytest.fixture
def taught(person):
    """A course in both languages: `person` its teaching assistant, Feng Ren its guest
    lecturer, and an instructor from outside the lab by name."""
    course = factories.CourseFactory(
        slug="llm-systems-2025",
        title="Systems for Large Language Models",
        title_zh_hans="大模型系统",
        code="CS 598",
        term="Spring 2025",
        term_zh_hans="2025年春季",
        start=PartialDate.parse("2025-02"),
        institution="Tsinghua University",
        institution_zh_hans="清华大学",
        description="## Topics\n\nThe **KVCache**.<script>alert(1)</script>",
        description_zh_hans="## 内容\n\n**KVCache**。",
        page_url="https://example.org/llm-systems/",
        syllabus_url="https://example.org/llm-systems/syllabus.pdf",
    )
    factories.CourseTeacherFactory(
        course=course, person=None, name="Prof. Outside Lab", role="instructor", position=1
    )
    factories.CourseTeacherFactory(course=course, person=person, role="assistant", position=2)
    factories.CourseTeacherFactory(
        course=course,
        person__name="Feng Ren",
        person__slug="feng-ren",
        role="guest",
        position=3,
    )
    return course


def test_a_course_shows_its_code_term_teachers_links_and_description_in_each_language(
    client, taught, person
):
    english = client.get("/teaching/llm-systems-2025/").content.decode()
    chinese = client.get("/zh-hans/teaching/llm-systems-2025/").content.decode()

    assert "<h1>Systems for Large Language Models</h1>" in english
    assert "Teaching · <span>Spring 2025</span> · CS 598" in english
    assert "Tsinghua University" in english
    assert '<a href="https://example.org/llm-systems/">Course page</a>' in english
    assert '<a href="https://example.org/llm-systems/syllabus.pdf">Syllabus</a>' in english
    teachers = re.search(r'<ul class="course-teachers">(.*?)</ul>', english, re.S)[1]
    assert re.findall(r'<span class="badge badge--kind">(.*?)</span>', teachers) == [
        "Instructor",
        "Teaching assistant",
        "Guest lecturer",
    ]
    assert "Prof. Outside Lab" in teachers
    assert f'<a href="/people/{person.slug}/">{person.name}</a>' in teachers
    assert '<a href="/people/feng-ren/">Feng Ren</a>' in teachers
    assert '<h2 id="topics">Topics</h2>' in english and "<strong>KVCache</strong>" in english
    assert "<script>alert" not in english
    assert "<h1>大模型系统</h1>" in chinese
    assert "<span>2025年春季</span>" in chinese and "清华大学" in chinese
    assert '<h2 id="内容">内容</h2>' in chinese
    assert "助教" in chinese
    assert '<a href="/zh-hans/people/feng-ren/">Feng Ren</a>' in chinese


def test_the_list_groups_published_courses_by_year_newest_first(client, taught):
    factories.CourseFactory(title="Distributed Storage Systems", start=PartialDate.parse("2024-09"))
    factories.CourseFactory(title="Operating Systems", start=PartialDate.parse("2024-02"))
    factories.CourseFactory(title="A course of long ago")
    factories.CourseFactory(title="A course still being planned", is_published=False)

    english = client.get("/teaching/").content.decode()
    chinese = client.get("/zh-hans/teaching/").content.decode()

    headings = re.findall(r'<h2 id="year-\w+" class="year-heading">(.*?)</h2>', english)
    assert headings == ["2025", "2024", "Year not stated"]
    order = ["Systems for Large", "Distributed Storage", "Operating Systems", "of long ago"]
    assert [english.index(title) for title in order] == sorted(english.index(t) for t in order)
    assert "still being planned" not in english
    assert '<span class="course__code">CS 598</span>' in english
    assert "Prof. Outside Lab (Instructor)" in english
    assert '<a href="/people/feng-ren/">Feng Ren</a> (Guest lecturer)' in english
    assert '<a href="/zh-hans/teaching/llm-systems-2025/">大模型系统</a>' in chinese


def test_a_draft_course_is_found_nowhere(client, person):
    draft = factories.CourseFactory(slug="secret", title="A secret course", is_published=False)
    factories.CourseTeacherFactory(course=draft, person=person)

    assert client.get("/teaching/secret/").status_code == 404
    assert "/teaching/" not in whole_sitemap(client)
    assert "A secret course" not in client.get(f"/people/{person.slug}/").content.decode()
    assert "A secret course" not in client.get(f"/people/{person.slug}/cv/").content.decode()


def test_a_teachers_profile_lists_their_courses_with_their_role(client, taught, person):
    english = client.get(f"/people/{person.slug}/").content.decode()
    chinese = client.get(f"/zh-hans/people/{person.slug}/").content.decode()
    other = client.get("/people/feng-ren/").content.decode()

    section = re.search(r'<section[^>]*id="teaching".*?</section>', english, re.S)[0]
    assert "<h2" in section and ">Teaching</h2>" in section
    assert '<a href="/teaching/llm-systems-2025/">Systems for Large Language Models</a>' in section
    assert '<span class="badge badge--kind">Teaching assistant</span>' in section
    assert "Guest lecturer" not in section  # another teacher's role is not theirs
    assert "<span>Spring 2025</span>" in section
    assert '<a href="/zh-hans/teaching/llm-systems-2025/">大模型系统</a>' in chinese
    assert '<span class="badge badge--kind">助教</span>' in chinese
    assert '<span class="badge badge--kind">Guest lecturer</span>' in other


def test_the_cv_lists_teaching_after_talks_unless_the_member_puts_it_first(client, taught, person):
    factories.SpeakerFactory(person=person, talk__title="Mooncake in production")

    def headings():
        html = client.get(f"/people/{person.slug}/cv/").content.decode()
        return [h.strip() for h in re.findall(r'<h2 id="cv-[a-z]+">(.*?)</h2>', html)]

    assert headings()[-2:] == ["Talks &amp; Presentations", "Teaching"]
    html = client.get(f"/people/{person.slug}/cv/").content.decode()
    assert '<span class="badge badge--kind">Teaching assistant</span>' in html
    chinese = client.get(f"/zh-hans/people/{person.slug}/cv/").content.decode()
    assert "大模型系统" in chinese and "助教" in chinese

    person.cv_sections = "teaching"
    person.full_clean()
    person.save()
    assert headings()[0] == "Teaching"


def test_a_courses_links_are_web_addresses_only(client, person):
    course = Course(title_en="Unsafe", syllabus_url="javascript:alert(1)")

    with pytest.raises(ValidationError) as refused:
        course.full_clean()

    assert "syllabus_url" in refused.value.message_dict
    # a row that slipped past the rules (a raw write) still gives no live link
    factories.CourseFactory(slug="old", materials_url="https://example.org/ok/")
    Course.objects.filter(slug="old").update(page_url="javascript:alert(1)")
    html = client.get("/teaching/old/").content.decode()
    assert "javascript:" not in html
    assert '<a href="https://example.org/ok/">Materials</a>' in html


def test_a_teacher_is_a_member_or_someone_named():
    course = factories.CourseFactory()

    with pytest.raises(ValidationError):
        CourseTeacher(course=course, role="instructor").full_clean()
    CourseTeacher(course=course, name="Prof. Outside Lab", role="instructor").full_clean()


def test_a_courses_address_comes_from_its_title_and_year():
    course = Course(title_en="Operating Systems", start=PartialDate.parse("2024-09"))
    course.full_clean()
    course.save()

    assert course.get_absolute_url() == "/teaching/operating-systems-2024/"


def test_courses_join_the_menu_once_placed_and_the_sitemap(client, taught):
    assert 'href="/teaching/"' not in client.get("/").content.decode()

    MenuItem.objects.create(section="teaching", position=5)

    assert '<a href="/teaching/">Teaching</a>' in client.get("/").content.decode()
    assert '<a href="/zh-hans/teaching/">' in client.get("/zh-hans/").content.decode()
    sitemap = whole_sitemap(client)
    assert "<loc>http://testserver/teaching/</loc>" in sitemap
    assert "<loc>http://testserver/zh-hans/teaching/llm-systems-2025/</loc>" in sitemap


def test_on_a_personal_site_only_its_owners_courses_show(client, taught, settings):
    factories.CourseFactory(title="Someone else's course", slug="not-ours")
    settings.PERSONAL_SITE = "feng-ren"

    html = client.get("/teaching/").content.decode()

    assert "Systems for Large Language Models" in html
    assert "Someone else's course" not in html


def test_the_teaching_pages_query_counts_do_not_grow_with_courses_and_teachers(
    client, django_assert_max_num_queries, person, settings, site_rows
):
    settings.PAGE_CACHE = False  # what building the page costs, visit after visit
    for number in range(8):
        course = factories.CourseFactory(
            slug=f"course-{number}", start=PartialDate.parse(f"20{10 + number}")
        )
        factories.CourseTeacherFactory(course=course, person=person)
        for _ in range(3):
            factories.CourseTeacherFactory(course=course)
        factories.CourseTeacherFactory(course=course, person=None, name="Outside Teacher")

    # lab settings, the menu, the courses, their teachers, their tags
    with django_assert_max_num_queries(5):
        assert client.get("/teaching/").status_code == 200
    # lab settings, the menu, the course, its teachers, its tags
    with django_assert_max_num_queries(5):
        assert client.get("/teaching/course-3-2013/").status_code == 200
    profile = _queries(client, f"/people/{person.slug}/")
    cv = _queries(client, f"/people/{person.slug}/cv/")
    factories.CourseTeacherFactory(course__slug="one-more", person=person)
    # the courses and their teachers: two queries, however many
    assert _queries(client, f"/people/{person.slug}/") == profile
    assert _queries(client, f"/people/{person.slug}/cv/") == cv


def _queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_two_runs_of_one_course_in_different_years_each_get_an_address_with_its_year(
    admin_client, client
):
    for term, start in [("Fall 2024", "2024-09"), ("Fall 2025", "2025-09")]:
        add = admin_client.get("/admin/website/course/add/")
        response = admin_client.post(
            "/admin/website/course/add/",
            form_data(
                add,
                title="Operating Systems",
                slug="operating-systems",  # as the admin fills it in from the title
                term=term,
                start=start,
                is_published="on",
            ),
        )
        assert response.status_code == 302, response.content.decode()[:2000]

    assert sorted(Course.objects.values_list("slug", flat=True)) == [
        "operating-systems-2024",
        "operating-systems-2025",
    ]
    assert "Fall 2024" in client.get("/teaching/operating-systems-2024/").content.decode()
    assert "Fall 2025" in client.get("/teaching/operating-systems-2025/").content.decode()


def test_a_course_without_a_slug_takes_its_title_and_term():
    course = factories.CourseFactory(
        slug="", title="Operating Systems", term="Spring 2026", start=PartialDate.parse("2026-02")
    )
    yearless = factories.CourseFactory(slug="", title="Reading group")

    assert course.slug == "operating-systems-spring-2026"
    assert yearless.slug == "reading-group"


def test_a_slug_given_another_year_takes_the_courses_own():
    course = factories.CourseFactory(slug="databases-2023", start=PartialDate.parse("2024-09"))

    assert course.slug == "databases-2024"


def _migrate(targets):
    MigrationExecutor(connection).migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_a_course_from_before_gets_its_year_and_its_old_address_redirects(client):
    before = [("website", "0007_openings_close_early_and_their_own_place")]
    after = [("website", "0008_course_addresses_carry_their_year")]
    old = _migrate(before).get_model("website", "Course")
    old.objects.create(title_en="Databases", slug="databases", start="2024-09", is_published=True)
    old.objects.create(title_en="Reading", slug="reading", is_published=True)
    old.objects.create(title_en="LLMs", slug="llm-systems-2025", start="2025", is_published=True)
    try:
        new = _migrate(after).get_model("website", "Course")
        assert sorted(new.objects.values_list("slug", flat=True)) == [
            "databases-2024",
            "llm-systems-2025",
            "reading",
        ]
        back = _migrate(before).get_model("website", "Course")
        assert back.objects.filter(slug="databases-2024").exists()
        _migrate(after)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    moved = client.get("/teaching/databases/")
    assert moved.status_code == 301
    assert moved["Location"] == "/teaching/databases-2024/"
    assert client.get("/zh-hans/teaching/databases/")["Location"] == (
        "/zh-hans/teaching/databases-2024/"
    )
    assert client.get("/teaching/reading/").status_code == 200
    assert client.get("/teaching/nothing/").status_code == 404
