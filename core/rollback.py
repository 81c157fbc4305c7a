"""Rollbacks refused before anything is unapplied: a migration's reversal that may refuse
(a RunPython whose reverse code is marked `guards_rollback`, such as the check that Chinese
texts would be lost) is run against the database as it stands, for every migration the
plan would unapply, before the first one is. A refused rollback then changes nothing:
before, `migrate people 0014` unapplied harvest 0001 and people 0017-0016 (each committed,
their columns and rows gone) and only then refused.

A rollback that would drop a table of content holding rows (unapplying the migration that
created it: `migrate publications 0011` takes the research themes' migration back with it)
is refused the same way, naming what it would drop."""

from django.apps import apps as global_apps
from django.core.management.base import CommandError
from django.db import DatabaseError, connections
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations import CreateModel, RunPython

from core.content import is_content


def guards_rollback(check):
    """Marks a RunPython reverse function as one that may refuse the rollback."""
    check.guards_rollback = True
    return check


def check_rollback_first(sender, plan=None, using="default", **kwargs):
    """pre_migrate receiver (sent once per app with the same plan): runs every guard of the
    migrations the plan unapplies, at the schema each was written for, and lets the first
    refusal stop `migrate` before it starts."""
    first = next(c for c in global_apps.get_app_configs() if c.models_module is not None)
    if not plan or sender is not first:
        return
    guarded = [
        (migration, operation)
        for migration, backwards in plan
        if backwards
        for operation in migration.operations
        if isinstance(operation, RunPython)
        and getattr(operation.reverse_code, "guards_rollback", False)
    ]
    loader = MigrationLoader(connections[using])
    for migration, operation in guarded:
        state = loader.project_state((migration.app_label, migration.name), at_end=True)
        try:
            operation.reverse_code(state.apps, None)
        except DatabaseError:
            continue  # a later schema renamed what it reads: it runs in its turn instead
    _refuse_dropping_content(plan, using)


def _refuse_dropping_content(plan, using):
    """Refuses when a migration the plan unapplies created a content table that holds rows
    (one count per such table)."""
    dropped = []
    for migration, backwards in plan:
        for operation in migration.operations if backwards else ():
            if not isinstance(operation, CreateModel):
                continue
            try:
                model = global_apps.get_model(migration.app_label, operation.name)
            except LookupError:
                continue  # a model a later migration removed: its table is gone already
            if not is_content(model):
                continue
            try:
                count = model._base_manager.using(using).count()
            except DatabaseError:
                continue  # a later schema renamed the table: its own rollback says so
            if count:
                dropped.append(f"{model._meta.verbose_name_plural} ({model._meta.label}): {count}")
    if dropped:
        raise CommandError(
            "Rolling back would drop the tables holding "
            + ", ".join(dropped)
            + ". Archive the lab first (manage.py export_lab), or delete them; "
            "nothing was rolled back."
        )
