"""The task worker: django-tasks' `db_worker`, which outlives database outages.

`db_worker` stops (status 1) at the first error of the database it polls, so a PostgreSQL
restart or a network blip ends it, and under `make run` nothing starts it again. This one
says so in the log, waits, reconnects and goes on polling. A task that was running when the
database went could not record its end: once the database answers again, the worker marks
it failed, saying why (Tasks → DB task results in the admin), instead of leaving it
"running" for good. What queued it queues it again when it is needed (a CV's PDF, the
export entries after the next change); a harvest can be started again."""

import contextlib
import logging
import time

from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django_tasks.base import TaskResultStatus
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult

logger = logging.getLogger(__name__)
RETRY = 2.0  # seconds between two tries while the database does not answer


class TaskInterrupted(Exception):
    """Recorded as a task's failure: its worker lost the database while running it."""


class Command(db_worker.Command):
    help = "Run the task worker (django-tasks' db_worker, which waits out database outages)."

    def handle(self, *args, **options):
        outage = None
        while True:
            try:
                if outage is not None:
                    _fail_interrupted(options["worker_id"], outage)
                    outage = None
                return super().handle(*args, **options)
            except (OperationalError, InterfaceError) as error:
                logger.warning(
                    "The database does not answer (%s); the worker tries again in %g s",
                    str(error).strip(),
                    RETRY,
                )
                outage = outage or str(error).strip() or type(error).__name__
                with contextlib.suppress(DatabaseError):
                    connections.close_all()
                time.sleep(RETRY)


def _fail_interrupted(worker_id, outage):
    """Marks failed the tasks this worker claimed and never finished (the database went
    while they ran), with the reason in their traceback field. Raises the database's error
    while it still does not answer."""
    running = DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING)
    for result in running:
        if result.worker_ids and result.worker_ids[-1] == worker_id:
            reason = TaskInterrupted(
                f"Interrupted: the task worker lost the database while this task ran "
                f"({outage}), so it did not finish. It runs again when it is queued again."
            )
            result.set_failed(reason)
            logger.warning("Task %s was interrupted by a database outage", result.id)
