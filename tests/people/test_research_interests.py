"""Research interests: one per line, a phrase never split at its commas."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests import factories
from tests.admin_forms import form_data

BEFORE = [("people", "0006_new_people_go_last")]
AFTER = [("people", "0007_interests_one_per_line")]


@pytest.mark.django_db
def test_a_line_with_commas_is_one_interest_on_the_profile(client):
    factories.PersonFactory(
        slug="ana",
        research_interests="LLM serving\nAgent harnesses, hardware, and infrastructure\n\n",
    )

    html = client.get("/people/ana/").content.decode()

    assert "<li>LLM serving</li><li>Agent harnesses, hardware, and infrastructure</li></ul>" in html


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_comma_separated_interests_become_lines_and_back():
    old = _migrate(BEFORE).get_model("people", "Person")
    old.objects.create(
        name="Teng Ma",
        slug="teng-ma",
        research_interests="RDMA, CXL,  LLM serving, and operating systems",
    )
    old.objects.create(name="Feng Ren", slug="feng-ren", research_interests="")
    try:
        new = _migrate(AFTER).get_model("people", "Person")
        assert new.objects.get(slug="teng-ma").research_interests == (
            "RDMA\nCXL\nLLM serving\noperating systems"
        )
        assert new.objects.get(slug="feng-ren").research_interests == ""

        back = _migrate(BEFORE).get_model("people", "Person")
        assert back.objects.get(slug="teng-ma").research_interests == (
            "RDMA, CXL, LLM serving, operating systems"
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db
def test_interests_longer_than_a_profile_shows_are_refused_in_the_admin(admin_client):
    person = factories.PersonFactory(slug="ana")
    url = f"/admin/people/person/{person.pk}/change/"
    data = form_data(admin_client.get(url), research_interests_en="RDMA\n" * 300)

    response = admin_client.post(url, data)

    assert response.status_code == 200
    assert "Ensure this value has at most 1000 characters" in response.content.decode()
    person.refresh_from_db()
    assert person.research_interests == ""


@pytest.mark.django_db
def test_interests_and_figure_labels_are_kept_in_both_languages(client):
    person = factories.PersonFactory(
        slug="ana",
        research_interests="Operating systems\nLLM serving",
        research_interests_zh_hans="操作系统\n大模型推理服务",
    )
    person.reported_figures.create(label="Citations", label_zh_hans="引用", value="680+")

    english = client.get("/people/ana/").content.decode()
    chinese = client.get("/zh-hans/people/ana/").content.decode()

    assert "<li>Operating systems</li><li>LLM serving</li>" in english
    assert "<li>操作系统</li><li>大模型推理服务</li>" in chinese
    assert "<dt>Citations</dt>" in english and "<dt>引用</dt>" in chinese


@pytest.mark.django_db
def test_texts_written_in_english_only_are_marked_english_on_chinese_pages(client):
    person = factories.PersonFactory(slug="ana", research_interests="Operating systems")
    person.reported_figures.create(label="GitHub stars", value="5K+")

    chinese = client.get("/zh-hans/people/ana/").content.decode()

    assert 'aria-label="研究兴趣" lang="en"><li>Operating systems</li>' in chinese
    assert '<dt lang="en">GitHub stars</dt>' in chinese
