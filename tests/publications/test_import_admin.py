"""The admin's "Import publications" page: preview first, nothing written before confirm."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from publications.admin import PublicationAdmin
from publications.models import ImportBatch, Publication
from tests.factories import PersonFactory
from tests.publications.recorded import DATA, TOS_DOI, RecordedClient

pytestmark = pytest.mark.django_db

URL = "/admin/publications/publication/import/"


def _preview(client, data):
    """Post the import form and follow it to the import's page: (its HTML, its address)."""
    response = client.post(URL, data, follow=True)
    address = response.redirect_chain[-1][0] if response.redirect_chain else URL
    return response.content.decode(), address


def _seed_upload():
    return SimpleUploadedFile("mooncake.json", (DATA / "crossref-mooncake-tos.json").read_bytes())


def test_changelist_links_to_the_import_page(admin_client):
    assert URL.encode() in admin_client.get("/admin/publications/publication/").content


def test_upload_shows_a_preview_and_writes_nothing(admin_client):
    PersonFactory(name="Teng Ma", orcid="0000-0002-7104-1526")

    html, address = _preview(admin_client, {"file": _seed_upload()})

    assert address.startswith(URL) and address != URL
    assert 'class="action-new">new</td>' in html
    assert "Teng Ma → Teng Ma" in html
    assert "13 authors" in html
    assert not Publication.objects.exists()


def test_confirm_writes_what_the_preview_showed(admin_client):
    _, address = _preview(admin_client, {"file": _seed_upload()})

    response = admin_client.post(address, {"confirm": "1"})

    assert response.status_code == 302
    assert Publication.objects.get().authorships.count() == 13
    follow = admin_client.get(response["Location"])
    assert "Import done: 1 created, 0 updated, 0 unchanged, 0 failed." in follow.content.decode()


def test_ambiguous_author_is_resolved_by_the_admins_choice(admin_client):
    teng = PersonFactory(name="Teng Ma", slug="teng-ma")
    PersonFactory(name="Tian Ma", slug="tian-ma")
    bib = b"@article{x, title={HydraRPC}, author={Ma, T and Liu, Z}, year=2024}"
    preview, address = _preview(admin_client, {"file": SimpleUploadedFile("x.bib", bib)})
    assert "“T Ma” is" in preview and '<option value="">not a lab member</option>' in preview

    admin_client.post(address, {"confirm": "1", "author-0-0": str(teng.pk)})

    assert Publication.objects.get().authorships.get(position=1).person == teng


def test_records_with_problems_block_the_import_until_skipped(admin_client):
    bib = b"@article{good, title={Good}, author={A B}, year=2020}\n@article{bad, author={A B}}"
    preview, address = _preview(admin_client, {"file": SimpleUploadedFile("x.bib", bib)})
    assert "it has no title" in preview

    blocked = admin_client.post(address, {"confirm": "1"})
    assert "Nothing was imported: 1 record(s) have problems" in blocked.content.decode()
    assert not Publication.objects.exists()

    admin_client.post(address, {"confirm": "1", "skip_invalid": "on"})
    assert list(Publication.objects.values_list("title", flat=True)) == ["Good"]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("bad.json", b"{oops", "is not valid JSON"),
        ("bad.bib", b"nothing here", "holds no BibTeX entries"),
        ("huge.bib", b"%" * (5 * 1024 * 1024 + 1), "larger than 5 MB"),
    ],
)
def test_unreadable_upload_is_a_form_error_not_a_500(admin_client, name, content, message):
    response = admin_client.post(URL, {"file": SimpleUploadedFile(name, content)})

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Publication.objects.exists()


def test_empty_form_asks_for_a_source(admin_client):
    response = admin_client.post(URL, {})

    assert "Paste DOIs or BibTeX, choose a file, or pick a member" in response.content.decode()


def test_pasted_dois_are_looked_up_and_failures_listed(admin_client, monkeypatch):
    monkeypatch.setattr(PublicationAdmin, "http_client", RecordedClient())

    html, _ = _preview(
        admin_client, {"dois": f"https://doi.org/{TOS_DOI}\n\n10.1000/missing\nnot-a-doi"}
    )

    assert 'class="action-new">new</td>' in html
    assert "10.1000/missing answered 404" in html
    assert "is not a DOI" in html


def test_confirm_of_an_expired_or_unknown_import_says_it_expired(admin_client):
    _, address = _preview(admin_client, {"file": _seed_upload()})
    ImportBatch.objects.update(created=timezone.now() - ImportBatch.LIFETIME * 2)

    for url in (address, f"{URL}00000000-0000-0000-0000-000000000000/"):
        response = admin_client.post(url, {"confirm": "1"}, follow=True)
        assert "That import preview has expired" in response.content.decode()
    assert not Publication.objects.exists() and not ImportBatch.objects.exists()


def test_staff_without_add_permission_cannot_import(client, django_user_model):
    clerk = django_user_model.objects.create_user(
        "clerk", password="x-long-password", is_staff=True
    )
    client.force_login(clerk)

    assert client.get(URL).status_code == 403
