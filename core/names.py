"""Names split and shortened, the one way every reader, page, avatar and name matcher does it."""

import re

from bibtexparser.middlewares.names import parse_single_name_into_parts

_PARTS = re.compile(r"[\s\-.]+")


def initials(name: str) -> list[str]:
    """The first character of each part of `name`, upper-cased: "Jae-Hyun" → ["J", "H"],
    "Teng Ma" → ["T", "M"]. Parts are split at spaces, hyphens and dots."""
    return [part[0].upper() for part in _PARTS.split(name or "") if part]


# Words that begin a family name when they stand before its last word: "Adrian Del Maestro",
# "Luca De Siena", "Ludwig van der Waals", "Juan de la Cruz", "Abdullah bin Hamid". BibTeX's
# rule knows only the lower-case ones; author lists also capitalize them.
# fmt: off
PARTICLES = frozenset({
    "von", "van", "der", "den", "de", "del", "della", "delle", "delli", "dei", "degli", "dello",
    "da", "das", "dos", "di", "du", "le", "la", "les", "lo", "ter", "ten", "zu", "zum", "zur",
    "bin", "binti", "bint", "ibn", "al", "el", "st", "st.", "saint",
})
# fmt: on
_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})  # "Martin Luther King, Jr."
_VIETNAMESE_MIDDLE = frozenset({"van", "thi"})
# fmt: off
_VIETNAMESE_FAMILY = frozenset({
    "nguyen", "tran", "le", "pham", "hoang", "huynh", "phan", "vu", "vo", "dang", "bui", "do",
    "ho", "ngo", "duong", "ly", "truong", "dinh",
})
# fmt: on


def split_name(name: str) -> tuple[str, str]:
    """(given, family) of a personal name as an author list or a source prints it, the one
    way every reader (BibTeX included) and every profile splits names. "Family, Given" and
    BibTeX's braces and lower-case "von" are read by bibtexparser's splitter (BibTeX's own
    rule); on top of it a particle written with a capital begins the family name ("Adrian
    Del Maestro" → ("Adrian", "Del Maestro")). Family-first order is read where the source
    marks it with a comma ("Ma, Teng"); sources that give the two parts apart (Crossref,
    ORCID, Europe PMC) are not split at all. A hyphenated family name is one word; ("", "Ma")
    for one word."""
    name = " ".join((name or "").split())
    if not name:
        return "", ""
    given_first, comma, suffix = name.rpartition(",")
    if comma and given_first and suffix.strip().casefold().rstrip(".") in _SUFFIXES:
        first, _, family = given_first.rpartition(" ")
        name = f"{family}, {suffix.strip()}, {first}"
    parts = parse_single_name_into_parts(name, strict=False)
    given, von, last = list(parts.first), list(parts.von), list(parts.last)
    if "," not in name and not von and len(given) >= 1:
        words = [*given, *last]
        start = _particle_start(words)
        given, last = words[:start], words[start:]
    family = " ".join([*von, *last])
    if parts.jr:
        family = f"{family}, {' '.join(parts.jr)}"
    return " ".join(given), family


def _particle_start(words: list[str]) -> int:
    """Where the family name begins among `words` written given-first: at the first
    particle after the first word and before the last, else at the last word."""
    for index in range(1, len(words) - 1):
        word = words[index].casefold()
        if word not in PARTICLES and word not in _VIETNAMESE_MIDDLE:
            continue
        if word in _VIETNAMESE_MIDDLE and {words[0].casefold(), words[-1].casefold()} & (
            _VIETNAMESE_FAMILY
        ):
            return len(words) - 1
        if word in PARTICLES:
            return index
    return len(words) - 1
