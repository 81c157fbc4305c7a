"""Reading BibTeX: entries parsed by bibtexparser, names split before LaTeX is decoded, and
every value decoded by pylatexenc (bibtexparser's own decoder) within a per-import budget."""

import logging
import re
from collections.abc import Callable
from typing import Any

import bibtexparser
from bibtexparser import middlewares
from bibtexparser.model import DuplicateBlockKeyBlock
from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import LatexWalker, get_default_latex_context_db

from core.partial_dates import PartialDate
from publications.importing.records import (
    AuthorRecord,
    ImportProblem,
    Kind,
    Record,
    arxiv_id_of_doi,
    check,
    clean_doi,
    page_range,
    squash,
)
from publications.models import Publication

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
# Decoding LaTeX costs 2 µs a character for titles with protective braces and up to 6 µs
# for math and macros: one import decodes at most this much (a few seconds at worst), so a
# hostile file cannot hold a worker for minutes. A real 5,000-entry .bib has less (values
# repeat, each is decoded once, and numbers, DOIs and URLs are not decoded at all).
MAX_LATEX_CHARS = 1_000_000

_LATEX_TEXT = LatexNodes2Text()
_LATEX_CONTEXT = get_default_latex_context_db()
# LaTeX that only pylatexenc reads: ties, math, dashes, quotes, and macros other than the
# control symbols below. A value without it holds at most protective braces and escaped
# symbols ("{RDMA} Memory \\& Storage"), which `_BRACES_AND_SYMBOLS` reads the way
# pylatexenc does (a property test holds the two equal), thousands of times faster.
_NEEDS_PYLATEXENC = re.compile(r"[~$]|--|''|``|[!?]`|\\[^&%$#_{}]|\\$")
_BRACES_AND_SYMBOLS = re.compile(r"\\([&%$#_{}])|[{}]")
# A bare % or & in a BibTeX value is the character (BibTeX does not treat it specially;
# LaTeX would read a comment or a table column): escaped before decoding.
_BARE_SYMBOL = re.compile(r"(?<!\\)([%&])")
_ARXIV_ID = re.compile(r"^(?:arxiv:)?(\d{4}\.\d{4,5}(?:v\d+)?)$", re.IGNORECASE)
_ARXIV_IN_TEXT = re.compile(r"arxiv[:\s/]*(?:abs/)?(\d{4}\.\d{4,5})", re.IGNORECASE)
_DBLP_KEY = re.compile(r"^(?:DBLP:)?((?:conf|journals)/[\w-]+)/", re.IGNORECASE)
_DBLP_URL = re.compile(r"dblp\.org/rec/((?:conf|journals)/[\w-]+)/", re.IGNORECASE)


class LatexDecoder:
    """LaTeX to Unicode ("M{\\\"u}ller" → "Müller", "12--24" → "12–24", "speed~up" with a
    no-break space, "50%" stays "50%") as pylatexenc reads it. Values holding nothing but
    protective braces and escaped symbols are read without it, to the same text; each
    other distinct value is decoded once, counting against `budget` characters, and past
    it `decode` raises ImportProblem."""

    def __init__(self, budget: int | None = None) -> None:
        self.budget = MAX_LATEX_CHARS if budget is None else budget
        self.cache: dict[str, str] = {}

    def decode(self, value: str) -> str:
        """The text of `value`; ValueError when its LaTeX cannot be read."""
        if not _NEEDS_PYLATEXENC.search(value):
            return _BRACES_AND_SYMBOLS.sub(lambda match: match[1] or "", value)
        if value in self.cache:
            return self.cache[value]
        self.budget -= len(value)
        if self.budget < 0:
            raise ImportProblem(
                f"This file holds more LaTeX markup than one import decodes (over "
                f"{MAX_LATEX_CHARS:,} characters of it); split it into smaller files."
            )
        text = self.cache[value] = pylatexenc_text(value)
        return text


def pylatexenc_text(value: str) -> str:
    """`value` read by pylatexenc, bare % and & being characters; ValueError when its
    LaTeX cannot be read."""
    try:
        latex = _BARE_SYMBOL.sub(r"\\\1", value)
        walker = LatexWalker(latex, latex_context=_LATEX_CONTEXT, tolerant_parsing=True)
        return str(_LATEX_TEXT.nodelist_to_text(walker.get_latex_nodes()[0]))
    except (RecursionError, IndexError, KeyError, TypeError, ValueError) as error:
        raise ValueError("its LaTeX cannot be read") from error


def read_bibtex(text: str, label: str = "BibTeX file") -> list[Record]:
    """Records from a BibTeX file; LaTeX decoded to Unicode, names split into given/family."""
    parser_log = logging.getLogger("bibtexparser")
    level, parser_log.level = parser_log.level, logging.ERROR  # failures are reported per record
    try:
        # Names are split before LaTeX is decoded, so braces still protect "{Barnes and Noble}".
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
            where = f"entry “{block.key}”"
            problem = f"the key “{block.key}” is used twice in this file"
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


def bibtex_record(entry: Any, label: str, latex: LatexDecoder | None = None) -> Record:
    latex = latex or LatexDecoder()
    fields = {key.lower(): value for key, value in entry.fields_dict.items()}
    record = Record(label=f"{label}, entry “{entry.key}”", citation_key=squash(entry.key))

    def decoded(text: str, name: str) -> str:
        try:
            return latex.decode(text)
        except ValueError:
            record.problems.append(f"the LaTeX in its {name} cannot be read")
            return ""

    def value(name: str, latex: bool = True) -> str:
        raw = str(fields[name].value) if name in fields and fields[name].value is not None else ""
        return squash(decoded(raw, name) if latex else raw.strip("{}"))

    entry_type = entry.entry_type.lower()
    if entry_type not in BIBTEX_KINDS:
        record.problems.append(f"unknown entry type @{entry.entry_type}")
    record.kind = BIBTEX_KINDS.get(entry_type, Kind.OTHER)
    record.title = value("title")
    record.venue_name = value("journal") or value("booktitle") or value("howpublished")
    # Numbers and ranges are not LaTeX text: "12--24" needs no decoder to become "12–24".
    record.volume = value("volume", latex=False)
    record.issue = value("number", latex=False) if record.kind != Kind.PATENT else ""
    record.pages = page_range(value("pages", latex=False))
    record.publisher = value("publisher")
    record.abstract = value("abstract")
    record.url = value("url", latex=False)
    raw_doi = value("doi", latex=False)
    if raw_doi:
        record.doi = clean_doi(raw_doi)
        if not record.doi:
            record.problems.append(f"invalid DOI “{raw_doi[:200]}”")
    venue_key = _DBLP_KEY.match(entry.key) or _DBLP_URL.search(value("biburl", latex=False))
    record.venue_key = venue_key[1].lower() if venue_key else ""
    _read_arxiv(record, value)
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
                given=squash(decoded(given, "author names")),
                family=squash(decoded(family, "author names")),
            )
        )
    check(record)
    return record


def _read_arxiv(record: Record, value: Callable[[str], str]) -> None:
    """An arXiv preprint, however the entry says so (eprint and archivePrefix or eprinttype,
    "arXiv preprint arXiv:…" or DBLP's "CoRR" as journal, arXiv's DOI), gets its id, and with
    no other venue the preprint server "arXiv" as venue."""
    eprint = value("eprint")
    prefix = (value("archiveprefix") or value("eprinttype")).lower()
    match = _ARXIV_ID.match(eprint) if prefix in ("arxiv", "") else None
    if not match:
        match = _ARXIV_IN_TEXT.search(f"{record.venue_name} {value('volume')} {record.url}")
    record.arxiv_id = (match[1] if match else "") or arxiv_id_of_doi(record.doi)
    if not record.arxiv_id:
        return
    venue = record.venue_name.casefold()
    if not venue or venue == "corr" or venue.startswith("arxiv"):
        record.venue_name, record.volume = "arXiv", ""
        if record.kind in (Kind.OTHER, Kind.JOURNAL, Kind.PREPRINT):
            record.kind, record.status = Kind.PREPRINT, Publication.Status.PREPRINT


def _bibtex_date(year: str, month_field: Any, date_text: str, record: Record) -> PartialDate | None:
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
    except (TypeError, ValueError, OverflowError):
        record.problems.append(f"unreadable date: year “{year[:20]}”")
        return None
