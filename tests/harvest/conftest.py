"""The recorded services: a local server replaying each source's answers, with the settings
pointing at it, and the recorded member whose works it holds."""

import urllib.parse
import urllib.request

import pytest

from tests.factories import PersonFactory
from tests.harvest.replay import Replay

_REAL_OPEN = urllib.request.OpenerDirector.open  # before the suite's guard replaces it
ORCID = "0000-0003-1613-5981"


def _loopback_only(opener, request, *args, **kwargs):
    url = request.full_url if isinstance(request, urllib.request.Request) else request
    if urllib.parse.urlsplit(url).hostname != "127.0.0.1":
        raise AssertionError(f"a test tried to reach the network: {url}")
    return _REAL_OPEN(opener, request, *args, **kwargs)


def openalex_works(query):
    """Works by author (two pages through the cursor), or citation counts by DOI."""
    if query.get("filter", "").startswith("doi:"):
        return None  # the services fixture answers these from its own counts file
    if query.get("filter") != "author.id:A1969205032":
        return None
    return "openalex-works-1.json" if query.get("cursor") == "*" else "openalex-works-2.json"


def crossref_works(query):
    if query.get("filter") != f"orcid:{ORCID}":
        return None
    return "crossref-works.json" if query.get("cursor") == "*" else "crossref-works-end.json"


@pytest.fixture
def services(settings, monkeypatch, tmp_path):
    monkeypatch.setattr("urllib.request.OpenerDirector.open", _loopback_only)
    monkeypatch.setattr("publications.importing.http.HttpClient.pause", 0.01)  # retries
    replay = Replay()
    settings.ORCID_API_URL = f"{replay.base}/orcid/v3.0"
    settings.OPENALEX_URL = f"{replay.base}/openalex"
    settings.CROSSREF_URL = f"{replay.base}/crossref"
    settings.DBLP_URL = f"{replay.base}/dblp"
    settings.ARXIV_URL = f"{replay.base}/arxiv"
    settings.GITHUB_API_URL = f"{replay.base}/github"
    settings.SEMANTIC_SCHOLAR_URL = f"{replay.base}/s2/graph/v1"
    settings.EUROPEPMC_URL = f"{replay.base}/europepmc/rest"
    settings.DATACITE_URL = f"{replay.base}/datacite"
    settings.CONTACT_EMAIL = "webmaster@lab.example"
    settings.HARVEST_TIMEOUT = 2.0
    counts = tmp_path / "openalex-counts.json"
    counts.write_text('{"meta": {"count": 0}, "results": []}')
    replay.counts_file = counts
    replay.routes.update(
        {
            f"/orcid/v3.0/{ORCID}/works": "orcid-works.json",
            "/openalex/authors/A1969205032": "openalex-author.json",
            "/openalex/works": lambda q: (
                (200, counts.read_bytes())
                if q.get("filter", "").startswith("doi:")
                else openalex_works(q)
            ),
            "/crossref/works": crossref_works,
            "/dblp/pid/p/HeatherAPiwowar.xml": "dblp-person.xml",
            "/arxiv/a/piwowar_h_1.atom2": "arxiv-author.atom2",
            "/github/repos/octocat/Hello-World": "github-repo.json",
            # Europe PMC and DataCite know none of her works here: their empty answers
            "/europepmc/rest/search": lambda q: (
                "real/europepmc-pyeuropepmc-search-end.json"
                if q.get("query") == f'AUTHORID:"{ORCID}"'
                else None
            ),
            "/datacite/dois": lambda q: (
                "real/datacite-rdatacite-dois-page-emptied.json"
                if ORCID in q.get("query", "")
                else None
            ),
        }
    )
    yield replay
    replay.close()


@pytest.fixture
def piwowar(db):
    """The recorded member: an identity at each of the five services."""
    return PersonFactory(
        name="Heather A. Piwowar",
        slug="heather-piwowar",
        orcid=ORCID,
        openalex_id="A1969205032",
        dblp_pid="p/HeatherAPiwowar",
        arxiv_author_id="piwowar_h_1",
    )
