"""What every source is read into: records of works and their authors, and the text helpers
the readers share (typed access to JSON, white space, page ranges, identifiers)."""

import datetime
import re
from dataclasses import dataclass, field, fields
from typing import Any

from django.core.exceptions import ValidationError

from core.identifiers import normalize_doi, normalize_orcid
from core.partial_dates import PartialDate
from people.models import Person
from publications.models import Publication
from publications.presentation import format_pages

Kind = Publication.Kind
MAX_FILE_BYTES = 5 * 1024 * 1024


# The services whose author ids an author record keeps, and the Person field holding a
# member's id there (matching uses them before names).
AUTHOR_ID_KINDS = {
    "openalex": "openalex_id",
    "dblp": "dblp_pid",
    "semantic_scholar": "semantic_scholar_id",
}


class ImportProblem(Exception):
    """A source that cannot be read at all (bad JSON, a file too large, a network failure)."""


@dataclass
class AuthorRecord:
    given: str = ""
    family: str = ""
    suffix: str = ""  # a generational suffix: "Jr.", "III", "Filho"
    orcid: str = ""
    # The author's ids at the services besides ORCID: {"openalex": "A5023888391", "dblp":
    # "95/7448-1", "semantic_scholar": "1741101"} (AUTHOR_ID_KINDS); every one a source gave
    # is kept through every merge.
    ids: dict = field(default_factory=dict)
    affiliation: str = ""
    is_unlisted: bool = False
    is_equal_contribution: bool = False  # the source marks a co-first author
    is_corresponding: bool = False
    person: Person | None = None
    candidates: list = field(default_factory=list)  # lab people it may be, when not certain

    STORED = (
        "given",
        "family",
        "suffix",
        "orcid",
        "ids",
        "affiliation",
        "is_unlisted",
        "is_equal_contribution",
        "is_corresponding",
    )

    @property
    def display(self) -> str:
        return (
            "…"
            if self.is_unlisted
            else " ".join(part for part in (self.given, self.family, self.suffix) if part)
        )

    @property
    def is_ambiguous(self) -> bool:
        return bool(self.candidates)


def stated_status(kind: str) -> str:
    """The status a source's kind of work states: a preprint is one; a work of a known
    published kind (an article in a journal, a paper in proceedings) is published; a kind the
    source does not give states nothing ("")."""
    if kind == Kind.PREPRINT:
        return Publication.Status.PREPRINT
    return Publication.Status.PUBLISHED if kind else ""


@dataclass
class Record:
    label: str  # names the record in messages: "DOI 10.1145/3773772", "BibTeX entry ma2023"
    title: str = ""
    # "" where the source does not say: a field the source did not state is not a value, so
    # merging never lets it overwrite a stored kind or status (a new work takes "other").
    kind: str = ""
    status: str = ""
    venue_name: str = ""  # the paper's own proceedings or journal title, as the source gives it
    venue_short: str = ""
    venue_key: str = ""  # a DBLP-style venue key ("conf/osdi"), when the source has one
    issns: list = field(default_factory=list)
    date: PartialDate | None = None
    volume: str = ""
    issue: str = ""
    pages: str = ""
    publisher: str = ""
    patent_number: str = ""
    patent_jurisdiction: str = ""
    doi: str = ""
    arxiv_id: str = ""
    url: str = ""  # the paper's page (a PDF link goes to pdf_url)
    pdf_url: str = ""
    code_url: str = ""
    slides_url: str = ""
    video_url: str = ""
    project_url: str = ""
    poster_url: str = ""
    supplement_url: str = ""
    blog_url: str = ""
    dataset_url: str = ""
    other_url: str = ""
    other_label: str = ""
    abstract: str = ""
    series: str = ""
    address: str = ""
    note: str = ""
    award: str = ""
    is_selected: bool | None = None  # None: the source does not say
    source_fields: dict = field(default_factory=dict)  # fields with no home, kept by name
    citation_count: int | None = None
    citations_read_on: datetime.date | None = None
    citations_source: str = ""
    citation_key: str = ""  # the source's own key (a BibTeX entry key)
    authors: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    # For the preview: how the reader read what was not plain ("“*” after Yuan: co-first"),
    # what it left out and why, and files the source names that must be uploaded by hand.
    readings: list = field(default_factory=list)
    dropped: list = field(default_factory=list)
    files: list = field(default_factory=list)
    # A field the source gives twice: [{"field", "lines", "options": [{"label", "values"}]}];
    # until the admin picks an option, a problem.
    choices: list = field(default_factory=list)
    # A record merged from several sources: {field: the source that gave it} ("crossref",
    # "orcid", …), for the review to say where each value came from.
    origins: dict = field(default_factory=dict)

    def choose(self, number: int, option: int) -> None:
        """Take option `option` of choice `number`: its values replace the record's, and
        the problem the choice raised goes."""
        choice = self.choices[number]
        values = choice["options"][option]["values"]
        for name, value in values.items():
            if name == "date":
                value = PartialDate.parse(value) if value else None
            elif name == "authors":
                value = [AuthorRecord(**a) for a in value]
            setattr(self, name, value)
        choice["chosen"] = option
        self.problems = [p for p in self.problems if p != choice["problem"]]

    def to_json(self) -> dict[str, Any]:
        """A plain dict that survives between the preview and the confirmation."""
        data = {k: v for k, v in vars(self).items() if k not in ("authors", "date")}
        data["date"] = self.date.isoformat() if self.date else None
        if self.citations_read_on:
            data["citations_read_on"] = self.citations_read_on.isoformat()
        data["authors"] = [{k: getattr(a, k) for k in AuthorRecord.STORED} for a in self.authors]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Record":
        known = {f.name for f in fields(cls)}
        data = {k: v for k, v in data.items() if k in known}
        data["date"] = PartialDate.parse(data["date"]) if data.get("date") else None
        if data.get("citations_read_on"):
            data["citations_read_on"] = datetime.date.fromisoformat(data["citations_read_on"])
        data["authors"] = [
            AuthorRecord(**{k: a[k] for k in AuthorRecord.STORED if k in a})
            for a in data.get("authors", [])
        ]
        for author in data["authors"]:  # a record stored before ids were kept has none
            author.ids = author.ids if isinstance(author.ids, dict) else {}
        return cls(**data)


class Fields:
    """One object of a JSON source read with its types checked: a value of the wrong type
    becomes a problem of the record and reads as empty, never an exception."""

    def __init__(self, data: object, record: "Record", where: str = "") -> None:
        self.data = data if isinstance(data, dict) else {}
        self.record = record
        self.where = where

    def _wrong(self, key: str, expected: str) -> None:
        problem = f"{self.where}“{key}” is not {expected}"
        if problem not in self.record.problems:
            self.record.problems.append(problem)

    def text(self, key: str, *, first: bool = False) -> str:
        """A string (or number) value; with `first`, also the first item of a list of them."""
        value = self.data.get(key)
        if first and isinstance(value, list):
            value = value[0] if value else None
        if value is None:
            return ""
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            self._wrong(key, "text")
            return ""
        return squash(str(value))

    def items(self, key: str) -> list[Any]:
        value = self.data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self._wrong(key, "a list")
            return []
        return value

    def obj(self, key: str) -> dict[str, Any]:
        value = self.data.get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            self._wrong(key, "an object")
            return {}
        return value

    def whole_number(self, key: str) -> int | None:
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self._wrong(key, "a whole number")
            return None
        return value


# The longest author lists in print (high-energy physics) hold about 5,000 names.
MAX_AUTHORS = 10_000


# Preprint servers as sources spell them ("arXiv (Cornell University)", "Research Square
# (Research Square)", "CoRR", "SSRN Electronic Journal"), each named one way.
PREPRINT_SERVERS = {
    name.casefold(): name
    for name in (
        "arXiv",
        "bioRxiv",
        "medRxiv",
        "ChemRxiv",
        "TechRxiv",
        "PsyArXiv",
        "SocArXiv",
        "EarthArXiv",
        "engrXiv",
        "SSRN",
        "Research Square",
        "Preprints.org",
        "OSF Preprints",
        "Authorea",
        "PeerJ Preprints",
    )
} | {"corr": "arXiv", "ssrn electronic journal": "SSRN", "preprints": "Preprints.org"}
_HOST_NOTE = re.compile(r"\s*\([^()]*\)$")  # "(Cornell University)" after a server's name


def preprint_server(name: str, arxiv_id: str = "") -> str:
    """The server a preprint is on, named one way ("arXiv (Cornell University)" → "arXiv");
    "arXiv" for a preprint with an arXiv id and no server named; another name as given."""
    if not name:
        return "arXiv" if arxiv_id else ""
    return PREPRINT_SERVERS.get(_HOST_NOTE.sub("", name).casefold(), name)


def check(record: Record) -> None:
    """The problems every source shares: a work needs a title and a named author, and an
    author list a page can hold. A preprint's server is named one way here, for every
    source alike."""
    if record.kind == Kind.PREPRINT or record.status == Publication.Status.PREPRINT:
        record.venue_name = preprint_server(record.venue_name, record.arxiv_id)
    if not record.title and not (record.kind == Kind.PATENT and record.patent_number):
        record.problems.append("it has no title")
    if not any(not a.is_unlisted for a in record.authors):
        record.problems.append("it lists no authors")
    if len(record.authors) > MAX_AUTHORS:
        record.problems.append(
            f"it lists {len(record.authors):,} authors; labsite keeps at most {MAX_AUTHORS:,}"
        )


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_ISSN = re.compile(r"^\d{4}-\d{3}[\dXx]$")
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)


def squash(text: object) -> str:
    """One line of text: runs of white space folded to one space, control characters (NUL,
    which PostgreSQL cannot store, among them) removed."""
    if not text:
        return ""
    return " ".join(_CONTROL.sub("", str(text)).split())


def page_range(text: str) -> str:
    return format_pages(text)


def valid_issns(values: list[Any]) -> list[str]:
    return [v.upper() for v in values if isinstance(v, str) and _ISSN.match(v)]


def clean_doi(value: str) -> str:
    try:
        return normalize_doi(value)
    except ValidationError:
        return ""


def arxiv_id_of_doi(doi: str) -> str:
    """ "2407.00079" for arXiv's own DOI 10.48550/arXiv.2407.00079, else ""."""
    match = _ARXIV_DOI.match(doi or "")
    return match[1] if match else ""


def clean_orcid(value: str) -> str:
    try:
        return normalize_orcid(value) if value else ""
    except ValidationError:
        return ""
