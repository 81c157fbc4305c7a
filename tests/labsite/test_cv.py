"""A member's CV, in HTML and as a PDF read back with poppler's pdftotext and pdfinfo."""

import html
import os
import re
import shutil
import subprocess

import pytest
from PIL import Image

from people.models import Person, SectionIntroduction
from publications.models import Publication
from tests import factories

pytestmark = pytest.mark.django_db
POPPLER = all(shutil.which(tool) for tool in ("pdftotext", "pdfinfo", "pdffonts"))


@pytest.fixture
def poppler():
    if not POPPLER:
        if os.environ.get("REQUIRE_PDF"):
            pytest.fail("REQUIRE_PDF is set but poppler-utils is not installed")
        pytest.skip("poppler-utils is not installed (make test installs it)")


def _text(response, tmp_path, name="cv.pdf"):
    """What a reader copies out of the PDF, its lines joined (titles wrap)."""
    path = tmp_path / name
    path.write_bytes(response.content)
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, check=True).stdout
    return " ".join(text.decode().split())


def _info(response, tmp_path):
    path = tmp_path / "info.pdf"
    path.write_bytes(response.content)
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, check=True).stdout.decode()
    return dict(re.findall(r"^(\w[\w ]*?):\s+(.*)$", out, re.M))


def _papers(person):
    return list(
        Publication.objects.published()
        .for_person(person)
        .exclude(kind=Publication.Kind.PATENT)
        .prefetch_related("authorships")
    )


def _plain(text):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def test_the_fullest_members_cv_lists_every_paper_and_every_author_in_order(client, demo):
    person = Person.objects.get(slug="teng-ma")
    page = client.get("/people/teng-ma/cv/").content.decode()
    plain = _plain(page)

    for paper in _papers(person):
        assert html.escape(paper.title, quote=False) in page, paper.title
        names = [a.short_name for a in paper.authorships.all() if not a.is_unlisted]
        assert re.search(r"\s.*?".join(re.escape(n) for n in names), plain), paper.title
    sections = SectionIntroduction.Section
    for heading in ("EDUCATION", "EXPERIENCE", "PUBLICATIONS", "TALKS", "AWARDS"):
        assert f">{html.escape(str(sections[heading].label))}</h2>" in page, heading
    assert "Equal contribution" in plain and "Corresponding author" in plain  # the legend
    assert '<strong class="author-self">T Ma</strong><sup class="marker"' in page  # marked
    assert 'href="/people/teng-ma/cv.pdf"' in page
    assert 'href="/people/teng-ma/cv/"' in client.get("/people/teng-ma/").content.decode()


def test_the_pdf_is_real_text_with_its_title_author_and_page_numbers(
    client, demo, poppler, tmp_path
):
    person = Person.objects.get(slug="teng-ma")
    response = client.get("/people/teng-ma/cv.pdf")

    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = _text(response, tmp_path)
    for paper in _papers(person):
        assert " ".join(paper.title.split()) in text, paper.title
    info = _info(response, tmp_path)
    assert info["Title"] == "Teng Ma / 马腾 · Curriculum vitae"
    assert info["Author"] == "Teng Ma"
    pages = int(info["Pages"])
    assert pages > 1
    assert re.search(rf"\b1 ?/ ?{pages}\b", text) and re.search(rf"\b{pages} ?/ ?{pages}\b", text)


def test_the_chinese_cv_is_in_chinese_with_the_name_as_text(client, demo, poppler, tmp_path):
    response = client.get("/zh-hans/people/teng-ma/cv.pdf")

    text = _text(response, tmp_path)
    assert "马腾" in text
    assert "教育经历" in text or "教育" in text  # the section headings in Chinese
    assert _info(response, tmp_path)["Title"].startswith("Teng Ma / 马腾")


def test_the_options_choose_what_the_cv_lists(client, demo):
    person = Person.objects.get(slug="teng-ma")
    for paper in _papers(person)[:3]:
        paper.is_selected = True
        paper.save()
    papers = _papers(person)
    selected = [p for p in papers if p.is_selected]
    recent = [p for p in papers if p.year and p.year >= 2025]
    assert 0 < len(selected) < len(papers) and 0 < len(recent) < len(papers)

    only_selected = client.get("/people/teng-ma/cv/?selected=1").content.decode()
    since = client.get("/people/teng-ma/cv/?since=2025").content.decode()
    cited = client.get("/people/teng-ma/cv/?citations=1").content.decode()
    short = client.get("/people/teng-ma/cv/?authors=short").content.decode()

    assert only_selected.count('<li class="pub') == len(selected)
    assert since.count('<li class="pub') == len(recent)
    counted = [p for p in papers if p.citation_count is not None]
    assert cited.count('class="cv-citations"') == len(counted) > 0
    full = client.get("/people/teng-ma/cv/").content.decode()
    assert short.count("…") > full.count("…")  # long lists shortened, Teng Ma kept
    assert 'href="/people/teng-ma/cv.pdf?selected=1"' in only_selected
    # An option the CV does not know is not a page of its own (the page cache's rule).
    assert client.get("/people/teng-ma/cv/?junk=1").status_code == 301


def test_making_a_pdf_does_not_weaken_the_photo_checks(client, admin_client):
    """WeasyPrint turns on Pillow's process-wide switch for cut-off images when imported;
    an upload after a CV's PDF is still checked whole."""
    from tests.labsite.test_photo_uploads import _encode, _upload_photo

    factories.PersonFactory(slug="feng-ren", name="Feng Ren")
    assert client.get("/people/feng-ren/cv.pdf").status_code == 200
    jpeg = _encode(Image.effect_noise((400, 400), 64).convert("RGB"), "JPEG")

    response, person = _upload_photo(admin_client, jpeg[: len(jpeg) // 2], "cut.jpg")

    assert response.status_code == 200 and not person.photo
    assert "damaged or incomplete" in response.content.decode()


def test_without_pango_the_pdf_says_so_and_the_page_still_works(client, monkeypatch, caplog):
    import builtins

    factories.PersonFactory(slug="feng-ren", name="Feng Ren")
    real_import = builtins.__import__

    def no_pango(name, *args, **kwargs):
        if name == "weasyprint":
            raise OSError("cannot load library 'libpango-1.0-0'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pango)
    response = client.get("/people/feng-ren/cv.pdf")
    monkeypatch.undo()

    assert response.status_code == 503 and response["Content-Type"].startswith("text/html")
    assert "The PDF cannot be made on this server" in response.content.decode()
    assert '<a href="http://testserver/people/feng-ren/cv/">' in response.content.decode()
    assert "needs Pango" in caplog.text
    assert client.get("/people/feng-ren/cv/").status_code == 200


def _layout_lines(response, tmp_path):
    """The PDF's text as pdftotext -layout reads it: one string per printed line, its
    columns kept apart by runs of spaces."""
    path = tmp_path / "layout.pdf"
    path.write_bytes(response.content)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True
    ).stdout
    return text.decode().splitlines()


def _cv_dates(page):
    """Every date the CV's page prints in its date column, as printed (a period, a talk's
    or an award's date), one per dated entry."""
    found = re.findall(r'class="(?:timeline__when|dated-list__date)">(.*?)</span>', page)
    return [_plain(date) for date in found if _plain(date)]  # an undated row: nothing to break


@pytest.mark.parametrize("prefix", ["", "/zh-hans"])
def test_every_cv_date_is_on_one_line_in_its_column_in_either_languages_pdf(
    client, demo, poppler, tmp_path, prefix
):
    """Every dated entry of every demo member's CV (education, experience, honors, talks,
    service) begins a line of the PDF with its whole date, the entry's text beside it:
    no "Sep 2016 – Jun / 2021", no "至 / 今", no date alone on a line above its entry."""
    members = [p.slug for p in Person.objects.published() if p.has_page]
    assert len(members) == 2
    checked = []
    for slug in members:
        dates = _cv_dates(client.get(f"{prefix}/people/{slug}/cv/").content.decode())
        lines = _layout_lines(client.get(f"{prefix}/people/{slug}/cv.pdf"), tmp_path)
        for date in set(dates):
            beside = re.compile(rf"^\s*{re.escape(date)}\s+\S")
            printed = [line for line in lines if beside.match(line.replace("\xa0", " "))]
            assert len(printed) >= dates.count(date), (slug, date)
        checked += dates
    assert len(checked) >= 30 and any("–" in date for date in checked)


def test_cv_headings_over_each_kind_are_plural_with_their_counts(client, demo):
    person = Person.objects.get(slug="teng-ma")
    conference = len([p for p in _papers(person) if p.kind == Publication.Kind.CONFERENCE])

    page = client.get("/people/teng-ma/cv/").content.decode()
    chinese = client.get("/zh-hans/people/teng-ma/cv/").content.decode()

    assert conference > 1 and f"<h3>Conference papers ({conference})</h3>" in page
    assert "<h3>Conference paper (" not in page
    assert f"<h3>会议论文 ({conference})</h3>" in chinese


def test_every_paper_with_a_doi_links_it_in_the_cv_and_its_pdf(client, demo, poppler, tmp_path):
    person = Person.objects.get(slug="teng-ma")
    dois = {p.doi for p in _papers(person) if p.doi}

    page = client.get("/people/teng-ma/cv/").content.decode()
    path = tmp_path / "cv.pdf"
    path.write_bytes(client.get("/people/teng-ma/cv.pdf").content)
    urls = subprocess.run(["pdfinfo", "-url", str(path)], capture_output=True, check=True)

    assert dois
    for doi in dois:
        assert f'<a href="https://doi.org/{html.escape(doi)}">doi:{html.escape(doi)}</a>' in page
        assert f"https://doi.org/{doi}" in urls.stdout.decode(), doi


@pytest.mark.parametrize("prefix", ["", "/zh-hans"])
def test_the_cv_pdf_is_tagged_for_screen_readers_in_both_languages(
    client, demo, poppler, tmp_path, prefix
):
    info = _info(client.get(f"{prefix}/people/teng-ma/cv.pdf"), tmp_path)

    assert info["Tagged"] == "yes"
    assert info["Author"] == "Teng Ma"


@pytest.mark.parametrize("prefix", ["", "/zh-hans"])
def test_the_cv_pdf_is_set_in_embedded_noto_fonts_alone_in_both_languages(
    client, demo, poppler, tmp_path, prefix
):
    """The fonts `make system` installs (fonts-noto-core, fonts-noto-cjk), embedded: no
    fallback to another family (the English PDF was set in DejaVu Serif)."""
    path = tmp_path / "fonts.pdf"
    path.write_bytes(client.get(f"{prefix}/people/teng-ma/cv.pdf").content)
    listed = subprocess.run(["pdffonts", str(path)], capture_output=True, check=True)
    rows = [line.split() for line in listed.stdout.decode().splitlines()[2:]]

    fonts = {row[0].split("+", 1)[-1]: row[-5] for row in rows}  # name: embedded
    assert "Noto-Serif" in fonts and "Noto-Serif-CJK-SC" in fonts  # Latin and Chinese
    assert all(name.startswith("Noto-") for name in fonts), fonts
    assert set(fonts.values()) == {"yes"}, fonts


class _Queue:
    """Stands for the task queue: keeps what a request queues, for the test to run as the
    worker would, later."""

    def __init__(self, task):
        self.task, self.module_path, self.waiting = task, task.module_path, []

    def using(self, **kwargs):  # a member's own PDF goes first (a priority): one queue here
        return self

    def enqueue(self, **kwargs):
        self.waiting.append(kwargs)

    def run(self):
        while self.waiting:
            self.task.call(**self.waiting.pop(0))


def test_a_pdf_request_lays_out_nothing_and_the_worker_makes_the_pdf_of_the_change(
    client, person, monkeypatch
):
    import weasyprint
    from django.core.cache import cache
    from django.core.files.storage import default_storage

    from labsite.pages import cv

    layouts = []
    write_pdf = weasyprint.HTML.write_pdf
    monkeypatch.setattr(
        weasyprint.HTML, "write_pdf", lambda *a, **k: layouts.append(1) or write_pdf(*a, **k)
    )
    queue = _Queue(cv.build_pdf)
    monkeypatch.setattr(cv, "build_pdf", queue)
    for left in default_storage.listdir("cv/teng-ma")[1] if default_storage.exists("cv") else []:
        default_storage.delete(f"cv/teng-ma/{left}")  # by the tests before
    cache.clear()
    paper = factories.authored(person, ["T Ma"], at=1, title="A First Title")

    before = [client.get("/people/teng-ma/cv.pdf") for _ in range(3)]
    assert [r.status_code for r in before] == [503] * 3
    assert before[0]["Retry-After"] == "10" and "/people/teng-ma/cv/" in before[0].content.decode()
    assert (len(queue.waiting), layouts) == (1, [])  # queued once, laid out by no request
    queue.run()
    first = client.get("/people/teng-ma/cv.pdf")
    assert first.status_code == 200 and first.content.startswith(b"%PDF-")

    paper.title = "A Second Title"
    paper.save()
    changed = client.get("/people/teng-ma/cv.pdf")
    assert changed.status_code == 503 and len(layouts) == 1  # the PDF of the change waits
    queue.run()
    second = client.get("/people/teng-ma/cv.pdf")

    assert second.status_code == 200 and second.content != first.content
    assert len(layouts) == 2  # one per change, both by the worker
    assert len(default_storage.listdir("cv/teng-ma")[1]) == 1  # the older PDF removed


def test_the_pdfs_waiting_for_the_worker_are_bounded(client, person, monkeypatch):
    from django_tasks_db.models import DBTaskResult

    from labsite.pages import cv

    queue = _Queue(cv.build_pdf)
    monkeypatch.setattr(cv, "build_pdf", queue)
    monkeypatch.setattr(DBTaskResult.objects, "ready", lambda: _Waiting(cv.PDF_QUEUE_LIMIT))

    response = client.get("/people/teng-ma/cv.pdf?selected=1")

    assert response.status_code == 503 and queue.waiting == []


class _Waiting:
    def __init__(self, count):
        self.n = count

    def filter(self, **kwargs):
        return self

    def count(self):
        return self.n
