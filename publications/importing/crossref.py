"""Reading Crossref: work records from a JSON file or the API, one DOI at a time."""

import datetime
import json
import re
from html.parser import HTMLParser

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone

from core.identifiers import normalize_doi
from core.names import is_suffix
from core.partial_dates import PartialDate
from publications.importing.http import JsonClient
from publications.importing.records import (
    AuthorRecord,
    Fields,
    ImportProblem,
    Kind,
    Record,
    arxiv_id_of_doi,
    check,
    clean_doi,
    clean_orcid,
    page_range,
    squash,
    stated_status,
    valid_issns,
)
from publications.importing.titles import clean_text

CROSSREF_WORKS = settings.CROSSREF_URL + "/works/"
CROSSREF_KINDS = {
    "journal-article": Kind.JOURNAL,
    "proceedings-article": Kind.CONFERENCE,
    "posted-content": Kind.PREPRINT,
    "book-chapter": Kind.CHAPTER,
    "book-part": Kind.CHAPTER,
    "book": Kind.BOOK,
    "monograph": Kind.BOOK,
    "edited-book": Kind.BOOK,
    "dissertation": Kind.THESIS,
    "report": Kind.REPORT,
}


def read_crossref_json(text: str, label: str = "Crossref file") -> list[Record]:
    """Records from Crossref work JSON: {"message": {...}} or {"message": {"items": [...]}}."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as error:
        raise ImportProblem(f"{label} is not valid JSON: {error}") from None
    message = data.get("message") if isinstance(data, dict) else None
    if not isinstance(message, dict):
        raise ImportProblem(f"{label} is not a Crossref response: it has no “message” object.")
    items = message.get("items") if "items" in message else [message]
    if not isinstance(items, list):
        raise ImportProblem(f"{label}: “message.items” is not a list.")
    return [crossref_record(item, f"{label}, item {n}") for n, item in enumerate(items, start=1)]


def crossref_record(work: object, fallback_label: str) -> Record:
    if not isinstance(work, dict):
        return Record(label=fallback_label, problems=["not a Crossref work object"])
    record = Record(label=fallback_label)
    work = Fields(work, record)
    raw_doi = work.text("DOI")
    record.doi = clean_doi(raw_doi)
    if record.doi:
        record.label = f"DOI {record.doi}"
    elif raw_doi:
        record.problems.append(f"invalid DOI “{raw_doi[:200]}”")
    title = clean_text(work.text("title", first=True))
    subtitle = clean_text(work.text("subtitle", first=True))
    record.title = f"{title}: {subtitle}" if title and subtitle else title
    crossref_type = work.text("type")
    record.kind = CROSSREF_KINDS.get(crossref_type, "")
    record.status = stated_status(record.kind)
    record.venue_name = clean_text(work.text("container-title", first=True))
    record.venue_short = clean_text(work.text("short-container-title", first=True))
    if not record.venue_name and record.kind == Kind.PREPRINT:
        # Posted content names its server as the "institution" (arXiv, bioRxiv, SSRN…).
        institutions = work.items("institution")
        first = institutions[0] if institutions else {}
        record.venue_name = Fields(first, record, "institution: ").text("name")
    record.arxiv_id = arxiv_id_of_doi(record.doi)
    record.issns = valid_issns(work.items("ISSN"))
    record.date = _crossref_date(work)
    record.volume = work.text("volume")
    record.issue = work.text("issue")
    record.pages = page_range(work.text("page"))
    record.publisher = work.text("publisher")
    record.abstract = jats_to_text(work.text("abstract"))
    count = work.whole_number("is-referenced-by-count")
    if count is not None:
        record.citation_count = count
        record.citations_read_on = _full_date(work.obj("indexed")) or timezone.localdate()
        record.citations_source = "Crossref"
    for number, author in enumerate(work.items("author"), start=1):
        if not isinstance(author, dict):
            record.problems.append(f"author {number} is not an object")
            continue
        author = Fields(author, record, f"author {number}: ")
        affiliations = author.items("affiliation")
        first = affiliations[0] if affiliations and isinstance(affiliations[0], dict) else {}
        family, suffix = _family_and_suffix(
            clean_text(author.text("family") or author.text("name")),
            clean_text(author.text("suffix")),
        )
        record.authors.append(
            AuthorRecord(
                given=clean_text(author.text("given")),
                family=family,
                suffix=suffix,
                orcid=clean_orcid(author.text("ORCID")),
                affiliation=Fields(first, record, f"author {number}: ").text("name"),
            )
        )
    check(record)
    return record


def _family_and_suffix(family: str, suffix: str) -> tuple[str, str]:
    """Crossref's family name and suffix; a suffix deposited as the family name's last word
    ("Silva Junior", "King Jr.") is taken for the suffix it is."""
    words = family.split(" ")
    if not suffix and len(words) >= 2 and is_suffix(words[-1]):
        return " ".join(words[:-1]), words[-1]
    return family, suffix


def _date_parts(value: object) -> list[int]:
    """The leading whole numbers of a Crossref date's first "date-parts" list."""
    parts = value.get("date-parts") if isinstance(value, dict) else None
    if not (isinstance(parts, list) and parts and isinstance(parts[0], list)):
        return []
    numbers = []
    for part in parts[0]:
        if isinstance(part, bool) or not isinstance(part, int):
            break
        numbers.append(part)
    return numbers


def _crossref_date(work: Fields) -> PartialDate | None:
    for key in ("issued", "published-print", "published-online", "published"):
        parts = _date_parts(work.obj(key))[:3]  # to the day, when Crossref gives it
        while parts:
            try:
                return PartialDate(*parts)
            except (ValueError, OverflowError):
                parts = parts[:-1]  # an impossible day still tells the month
    return None


def _full_date(value: object) -> datetime.date | None:
    parts = _date_parts(value)
    try:
        return datetime.date(*parts[:3]) if len(parts) >= 3 else None
    except (ValueError, OverflowError):
        return None


_DETACHED = re.compile(r"\s+([,.;:)]|['’]s\b)")


class _JatsText(HTMLParser):
    """The text of a JATS abstract, paragraph by paragraph; titles ("Abstract") left out."""

    PARAGRAPHS = {"p", "jats:p", "sec", "jats:sec"}
    SKIPPED = {"title", "jats:title"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[str] = []
        self.current: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIPPED:
            self.skipping += 1
        elif tag in self.PARAGRAPHS:
            self._close()

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIPPED:
            self.skipping = max(0, self.skipping - 1)
        elif tag in self.PARAGRAPHS:
            self._close()

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.current.append(data)

    def _close(self) -> None:
        # Pretty-printed JATS leaves line breaks between an inline element and what follows
        # it: "<jats:sc>Mooncake</jats:sc>\n   ’s" reads "Mooncake’s", not "Mooncake ’s".
        text = _DETACHED.sub(r"\1", squash("".join(self.current)))
        if text:
            self.paragraphs.append(text)
        self.current = []

    def text(self) -> str:
        self._close()
        return "\n\n".join(self.paragraphs)


def jats_to_text(abstract: str) -> str:
    """A JATS abstract (<jats:p>, <jats:italic>…) as plain paragraphs separated by blank
    lines, read by the standard library's HTML parser (entities decoded, tags dropped)."""
    if not abstract:
        return ""
    parser = _JatsText()
    parser.feed(abstract)
    parser.close()
    return parser.text()


def fetch_doi(doi: str, client: JsonClient) -> Record:
    """The Crossref record of one DOI; a bad DOI or a network failure is a per-DOI problem."""
    try:
        doi = normalize_doi(doi)
    except ValidationError as error:
        return Record(label=f"DOI {str(doi)[:200]}", problems=[error.messages[0]])
    try:
        data = client.get_json(CROSSREF_WORKS + doi)
    except ImportProblem as problem:
        return Record(label=f"DOI {doi}", doi=doi, problems=[str(problem)])
    message = data.get("message") if isinstance(data, dict) else None
    if not isinstance(message, dict):
        return Record(label=f"DOI {doi}", doi=doi, problems=["Crossref's answer has no record"])
    return crossref_record(message, f"DOI {doi}")
