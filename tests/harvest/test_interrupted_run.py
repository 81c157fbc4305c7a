"""A harvest interrupted by an outage is released: the task worker marks its task failed
once the database is back, and the next run marks the run failed with that reason and
starts. Before, the run stayed "running", and "Harvest now" and the weekly timer were
refused for six hours (RUN_DEADLINE).

The outage one runs on PostgreSQL (CI's PostgreSQL run), through a TCP proxy the test cuts;
skipped elsewhere unless REQUIRE_SERVICES is set."""

import os
import socket
import subprocess
import sys
import threading
import time

import pytest
from django.db import connection
from django_tasks import default_task_backend
from django_tasks.base import TaskResultStatus

from harvest.models import HarvestRun
from harvest.runs import execute
from tests import served

NOW = "/admin/harvest/harvestrun/now/"


def _wait_for(run_id, *statuses, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        run = HarvestRun.objects.get(pk=run_id)
        if run.status in statuses:
            return run
        time.sleep(0.2)
    return HarvestRun.objects.get(pk=run_id)


@pytest.fixture
def proxied_worker(services, tmp_path, settings):
    """The task worker on the database through a proxy, reading the recorded services;
    "Harvest now" queues for it."""
    if connection.vendor != "postgresql":
        if os.environ.get("REQUIRE_SERVICES"):
            pytest.fail("REQUIRE_SERVICES is set but PostgreSQL is not in use")
        pytest.skip("needs the PostgreSQL test run")
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    proxy, url = served.database_proxy()
    urls = {
        name: str(getattr(settings, name))
        for name in (
            "ORCID_API_URL",
            "OPENALEX_URL",
            "CROSSREF_URL",
            "DBLP_URL",
            "ARXIV_URL",
            "GITHUB_API_URL",
            "SEMANTIC_SCHOLAR_URL",
            "EUROPEPMC_URL",
            "DATACITE_URL",
        )
    }
    env = served.site_env(tmp_path, DATABASE_URL=url, HARVEST_PAUSE="0", ARXIV_PAUSE="0", **urls)
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


@pytest.mark.django_db(transaction=True)
def test_a_harvest_cut_off_by_a_database_outage_is_failed_and_the_next_one_runs(
    proxied_worker, services, piwowar, admin_client
):
    proxy, worker = proxied_worker
    reading = threading.Event()

    def slow_orcid(query):  # the database goes while the run waits on a service
        if not reading.is_set():
            reading.set()
            time.sleep(3)
        return "orcid-works.json"

    services.routes[f"/orcid/v3.0/{piwowar.orcid}/works"] = slow_orcid

    assert admin_client.post(NOW).status_code == 302
    first = HarvestRun.objects.get()
    assert first.task_id
    assert reading.wait(60)
    proxy.refuse()  # a PostgreSQL restart: connections dropped, new ones refused
    time.sleep(6)
    proxy.accept()
    # the worker marks the task failed once the database answers; the run could not
    # record its own end
    deadline = time.monotonic() + 60
    while default_task_backend.get_result(first.task_id).status != TaskResultStatus.FAILED:
        assert time.monotonic() < deadline, "the worker never marked the task failed"
        time.sleep(0.2)
    assert HarvestRun.objects.get(pk=first.pk).status == HarvestRun.Status.RUNNING

    assert admin_client.post(NOW).status_code == 302  # "Harvest now", an hour later or now
    second = HarvestRun.objects.exclude(pk=first.pk).get()

    second = _wait_for(second.pk, HarvestRun.Status.DONE, HarvestRun.Status.FAILED)
    first.refresh_from_db()
    assert (second.status, second.message) == (HarvestRun.Status.DONE, "")
    assert second.report["orcid"]["fetched"] > 0
    assert first.status == HarvestRun.Status.FAILED
    assert first.message.startswith("Interrupted: its task failed (")
    assert "lost the database while this task ran" in first.message
    assert first.finished is not None
    assert worker.poll() is None


@pytest.mark.django_db
def test_a_run_whose_worker_process_is_gone_is_failed_and_the_next_one_runs(services, piwowar):
    """A worker killed in the middle (no task to say so: `manage.py harvest` from the
    timer) leaves its run "running"; its process is gone, so the next run releases it."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    left = HarvestRun.objects.create(
        trigger="schedule",
        status=HarvestRun.Status.RUNNING,
        worker=f"{socket.gethostname()}:{gone.pid}",
    )
    HarvestRun.objects.filter(pk=left.pk).update(started=left.queued)

    run = execute(HarvestRun.objects.create(trigger="admin: alice"))

    left.refresh_from_db()
    assert run.status == HarvestRun.Status.DONE
    assert left.status == HarvestRun.Status.FAILED
    assert left.message == (
        f"Interrupted: its worker (process {gone.pid}) stopped before the run finished."
    )


@pytest.mark.django_db
def test_a_run_whose_worker_is_alive_still_holds_off_the_next(services, piwowar):
    alive = HarvestRun.objects.create(
        trigger="schedule",
        status=HarvestRun.Status.RUNNING,
        worker=f"{socket.gethostname()}:{os.getpid()}",
    )
    HarvestRun.objects.filter(pk=alive.pk).update(started=alive.queued)

    run = execute(HarvestRun.objects.create(trigger="admin: alice"))

    assert run.status == HarvestRun.Status.FAILED
    assert "Another harvest run" in run.message
    alive.refresh_from_db()
    assert alive.status == HarvestRun.Status.RUNNING
