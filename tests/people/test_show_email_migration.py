"""The upgrade that adds "Show the e-mail address" hides no address a profile showed."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("people", "0020_teaching_on_the_cv")]
AFTER = [("people", "0021_person_show_email")]


def _migrate(targets):
    MigrationExecutor(connection).migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_profiles_that_showed_an_address_keep_showing_it_and_the_step_reverses():
    old = _migrate(BEFORE)
    Person = old.get_model("people", "Person")
    Person.objects.create(name="Shown Member", slug="shown", email="shown@example.org")
    Person.objects.create(name="No Address", slug="none", email="")
    try:
        new = _migrate(AFTER)
        shown = dict(new.get_model("people", "Person").objects.values_list("slug", "show_email"))
        assert shown == {"shown": True, "none": False}

        back = _migrate(BEFORE)
        assert back.get_model("people", "Person").objects.get(slug="shown").email == (
            "shown@example.org"
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
