"""One way to make initials: the avatar, printed author names and the site icon agree."""

import pytest

from core.names import initials
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
