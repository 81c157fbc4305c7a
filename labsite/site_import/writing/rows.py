"""One import's rows: each found again by what it says, or made and checked by its model's own
rules; the rows of people not written yet wait to be written with them."""

from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.core.exceptions import ValidationError
from django.db import models

from core.bulk import insert_with_history
from labsite.site_import.writing.report import NEW, UNCHANGED, Report

M = TypeVar("M", bound=models.Model)
# A row's values besides its key, or a function giving them (see Rows.row).
Extra = dict[str, Any] | Callable[[], dict[str, Any]] | None


class Rows:
    """The rows of one import, counted in its report and recorded in history as `user`'s."""

    def __init__(self, report: Report, user: Any) -> None:
        self.report, self.user = report, user
        self.waiting: dict[type[models.Model], tuple[tuple[str, ...], list[models.Model]]] = {}
        self.waiting_keys: dict[tuple[Any, ...], models.Model] = {}

    def row(
        self,
        model: type[M],
        key: dict[str, Any],
        label: str,
        *,
        kind: str,
        extra: Extra = None,
        source: str = "",
    ) -> M | None:
        """The row `key` names: found (unchanged), or made with `extra` (a function giving
        them where working them out writes something, as bringing in a text's images does)
        and checked by the model's own rules (a problem, naming `label`, when they refuse
        it); `source`, the site's file it comes from, begins every message of it. A row of
        a person not written yet cannot be in the lab: it waits with them (_waiting)."""
        unwritten = tuple(
            name for name, value in key.items() if isinstance(value, models.Model) and not value.pk
        )
        if unwritten:
            return self._waiting(model, key, label, kind, extra, source, unwritten)
        found = model._default_manager.filter(**key).first()
        if found is not None:
            self.report.count(kind, UNCHANGED, label)
            return found
        extra = extra() if callable(extra) else extra
        row = model(**key, **{k: v for k, v in (extra or {}).items() if v not in (None, "")})
        if not self.valid(row, f"{source + ': ' if source else ''}{kind} “{label[:100]}”"):
            return None
        row.save()
        self.report.count(kind, NEW, label)
        return row

    def _waiting(
        self,
        model: type[M],
        key: dict[str, Any],
        label: str,
        kind: str,
        extra: Extra,
        source: str,
        unwritten: tuple[str, ...],
    ) -> M | None:
        """`row` for a row of a person not written yet: found among the rows waiting with
        them (unchanged), or made, checked (all but the person, who is checked already) and
        left to wait; write_waiting writes them all together."""
        memo = (model, *((n, id(v) if isinstance(v, models.Model) else v) for n, v in key.items()))
        found = self.waiting_keys.get(memo)
        if found is not None:
            self.report.count(kind, UNCHANGED, label)
            return cast(M, found)  # kept under its own model's memo
        extra = extra() if callable(extra) else extra
        row = model(**key, **{k: v for k, v in (extra or {}).items() if v not in (None, "")})
        what = f"{source + ': ' if source else ''}{kind} “{label[:100]}”"
        if not self.valid(row, what, exclude=unwritten):
            return None
        names = tuple(_column(model, name) for name in key)
        self.waiting.setdefault(model, (names, []))[1].append(row)
        self.waiting_keys[memo] = row
        self.report.count(kind, NEW, label)
        return row

    def write_waiting(self) -> None:
        """The rows waiting for their people, written (once the people are), a few INSERTs
        with their history."""
        for model, (names, rows) in self.waiting.items():
            insert_with_history(model, rows, names, self.user)
        self.waiting, self.waiting_keys = {}, {}

    def valid(self, row: models.Model, what: str, exclude: tuple[str, ...] = ()) -> bool:
        """The model's own rules: an optional value they refuse is dropped and named (the row
        is kept without it); a row they still refuse is skipped and named. `exclude`: the
        fields not checked (a person not written yet, whose row this is)."""
        try:
            row.full_clean(exclude=exclude, validate_unique=False)
            return True
        except ValidationError as error:
            errors = error.message_dict
        for name, messages in errors.items():
            model_field = _field(row, name)
            if model_field is not None and model_field.blank:
                value = getattr(row, model_field.attname)
                setattr(row, model_field.attname, None if model_field.null else "")
                self.report.notes.append(
                    f"{what}: its {model_field.verbose_name} “{str(value)[:100]}” is dropped "
                    f"({' '.join(messages)})"
                )
        try:
            row.full_clean(exclude=exclude, validate_unique=False)
        except ValidationError as error:
            reasons = "; ".join(
                f"{name}: {' '.join(messages)}" if name != "__all__" else " ".join(messages)
                for name, messages in error.message_dict.items()
            )
            self.report.skipped.append(f"{what} cannot be kept: {reasons}")
            return False
        return True


def fill(row: models.Model, values: dict[str, str]) -> bool:
    """Set each of `values` the row does not have yet; an admin's text is never replaced."""
    filled = False
    for name, value in values.items():
        if value and not getattr(row, name):
            setattr(row, name, value)
            filled = True
    return filled


def _field(row: models.Model, name: str) -> Any:
    try:
        return row._meta.get_field(name)
    except Exception:  # "__all__", or a name no field has
        return None


def _column(model: type[models.Model], name: str) -> str:
    """The column of the field `name` (a key names the model's own fields, never a relation's
    other end)."""
    return cast("models.Field[Any, Any]", model._meta.get_field(name)).attname
