"""The lab's BibTeX export, imported again into a lab without papers, gives the same papers;
RIS and CSL-JSON carry the roles and say an incomplete list as their readers understand it."""

import json
from pathlib import Path

import pytest
import rispy

from publications import importing
from publications.exports import to_bibtex, to_ris
from publications.models import Publication, Venue
from tests.publications.test_outputs_read_by_consumers import _apa

pytestmark = pytest.mark.django_db
DATA = Path(__file__).parent / "data" / "bibtex"
LINKS = ("pdf_url", "url", "code_url", "slides_url", "video_url", "project_url", "other_url")


def _snapshot():
    """What a reader sees of each paper, by title."""
    papers = Publication.objects.for_listing()
    return {
        p.display_title: {
            "kind": p.kind if p.kind == "patent" else "",
            "patent": (p.patent_number, p.patent_jurisdiction),
            "authors": [
                (a.given_name, a.family_name, a.is_equal_contribution, a.is_corresponding)
                for a in p.authorships.all()
                if not a.is_unlisted
            ],
            "incomplete": any(a.is_unlisted for a in p.authorships.all()),
            "venue": p.venue.short_name if p.venue else "",
            "container": p.container_name,
            "date": p.date.isoformat() if p.date else "",
            "ids": (p.doi, p.arxiv_id),
            "links": {name: getattr(p, name) for name in LINKS if getattr(p, name)},
            "about": (p.is_selected, p.award, p.note, p.volume, p.issue, p.pages, p.abstract),
            "where": (p.publisher_name, p.series, p.address, p.issns),
            "kept": p.source_fields,
        }
        for p in papers
    }


def _round_trip():
    before = _snapshot()
    exported = to_bibtex(Publication.objects.for_listing())
    Publication.objects.all().delete()
    Venue.objects.all().delete()
    plans = importing.plan(importing.read_bibtex(exported, "export.bib"))
    assert [p.problems for p in plans if p.problems] == []
    importing.apply(plans)
    return before, _snapshot()


def test_the_demo_labs_export_comes_back_the_same(demo):
    before, after = _round_trip()

    assert len(before) >= 30
    assert after == before


def test_real_files_come_back_the_same_after_export():
    peers = Path(__file__).parents[1] / "labsite" / "data" / "sites"
    for path in [*sorted(DATA.glob("*.bib")), *sorted(peers.glob("alfolio-*/_bibliography/*.bib"))]:
        plans = importing.plan(importing.read_bibtex(path.read_text(), path.name))
        importing.apply(plans)
    before, after = _round_trip()

    assert len(before) > 110
    assert after == before


def test_ris_and_csl_carry_roles_and_an_incomplete_list_without_an_author_named_others(
    demo, client
):
    papers = {p.display_title: p for p in Publication.objects.for_listing()}
    with_roles = [
        t
        for t, p in papers.items()
        if any(a.is_equal_contribution or a.is_corresponding for a in p.authorships.all())
    ]
    incomplete = [t for t, p in papers.items() if any(a.is_unlisted for a in p.authorships.all())]
    assert len(with_roles) >= 5 and incomplete

    records = {r["title"]: r for r in rispy.loads(to_ris(Publication.objects.for_listing()))}
    items = json.loads(client.get("/publications/export.json").content)
    by_title = {i["title"]: i for i in items}
    references = {style: _apa(items, style) for style in ("apa", "ieee")}
    for title in with_roles:
        assert any(
            "Equal contribution" in n or "Corresponding" in n for n in records[title]["notes"]
        )
        assert (
            "Equal contribution" in by_title[title]["note"]
            or "Corresponding" in (by_title[title]["note"])
        )
    for title in incomplete:
        assert "The author list is incomplete." in records[title]["notes"][-1]
        assert all(a.get("literal") != "others" for a in by_title[title]["author"])
        for style in ("apa", "ieee"):
            assert "others" not in references[style][by_title[title]["id"].lower()], style
