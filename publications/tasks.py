"""Background work on papers: the stored export entries (`ExportEntry`), brought up to date
by the task worker (`manage.py task_worker`) once a change to papers commits, so no visitor's
export writes a paper anew after an import, a restore or an edit."""

from django.db import DEFAULT_DB_ALIAS
from django_tasks import task

from core import after_commit, changes
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
    (queued once per transaction). A change of every model (a migrate: an upgrade may
    change how papers are written) puts out every entry, whatever its stamp: they go, and
    the worker writes them again."""
    if sender is None:
        # one DELETE, without Django loading every entry first to send signals nobody needs
        ExportEntry.objects.using(using).all()._raw_delete(using)
    elif sender not in ExportEntry.written_from:
        return
    after_commit.once(_queue, using=using, robust=True)
