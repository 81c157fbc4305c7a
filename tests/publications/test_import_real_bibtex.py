"""Importing real BibTeX files from public al-folio sites (tests/publications/data/bibtex,
SOURCES.md there, and the sites in tests/labsite/data/sites/): nothing refused for a false
reason, no tag left in a title, no venue cut or borrowed, every field landed or named, roles
read from markers."""

import re
from pathlib import Path

import bibtexparser
import pytest

from publications import importing
from publications.importing.bibtex_fields import LINK_HOMES
from publications.models import Publication

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent / "data" / "bibtex"
PEERS = Path(__file__).parents[1] / "labsite" / "data" / "sites"  # the site importer's corpus
REAL_FILES = [
    *sorted(DATA.glob("*.bib")),
    PEERS / "alfolio-template" / "_bibliography" / "papers.bib",
    PEERS / "alfolio-user" / "_bibliography" / "papers.bib",
]
# Fields that land in a home of their own (a Publication field, an author's role, the date).
HOMES = {
    "title", "author", "journal", "booktitle", "howpublished", "volume", "number", "issue",
    "pages", "publisher", "abstract", "url", "doi", "year", "month", "day", "eprint",
    "archiveprefix", "issn", "note", "address", "location", "series", "abbr", "selected",
    "arxiv", "hal", "award", "award_name", "organization", "author+an", *LINK_HOMES,
}  # fmt: skip
_TAG_IN_TITLE = re.compile(r"^\s*\[[^\]]+\]|\[[^\]]+\]\s*$|\((?:oral|spotlight|to appear)\)", re.I)


def _plans(path):
    return importing.plan(importing.read_bibtex(path.read_text(encoding="utf-8"), path.name))


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: p.parent.parent.name + "/" + p.name)
def test_a_real_file_comes_in_whole(path):
    plans = _plans(path)
    raw = bibtexparser.parse_string(path.read_text(encoding="utf-8"))
    entries = len(raw.entries) + len(raw.failed_blocks)

    assert len(plans) == entries
    assert [p.problems for p in plans if p.problems] == []  # nothing refused
    for plan in plans:
        record, paper = plan.record, plan.candidate
        assert not _TAG_IN_TITLE.search(record.title), record.title
        if paper.venue is not None:  # a series, never one edition's name, never cut
            assert not re.search(r"\b(?:19|20)\d{2}\b|\d+(?:st|nd|rd|th)\b", paper.venue.name)
            assert len(paper.venue.short_name) <= 60
        # every field of the entry landed, was kept, or is named in the preview
        named = " ".join([*record.dropped, *record.files, *record.readings])
        for name in _field_names(path, record.citation_key or ""):
            assert name in HOMES or name in record.source_fields or name in named, (
                f"{record.label}: {name}"
            )


def _field_names(path, key):
    library = bibtexparser.parse_string(path.read_text(encoding="utf-8"))
    entry = next((e for e in library.entries if e.key == key), None)
    # an empty field says nothing, so nothing needs naming
    return {f.key.lower() for f in entry.fields if str(f.value).strip()} if entry else set()


def test_42shawn_markers_become_roles_and_tags_leave_venues():
    plans = {p.record.citation_key: p for p in _plans(DATA / "42shawn-papers.bib")}

    ecar = plans["Yuan_2024_ECAR"].record
    assert [(a.family, a.is_equal_contribution) for a in ecar.authors[:3]] == [
        ("Yuan", True),
        ("Shang", True),
        ("Zhang", False),
    ]
    prumerge = plans["Shang_2024_PruMerge"].record
    assert [a.family for a in prumerge.authors][-2:] == ["Lee", "Yan"]  # "^" is not a name
    assert any("“^” by Lee removed" in r for r in prumerge.readings)
    survey = plans["Shang_2024_Survey_LLMinference"]
    assert survey.record.note == "Survey Paper"
    assert survey.candidate.venue.short_name == "arXiv"  # "Survey 2024" is no venue
    neurips = plans["Wu_2024_NPIS"]
    assert (neurips.candidate.kind, neurips.candidate.venue.short_name) == ("conference", "NeurIPS")
    assert neurips.candidate.venue.name == "Conference on Neural Information Processing Systems"


def test_pjlab_dois_arxiv_ids_files_and_a_reused_key():
    plans = _plans(DATA / "pjlab-adg-papers.bib")
    by_title = {p.record.title: p.record for p in plans}

    closer = by_title["A Closer Look at Few-Shot 3D Point Cloud Classification"]
    assert closer.doi == "10.1007/s11263-022-01731-4"  # written as a doi.org link
    uni3d = by_title["Uni3D: A Unified Baseline for Multi-dataset 3D Object Detection"]
    assert uni3d.arxiv_id == "2303.06880" and uni3d.url == ""  # the url was the arXiv page
    assert uni3d.files == ["pdf “zhang2023uni3d.pdf”"] and uni3d.pdf_url == ""
    assert uni3d.source_fields == {"adlab": "true"}
    # the second "yuan2023ad" is another paper: read, without the key
    adpt = by_title["AD-PT: Autonomous Driving Pre-Training with Large-scale Point Cloud Dataset"]
    assert adpt.citation_key == "" and not adpt.problems
    eccv = next(p for p in plans if p.record.citation_key == "li2022homogeneous")
    assert eccv.candidate.container_title.startswith("Computer Vision–ECCV 2022: 17th European")
    assert (eccv.candidate.venue.short_name, eccv.candidate.venue.name) == ("ECCV", "")
    hybrid = next(p for p in plans if p.record.citation_key == "cai2023hybrid")
    assert hybrid.candidate.venue.short_name == "J. Intell. Connect. Veh."  # no <br>


def test_each_paper_keeps_its_own_proceedings_title_after_import():
    importing.apply(_plans(DATA / "0x404-papers.bib"))

    icse = Publication.objects.filter(venue__short_name="ICSE").order_by("date")
    assert [p.container_name for p in icse] == [
        "Proceedings of the IEEE/ACM 47th International Conference on Software Engineering (ICSE)",
        "Proceedings of the IEEE/ACM 48th International Conference on Software Engineering (ICSE)",
        "Proceedings of the IEEE/ACM 48th International Conference on Software Engineering (ICSE)",
    ]
    assert icse[0].venue.name == "IEEE/ACM International Conference on Software Engineering"


def test_alfolio_template_fields_land_in_their_homes():
    plans = {
        p.record.citation_key: p
        for p in _plans(PEERS / "alfolio-template/_bibliography/papers.bib")
    }

    epr = plans["PhysRev.47.777"].candidate
    assert epr.is_selected and epr.video_url.startswith("https://www.youtube-nocookie.com/")
    roles = [
        (a.family, a.is_equal_contribution, a.is_corresponding)
        for a in plans["PhysRev.47.777"].record.authors
    ]
    assert roles == [("Einstein", True, True), ("Podolsky", True, False), ("Rosen", True, False)]
    assert plans["PhysRev.47.777"].record.files == ["pdf “example_pdf.pdf”"]
    assert {"altmetric", "google_scholar_id", "inspirehep_id", "additional_info"} <= set(
        epr.source_fields
    )
    photo = plans["einstein1905photoelectriceffect"].candidate
    assert photo.award == "Nobel Prize" and "Nobel Prize in Physics" in photo.source_fields["award"]
    assert any("bibtex_show" in d for d in plans["einstein1956investigations"].record.dropped)


def test_others_marks_the_list_incomplete_and_a_long_unnamed_venue_stays_whole():
    (glm, cvpr, _) = _plans(DATA / "20000yshust-papers.bib")

    assert [a.is_unlisted for a in glm.record.authors][-1] is True
    assert all(a.family != "others" for a in glm.record.authors)
    # no short name given, and the name is too long to be one: no venue, nothing cut
    assert cvpr.candidate.venue is None
    title = "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition"
    assert cvpr.candidate.venue_label == f"{title} 2024"


TRICKY = r"""
@INPROCEEDINGS{upper,
  AUTHOR = {*Pang, Ce and ∗Yadav, R. and Ma\textsuperscript{*}, Teng
            and Su$^\dagger$, Z and {76 more}},
  TITLE = {[A+] Scheduling Inter-Datacenter Video Flows (Oral)},
  BookTitle = {Proceedings of the 37th IEEE ICDCS (ICDCS '17)},
  vol = {3},
  page = {1-1},
  number = {ja},
  month = {Sep.},
  year = {2017},
  url = {http://dx.doi.org/10.1109/ICDCS.2017.123},
  note = {[Best Paper]},
}
@article{jats,
  title = {Bounds on <inline-formula><tex-math notation="LaTeX">$\alpha$</tex-math>
    <mml:math><mml:mi>α</mml:mi></mml:math></inline-formula>-Stability (to appear)},
  author = {Ma, Teng and Ren, Feng and others},
  journal = {IEEE Transactions on Networking},
  month = {09--15 Jun},
  year = {2024},
}
@article{twice,
  title = {First Title},
  author = {Ma, Teng},
  title = {Second Title},
  year = {2020},
}
"""


def test_markers_tags_misspellings_and_placeholders_are_read_and_said():
    upper, jats, twice = importing.read_bibtex(TRICKY, "tricky.bib")

    assert [(a.family, a.is_equal_contribution, a.is_corresponding) for a in upper.authors[:4]] == [
        ("Pang", True, False),
        ("Yadav", True, False),
        ("Ma", True, False),
        ("Su", False, True),
    ]
    assert upper.authors[-1].is_unlisted and len(upper.authors) == 5
    assert upper.title == "Scheduling Inter-Datacenter Video Flows"
    assert (upper.note, upper.award) == ("A+; Oral", "Best Paper")
    assert (upper.volume, upper.pages, upper.issue) == ("3", "", "")
    assert upper.date.isoformat() == "2017-09"
    assert upper.doi == "10.1109/icdcs.2017.123" and upper.url == ""
    assert any("“vol” read as volume" in r for r in upper.readings)
    assert any("placeholder" in d for d in upper.dropped)
    assert jats.title == "Bounds on α-Stability"
    assert (jats.status, jats.date.isoformat()) == ("accepted", "2024-06")
    assert twice.choices[0]["field"] == "title" and twice.problems


def test_a_field_given_twice_is_the_admins_pick(admin_client):
    text = (
        "@article{twice, title = {First Title}, author = {Ma, Teng},"
        " title = {Second Title}, year = {2020}}"
    )
    response = admin_client.post("/admin/publications/publication/import/", {"bibtex": text})
    preview = admin_client.get(response["Location"]).content.decode()
    assert "is given 2 times" in preview and "Second Title" in preview

    admin_client.post(response["Location"], {"confirm": "1", "choice-0-0": "1"})

    assert list(Publication.objects.values_list("title", flat=True)) == ["Second Title"]
