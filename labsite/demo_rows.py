"""Which rows the demo lab made, and taking exactly those away again.

The demo loader records every content row that did not exist before it ran (`recording`),
whatever made it (its own saves, the Crossref importer's bulk inserts). `removal_plan` then
sorts the recorded rows that still exist into those that go and those that stay:

- a row a person has since edited (its history names a user: an admin or member form saved
  it) stays, and so does what it owns (a kept person keeps their profile sections; a row
  with two owners, a post's author, goes with either);
- a row whose removal would take a row the demo did not make stays (a demo person who
  authors a post a lab admin wrote), and so does one another kept row still needs (a venue a
  lab admin's paper is at, a page a kept subpage sits under).

Each kept row is named with its reason. What goes takes its history and its files with it;
the lab's settings (a single row, never removed) lose only the values the demo gave them and
no one has changed since.
"""

import tomllib
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.contenttypes.models import ContentType
from django.db import models, router, transaction
from django.db.models.deletion import Collector

from core import content, images
from core.languages import columns_given
from lab.models import LabSettings
from labsite.models import DemoRow

DEMO_DIR = Path(__file__).resolve().parent / "demo"


def _recorded_models():
    # The lab's settings are one row the site always has: the demo only fills it in.
    return [m for m in content.models_of() if m is not LabSettings]


@contextmanager
def recording():
    """Within the block, every content row that is new when it ends is recorded as the
    demo's (one query per content model before and after)."""
    before = {
        model: set(model._base_manager.values_list("pk", flat=True)) for model in _recorded_models()
    }
    yield
    rows = []
    for model, existing in before.items():
        kind = ContentType.objects.get_for_model(model, for_concrete_model=False)
        new = set(model._base_manager.values_list("pk", flat=True)) - existing
        rows += [DemoRow(content_type=kind, object_id=pk) for pk in new]
    DemoRow.objects.bulk_create(rows, ignore_conflicts=True)


@dataclass
class RemovalPlan:
    """What `remove` takes: the demo's rows that go, how many rows of each model go with them
    (cascaded rows included), and the demo's rows that stay, each with its reason."""

    rows: list = field(default_factory=list)
    counts: dict = field(default_factory=dict)  # model -> number of rows, in content order
    kept: list = field(default_factory=list)  # (row, reason)

    def named_counts(self):
        """[(what, how many)]: [("people", 2), ("publication", 1), …]."""
        return [
            (m._meta.verbose_name if n == 1 else m._meta.verbose_name_plural, n)
            for m, n in self.counts.items()
        ]

    def summary(self):
        """The counts as a phrase: "2 people, 31 publications, …", or "nothing"."""
        return ", ".join(f"{n} {what}" for what, n in self.named_counts()) or "nothing"


def recorded_rows():
    """{model: {pk: row}} of the demo's rows that still exist (a query per model)."""
    pks = defaultdict(set)
    for content_type_id, object_id in DemoRow.objects.values_list("content_type", "object_id"):
        pks[content_type_id].add(object_id)
    rows = {}
    for content_type_id, ids in pks.items():
        model = ContentType.objects.get_for_id(content_type_id).model_class()
        if model is None or not content.is_content(model):
            continue
        rows[model] = model._base_manager.in_bulk(ids)
    return rows


def record_of_unedited_rows():
    """The record (DemoRow rows) but for the rows someone has edited since the demo made
    them: what a backup without history keeps of it. A query per recorded model."""
    pks = defaultdict(set)
    for content_type_id, object_id in DemoRow.objects.values_list("content_type", "object_id"):
        pks[content_type_id].add(object_id)
    edited = models.Q(pk__in=[])
    for content_type_id, ids in pks.items():
        model = ContentType.objects.get_for_id(content_type_id).model_class()
        if model is not None:
            ids = _edited(model, list(ids))
            edited |= models.Q(content_type_id=content_type_id, object_id__in=ids)
    return DemoRow.objects.exclude(edited)


def _edited(model, ids):
    """The ids among `ids` whose history names a user: someone saved them in a form since."""
    if not hasattr(model, "history"):
        return set()
    attname = model._meta.pk.attname
    return set(
        model.history.filter(**{f"{attname}__in": ids}, history_user__isnull=False).values_list(
            attname, flat=True
        )
    )


def _cascade(obj):
    """`obj` and every row deleting it would delete along (CASCADE, through any depth)."""
    found, todo = [], [obj]
    while todo:
        row = todo.pop()
        found.append(row)
        for relation in row._meta.related_objects:
            if relation.many_to_many or relation.field.remote_field.on_delete is not models.CASCADE:
                continue
            manager = relation.related_model._base_manager
            todo += list(manager.filter(**{relation.field.name: row}))
    return found


def _protecting(obj):
    """The rows whose PROTECT link to `obj` forbids deleting it."""
    rows = []
    for relation in obj._meta.related_objects:
        if not relation.many_to_many and relation.field.remote_field.on_delete is models.PROTECT:
            rows += list(relation.related_model._base_manager.filter(**{relation.field.name: obj}))
    return rows


def _owners(obj):
    """The rows `obj` belongs to: those its CASCADE links point at."""
    for f in obj._meta.concrete_fields:
        if f.is_relation and f.remote_field.on_delete is models.CASCADE:
            target = getattr(obj, f.attname)
            if target is not None:
                yield (f.related_model, target)


def _key(obj):
    return (type(obj), obj.pk)


def _name(model, pk, rows):
    obj = rows.get(model, {}).get(pk) or model._base_manager.filter(pk=pk).first()
    return f"{model._meta.verbose_name} “{obj}”"


def removal_plan():
    """The demo's rows sorted into those that go and those that stay (see the module's
    docstring). Reads every demo row and what links to it: a few hundred small queries for
    the demo lab."""
    rows = recorded_rows()
    demo = {(model, pk) for model, objs in rows.items() for pk in objs}
    kept = {}
    for model, objs in rows.items():
        for pk in _edited(model, list(objs)):
            kept[(model, pk)] = "edited since the demo loaded it"
    changed = True
    while changed:
        changed = False
        for model, objs in rows.items():
            for pk, obj in objs.items():
                if (model, pk) in kept:
                    continue
                reason = _reason_to_keep(obj, demo, kept, rows)
                if reason:
                    kept[(model, pk)] = reason
                    changed = True
    plan = RemovalPlan()
    taken = defaultdict(set)
    for model, objs in rows.items():
        for pk, obj in objs.items():
            if (model, pk) in kept:
                plan.kept.append((obj, kept[(model, pk)]))
            elif pk not in taken[model]:
                plan.rows.append(obj)
                for child in _cascade(obj):
                    taken[type(child)].add(child.pk)
    plan.counts = {m: len(taken[m]) for m in content.models_of() if taken.get(m)}
    return plan


def _reason_to_keep(obj, demo, kept, rows):
    owners = [owner for owner in _owners(obj) if owner in demo]
    if owners and all(owner in kept for owner in owners):
        return f"belongs to {_name(*owners[0], rows)}, which stays"
    for child in _cascade(obj)[1:]:
        key = _key(child)
        if key in kept or (key not in demo and hasattr(type(child), "history")):
            return f"{_name(*key, rows)} needs it"
    for row in _protecting(obj):
        key = _key(row)
        if key in kept or key not in demo:
            return f"{_name(*key, rows)} needs it"
    return None


@transaction.atomic
def remove(plan=None):
    """Delete what `plan` (by default a fresh one) says goes, with every history record of
    it and, once the transaction commits, its files; reset the lab settings the demo gave
    and no one changed. Returns the plan."""
    plan = plan or removal_plan()
    deleted = defaultdict(set)
    files = []
    pending = plan.rows
    while pending:
        waiting = []
        for obj in pending:
            model = type(obj)
            if obj.pk in deleted[model]:
                continue  # went with its owner
            if any(row.pk not in deleted[type(row)] for row in _protecting(obj)):
                waiting.append(obj)  # a subpage of it goes first
                continue
            collector = Collector(using=router.db_for_write(model))
            collector.collect([obj])
            for child_model, children in collector.data.items():
                for child in children:
                    deleted[child_model].add(child.pk)
                    files += _files_of(child)
            collector.delete()
        if len(waiting) == len(pending):
            raise RuntimeError(f"These demo rows hold one another: {waiting}")
        pending = waiting
    for model, pks in deleted.items():
        attname = model._meta.pk.attname
        if hasattr(model, "history"):
            model.history.filter(**{f"{attname}__in": pks}).delete()
        kind = ContentType.objects.get_for_model(model, for_concrete_model=False)
        DemoRow.objects.filter(content_type=kind, object_id__in=pks).delete()
    for storage, name in files:
        images.delete_after_commit(storage, [name])
    _reset_lab_settings()
    return plan


def _files_of(obj):
    return [
        (f.storage, getattr(obj, f.attname).name)
        for f in obj._meta.concrete_fields
        if isinstance(f, models.FileField) and getattr(obj, f.attname)
    ]


def demo_lab_settings():
    with open(DEMO_DIR / "lab.toml", "rb") as file:
        return {k: v.strip() if isinstance(v, str) else v for k, v in tomllib.load(file).items()}


def _reset_lab_settings():
    """The settings still holding the demo's values go back to their defaults."""
    settings = LabSettings.objects.filter(pk=1).first()
    if settings is None:
        return
    changed = False
    values = demo_lab_settings()
    for name in list(values):
        for column, value in columns_given(LabSettings, values, name).items():
            if getattr(settings, column) == value:
                setattr(settings, column, LabSettings._meta.get_field(column).get_default())
                changed = True
    if changed:
        settings.full_clean()
        settings.save()
