"""One way to make initials: the avatar, printed author names and the site icon agree."""

import pytest

from core.names import initials, split_name
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("name", "letters"),
    [("Teng Ma", ["T", "M"]), ("Jae-Hyun Kim", ["J", "H", "K"]), ("T. Ma", ["T", "M"]), ("", [])],
)
def test_initials_are_the_first_letter_of_each_part(name, letters):
    assert initials(name) == letters


def test_the_avatar_the_author_list_and_the_name_matcher_use_the_same_initials():
    person = factories.PersonFactory(name="Jae-Hyun Kim")
    paper = factories.authored(person, ["Jae-Hyun Kim"], at=1)

    assert person.initials == "JK"  # first and last part
    assert paper.authorships.get().short_name == "JH Kim"
    assert "jh kim" in person.name_forms()


@pytest.mark.parametrize(
    ("printed", "parts"),
    [
        ("Adrian Del Maestro", ("Adrian", "Del Maestro")),
        ("Luca De Siena", ("Luca", "De Siena")),
        ("Guido van Rossum", ("Guido", "van Rossum")),
        ("Ludwig van der Waals", ("Ludwig", "van der Waals")),
        ("Juan Carlos de la Cruz", ("Juan Carlos", "de la Cruz")),
        ("Abdullah bin Hamid", ("Abdullah", "bin Hamid")),
        ("Mohammed al-Rashid", ("Mohammed", "al-Rashid")),
        ("Jean-Pierre Dupont-Moretti", ("Jean-Pierre", "Dupont-Moretti")),
        ("Del Maestro, Adrian", ("Adrian", "Del Maestro")),
        ("Ma, Teng", ("Teng", "Ma")),  # family-first, marked by the comma
        ("Heather A. Piwowar", ("Heather A.", "Piwowar")),
        ("Martin Luther King, Jr.", ("Martin Luther", "King")),  # the suffix apart
        ("Anh Van Nguyen", ("Anh Van", "Nguyen")),  # a Vietnamese middle name, no particle
        ("Teng Ma", ("Teng", "Ma")),
        ("Ma", ("", "Ma")),
    ],
)
def test_a_printed_name_splits_into_given_and_family_with_particles_kept(printed, parts):
    assert split_name(printed) == parts


def test_a_member_with_a_particle_is_recognised_by_initials_and_family_name():
    person = factories.PersonFactory(name="Adrian Del Maestro")

    assert {"a del maestro", "del maestro, adrian"} <= person.name_forms()
    assert "maestro, adrian del" not in person.name_forms()
