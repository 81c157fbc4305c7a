"""Imports that fetch from the network run outside the request: the admin page creates an
`ImportBatch`, a background thread fills it (one Crossref request per DOI, ORCID's list
first), and the page polls it until it can show the preview.

A thread in the web process keeps the one-machine default free of a queue service; the
fetch is bounded (a timeout and a few retries per call, a cap on DOIs per import) and its
progress and failure are stored in the batch, so a restarted worker leaves a batch that
says it stopped rather than one that hangs.
"""

import logging
import threading
from collections.abc import Callable
from typing import Any

from django.db import close_old_connections, connection

from people.models import Person
from publications.importing.crossref import fetch_doi
from publications.importing.http import JsonClient
from publications.importing.orcid import read_orcid_works
from publications.importing.records import ImportProblem
from publications.models import ImportBatch

MAX_DOIS = 200  # per import; more is a file to upload
logger = logging.getLogger(__name__)


def start(function: Callable[..., None], *args: Any) -> None:
    """Run `function(*args)` in a background thread, on its own database connection
    (tests run it in place)."""

    def run() -> None:
        close_old_connections()
        try:
            function(*args)
        finally:
            connection.close()

    threading.Thread(target=run, daemon=True).start()


def fetch(batch_id: Any, dois: list[str], person_id: int | None, client: JsonClient) -> None:
    """Fetch the DOIs' Crossref records and the person's ORCID works into the batch,
    saving progress as it goes; the batch ends READY, or FAILED with the reason."""
    batch = ImportBatch.objects.get(pk=batch_id)
    try:
        records = list(batch.records)
        for doi in dois:
            records.append(fetch_doi(doi, client).to_json())
            _progress(batch, records, len(records), batch.total)
        if person_id is not None:
            person = Person.objects.get(pk=person_id)
            base = len(records)

            def progress(done: int, total: int) -> None:
                _progress(batch, records, base + done, base + total)

            records += [r.to_json() for r in read_orcid_works(person, client, progress)]
        batch.records, batch.status = records, ImportBatch.Status.READY
    except ImportProblem as problem:
        batch.status, batch.message = ImportBatch.Status.FAILED, str(problem)
    except Exception as error:  # the page must learn of any failure, not wait forever
        logger.exception("Import batch %s failed", batch_id)
        batch.status = ImportBatch.Status.FAILED
        batch.message = f"The import stopped unexpectedly ({type(error).__name__})."
    finally:
        batch.save()


def _progress(batch: ImportBatch, records: list[Any], done: int, total: int) -> None:
    batch.records, batch.done, batch.total = records, done, max(total, done)
    batch.save(update_fields=["records", "done", "total"])
