"""The person editor fits the task: its sections listed at the top and folded until opened,
and a failed save lists every error at the top, each linked to its field."""

import pytest

from tests import factories
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db


def test_the_sections_are_listed_at_the_top_with_their_counts_and_folded(admin_client, person):
    factories.ContributionFactory.create_batch(3, person=person)

    html = admin_client.get(f"/admin/people/person/{person.pk}/change/").content.decode()

    start = html.index('class="section-nav')
    nav = html[start : html.index("</nav>", start)]
    assert (
        '<a href="#contributions-group">Open-source contributions '
        '<span class="section-nav__count">3</span></a>'
    ) in nav
    assert "+ Add open-source contribution" in nav
    assert f"/admin/talks/talk/?member={person.slug}" in nav  # talks have their own pages
    group = html[html.index('id="contributions-group"') :]
    assert group.index("<details>") < group.index("contributions-0-title")


def test_a_failed_save_lists_each_error_at_the_top_with_a_link_to_it(admin_client, person):
    url = f"/admin/people/person/{person.pk}/change/"
    data = form_data(
        admin_client.get(url),
        name="",
        **{
            "links-TOTAL_FORMS": "1",
            "links-0-kind": "homepage",
            "links-0-url": "javascript:alert(1)",
            "links-0-order": "0",
        },
    )

    html = admin_client.post(url, data).content.decode()

    start = html.index('class="error-summary"')
    summary = html[start : html.index("</ul>", start)]
    assert '<a href="#id_name">Name</a>: This field is required.' in summary
    assert '<a href="#id_links-0-url">Links, row 1: URL</a>' in summary
    assert html.index("error-summary") < html.index('id="id_name"')
    # the section holding the error is shown open
    group = html[html.index('id="links-group"') :]
    assert "<details>" not in group[: group.index("links-0-url")]
