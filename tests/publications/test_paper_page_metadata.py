"""What a paper's page tells Google Scholar and search engines, as the paper's record says
it: its own proceedings title, a linked PDF, a chapter's book, the roles, a preprint once."""

import json
import re

import pytest

from tests import factories

pytestmark = pytest.mark.django_db


def _meta(html, name):
    return re.findall(rf'<meta name="{name}" content="([^"]*)">', html)


def test_a_linked_pdf_and_the_papers_own_proceedings_title_are_in_the_tags(client):
    venue = factories.VenueFactory(
        short_name="SOSP", name="Symposium on Operating Systems Principles"
    )
    paper = factories.authored(
        None,
        ["Y Wang", "T Ma", "Z Su"],
        co_first=[1, 2],
        corresponding=[3],
        venue=venue,
        container_title="Proceedings of the 29th Symposium on Operating Systems Principles",
        pdf_url="https://example.org/paper.pdf",
        note="Oral",
    )

    html = client.get(paper.get_absolute_url()).content.decode()

    assert _meta(html, "citation_pdf_url") == ["https://example.org/paper.pdf"]
    assert _meta(html, "citation_conference_title") == [
        "Proceedings of the 29th Symposium on Operating Systems Principles"
    ]
    assert "Proceedings of the 29th Symposium on Operating Systems Principles (SOSP)" in html
    assert '<span class="badge badge--status">Oral</span>' in html
    titled = factories.authored(None, ["A Author"], at=0, venue=venue, container_title="SOSP '23")
    assert "SOSP &#x27;23 (SOSP)" not in client.get(titled.get_absolute_url()).content.decode()
    data = json.loads(re.search(r'ld\+json">(.*?)</script>', html).group(1))
    assert data["creditText"] == "Equal contribution: Y Wang, T Ma. Corresponding author: Z Su."


def test_a_chapter_names_its_book_as_a_book(client):
    paper = factories.authored(
        None, ["A Author"], at=0, kind="chapter", venue=None, container_title="Handbook of Things"
    )

    html = client.get(paper.get_absolute_url()).content.decode()

    assert _meta(html, "citation_inbook_title") == ["Handbook of Things"]
    assert not _meta(html, "citation_conference_title")


def test_a_preprint_page_names_its_kind_and_server_once(client):
    arxiv = factories.VenueFactory(short_name="arXiv", name="arXiv", kind="preprint")
    paper = factories.authored(
        None, ["A Author"], at=0, kind="preprint", status="preprint", venue=arxiv
    )

    html = client.get(paper.get_absolute_url()).content.decode()

    assert "Preprint · Preprint" not in html
    assert "arXiv (arXiv)" not in html
