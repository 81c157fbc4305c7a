"""What BibTeX fields mean as people write them: al-folio's and jekyll-scholar's own fields,
misspelt names, placeholders, months in every spelling, DOIs given as links, and the
markers people put on author names."""

import functools
import re
from dataclasses import dataclass

# Misspelt or non-standard names of standard fields, read as the field they stand for.
ALIASES = {
    "vol": "volume",
    "volumn": "volume",
    "page": "pages",
    "pgs": "pages",
    "jounral": "journal",
    "jornal": "journal",
    "journl": "journal",
    "journaltitle": "journal",
    "booktile": "booktitle",
    "bootitle": "booktitle",
    "booktitel": "booktitle",
    "tilte": "title",
    "titel": "title",
    "autor": "author",
    "auhtor": "author",
    "authors": "author",
    "yaer": "year",
    "years": "year",
    "publiser": "publisher",
    "pulisher": "publisher",
    "abtract": "abstract",
    "adress": "address",
    "location": "address",
    "issue": "number",
}

# al-folio's link fields and the Publication field each lands in.
LINK_HOMES = {
    "pdf": "pdf_url",
    "html": "url",
    "code": "code_url",
    "slides": "slides_url",
    "video": "video_url",
    "website": "project_url",
    "poster": "poster_url",
    "supp": "supplement_url",
    "blog": "blog_url",
    "dataset": "dataset_url",
}

# Fields named in the preview as left out, with why; they have no meaning here.
DROPPED = {
    "bibtex_show": "al-folio's switch for its BibTeX button (labsite offers every paper's)",
    "preview": "al-folio's thumbnail image (labsite shows none)",
    "biburl": "DBLP's own address of the entry",
    "bibsource": "DBLP's note on where the entry came from",
    "timestamp": "when DBLP last changed the entry",
    "file": "a file on the author's computer",
    "owner": "a reference manager's owner tag",
    "creationdate": "a reference manager's date",
    "modificationdate": "a reference manager's date",
}
# Badge switches ("true") are dropped; the same fields holding an id are kept.
BADGES = {"altmetric", "dimensions"}
TRUE = {"true", "yes", "1", "on"}

# Values that stand for "unknown" in exports from publishers and Google Scholar.
PLACEHOLDERS = {
    "pages": {"1-1", "1–1", "0", "0-0", "0–0", "?", "-", "–", "n/a"},
    "volume": {"0", "00", "?", "-", "n/a"},
    "number": {"0", "00", "ja", "?", "-", "n/a"},
}

_MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_WORD = re.compile(r"[^\W\d_]+")
_NUMBER_MONTH = re.compile(r"^\s*(\d{1,2})\s*\.?\s*$")


def month_of(text: str) -> int | None:
    """The month `text` names ("Sep.", "sept", "September", "09--15 Jun", "5"), else None.
    A name wins over a number, which may be a day ("09--15 Jun" is June)."""
    for word in _WORD.findall(text.casefold()):
        if len(word) >= 3:
            for number, name in enumerate(_MONTHS, start=1):
                if name.startswith(word):
                    return number
    match = _NUMBER_MONTH.match(text)
    if match and 1 <= int(match[1]) <= 12:
        return int(match[1])
    return None


_DOI_IN_TEXT = re.compile(
    r"(?:doi\.org/|\bdoi:\s*|\bdoi\s+)(10\.\d{4,9}/[^\s\"<>{}]+)|^(10\.\d{4,9}/\S+)$", re.I
)


def doi_in_text(text: str) -> str:
    """A DOI that `text` (a URL, a note) gives: "https://dx.doi.org/10.1/x", "doi: 10.1/x"."""
    match = _DOI_IN_TEXT.search(text or "")
    return (match[1] or match[2]).rstrip(".,;)]") if match else ""


def is_doi_link(url: str) -> bool:
    return bool(re.match(r"^https?://(?:dx\.)?doi\.org/10\.", url or "", re.I))


_ISSN = re.compile(r"\b(\d{4}-\d{3}[\dXx])\b")


def issns_in(text: str) -> list[str]:
    """Every ISSN in a field that may list several with notes ("0033-3158 (Print) …")."""
    return list(dict.fromkeys(m.upper() for m in _ISSN.findall(text or "")))


# Markers people put on names, as written in BibTeX: superscripts in any form, macros and
# the bare characters. None of them is ever part of a name.
_SUPERSCRIPT = re.compile(
    r"\\textsuperscript\s*\{([^{}]*)\}|\$\s*\^\s*\{?([^${}]*)\}?\s*\$|\^\{([^{}]*)\}"
)
_MACROS = {
    r"\dagger": "†",
    r"\ddagger": "‡",
    r"\ast": "*",
    r"\star": "*",
    r"\#": "#",
    r"\S": "§",
    r"\P": "¶",
}
_MACRO = re.compile(r"\\(?:dagger|ddagger|ast|star|#|S(?![a-zA-Z])|P(?![a-zA-Z]))\s*(?:\{\})?")
MARKERS = "*∗†‡#§¶^"
_SAME_MARKER = {"∗": "*"}  # the mathematical asterisk some sites type for *
_UNLISTED = re.compile(
    r"^\{?\s*(?:(\d+)\s+(?:more|others|additional)(?:\s+authors)?|others|et\.?[\s~]*al\.?|"
    r"\.\.\.|…|\\(?:ldots|dots|textellipsis)(?:\{\})?)\s*\}?$",
    re.I,
)


@dataclass(frozen=True)
class MarkedName:
    name: str  # the name without its markers
    markers: tuple = ()  # in order, "*" for "∗", "\dagger" as "†"
    unlisted: bool = False  # "{76 more}", "others", "et al."
    more: int | None = None  # how many, when said


@functools.lru_cache(maxsize=20_000)  # a lab's names recur on most entries of a file
def read_marked_name(raw: str) -> MarkedName:
    """One author as written ("Einstein*†, A.", "*Pang, Ce", "Ma\\textsuperscript{*}, T",
    "{76 more}") into the name and its markers."""
    unlisted = _UNLISTED.match(raw.strip())
    if unlisted:
        return MarkedName("", unlisted=True, more=int(unlisted[1]) if unlisted[1] else None)
    markers: list[str] = []

    def superscript(match: re.Match[str]) -> str:
        inner = next(g for g in match.groups() if g is not None)
        inner = _MACRO.sub(lambda m: _MACROS[m[0].split("{")[0].strip()], inner)
        markers.extend(c for c in inner if c in MARKERS)
        return ""

    text = _SUPERSCRIPT.sub(superscript, raw)
    text = _MACRO.sub(lambda m: _MACROS[m[0].split("{")[0].strip()], text)
    markers += [c for c in text if c in MARKERS]
    for char in MARKERS:
        text = text.replace(char, "")
    text = re.sub(r"\$\s*\$", "", text)
    name = " ".join(text.split()).strip(" ,")
    return MarkedName(name, tuple(_SAME_MARKER.get(m, m) for m in markers))


_ANNOTATION_ITEM = re.compile(r"^\s*(\d+)\s*=\s*(.+?)\s*$")


def read_annotations(text: str) -> dict[int, set[str]]:
    """biblatex's data annotation of the author list (`author+an = {1=equal; 2=corresponding}`)
    as {position: {annotation, …}}."""
    found: dict[int, set[str]] = {}
    for item in (text or "").split(";"):
        match = _ANNOTATION_ITEM.match(item)
        if match:
            words = {w.strip().casefold() for w in match[2].split(",") if w.strip()}
            found.setdefault(int(match[1]), set()).update(words)
    return found
