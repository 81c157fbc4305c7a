"""A member's identities at the scholarly services: optional, pasted as an id or a link,
stored as the id, and refused with a clear message when they are not one."""

import pytest
from django.core.exceptions import ValidationError

from tests.factories import PersonFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("field", "pasted", "stored"),
    [
        ("openalex_id", "https://openalex.org/A5023888391", "A5023888391"),
        ("openalex_id", "a5023888391", "A5023888391"),
        ("dblp_pid", "https://dblp.org/pid/130/1022.html", "130/1022"),
        ("dblp_pid", "m/AndrewMcCallum", "m/AndrewMcCallum"),
        (
            "semantic_scholar_id",
            "https://www.semanticscholar.org/author/Andrew-McCallum/143753639",
            "143753639",
        ),
        ("arxiv_author_id", "https://arxiv.org/a/piwowar_h_1.html", "piwowar_h_1"),
        ("github_user", "https://github.com/kvcache-ai", "kvcache-ai"),
    ],
)
def test_an_identity_pasted_as_a_link_is_stored_as_the_id(field, pasted, stored):
    person = PersonFactory.build(**{field: pasted})

    person.full_clean(exclude=["user"])

    assert getattr(person, field) == stored


@pytest.mark.parametrize(
    ("field", "pasted"),
    [
        ("openalex_id", "W2741809807"),  # a work, not an author
        ("dblp_pid", "https://dblp.org/search?q=McCallum"),
        ("semantic_scholar_id", "Andrew McCallum"),
        ("arxiv_author_id", "Piwowar, H"),
        ("github_user", "-bad-"),
    ],
)
def test_something_that_is_not_an_identity_is_refused_with_an_example(field, pasted):
    person = PersonFactory.build(**{field: pasted})

    with pytest.raises(ValidationError) as caught:
        person.full_clean(exclude=["user"])

    assert " id like " in caught.value.message_dict[field][0]


def test_identities_are_optional():
    PersonFactory.build().full_clean(exclude=["user"])
