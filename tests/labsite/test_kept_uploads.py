"""A refused admin form keeps the files chosen in it: the photo or banner image, a paper's
PDF, a BibTeX file, a site's ZIP is offered again, not chosen again."""

import os
import re
import time

import pytest
from django.core.files.storage import storages
from django.core.files.uploadedfile import SimpleUploadedFile

from core import kept_uploads
from people.models import Person
from publications.models import ImportBatch, Publication
from tests import factories
from tests.admin_forms import form_data
from tests.labsite.test_site_import import _zip_of
from website.models import HomeSection

pytestmark = pytest.mark.django_db


def _kept(response, name):
    html = response.content.decode()
    found = re.search(rf'<input type="hidden" name="{name}__kept" value="([^"]+)">', html)
    return found and found.group(1)


def test_a_refused_person_form_keeps_its_photo_for_the_next_try(admin_client):
    person = factories.PersonFactory(slug="teng-ma", name="Teng Ma")
    url = f"/admin/people/person/{person.pk}/change/"
    form = admin_client.get(url)
    data = form_data(
        form, photo=factories.photo_upload(name="portrait.png"), orcid="0000-0002-1825-0098"
    )

    refused = admin_client.post(url, data)

    assert refused.status_code == 200 and refused.context["adminform"].form.errors["orcid"]
    assert "Kept from your last try: <strong>portrait.png</strong>" in refused.content.decode()
    token = _kept(refused, "photo")
    assert token
    person.refresh_from_db()
    assert not person.photo

    again = form_data(form, orcid="0000-0002-1825-0097")
    again["photo__kept"] = token  # as the browser sends the refused page's form
    assert admin_client.post(url, again).status_code == 302

    person.refresh_from_db()
    assert person.photo and person.photo_thumb
    assert person.photo.name.endswith(".jpg")  # encoded afresh, as any upload


def test_a_refused_banner_keeps_its_image(admin_client):
    url = "/admin/website/homesection/add/"
    data = form_data(
        admin_client.get(url), kind="banner", text="Hello.", image=factories.photo_upload()
    )  # no description of the image: refused

    refused = admin_client.post(url, data)
    token = _kept(refused, "image")
    del data["image"]
    data.update(image__kept=token, image_alt_en="The lab's servers")
    saved = admin_client.post(url, data)

    assert refused.status_code == 200 and token
    assert saved.status_code == 302
    assert HomeSection.objects.get(kind="banner").image


def test_a_refused_image_is_not_kept(admin_client):
    person = factories.PersonFactory()
    url = f"/admin/people/person/{person.pk}/change/"
    data = form_data(admin_client.get(url), photo=SimpleUploadedFile("x.jpg", b"not an image"))

    refused = admin_client.post(url, data)

    assert refused.status_code == 200 and not _kept(refused, "photo")


def test_a_forged_or_used_token_brings_nothing(admin_client):
    person = factories.PersonFactory()
    url = f"/admin/people/person/{person.pk}/change/"
    form = admin_client.get(url)
    refused = admin_client.post(
        url, form_data(form, photo=factories.photo_upload(), orcid="0000-0002-1825-0098")
    )
    token = _kept(refused, "photo")
    assert admin_client.post(url, {**form_data(form), "photo__kept": token}).status_code == 302

    for used_or_forged in (token, token[:-2] + "xx", "../../etc/passwd"):
        person.photo = None
        Person.objects.filter(pk=person.pk).update(photo="", photo_thumb="")
        response = admin_client.post(url, {**form_data(form), "photo__kept": used_or_forged})
        assert response.status_code == 302
        assert not Person.objects.get(pk=person.pk).photo


def _pdf(size=0):
    """A PDF as check_pdf reads one, padded to about `size` bytes."""
    return b"%PDF-1.7\n" + b"%" * size + b"\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


@pytest.mark.parametrize("size", [0, 3 * 1024 * 1024], ids=["small", "past memory"])
def test_a_refused_paper_form_keeps_its_pdf_and_the_saved_paper_gets_it(admin_client, size):
    paper = factories.authored(None, ["A Author"], at=0)
    url = f"/admin/publications/publication/{paper.pk}/change/"
    form = admin_client.get(url)
    upload = SimpleUploadedFile("camera-ready.pdf", _pdf(size), content_type="application/pdf")

    refused = admin_client.post(
        url, form_data(form, pdf_file=upload, code_url="javascript:alert(1)")
    )

    assert refused.status_code == 200
    assert "Kept from your last try: <strong>camera-ready.pdf</strong>" in refused.content.decode()
    paper.refresh_from_db()
    assert not paper.pdf_file
    again = {**form_data(form, code_url="https://github.com/lab/code"), "pdf_file__kept": ""}
    again["pdf_file__kept"] = _kept(refused, "pdf_file")
    assert admin_client.post(url, again).status_code == 302
    paper.refresh_from_db()
    assert paper.pdf_file.name.startswith("publications/pdf/")
    with paper.pdf_file.open("rb") as stored:
        assert stored.read() == _pdf(size)


def test_a_refused_pdf_is_not_kept(admin_client):
    paper = factories.authored(None, ["A Author"], at=0)
    url = f"/admin/publications/publication/{paper.pk}/change/"
    upload = SimpleUploadedFile("paper.pdf", b"<svg/>", content_type="application/pdf")

    refused = admin_client.post(url, form_data(admin_client.get(url), pdf_file=upload))

    assert refused.status_code == 200 and not _kept(refused, "pdf_file")


BIB = b"""@inproceedings{kept,
  title = {A Paper From a Kept File},
  author = {Doe, Jane},
  booktitle = {Proceedings of KEPT},
  year = {2024}
}
"""
IMPORT = "/admin/publications/publication/import/"


def test_a_refused_import_form_keeps_its_bibtex_file(admin_client):
    refused = admin_client.post(
        IMPORT, {"file": SimpleUploadedFile("lab.bib", BIB), "orcid_person": "999999"}
    )

    assert refused.status_code == 200 and refused.context["form"].errors["orcid_person"]
    assert "Kept from your last try: <strong>lab.bib</strong>" in refused.content.decode()
    assert not ImportBatch.objects.exists()
    again = admin_client.post(IMPORT, {"file__kept": _kept(refused, "file")})
    assert again.status_code == 302
    assert ImportBatch.objects.get().records[0]["title"] == "A Paper From a Kept File"


def test_an_unreadable_or_oversized_import_file_is_not_kept(admin_client):
    for name, content in [("bad.bib", b"nothing here"), ("huge.bib", b"%" * (5 * 2**20 + 1))]:
        refused = admin_client.post(IMPORT, {"file": SimpleUploadedFile(name, content)})

        assert refused.status_code == 200 and not _kept(refused, "file")


def test_a_refused_site_upload_keeps_its_zip(admin_client, tmp_path):
    with _zip_of("hugoblox-academic-cv", tmp_path) as upload:
        refused = admin_client.post("/admin/import-site/", {"site": upload, "name": "x" * 201})

    assert refused.status_code == 200 and "hugoblox-academic-cv.zip" in refused.content.decode()
    preview = admin_client.post(
        "/admin/import-site/", {"site__kept": _kept(refused, "site"), "name": ""}
    )
    assert preview.status_code == 200 and "A Hugo Blox site" in preview.content.decode()
    assert not Publication.objects.exists()  # a preview, nothing written


def test_a_kept_file_comes_back_from_a_storage_with_no_folder_here(admin_client, settings):
    """Object storage, which every machine shares, has no local path for what it keeps."""
    settings.STORAGES = {
        **settings.STORAGES,
        "uploads": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    }
    token = kept_uploads.keep(SimpleUploadedFile("refs.bib", b"@misc{a, title={A}}"))
    (name,) = storages["uploads"].listdir("kept")[1]

    upload = kept_uploads.take(token)

    assert upload.read() == b"@misc{a, title={A}}" and upload.name == "refs.bib"
    assert not storages["uploads"].exists(f"kept/{name}")
    assert kept_uploads.take(token) is None


def test_kept_files_of_any_kind_go_after_a_day(settings, tmp_path):
    uploads = settings.STORAGES["uploads"]
    settings.STORAGES = {  # none kept by earlier tests
        **settings.STORAGES,
        "uploads": {**uploads, "OPTIONS": {**uploads["OPTIONS"], "location": tmp_path}},
    }
    folder = tmp_path / "kept"
    first = kept_uploads.keep(SimpleUploadedFile("old.zip", b"PK old"))
    (stale,) = os.listdir(folder)
    day_and_more = time.time() - kept_uploads.MAX_AGE - 60
    os.utime(folder / stale, (day_and_more, day_and_more))

    kept_uploads.keep(SimpleUploadedFile("new.pdf", _pdf()))

    assert stale not in os.listdir(folder) and len(os.listdir(folder)) == 1
    assert kept_uploads.take(first) is None
