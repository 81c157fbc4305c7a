"""One path for "content changed": every save, delete, many-to-many change and bulk insert of
content that pages show (core/content.py) comes here, once, and so does every migrate (an
upgrade may change what every page says); what follows is what the apps declare on their
AppConfig, each a dotted path to a function of (model, using):

    class LabsiteConfig(AppConfig):
        on_content_change = ("labsite.page_cache.content_changed",)  # pages out of date

    class PublicationsConfig(AppConfig):
        on_content_change = ("publications.tasks.papers_changed",)  # exports to rewrite

The model is None when every model may show otherwise (after a migrate, `everything_changed`).
A change of content no page shows (a harvested candidate, an invitation's stamp) is followed
by nothing: every cached page stays as it is.

A follower does its part inside the change's own transaction, or queues it for after the
commit (core/after_commit.py), so nothing a change puts out of date outlives it.

A follower names the models whose tables it writes (`@writes("labsite.ContentChange")`),
and does nothing while any of them has no table: a restore writes an older archive's rows
at that archive's own schema, from before the change log or the stored exports existed, and
migrates forward afterwards (whose post_migrate moves everything once). Which tables exist
is read once per database, again after each migrate (post_migrate), and after a restore
moves the schema without the command (`schema_moved`).

What follows one row rather than a whole model (the search index, the papers' stamps) is
declared as `on_row_change`: a function of (model, rows, using, how), called once with every
row of a bulk insert whose ids are known, and with [None] for one whose are not (every row
of the model); `how` says what happened to the rows (CREATED, SAVED, ...)."""

import functools
from collections.abc import Callable
from typing import Any

from django.apps import apps as global_apps
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model
from django.db.models.signals import m2m_changed, post_delete, post_migrate, post_save
from django.utils.module_loading import import_string

from core import content
from core.bulk import rows_inserted

Follower = Callable[..., None]

# How a row changed, as `on_row_change` followers are told: saved new, saved, written as an
# archive or fixture holds it (a restore: `raw`, whatever else it carries), deleted, its
# many-to-many links changed, inserted in bulk (core/bulk.py), or told by a call.
CREATED, SAVED, RAW, DELETED, LINKED, INSERTED, TOLD = (
    "created", "saved", "raw", "deleted", "linked", "inserted", "told"
)  # fmt: skip
_HOW = {post_save: SAVED, post_delete: DELETED, m2m_changed: LINKED, rows_inserted: INSERTED}


def connect() -> None:
    for name, signal in (
        ("save", post_save),
        ("delete", post_delete),
        ("m2m", m2m_changed),
        ("bulk", rows_inserted),
    ):
        signal.connect(changed, dispatch_uid=f"core-changes-{name}")
    post_migrate.connect(_migrated, dispatch_uid="core-changes-tables")


def writes(*labels: str) -> Callable[[Follower], Follower]:
    """Mark a follower as writing the tables of these models ("app.Model"): it is skipped
    while one of them does not exist (an older schema, during a restore)."""

    def mark(follower: Follower) -> Follower:
        follower.writes = labels  # type: ignore[attr-defined]
        return follower

    return mark


# {database alias: the names of its tables}, read when first needed
_tables: dict[str, frozenset[str]] = {}


def schema_moved(using: str = DEFAULT_DB_ALIAS) -> None:
    """The schema of `using` has changed (migrations applied or unapplied): read its tables
    again."""
    _tables[using] = frozenset(connections[using].introspection.table_names())


def _migrated(sender: Any, using: str = DEFAULT_DB_ALIAS, **kwargs: object) -> None:
    """post_migrate, sent once per app: the tables are read again at each, and once the last
    app's has come, every follower hears that everything changed. (A flush sends the signal
    too, without a plan: it drops no table and leaves no content to follow.)"""
    if "plan" not in kwargs:
        return
    schema_moved(using)
    if sender is [c for c in global_apps.get_app_configs() if c.models_module is not None][-1]:
        everything_changed(using)


def _has_its_tables(follower: Follower, using: str) -> bool:
    labels = getattr(follower, "writes", ())
    if not labels:
        return True
    if using not in _tables:
        schema_moved(using)
    return all(global_apps.get_model(label)._meta.db_table in _tables[using] for label in labels)


def changed(
    sender: type[Model], using: str = DEFAULT_DB_ALIAS, signal: Any = None, **kwargs: Any
) -> None:
    """Receiver of the signals above (and a call for writes that send none)."""
    if not content.shown_on_pages(sender, kwargs.get("update_fields")):
        return
    for follower in followers():
        if _has_its_tables(follower, using):
            follower(sender, using)
    row = kwargs.get("instance")
    rows: Any = kwargs.get("rows") or [row if isinstance(row, Model) else None]
    how = RAW if kwargs.get("raw") else _HOW.get(signal, TOLD)
    if how == SAVED and kwargs.get("created"):
        how = CREATED
    for follower in followers("on_row_change"):
        if _has_its_tables(follower, using):
            follower(sender, rows, using, how)


def everything_changed(using: str = DEFAULT_DB_ALIAS) -> None:
    """What every model shows may have changed (a migrate): each follower of content
    changes is told so, with the model None."""
    for follower in followers():
        if _has_its_tables(follower, using):
            follower(None, using)


@functools.cache
def followers(declaration: str = "on_content_change") -> list[Follower]:
    return [
        import_string(path)
        for config in content.project_apps()
        for path in getattr(config, declaration, ())
    ]
