"""Background work on papers: the stored export entries (`ExportEntry`), brought up to date
by the task worker (`manage.py task_worker`) once a change to papers commits, so no visitor's
export writes a paper anew after an import, a restore or an edit."""

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django_tasks import task

from core import changes
from publications import exports
from publications.models import ExportEntry


@task()
def store_exports() -> int:
    return exports.store()


def _queue():
    store_exports.enqueue()


@changes.writes("publications.ExportEntry")
def papers_changed(sender, using=DEFAULT_DB_ALIAS):
    """What follows a change of content (core/changes.py): once a change of what export
    entries are written from commits, the worker stores the entries it put out of date
    (queued once per transaction)."""
    if sender not in ExportEntry.written_from:
        return
    connection = connections[using]
    if connection.in_atomic_block and any(h is _queue for _, h, _ in connection.run_on_commit):
        return
    transaction.on_commit(_queue, using=using, robust=True)


def schema_changed(sender, using=DEFAULT_DB_ALIAS, apps=None, **kwargs):
    """post_migrate receiver: an upgrade may change how papers are written, so every entry
    goes and the worker writes them again (nothing to do while the database stands at an
    older schema, which has no entries, nor after a flush, which leaves no papers)."""
    if apps is None:  # a flush
        return
    try:
        apps.get_model("publications", "ExportEntry")
    except LookupError:
        return
    # one DELETE, without Django loading every entry first to send signals nobody needs
    ExportEntry.objects.using(using).all()._raw_delete(using)
    transaction.on_commit(_queue, using=using, robust=True)
