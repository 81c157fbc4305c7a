"""Link fields a lab points at its own pages (a paper's project page, blog post and slides, a
talk's slides, a course's page, syllabus and materials, a member's project) take a site path
("/themes/kvcache/") besides an http(s) address: a Chinese page leads to the Chinese page,
and an export writes the path on the site's own address. Links that lead elsewhere (code,
video, a paper's DOI page) stay web addresses only."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import set_script_prefix

from core.weblinks import site_or_web_url
from people.models import Project
from publications.models import Publication
from talks.models import Talk
from tests import factories
from tests.admin_forms import form_data
from website.models import Course

pytestmark = pytest.mark.django_db

SITE_LINKS = [
    (Publication, "slides_url"),
    (Publication, "project_url"),
    (Publication, "blog_url"),
    (Talk, "slides_url"),
    (Course, "page_url"),
    (Course, "syllabus_url"),
    (Course, "materials_url"),
    (Project, "url"),
]


def _errors(model, name, value):
    row = model(**{name: value})
    try:
        row.clean_fields()
    except ValidationError as error:
        return error.message_dict.get(name, [])
    return []


@pytest.mark.parametrize(("model", "name"), SITE_LINKS)
@pytest.mark.parametrize("value", ["/join-us/", "/posts/kv/?lang=en#results", "https://x.org/a"])
def test_a_link_into_the_site_takes_a_site_path_or_a_web_address(model, name, value):
    assert _errors(model, name, value) == []


@pytest.mark.parametrize(("model", "name"), SITE_LINKS)
@pytest.mark.parametrize(
    "value",
    [
        "javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "ftp://x.org/a",
        "//elsewhere.example/join-us/",
        "/\\elsewhere.example/",
        "/join us/",
        "join-us/",
        "/" + "a" * 500,
    ],
)
def test_a_link_into_the_site_refuses_anything_else(model, name, value):
    assert _errors(model, name, value)


@pytest.mark.parametrize(
    ("model", "name"),
    [(Publication, "code_url"), (Publication, "video_url"), (Talk, "event_url")],
)
def test_links_that_lead_elsewhere_stay_web_addresses(model, name):
    assert _errors(model, name, "/join-us/") == [
        "Enter a web address starting with http:// or https://."
    ]


def test_the_paper_form_takes_site_paths_and_the_chinese_page_leads_to_chinese_pages(
    admin_client, client
):
    paper = factories.authored(None, ["A Author"], at=0, slug="kv-paper")
    url = f"/admin/publications/publication/{paper.pk}/change/"
    data = form_data(
        admin_client.get(url),
        project_url="/themes/kvcache/",
        blog_url="/posts/kv/",
        slides_url="https://slides.example.org/kv",
    )

    assert admin_client.post(url, data).status_code == 302

    english = client.get("/publications/kv-paper/").content.decode()
    chinese = client.get("/zh-hans/publications/kv-paper/").content.decode()
    assert '<a href="/themes/kvcache/">Project</a>' in english
    assert '<a href="/posts/kv/">Blog</a>' in english
    assert 'href="/zh-hans/themes/kvcache/"' in chinese
    assert 'href="/zh-hans/posts/kv/"' in chinese
    assert 'href="https://slides.example.org/kv"' in chinese
    assert 'href="/zh-hans/posts/kv/"' in client.get("/zh-hans/publications/").content.decode()


def test_a_talks_slides_on_the_site_lead_to_the_chinese_page(admin_client, client):
    talk = factories.TalkFactory(slug="kv-talk")
    url = f"/admin/talks/talk/{talk.pk}/change/"
    data = form_data(admin_client.get(url), slides_url="/posts/kv-slides/")

    assert admin_client.post(url, data).status_code == 302

    assert 'href="/posts/kv-slides/"' in client.get("/talks/kv-talk/").content.decode()
    chinese = client.get("/zh-hans/talks/kv-talk/").content.decode()
    assert 'href="/zh-hans/posts/kv-slides/"' in chinese


def test_a_courses_pages_on_the_site_lead_to_the_chinese_pages(admin_client, client):
    course = factories.CourseFactory(slug="os-2025")
    url = f"/admin/website/course/{course.pk}/change/"
    data = form_data(
        admin_client.get(url),
        page_url="/operating-systems/",
        syllabus_url="/operating-systems/syllabus/",
        materials_url="https://github.com/lab/os",
    )

    assert admin_client.post(url, data).status_code == 302

    course.refresh_from_db()
    chinese = client.get(f"/zh-hans/teaching/{course.slug}/").content.decode()
    assert 'href="/zh-hans/operating-systems/"' in chinese
    assert 'href="/zh-hans/operating-systems/syllabus/"' in chinese
    assert 'href="https://github.com/lab/os"' in chinese


def test_a_members_project_on_the_site_leads_to_the_chinese_page(client):
    person = factories.PersonFactory(slug="teng-ma")
    factories.ProjectFactory(person=person, name_en="KV cache", url="/themes/kvcache/")

    chinese = client.get("/zh-hans/people/teng-ma/").content.decode()

    assert 'href="/zh-hans/themes/kvcache/"' in chinese


def test_the_bibtex_export_writes_a_site_path_on_the_sites_own_address(client, settings):
    settings.SITE_URL = "https://lab.example.org"
    factories.authored(
        None,
        ["A Author"],
        at=0,
        slug="kv-paper",
        project_url="/themes/kvcache/",
        blog_url="/posts/kv/",
        slides_url="https://slides.example.org/kv",
    )

    for url in ("/publications/kv-paper/export.bib", "/publications/export.bib"):
        text = client.get(url).content.decode()
        assert "website = {https://lab.example.org/themes/kvcache/}" in text
        assert "blog = {https://lab.example.org/posts/kv/}" in text
        assert "slides = {https://slides.example.org/kv}" in text
        assert "{/" not in text  # no bare path


def test_a_site_path_stays_under_the_sites_mount_point():
    """A static copy at https://example.org/lab/ renders its pages under /lab/."""
    set_script_prefix("/lab/")
    try:
        assert site_or_web_url("/posts/kv/", "zh-hans") == "/lab/zh-hans/posts/kv/"
        assert site_or_web_url("/posts/kv/", "en") == "/lab/posts/kv/"
        assert site_or_web_url("/media/slides.pdf", "zh-hans") == "/lab/media/slides.pdf"
    finally:
        set_script_prefix("/")
