"""What a home page leaves out stays out: a profile saved without a job title, an employer,
an institution or the day a figure was read shows what is known and nothing made up."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from people.models import Experience
from tests import factories

BEFORE = [("people", "0008_contribution_status_may_be_unknown")]
AFTER = [("people", "0009_unknown_facts_stay_unknown")]


def _profile(client):
    html = client.get("/people/teng-ma/").content.decode()
    return re.sub(r"\s+", " ", html)


@pytest.mark.django_db
def test_a_job_without_a_title_or_without_an_employer_reads_naturally(client, person):
    for fields in ({"title": "", "organization": "Alibaba Cloud"}, {"organization": ""}):
        job = factories.ExperienceFactory.build(person=person, **fields)
        job.full_clean()
        job.save()
    unemployed = person.experience.order_by("pk").last()

    html = _profile(client)

    assert "<h3>Alibaba Cloud</h3>" in html
    assert f"<h3>{unemployed.title}</h3>" in html


@pytest.mark.django_db
def test_a_job_needs_a_title_or_an_employer(person):
    with pytest.raises(ValidationError, match=r"Give the job title, the employer, or both\."):
        Experience(person=person, title="", organization="").full_clean()


@pytest.mark.django_db
def test_education_without_an_institution_shows_the_degree_alone(client, person):
    degree = factories.EducationFactory.build(
        person=person, degree="B.S. in Physics", institution=""
    )
    degree.full_clean()
    degree.save()

    html = _profile(client)

    assert "<h3>B.S. in Physics</h3>" in html


@pytest.mark.django_db
def test_a_figure_read_on_an_unknown_day_says_only_where_it_was_read(client, person):
    figure = factories.ReportedFigureFactory.build(person=person, read_on=None)
    figure.full_clean()
    figure.save()
    project = factories.ProjectFactory.build(person=person, figure="5K+", figure_label="stars")
    project.full_clean()
    project.save()

    html = _profile(client)

    assert '<dd class="stat__source">Google Scholar</dd>' in html
    assert "stars read</p>" in html and "read on" not in html


@pytest.mark.django_db
def test_current_focus_updated_in_a_year_says_so(client, person):
    person.now, person.now_updated = "Serving LLMs.", "2026"
    person.full_clean()
    person.save()

    html = _profile(client)

    assert 'Last updated <time datetime="2026">2026</time>' in html


def _migrate(targets):
    MigrationExecutor(connection).migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_read_dates_become_partial_dates_and_go_back_as_whole_dates():
    import datetime

    old = _migrate(BEFORE)
    person = old.get_model("people", "Person").objects.create(
        name="Teng Ma", slug="teng-ma", now_updated=datetime.date(2026, 6, 3)
    )
    figures = old.get_model("people", "ReportedFigure")
    figures.objects.create(
        person_id=person.pk, label="h-index", value="13", source="Scholar",
        read_on=datetime.date(2026, 12, 2), order=0,
    )  # fmt: skip
    try:
        new = _migrate(AFTER)
        figure = new.get_model("people", "ReportedFigure").objects.get()
        assert figure.read_on.isoformat() == "2026-12-02"
        assert new.get_model("people", "Person").objects.get().now_updated.isoformat() == (
            "2026-06-03"
        )
        figure.read_on = "2026-12"  # as an admin may now enter it
        figure.save()

        back = _migrate(BEFORE)
        assert back.get_model("people", "ReportedFigure").objects.get().read_on == (
            datetime.date(2026, 12, 1)
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
