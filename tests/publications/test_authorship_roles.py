"""Each authorship role is declared once (publications/roles.py): its SQL condition filters
exactly the papers whose author list earns its badge, and its label is what filters show."""

import pytest

from publications import roles
from publications.authors import PROFILE, author_list
from publications.models import Publication
from tests.factories import PersonFactory, authored

pytestmark = pytest.mark.django_db


@pytest.fixture
def papers():
    """A member in every position and combination of flags, with an unlisted row first."""
    member = PersonFactory(name="Teng Ma", slug="teng-ma")
    made = [
        authored(member, ["T Ma", "Y Wang"], at=1),  # first
        authored(member, ["T Ma", "Y Wang"], at=1, co_first=[1, 2]),  # co-first, not "1st"
        authored(member, ["Y Wang", "T Ma"], at=2, corresponding=[2]),  # corresponding
        authored(member, ["Y Wang", "T Ma"], at=2),  # none
        authored(member, ["...", "T Ma"], at=2),  # second row, after unlisted authors
        authored(member, ["Y Wang", "T Ma", "Z Su"], at=2, co_first=[1, 2], corresponding=[2]),
        authored(None, ["T Ma", "Y Wang"], at=0),  # printed alike, not linked: no role
    ]
    return member, made


@pytest.mark.parametrize("role", roles.ROLES, ids=[r.slug for r in roles.ROLES])
def test_the_filter_finds_exactly_the_papers_that_earn_the_badge(papers, role):
    member, _ = papers
    listed = Publication.objects.for_listing()

    badged = {p.pk for p in listed if role.badge in author_list(p, PROFILE, person=member).badges}
    filtered = set(Publication.objects.with_role(role.slug, member).values_list("pk", flat=True))

    assert filtered == badged
    assert filtered  # the fixture gives every role at least one paper


@pytest.mark.parametrize("role", roles.ROLES, ids=[r.slug for r in roles.ROLES])
def test_filters_on_the_profile_and_the_list_use_the_declared_label(client, papers, role):
    profile = client.get(f"/people/teng-ma/?role={role.slug}").content.decode()
    listing = client.get("/publications/").content.decode()

    assert f'<a href="?role={role.slug}#publications" aria-current="true">{role.label} (' in profile
    assert f'<option value="{role.slug}">{role.label}</option>' in listing
