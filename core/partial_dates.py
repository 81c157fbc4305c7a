"""Dates known to a year, a month or a day: one value type, one model field, one way to render.

A partial date is stored as ISO 8601 reduced-precision text ("2026", "2026-06", "2026-06-15"),
so a single column carries both the date and its precision, sorts correctly in SQL at any
precision, and filters by year with a plain prefix lookup.
"""

import calendar
import datetime
import re
from dataclasses import dataclass
from functools import lru_cache, total_ordering
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Length, Substr
from django.db.models.query_utils import DeferredAttribute
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

FORMAT_HELP = "YYYY, YYYY-MM or YYYY-MM-DD (e.g. 2026, 2026-06, 2026-06-15; 2026.06 also works)"
INVALID_MESSAGE = gettext_lazy(
    "Enter a date as YYYY, YYYY-MM or YYYY-MM-DD (e.g. 2026, 2026-06, 2026-06-15; 2026.06 "
    "also works)."
)

_NUMERIC = re.compile(r"^(\d{4})(?:[-./](\d{1,2})(?:[-./](\d{1,2}))?)?$")
_MONTH_NAMES = {
    name.lower(): number
    for number in range(1, 13)
    for name in (calendar.month_name[number], calendar.month_abbr[number])
}
_WORDY = re.compile(r"^(?:(\d{1,2})\s+)?([A-Za-z]+)\.?,?\s+(\d{4})$")


@total_ordering
@dataclass(frozen=True)
class PartialDate:
    year: int
    month: int | None = None
    day: int | None = None

    def __post_init__(self) -> None:
        if not 1000 <= self.year <= 9999:
            raise ValueError("year out of range")
        if self.month is None and self.day is not None:
            raise ValueError("a day needs a month")
        if self.month is not None and not 1 <= self.month <= 12:
            raise ValueError("month out of range")
        if self.day is not None and self.month is not None:
            datetime.date(self.year, self.month, self.day)  # raises ValueError when invalid

    @classmethod
    def parse(cls, text: object) -> "PartialDate":
        """Parse "2026", "2026-06", "2026.06", "2026-06-15", "Jun 2026" or "15 June 2026"."""
        text = str(text).strip()
        if match := _NUMERIC.match(text):
            parts = [int(p) for p in match.groups() if p is not None]
        elif (match := _WORDY.match(text)) and match[2].lower() in _MONTH_NAMES:
            parts = [int(match[3]), _MONTH_NAMES[match[2].lower()]]
            if match[1]:
                parts.append(int(match[1]))
        else:
            raise ValueError(f"not a partial date: {text!r}")
        return cls(*parts)

    @classmethod
    def from_date(cls, value: datetime.date, precision: str = "day") -> "PartialDate":
        parts = {"year": 1, "month": 2, "day": 3}[precision]
        return cls(*(value.year, value.month, value.day)[:parts])

    @property
    def precision(self) -> str:
        return "day" if self.day else "month" if self.month else "year"

    def isoformat(self) -> str:
        return "-".join(
            [f"{self.year:04d}"] + [f"{p:02d}" for p in (self.month, self.day) if p is not None]
        )

    def first_day(self) -> datetime.date:
        return datetime.date(self.year, self.month or 1, self.day or 1)

    def last_day(self) -> datetime.date:
        if self.day:
            return self.first_day()
        month = self.month or 12
        return datetime.date(self.year, month, calendar.monthrange(self.year, month)[1])

    def __str__(self) -> str:
        """ "2026", "Jun 2026", "15 Jun 2026"; "2026年6月" in Chinese (the active language's
        YEAR_MONTH_FORMAT and DATE_FORMAT, labsite/formats/)."""
        if self.month is None:
            return str(self.year)
        return formats.date_format(
            self.first_day(), "DATE_FORMAT" if self.day else "YEAR_MONTH_FORMAT"
        )

    def _key(self) -> tuple[int, int, int]:
        return (self.year, self.month or 0, self.day or 0)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, PartialDate):
            return NotImplemented
        return self._key() < other._key()


@lru_cache(maxsize=4096)
def _stored(text: str) -> PartialDate:
    """A stored date read back: a lab has few distinct dates and a page reads each many
    times (300 papers: 300 parses), and a PartialDate is immutable, so one is shared."""
    return PartialDate.parse(text)


def coerce(value: object) -> "PartialDate | None":
    """A PartialDate (or None) from text, a date or a PartialDate; ValidationError if bad."""
    if value is None or value == "":
        return None
    if isinstance(value, PartialDate):
        return value
    if isinstance(value, datetime.date):
        return PartialDate.from_date(value)
    try:
        return PartialDate.parse(value)
    except ValueError:
        raise ValidationError(INVALID_MESSAGE, code="invalid_partial_date") from None


def format_range(
    start: PartialDate | None, end: PartialDate | None, *, open_end: str | None = None
) -> str:
    """Render "Dec 2023 – Present" ("2023年12月 – 至今"), "Sep 2016 – Jun 2021", or a single
    date when both agree."""
    if start is None and end is None:
        return ""
    if start is None:
        return str(end)
    if end is None:
        until = open_end or _("Present")
        return f"{start} – {until}"
    if start == end:
        return str(start)
    return f"{start} – {end}"


def years(queryset: models.QuerySet, field_name: str = "date") -> list[str]:
    """The distinct years of `queryset`'s partial dates in `field_name`, newest first, as
    strings ("2026"): the choices of every year filter (one query)."""
    return list(
        queryset.exclude(**{field_name: None})
        .annotate(_year=Substr(field_name, 1, 4))
        .order_by("-_year")
        .values_list("_year", flat=True)
        .distinct()
    )


def has_ended(field_name: str, today: datetime.date | None = None) -> models.Q:
    """Q for rows whose partial date in `field_name` lies wholly before `today`.

    Compares the stored text with today's ISO date cut to the stored value's own length, so
    "2026-12" counts as not yet ended all through December 2026.
    """
    iso_today = (today or timezone.localdate()).isoformat()
    return models.Q(
        **{
            f"{field_name}__isnull": False,
            f"{field_name}__lt": Substr(models.Value(iso_today), 1, Length(field_name)),
        }
    )


class PartialDateFormField(forms.CharField):
    default_error_messages = {"invalid": INVALID_MESSAGE}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.pop("max_length", None)
        super().__init__(**kwargs)
        self.widget.attrs.setdefault("placeholder", "YYYY-MM")
        self.widget.attrs.setdefault("size", 12)

    def prepare_value(self, value: Any) -> Any:
        return value.isoformat() if isinstance(value, PartialDate) else value

    def to_python(self, value: Any) -> PartialDate | None:  # type: ignore[override]
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        try:
            return PartialDate.parse(value)
        except ValueError:
            raise ValidationError(self.error_messages["invalid"], code="invalid") from None


class _PartialDateAttribute(DeferredAttribute):
    """Turns whatever is assigned ("2026-06", a date, a PartialDate) into a PartialDate, so
    the attribute is always a PartialDate or None."""

    def __set__(self, instance: Any, value: object) -> None:
        instance.__dict__[self.field.attname] = coerce(value)


class PartialDateField(models.Field):
    """A date with year, month or day precision, stored as ISO 8601 text that sorts correctly."""

    description = "Date with year, month or day precision"
    descriptor_class = _PartialDateAttribute

    def get_internal_type(self) -> str:
        return "CharField"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["max_length"] = 10
        kwargs.setdefault("help_text", FORMAT_HELP)
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, path, args, kwargs = super().deconstruct()
        del kwargs["max_length"]
        if kwargs.get("help_text") == FORMAT_HELP:
            del kwargs["help_text"]
        return name, path, args, kwargs

    def from_db_value(
        self, value: str | None, expression: Any, connection: Any
    ) -> PartialDate | None:
        return None if value in (None, "") else _stored(value)

    def to_python(self, value: object) -> PartialDate | None:
        return coerce(value)

    def get_prep_value(self, value: object) -> str | None:
        value = coerce(value)
        return None if value is None else value.isoformat()

    def value_to_string(self, obj: models.Model) -> str:
        value = self.value_from_object(obj)
        return "" if value is None else value.isoformat()

    def formfield(self, **kwargs: Any) -> Any:  # type: ignore[override]
        kwargs.setdefault("form_class", PartialDateFormField)
        return super().formfield(**kwargs)
