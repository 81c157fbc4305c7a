"""manage.py import_publications and manage.py refresh_citations."""

import datetime
import io

import pytest
from django.core.management import CommandError, call_command

from publications.management.commands import import_publications, refresh_citations
from publications.models import Publication
from tests.factories import PersonFactory, PublicationFactory
from tests.publications.recorded import DATA, TOS_DOI, RecordedClient

pytestmark = pytest.mark.django_db

SEED = str(DATA / "crossref-mooncake-tos.json")


def _run(*args, client=None, monkeypatch=None):
    if client is not None:
        monkeypatch.setattr(import_publications.Command, "client", client)
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("import_publications", *args, stdout=out, stderr=err)
    except CommandError as error:
        return False, out.getvalue(), err.getvalue() + str(error)
    return True, out.getvalue(), err.getvalue()


def test_import_from_a_crossref_file_prints_a_summary():
    ok, out, _ = _run(SEED)

    assert ok
    assert out.splitlines()[-1] == "1 created, 0 updated, 0 unchanged, 0 failed"
    assert Publication.objects.get().doi == TOS_DOI


def test_importing_again_reports_unchanged():
    _run(SEED)

    ok, out, _ = _run(SEED)

    assert ok and out.splitlines()[-1] == "0 created, 0 updated, 1 unchanged, 0 failed"


def test_dry_run_writes_nothing():
    ok, out, _ = _run("--dry-run", SEED)

    assert ok
    assert "Dry run, nothing written: 1 new" in out
    assert not Publication.objects.exists()


def test_one_invalid_record_means_nothing_is_written_and_a_failing_exit(tmp_path):
    bib = tmp_path / "papers.bib"
    bib.write_text(
        "@article{good, title={Good}, author={A B}, year=2020}\n@article{bad, author={A B}}\n"
    )

    ok, out, err = _run(str(bib))

    assert not ok
    assert "papers.bib, entry “bad”: it has no title" in err
    assert "Nothing written: 0 created" in out
    assert "use --skip-invalid" in err
    assert not Publication.objects.exists()


def test_skip_invalid_writes_the_valid_records_but_still_fails(tmp_path):
    bib = tmp_path / "papers.bib"
    bib.write_text(
        "@article{good, title={Good}, author={A B}, year=2020}\n@article{bad, author={A B}}\n"
    )

    ok, out, _ = _run("--skip-invalid", str(bib))

    assert not ok
    assert out.splitlines()[-1] == "1 created, 0 updated, 0 unchanged, 1 failed"
    assert Publication.objects.get().title == "Good"


def test_dois_are_looked_up_with_the_injected_client(monkeypatch):
    client = RecordedClient()

    ok, _, _ = _run(f"https://doi.org/{TOS_DOI}", client=client, monkeypatch=monkeypatch)

    assert ok and client.requested == [f"https://api.crossref.org/works/{TOS_DOI}"]
    assert Publication.objects.filter(doi=TOS_DOI).exists()


def test_a_doi_crossref_does_not_know_fails_with_its_name(monkeypatch):
    ok, _, err = _run("10.1000/nothing", client=RecordedClient(), monkeypatch=monkeypatch)

    assert not ok
    assert "DOI 10.1000/nothing: https://api.crossref.org/works/10.1000/nothing answered 404" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "is not valid JSON"),
        (b"\xff\xfe\x00", "not UTF-8"),
        (b"x" * (5 * 1024 * 1024 + 1), "at most 5 MB"),
    ],
)
def test_unreadable_files_fail_with_a_message_and_no_traceback(tmp_path, content, message):
    path = tmp_path / "works.json"
    path.write_bytes(content)

    ok, _, err = _run(str(path))

    assert not ok and message in err and "Traceback" not in err


def test_a_source_that_is_neither_file_nor_doi_is_refused():
    ok, _, err = _run("no-such-file.bib")

    assert not ok and "neither a file nor a DOI" in err


def test_long_inputs_show_a_progress_bar(tmp_path, capsys):
    entries = "\n".join(
        f"@article{{k{n}, title={{Paper {n}}}, author={{A B}}, year=2020}}" for n in range(25)
    )
    bib = tmp_path / "many.bib"
    bib.write_text(entries)

    ok, out, _ = _run(str(bib))

    assert ok and out.splitlines()[-1] == "25 created, 0 updated, 0 unchanged, 0 failed"
    assert "] 25/25" in capsys.readouterr().err


def test_orcid_works_of_a_member_are_imported(monkeypatch):
    teng = PersonFactory(name="Teng Ma", slug="teng-ma", orcid="0000-0002-7104-1526")
    doi_id = {"external-id-type": "doi", "external-id-value": TOS_DOI}
    from_crossref = {
        "title": {"title": {"value": "From Crossref"}},
        "type": "journal-article",
        "external-ids": {"external-id": [doi_id]},
    }
    only_on_orcid = {
        "put-code": 7,
        "title": {"title": {"value": "Only On ORCID"}},
        "type": "conference-paper",
        "publication-date": {"year": {"value": "2019"}, "month": {"value": "09"}},
        "journal-title": {"value": "IEEE CLUSTER"},
        "external-ids": {"external-id": []},
    }
    works = {"group": [{"work-summary": [from_crossref]}, {"work-summary": [only_on_orcid]}]}
    client = RecordedClient({"https://pub.orcid.org/v3.0/0000-0002-7104-1526/works": works})

    ok, out, _ = _run("--orcid", "teng-ma", client=client, monkeypatch=monkeypatch)

    assert ok, out
    assert Publication.objects.get(doi=TOS_DOI).authorships.count() == 13
    only = Publication.objects.get(title="Only On ORCID")
    assert only.date.isoformat() == "2019-09"
    assert [(a.person, a.is_unlisted) for a in only.authorships.all()] == [
        (None, True),
        (teng, False),
        (None, True),
    ]


def test_refresh_citations_reads_openalex_in_batches_and_counts_unknown_dois(monkeypatch):
    """A DOI OpenAlex does not know is counted, not a failure: the nightly run exits 0."""
    from publications.importing.citations import openalex_url

    papers = [PublicationFactory(doi=TOS_DOI), PublicationFactory(doi="10.1000/gone")]
    papers += [PublicationFactory(doi=f"10.1000/p{n}") for n in range(60)]
    dois = sorted(p.doi for p in papers)

    def found(batch):
        works = [d for d in batch if d != "10.1000/gone"]
        return {
            "results": [
                {"doi": f"https://doi.org/{d}", "cited_by_count": 40 if d == TOS_DOI else 1}
                for d in works
            ]
        }

    answers = {openalex_url(dois[:50]): found(dois[:50]), openalex_url(dois[50:]): found(dois[50:])}
    client = RecordedClient(answers)
    monkeypatch.setattr(refresh_citations.Command, "client", client)
    out, err = io.StringIO(), io.StringIO()

    call_command("refresh_citations", stdout=out, stderr=err, verbosity=2)

    tos = Publication.objects.get(doi=TOS_DOI)
    assert (tos.citation_count, tos.citations_source) == (40, "OpenAlex")
    assert tos.citations_read_on == datetime.date.today()
    assert len(client.requested) == 2  # 62 DOIs, 50 a request
    assert "61 updated, 0 kept, 1 not found" in out.getvalue()
    assert "1 DOI(s) not on OpenAlex" in out.getvalue()
    assert "DOI 10.1000/gone: not found on OpenAlex" in out.getvalue()
    assert err.getvalue() == ""


def test_refresh_citations_keeps_a_count_typed_by_hand(monkeypatch):
    from publications.importing.citations import openalex_url

    paper = PublicationFactory(doi=TOS_DOI)
    paper.citation_count, paper.citations_read_on = 680, datetime.date(2026, 1, 1)
    paper.citations_source = "Google Scholar"
    paper.save()
    answer = {"results": [{"doi": f"https://doi.org/{TOS_DOI}", "cited_by_count": 27}]}
    monkeypatch.setattr(
        refresh_citations.Command, "client", RecordedClient({openalex_url([TOS_DOI]): answer})
    )
    out = io.StringIO()

    call_command("refresh_citations", stdout=out)

    paper.refresh_from_db()
    assert (paper.citation_count, paper.citations_source) == (680, "Google Scholar")
    assert "kept the count typed by hand" in out.getvalue()


def test_a_citation_refresh_changes_no_kind_or_status_of_imported_papers(monkeypatch):
    """A refresh brings counts alone: the kind and status it does not state are no values,
    so imported papers keep theirs (a journal article became "other", a preprint
    "published", on every refresh before)."""
    from publications.importing.citations import openalex_url

    article = PublicationFactory(
        doi=TOS_DOI, kind=Publication.Kind.JOURNAL, status=Publication.Status.PUBLISHED
    )
    preprint = PublicationFactory(
        doi="10.48550/arxiv.2401.00001",
        kind=Publication.Kind.PREPRINT,
        status=Publication.Status.PREPRINT,
    )
    for paper in (article, preprint):  # as an import leaves them: its values remembered
        paper.imported_values = {"kind": paper.kind, "status": paper.status}
        paper.save()
    dois = sorted([article.doi, preprint.doi])
    answer = {"results": [{"doi": f"https://doi.org/{d}", "cited_by_count": 5} for d in dois]}
    monkeypatch.setattr(
        refresh_citations.Command, "client", RecordedClient({openalex_url(dois): answer})
    )

    call_command("refresh_citations", stdout=io.StringIO())

    article.refresh_from_db()
    preprint.refresh_from_db()
    assert (article.kind, article.status, article.citation_count) == ("journal", "published", 5)
    assert (preprint.kind, preprint.status, preprint.citation_count) == ("preprint", "preprint", 5)
