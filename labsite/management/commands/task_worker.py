"""The task worker: django-tasks' `db_worker`, which outlives database outages.

`db_worker` stops (status 1) at the first error of the database it polls, so a PostgreSQL
restart or a network blip ends it, and under `make run` nothing starts it again. This one
says so in the log, waits, reconnects and goes on polling; a task that was running when the
database went keeps its own result (failed, or left running for the next run to mark)."""

import contextlib
import logging
import time

from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django_tasks_db.management.commands import db_worker

logger = logging.getLogger(__name__)
RETRY = 2.0  # seconds between two tries while the database does not answer


class Command(db_worker.Command):
    help = "Run the task worker (django-tasks' db_worker, which waits out database outages)."

    def handle(self, *args, **options):
        while True:
            try:
                return super().handle(*args, **options)
            except (OperationalError, InterfaceError) as error:
                logger.warning(
                    "The database does not answer (%s); the worker tries again in %g s",
                    str(error).strip(),
                    RETRY,
                )
                with contextlib.suppress(DatabaseError):
                    connections.close_all()
                time.sleep(RETRY)
