"""The production stack in small: two gunicorn workers on PostgreSQL and Redis. A profile
read through both is cached; an edit made from another process, as the admin makes it,
reaches the next request to each worker.

Runs on PostgreSQL with Redis on 127.0.0.1:6379 (CI's PostgreSQL run); skipped elsewhere
unless REQUIRE_SERVICES is set, when it fails instead.
"""

import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from lab.models import LabSettings
from people.models import Person
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
REDIS = "redis://127.0.0.1:6379/7"


def _redis_is_up():
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        return False
    return True


@pytest.fixture
def production_env(tmp_path):
    if connection.vendor != "postgresql" or not _redis_is_up():
        if os.environ.get("REQUIRE_SERVICES"):
            pytest.fail("REQUIRE_SERVICES is set but PostgreSQL or Redis is not in use")
        pytest.skip("needs the PostgreSQL test run and Redis on 127.0.0.1:6379")
    import redis

    redis.Redis.from_url(REDIS).flushdb()
    db = settings.DATABASES["default"]
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "labsite.settings",
        "LABSITE_ENV_FILE": "/dev/null",
        "DEBUG": "off",
        "SECRET_KEY": "workers-test-only",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "off",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CACHE_URL": REDIS,
        "STATIC_ROOT": str(tmp_path / "static"),
    }


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(port, path):
    """(X-Page-Cache, body) of a GET on the loopback (urllib is closed to tests)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        assert response.status == 200, (port, path, response.status)
        return response.getheader("X-Page-Cache"), response.read().decode()
    finally:
        connection.close()


@contextlib.contextmanager
def _workers(env, count):
    """The ports of `count` gunicorn workers of the site, each its own server, running."""
    # As a deployment does: with DEBUG off, pages name the collected, hashed files.
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    ports = [_free_port() for _ in range(count)]
    command = [sys.executable, "-m", "gunicorn", "labsite.wsgi", "--workers", "1"]
    workers = [
        subprocess.Popen(
            [*command, "--bind", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    try:
        deadline = time.monotonic() + 30
        for port in ports:
            while True:
                try:
                    _get(port, "/health/")
                    break
                except OSError:
                    assert time.monotonic() < deadline, "a gunicorn worker did not start"
                    time.sleep(0.2)
        yield ports
    finally:
        for worker in workers:
            worker.terminate()
            worker.wait(10)


@pytest.fixture
def two_workers(production_env):
    with _workers(production_env, 2) as ports:
        yield ports


def test_an_edit_from_another_process_reaches_both_workers_at_once(two_workers, production_env):
    factories.PersonFactory(name="Teng Ma", slug="teng-ma")
    LabSettings.load()
    for port in two_workers:  # read until cached: built by the first worker, shared by both
        states = [_get(port, "/people/teng-ma/")[0] for _ in range(2)]
        assert "hit" in states, (port, states)

    rename = (
        "from people.models import LabSettings, Person\n"
        "p = Person.objects.get(slug='teng-ma'); p.name = 'Teng Ma (edited)'; p.save()\n"
        "lab = LabSettings.load(); lab.name = 'Renamed Systems Lab'; lab.save()\n"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", rename],
        cwd=ROOT,
        env=production_env,
        check=True,
        capture_output=True,
    )

    for port in two_workers:
        state, html = _get(port, "/people/teng-ma/")
        assert "Teng Ma (edited)" in html and "Renamed Systems Lab" in html, (port, state)


def test_while_redis_does_not_answer_the_site_serves_and_refuses_edits(production_env):
    factories.PersonFactory(name="Teng Ma", slug="teng-ma")
    LabSettings.load()
    env = {**production_env, "CACHE_URL": f"redis://127.0.0.1:{_free_port()}/1"}  # no server

    with _workers(env, 1) as (port,):
        state, html = _get(port, "/people/teng-ma/")
        assert state is None and "Teng Ma" in html  # built, not stored
        assert json.loads(_get(port, "/health/")[1])["status"] == "degraded"

        rename = (
            "from django.db import transaction\n"
            "from people.models import Person\n"
            "with transaction.atomic():\n"  # as the admin, importers and restores save
            "    p = Person.objects.get(slug='teng-ma'); p.name = 'Renamed'; p.save()\n"
        )
        edit = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", rename],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        assert edit.returncode != 0 and "CacheUnavailable" in edit.stderr
        assert Person.objects.get(slug="teng-ma").name == "Teng Ma"  # nothing written
