"""A visitor cannot deny a member's CV PDF nor fill the disk with variants: 30 requests
with different `since` years filled the queue, the member's own PDF was then not queued
(its "queued" mark was set before the limit refused it, and held for ten minutes), every
variant was kept (about 300 KB each, 144,000 possible per member), and each 503 laid out
the whole CV to name its PDF."""

import re
from urllib.parse import parse_qs

import pytest
from django.core.cache import cache
from django.core.files.storage import default_storage
from django.core.management import call_command
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from labsite.pages import cv
from tests import factories

YEARS = (2019, 2021, 2024)  # the years the member's papers are dated in


@pytest.fixture
def member(person):
    for year in YEARS:
        factories.authored(person, ["T Ma"], at=1, date=str(year), title=f"Memory in {year}")
    if default_storage.exists("cv/teng-ma"):  # left by other tests
        for left in default_storage.listdir("cv/teng-ma")[1]:
            default_storage.delete(f"cv/teng-ma/{left}")
    cache.clear()
    return person


class _Recorded(list):
    """Stands for the task queue: keeps what requests queue (the worker never runs)."""

    task = cv.build_pdf
    module_path = task.module_path

    def using(self, **kwargs):
        return self

    def enqueue(self, **kwargs):
        self.append(kwargs)

    def run(self):
        """The worker's part: make what was queued."""
        while self:
            self.task.call(**self.pop(0))


@pytest.fixture
def queued(monkeypatch):
    recorded = _Recorded()
    monkeypatch.setattr(cv, "build_pdf", recorded)
    return recorded


def _varied(n):
    """n CV PDF addresses a visitor may send: either language, any year, any options, any
    parameter (but none without options)."""
    for i in range(n):
        prefix = "/zh-hans" if i % 2 else ""
        options = ["selected=1"] if i % 3 == 0 else []
        options += [f"since={1990 + (i * 7) % 45}"] if i % 5 else []
        options += ["citations=1"] if i % 4 == 1 else []
        options += ["authors=short"] if i % 7 >= 4 else []
        options += [f"junk={i}"] if i % 11 == 0 else []
        options = options or ["authors=short"]  # the member's own PDF is asked apart
        yield f"{prefix}/people/teng-ma/cv.pdf?" + "&".join(options)


def _asked(result, name):
    """What a queued PDF task was asked to make: its `query` or `language`."""
    return result.args_kwargs["kwargs"][name]


def _defaults_first(made):
    """How many of the PDFs the worker made before both default ones were made."""
    defaults = [at for at, result in enumerate(made) if _asked(result, "query") == ""]
    return max(defaults) + 1 - len(defaults)


@pytest.mark.django_db(transaction=True)
def test_a_hundred_pdf_requests_keep_a_few_variants_and_the_members_pdf_goes_first(
    client, member, settings, monkeypatch
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}  # the real one
    monkeypatch.setattr(cv, "PDF_QUEUE_LIMIT", 4)  # a full queue sooner (20 in production)
    flood = list(_varied(98))
    queued = DBTaskResult.objects.filter(task_path=cv.build_pdf.module_path)

    answers = [client.get(url) for url in flood[:80]]
    assert queued.count() == cv.PDF_QUEUE_LIMIT  # full: no other variant is queued
    own = ["/people/teng-ma/cv.pdf", "/zh-hans/people/teng-ma/cv.pdf"]
    answers += [client.get(url) for url in own + flood[80:]]

    assert len(answers) == 100 and {a.status_code for a in answers} == {301, 503}
    moved = [a["Location"] for a in answers if a.status_code == 301]
    assert len(moved) > 50  # every year but the member's own, and the junk
    followed = [client.get(url, follow=True) for url in set(moved)]
    assert {a.status_code for a in followed} == {503}  # a PDF (queued or refused), at most
    assert max(len(a.redirect_chain) for a in followed) <= 1  # one move away
    # the limit held against the flood, and the member's own PDFs were queued beyond it
    assert queued.count() == cv.PDF_QUEUE_LIMIT + 2
    assert sorted(_asked(r, "language") for r in queued if _asked(r, "query") == "") == [
        "en",
        "zh-hans",
    ]

    years = {parse_qs(_asked(r, "query")).get("since", ["-"])[0] for r in queued}
    assert years <= {"-", *map(str, YEARS)}  # only years the CV page offers are made

    call_command("task_worker", batch=True, startup_delay=False, verbosity=0)

    made = list(queued.order_by("finished_at"))
    assert {r.status for r in made} == {TaskResultStatus.SUCCESSFUL}
    assert _defaults_first(made) == 0  # asked after the flood, made before all of it
    kept = default_storage.listdir("cv/teng-ma")[1]
    assert len(kept) <= cv.PDF_VARIANTS_KEPT + 2  # the two default ones, and a few others
    for prefix in ["", "/zh-hans"]:
        own = client.get(f"{prefix}/people/teng-ma/cv.pdf")
        assert own.status_code == 200 and own.content.startswith(b"%PDF-")


def test_the_pdf_being_made_is_a_page_in_the_visitors_language_that_links_the_cv(
    client, member, queued
):

    english = client.get("/people/teng-ma/cv.pdf")
    chinese = client.get("/zh-hans/people/teng-ma/cv.pdf")

    assert [english.status_code, chinese.status_code] == [503, 503]
    assert english["Retry-After"] == chinese["Retry-After"] == "10"
    assert english["Content-Type"] == "text/html; charset=utf-8"
    page = english.content.decode()
    assert '<html lang="en">' in page and "PDF is being made; ask again" in page
    assert '<a href="http://testserver/people/teng-ma/cv/">' in page
    page = chinese.content.decode()
    assert '<html lang="zh-Hans">' in page and "这份简历的 PDF 正在生成" in page
    assert '<a href="http://testserver/zh-hans/people/teng-ma/cv/">' in page
    assert [q["language"] for q in queued] == ["en", "zh-hans"]


def test_the_pdf_being_made_is_answered_without_rendering_the_cv(
    client, member, queued, monkeypatch, django_assert_max_num_queries, site_rows
):
    def fail(*args, **kwargs):
        raise AssertionError("the CV was rendered to answer a PDF not yet made")

    monkeypatch.setattr(cv, "cv_context", fail)
    monkeypatch.setattr(cv, "_pdf_page", fail)

    # the version (the page cache, then the name), the member, their years, the queue
    with django_assert_max_num_queries(5):
        response = client.get("/people/teng-ma/cv.pdf?selected=1&since=2021")

    assert response.status_code == 503


def test_a_year_the_cv_does_not_offer_is_sent_to_the_one_listing_the_same_papers(
    client, member, queued
):
    pdf = "/people/teng-ma/cv.pdf"

    moved = {
        query: client.get(f"{pdf}?{query}")
        for query in [
            "since=2020",  # no paper in 2020: the papers since 2021
            "since=1990",  # before the first: since the first
            "since=2030",  # after the last: the nearest, the last
            "selected=1&since=2022&authors=short",
            "authors=short&selected=1&since=2024",  # the same, spelt otherwise
        ]
    }

    assert {a.status_code for a in moved.values()} == {301}
    assert {query: a["Location"] for query, a in moved.items()} == {
        "since=2020": f"{pdf}?since=2021",
        "since=1990": f"{pdf}?since=2019",
        "since=2030": f"{pdf}?since=2024",
        "selected=1&since=2022&authors=short": f"{pdf}?selected=1&since=2024&authors=short",
        "authors=short&selected=1&since=2024": f"{pdf}?selected=1&since=2024&authors=short",
    }
    assert queued == []  # none is made
    chinese = client.get("/zh-hans/people/teng-ma/cv.pdf?since=2020")
    assert chinese.status_code == 301
    assert chinese["Location"] == "/zh-hans/people/teng-ma/cv.pdf?since=2021"
    assert client.get("/people/teng-ma/cv/?since=2020")["Location"] == (
        "/people/teng-ma/cv/?since=2021"
    )


def test_an_editor_asking_a_year_the_cv_does_not_offer_is_sent_on_too(client, member, queued):
    client.force_login(factories.UserFactory())  # past the page cache's own redirects

    response = client.get("/people/teng-ma/cv.pdf?since=2020&selected=yes")

    assert response.status_code == 301
    assert response["Location"] == "/people/teng-ma/cv.pdf?since=2021"
    assert queued == []


def test_a_member_without_dated_papers_has_one_pdf_whatever_the_year(client, person, queued):

    response = client.get("/people/teng-ma/cv.pdf?since=2020&citations=1")

    assert response["Location"] == "/people/teng-ma/cv.pdf?citations=1"


def test_the_cv_page_offers_the_members_years_and_links_pdfs_that_are_made(client, member, queued):

    page = client.get("/people/teng-ma/cv/?since=2021&citations=1").content.decode()

    assert re.findall(r'<option value="(\d*)"', page) == ["", "2024", "2021", "2019"]
    assert '<option value="2021" selected>' in page
    link = "/people/teng-ma/cv.pdf?since=2021&amp;citations=1"
    assert f'href="{link}"' in page
    waiting = client.get(link.replace("&amp;", "&"))
    assert waiting.status_code == 503 and len(queued) == 1
    cv_page = "http://testserver/people/teng-ma/cv/?since=2021&amp;citations=1"
    assert f'<a href="{cv_page}">' in waiting.content.decode()  # what the PDF will say


def test_while_the_pdf_of_a_change_is_made_the_page_links_the_one_made_before(
    client, member, queued
):
    for prefix in ["", "/zh-hans"]:
        client.get(f"{prefix}/people/teng-ma/cv.pdf")
    queued.run()
    made = {prefix: client.get(f"{prefix}/people/teng-ma/cv.pdf") for prefix in ["", "/zh-hans"]}
    assert {a.status_code for a in made.values()} == {200}
    before = set(default_storage.listdir("cv/teng-ma")[1])

    paper = member.authorships.first().publication
    paper.title = "Memory, revised"
    paper.save()

    for prefix in ["", "/zh-hans"]:
        waiting = client.get(f"{prefix}/people/teng-ma/cv.pdf")
        assert waiting.status_code == 503
        page = waiting.content.decode()
        assert f'<a href="http://testserver{prefix}/people/teng-ma/cv/">' in page
        linked = [name for name in before if default_storage.url(f"cv/teng-ma/{name}") in page]
        assert len(linked) == 1  # the PDF of the same language, made before the change
    assert len(queued) == 2
