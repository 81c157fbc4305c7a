"""Initials of a name, the one way every page, avatar and name matcher makes them."""

import re

_PARTS = re.compile(r"[\s\-.]+")


def initials(name: str) -> list[str]:
    """The first character of each part of `name`, upper-cased: "Jae-Hyun" → ["J", "H"],
    "Teng Ma" → ["T", "M"]. Parts are split at spaces, hyphens and dots."""
    return [part[0].upper() for part in _PARTS.split(name or "") if part]
