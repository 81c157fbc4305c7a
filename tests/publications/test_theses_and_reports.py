"""A thesis's university and a report's institution and number, in every format and tag
that has a place for them, as each reader reads them: BibTeX's school / institution /
number (biblatex and IEEEtran print them), RIS's PB and SN (where Zotero reads a thesis's
university, a report's institution and number), CSL-JSON's publisher and number (citeproc
prints them), Google Scholar's dissertation and technical-report tags, schema.org, the
paper's page, and the export imported again."""

import json
import re

import bibtexparser
import pytest
import rispy

from publications import importing
from publications.exports import to_bibtex
from publications.models import Publication, Venue
from tests.factories import authored
from tests.publications.test_bibliography_printed_by_tex import _LATEX, _printed, _run, tex
from tests.publications.test_outputs_read_by_consumers import _apa

__all__ = ["tex"]  # the fixture, shared
pytestmark = pytest.mark.django_db


@pytest.fixture
def works(db):
    thesis = authored(
        None,
        ["Teng Ma"],
        at=0,
        title="Memory Disaggregation for Datacenters",
        slug="thesis",
        kind="thesis",
        venue=None,
        publisher="Tsinghua University",
        date="2021-06",
    )
    report = authored(
        None,
        ["Teng Ma", "Zheng Liu"],
        at=0,
        title="A Study of Remote Memory",
        slug="report",
        kind="report",
        venue=None,
        publisher="Alibaba Group",
        issue="TR-2022-07",
        date="2022",
    )
    return thesis, report


def test_bibtex_gives_the_school_the_institution_and_the_number(client, works):
    entries = {
        e.key: e
        for e in bibtexparser.parse_string(
            client.get("/publications/export.bib").content.decode()
        ).entries
    }
    thesis = next(e for e in entries.values() if e.entry_type == "phdthesis")
    report = next(e for e in entries.values() if e.entry_type == "techreport")

    assert thesis["school"] == "Tsinghua University" and "publisher" not in thesis
    assert report["institution"] == "Alibaba Group" and "publisher" not in report
    assert report["number"] == "TR-2022-07"


def test_ris_gives_them_where_zotero_reads_a_university_an_institution_and_a_report_number(
    client, works
):
    records = {
        r["type_of_reference"]: r
        for r in rispy.loads(client.get("/publications/export.ris").content.decode())
    }

    assert records["THES"]["publisher"] == "Tsinghua University"
    assert records["RPRT"]["publisher"] == "Alibaba Group"
    assert records["RPRT"]["issn"] == "TR-2022-07"  # SN: rispy names it after journals
    assert "number" not in records["RPRT"]  # IS is a journal issue, which a report has none of


def test_csl_json_gives_them_and_citeproc_prints_them(client, works):
    items = json.loads(client.get("/publications/export.json").content)
    by_type = {i["type"]: i for i in items}
    references = _apa(items)

    assert by_type["thesis"]["publisher"] == "Tsinghua University"
    assert by_type["report"]["publisher"] == "Alibaba Group"
    assert by_type["report"]["number"] == "TR-2022-07" and "issue" not in by_type["report"]
    assert "Tsinghua University" in references[by_type["thesis"]["id"].lower()]
    printed = references[by_type["report"]["id"].lower()]
    assert "TR-2022-07" in printed and "Alibaba Group" in printed, printed


def test_the_papers_pages_tell_scholar_and_schema_org_the_university_and_the_institution(
    client, works
):
    thesis = client.get("/publications/thesis/").content.decode()
    report = client.get("/publications/report/").content.decode()

    assert '<meta name="citation_dissertation_institution" content="Tsinghua University">' in thesis
    assert '<meta name="citation_technical_report_institution" content="Alibaba Group">' in report
    assert '<meta name="citation_technical_report_number" content="TR-2022-07">' in report
    assert 'name="citation_issue"' not in report and 'name="citation_publisher"' not in thesis
    data = json.loads(re.search(r'application/ld\+json">(.*?)</script>', report, re.S)[1])
    assert data["sourceOrganization"]["name"] == "Alibaba Group"
    assert data["reportNumber"] == "TR-2022-07"
    venue_line = re.search(r'<p class="paper__venue">(.*?)</p>', thesis, re.S)[1]
    assert "Tsinghua University" in venue_line


def test_the_export_imported_again_keeps_the_school_institution_and_number(works):
    exported = to_bibtex(Publication.objects.for_listing())
    Publication.objects.all().delete()
    Venue.objects.all().delete()
    importing.apply(importing.plan(importing.read_bibtex(exported, "export.bib")))

    thesis = Publication.objects.get(kind="thesis")
    report = Publication.objects.get(kind="report")
    assert thesis.publisher_name == "Tsinghua University"
    assert (report.publisher_name, report.issue) == ("Alibaba Group", "TR-2022-07")


@pytest.mark.parametrize("style", ["biblatex", "IEEEtran"])
def test_tex_prints_the_school_the_institution_and_the_number(tex, client, works, tmp_path, style):
    (tmp_path / "lab.bib").write_text(client.get("/publications/export.bib").content.decode())
    if style == "biblatex":
        packages = r"\usepackage[backend=biber]{biblatex}\addbibresource{lab.bib}"
        bibliography, tool = r"\printbibliography", "biber"
    else:
        packages, bibliography = "", r"\bibliographystyle{IEEEtran}\bibliography{lab}"
        tool = "bibtex"
    (tmp_path / "paper.tex").write_text(
        _LATEX % {"packages": packages, "bibliography": bibliography}
    )
    _run(["pdflatex", "-interaction=nonstopmode", "paper"], tmp_path)
    code, log = _run([tool, "paper"], tmp_path)
    assert code == 0 and not re.search(r"warn", log, re.I), log
    _run(["pdflatex", "-interaction=nonstopmode", "paper"], tmp_path)
    _run(["pdflatex", "-interaction=nonstopmode", "paper"], tmp_path)
    printed = _printed(tmp_path, "paper")

    assert "Tsinghua University" in printed and "Alibaba Group" in printed, printed
    assert "TR-2022-07" in printed.replace("- ", "-"), printed  # broken at its hyphen
