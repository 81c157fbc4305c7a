"""The background work a harvest is: queued by the admin's "Harvest now" (or anything
else), run by the task worker (`manage.py task_worker`; `make run` starts one)."""

from django_tasks import task

from harvest.models import HarvestRun
from harvest.runs import execute


@task()
def harvest(run_id: int) -> str:
    run = HarvestRun.objects.get(pk=run_id)
    return execute(run).status


def queue(run: HarvestRun) -> HarvestRun:
    """Queue `run` for the worker, keeping the task's id on it: a run whose task failed
    (the database went while it ran) is then released by the next run."""
    result = harvest.enqueue(run.pk)
    run.task_id = str(result.id)
    run.save(update_fields=["task_id"])
    return run
