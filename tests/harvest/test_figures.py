"""Figures that stay true: a full harvest reads the lab's citation counts again (each reading
kept as history) and the GitHub stars of projects naming a repository; the profile says
where and when they were read."""

import datetime
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from publications.models import CitationReading, Publication
from tests.factories import ProjectFactory, authored

pytestmark = pytest.mark.django_db
DATA = Path(__file__).parent / "data"


def counts(services, by_year=None, **by_doi):
    """OpenAlex's answer for the DOIs' counts; `by_year`: {doi: [(year, cited that year)]}."""
    services.counts_file.write_text(
        json.dumps(
            {
                "meta": {"count": len(by_doi)},
                "results": [
                    {
                        "doi": f"https://doi.org/{doi.replace('_', '/')}",
                        "cited_by_count": n,
                        "counts_by_year": [
                            {"year": year, "cited_by_count": cited}
                            for year, cited in (by_year or {}).get(doi, [])
                        ],
                    }
                    for doi, n in by_doi.items()
                ],
            }
        )
    )


def harvest_on(day, monkeypatch):
    monkeypatch.setattr("django.utils.timezone.localdate", lambda *a: day)
    call_command("harvest", stdout=io.StringIO(), stderr=io.StringIO())


@pytest.fixture
def papers(piwowar):
    """Two of the member's papers in the lab, with DOIs."""
    return [
        authored(
            piwowar,
            names=("Heather A. Piwowar", "Todd Vision"),
            at=1,
            title=f"Paper {n}",
            doi=f"10.1234/paper.{n}",
            kind=Publication.Kind.JOURNAL,
        )
        for n in (1, 2)
    ]


def test_a_harvest_reads_the_counts_and_a_later_one_adds_a_history_point(
    services, piwowar, papers, client, monkeypatch
):
    counts(services, **{"10.1234_paper.1": 40, "10.1234_paper.2": 3})
    harvest_on(datetime.date(2026, 12, 2), monkeypatch)
    page = client.get("/people/heather-piwowar/").content.decode()
    assert "43" in page and "OpenAlex · 2 Dec 2026" in page

    counts(services, **{"10.1234_paper.1": 52, "10.1234_paper.2": 5})
    harvest_on(datetime.date(2026, 12, 9), monkeypatch)

    papers[0].refresh_from_db()
    assert (papers[0].citation_count, papers[0].citations_source) == (52, "OpenAlex")
    assert papers[0].citations_read_on == datetime.date(2026, 12, 9)
    history = CitationReading.objects.filter(publication=papers[0]).values_list("read_on", "count")
    assert list(history) == [(datetime.date(2026, 12, 2), 40), (datetime.date(2026, 12, 9), 52)]
    page = client.get("/people/heather-piwowar/").content.decode()
    assert "57" in page and "OpenAlex · 9 Dec 2026" in page
    assert "h-index" in page


def test_a_count_typed_by_an_admin_is_kept_but_the_reading_is_still_recorded(
    services, piwowar, papers, monkeypatch
):
    papers[0].citation_count, papers[0].citations_read_on = 99, datetime.date(2026, 1, 1)
    papers[0].citations_source = "Google Scholar"
    papers[0].save()
    counts(services, **{"10.1234_paper.1": 40})

    harvest_on(datetime.date(2026, 12, 2), monkeypatch)

    papers[0].refresh_from_db()
    assert (papers[0].citation_count, papers[0].citations_source) == (99, "Google Scholar")
    assert CitationReading.objects.get(publication=papers[0]).count == 40


def test_stars_of_a_project_naming_a_repository_are_read_with_their_date(
    services, piwowar, monkeypatch, client
):
    project = ProjectFactory(
        person=piwowar,
        url="https://github.com/octocat/Hello-World",
        figure="5K+",
        figure_label="GitHub stars",
    )
    loc = ProjectFactory(
        person=piwowar,
        url="https://github.com/octocat/Hello-World",
        figure="6K+",
        figure_label="LOC",
    )

    harvest_on(datetime.date(2026, 12, 2), monkeypatch)

    project.refresh_from_db()
    loc.refresh_from_db()
    assert (project.figure, project.figure_label) == ("80", "GitHub stars")
    assert project.figure_read_on.isoformat() == "2026-12-02"
    assert project.figure_source == "https://github.com/octocat/Hello-World"
    assert loc.figure == "6K+"  # a figure that counts something else is the admin's
    page = client.get("/people/heather-piwowar/").content.decode()
    assert "80 GitHub stars" in page


def test_the_profile_leaves_out_a_source_no_count_names(piwowar, client):
    authored(
        piwowar,
        names=("Heather A. Piwowar",),
        at=1,
        citation_count=7,
        citations_read_on=datetime.date(2026, 3, 1),
    )

    page = client.get("/people/heather-piwowar/").content.decode()

    assert "· 1 Mar 2026" not in page  # no source: no "OpenAlex · date" label is made up


def test_the_profile_charts_the_citations_read_over_the_years(
    services, piwowar, papers, client, monkeypatch
):
    counts(services, **{"10.1234_paper.1": 30, "10.1234_paper.2": 2})
    harvest_on(datetime.date(2025, 6, 1), monkeypatch)
    page = client.get("/people/heather-piwowar/").content.decode()
    assert "Citations as read by the end of each year" not in page  # one year: no chart yet

    counts(services, **{"10.1234_paper.1": 52, "10.1234_paper.2": 5})
    harvest_on(datetime.date(2026, 12, 9), monkeypatch)

    page = client.get("/people/heather-piwowar/").content.decode()
    assert "Citations as read by the end of each year: 2025: 32, 2026: 57" in page


def test_a_new_sites_first_harvest_charts_the_citation_history_openalex_gives(
    services, piwowar, papers, client, monkeypatch
):
    # OpenAlex lists the citations each year brought (newest first, as it answers)
    history = {
        "10.1234_paper.1": [(2026, 10), (2025, 12), (2024, 8)],
        "10.1234_paper.2": [(2026, 1), (2025, 2)],
    }
    counts(services, history, **{"10.1234_paper.1": 30, "10.1234_paper.2": 3})

    harvest_on(datetime.date(2026, 6, 1), monkeypatch)

    page = client.get("/people/heather-piwowar/").content.decode()
    # paper 1: 30 now, 20 by the end of 2025, 8 by 2024's; paper 2: 3 now, 2, 0
    assert "Citations as read by the end of each year: 2024: 8, 2025: 22, 2026: 33" in page
    readings = CitationReading.objects.filter(publication=papers[0]).order_by("read_on")
    assert [(r.read_on.isoformat(), r.count) for r in readings] == [
        ("2024-12-31", 8),
        ("2025-12-31", 20),
        ("2026-06-01", 30),
    ]


def test_the_first_harvest_shows_openalexs_real_counts_with_their_source_and_date(
    services, piwowar, client, monkeypatch
):
    # The lab moved in with two of the member's papers; OpenAlex answers for their DOIs as
    # it answered for the member's works (the recorded answer: counts and counts_by_year).
    for doi in ("10.7717/peerj.4375", "10.1371/journal.pone.0000308"):
        authored(piwowar, names=("Heather A. Piwowar",), at=1, doi=doi, kind="journal")
    recorded = [DATA / "openalex-works-1.json", DATA / "openalex-works-2.json"]
    works = [w for path in recorded for w in json.loads(path.read_text())["results"]]
    services.counts_file.write_text(json.dumps({"meta": {"count": 2}, "results": works}))

    harvest_on(datetime.date(2026, 6, 1), monkeypatch)

    page = client.get("/people/heather-piwowar/").content.decode()
    # 1580 + 1267 read now; 1479 by the end of 2025 (1580 less 2026's 101)
    assert "2847" in page and "OpenAlex · 1 Jun 2026" in page
    assert "Citations as read by the end of each year: 2025: 1479, 2026: 2847" in page
    assert "Citations, as read each year (OpenAlex · 1 Jun 2026)" in page
    page = client.get("/zh-hans/people/heather-piwowar/").content.decode()
    assert "2025: 1479, 2026: 2847" in page and "(OpenAlex · 2026" in page


def test_a_later_harvest_adds_a_reading_and_rewrites_no_history(
    services, piwowar, papers, monkeypatch
):
    history = {"10.1234_paper.1": [(2025, 12), (2024, 8)]}
    counts(services, history, **{"10.1234_paper.1": 20})
    harvest_on(datetime.date(2026, 6, 1), monkeypatch)
    counts(services, {"10.1234_paper.1": [(2026, 40), (2025, 99)]}, **{"10.1234_paper.1": 60})

    harvest_on(datetime.date(2026, 9, 1), monkeypatch)

    readings = CitationReading.objects.filter(publication=papers[0]).order_by("read_on")
    assert [r.count for r in readings] == [8, 20, 20, 60]


def test_citations_by_year_carries_a_paper_not_read_again():
    from publications.figures import citations_by_year

    readings = [
        (1, datetime.date(2024, 3, 1), 10),
        (2, datetime.date(2024, 9, 1), 4),
        (1, datetime.date(2026, 2, 1), 25),
    ]

    assert citations_by_year(readings) == [(2024, 14), (2025, 14), (2026, 29)]


def test_a_second_reading_the_same_day_keeps_the_days_row_and_takes_the_new_count(
    services, piwowar, papers, monkeypatch
):
    day = datetime.date(2026, 12, 2)
    counts(services, **{"10.1234_paper.1": 40, "10.1234_paper.2": 3})
    harvest_on(day, monkeypatch)
    first = {r.publication_id: r.pk for r in CitationReading.objects.filter(read_on=day)}
    counts(services, **{"10.1234_paper.1": 41, "10.1234_paper.2": 3})

    harvest_on(day, monkeypatch)

    again = CitationReading.objects.filter(read_on=day)
    assert {r.publication_id: r.pk for r in again} == first  # no reading deleted and re-made
    assert {r.publication_id: r.count for r in again} == {papers[0].pk: 41, papers[1].pk: 3}
