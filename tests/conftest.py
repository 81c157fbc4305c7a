import errno
import io
import os
import shutil
import socket
import threading
from pathlib import Path

import pytest
from django.conf import settings
from django.core import serializers
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction
from django.utils import translation

from core import content
from lab.models import LabSettings, forget_loaded_settings
from labsite import page_cache
from labsite.page_cache import push
from labsite.pages.cv import PDF_FOLDER
from labsite.views import close_health_connections
from tests.factories import PersonFactory

# The files that take minutes (each runs in one process: make test's `--dist loadfile`),
# started first, so that the processes of a parallel run finish together rather than one
# of them alone with a long file at the end. Slowest first, as measured.
SLOW_FILES = [
    "tests/labsite/test_static_site.py",
    "tests/browser/test_validity_and_accessibility.py",
    "tests/labsite/test_archive.py",
    "tests/labsite/test_rollback.py",
    "tests/test_lab_year.py",
    "tests/security/test_admin_fuzz.py",
    "tests/labsite/test_archives_of_past_releases.py",
    "tests/people/test_research_interests.py",
    "tests/people/test_unknown_facts.py",
    "tests/website/test_openings.py",
    "tests/security/test_admin_url_permissions.py",
    "tests/labsite/test_cv.py",
]


def pytest_collection_modifyitems(items):
    rank = {name: place for place, name in enumerate(SLOW_FILES)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


@pytest.fixture(autouse=True)
def _clear_cache():
    """Each test starts from its own database state, with nothing cached from another."""
    cache.clear()
    page_cache.recent_pages.clear()
    push.listener.forget()
    forget_loaded_settings()
    yield
    cache.clear()
    page_cache.recent_pages.clear()
    push.listener.forget()  # its connection would hold the test database open
    close_health_connections()  # so would the health check's
    # A request to a Chinese page leaves Chinese active in this thread, as in any worker
    # (the next request sets its own); the next test starts in English.
    translation.activate(settings.LANGUAGE_CODE)
    forget_loaded_settings()
    # The CVs' PDFs are kept by the content version they were made at, and a test's
    # version comes back in the next (its change-log rows are rolled back, and their ids
    # given again): a CV test was served the PDF of another test's Teng Ma.
    shutil.rmtree(Path(settings.MEDIA_ROOT) / PDF_FOLDER, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def _remove_test_media():
    yield
    shutil.rmtree(settings.MEDIA_ROOT, ignore_errors=True)
    shutil.rmtree(settings.PRIVATE_UPLOADS_DIR, ignore_errors=True)


@pytest.fixture
def person(db):
    return PersonFactory(name="Teng Ma", native_name="马腾", slug="teng-ma")


@pytest.fixture(autouse=True)
def _no_network(monkeypatch):
    """Tests never reach the network: importers get recorded responses instead. Every
    urllib request, urlopen's included, goes through an opener's `open`."""

    def refuse(*args, **kwargs):
        raise AssertionError("a test tried to reach the network")

    monkeypatch.setattr("urllib.request.OpenerDirector.open", refuse)


@pytest.fixture(autouse=True)
def _imports_fetch_in_place(monkeypatch):
    """The admin's imports fetch in a background thread; tests run the fetch in place (one
    test runs the real thread)."""
    monkeypatch.setattr(
        "publications.importing.batches.start", lambda function, *args: function(*args)
    )


@pytest.fixture
def cast(db):
    """The fixed cast where permissions matter: a lab admin, a member who owns the data,
    another member, and an anonymous visitor (None)."""
    from django.contrib.auth.models import Group

    from tests.factories import UserFactory

    def staff(username, group):
        user = UserFactory(username=username, is_staff=True)
        user.groups.add(Group.objects.get(name=group))
        return user

    admin_user = staff("labadmin", "Lab admin")
    owner = staff("owner", "Lab member")
    other = staff("other", "Lab member")
    PersonFactory(name="Owner Member", slug="owner", user=owner)
    PersonFactory(name="Other Member", slug="other", user=other)
    return {"admin": admin_user, "owner": owner, "other": other, "anonymous": None}


@pytest.fixture
def signed_in():
    """A test client signed in as the user given (one of `cast`, say)."""
    from django.test import Client

    def sign_in(user):
        client = Client()
        client.force_login(user)
        return client

    return sign_in


@pytest.fixture
def site_rows(db):
    """The rows every page reads and a site's first page writes: the lab settings and the
    content version's (which migrate writes and a transactional test's flush removes), so
    that a query count measures the page alone, whichever test ran before."""
    LabSettings.load()
    page_cache.content_version()


@pytest.fixture(scope="session")
def _demo_rows(django_db_setup, django_db_blocker):
    """The demo lab as serialized rows (history included), built once per test run by
    `load_demo` inside a transaction that is then rolled back."""
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("load_demo", stdout=io.StringIO())
        out = io.StringIO()
        apps = [config.label for config in content.content_apps()]
        # With the record of which rows are the demo's, as `remove_demo` reads it.
        # (content types by name: a test that migrated back and forth has other ids)
        call_command(
            "dumpdata", *apps, "labsite.DemoRow", natural_foreign=True, format="json", stdout=out
        )
        transaction.set_rollback(True)
    return out.getvalue()


@pytest.fixture
def demo(db, _demo_rows):
    """The demo lab, as `load_demo` builds it (see tests/labsite/test_load_demo.py), loaded
    from the rows built once rather than rebuilt through the importer for every test."""
    models = set()
    for row in serializers.deserialize("json", _demo_rows):
        row.save()
        models.add(type(row.object))
    with connection.cursor() as cursor:  # PostgreSQL: ids given explicitly move no sequence
        for sql in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(sql)


@pytest.fixture
def silent_server():
    """The address (http://127.0.0.1:PORT) of a server that accepts connections and never
    answers: a service that hangs."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    held = []

    def accept():
        while True:
            try:
                held.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()
    for accepted in held:
        accepted.close()


@pytest.fixture
def full_disk(monkeypatch):
    """Call it, and the disk the media folder is on runs out of room: every file Django's
    folder storage writes fails with ENOSPC after its first bytes, as on a real full disk."""
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, file):
            self.file = file

        def write(self, data):
            self.file.write(data[:10])
            self.file.flush()
            raise OSError(errno.ENOSPC, "No space left on device")

        def close(self):
            self.file.close()

    def fill():
        monkeypatch.setattr(os, "fdopen", lambda fd, *a, **kw: Full(real_fdopen(fd, *a, **kw)))

    return fill
