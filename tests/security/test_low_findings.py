"""The review's low findings: export injection, feed HTML, image metadata, DOIs, proxies,
replaced photos, security headers."""

import io

import bibtexparser
import feedparser
import pytest
from django.core.exceptions import ValidationError
from django.core.files.storage import FileSystemStorage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from PIL import Image

from core.identifiers import normalize_doi
from labsite.client_ip import client_ip
from publications.exports import to_bibtex, to_ris
from publications.models import Publication
from tests import factories
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db


def test_bibtex_export_values_cannot_close_their_field_or_run_macros():
    paper = factories.authored(None, ["A Author"], at=0, title="T", pages="1}, note={pwned")
    Publication.objects.filter(pk=paper.pk).update(
        doi="10.1145/x}\\input{/etc/passwd", pdf_url="https://x.org/a}b.pdf"
    )
    paper = Publication.objects.for_listing().get()

    library = bibtexparser.parse_string(to_bibtex([paper]))

    (entry,) = library.entries
    assert "note" not in entry.fields_dict
    assert "\\input" not in entry["doi"] and "{" not in entry["doi"]
    assert entry["pdf"] == "https://x.org/a%7Db.pdf"  # al-folio's field for the PDF


def test_ris_values_cannot_forge_a_second_record():
    paper = factories.authored(
        None, ["A Author"], at=0, title="Real\nER  - \nTY  - JOUR\nTI  - Fake"
    )

    ris = to_ris([Publication.objects.for_listing().get(pk=paper.pk)])

    assert ris.count("TY  - ") == 1
    assert ris.count("ER  - ") == 1


def test_feed_descriptions_carry_names_as_text_not_html(client):
    factories.authored(None, ['<img src=x onerror="alert(1)">', "B Author"], at=0)

    feed = feedparser.parse(client.get("/publications/feed/").content)

    summary = feed.entries[0].summary
    assert "<" not in summary  # no element: the name stays text
    assert "&lt;" in summary and "onerror" in summary


def _jpeg_with(comment=b"", icc=b"", xmp=b""):
    buffer = io.BytesIO()
    params = {"comment": comment} if comment else {}
    if icc:
        params["icc_profile"] = icc
    if xmp:
        params["xmp"] = xmp
    Image.new("RGB", (64, 64), "teal").save(buffer, "JPEG", **params)
    return buffer.getvalue()


def _upload(admin_client, content):
    person = factories.PersonFactory()
    url = f"/admin/people/person/{person.pk}/change/"
    response = admin_client.post(
        url, form_data(admin_client.get(url), photo=SimpleUploadedFile("p.jpg", content))
    )
    person.refresh_from_db()
    return response, person


def test_stored_photos_keep_no_comment_and_no_invalid_icc_profile(admin_client):
    _, person = _upload(admin_client, _jpeg_with(comment=b"secret comment", icc=b"not a profile"))

    stored = Image.open(person.photo.path)
    assert "comment" not in stored.info
    assert "icc_profile" not in stored.info
    assert b"secret comment" not in person.photo.read()


def test_a_real_jpeg_with_xmp_is_not_mistaken_for_svg(admin_client):
    xmp = b'<?xml version="1.0"?><x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>'
    response, person = _upload(admin_client, _jpeg_with(xmp=xmp))

    assert "SVG" not in response.content.decode()
    assert person.photo


def test_a_replaced_photo_is_deleted_from_storage(admin_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _, person = _upload(admin_client, _jpeg_with())
    old = [person.photo.name, person.photo_thumb.name]
    url = f"/admin/people/person/{person.pk}/change/"
    upload = SimpleUploadedFile("q.jpg", _jpeg_with(comment=b"v2"))

    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post(url, form_data(admin_client.get(url), photo=upload))

    person.refresh_from_db()
    assert person.photo.name not in old
    assert not any(person.photo.storage.exists(name) for name in old)
    assert person.photo.storage.exists(person.photo.name)


def test_a_photo_the_storage_fails_to_delete_still_saves_the_edit_and_is_logged(
    admin_client, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    with django_capture_on_commit_callbacks(execute=True):
        _, person = _upload(admin_client, _jpeg_with())
    old = person.photo.name
    url = f"/admin/people/person/{person.pk}/change/"
    upload = SimpleUploadedFile("q.jpg", _jpeg_with(comment=b"v2"))

    def refuse(storage, name):
        raise OSError("storage refuses")

    monkeypatch.setattr(FileSystemStorage, "delete", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(url, form_data(admin_client.get(url), photo=upload))

    assert response.status_code == 302  # the edit is saved: the new photo shows
    person.refresh_from_db()
    assert person.photo.name != old
    assert f"A replaced file is still stored: {old}" in caplog.text  # for the operator


@pytest.mark.parametrize(
    "doi", ["10.1145/../../etc/passwd", "10.1145/a\\input{x}", "10.1145/./a", '10.1/"x"']
)
def test_dois_with_path_segments_or_latex_are_refused(doi):
    with pytest.raises(ValidationError):
        normalize_doi(doi)


def test_sici_dois_are_still_accepted():
    doi = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0"
    assert normalize_doi(doi) == doi.lower()


def _request(rf, forwarded):
    return rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)


def test_lockout_address_is_remote_addr_without_a_configured_proxy(rf):
    with override_settings(TRUSTED_PROXIES=0):
        assert client_ip(_request(rf, "203.0.113.9")) == "10.0.0.1"


def test_lockout_address_behind_one_proxy_is_the_one_it_saw_not_what_the_client_claims(rf):
    with override_settings(TRUSTED_PROXIES=1):
        assert client_ip(_request(rf, "1.2.3.4, 203.0.113.9")) == "203.0.113.9"
        assert client_ip(_request(rf, "")) == "10.0.0.1"
        assert client_ip(_request(rf, "not-an-ip")) == "10.0.0.1"


def test_lockouts_behind_a_proxy_are_per_visitor(client):
    from tests.factories import UserFactory

    UserFactory(username="editor", is_staff=True)
    with override_settings(TRUSTED_PROXIES=1):
        for _ in range(5):
            client.post(
                "/admin/login/",
                {"username": "editor", "password": "wrong"},
                REMOTE_ADDR="10.0.0.1",
                HTTP_X_FORWARDED_FOR="203.0.113.9",
            )
        other_visitor = client.post(
            "/admin/login/",
            {"username": "editor", "password": "a-long-test-password"},
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR="198.51.100.7",
        )
    assert other_visitor.status_code == 302  # logged in: the proxy's address is not locked


def test_the_proxy_https_header_is_trusted_only_with_a_configured_proxy():
    from django.conf import settings

    assert settings.TRUSTED_PROXIES == 0
    assert settings.SECURE_PROXY_SSL_HEADER is None


def test_pages_send_a_content_security_policy_and_a_permissions_policy(client, admin_client):
    for response in (client.get("/"), admin_client.get("/admin/")):
        policy = response["Content-Security-Policy"]
        assert "default-src 'self'" in policy
        assert "object-src 'none'" in policy
        assert "frame-ancestors 'none'" in policy
        assert "camera=()" in response["Permissions-Policy"]
