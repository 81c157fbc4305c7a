"""Venues of imported papers: matched by identifiers, then names and aliases; never guessed;
new ones flagged; merged without losing a paper."""

import pytest

from publications import importing
from publications.models import Publication, Venue
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def venues(db):
    return {
        "asplos": factories.VenueFactory(
            short_name="ASPLOS",
            name="ACM International Conference on Architectural Support for Programming "
            "Languages and Operating Systems",
        ),
        "tocs": factories.VenueFactory(
            short_name="ACM TOCS",
            name="ACM Transactions on Computer Systems",
            kind=Venue.Kind.JOURNAL,
        ),
        "pvldb": factories.VenueFactory(
            short_name="VLDB",
            name="International Conference on Very Large Data Bases",
            aliases="PVLDB\nProceedings of the VLDB Endowment",
            dblp_key="journals/pvldb",
        ),
        "osdi": factories.VenueFactory(
            short_name="OSDI",
            name="USENIX Symposium on Operating Systems Design and Implementation",
            dblp_key="conf/osdi",
        ),
        "arxiv": factories.VenueFactory(
            short_name="arXiv", name="arXiv", kind=Venue.Kind.PREPRINT, aliases="CoRR"
        ),
    }


def _venue_of(bibtex):
    (plan,) = importing.plan(importing.read_bibtex(bibtex))
    assert plan.action == importing.NEW, plan.problems
    return plan.candidate.venue, plan.new_venue


def _entry(kind, where, venue, key="x", extra=""):
    return (
        f"@{kind}{{{key}, title={{A Paper}}, author={{Doe, Jane}}, year={{2024}},"
        f" {where}={{{venue}}}{extra}}}"
    )


@pytest.mark.parametrize(
    ("venue_text", "expected"),
    [
        # A booktitle ending in the acronym without a year (it made a new venue, cut off).
        (
            "Proceedings of the 28th ACM International Conference on Architectural Support "
            "for Programming Languages and Operating Systems, Volume 2 (ASPLOS)",
            "asplos",
        ),
        ("ASPLOS '23", "asplos"),
        ("Proceedings of the VLDB Endowment", "pvldb"),
        ("Proc. 18th USENIX Symposium on Operating Systems Design and Implementation", "osdi"),
    ],
)
def test_booktitles_and_full_names_match_existing_venues(venues, venue_text, expected):
    venue, new = _venue_of(_entry("inproceedings", "booktitle", venue_text))

    assert venue == venues[expected] and new is None


def test_a_journal_full_name_matches_and_is_never_abbreviated_by_guess(venues):
    venue, new = _venue_of(_entry("article", "journal", "ACM Transactions on Computer Systems"))

    assert venue == venues["tocs"] and new is None  # not a new "ACM TCS"


def test_a_dblp_entry_matches_by_its_venue_key(venues):
    venue, _ = _venue_of(_entry("inproceedings", "booktitle", "OSDI", key="DBLP:conf/osdi/QinL24"))

    assert venue == venues["osdi"]


def test_an_unknown_venue_is_new_named_as_the_source_names_it_and_flagged(venues):
    venue, new = _venue_of(
        _entry("inproceedings", "booktitle", "Proceedings of the Workshop on Cool Things (WCT '24)")
    )

    assert new is venue and venue.pk is None
    assert (venue.short_name, venue.name) == ("WCT", "Workshop on Cool Things")


@pytest.mark.parametrize(
    "bibtex",
    [
        "@misc{x, title={P}, author={Doe, Jane}, year={2024}, eprint={2407.00079},"
        " archivePrefix={arXiv}}",
        "@article{x, title={P}, author={Doe, Jane}, year={2024},"
        " journal={arXiv preprint arXiv:2407.00079}}",
        "@article{DBLP:journals/corr/abs-2407-00079, title={P}, author={Doe, Jane},"
        " year={2024}, journal={CoRR}, volume={abs/2407.00079}, eprinttype={arXiv},"
        " eprint={2407.00079}}",
    ],
)
def test_an_arxiv_preprint_gets_the_arxiv_venue_and_its_id(venues, bibtex):
    (plan,) = importing.plan(importing.read_bibtex(bibtex))
    importing.apply([plan])

    paper = Publication.objects.get()
    assert paper.venue == venues["arxiv"]
    assert (paper.kind, paper.status, paper.arxiv_id) == ("preprint", "preprint", "2407.00079")
    assert paper.venue_label == "arXiv 2024"


def test_the_bibtex_key_is_kept_and_used_on_export(client, venues):
    bibtex = _entry("inproceedings", "booktitle", "ASPLOS '23", key="ma2023scheduler")
    importing.apply(importing.plan(importing.read_bibtex(bibtex)))

    paper = Publication.objects.get()
    assert paper.bibtex_key == "ma2023scheduler"
    assert (
        "@inproceedings{ma2023scheduler," in client.get("/publications/export.bib").content.decode()
    )


def test_merging_two_venues_keeps_every_paper_and_learns_the_name(admin_client, venues):
    bibtex = _entry("inproceedings", "booktitle", "Symposium on Cool Systems (SCS '24)")
    importing.apply(importing.plan(importing.read_bibtex(bibtex)))
    imported = Venue.objects.get(short_name="SCS")
    lab = factories.VenueFactory(short_name="CoolSys", name="Cool Systems Symposium")
    factories.PublicationFactory.create_batch(3, venue=lab)
    ids = [imported.pk, lab.pk]

    page = admin_client.post(
        "/admin/publications/venue/", {"action": "merge_venues", "_selected_action": ids}
    )
    admin_client.post(
        "/admin/publications/venue/",
        {"action": "merge_venues", "_selected_action": ids, "keep": lab.pk, "merge": "1"},
    )

    assert "Merge venues" in page.content.decode()
    assert not Venue.objects.filter(pk=imported.pk).exists()
    assert Publication.objects.filter(venue=lab).count() == 4
    lab.refresh_from_db()
    assert "SCS" in lab.names()
    again, _ = _venue_of(bibtex.replace("A Paper", "Another Paper"))
    assert again == lab
