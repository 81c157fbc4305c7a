"""Importing publications from Crossref (records or DOIs), BibTeX files and ORCID works.

Three steps, so the admin page and the command can show what will happen before anything is
written:

1. *read*: a source becomes `Record`s, normalized (title, kind, venue, partial date, DOI,
   ordered authors...). A source that cannot be read at all raises `ImportProblem`; a record
   that is readable but unusable carries its problems in `record.problems`.
2. *plan*: each record is matched against the lab: its authors to lab people (ORCID first,
   then name variants; two candidates is "ambiguous", never a guess) and the work to an
   existing publication (DOI, else arXiv id, else title and year). No writes.
3. *apply*: the plans are written in one transaction. Re-importing a work updates the fields
   that come from the source and keeps what an admin set by hand: role flags, person links,
   links, the selected flag.
"""

import copy
import datetime
import html
import json
import logging
import re
import unicodedata
from dataclasses import dataclass, field

import bibtexparser
from bibtexparser import middlewares
from bibtexparser.model import DuplicateBlockKeyBlock
from django.core.exceptions import ValidationError
from django.db import transaction
from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import LatexWalker, get_default_latex_context_db
from simple_history.utils import bulk_create_with_history

from labsite.identifiers import normalize_doi, normalize_orcid
from labsite.partial_dates import PartialDate
from labsite.slugs import unique_slug
from labsite.weblinks import is_web_url
from people.models import Person, normalize_name
from publications.models import Authorship, Publication, Venue

MAX_FILE_BYTES = 5 * 1024 * 1024
# Decoding LaTeX costs about 5-10 µs a character for math and macros (plain text costs
# nothing): one import decodes at most this much of it, so a hostile file cannot hold a
# worker for minutes. A real lab's .bib of 2,000 entries has far less.
MAX_LATEX_CHARS = 300_000
CROSSREF_WORKS = "https://api.crossref.org/works/"
ORCID_WORKS = "https://pub.orcid.org/v3.0/{orcid}/works"

Kind = Publication.Kind

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
ORCID_KINDS = {
    "journal-article": Kind.JOURNAL,
    "conference-paper": Kind.CONFERENCE,
    "conference-poster": Kind.POSTER,
    "preprint": Kind.PREPRINT,
    "book-chapter": Kind.CHAPTER,
    "book": Kind.BOOK,
    "dissertation-thesis": Kind.THESIS,
    "dissertation": Kind.THESIS,
    "report": Kind.REPORT,
    "patent": Kind.PATENT,
}
BIBTEX_KINDS = {
    "article": Kind.JOURNAL,
    "inproceedings": Kind.CONFERENCE,
    "conference": Kind.CONFERENCE,
    "incollection": Kind.CHAPTER,
    "inbook": Kind.CHAPTER,
    "book": Kind.BOOK,
    "phdthesis": Kind.THESIS,
    "mastersthesis": Kind.THESIS,
    "techreport": Kind.REPORT,
    "patent": Kind.PATENT,
    "misc": Kind.OTHER,
    "unpublished": Kind.PREPRINT,
    "online": Kind.OTHER,
}
VENUE_KINDS = {
    Kind.JOURNAL: Venue.Kind.JOURNAL,
    Kind.CONFERENCE: Venue.Kind.CONFERENCE,
    Kind.WORKSHOP: Venue.Kind.WORKSHOP,
    Kind.PREPRINT: Venue.Kind.PREPRINT,
    Kind.CHAPTER: Venue.Kind.BOOK,
    Kind.BOOK: Venue.Kind.BOOK,
}
# Fields a source owns: re-importing overwrites them. Everything else is the admin's.
SOURCE_FIELDS = [
    "title",
    "kind",
    "status",
    "date",
    "volume",
    "issue",
    "pages",
    "publisher",
    "doi",
    "abstract",
    "citation_count",
    "citations_read_on",
    "citations_source",
]

_LATEX_TEXT = LatexNodes2Text()
_LATEX_CONTEXT = get_default_latex_context_db()
_NEEDS_LATEX_PARSER = re.compile(r"\\[^&%_#$]|\$")  # a macro, accent or math
_SIMPLE_LATEX = [
    ("\\&", "&"), ("\\%", "%"), ("\\_", "_"), ("\\#", "#"), ("\\$", "$"),
    ("---", "—"), ("--", "–"), ("~", " "), ("{", ""), ("}", ""),
]  # fmt: skip

NEW, UPDATE, UNCHANGED, ERROR = "new", "update", "unchanged", "error"
ACTIONS = (NEW, UPDATE, UNCHANGED, ERROR)


class ImportProblem(Exception):
    """A source that cannot be read at all (bad JSON, a file too large, a network failure)."""


@dataclass
class AuthorRecord:
    given: str = ""
    family: str = ""
    orcid: str = ""
    affiliation: str = ""
    is_unlisted: bool = False
    person: Person | None = None
    candidates: list = field(default_factory=list)  # lab people it may be, when not certain

    @property
    def display(self):
        return "…" if self.is_unlisted else f"{self.given} {self.family}".strip()

    @property
    def is_ambiguous(self):
        return bool(self.candidates)


@dataclass
class Record:
    label: str  # names the record in messages: "DOI 10.1145/3773772", "BibTeX entry ma2023"
    title: str = ""
    kind: str = Kind.OTHER
    status: str = Publication.Status.PUBLISHED
    venue_name: str = ""
    venue_short: str = ""
    issns: list = field(default_factory=list)
    date: PartialDate | None = None
    volume: str = ""
    issue: str = ""
    pages: str = ""
    publisher: str = ""
    doi: str = ""
    arxiv_id: str = ""
    url: str = ""
    abstract: str = ""
    citation_count: int | None = None
    citations_read_on: datetime.date | None = None
    citations_source: str = ""
    authors: list = field(default_factory=list)
    problems: list = field(default_factory=list)

    def to_json(self):
        """A plain dict that survives the session between preview and confirm."""
        data = {k: v for k, v in vars(self).items() if k not in ("authors", "date")}
        data["date"] = self.date.isoformat() if self.date else None
        if self.citations_read_on:
            data["citations_read_on"] = self.citations_read_on.isoformat()
        data["authors"] = [
            {k: getattr(a, k) for k in ("given", "family", "orcid", "affiliation", "is_unlisted")}
            for a in self.authors
        ]
        return data

    @classmethod
    def from_json(cls, data):
        data = dict(data)
        data["date"] = PartialDate.parse(data["date"]) if data["date"] else None
        if data.get("citations_read_on"):
            data["citations_read_on"] = datetime.date.fromisoformat(data["citations_read_on"])
        data["authors"] = [AuthorRecord(**a) for a in data["authors"]]
        return cls(**data)


@dataclass
class Plan:
    record: Record
    action: str
    publication: Publication | None = None  # the existing work it updates, if any
    changes: list = field(default_factory=list)  # names of fields that would change
    candidate: Publication | None = None  # the work as applying would leave it (unsaved)

    @property
    def problems(self):
        return self.record.problems

    @property
    def matched(self):
        return [a for a in self.record.authors if a.person]

    @property
    def ambiguous(self):
        return [a for a in self.record.authors if a.is_ambiguous]


# ---------------------------------------------------------------- reading: Crossref


def read_crossref_json(text, label="Crossref file"):
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


class _Fields:
    """One object of a JSON source read with its types checked: a value of the wrong type
    becomes a problem of the record and reads as empty, never an exception."""

    def __init__(self, data, record, where=""):
        self.data = data if isinstance(data, dict) else {}
        self.record = record
        self.where = where

    def _wrong(self, key, expected):
        problem = f"{self.where}“{key}” is not {expected}"
        if problem not in self.record.problems:
            self.record.problems.append(problem)

    def text(self, key, *, first=False):
        """A string (or number) value; with `first`, also the first item of a list of them."""
        value = self.data.get(key)
        if first and isinstance(value, list):
            value = value[0] if value else None
        if value is None:
            return ""
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            self._wrong(key, "text")
            return ""
        return _squash(str(value))

    def items(self, key):
        value = self.data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self._wrong(key, "a list")
            return []
        return value

    def obj(self, key):
        value = self.data.get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            self._wrong(key, "an object")
            return {}
        return value

    def whole_number(self, key):
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self._wrong(key, "a whole number")
            return None
        return value


def crossref_record(work, fallback_label):
    if not isinstance(work, dict):
        return Record(label=fallback_label, problems=["not a Crossref work object"])
    record = Record(label=fallback_label)
    work = _Fields(work, record)
    raw_doi = work.text("DOI")
    record.doi = _clean_doi(raw_doi)
    if record.doi:
        record.label = f"DOI {record.doi}"
    elif raw_doi:
        record.problems.append(f"invalid DOI “{raw_doi[:200]}”")
    title, subtitle = work.text("title", first=True), work.text("subtitle", first=True)
    record.title = f"{title}: {subtitle}" if title and subtitle else title
    crossref_type = work.text("type")
    record.kind = CROSSREF_KINDS.get(crossref_type, Kind.OTHER)
    if crossref_type == "posted-content" or record.kind == Kind.PREPRINT:
        record.status = Publication.Status.PREPRINT
    record.venue_name = work.text("container-title", first=True)
    record.venue_short = _venue_short_name(
        work.text("short-container-title", first=True), record.venue_name
    )
    record.issns = [i for i in work.items("ISSN") if isinstance(i, str) and _ISSN.match(i)]
    record.date = _crossref_date(work)
    record.volume = work.text("volume")
    record.issue = work.text("issue")
    record.pages = _pages(work.text("page"))
    record.publisher = work.text("publisher")
    record.abstract = jats_to_text(work.text("abstract"))
    count = work.whole_number("is-referenced-by-count")
    if count is not None:
        record.citation_count = count
        record.citations_read_on = _full_date(work.obj("indexed")) or datetime.date.today()
        record.citations_source = "Crossref"
    for number, author in enumerate(work.items("author"), start=1):
        if not isinstance(author, dict):
            record.problems.append(f"author {number} is not an object")
            continue
        author = _Fields(author, record, f"author {number}: ")
        affiliations = author.items("affiliation")
        first = affiliations[0] if affiliations and isinstance(affiliations[0], dict) else {}
        record.authors.append(
            AuthorRecord(
                given=author.text("given"),
                family=author.text("family") or author.text("name"),
                orcid=_clean_orcid(author.text("ORCID")),
                affiliation=_Fields(first, record, f"author {number}: ").text("name"),
            )
        )
    _check(record)
    return record


_ISSN = re.compile(r"^\d{4}-\d{3}[\dXx]$")


def _date_parts(value):
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


def _crossref_date(work):
    for key in ("issued", "published-print", "published-online", "published"):
        parts = _date_parts(work.obj(key))[:2]
        if parts:
            try:
                return PartialDate(*parts)
            except (ValueError, OverflowError):
                continue
    return None


def _full_date(value):
    parts = _date_parts(value)
    try:
        return datetime.date(*parts[:3]) if len(parts) >= 3 else None
    except (ValueError, OverflowError):
        return None


def jats_to_text(abstract):
    """A JATS abstract (<jats:p>, <jats:sc>…) as plain paragraphs separated by blank lines."""
    if not abstract:
        return ""
    text = re.sub(r"</?jats:title[^>]*>.*?</jats:title>", "", abstract, flags=re.S)
    text = re.sub(r"</(?:jats:)?p\s*>", "\n\n", text)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    paragraphs = [" ".join(p.split()) for p in text.split("\n\n")]
    text = "\n\n".join(p for p in paragraphs if p)
    # Inline tags leave a space before punctuation and possessives: "Mooncake ’s" → "Mooncake’s".
    return re.sub(r"\s+([,.;:)]|['’]s\b)", r"\1", text)


def _venue_short_name(short, name):
    """ "SOSP '24" → "SOSP"; "ACM Transactions on Storage" → "ACM ToS"; "Proceedings of the
    28th … (ASPLOS '23)" → "ASPLOS"; else the short form given, or the name."""
    for text in (short, *re.findall(r"\(([^()]+)\)", name or "")):
        if text and (match := re.match(r"^([A-Za-z][\w/&+-]*)\s*['’]?\s*\d{2,4}$", text)):
            return match[1]
    match = re.match(r"^(ACM|IEEE|IEEE/ACM)\s+Transactions\s+on\s+(.+)$", name or "")
    if match:
        words = [w for w in re.split(r"[\s,]+", match[2]) if w and w[0].isupper()]
        initials = "".join(w[0] for w in words)
        return f"{match[1]} {'To' + initials if len(words) == 1 else 'T' + initials}"
    if short:
        return short
    name = re.sub(r"^Proceedings of the (\d+\w* )?", "", name or "", flags=re.I)
    return name if len(name) <= 60 else name[:60].rsplit(" ", 1)[0]


# ---------------------------------------------------------------- reading: BibTeX


def read_bibtex(text, label="BibTeX file"):
    """Records from a BibTeX file; LaTeX decoded to Unicode, names split into given/family."""
    parser_log = logging.getLogger("bibtexparser")
    level, parser_log.level = parser_log.level, logging.ERROR  # failures are reported per record
    try:
        # Names are split before LaTeX is decoded, so braces still protect "{Barnes and Noble}";
        # decoding then happens per value, only where a value has LaTeX in it (latex_to_text).
        library = bibtexparser.parse_string(
            text,
            append_middleware=[
                middlewares.MonthIntMiddleware(True),
                middlewares.SeparateCoAuthors(),
                middlewares.SplitNameParts(),
            ],
        )
    except RecursionError:
        raise ImportProblem(f"{label} nests braces too deeply to be read as BibTeX.") from None
    finally:
        parser_log.level = level
    records = []
    for block in library.failed_blocks:
        if isinstance(block, DuplicateBlockKeyBlock):
            where, problem = (
                f"entry “{block.key}”",
                f"the key “{block.key}” is used twice in this file",
            )
        else:
            start = getattr(block, "start_line", None)
            where = f"line {start + 1}" if start is not None else "an entry"
            problem = "cannot be parsed as BibTeX (check its braces and commas)"
        records.append(Record(label=f"{label}, {where}", problems=[problem]))
    latex = LatexDecoder()
    records += [bibtex_record(entry, label, latex) for entry in library.entries]
    if not records:
        raise ImportProblem(f"{label} holds no BibTeX entries.")
    return records


class LatexDecoder:
    """LaTeX to Unicode ("M{\\\"u}ller" → "Müller", "12--24" → "12–24") through pylatexenc,
    the decoder bibtexparser itself uses, with its context built once. Plain values are
    returned untouched; values that need the parser count against `budget` characters, and
    past it `decode` raises ImportProblem for the whole source."""

    def __init__(self, budget=None):
        self.budget = MAX_LATEX_CHARS if budget is None else budget
        self.cache = {}

    def decode(self, value):
        """The text of `value`; ValueError when its LaTeX cannot be read."""
        if not re.search(r"[\\{}~$]|--", value):
            return value
        if value in self.cache:
            return self.cache[value]
        if not _NEEDS_LATEX_PARSER.search(value):
            # Only protective braces, dashes and escaped specials: the common case, done directly.
            text = value
            for latex, plain in _SIMPLE_LATEX:
                text = text.replace(latex, plain)
        else:
            self.budget -= len(value)
            if self.budget < 0:
                raise ImportProblem(
                    f"This file holds more LaTeX markup than one import decodes (over "
                    f"{MAX_LATEX_CHARS:,} characters of it); split it into smaller files."
                )
            try:
                walker = LatexWalker(value, latex_context=_LATEX_CONTEXT, tolerant_parsing=True)
                text = _LATEX_TEXT.nodelist_to_text(walker.get_latex_nodes()[0])
            except (RecursionError, IndexError, KeyError, TypeError, ValueError) as error:
                raise ValueError("its LaTeX cannot be read") from error
        self.cache[value] = text
        return text


def latex_to_text(value):
    """One value decoded, outside an import (no shared budget)."""
    return LatexDecoder().decode(value)


def bibtex_record(entry, label, latex=None):
    latex = latex or LatexDecoder()
    fields = {key.lower(): value for key, value in entry.fields_dict.items()}
    record = Record(label=f"{label}, entry “{entry.key}”")

    def decoded(text, name):
        try:
            return latex.decode(text)
        except ValueError:
            record.problems.append(f"the LaTeX in its {name} cannot be read")
            return ""

    def value(name, latex=True):
        raw = str(fields[name].value) if name in fields and fields[name].value is not None else ""
        return _squash(decoded(raw, name) if latex else raw.strip("{}"))

    entry_type = entry.entry_type.lower()
    if entry_type not in BIBTEX_KINDS:
        record.problems.append(f"unknown entry type @{entry.entry_type}")
    record.kind = BIBTEX_KINDS.get(entry_type, Kind.OTHER)
    record.title = value("title")
    record.venue_name = value("journal") or value("booktitle") or value("howpublished")
    record.venue_short = _venue_short_name("", record.venue_name)
    record.volume = value("volume")
    record.issue = value("number") if record.kind != Kind.PATENT else ""
    record.pages = _pages(value("pages"))
    record.publisher = value("publisher")
    record.abstract = value("abstract")
    record.url = value("url", latex=False)
    if value("doi", latex=False):
        record.doi = _clean_doi(value("doi", latex=False))
        if not record.doi:
            record.problems.append(f"invalid DOI “{value('doi', latex=False)}”")
    eprint = value("eprint")
    is_arxiv = value("archiveprefix").lower() in ("arxiv", "")
    if eprint and is_arxiv and re.match(r"^\d{4}\.\d{4,5}", eprint):
        record.arxiv_id = eprint
    if record.kind == Kind.OTHER and record.arxiv_id:
        record.kind, record.status = Kind.PREPRINT, Publication.Status.PREPRINT
    record.date = _bibtex_date(value("year"), fields.get("month"), value("date"), record)
    authors = fields["author"].value if "author" in fields else []
    for name in authors if isinstance(authors, list) else []:
        parts = name if hasattr(name, "last") else None
        if parts and not parts.first and [w.lower() for w in parts.last] == ["others"]:
            record.authors.append(AuthorRecord(is_unlisted=True))
            continue
        given = " ".join(parts.first) if parts else ""
        family = " ".join([*parts.von, *parts.last]) if parts else str(name)
        record.authors.append(
            AuthorRecord(
                given=_squash(decoded(given, "author names")),
                family=_squash(decoded(family, "author names")),
            )
        )
    _check(record)
    return record


def _bibtex_date(year, month_field, date_text, record):
    if date_text:
        try:
            return PartialDate.parse(date_text[:10])
        except ValueError:
            pass
    if not year:
        return None
    month = month_field.value if month_field is not None else None
    try:
        return PartialDate(int(year), int(month) if isinstance(month, int) else None)
    except (TypeError, ValueError):
        record.problems.append(f"unreadable date: year “{year}”")
        return None


# ---------------------------------------------------------------- reading: DOIs and ORCID


class HttpClient:
    """Fetches JSON over HTTPS. Tests pass a stand-in with the same `get_json`."""

    timeout = 20

    def get_json(self, url, headers=None):
        import urllib.error
        import urllib.request

        request = urllib.request.Request(
            url, headers={"Accept": "application/json", "User-Agent": "labsite", **(headers or {})}
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as error:
            raise ImportProblem(f"{url} answered {error.code} {error.reason}") from None
        except (urllib.error.URLError, TimeoutError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise ImportProblem(f"could not reach {url.split('/')[2]}: {reason}") from None
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ImportProblem(f"{url} did not answer with JSON") from None


def fetch_doi(doi, client):
    """The Crossref record of one DOI; a bad DOI or a network failure is a per-DOI problem."""
    try:
        doi = normalize_doi(doi)
    except ValidationError as error:
        return Record(label=f"DOI {doi}", problems=[error.messages[0]])
    try:
        data = client.get_json(CROSSREF_WORKS + doi)
    except ImportProblem as problem:
        return Record(label=f"DOI {doi}", doi=doi, problems=[str(problem)])
    message = data.get("message") if isinstance(data, dict) else None
    if not isinstance(message, dict):
        return Record(label=f"DOI {doi}", doi=doi, problems=["Crossref's answer has no record"])
    return crossref_record(message, f"DOI {doi}")


def read_orcid_works(person, client):
    """Records for a person's public ORCID works. Works with a DOI are completed from Crossref;
    the others carry only the person, between markers for the authors ORCID does not list."""
    if not person.orcid:
        raise ImportProblem(f"{person.name} has no ORCID iD on their profile.")
    data = client.get_json(ORCID_WORKS.format(orcid=person.orcid))
    groups = data.get("group") if isinstance(data, dict) else None
    if not isinstance(groups, list):
        raise ImportProblem(f"ORCID's answer for {person.orcid} has no works list.")
    records = []
    for number, group in enumerate(groups, start=1):
        record = Record(label=f"ORCID work {number}")
        summaries = _Fields(group, record).items("work-summary")
        if not summaries:
            if record.problems:
                records.append(record)
            continue
        summary = _Fields(summaries[0], record)
        ids = {}
        for entry in summary.obj("external-ids").get("external-id") or []:
            entry = _Fields(entry, record, "external id: ")
            ids.setdefault(entry.text("external-id-type").lower(), entry.text("external-id-value"))
        if ids.get("doi") and _clean_doi(ids["doi"]):
            records.append(fetch_doi(ids["doi"], client))
            continue
        title = _Fields(summary.obj("title"), record).obj("title")
        record.title = _Fields(title, record, "title: ").text("value")
        if record.title:
            record.label = f"ORCID work “{record.title[:60]}”"
        record.kind = ORCID_KINDS.get(summary.text("type"), Kind.OTHER)
        record.venue_name = _Fields(summary.obj("journal-title"), record).text("value")
        record.venue_short = _venue_short_name("", record.venue_name)
        record.arxiv_id = ids.get("arxiv", "").removeprefix("arXiv:")
        given, _, family = person.name.rpartition(" ")
        record.authors = [
            AuthorRecord(is_unlisted=True),
            AuthorRecord(given=given, family=family, orcid=person.orcid),
            AuthorRecord(is_unlisted=True),
        ]
        if record.kind == Kind.PREPRINT:
            record.status = Publication.Status.PREPRINT
        date = summary.obj("publication-date")
        parts = []
        for key in ("year", "month"):
            text = _Fields(_Fields(date, record).obj(key), record, f"{key}: ").text("value")
            if not text.isdigit():
                break
            parts.append(int(text))
        try:
            record.date = PartialDate(*parts) if parts else None
        except (ValueError, OverflowError):
            record.problems.append(f"unreadable date “{'-'.join(map(str, parts))}”")
        _check(record)
        records.append(record)
    return records


# ---------------------------------------------------------------- planning


def plan(records, progress=None, editable=None):
    """Match every record against the lab and say what applying it would do. No writes.

    Every value is checked against the model's rules (types, lengths, constraints) here, so
    a plan without problems is one `apply` writes as announced. `editable`, when given, is a
    queryset of the publications the importing user may change (a member: the papers they
    author); a record matching any other publication is a problem, never an update.

    Three queries in all (people, existing works, venues) plus one per work that already
    exists (its authors)."""
    people = _PeopleIndex()
    works = _WorkIndex()
    venues = _VenueCache()
    allowed = None if editable is None else set(editable.values_list("pk", flat=True))
    plans = []
    seen = {}
    for number, record in enumerate(records, start=1):
        if progress:
            progress(number, len(records))
        if record.problems:
            plans.append(Plan(record, ERROR))
            continue
        key = _work_key(record)
        if key in seen:
            record.problems.append(f"the same work as {seen[key]} earlier in this import")
            plans.append(Plan(record, ERROR))
            continue
        seen[key] = record.label
        people.match(record)
        existing = works.find(record)
        if existing is not None and allowed is not None and existing.pk not in allowed:
            record.problems.append(
                f"it is “{existing.display_title}”, a paper you are not an author of; "
                "ask a lab admin to update it"
            )
            plans.append(Plan(record, ERROR, existing))
            continue
        candidate, changes = _candidate(existing, record, venues)
        if record.problems:
            plans.append(Plan(record, ERROR, existing))
        elif existing is None:
            plans.append(Plan(record, NEW, None, changes, candidate))
        else:
            action = UPDATE if changes else UNCHANGED
            plans.append(Plan(record, action, existing, changes, candidate))
    return plans


def _candidate(existing, record, venues):
    """The publication as applying `record` would leave it (unsaved), and the names of what
    would change. Problems with any value (a type, a length, a rule of the model) go to
    `record.problems`, so the preview shows them and nothing is written."""
    publication = copy.copy(existing) if existing is not None else Publication()
    changes = _merge(publication, record)
    if publication.venue_id is None:
        venue = venues.get(record)
        if venue is not None:
            publication.venue = venue
            changes.append("venue")
            if venue.pk is None:
                record.problems += _invalid(venue, "new venue ", exclude=["short_name"])
    # The venue was chosen above and the DOI matched against every work: no query needed.
    record.problems += _invalid(publication, exclude=["venue"], check=publication.check_rules)
    for position, author in enumerate(record.authors, start=1):
        record.problems += _invalid(
            _authorship(None, position, author),
            f"author {position}: ",
            exclude=["publication", "person"],
        )
    if existing is not None and _author_rows(existing) != _author_rows(record):
        changes.append("authors")
    return publication, changes


def _merge(publication, record):
    """Put the record's values on `publication` (the one merge rule of the plan and the
    apply) and return the names of the fields that changed. A value the source lacks never
    clears one that is there; identifiers and the PDF link only fill empty fields."""
    changed = []
    values = {name: getattr(record, name) for name in SOURCE_FIELDS}
    if record.citation_count is None:
        # No count in this source: keep the stored count with its date and source.
        for name in ("citation_count", "citations_read_on", "citations_source"):
            values.pop(name)
    if not publication.arxiv_id:
        values["arxiv_id"] = record.arxiv_id
    if not publication.pdf_url and record.url.lower().endswith(".pdf") and is_web_url(record.url):
        values["pdf_url"] = record.url
    for name, value in values.items():
        if value in (None, ""):
            continue
        if _comparable(getattr(publication, name)) != _comparable(value):
            setattr(publication, name, value)
            changed.append(name)
    return changed


def _comparable(value):
    return value.isoformat() if isinstance(value, PartialDate) else value


def _invalid(instance, prefix="", exclude=(), check=None):
    """What the model's own rules (`clean_fields()`, then `check`, by default `clean()`) say
    is wrong with `instance`, as problem sentences."""
    try:
        instance.clean_fields(exclude=list(exclude))
        (check or instance.clean)()
    except ValidationError as error:
        if not hasattr(error, "error_dict"):
            return [f"{prefix}{message}" for message in error.messages]
        return [
            f"{prefix}{_field_label(instance, name)}: {message}"
            for name, errors in error.error_dict.items()
            for message in ValidationError(errors).messages
        ]
    return []


def _field_label(instance, name):
    try:
        return str(instance._meta.get_field(name).verbose_name)
    except Exception:
        return name


class _PeopleIndex:
    """Lab people by ORCID and by every normalized printed form of their name (one query)."""

    def __init__(self):
        self.by_orcid = {}
        self.by_name = {}
        for person in Person.objects.all():
            if person.orcid:
                self.by_orcid[person.orcid] = person
            for form in person.name_forms():
                self.by_name.setdefault(form, []).append(person)

    def candidates(self, author):
        if author.orcid and author.orcid in self.by_orcid:
            return [self.by_orcid[author.orcid]]
        forms = {
            normalize_name(f"{author.given} {author.family}"),
            normalize_name(f"{author.family}, {author.given}"),
            normalize_name(f"{author.family} {author.given}"),
            normalize_name(f"{author.family}{author.given}"),
        }
        found = {p.pk: p for form in forms for p in self.by_name.get(form, [])}
        return list(found.values())

    def match(self, record):
        for author in record.authors:
            if author.is_unlisted:
                continue
            candidates = self.candidates(author)
            author.person = candidates[0] if len(candidates) == 1 else None
            author.candidates = candidates if len(candidates) > 1 else []
        # Two authors of one paper cannot be the same person: flag both, guess neither.
        linked = [a for a in record.authors if a.person and not a.orcid]
        twins = [a for a in linked if sum(b.person == a.person for b in linked) > 1]
        for author in twins:
            author.candidates = [author.person]
            author.person = None


class _WorkIndex:
    """Existing publications by DOI, arXiv id, and normalized title + year (one query)."""

    def __init__(self):
        self.by_key = {}
        for publication in Publication.objects.all():
            for key in _publication_keys(publication):
                self.by_key.setdefault(key, publication)

    def find(self, record):
        for key in _record_keys(record):
            if key in self.by_key:
                return self.by_key[key]
        return None


def _title_key(title, year):
    text = unicodedata.normalize("NFKD", title or "").casefold()
    return ("title", re.sub(r"[\W_]+", "", text), year)


def _work_keys(doi, arxiv_id, title, year):
    """The keys a work is recognised by, strongest first: DOI, arXiv id, title and year."""
    keys = [("doi", doi)] if doi else []
    if arxiv_id:
        keys.append(("arxiv", arxiv_id))
    if title:
        keys.append(_title_key(title, year))
    return keys


def _publication_keys(publication):
    return _work_keys(publication.doi, publication.arxiv_id, publication.title, publication.year)


def _record_keys(record):
    year = record.date.year if record.date else None
    return _work_keys(record.doi, record.arxiv_id, record.title, year) or [_title_key("", year)]


def _work_key(record):
    return _record_keys(record)[0]


def _author_rows(source):
    """An author list as comparable tuples, from a publication or a record."""
    if isinstance(source, Record):
        return [(a.given, a.family, a.orcid, a.affiliation, a.is_unlisted) for a in source.authors]
    return [
        (a.given_name, a.family_name, a.orcid, a.affiliation, a.is_unlisted)
        for a in source.authorships.all()
    ]


# ---------------------------------------------------------------- applying


@dataclass
class Summary:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    failed: int = 0
    written: bool = False

    def __str__(self):
        return (
            f"{self.created} created, {self.updated} updated, "
            f"{self.unchanged} unchanged, {self.failed} failed"
        )


def apply(plans, *, skip_invalid=False, user=None):
    """Write the plans in one transaction, recorded in history as `user`'s. With any error
    plan and not `skip_invalid`, nothing is written. Returns a Summary."""
    summary = Summary(failed=sum(p.action == ERROR for p in plans))
    if summary.failed and not skip_invalid:
        return summary
    with transaction.atomic():
        for item in plans:
            venue = item.candidate.venue if item.action in (NEW, UPDATE) else None
            if venue is not None and venue.pk is None:
                venue.save()  # a new venue, shared by every record that names it
        _create_all([item for item in plans if item.action == NEW], user)
        for item in plans:
            if item.action == UPDATE:
                _update(item, user)
        summary.created = sum(item.action == NEW for item in plans)
        summary.updated = sum(item.action == UPDATE for item in plans)
        summary.unchanged = sum(item.action == UNCHANGED for item in plans)
    summary.written = True
    return summary


class _VenueCache:
    """Venues matched by ISSN, short name or full name; a new (unsaved) one when missing,
    shared by every record of the import that names it."""

    def __init__(self):
        self.venues = list(Venue.objects.all())

    def get(self, record):
        if not (record.venue_name or record.venue_short):
            return None
        for venue in self.venues:
            if record.issns and set(record.issns) & set(venue.issns()):
                return venue
        for venue in self.venues:
            if record.venue_short and venue.short_name.casefold() == record.venue_short.casefold():
                return venue
            if record.venue_name and venue.name.casefold() == record.venue_name.casefold():
                return venue
        venue = Venue(
            short_name=_shorten((record.venue_short or record.venue_name), 60),
            name=record.venue_name,
            kind=VENUE_KINDS.get(record.kind, Venue.Kind.OTHER),
            publisher=record.publisher,
            issn=", ".join(record.issns),
        )
        self.venues.append(venue)
        return venue


def _create_all(plans, user):
    """New publications and their authors in a few batched INSERTs, whatever their number."""
    taken = set(Publication.objects.values_list("slug", flat=True))
    for item in plans:
        publication = item.candidate
        publication.slug = unique_slug(publication, publication.display_title, taken=taken)
        taken.add(publication.slug)
        item.publication = publication
    publications = [item.publication for item in plans]
    bulk_create_with_history(publications, Publication, batch_size=500, default_user=user)
    authorships = [
        _authorship(item.publication, position, author)
        for item in plans
        for position, author in enumerate(item.record.authors, start=1)
    ]
    bulk_create_with_history(authorships, Authorship, batch_size=1000, default_user=user)


def _update(item, user):
    """Save the planned candidate, then bring its author list in line with the source."""
    publication, record = item.candidate, item.record
    publication.save()
    existing = list(publication.authorships.all())
    kept = []
    for position, author in enumerate(record.authors, start=1):
        match = _matching_authorship(existing, author, position)
        if match is not None:
            existing.remove(match)
            kept.append((match, position, author))
    # Authors no longer in the source go; the others take the source's order and names but
    # keep the person link and role flags an admin set on them.
    Authorship.objects.filter(pk__in=[a.pk for a in existing]).delete()
    publication.park_authorships()
    for row, position, author in kept:
        row.position = position
        row.given_name, row.family_name = author.given, author.family
        row.orcid = author.orcid or row.orcid
        row.affiliation = author.affiliation or row.affiliation
        row.is_unlisted = author.is_unlisted
        if row.person_id is None and author.person is not None:
            row.person = author.person
        row.save()
    taken = {position for _, position, _ in kept}
    new_rows = [
        _authorship(publication, position, author)
        for position, author in enumerate(record.authors, start=1)
        if position not in taken
    ]
    bulk_create_with_history(new_rows, Authorship, default_user=user)


def _matching_authorship(existing, author, position):
    if author.is_unlisted:
        return next((a for a in existing if a.is_unlisted and a.position == position), None)
    if author.orcid:
        hit = next((a for a in existing if a.orcid == author.orcid), None)
        if hit:
            return hit
    name = normalize_name(f"{author.given} {author.family}")
    same_name = [a for a in existing if normalize_name(a.full_name) == name]
    if len(same_name) == 1:
        return same_name[0]
    return next((a for a in same_name if a.position == position), None)


def _authorship(publication, position, author):
    row = Authorship(
        position=position,
        given_name=author.given,
        family_name=author.family,
        orcid=author.orcid,
        affiliation=author.affiliation,
        person=author.person,
        is_unlisted=author.is_unlisted,
    )
    if publication is not None:
        row.publication = publication
    return row


# ---------------------------------------------------------------- small helpers


def _check(record):
    if not record.title:
        record.problems.append("it has no title")
    if not any(not a.is_unlisted for a in record.authors):
        record.problems.append("it lists no authors")


def _shorten(text, length):
    """`text` cut at a word boundary to at most `length` characters."""
    return text if len(text) <= length else text[:length].rsplit(" ", 1)[0][:length]


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _squash(text):
    """One line of text: runs of white space folded to one space, control characters (NUL,
    which PostgreSQL cannot store, among them) removed."""
    return " ".join(_CONTROL.sub("", str(text or "")).split())


def _pages(text):
    return re.sub(r"\s*[-–—]+\s*", "–", text.strip())


def _clean_doi(value):
    try:
        return normalize_doi(value)
    except ValidationError:
        return ""


def _clean_orcid(value):
    try:
        return normalize_orcid(value) if value else ""
    except ValidationError:
        return ""
