"""The content version: the number a public page is stored under, moved by every change of
what pages show (labsite/page_cache/__init__.py says how and when)."""

import functools
import logging
import time

from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections
from django_tasks import task

from core import after_commit, changes
from labsite import db_deadline
from labsite.models import ContentChange, ContentVersion
from labsite.page_cache import push
from labsite.page_cache.stored import cache_unavailable

# The version this site read last, kept in the cache for a worker started while the
# database does not answer.
LAST_VERSION_KEY = "labsite:last-content-version"
_PRUNE_EVERY = 1000  # change-log rows added between two prunings of the log


DATABASE_RETRY = 5  # seconds a worker serves the version it read last before asking again


logger = logging.getLogger(__name__)


def content_version():
    """The current content version, as this request's transaction sees it: one read of its
    row (and a first write when the table is new or was emptied, from the clock, so that no
    number stored before can come back)."""
    with connection.cursor() as cursor:
        cursor.execute(_read_version_sql())
        row = cursor.fetchone()
        if row is None:
            _start_version(DEFAULT_DB_ALIAS)
            cursor.execute(_read_version_sql())
            row = cursor.fetchone()
    _forget_move(connection)
    return row[0]


def _committed_version():
    """content_version() as a cache hit reads it, outside any transaction: the same one
    statement on the driver's own cursor, past Django's cursor layers (they took half the
    read's time), under the same deadline (labsite.db_deadline), failing as a
    DatabaseError. Inside a transaction, content_version() itself: it forgets the move."""
    wrapper = connections[DEFAULT_DB_ALIAS]  # once: each look through `connection` costs
    raw = wrapper.connection
    if wrapper.in_atomic_block or raw is None:
        return content_version()
    try:
        with db_deadline.bounded(wrapper):
            cursor = raw.cursor()
            cursor.execute(_read_version_sql())
            row = cursor.fetchone()
            cursor.close()
    # the driver module: each backend's wrapper declares it, the stubs' base class does not
    except wrapper.Database.Error as error:  # type: ignore[attr-defined]
        raise DatabaseError(str(error)) from error
    return content_version() if row is None else row[0]  # none: the first is written


@functools.cache
def _read_version_sql():
    start = connection.ops.quote_name(ContentVersion._meta.db_table)
    changes = connection.ops.quote_name(ContentChange._meta.db_table)
    return f"SELECT number + COALESCE((SELECT MAX(id) FROM {changes}), 0) FROM {start} WHERE id = 1"


def _start_version(using):
    start = {"number": time.time_ns()}
    ContentVersion.objects.using(using).get_or_create(pk=1, defaults=start)


def _moved():
    """Queued for the commit (core/after_commit.py) when a transaction moves the version, it
    stands for "this transaction has moved the version": a rollback (of the transaction, or
    of the savepoint it was queued in) drops it with the move it stands for."""


def _moved_after_commit(using=DEFAULT_DB_ALIAS):
    """A committed change's second row: seen by every other connection at once, however
    many rows others added while the change was under way. Failing, it is an error, tried
    again at once and then by the task worker: until it is added, workers may serve pages
    built before the change (a long transaction's own row may be below one they read)."""
    for then in ("trying again", "the task worker moves it"):
        try:
            _add_change(using)
            return
        except DatabaseError:
            logger.error("The content version did not move after a commit: %s", then, exc_info=True)
            if not connections[using].in_atomic_block:
                connections[using].close_if_unusable_or_obsolete()  # a lost one: a new one
    move_version.enqueue(using)  # failing too, an error Django logs (a robust hook)


@task()
def move_version(using: str = DEFAULT_DB_ALIAS) -> None:
    """The task worker's part, when moving the version after a commit failed twice."""
    _add_change(using)


def _add_change(using):
    """Adds a row to the change log, moving the version. Now and then the log drops what no
    version read needs any more (only its highest id counts)."""
    added = ContentChange.objects.using(using).create()
    push.listener.moved()
    if added.pk % _PRUNE_EVERY == 0:
        ContentChange.objects.using(using).filter(pk__lt=added.pk - _PRUNE_EVERY).delete()


def _forget_move(connection):
    # A page read the version inside this transaction: its next change moves it again.
    if connection.in_atomic_block:
        after_commit.forget(_moved, using=connection.alias)


@changes.writes("labsite.ContentVersion", "labsite.ContentChange")
def content_changed(sender=None, using=DEFAULT_DB_ALIAS):
    """What follows a change of content (core/changes.py), or of every model (a migrate:
    an upgrade may change what every page says): the public pages are out of date. Moves
    the version in the change's own transaction, once however many rows the transaction
    changes, and once more when it has committed."""
    push.listener.moved()  # this process's next hit reads it, notice or not
    if connections[using].in_atomic_block:
        if not after_commit.once(_moved, using=using):
            return  # moved already, and no page has read the version since
        # robust: what it cannot do it says (an error), and the commit's other hooks still run
        after_commit.once(_moved_after_commit, using, using=using, robust=True)
    ContentChange.objects.using(using).create()


_last_version = None
_ask_database_at = 0.0


def database_down():
    """Whether the database did not answer this process's last read of the version, less
    than DATABASE_RETRY seconds ago."""
    return time.monotonic() < _ask_database_at


def serving_version():
    """The content version pages are served at: read from the database, or, while it does
    not answer (asked again every DATABASE_RETRY seconds), the version read last (by this
    process, else by any: the cache keeps it), under which stored pages are still current."""
    global _last_version, _ask_database_at
    if not database_down():
        pushed = not connections[DEFAULT_DB_ALIAS].in_atomic_block  # a transaction reads
        if pushed and _last_version is not None and push.listener.unchanged():
            return _last_version
        try:
            version = _committed_version()
        except DatabaseError:
            _ask_database_at = time.monotonic() + DATABASE_RETRY
            connection.close()  # a new one next time (a hit never reaches Django's own check)
            logger.warning("The database does not answer: only stored pages are served")
        else:
            if pushed:
                push.listener.read()
            if version != _last_version:
                _last_version = version
                try:
                    cache.set(LAST_VERSION_KEY, version, None)
                except Exception:
                    cache_unavailable()
            return version
    if _last_version is not None:
        return _last_version
    try:
        return cache.get(LAST_VERSION_KEY)
    except Exception:
        return None
