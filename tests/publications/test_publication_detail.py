"""A paper's page: the full author list, metadata for Google Scholar and Zotero, and JSON-LD."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from publications.models import Publication
from tests.factories import PersonFactory, PublicationFactory, authored

pytestmark = pytest.mark.django_db

TOS_CROSSREF_AUTHORS = [
    "Ruoyu Qin", "Zheming Li", "Weiran He", "Jialei Cui", "Heyi Tang", "Feng Ren", "Teng Ma",
    "Shangming Cai", "Yineng Zhang", "Mingxing Zhang", "Yongwei Wu", "Weimin Zheng", "Xinran Xu",
]  # fmt: skip


def _meta(html, name):
    return re.findall(rf'<meta name="{name}" content="([^"]*)">', html)


@pytest.fixture
def tos_page(client, demo):
    response = client.get("/publications/")
    slug = Publication.objects.get(doi="10.1145/3773772").slug
    assert slug in {entry.publication.slug for entry in response.context["entries"]}
    return client.get(f"/publications/{slug}/").content.decode()


def test_mooncake_tos_page_has_13_citation_authors_in_crossref_order(tos_page):
    # "Family, Given", as Highwire Press reads names in any script ("马, 腾", never "腾 马")
    assert _meta(tos_page, "citation_author") == [
        ", ".join(reversed(name.split(" "))) for name in TOS_CROSSREF_AUTHORS
    ]
    assert _meta(tos_page, "citation_doi") == ["10.1145/3773772"]
    assert _meta(tos_page, "citation_journal_title") == ["ACM Transactions on Storage"]
    assert _meta(tos_page, "citation_volume") == ["22"]
    assert _meta(tos_page, "citation_issue") == ["4"]
    assert (_meta(tos_page, "citation_firstpage"), _meta(tos_page, "citation_lastpage")) == (
        ["1"],
        ["38"],
    )
    assert _meta(tos_page, "citation_publication_date") == ["2026/08/17"]


def test_mooncake_tos_page_lists_every_author_with_affiliations(tos_page):
    assert tos_page.count('<span class="author">') == 13
    assert "<li>Moonshot AI</li>" in tos_page
    assert '<strong class="author-self">' not in tos_page  # no one is the page's subject


def test_json_ld_authors_carry_their_orcid_as_id(tos_page):
    block = re.search(r'<script type="application/ld\+json">(.*?)</script>', tos_page, re.S)[1]
    data = json.loads(block)

    assert data["@type"] == "ScholarlyArticle"
    assert [a["name"] for a in data["author"]] == TOS_CROSSREF_AUTHORS
    assert data["author"][6]["@id"] == "https://orcid.org/0000-0002-7104-1526"
    assert data["author"][6]["url"].endswith("/people/teng-ma/")


def test_conference_paper_uses_conference_title_and_hosted_pdf_url(client):
    paper = authored(None, ["A Author", "B Author"], at=0)
    paper.pdf_file = SimpleUploadedFile("paper.pdf", b"%PDF-1.4 test")
    paper.save()

    html = client.get(paper.get_absolute_url()).content.decode()

    assert _meta(html, "citation_conference_title") == [paper.venue.full_name]
    assert _meta(html, "citation_pdf_url") == [
        f"http://testserver/publications/{paper.slug}/paper.pdf"
    ]
    assert not _meta(html, "citation_journal_title")


def test_json_ld_cannot_be_broken_out_of_by_a_title(client):
    paper = PublicationFactory(title="</script><script>alert(1)</script>")

    html = client.get(paper.get_absolute_url()).content.decode()

    assert "<script>alert(1)" not in html


def test_detail_page_shows_the_bibtex_cite_block(client):
    paper = authored(
        PersonFactory(slug="t"), ["T Ma", "K Chen"], at=1, title="HydraRPC: RPC in the CXL Era"
    )

    html = client.get(paper.get_absolute_url()).content.decode()

    assert "@inproceedings{ma2024hydrarpc," in html
    assert "author = {Ma, T and Chen, K}" in html


def test_numeric_address_redirects_to_the_slug(client):
    paper = PublicationFactory(title="Thinking More about RDMA Memory Semantics", date="2021")

    response = client.get(f"/publications/{paper.pk}/")

    assert response.status_code == 301
    assert response["Location"] == "/publications/thinking-more-about-rdma-memory-semantics-2021/"


def test_hidden_publication_has_no_page(client):
    paper = PublicationFactory(is_published=False)

    assert client.get(paper.get_absolute_url()).status_code == 404
    assert client.get(f"/publications/{paper.pk}/").status_code == 404


def test_detail_query_count_is_pinned_and_the_same_with_10_and_300_publications(client):
    paper = authored(None, [f"A Author{n}" for n in range(12)], at=0)
    url = paper.get_absolute_url()
    for _ in range(9):
        PublicationFactory()
    client.get(url)
    with CaptureQueriesContext(connection) as with_10:
        client.get(url)
    for _ in range(290):
        PublicationFactory()
    with CaptureQueriesContext(connection) as with_300:
        client.get(url)

    # the content version, the menu, then the page's own (its tags one of them)
    assert len(with_300) == len(with_10) <= 7


def _venue_line(page):
    return " ".join(re.search(r'<p class="paper__venue">(.*?)</p>', page, re.S)[1].split())


def test_the_venue_line_of_a_paper_without_a_container_starts_at_its_date(client):
    paper = PublicationFactory(venue=None, date="2020-06", volume="12", kind="report")

    line = _venue_line(client.get(paper.get_absolute_url()).content.decode())

    assert line == 'vol. 12, <time datetime="2020-06">Jun 2020</time>'


def test_the_venue_line_joins_container_volume_pages_and_date_with_commas(client):
    paper = PublicationFactory(date="2024-11", volume="3", pages="1-20")

    line = _venue_line(client.get(paper.get_absolute_url()).content.decode())

    assert line.startswith(paper.venue.full_name) and not line.startswith(",")
    assert line.endswith(', vol. 3, pp. 1-20, <time datetime="2024-11">Nov 2024</time>')
