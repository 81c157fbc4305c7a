"""Bringing deleted content back from django-simple-history's records, with what went with it.

A deleted publication comes back with its authorships, a person with their profile sections,
talks and awards, and rows that merely pointed at the object (an authorship's person link,
nulled on delete) point at it again.
"""

import datetime

from django.db import models, transaction
from simple_history.models import HistoricalChanges

# Rows deleted along with an object are recorded within this window before the object itself.
CASCADE_WINDOW = datetime.timedelta(minutes=1)


def deleted_records(model):
    """The last record of each object of `model` that is deleted now, newest first."""
    current = model.objects.values("pk")
    return (
        model.history.filter(history_type="-")
        .exclude(**{f"{model._meta.pk.attname}__in": current})
        .select_related("history_user")
        .order_by("-history_date")
    )


@transaction.atomic
def restore(record):
    """Re-create the object `record` (a deletion record) describes, and what went with it.

    Raises ValidationError, writing nothing, when the object can no longer come back as it
    was: another row has since taken its address (slug), its DOI or another unique value."""
    instance = record.instance
    instance.validate_unique()
    instance.validate_constraints()
    instance.save()
    _restore_related(instance, record.history_date)
    return instance


def _restore_related(instance, deleted_at):
    for relation in instance._meta.related_objects:
        child_model = relation.related_model
        if relation.many_to_many or not has_history(child_model):
            continue
        field = relation.field
        on_delete = field.remote_field.on_delete
        if on_delete is models.CASCADE:
            _restore_cascaded(child_model, field, instance, deleted_at)
        elif on_delete is models.SET_NULL:
            _relink_nulled(child_model, field, instance, deleted_at)


def _restore_cascaded(child_model, field, instance, deleted_at):
    records = child_model.history.filter(
        **{field.attname: instance.pk},
        history_type="-",
        history_date__range=(deleted_at - CASCADE_WINDOW, deleted_at),
    )
    existing = set(
        child_model.objects.filter(**{field.attname: instance.pk}).values_list("pk", flat=True)
    )
    for child_record in records.order_by("history_date"):
        if child_record.instance.pk not in existing:
            child = child_record.instance
            child.save()
            existing.add(child.pk)
            _restore_related(child, child_record.history_date)


def _relink_nulled(child_model, field, instance, deleted_at):
    """Rows whose link was set to NULL by the deletion (a bulk UPDATE, so unrecorded): those
    whose last record before it still pointed here point here again."""
    before = child_model.history.filter(history_date__lte=deleted_at)
    pointed_here = before.filter(**{field.attname: instance.pk}).values_list(
        child_model._meta.pk.attname, flat=True
    )
    for child in child_model.objects.filter(pk__in=set(pointed_here), **{field.attname: None}):
        last = before.filter(**{child_model._meta.pk.attname: child.pk}).latest("history_date")
        if getattr(last, field.attname) == instance.pk:
            setattr(child, field.attname, instance.pk)
            child.save(update_fields=[field.attname])


def has_history(model):
    return hasattr(model, "history") and issubclass(model.history.model, HistoricalChanges)
