"""Links are http(s) only at every entry point and on every page; uploaded PDFs are PDFs."""

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from publications import importing
from publications.models import Publication
from tests import factories
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db

EVIL_BIB = """@inproceedings{evil,
  title = {A Paper With a Poisoned Link},
  author = {Doe, Jane},
  booktitle = {Proceedings of EVIL},
  year = {2024},
  url = {javascript:alert(document.domain)//.pdf}
}"""


def test_imported_javascript_pdf_link_is_never_stored_or_linked(client):
    records = importing.read_bibtex(EVIL_BIB)
    importing.apply(importing.plan(records))

    paper = Publication.objects.get()
    assert paper.pdf_url == ""
    assert "javascript:" not in client.get(paper.get_absolute_url()).content.decode()


@pytest.mark.parametrize(
    "url", ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "ftp://x.org/a"]
)
def test_model_rules_refuse_links_that_are_not_http(url):
    paper = factories.PublicationFactory.build(code_url=url, venue=None)

    with pytest.raises(ValidationError) as error:
        paper.full_clean()

    assert "http:// or https://" in str(error.value.message_dict["code_url"])


def test_admin_form_refuses_a_javascript_link(admin_client):
    paper = factories.authored(None, ["A Author"], at=0)
    url = f"/admin/publications/publication/{paper.pk}/change/"
    data = form_data(admin_client.get(url), slides_url="javascript:alert(1)")

    response = admin_client.post(url, data)

    assert response.status_code == 200
    paper.refresh_from_db()
    assert paper.slides_url == ""


def test_a_stored_javascript_link_is_not_printed_as_a_link(client):
    paper = factories.authored(None, ["A Author"], at=0)
    Publication.objects.filter(pk=paper.pk).update(video_url="javascript:alert(1)")
    person = factories.PersonFactory()
    factories.LinkFactory(person=person)
    person.links.update(url="javascript:alert(2)")

    for url in (paper.get_absolute_url(), "/publications/", person.get_absolute_url()):
        assert "javascript:" not in client.get(url).content.decode()


PDF = b"%PDF-1.7\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("evil.html", b"<html><script>alert(1)</script></html>", "not a PDF"),
        ("paper.pdf", b"<svg xmlns='http://www.w3.org/2000/svg'/>", "not a PDF"),
        ("shell.php", b"<?php system($_GET['c']); ?>", "not a PDF"),
        ("paper.pdf", b"%PDF-1.7\n truncated", "incomplete"),
    ],
)
def test_only_a_pdf_is_accepted_as_a_papers_pdf(admin_client, name, content, message):
    paper = factories.authored(None, ["A Author"], at=0)
    url = f"/admin/publications/publication/{paper.pk}/change/"
    data = form_data(admin_client.get(url), pdf_file=SimpleUploadedFile(name, content))

    response = admin_client.post(url, data)

    assert message in response.content.decode()
    paper.refresh_from_db()
    assert not paper.pdf_file


def test_a_pdf_is_too_large_over_30_mb(admin_client):
    paper = factories.authored(None, ["A Author"], at=0)
    url = f"/admin/publications/publication/{paper.pk}/change/"
    big = PDF[:-6] + b" " * (30 * 1024 * 1024) + b"%%EOF\n"
    data = form_data(admin_client.get(url), pdf_file=SimpleUploadedFile("big.pdf", big))

    response = admin_client.post(url, data)

    assert "at most 30 MB" in response.content.decode()


def test_an_accepted_pdf_gets_a_random_name_and_is_served_as_a_sandboxed_pdf(admin_client, client):
    paper = factories.authored(None, ["A Author"], at=0)
    url = f"/admin/publications/publication/{paper.pk}/change/"
    upload = SimpleUploadedFile("evil.html", PDF, content_type="text/html")
    admin_client.post(url, form_data(admin_client.get(url), pdf_file=upload))

    paper.refresh_from_db()
    assert paper.pdf_file.name.startswith("publications/pdf/")
    assert paper.pdf_file.name.endswith(".pdf") and "evil" not in paper.pdf_file.name
    response = client.get(f"/publications/{paper.slug}/paper.pdf")
    assert response["Content-Type"] == "application/pdf"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in response["Content-Security-Policy"]
    assert response["Content-Disposition"] == f'inline; filename="{paper.slug}.pdf"'
    assert b"".join(response.streaming_content) == PDF
    page = client.get(paper.get_absolute_url()).content.decode()
    assert f'href="/publications/{paper.slug}/paper.pdf"' in page


def test_the_demo_loader_refuses_a_javascript_link_like_the_admin():
    from labsite.management.commands.load_demo import upsert
    from people.models import Link

    person = factories.PersonFactory()

    with pytest.raises(ValidationError):
        upsert(Link, {"kind": "github", "url": "javascript:alert(1)"}, person=person)

    assert not Link.objects.exists()
