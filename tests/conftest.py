import shutil

import pytest
from django.conf import settings
from django.core.cache import cache

from tests.factories import PersonFactory


@pytest.fixture(autouse=True)
def _clear_cache():
    """The lab settings are cached; each test starts from its own database state."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(scope="session", autouse=True)
def _remove_test_media():
    yield
    shutil.rmtree(settings.MEDIA_ROOT, ignore_errors=True)


@pytest.fixture
def person(db):
    return PersonFactory(name="Teng Ma", native_name="马腾", slug="teng-ma")


@pytest.fixture(autouse=True)
def _no_network(monkeypatch):
    """Tests never reach the network: importers get recorded responses instead."""

    def refuse(*args, **kwargs):
        raise AssertionError("a test tried to reach the network")

    monkeypatch.setattr("urllib.request.urlopen", refuse)
