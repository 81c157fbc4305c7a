"""Inserting thousands of rows, with their history, in the time an import deserves.

Django's bulk_create compiles SQL for every value of every row (most of a 2,000-paper
import's time). For rows whose ids are not needed back (author rows, history rows), this
prepares each value once by its field, as bulk_create would, and hands the rows to the
driver's executemany. History rows are built as django-simple-history's own
`bulk_history_create` builds them ("+" records with the user and time); the test suite
checks that a row written here equals one written there.
"""

from collections.abc import Sequence
from operator import attrgetter
from typing import Any

from django.db import connection
from django.db.models import Field, Model
from django.dispatch import Signal
from django.utils import timezone
from simple_history.utils import get_history_manager_for_model

# Field types whose Python str, int, bool and None values go to the database as they are.
_PLAIN = {
    "AutoField",
    "BigAutoField",
    "BigIntegerField",
    "BooleanField",
    "CharField",
    "ForeignKey",
    "IntegerField",
    "PositiveIntegerField",
    "PositiveSmallIntegerField",
    "SlugField",
    "SmallIntegerField",
    "TextField",
}
_PLAIN_TYPES = {str, int, bool, type(None)}

# Sent (sender: the model; rows: the objects, when their ids are known) after rows are
# inserted here, as bulk writes send no post_save: whoever caches what the rows show listens
# (the site's page cache, the search index).
rows_inserted = Signal()


def insert_rows(
    model: type[Model],
    objs: Sequence[Model],
    batch_size: int = 2000,
    *,
    raw: bool = False,
    tell: bool = True,
) -> None:
    """INSERT `objs` (unsaved instances of `model`, with no id set) in batches. `raw` rows
    are written exactly as they are, ids and timestamps included (a restore): the caller
    then resets the table's id sequence. No rows: nothing is written, and nothing told.
    Without `tell`, the caller sends `rows_inserted` itself (once it knows the ids)."""
    if not objs:
        return
    fields = [f for f in model._meta.concrete_fields if raw or not f.primary_key]
    if not raw:
        for obj in objs:
            # As bulk_create does: a related object saved after assignment lends its id.
            obj._prepare_related_fields_for_save(operation_name="bulk_create")  # type: ignore[attr-defined]
    columns = []
    for field in fields:
        if raw or type(field).pre_save is Field.pre_save:  # the attribute as it is
            columns.append(list(map(attrgetter(field.attname), objs)))
        else:  # auto_now, files and the like
            columns.append([field.pre_save(obj, True) for obj in objs])
    _execute(model, fields, columns, batch_size)
    if tell:
        rows_inserted.send(sender=model)


def _execute(
    model: type[Model], fields: list[Any], columns: list[list[Any]], batch_size: int = 2000
) -> None:
    """executemany of the rows whose values `columns` hold (one list of Python values per
    field, in `fields` order), each value prepared by its field unless the driver takes it
    as it is."""
    for i, field in enumerate(fields):
        column = columns[i]
        if field.get_internal_type() in _PLAIN and set(map(type, column)) <= _PLAIN_TYPES:
            continue
        try:  # each distinct value once: one history time for every record
            prepared = {value: field.get_db_prep_save(value, connection) for value in set(column)}
            columns[i] = list(map(prepared.__getitem__, column))
        except TypeError:  # not hashable (JSON)
            columns[i] = [field.get_db_prep_save(value, connection) for value in column]
    rows = list(zip(*columns, strict=True))
    names = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    table = connection.ops.quote_name(model._meta.db_table)
    sql = f"INSERT INTO {table} ({names}) VALUES ({marks})"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch_size):
            cursor.executemany(sql, rows[start : start + batch_size])


def insert_with_history(
    model: type[Model], objs: Sequence[Model], key: tuple[str, ...], user: Any = None
) -> None:
    """INSERT `objs` and a "+" history record for each: the rows first, then their ids read
    back by `key` (field names whose values are unique among them, e.g. ("slug",)), then
    the records. Sets each object's pk, and tells `rows_inserted` which rows came. No rows:
    nothing is written, and nothing told."""
    if not objs:
        return
    insert_rows(model, objs, tell=False)
    by_key = {tuple(getattr(o, f) for f in key): o for o in objs}
    first = key[0]
    values = sorted({getattr(o, first) for o in objs})
    for start in range(0, len(values), 500):
        stored = model._default_manager.filter(**{f"{first}__in": values[start : start + 500]})
        for pk, *found in stored.values_list("pk", *key):
            obj = by_key.get(tuple(found))
            if obj is not None:
                obj.pk = pk
                obj._state.adding = False
    _insert_history(model, objs, user)
    rows_inserted.send(sender=model, rows=objs)


def _insert_history(model: type[Model], objs: Sequence[Model], user: Any) -> None:
    """A "+" history record of each object, as django-simple-history's
    `bulk_history_create` makes them, written without building a model instance each."""
    history = get_history_manager_for_model(model).model
    fields = [f for f in history._meta.concrete_fields if not f.primary_key]
    tracked = {f.attname for f in history.tracked_fields}
    extra = {
        "history_date": timezone.now(),
        "history_user_id": user.pk if user else None,
        "history_change_reason": None,
        "history_type": "+",
    }
    columns = [
        list(map(attrgetter(f.attname), objs))
        if f.attname in tracked
        else [extra[f.attname]] * len(objs)
        for f in fields
    ]
    _execute(history, fields, columns)
