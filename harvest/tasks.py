"""The background work a harvest is: queued by the admin's "Harvest now" (or anything
else), run by the task worker (`manage.py task_worker`; `make run` starts one)."""

from django_tasks import task

from harvest.models import HarvestRun
from harvest.runs import execute


@task()
def harvest(run_id: int) -> str:
    run = HarvestRun.objects.get(pk=run_id)
    return execute(run).status
