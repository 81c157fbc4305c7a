import datetime

import pytest
from django.core.exceptions import ValidationError

from core.partial_dates import PartialDate, coerce, format_range
from people.models import NewsItem
from tests import factories


@pytest.mark.parametrize(
    ("text", "iso", "shown"),
    [
        ("2026", "2026", "2026"),
        ("2026.06", "2026-06", "Jun 2026"),
        ("2026-06", "2026-06", "Jun 2026"),
        ("Dec 2023", "2023-12", "Dec 2023"),
        ("December 2023", "2023-12", "Dec 2023"),
        ("2026-06-15", "2026-06-15", "15 Jun 2026"),
        ("15 Jun 2026", "2026-06-15", "15 Jun 2026"),
    ],
)
def test_seed_date_forms_parse_to_their_precision(text, iso, shown):
    date = PartialDate.parse(text)

    assert date.isoformat() == iso
    assert str(date) == shown


@pytest.mark.parametrize("text", ["2026-13", "2026-02-30", "26", "June", "2026/6/31", "soon"])
def test_impossible_dates_are_refused_with_a_clear_message(text):
    with pytest.raises(ValidationError, match="Enter a date as YYYY, YYYY-MM or YYYY-MM-DD"):
        coerce(text)


def test_ranges_render_open_end_as_present():
    assert format_range(PartialDate(2023, 12), None) == "Dec 2023 – Present"
    assert format_range(PartialDate(2016, 9), PartialDate(2021, 6)) == "Sep 2016 – Jun 2021"


def test_partial_dates_compare_by_calendar_not_precision():
    assert PartialDate(2025) < PartialDate(2025, 1) < PartialDate(2025, 1, 2) < PartialDate(2026)
    assert PartialDate(2025, 2).last_day() == datetime.date(2025, 2, 28)


@pytest.mark.django_db
def test_database_orders_mixed_precisions_newest_first():
    for date in ["2024", "2025-10", "2025", "2025-02-14", "2023-12"]:
        factories.NewsItemFactory(date=date)

    dates = [n.date.isoformat() for n in NewsItem.objects.all()]

    assert dates == ["2025-10", "2025-02-14", "2025", "2024", "2023-12"]


@pytest.mark.django_db
def test_year_filter_is_a_prefix_lookup():
    factories.NewsItemFactory(date="2025-10")
    factories.NewsItemFactory(date="2025")
    factories.NewsItemFactory(date="2024-12")

    assert NewsItem.objects.filter(date__startswith="2025").count() == 2
