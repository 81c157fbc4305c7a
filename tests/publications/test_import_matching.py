"""Recognising lab members in imported author lists: ORCID first, then name variants,
and never a guess between two people."""

import pytest

from publications import importing
from publications.importing import AuthorRecord, Record
from tests.factories import PersonFactory

pytestmark = pytest.mark.django_db


def _match(*authors):
    record = Record(label="test", title="A Paper", authors=list(authors))
    importing.plan([record])
    return record.authors


def test_orcid_wins_over_the_printed_name():
    PersonFactory(name="Teng Ma", slug="teng-ma")
    feng = PersonFactory(name="Feng Ren", slug="feng-ren", orcid="0009-0006-3599-4086")

    (author,) = _match(AuthorRecord(given="T", family="Ma", orcid="0009-0006-3599-4086"))

    assert author.person == feng


@pytest.mark.parametrize(
    ("given", "family"),
    [
        ("Teng", "Ma"),
        ("T.", "Ma"),
        ("T", "Ma"),
        ("TENG", "MA"),
        ("Tèng", "Ma"),
        ("Ma,", "Teng"),
        ("", "马腾"),
    ],
)
def test_name_variants_are_recognised(given, family):
    teng = PersonFactory(name="Teng Ma", native_name="马腾", slug="teng-ma")
    family = family.rstrip(",")

    (author,) = _match(AuthorRecord(given=given, family=family))

    assert author.person == teng


def test_listed_variant_is_recognised():
    teng = PersonFactory(name="Teng Ma", name_variants="Ma Teng-Fei")

    (author,) = _match(AuthorRecord(given="Teng-Fei", family="Ma"))

    assert author.person == teng


def test_a_name_two_members_share_is_flagged_not_guessed():
    teng = PersonFactory(name="Teng Ma", slug="teng-ma")
    tian = PersonFactory(name="Tian Ma", slug="tian-ma")

    (author,) = _match(AuthorRecord(given="T", family="Ma"))

    assert author.person is None
    assert set(author.candidates) == {teng, tian}


def test_two_authors_printed_alike_are_not_both_linked_to_one_member():
    teng = PersonFactory(name="Teng Ma", slug="teng-ma")

    first, second, _ = _match(
        AuthorRecord(given="T", family="Ma"),
        AuthorRecord(given="T", family="Ma"),
        AuthorRecord(given="Z", family="Song"),
    )

    assert first.person is None and second.person is None
    assert first.candidates == second.candidates == [teng]


def test_an_outside_author_is_left_unlinked():
    PersonFactory(name="Teng Ma")

    (author,) = _match(AuthorRecord(given="Ruoyu", family="Qin"))

    assert author.person is None and not author.is_ambiguous
