"""The readers on real answers recorded by other projects' test suites (tests/harvest/data/
real, named in SOURCES.md): every work read or named, none lost; titles clean; authors split
as the source gives them."""

import json
import re
from pathlib import Path

import pytest

from harvest.sources import crossref

pytestmark = pytest.mark.django_db

REAL = Path(__file__).parent / "data" / "real"
_NOT_CLEAN = re.compile(r"<[A-Za-z/]|&(?:#\d+|#x[\da-f]+|[a-z]+);|\$\S|\s{2}|^\s|\s$", re.I)


class Pages:
    """Crossref's answer: the recorded page, then the empty page that ends the cursor."""

    def __init__(self, name):
        self.pages = [
            json.loads((REAL / name).read_text()),
            {"message": {"items": [], "next-cursor": ""}},
        ]

    def get_json(self, url, headers=None):
        return self.pages.pop(0)


class Member:
    orcid = "0000-0002-1825-0097"
    name = "Someone"


def test_crossrefs_recorded_works_are_all_read_or_named_with_clean_titles():
    items = json.loads((REAL / "crossref-habanero-works.json").read_text())["message"]["items"]
    warnings = []

    found = crossref.works(Member(), Pages("crossref-habanero-works.json"), warnings.append)

    named = {w.split(":")[0] for w in warnings}
    skipped = {f"DOI {f.record.doi}": f.skipped for f in found if f.skipped}
    found = [f for f in found if not f.skipped]
    read = {f"DOI {f.record.doi}" for f in found}
    # 205 works: 175 read; 17 skipped as no paper (16 figures or tables, an issue); 13
    # named (chapters and news with no author)
    assert (len(items), len(found), len(skipped), len(named - read)) == (205, 175, 17, 13)
    assert sorted(set(skipped.values())) == ["component", "journal-issue"]
    assert read | set(skipped) | named == {f"DOI {item['DOI'].lower()}" for item in items}
    raw = [item["title"][0] for item in items if item.get("title")]
    assert len([title for title in raw if _NOT_CLEAN.search(title)]) == 21  # <i>, <sub>, …
    assert [f.record.title for f in found if _NOT_CLEAN.search(f.record.title)] == []
    titles = {f.record.doi: f.record.title for f in found}
    assert titles["10.1039/d0ce00680g"] == (
        "Encapsulation of the [Ru(bpy)3]2+ luminophore in a unique hydrogen-bonded host framework"
    )
    by_doi = {item["DOI"].lower(): item for item in items}
    for work in found:
        given = [a.get("given", "") for a in by_doi[work.record.doi].get("author", [])]
        assert len(work.record.authors) == len(given)
