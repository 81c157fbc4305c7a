"""The production stack in small: two gunicorn workers on PostgreSQL and Redis. A profile
read through both is cached; an edit made from another process, as the admin makes it,
reaches the next request to each worker.

Runs on PostgreSQL with Redis on 127.0.0.1:6379 (CI's PostgreSQL run); skipped elsewhere
unless REQUIRE_SERVICES is set, when it fails instead.
"""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid

import pytest
from django.db import connection

from lab.models import LabSettings
from people.models import Person
from tests import factories, served

pytestmark = pytest.mark.django_db(transaction=True)

REDIS = "redis://127.0.0.1:6379/0"
# Each run's keys under a prefix of their own: two runs on one Redis never meet.
PREFIX = f"labsite-test-{uuid.uuid4().hex}"


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

    client = redis.Redis.from_url(REDIS)
    for key in client.scan_iter(f"{PREFIX}:*"):
        client.delete(key)
    return served.site_env(tmp_path, CACHE_URL=REDIS, CACHE_KEY_PREFIX=PREFIX)


def _get(port, path):
    """(X-Page-Cache, body) of a GET of a page that must answer."""
    status, headers, body = served.request(port, path, timeout=10)
    assert status == 200, (port, path, status)
    return headers.get("X-Page-Cache"), body.decode()


@pytest.fixture
def two_workers(production_env):
    with served.workers(production_env, 2) as ports:
        yield ports


def test_an_edit_from_another_process_reaches_both_workers_at_once(two_workers, production_env):
    factories.PersonFactory(name="Teng Ma", slug="teng-ma")
    LabSettings.load()
    for port in two_workers:  # read until cached: built by the first worker, shared by both
        states = [_get(port, "/people/teng-ma/")[0] for _ in range(2)]
        assert "hit" in states, (port, states)

    rename = (
        "from lab.models import LabSettings\nfrom people.models import Person\n"
        "p = Person.objects.get(slug='teng-ma'); p.name = 'Teng Ma (edited)'; p.save()\n"
        "lab = LabSettings.load(); lab.name = 'Renamed Systems Lab'; lab.save()\n"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", rename],
        cwd=served.ROOT,
        env=production_env,
        check=True,
        capture_output=True,
    )

    for port in two_workers:
        state, html = _get(port, "/people/teng-ma/")
        assert "Teng Ma (edited)" in html and "Renamed Systems Lab" in html, (port, state)


@contextlib.contextmanager
def _own_redis():
    """A Redis server of the test's own, keeping nothing on disk: (its URL, its process)."""
    port = served.free_port()
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0", server
    finally:
        server.send_signal(signal.SIGCONT)
        server.terminate()
        server.wait(10)


def _rename(env, name):
    """Rename Teng Ma from another process, as the admin saves (in a transaction)."""
    rename = (
        "from django.db import transaction\n"
        "from people.models import Person\n"
        "with transaction.atomic():\n"
        f"    p = Person.objects.get(slug='teng-ma'); p.name = {name!r}; p.save()\n"
    )
    return subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", rename],
        cwd=served.ROOT,
        env=env,
        capture_output=True,
        text=True,
    )


def test_while_redis_does_not_answer_edits_commit_and_no_older_page_is_served(production_env):
    factories.PersonFactory(name="Teng Ma", slug="teng-ma")
    LabSettings.load()

    with (
        _own_redis() as (url, redis_server),
        served.workers({**production_env, "CACHE_URL": url}, 2) as ports,
    ):
        env = {**production_env, "CACHE_URL": url}
        for port in ports:
            states = [_get(port, "/people/teng-ma/")[0] for _ in range(2)]
            assert "hit" in states, (port, states)  # stored in Redis, which keeps it

        redis_server.send_signal(signal.SIGSTOP)  # Redis stops answering; it forgets nothing
        try:
            edit = _rename(env, "Renamed while Redis was down")
            assert edit.returncode == 0, edit.stderr  # the save needs no cache
            for port in ports:
                started = time.monotonic()
                state, html = _get(port, "/people/teng-ma/")
                assert state is None and "Renamed while Redis was down" in html  # built afresh
                assert time.monotonic() - started < 10
            assert json.loads(_get(ports[0], "/health/")[1])["status"] == "degraded"
        finally:
            redis_server.send_signal(signal.SIGCONT)  # back, holding the pages of before

        for port in ports:
            state, html = _get(port, "/people/teng-ma/")
            assert "Renamed while Redis was down" in html, (port, state)
        assert Person.objects.get(slug="teng-ma").name == "Renamed while Redis was down"
