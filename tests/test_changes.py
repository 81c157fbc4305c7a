"""One path for change (core/changes.py): every save, delete, link change, bulk insert and
migrate of content reaches what follows it through the dispatcher alone, and work waiting
for a commit is queued without reading Django's own list of commit hooks."""

import ast
import weakref
from pathlib import Path

import pytest
from django.db.models.signals import (
    m2m_changed,
    post_delete,
    post_migrate,
    post_save,
    pre_delete,
    pre_save,
)

from core.bulk import rows_inserted
from core.content import project_apps

ROOT = Path(__file__).resolve().parent.parent
# The connection's list of commit hooks, its name spelled so that a grep for it finds no code
COMMIT_HOOKS = "_".join(["run", "on", "commit"])


def _sources():
    """The project's Python files: its apps, and the benches and tests that drive them."""
    folders = [Path(config.path) for config in project_apps()] + [ROOT / "bench", ROOT / "tests"]
    for folder in folders:
        yield from sorted(folder.rglob("*.py"))


def test_no_code_reads_or_rewrites_djangos_list_of_commit_hooks():
    """Read from the source, as tests/test_layers.py reads the imports."""
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in _sources()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path)))
        if isinstance(node, ast.Attribute) and node.attr == COMMIT_HOOKS
    ]

    assert found == []


def _project_receivers(signal):
    """The dotted names of the project's own receivers of `signal`."""
    apps = {config.name for config in project_apps()}
    for entry in signal.receivers:  # (lookup key, the receiver or a weak reference, ...)
        receiver = entry[1]() if isinstance(entry[1], weakref.ReferenceType) else entry[1]
        if receiver is not None and receiver.__module__.split(".")[0] in apps:
            yield f"{receiver.__module__}.{receiver.__qualname__}"


@pytest.mark.parametrize(
    "signal", [pre_save, post_save, pre_delete, post_delete, m2m_changed, rows_inserted]
)
def test_only_the_dispatcher_receives_the_changes_of_rows(signal):
    assert set(_project_receivers(signal)) <= {"core.changes.changed"}


def test_only_the_dispatcher_and_the_editing_roles_receive_a_migrate():
    assert set(_project_receivers(post_migrate)) == {
        "core.changes._migrated",  # what follows: the tables, and everything changed
        "lab.groups.sync_groups",  # the editing roles (auth groups): no content
    }
