"""Inserting thousands of rows, with their history, in the time an import deserves.

Django's bulk_create compiles SQL for every value of every row (most of a 2,000-paper
import's time). For rows whose ids are not needed back (author rows, history rows), this
prepares each value once by its field, as bulk_create would, and hands the rows to the
driver's executemany. History rows are built as django-simple-history's own
`bulk_history_create` builds them ("+" records with the user and time); the test suite
checks that a row written here equals one written there.
"""

from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Model
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
_PLAIN_VALUES = (str, int, bool, type(None))


def insert_rows(model: type[Model], objs: Sequence[Model], batch_size: int = 2000) -> None:
    """INSERT `objs` (unsaved instances of `model`, with no id set) in batches."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    rows = []
    for obj in objs:
        # As bulk_create does: a related object saved after assignment lends its id.
        obj._prepare_related_fields_for_save(operation_name="bulk_create")  # type: ignore[attr-defined]
        rows.append([field.pre_save(obj, True) for field in fields])
    _execute(model, fields, rows, batch_size)


def _execute(
    model: type[Model], fields: list[Any], rows: list[list[Any]], batch_size: int = 2000
) -> None:
    """executemany of `rows` (lists of Python values in `fields` order), each value prepared
    by its field unless the driver takes it as it is."""
    plain = [f.get_internal_type() in _PLAIN for f in fields]
    # (column, value) → prepared value: one history time for every record
    prepared: dict[tuple[int, Any], Any] = {}
    for row in rows:
        for i, (field, is_plain) in enumerate(zip(fields, plain, strict=True)):
            value = row[i]
            if is_plain and isinstance(value, _PLAIN_VALUES):
                continue
            try:
                row[i] = prepared[i, value]
            except (KeyError, TypeError):  # not seen yet, or not hashable (JSON)
                row[i] = field.get_db_prep_save(value, connection)
                if getattr(value, "__hash__", None):
                    prepared[i, value] = row[i]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    table = connection.ops.quote_name(model._meta.db_table)
    sql = f"INSERT INTO {table} ({columns}) VALUES ({marks})"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch_size):
            cursor.executemany(sql, rows[start : start + batch_size])


def insert_with_history(
    model: type[Model], objs: Sequence[Model], key: tuple[str, ...], user: Any = None
) -> None:
    """INSERT `objs` and a "+" history record for each: the rows first, then their ids read
    back by `key` (field names whose values are unique among them, e.g. ("slug",)), then
    the records. Sets each object's pk."""
    insert_rows(model, objs)
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
    rows = [
        [getattr(obj, f.attname) if f.attname in tracked else extra[f.attname] for f in fields]
        for obj in objs
    ]
    _execute(history, fields, rows)
