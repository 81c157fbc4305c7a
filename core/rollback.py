"""Rollbacks refused before anything is unapplied: a migration's reversal that may refuse
(a RunPython whose reverse code is marked `guards_rollback`, such as the check that Chinese
texts would be lost) is run against the database as it stands, for every migration the
plan would unapply, before the first one is. A refused rollback then changes nothing:
before, `migrate people 0014` unapplied harvest 0001 and people 0017-0016 (each committed,
their columns and rows gone) and only then refused."""

from django.apps import apps as global_apps
from django.db import DatabaseError, connections
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations import RunPython


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
    if not guarded:
        return
    loader = MigrationLoader(connections[using])
    for migration, operation in guarded:
        state = loader.project_state((migration.app_label, migration.name), at_end=True)
        try:
            operation.reverse_code(state.apps, None)
        except DatabaseError:
            continue  # a later schema renamed what it reads: it runs in its turn instead
