"""The content version where writers meet: a long import holds up no admin's save, and no
page built while the import was under way is served once it has committed."""

import threading

import pytest
from django.db import connection, transaction

from lab.models import LabSettings
from labsite import page_cache
from people.models import Person
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_long_import_holds_up_no_save_and_no_page_from_before_it_is_served_after(client):
    """Every change moved the version by updating one row, so a long import held that row's
    lock until it committed, and every admin's save waited for it (on PostgreSQL; SQLite
    lets one writer at a time whatever the site does)."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one transaction at a time by design")
    LabSettings.load()
    person = factories.PersonFactory(name="Teng Ma", slug="teng-ma")
    importing, release, done = threading.Event(), threading.Event(), threading.Event()

    def long_import():
        try:
            with transaction.atomic():
                factories.PublicationFactory(title="A Paper the Import Brings")
                importing.set()
                release.wait(30)
        finally:
            connection.close()
            done.set()

    thread = threading.Thread(target=long_import)
    thread.start()
    try:
        assert importing.wait(30)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '2s'")  # a wait fails the test, not hangs it
        person.name = "Teng Ma (edited)"
        person.save()  # commits while the import is under way
        during = page_cache.content_version()
        page = client.get("/publications/")
        assert "A Paper the Import Brings" not in page.content.decode()
    finally:
        release.set()
        assert done.wait(30)
        thread.join()

    assert page_cache.content_version() != during
    after = client.get("/publications/")
    assert after["X-Page-Cache"] == "miss"
    assert "A Paper the Import Brings" in after.content.decode()
    assert Person.objects.get(pk=person.pk).name == "Teng Ma (edited)"
