"""Semantic Scholar, Europe PMC and DataCite harvested like the other sources: over real HTTP
from the local replay of their recorded answers, at the settings' base addresses, each page
asked for as the service documents it, works left out by kind counted in the run's report,
and a source that does not answer within the deadline an error while the others come in."""

import io
import json

import pytest
from django.core.management import call_command

from harvest.models import Candidate, HarvestRun
from publications.importing.http import HttpClient
from tests.factories import PersonFactory
from tests.harvest.replay import DATA

pytestmark = pytest.mark.django_db

ORCID = "0000-0002-2874-287X"  # a creator of the figshare dataset among DataCite's answers
SOURCES = ("--source", "semantic_scholar", "--source", "europepmc", "--source", "datacite")
CORE = json.loads((DATA / "real/europepmc-pyeuropepmc-search-core.json").read_text())


def harvest(*args):
    out = io.StringIO()
    call_command("harvest", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def europepmc(query):
    if query.get("query") != f'AUTHORID:"{ORCID}"':
        return "real/europepmc-pyeuropepmc-search-end.json"  # no one else's works here
    if query.get("cursorMark") == "*":
        return "real/europepmc-pyeuropepmc-search-core.json"
    return "real/europepmc-pyeuropepmc-search-end.json"


def serve_turing(services):
    """Alan Turing's recorded answers at the three services (the lab-year reads them too)."""
    services.routes.update(
        {
            "/s2/graph/v1/author/2262347/papers": "real/semanticscholar-author-2262347-papers.json",
            "/europepmc/rest/search": europepmc,
            "/datacite/dois": lambda q: (
                "real/datacite-commonmeta-dois.json"
                if ORCID in q.get("query", "")
                else "real/datacite-rdatacite-dois-page-emptied.json"
            ),
        }
    )


@pytest.fixture
def turing(services):
    serve_turing(services)
    return PersonFactory(
        name="Alan Turing", slug="alan-turing", orcid=ORCID, semantic_scholar_id="2262347"
    )


def test_the_three_sources_are_read_at_their_addresses_and_make_candidates(services, turing):
    out = harvest("--person", "alan-turing", *SOURCES)

    assert "semantic_scholar: 60 fetched, 60 new, 0 matched, 0 error(s)" in out
    assert "europepmc: 23 fetched, 23 new, 0 matched, 0 error(s)" in out
    assert "datacite: 4 fetched, 4 new, 0 matched, 0 error(s)" in out
    report = HarvestRun.objects.get().report
    assert report["datacite"]["skipped"] == {"dataset": 5, "software": 2}
    assert report["europepmc"]["skipped"] == {"erratum": 2}
    assert Candidate.objects.for_person(turing).count() == 87
    (papers,) = services.asked("/s2/graph/v1/author/2262347/papers")
    assert (papers["offset"], papers["limit"]) == ("0", "100")
    assert {"externalIds", "authors", "publicationTypes"} <= set(papers["fields"].split(","))
    first, then = services.asked("/europepmc/rest/search")
    assert (first["resultType"], first["pageSize"], first["cursorMark"]) == ("core", "500", "*")
    assert then["cursorMark"] == CORE["nextCursorMark"]  # its cursor, followed to the end
    (dois,) = services.asked("/datacite/dois")
    assert dois["query"] == f'creators.nameIdentifiers.nameIdentifier:"https://orcid.org/{ORCID}"'
    assert (dois["page[size]"], dois["page[number]"]) == ("100", "1")


def test_a_second_harvest_of_the_same_answers_adds_nothing(services, turing):
    harvest("--person", "alan-turing", *SOURCES)

    out = harvest("--person", "alan-turing", *SOURCES)

    assert "semantic_scholar: 60 fetched, 0 new, 60 matched" in out
    assert Candidate.objects.count() == 87


def test_a_source_past_its_deadline_is_an_error_and_the_others_come_in(services, turing, settings):
    settings.HARVEST_TIMEOUT = 1.0
    route = "/s2/graph/v1/author/2262347/papers"
    services.routes[route] = (
        200,
        (DATA / "real/semanticscholar-author-2262347-papers.json").read_bytes()[:50],
    )
    services.drip[route] = 0.1

    out = harvest("--person", "alan-turing", *SOURCES)

    errors = HarvestRun.objects.get().report["semantic_scholar"]["errors"]
    assert errors == [f"Alan Turing: {services.base[7:]} did not answer in full within 1 s"]
    assert "europepmc: 23 fetched, 23 new" in out and "datacite: 4 fetched, 4 new" in out


def test_a_semantic_scholar_key_in_the_settings_is_sent_with_each_request(
    services, turing, settings, monkeypatch
):
    settings.SEMANTIC_SCHOLAR_API_KEY = "lab-key"
    sent = []
    read = HttpClient.get_json

    def get_json(client, url, headers=None):
        sent.append(headers)
        return read(client, url, headers)

    monkeypatch.setattr(HttpClient, "get_json", get_json)

    harvest("--person", "alan-turing", "--source", "semantic_scholar")

    assert sent == [{"x-api-key": "lab-key"}]
