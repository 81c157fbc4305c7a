"""The task worker outlives a database restart: while PostgreSQL refuses connections it
waits and tries again, and once it answers it runs the next task queued. (django-tasks'
own `db_worker` stopped with status 1 at the first refusal.)

Runs on PostgreSQL (CI's PostgreSQL run); skipped elsewhere unless REQUIRE_SERVICES is set."""

import os
import subprocess
import sys
import time

import pytest
from django.db import connection
from django_tasks.base import TaskResultStatus
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from publications.tasks import store_exports
from tests import served

pytestmark = pytest.mark.django_db(transaction=True)


def _queued():
    """A task queued as the site queues it (the tests' own backend runs tasks in place)."""
    return DatabaseBackend("default", {}).enqueue(store_exports, (), {}).id


def _wait_until_done(task_id, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if DBTaskResult.objects.get(id=task_id).status == TaskResultStatus.SUCCESSFUL:
            return True
        time.sleep(0.2)
    return False


@pytest.fixture
def proxied_worker(tmp_path):
    if connection.vendor != "postgresql":
        if os.environ.get("REQUIRE_SERVICES"):
            pytest.fail("REQUIRE_SERVICES is set but PostgreSQL is not in use")
        pytest.skip("needs the PostgreSQL test run")
    proxy, url = served.database_proxy()
    env = served.site_env(tmp_path, DATABASE_URL=url)
    command = ["manage.py", "task_worker", "--interval", "0.2", "--no-startup-delay"]
    worker = subprocess.Popen(
        [sys.executable, *command],
        cwd=served.ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    yield proxy, worker
    worker.terminate()
    worker.wait(10)
    proxy.close()


def test_the_worker_waits_out_a_database_refusal_and_runs_the_next_task(proxied_worker):
    proxy, worker = proxied_worker
    assert _wait_until_done(_queued())

    proxy.refuse()  # a restart: every connection dropped, new ones refused
    time.sleep(5)
    alive_through_it = worker.poll() is None
    proxy.accept()
    after = _queued()

    assert alive_through_it
    assert _wait_until_done(after)
    assert worker.poll() is None
