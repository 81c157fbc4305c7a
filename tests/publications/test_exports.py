"""BibTeX, RIS and CSL-JSON exports: one paper, a member's list, a filtered lab list."""

import json

import bibtexparser
import pytest
from bibtexparser import middlewares

from tests.factories import PersonFactory, VenueFactory, authored

pytestmark = pytest.mark.django_db


def _parse_bibtex(text):
    library = bibtexparser.parse_string(
        text,
        append_middleware=[
            middlewares.LatexDecodingMiddleware(),
            middlewares.SeparateCoAuthors(),
            middlewares.SplitNameParts(),
        ],
    )
    assert not library.failed_blocks
    return library.entries


@pytest.fixture
def papers(db):
    teng = PersonFactory(name="Teng Ma", native_name="马腾", slug="teng-ma")
    tos = VenueFactory(short_name="ACM ToS", name="ACM Transactions on Storage", kind="journal")
    one = authored(
        teng,
        ["Ruoyu Qin", "Teng Ma", "Jürgen Zürich"],
        at=2,
        title="Mooncake: A KVCache-centric Architecture for LLM Serving & 100% More_Fun {x}",
        venue=tos,
        kind="journal",
        date="2026-08",
        doi="10.1145/3773772",
        volume="22",
        issue="4",
        pages="1-38",
    )
    two = authored(
        teng, ["腾 马", "...", "A Author"], at=1, title="Second Paper #2 ~ $cost", doi="10.1234/two"
    )
    return one, two


def test_bibtex_parses_back_to_the_same_titles_authors_and_dois(client, papers):
    text = client.get("/people/teng-ma/publications.bib").content.decode()

    entries = {e["doi"]: e for e in _parse_bibtex(text)}
    one = entries["10.1145/3773772"]
    assert one["title"].replace("{", "").replace("}", "") == (
        "Mooncake: A KVCache-centric Architecture for LLM Serving & 100% More_Fun x"
    )
    assert [(n.first, n.last) for n in one["author"]] == [
        (["Ruoyu"], ["Qin"]),
        (["Teng"], ["Ma"]),
        (["Jürgen"], ["Zürich"]),
    ]
    assert one["journal"] == "ACM Transactions on Storage"
    assert one["pages"] == "1–38"  # written as 1--38, which LaTeX reads as an en dash
    assert "pages = {1--38}" in text
    two = entries["10.1234/two"]
    assert [(n.first, n.last) for n in two["author"]] == [
        ([], ["马腾"]),  # written whole, family name first, as biblatex is to print it
        ([], ["…"]),  # the gap in its place, so the last author stays last
        (["A"], ["Author"]),
    ]


def test_bibtex_escapes_latex_specials_and_keeps_unicode(client, papers):
    text = client.get("/people/teng-ma/publications.bib").content.decode()

    assert r"{LLM} Serving \& 100\% {More\_Fun} \{x\}" in text
    assert r"\#2 \textasciitilde{} \$cost" in text
    assert "Zürich" in text and "{马腾}" in text


def test_a_gap_between_authors_keeps_its_place_and_a_gap_at_the_end_is_and_others(client, papers):
    text = client.get(f"{papers[1].get_absolute_url()}export.bib").content.decode()
    authored(None, ["Teng Ma", "..."], title="Third", slug="third")
    third = client.get("/publications/third/export.bib").content.decode()

    # "and others" only ends a list: anywhere else the last author would read as a middle one
    assert "author = {{马腾} and {…} and Author, A}" in text
    assert "author = {Ma, Teng and others}" in third


def test_ris_export_lists_each_author_and_the_journal(client, papers):
    response = client.get(f"{papers[0].get_absolute_url()}export.ris")

    assert response["Content-Type"].startswith("application/x-research-info-systems")
    lines = response.content.decode().splitlines()
    assert lines[0] == "TY  - JOUR"
    assert [line for line in lines if line.startswith("AU  - ")] == [
        "AU  - Qin, Ruoyu",
        "AU  - Ma, Teng",
        "AU  - Zürich, Jürgen",
    ]
    assert "T2  - ACM Transactions on Storage" in lines
    assert "SP  - 1" in lines and "EP  - 38" in lines
    assert "DO  - 10.1145/3773772" in lines
    assert "DA  - 2026/08//" in lines
    assert lines[-1] == "ER  - "


def test_csl_json_export_is_valid_csl(client, papers):
    items = json.loads(client.get(f"{papers[0].get_absolute_url()}export.json").content)

    assert items[0]["type"] == "article-journal"
    assert items[0]["author"][2] == {"family": "Zürich", "given": "Jürgen"}
    assert items[0]["issued"] == {"date-parts": [[2026, 8]]}
    assert items[0]["DOI"] == "10.1145/3773772"


def test_filtered_lab_export_takes_the_list_filters(client, papers):
    text = client.get("/publications/export.bib?kind=journal").content.decode()

    assert [e["doi"] for e in _parse_bibtex(text)] == ["10.1145/3773772"]


def test_exports_list_everyone_even_where_pages_shorten(client):
    person = PersonFactory(slug="p")
    authored(person, [f"A Author{n}" for n in range(30)], at=30, title="Big Collaboration")

    entry = _parse_bibtex(client.get("/people/p/publications.bib").content.decode())[0]

    assert len(entry["author"]) == 30


def test_unknown_export_format_is_404(client, papers):
    assert client.get("/publications/export.docx").status_code == 404


def test_a_filtered_profile_exports_exactly_the_papers_it_shows(client, demo):
    page = client.get("/people/teng-ma/?kind=journal").content.decode()
    shown = page.count('class="pub"')
    link = '/people/teng-ma/publications.bib?kind=journal"'

    exported = bibtexparser.parse_string(
        client.get("/people/teng-ma/publications.bib?kind=journal").content.decode()
    )
    everything = bibtexparser.parse_string(
        client.get("/people/teng-ma/publications.bib").content.decode()
    )

    assert link in page
    assert 0 < len(exported.entries) == shown < len(everything.entries)
    assert {entry.entry_type for entry in exported.entries} == {"article"}
