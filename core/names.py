"""Names split and shortened, the one way every reader, page, avatar and name matcher does it."""

import functools
import re
import unicodedata

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
# Generational suffixes, compared without case, accents or a final dot: "Martin Luther King
# Jr.", "John Smith III", and the Portuguese "Júnior", "Filho", "Neto", "Sobrinho".
SUFFIXES = frozenset(
    {
        "jr",
        "sr",
        "ii",
        "iii",
        "iv",
        "junior",
        "filho",
        "neto",
        "sobrinho",
    }
)  # fmt: skip
_VIETNAMESE_MIDDLE = frozenset({"van", "thi"})
# fmt: off
_VIETNAMESE_FAMILY = frozenset({
    "nguyen", "tran", "le", "pham", "hoang", "huynh", "phan", "vu", "vo", "dang", "bui", "do",
    "ho", "ngo", "duong", "ly", "truong", "dinh",
})
# fmt: on


def is_suffix(word: str) -> bool:
    """Whether `word` is a generational suffix ("Jr.", "III", "Júnior", "Filho")."""
    plain = unicodedata.normalize("NFKD", word.strip().rstrip(".,"))
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return plain.casefold() in SUFFIXES


def split_name(name: str) -> tuple[str, str]:
    """(given, family) of a personal name, its generational suffix left out (`name_parts`
    keeps it)."""
    given, family, _suffix = name_parts(name)
    return given, family


@functools.lru_cache(maxsize=20_000)  # a lab's names recur on most entries
def name_parts(name: str) -> tuple[str, str, str]:
    """(given, family, suffix) of a personal name as an author list or a source prints it, the one
    way every reader (BibTeX included) and every profile splits names. "Family, Given" and
    BibTeX's braces and lower-case "von" are read by bibtexparser's splitter (BibTeX's own
    rule); on top of it a particle written with a capital begins the family name ("Adrian
    Del Maestro" → ("Adrian", "Del Maestro")). Family-first order is read where the source
    marks it with a comma ("Ma, Teng"); sources that give the two parts apart (Crossref,
    ORCID, Europe PMC) are not split at all. A hyphenated family name is one word; ("", "Ma",
    "") for one word. A generational suffix is the suffix, never the family name ("Martin
    Luther King Jr." → ("Martin Luther", "King", "Jr."); "João Silva Filho" → ("João",
    "Silva", "Filho")), where a given and a family name stand before it ("Ricardo Neto" is a
    family name)."""
    name = " ".join((name or "").split())
    if not name:
        return "", "", ""
    suffix = ""
    given_first, comma, after = name.rpartition(",")
    if comma and given_first and is_suffix(after) and " " in given_first.strip():
        name, suffix = given_first.strip(), after.strip()  # "Martin Luther King, Jr."
    elif "," not in name:
        words = name.split(" ")
        if len(words) >= 3 and is_suffix(words[-1]):
            name, suffix = " ".join(words[:-1]), words[-1]  # "João Silva Filho"
    parts = parse_single_name_into_parts(name, strict=False)
    given, von, last = list(parts.first), list(parts.von), list(parts.last)
    if "," not in name and not von and len(given) >= 1:
        words = [*given, *last]
        start = _particle_start(words)
        given, last = words[:start], words[start:]
    if parts.jr:  # "King, Jr., Martin Luther", BibTeX's own form
        suffix = " ".join(parts.jr)
    elif not suffix and len(last) >= 2 and is_suffix(last[-1]):  # "Silva Neto, João"
        suffix, last = last[-1], last[:-1]
    return " ".join(given), " ".join([*von, *last]), suffix


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
