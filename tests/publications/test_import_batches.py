"""Imports that fetch run outside the request, bounded and visible; previews live on the
server, not in the session; the HTTP client is polite and retries."""

import io
import json
import threading
import time
import urllib.error

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from publications import importing
from publications.admin import PublicationAdmin
from publications.importing import batches
from publications.models import ImportBatch, Publication
from tests.publications.recorded import TOS_DOI, RecordedClient

URL = "/admin/publications/publication/import/"
REAL_START = batches.start


class SlowClient(RecordedClient):
    """Answers only once `go` is set, so the test sees the import while it fetches."""

    def __init__(self):
        super().__init__()
        self.go = threading.Event()

    def get_json(self, url, headers=None):
        self.go.wait(10)
        return super().get_json(url, headers)


@pytest.mark.django_db(transaction=True)
def test_dois_are_fetched_in_the_background_with_progress_then_previewed(admin_client, monkeypatch):
    monkeypatch.setattr("publications.importing.batches.start", REAL_START)
    client = SlowClient()
    monkeypatch.setattr(PublicationAdmin, "http_client", client)

    started = admin_client.post(URL, {"dois": f"{TOS_DOI}\n10.1000/missing"})
    fetching = admin_client.get(started["Location"]).content.decode()
    client.go.set()
    for _ in range(100):  # at most 10 s
        if ImportBatch.objects.get().status != ImportBatch.Status.FETCHING:
            break
        time.sleep(0.1)
    preview = admin_client.get(started["Location"]).content.decode()

    assert started.status_code == 302
    assert "Looking the records up: 0 of 2 done" in fetching
    assert '<meta http-equiv="refresh" content="2">' in fetching
    assert 'class="action-new">new</td>' in preview
    assert "10.1000/missing answered 404" in preview
    admin_client.post(started["Location"], {"confirm": "1", "skip_invalid": "on"})
    assert Publication.objects.get().doi == TOS_DOI


@pytest.mark.django_db
def test_a_failed_fetch_is_shown_not_waited_for(admin_client, monkeypatch, person):
    class Down:
        def get_json(self, url, headers=None):
            raise importing.ImportProblem("could not reach pub.orcid.org: timed out")

    person.orcid = "0000-0002-7104-1526"
    person.save()
    monkeypatch.setattr(PublicationAdmin, "http_client", Down())

    page = admin_client.post(URL, {"orcid_person": person.pk}, follow=True).content.decode()

    assert "The lookup failed: could not reach pub.orcid.org: timed out" in page


@pytest.mark.django_db
def test_a_large_upload_leaves_the_session_small(admin_client):
    entries = "".join(
        f"@article{{k{n}, title={{Paper {n}}}, author={{Doe, Jane}}, year={{2024}},"
        f" abstract={{{'text ' * 100}}}}}\n"
        for n in range(1500)
    )
    assert len(entries) > 750_000

    admin_client.post(URL, {"file": SimpleUploadedFile("big.bib", entries.encode())})

    assert len(admin_client.session.encode(dict(admin_client.session))) < 2_000
    assert len(ImportBatch.objects.get().records) == 1500


@pytest.mark.django_db
def test_too_many_dois_are_refused_with_a_hint(admin_client):
    dois = "\n".join(f"10.1000/{n}" for n in range(batches.MAX_DOIS + 1))

    page = admin_client.post(URL, {"dois": dois}).content.decode()

    assert "one import looks up at most 200" in page


class _Answer(io.BytesIO):
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.django_db
def test_the_client_retries_busy_answers_and_names_the_site_and_a_contact(monkeypatch, settings):
    settings.CONTACT_EMAIL = "lab@example.org"
    seen, waits = [], []

    def open_url(opener, request, timeout):
        seen.append((request.get_header("User-agent"), timeout))
        if len(seen) < 3:
            raise urllib.error.HTTPError(request.full_url, 503, "Busy", {"Retry-After": "3"}, None)
        return _Answer(json.dumps({"ok": True}).encode())

    monkeypatch.setattr("urllib.request.OpenerDirector.open", open_url)
    client = importing.HttpClient()
    client.sleep = waits.append

    assert client.get_json("https://api.crossref.org/works/x") == {"ok": True}
    assert len(seen) == 3 and waits == [3, 3]
    agent, timeout = seen[0]
    assert settings.SITE_URL in agent and "mailto:lab@example.org" in agent
    assert timeout == importing.HttpClient.timeout


@pytest.mark.django_db
def test_the_client_does_not_retry_a_missing_record(monkeypatch):
    calls = []

    def open_url(opener, request, timeout):
        calls.append(request)
        raise urllib.error.HTTPError(request.full_url, 404, "Not Found", {}, None)

    monkeypatch.setattr("urllib.request.OpenerDirector.open", open_url)

    with pytest.raises(importing.ImportProblem, match=r"api\.crossref\.org answered 404"):
        importing.HttpClient().get_json("https://api.crossref.org/works/x")
    assert len(calls) == 1
