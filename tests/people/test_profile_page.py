import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from people.models import SectionIntroduction
from tests import factories

pytestmark = pytest.mark.django_db

SECTION_FACTORIES = [
    factories.LinkFactory,
    factories.NewsItemFactory,
    factories.EducationFactory,
    factories.ExperienceFactory,
    factories.ServiceFactory,
    factories.ProjectFactory,
    factories.ContributionFactory,
    factories.WritingFactory,
    factories.ReportedFigureFactory,
    factories.ExtraSectionFactory,
]


def test_profile_shows_bilingual_name_with_native_part_marked_chinese(client, person):
    response = client.get("/people/teng-ma/")

    assert response.status_code == 200
    html = response.content.decode()
    assert (
        'Teng Ma <span class="name-sep" aria-hidden="true">/</span> <span lang="zh">马腾</span>'
        in html
    )
    assert html.count("<h1") == 1
    assert "<title>Teng Ma / 马腾 ·" in html


def test_profile_without_photo_shows_initials_avatar(client, person):
    response = client.get("/people/teng-ma/")

    assert b'class="avatar avatar--initials avatar--large" aria-hidden="true">TM</span>' in (
        response.content
    )
    assert b'<img class="avatar' not in response.content


def test_alumnus_profile_says_where_they_went(client):
    factories.PersonFactory(
        slug="old-student",
        name="Old Student",
        member_since="2015-09",
        member_until="2020-06",
        alumni_destination="Assistant Professor, Example University",
    )

    response = client.get("/people/old-student/")

    assert response.status_code == 200
    assert "Sep 2015 – Jun 2020" in response.content.decode()
    assert "went on to Assistant Professor, Example University" in response.content.decode()


def test_unpublished_person_has_no_page(client):
    factories.PersonFactory(slug="hidden", is_published=False)

    assert client.get("/people/hidden/").status_code == 404


def test_unknown_slug_is_404(client):
    assert client.get("/people/nobody/").status_code == 404


def test_sections_without_data_do_not_appear(client, person):
    factories.ExperienceFactory(person=person, title="Staff Engineer", organization="Alibaba")

    html = client.get("/people/teng-ma/").content.decode()

    assert 'id="experience-heading">Experience</h2>' in html
    assert "Staff Engineer" in html
    for absent in ("Education", "Academic Service", "Writing", "News", "Open Source & Projects"):
        assert f'-heading">{absent}</h2>' not in html


def test_experience_range_without_end_reads_present(client, person):
    factories.ExperienceFactory(person=person, start="2023-12", end=None)

    assert "Dec 2023 – Present" in client.get("/people/teng-ma/").content.decode()


def test_education_links_advisors_who_are_in_the_lab(client, person):
    advisor = factories.PersonFactory(name="Yongwei Wu", slug="yongwei-wu")
    education = factories.EducationFactory(person=person, advisor_names="Prof. Kang Chen")
    education.advisors.add(advisor)

    html = client.get("/people/teng-ma/").content.decode()

    assert '<a href="/people/yongwei-wu/">Yongwei Wu</a> & Prof. Kang Chen' in html


def test_hand_read_figures_show_source_and_date(client, person):
    factories.ReportedFigureFactory(person=person, label="Citations", value="680+")

    html = client.get("/people/teng-ma/").content.decode()

    assert "680+" in html
    assert "Google Scholar, read 1 Dec 2026" in html


def test_bio_markdown_is_rendered_and_sanitized(client, person):
    person.bio = (
        "I build **systems**.\n\n<script>alert('x')</script>\n\n"
        '<img src="x" onerror="alert(1)">\n\n[click](javascript:alert(1)) and [ok](https://ok.example)'
    )
    person.save()

    html = client.get("/people/teng-ma/").content.decode()

    assert "<strong>systems</strong>" in html
    assert "<script>alert" not in html
    assert "onerror" not in html
    assert "javascript:" not in html
    assert 'href="https://ok.example"' in html


def test_an_abbreviation_or_footnote_belongs_to_the_text_that_defines_it(client, person):
    """Texts on a page are converted one after another (core.markup reuses its converter):
    what the bio defines must not carry into a project's summary."""
    person.bio = "Works on KV caches.[^1]\n\n*[KV]: key-value\n\n[^1]: Since 2023."
    person.save()
    factories.ProjectFactory(person=person, name="Mooncake", summary="A KV cache store.")

    html = client.get("/people/teng-ma/").content.decode()

    bio, projects = html.split('id="projects"')
    assert '<abbr title="key-value">KV</abbr> caches' in bio
    assert "Since 2023" in bio
    assert "A KV cache store." in projects
    assert "<abbr" not in projects and "footnote" not in projects


def test_plain_fields_are_escaped(client):
    factories.PersonFactory(slug="x", name="<b>Mallory</b>", tagline="<script>alert(1)</script>")

    html = client.get("/people/x/").content.decode()

    assert "<b>Mallory</b>" not in html
    assert "&lt;b&gt;Mallory&lt;/b&gt;" in html
    assert "<script>alert(1)</script>" not in html


def _fill_every_section(person, count):
    for factory in SECTION_FACTORIES:
        factory.create_batch(count, person=person)
    for project in person.projects.all():
        factories.ProjectResultFactory.create_batch(count, project=project)
    for _ in range(count):
        paper = factories.authored(person, ["A Author", "B Author"], at=1)
        factories.AwardFactory(publication=paper, kind="best-paper")
        talk = factories.SpeakerFactory(person=person, talk__publication=paper).talk
        factories.RecipientFactory(person=person)
        for project in person.projects.all():
            paper.projects.add(project)
            talk.projects.add(project)
    for section in SectionIntroduction.Section.values[:count]:
        SectionIntroduction.objects.create(person=person, section=section, text="Selected.")


def _profile_queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_profile_query_count_is_pinned_and_independent_of_section_sizes(
    client, django_assert_max_num_queries, settings
):
    settings.PAGE_CACHE = False  # what building the page costs, visit after visit
    small = factories.PersonFactory(slug="small")
    large = factories.PersonFactory(slug="large")
    _fill_every_section(small, 1)
    _fill_every_section(large, 50)
    client.get("/people/small/")  # creates the lab settings row

    # The lab settings row is read once per request, so every worker sees an edit at once;
    # each kind of section is one query (section introductions included), a project's
    # results, papers and talks one each, and the papers four (with their venues and
    # featured images, their awards, their tags, their author rows: publications.listing).
    # A section without rows costs no query (test_profile_publications: 5 queries for a
    # profile of papers only), and the site's menu one.
    with django_assert_max_num_queries(26):
        client.get("/people/large/")
    assert _profile_queries(client, "/people/small/") == _profile_queries(client, "/people/large/")


def test_a_contribution_whose_status_is_not_stated_shows_no_status(client, person):
    factories.ContributionFactory(person=person, title="Add RDMA transport", date=None)
    factories.ContributionFactory(
        person=person, title="Fix the scheduler", status="merged", date=None
    )

    html = client.get("/people/teng-ma/").content.decode()
    section = html[html.index("Add RDMA transport") - 400 : html.index("Fix the scheduler") + 200]

    assert section.count('class="status') == 1 and "Merged" in section
    assert section.count('<span class="dated-list__date"></span>') == 2


def test_a_section_introduction_is_shown_above_its_items_and_only_with_them(client, person):
    factories.ContributionFactory(person=person, title="Add RDMA transport")
    intro = "Statuses checked on **2 Dec 2026**."
    for section in ("contributions", "writing"):  # no writing to introduce
        SectionIntroduction.objects.create(person=person, section=section, text=intro)

    html = client.get("/people/teng-ma/").content.decode()

    heading = html.index('id="contributions-heading"')
    assert (
        heading
        < html.index("Statuses checked on <strong>2 Dec 2026</strong>.")
        < (html.index("Add RDMA transport"))
    )
    assert html.count("Statuses checked on") == 1
    assert 'id="writing"' not in html
