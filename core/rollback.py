"""Rollbacks refused before anything is unapplied: a migration's reversal that may refuse
(a RunPython whose reverse code is marked `guards_rollback`, such as the check that Chinese
texts would be lost) is run against the database as it stands, for every migration the
plan would unapply, before the first one is. A refused rollback then changes nothing:
before, `migrate people 0014` unapplied harvest 0001 and people 0017-0016 (each committed,
their columns and rows gone) and only then refused.

A rollback that would drop a table of content holding rows (unapplying the migration that
created it: `migrate publications 0011` takes the research themes' migration back with it)
is refused the same way, naming what it would drop.

And a rollback unapplies migrations in the reverse of the forwards order (installed at
start by `unapply_in_reverse_of_forwards`): Django unapplies each migration from the schema its
forwards plan had just before it, but where an app's branches met (a merge migration) its
backwards plan may unapply them in another order, and each step then starts from a schema
that still holds what the steps before it removed. SQLite drops a column by remaking the
table from that schema, so a column already dropped came back (`migrate publications 0013`
restored blog_url, NOT NULL, beside rows that had none); PostgreSQL altered tables that no
longer had a field. In the reverse of the forwards order each step starts from the schema
the database has."""

from django.apps import apps as global_apps
from django.core.management.base import CommandError
from django.db import DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
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


_django_migration_plan = MigrationExecutor.migration_plan


def _migration_plan(executor, targets, clean_start=False):
    plan = _django_migration_plan(executor, targets, clean_start=clean_start)
    if not plan or not all(backwards for _migration, backwards in plan):
        return plan
    leaves = executor.loader.graph.leaf_nodes()
    forwards = _django_migration_plan(executor, leaves, clean_start=True)
    position = {(m.app_label, m.name): i for i, (m, _backwards) in enumerate(forwards)}
    return sorted(plan, key=lambda step: -position.get((step[0].app_label, step[0].name), -1))


def unapply_in_reverse_of_forwards():
    """Every backwards plan (`migrate`, a restore, a test's executor) in the reverse of the
    forwards order (see the module's docstring)."""
    MigrationExecutor.migration_plan = _migration_plan  # type: ignore[method-assign]
