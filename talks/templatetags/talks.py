"""Template helpers for talk and award lists."""

from django import template

register = template.Library()


@register.filter
def excluding(entries, person):
    """Speakers or recipients other than `person` (the member whose profile this is)."""
    if not person:
        return list(entries)
    return [entry for entry in entries if entry.person_id != person.pk]
