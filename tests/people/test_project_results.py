"""A project's results as data, and the papers and talks it links, on the profile and in the
admin (where a member links only work they are credited on)."""

import pytest

from core.partial_dates import PartialDate
from tests import factories
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db


def test_results_are_listed_with_what_they_measure_and_only_the_facts_given(client, person):
    project = factories.ProjectFactory(person=person, name="Mooncake")
    factories.ProjectResultFactory(
        project=project,
        value="5,126",
        measure="tok/s per GPU in decoding",
        context="vs. 2,345 for vLLM",
        date=PartialDate(2025, 6),
        source_url="https://example.org/report",
        order=0,
    )
    factories.ProjectResultFactory(project=project, value="+46.7%", measure="throughput", order=1)

    html = client.get("/people/teng-ma/").content.decode()
    card = html[html.index("Mooncake") :]

    assert '<strong class="results__value">5,126</strong> tok/s per GPU in decoding' in card
    assert "(vs. 2,345 for vLLM)" in card and "Jun 2025" in card
    assert '<a href="https://example.org/report">source</a>' in card
    # the second states no context, date or source: nothing stands in for them
    second = card[card.index("+46.7%") : card.index("</li>", card.index("+46.7%"))]
    assert second == "+46.7%</strong> throughput"


def test_a_project_lists_its_public_papers_and_published_talks(client, person):
    project = factories.ProjectFactory(person=person, name="Mooncake")
    paper = factories.authored(person, ["T Ma"], at=1, title="Mooncake: KVCache-centric")
    draft = factories.authored(person, ["T Ma"], at=1, title="Hidden draft", is_published=False)
    talk = factories.SpeakerFactory(person=person, talk__title="Serving at Kimi").talk
    for work in (paper, draft, talk):
        work.projects.add(project)

    html = client.get("/people/teng-ma/").content.decode()
    card = html[html.index("Mooncake") :]

    assert f'<a href="/publications/{paper.slug}/">Mooncake: KVCache-centric</a>' in card
    assert f'<a href="/talks/{talk.slug}/">Serving at Kimi</a>' in card
    assert "Hidden draft" not in html


def test_a_project_without_results_or_linked_work_shows_neither_list(client, person):
    factories.ProjectFactory(person=person, name="Mooncake")

    html = client.get("/people/teng-ma/").content.decode()

    assert 'class="results"' not in html and "card__work" not in html


def _member_client(client, cast):
    client.force_login(cast["owner"])
    return client


def test_a_member_adds_results_and_links_their_paper_on_the_project_page(client, cast):
    owner = cast["owner"].person
    project = factories.ProjectFactory(person=owner, name="Mooncake")
    paper = factories.authored(owner, ["O Member"], at=1)
    client = _member_client(client, cast)
    url = f"/admin/people/project/{project.pk}/change/"
    data = form_data(
        client.get(url),
        **{
            "results-TOTAL_FORMS": "1",
            "results-0-value": "4.9×",
            "results-0-measure": "faster time to first token",
            "results-0-date": "2026",
            "results-0-order": "0",
            "projectpublication_set-TOTAL_FORMS": "1",
            "projectpublication_set-0-publication": str(paper.pk),
        },
    )

    response = client.post(url, data)

    assert response.status_code == 302, response.context["error_summary"]
    result = project.results.get()
    assert (result.value, str(result.date)) == ("4.9×", "2026")
    assert list(project.publications.all()) == [paper]


def test_a_member_cannot_link_a_paper_they_are_not_an_author_of(client, cast):
    owner = cast["owner"].person
    project = factories.ProjectFactory(person=owner, name="Mooncake")
    theirs = factories.authored(cast["other"].person, ["X Other"], at=1)
    client = _member_client(client, cast)
    url = f"/admin/people/project/{project.pk}/change/"
    data = form_data(
        client.get(url),
        **{
            "projectpublication_set-TOTAL_FORMS": "1",
            "projectpublication_set-0-publication": str(theirs.pk),
        },
    )

    response = client.post(url, data)

    assert response.status_code == 200
    assert "Select a valid choice" in str(response.context["error_summary"])
    assert not project.publications.exists()


def test_a_member_files_a_new_project_under_themselves_only(client, cast):
    client = _member_client(client, cast)
    page = client.get("/admin/people/project/add/")
    field = page.context["adminform"].form.fields["person"]

    assert list(field.queryset) == [cast["owner"].person]
    assert page.context["adminform"].form.initial["person"] == cast["owner"].person.pk
