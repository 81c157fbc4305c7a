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
from django_tasks import task
from django_tasks.base import TaskResultStatus
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from publications.tasks import store_exports
from tests import served

pytestmark = pytest.mark.django_db(transaction=True)


@task()
def reads_the_database_after(seconds: float) -> int:
    """A task still running when the database goes: it reads the database once it wakes."""
    time.sleep(seconds)
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone()[0]


def _queued(queued_task=store_exports, *args):
    """A task queued as the site queues it (the tests' own backend runs tasks in place)."""
    return DatabaseBackend("default", {}).enqueue(queued_task, args, {}).id


def _wait_until(task_id, status, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if DBTaskResult.objects.get(id=task_id).status == status:
            return True
        time.sleep(0.2)
    return False


def _wait_until_done(task_id, seconds=30):
    return _wait_until(task_id, TaskResultStatus.SUCCESSFUL, seconds)


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


def test_a_task_running_when_the_database_went_is_marked_failed_once_it_is_back(
    proxied_worker,
):
    proxy, worker = proxied_worker
    interrupted = _queued(reads_the_database_after, 2)
    assert _wait_until(interrupted, TaskResultStatus.RUNNING)

    proxy.refuse()  # the task's read, and the worker's record of its end, both fail
    time.sleep(5)
    proxy.accept()

    assert _wait_until(interrupted, TaskResultStatus.FAILED)
    result = DBTaskResult.objects.get(id=interrupted)
    assert result.exception_class_path.endswith("TaskInterrupted")
    assert "lost the database while this task ran" in result.traceback
    assert _wait_until_done(_queued())  # and the worker goes on with the next
    assert worker.poll() is None
