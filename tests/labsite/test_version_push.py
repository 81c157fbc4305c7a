"""On PostgreSQL a cache hit asks the database nothing while nothing has moved the content
version: each worker listens for the version's moves (labsite/page_cache/push.py). A change
committed by another connection is served once its notice comes; without the listening
connection (lost, or turned off) every hit reads the version as before."""

import time

import psycopg
import pytest
from django.db import connection

from lab.models import LabSettings
from labsite.page_cache import version
from people.models import Person
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)
PROFILE = "/people/teng-ma/"


@pytest.fixture
def teng():
    """A member's profile on PostgreSQL (tests/conftest.py closes the listening connection
    after each test)."""
    if connection.vendor != "postgresql":
        pytest.skip("LISTEN and NOTIFY are PostgreSQL's")
    LabSettings.load()
    factories.PersonFactory(name="Teng Ma", slug="teng-ma")


def _rename_from_elsewhere(name):
    """A rename committed by a connection of its own, as another process would commit it."""
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as other, other.transaction():
        other.execute("UPDATE people_person SET name = %s WHERE slug = 'teng-ma'", [name])
        other.execute("INSERT INTO labsite_contentchange DEFAULT VALUES")


def _served_within(client, text, seconds=2.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if text in client.get(PROFILE).content.decode():
            return True
        time.sleep(0.005)
    return False


@pytest.fixture
def version_reads(monkeypatch):
    """How many times the version was read from the database (on the driver's own cursor,
    which Django's query log does not see)."""
    reads = []
    read = version._committed_version

    def counted():
        reads.append(1)
        return read()

    monkeypatch.setattr(version, "_committed_version", counted)
    return reads


def test_a_hit_asks_the_database_nothing_while_nothing_moved_the_version(
    client, teng, version_reads, django_assert_num_queries
):
    assert client.get(PROFILE)["X-Page-Cache"] == "miss"
    client.get(PROFILE)  # the first hit reads the version once it listens
    version_reads.clear()

    with django_assert_num_queries(0):
        assert client.get(PROFILE)["X-Page-Cache"] == "hit"
        assert client.get(PROFILE)["X-Page-Cache"] == "hit"
    assert version_reads == []


def test_a_change_another_connection_commits_is_served_once_its_notice_comes(client, teng):
    client.get(PROFILE), client.get(PROFILE)

    _rename_from_elsewhere("Teng Ma (renamed elsewhere)")

    assert _served_within(client, "Teng Ma (renamed elsewhere)")


def test_a_change_this_process_makes_is_served_at_once(client, teng):
    client.get(PROFILE), client.get(PROFILE)
    person = Person.objects.get(slug="teng-ma")
    person.name = "Teng Ma (edited here)"

    person.save()

    assert "Teng Ma (edited here)" in client.get(PROFILE).content.decode()


def test_with_its_listening_connection_ended_every_hit_reads_and_sees_changes(
    client, teng, version_reads
):
    client.get(PROFILE), client.get(PROFILE)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE query = 'LISTEN labsite_content' AND pid <> pg_backend_pid()"
        )
        assert cursor.fetchall() == [(True,)]
    time.sleep(0.2)  # the server ends it
    version_reads.clear()

    assert client.get(PROFILE)["X-Page-Cache"] == "hit"
    assert client.get(PROFILE)["X-Page-Cache"] == "hit"
    assert len(version_reads) == 2
    _rename_from_elsewhere("Teng Ma (while not listening)")
    assert "Teng Ma (while not listening)" in client.get(PROFILE).content.decode()


def test_turned_off_every_hit_reads_the_version(client, teng, settings, version_reads):
    settings.CONTENT_VERSION_PUSH = False
    client.get(PROFILE), client.get(PROFILE)
    version_reads.clear()

    assert client.get(PROFILE)["X-Page-Cache"] == "hit"
    assert client.get(PROFILE)["X-Page-Cache"] == "hit"
    assert len(version_reads) == 2
