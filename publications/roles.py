"""Authorship roles, declared once: the word for each in a filter, the badge it earns on a
paper, and how it is found, in SQL (to filter lists) and in Python (to badge an author
list). Change a role here and the filters, badges and labels change together."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Role:
    slug: str  # in addresses: ?role=first
    label: "str | Promise"  # in a filter: "First author" (lazy: in the page's language)
    badge: "str | Promise"  # beside a paper: "1st Author" ("第一作者")
    condition: Q  # publications where some authorship holds the role, through "authorships"
    holds: Callable  # holds(rows, row): whether `row` of the ordered `rows` holds the role


ROLES = (
    Role(
        "first",
        _("First author"),
        _("1st Author"),
        Q(authorships__position=1, authorships__is_equal_contribution=False),
        lambda rows, row: row is rows[0] and not row.is_equal_contribution,
    ),
    Role(
        "co-first",
        _("Co-first"),
        _("Co-first"),
        Q(authorships__is_equal_contribution=True),
        lambda rows, row: row.is_equal_contribution,
    ),
    Role(
        "corresponding",
        _("Corresponding"),
        _("Corresponding"),
        Q(authorships__is_corresponding=True),
        lambda rows, row: row.is_corresponding,
    ),
)
BY_SLUG = {role.slug: role for role in ROLES}
CHOICES = [(role.slug, role.label) for role in ROLES]


def held_by(rows: Sequence[Any], person: Any) -> frozenset[str]:
    """The slugs of the roles `person` holds on the ordered author `rows`, found by person
    link (never by printed name): what earns them their badges."""
    if person is None:
        return frozenset()
    own = [row for row in rows if not row.is_unlisted and row.person_id == person.pk]
    return frozenset(role.slug for role in ROLES if any(role.holds(rows, row) for row in own))
