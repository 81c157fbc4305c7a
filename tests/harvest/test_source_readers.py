"""Each reader on its service's own documented sample (tests/harvest/data/SOURCES.md)."""

import json
from pathlib import Path

import pytest

from harvest.sources import arxiv, dblp, openalex
from publications.models import Publication

DATA = Path(__file__).parent / "data"


class FileClient:
    def __init__(self, name):
        self.text = (DATA / name).read_text()

    def get_text(self, url, headers=None):
        return self.text


class Who:
    dblp_pid = "m/AndrewMcCallum"
    arxiv_author_id = "prendergast_d_1"
    name = "Someone"


def test_dblps_person_record_reads_a_conference_paper_with_its_doi_and_venue_key():
    warnings = []

    (found,) = dblp.works(Who(), FileClient("dblp-mccallum.xml"), warnings.append)

    record = found.record
    assert found.source_id == "conf/acl/ChangSRM23"
    assert record.title == "Multi-CLS BERT: An Efficient Alternative to Traditional Ensembling"
    assert (record.kind, record.doi, record.pages) == (
        "conference",
        "10.18653/v1/2023.acl-long.48",
        "821–854",
    )
    assert (record.venue_short, record.venue_key, record.date.year) == ("ACL (1)", "conf/acl", 2023)
    assert [f"{a.given} {a.family}" for a in record.authors][-1] == "Andrew McCallum"
    assert warnings == []


def test_the_arxiv_manuals_entry_is_a_preprint_naming_its_journal_version():
    (found,) = arxiv.works(Who(), FileClient("arxiv-api-sample.atom"), print)

    record = found.record
    assert found.source_id == "cond-mat/0102536"
    assert (record.kind, record.status, record.venue_name) == (
        "preprint",
        Publication.Status.PREPRINT,
        "arXiv",
    )
    assert found.published_doi == "10.1063/1.1383585"
    assert record.doi == ""  # the journal's DOI names the other version, not this one
    # ...and is kept with the preprint, with arXiv's reference to it
    assert record.source_fields == {
        "journal_doi": "10.1063/1.1383585",
        "journal_ref": "J. Chem. Phys. 115, 1626 (2001)",
    }
    assert [a.family for a in record.authors] == ["Prendergast", "Nolan", "Greer"]
    assert record.date.isoformat() == "2001-02"


def test_openalex_reads_the_documentation_example_work():
    work = json.loads((DATA / "openalex-works-1.json").read_text())["results"][0]

    found = openalex.read_work(work, print)

    record = found.record
    assert found.source_id == "W2741809807"
    assert (record.doi, record.kind, record.venue_name, record.issns) == (
        "10.7717/peerj.4375",
        "journal",
        "PeerJ",
        ["2167-8359"],
    )
    assert record.authors[0].orcid == "0000-0003-1613-5981" and record.authors[0].is_corresponding


@pytest.mark.parametrize(
    "garbage",
    [
        "",
        "<html>",
        "<dblpperson><r><article/></r></dblpperson>",
        "<!DOCTYPE x [<!ENTITY a SYSTEM 'file:///etc/passwd'>]><dblpperson>&a;</dblpperson>",
    ],
)
def test_garbage_from_dblp_is_a_problem_or_nothing_never_a_crash(garbage):
    from publications.importing.records import ImportProblem

    class Garbage(FileClient):
        def __init__(self):
            self.text = garbage

    warnings = []
    try:
        found = dblp.works(Who(), Garbage(), warnings.append)
    except ImportProblem:
        return
    assert found == []


def test_every_reader_splits_a_capitalized_particle_into_the_family_name():
    feed = (DATA / "arxiv-api-sample.atom").read_text().replace("M. Nolan", "C. Del Maestro")
    xml = (DATA / "dblp-mccallum.xml").read_text().replace("Andrew McCallum", "Luca De Siena")
    work = json.loads((DATA / "openalex-works-1.json").read_text())["results"][0]
    work["authorships"][0]["raw_author_name"] = "Adrian Del Maestro"

    class Text(FileClient):
        def __init__(self, text):
            self.text = text

    (from_arxiv,) = arxiv.works(Who(), Text(feed), print)
    (from_dblp,) = dblp.works(Who(), Text(xml), print)
    from_openalex = openalex.read_work(work, print)

    assert [a.family for a in from_arxiv.record.authors] == ["Prendergast", "Del Maestro", "Greer"]
    assert (from_dblp.record.authors[-1].given, from_dblp.record.authors[-1].family) == (
        "Luca",
        "De Siena",
    )
    assert (from_openalex.record.authors[0].given, from_openalex.record.authors[0].family) == (
        "Adrian",
        "Del Maestro",
    )


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("Momentum in S&amp;P500 returns", "Momentum in S&P500 returns"),
        ("Momentum in S&amp;amp;P500 returns", "Momentum in S&P500 returns"),
        (
            'Spectra of <mml:math xmlns:mml="http://www.w3.org/1998/Math/MathML"><mml:msub>'
            "<mml:mi>MoS</mml:mi><mml:mn>2</mml:mn></mml:msub></mml:math> layers",
            "Spectra of MoS2 layers",
        ),
        ("&lt;i&gt;Escherichia coli&lt;/i&gt; growth", "Escherichia coli growth"),
        (r"Spin-$\frac{1}{2}$ chains and $\alpha$-helices", "Spin-1/2 chains and α-helices"),
        ("Prices of $5 and $10", "Prices of $5 and $10"),
    ],
)
def test_openalex_and_arxiv_titles_reach_the_page_as_clean_text(written, shown):
    work = json.loads((DATA / "openalex-works-1.json").read_text())["results"][0]
    work["title"] = written
    escaped = written.replace("&", "&amp;").replace("<", "&lt;")
    feed = (DATA / "arxiv-api-sample.atom").read_text()
    feed = feed.replace(
        "Impact of Electron-Electron Cusp on Configuration Interaction Energies", escaped
    )

    class Text(FileClient):
        def __init__(self, text):
            self.text = text

    (from_arxiv,) = arxiv.works(Who(), Text(feed), print)

    assert openalex.read_work(work, print).record.title == shown
    assert from_arxiv.record.title == shown


@pytest.mark.parametrize(
    ("written", "named"),
    [
        ("arXiv (Cornell University)", "arXiv"),
        ("Research Square (Research Square)", "Research Square"),
        ("bioRxiv (Cold Spring Harbor Laboratory)", "bioRxiv"),
        ("SSRN Electronic Journal", "SSRN"),
        ("", "arXiv"),  # no server named, but an arXiv id
    ],
)
def test_a_preprint_server_is_named_one_way_whatever_the_source_wrote(written, named):
    work = json.loads((DATA / "openalex-works-1.json").read_text())["results"][0]
    work["type"] = "preprint"
    work["doi"] = "https://doi.org/10.48550/arXiv.2401.00001"
    work["primary_location"]["source"]["display_name"] = written

    record = openalex.read_work(work, print).record

    assert (record.kind, record.venue_name) == ("preprint", named)


def test_a_work_with_an_unreadable_year_comes_in_without_it_and_the_report_names_it():
    xml = (DATA / "dblp-mccallum.xml").read_text().replace("<year>2023</year>", "<year>0</year>")
    warnings = []

    class Text(FileClient):
        def __init__(self):
            self.text = xml

    (found,) = dblp.works(Who(), Text(), warnings.append)

    assert found.record.title.startswith("Multi-CLS BERT") and found.record.date is None
    assert warnings == ["DBLP conf/acl/ChangSRM23: kept without its date: unreadable year “0”"]


@pytest.mark.parametrize(
    ("work_type", "kind", "skipped"),
    [
        ("review", "journal", ""),  # a review article in a journal
        ("letter", "journal", ""),
        ("peer-review", "", "peer-review"),  # a referee report: counted, not harvested
        ("paratext", "", "paratext"),
        ("erratum", "", "erratum"),
    ],
)
def test_openalex_kinds_map_to_papers_or_are_skipped_by_name(work_type, kind, skipped):
    work = json.loads((DATA / "openalex-works-1.json").read_text())["results"][0]
    work["type"] = work_type

    found = openalex.read_work(work, print)

    assert (found.record.kind, found.skipped) == (kind, skipped)
