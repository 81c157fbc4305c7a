"""Reading BibTeX as people write it: entries parsed by bibtexparser, each field read into its
home (`bibtex_fields` says what each means), kept with the paper as a source field, or named
in the preview as left out; every reading that was not plain said in the record."""

import functools
import logging
import re
from collections.abc import Callable

import bibtexparser
from bibtexparser.middlewares.names import split_multiple_persons_names
from bibtexparser.model import DuplicateBlockKeyBlock, DuplicateFieldKeyBlock, Entry

from core.names import name_parts
from core.partial_dates import PartialDate
from lab.models import LabSettings
from publications.importing import bibtex_fields as fields_of
from publications.importing.bibtex_links import EntryLinks
from publications.importing.latex import LatexDecoder
from publications.importing.records import (
    AuthorRecord,
    ImportProblem,
    Kind,
    Record,
    check,
    page_range,
    squash,
)
from publications.importing.titles import Tags, has_markup, markup_to_text, split_tags
from publications.models import Publication

BIBTEX_KINDS = {
    "article": Kind.JOURNAL,
    "inproceedings": Kind.CONFERENCE,
    "conference": Kind.CONFERENCE,
    "proceedings": Kind.BOOK,
    "incollection": Kind.CHAPTER,
    "inbook": Kind.CHAPTER,
    "book": Kind.BOOK,
    "phdthesis": Kind.THESIS,
    "mastersthesis": Kind.THESIS,
    "thesis": Kind.THESIS,
    "techreport": Kind.REPORT,
    "report": Kind.REPORT,
    "patent": Kind.PATENT,
    "misc": Kind.OTHER,
    "unpublished": Kind.PREPRINT,
    "preprint": Kind.PREPRINT,
    "online": Kind.OTHER,
    "electronic": Kind.OTHER,
    "www": Kind.OTHER,
    "software": Kind.OTHER,
    "dataset": Kind.OTHER,
    "manual": Kind.OTHER,
    "booklet": Kind.OTHER,
}
# Types read as a kind they only approximate: the preview says so.
_APPROXIMATE = {"online", "electronic", "www", "software", "dataset", "manual", "booklet"}
# Fields read into a home below; anything else is kept as a source field.
_READ = {
    "title", "author", "author+an", "journal", "booktitle", "howpublished", "volume",
    "number", "pages", "publisher", "abstract", "url", "doi", "year", "month", "day", "date",
    "eprint", "archiveprefix", "eprinttype", "issn", "note", "address", "series", "abbr",
    "selected", "arxiv", "hal", "award", "award_name", "organization", "institution",
    "school", "pubstate", *fields_of.LINK_HOMES, *fields_of.DROPPED,
}  # fmt: skip
_DBLP_KEY = re.compile(r"^(?:DBLP:)?((?:conf|journals)/[\w-]+)/", re.IGNORECASE)
_DBLP_URL = re.compile(r"dblp\.org/rec/((?:conf|journals)/[\w-]+)/", re.IGNORECASE)
_ENTRY_KEY = re.compile(r"@\s*\w+\s*[{(]\s*([^,\s{}()]+)")
_CONFERENCE_WORDS = re.compile(r"\b(?:proceedings|conference|symposium|workshop)\b", re.I)
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_HTML_TAG = re.compile(r"<[^>]*>")
_TRAILING_YEAR = re.compile(r"(?:\s+['’]?|['’])(?:19|20)?\d{2}$")  # "NeurIPS 2024", "OSDI '24"
_STATUS_OF_PUBSTATE = {
    "forthcoming": Publication.Status.ACCEPTED,
    "inpress": Publication.Status.ACCEPTED,
    "submitted": Publication.Status.PREPRINT,
    "prepublished": Publication.Status.PREPRINT,
}
# What labsite's own export adds at the end of a note; the roles it states come in by
# author+an, and "and others" says the list is incomplete.
_EXPORTED_NOTE = re.compile(
    r"\s*(?:(?:Equal contribution|Corresponding authors?): .*|The author list is incomplete\.)$"
)
# A note longer than this, or on several lines, is a record's annotation (EndNote puts the
# whole reference there), not a note to print with the paper: it is kept as a source field.
_SHORT_NOTE = 200


def read_bibtex(text: str, label: str = "BibTeX file") -> list[Record]:
    """Records from a BibTeX file in the order of its entries; an entry that cannot be read
    is a record with its problem, naming its key and line."""
    lab = LabSettings.load()  # the lab's markers say which role each means
    markers = {
        lab.marker_equal_contribution.strip(): "is_equal_contribution",
        lab.marker_corresponding.strip(): "is_corresponding",
    }
    parser_log = logging.getLogger("bibtexparser")
    level, parser_log.level = parser_log.level, logging.CRITICAL  # failures are per record
    try:
        library = bibtexparser.parse_string(text)
    except RecursionError:
        raise ImportProblem(f"{label} nests braces too deeply to be read as BibTeX.") from None
    finally:
        parser_log.level = level
    latex = LatexDecoder()
    found: list[tuple[int, Record]] = []
    for block in library.failed_blocks:
        line = (block.start_line or 0) + 1
        entry = block.ignore_error_block
        if isinstance(block, DuplicateFieldKeyBlock) and isinstance(entry, Entry):
            found.append((line, bibtex_record(entry, label, latex, markers, enclosed=True)))
            continue
        if isinstance(block, DuplicateBlockKeyBlock) and isinstance(entry, Entry):
            # Another work under a key already used: read, without the key (a re-used key
            # says nothing about the work; the same work twice is caught when planning).
            record = bibtex_record(entry, label, latex, markers, enclosed=True)
            record.label = f"{record.label} (line {line})"
            record.readings.append(f"its key “{block.key}” is used twice in this file: not kept")
            record.citation_key = ""
            found.append((line, record))
            continue
        key_match = _ENTRY_KEY.search(block.raw or "")
        key = key_match[1] if key_match else ""
        problem = "cannot be read as BibTeX: check its braces, quotes and commas"
        where = f"entry “{key}” (line {line})" if key else f"line {line}"
        found.append((line, Record(label=f"{label}, {where}", problems=[problem])))
    for read in library.entries:
        found.append(((read.start_line or 0) + 1, bibtex_record(read, label, latex, markers)))
    if not found:
        raise ImportProblem(f"{label} holds no BibTeX entries.")
    return [record for _line, record in sorted(found, key=lambda item: item[0])]


def bibtex_record(
    entry: Entry,
    label: str,
    latex: LatexDecoder | None = None,
    markers: dict[str, str] | None = None,
    *,
    enclosed: bool = False,
) -> Record:
    """The record of one entry. A field given twice (in any case) reads with its first
    value; each other value is an option of a choice the admin makes in the preview, and
    until then a problem."""
    latex = latex or LatexDecoder()
    markers = (
        markers if markers is not None else {"*": "is_equal_contribution", "†": "is_corresponding"}
    )
    given: dict[str, list[tuple[str, int]]] = {}
    for item in entry.fields:
        value = item.value if isinstance(item.value, str) else str(item.value)
        if enclosed:  # a block bibtexparser did not finish keeps its braces or quotes
            value = _unenclosed(value)
        given.setdefault(item.key.lower(), []).append((value, (item.start_line or 0) + 1))
    first = {name: values[0][0] for name, values in given.items()}
    record = _EntryReader(entry, label, latex, markers).read(first)
    twice = {name: values for name, values in given.items() if len(values) > 1}
    base = record.to_json() if twice else {}
    for name, values in twice.items():
        if len({squash(v) for v, _ in values}) == 1:
            record.readings.append(f"“{name}” is given {len(values)} times, the same each time")
            continue
        options = []
        for value, _line in values:
            variant = _EntryReader(entry, label, LatexDecoder(), markers).read(
                {**first, name: value}
            )
            changed = {k: v for k, v in variant.to_json().items() if base.get(k) != v}
            changed.pop("problems", None), changed.pop("readings", None)
            options.append({"label": squash(value)[:300], "values": changed})
        lines = " and ".join(str(line) for _, line in values)
        problem = f"“{name}” is given {len(values)} times (lines {lines}): pick one in the preview"
        record.problems.append(problem)
        record.choices.append({"field": name, "problem": problem, "options": options})
    return record


@functools.lru_cache(maxsize=20_000)  # a lab's names recur on most entries of a file
def _name_parts(name: str) -> tuple[str, str, str]:
    """(given, family, suffix) by the one splitter (BibTeX's rule, and capitalized
    particles: "Adrian Del Maestro"), before LaTeX is decoded, so braces still protect
    "{Barnes and Noble}"."""
    return name_parts(name)


def _unenclosed(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and (value[0], value[-1]) in (("{", "}"), ('"', '"')):
        return value[1:-1]
    return value


class _EntryReader(EntryLinks):
    """Reads one entry's fields (lower-case names, first values) into a record. Two of its
    parts are inherited, each in a module of its own: reading a field's value
    (`bibtex_values`) and placing the identifiers and links (`bibtex_links`)."""

    def read(self, given: dict[str, str]) -> Record:
        entry = self.entry
        record = self.record = Record(
            label=f"{self.label}, entry “{entry.key}”", citation_key=squash(entry.key)
        )
        self.fields = self._canonical(given)
        self.tags = Tags()
        entry_type = entry.entry_type.lower()
        if entry_type not in BIBTEX_KINDS:
            record.problems.append(f"unknown entry type @{entry.entry_type}")
        elif entry_type in _APPROXIMATE:
            record.readings.append(f"@{entry.entry_type} read as “{Kind.OTHER.label}”")
        record.kind = BIBTEX_KINDS.get(entry_type, Kind.OTHER)
        record.title = self._title()
        self._venue()
        record.volume = self._number("volume")
        if record.kind == Kind.PATENT:  # biblatex: the number, and its place as location
            record.patent_number = self._number("number")
            place = self.text("address") or self.text("location")
            if re.fullmatch(r"[A-Za-z]{2,20}", place):
                record.patent_jurisdiction = place.upper()
            number = f"{record.patent_jurisdiction} Patent {record.patent_number}".strip()
            if record.patent_number and record.title == number:
                record.title = ""  # the number told as a title (a patent without one)
        else:
            record.issue = self._number("number")
        record.pages = page_range(self._number("pages"))
        record.publisher = self.text("publisher")
        for name in [n for n in ("organization", "institution", "school") if n in self.fields]:
            text = self.text(name)
            if text and not record.publisher:
                record.publisher = text
                record.readings.append(f"“{name}” read as the publisher")
            elif text:
                record.source_fields[name] = text
        record.abstract = self.text("abstract", one_line=False)
        record.series = self.text("series")
        record.address = self.text("address") if record.kind != Kind.PATENT else ""
        record.issns = fields_of.issns_in(self.raw("issn"))
        self._identifiers()
        self._links()
        self._arxiv()
        record.date = self._date()
        self._notes_and_awards()
        self._authors()
        self._kept_and_dropped()
        check(record)
        return record

    # -- what the entry is -----------------------------------------------------------------

    def _title(self) -> str:
        raw = self.raw("title")
        if has_markup(raw):
            raw = markup_to_text(raw)
            self.record.readings.append("markup in the title read as text")
        try:
            title = squash(self.latex.decode(raw)) if raw else ""
        except ValueError:
            self.record.problems.append("the LaTeX in its title cannot be read")
            return ""
        clean = split_tags(title, self.tags) or title  # a title that is all tag stays
        if clean != title:
            self.record.readings.append(
                f"{', '.join(self.tags.found)} taken out of the title (see the note, status "
                "and award)"
            )
        return clean

    def _venue(self) -> None:
        record = self.record
        name_field = next((n for n in ("journal", "booktitle", "howpublished") if self.raw(n)), "")
        venue = self.text(name_field) if name_field else ""
        if has_markup(venue):
            venue = squash(markup_to_text(venue))
        found = len(self.tags.found)
        venue = (split_tags(venue, self.tags, brackets_only_known=True) or venue) if venue else ""
        if len(self.tags.found) > found:
            record.readings.append(
                f"{', '.join(self.tags.found[found:])} taken out of the {name_field}"
            )
        record.venue_name = venue
        abbr = squash(_HTML_TAG.sub(" ", self.text("abbr")))
        if abbr and self.tags.take(_TRAILING_YEAR.sub("", abbr), f"abbr “{abbr}”"):
            record.readings.append(f"abbr “{abbr}” is a tag, not a venue: see the note")
            abbr = ""
        record.venue_short = _TRAILING_YEAR.sub("", abbr) if abbr else ""
        if (
            record.kind == Kind.JOURNAL
            and name_field == "journal"
            and _CONFERENCE_WORDS.search(venue)
            and not venue.casefold().startswith("proceedings of the ieee")
        ):
            record.kind = (
                Kind.WORKSHOP if re.search(r"\bworkshop\b", venue, re.I) else Kind.CONFERENCE
            )
            record.readings.append(f"@article in “{venue}” read as a {record.kind.label.lower()}")
        venue_key = _DBLP_KEY.match(self.entry.key) or _DBLP_URL.search(self.raw("biburl"))
        record.venue_key = venue_key[1].lower() if venue_key else ""

    def _date(self) -> PartialDate | None:
        record = self.record
        date_text = self.raw("date")
        if date_text:
            try:
                return PartialDate.parse(date_text[:10].replace("/", "-"))
            except ValueError:
                pass
        year_text = squash(self.raw("year").strip("{}"))
        if not year_text:
            return None
        year = _YEAR.search(year_text)
        rest = _YEAR.sub("", year_text).strip(" ,.()[]")
        if rest and not self.tags.take(rest, f"year “{year_text}”"):
            record.dropped.append(f"year “{year_text}”: only the year is read")
        if not year:
            record.problems.append(f"unreadable date: year “{year_text[:20]}”")
            return None
        month_text = squash(self.raw("month").strip("{}"))
        month = fields_of.month_of(month_text) if month_text else None
        if month_text and month is None:
            record.dropped.append(f"month “{month_text}”: not a month; the date keeps its year")
        day_text = self.raw("day").strip("{}")
        day = int(day_text) if month and day_text.isdigit() else None
        try:
            return PartialDate(int(year[1]), month, day)
        except (TypeError, ValueError, OverflowError):
            try:
                return PartialDate(int(year[1]), month)
            except (TypeError, ValueError, OverflowError):
                record.problems.append(f"unreadable date: year “{year_text[:20]}”")
                return None

    def _notes_and_awards(self) -> None:
        record, tags = self.record, self.tags
        note = self.text("note")
        if self.raw("author+an"):  # labsite's (or biblatex's) roles: the sentence repeats them
            note = _EXPORTED_NOTE.sub("", note).strip()
        if note and "\n" not in self.raw("note").strip() and len(note) <= _SHORT_NOTE:
            rest = split_tags(note, tags)  # "[Best Paper]", "(Oral)"
            if rest and not tags.take(rest, f"note “{rest}”"):
                tags.notes.append(rest)
        elif note:
            record.source_fields["note"] = self.text("note", one_line=False)
        award_name, award = self.text("award_name"), self.text("award", one_line=False)
        if award_name:
            tags.awards.insert(0, award_name)
        elif award and len(award) <= 60 and "\n" not in award:
            tags.awards.insert(0, award)
            award = ""
        if award:
            record.source_fields["award"] = award
        record.award = "; ".join(dict.fromkeys(tags.awards))
        record.note = "; ".join(dict.fromkeys(tags.notes))
        pubstate = _STATUS_OF_PUBSTATE.get(self.raw("pubstate").casefold().replace(" ", ""))
        status = tags.status or pubstate
        if status:
            record.status = status
        selected = self.raw("selected").casefold()
        record.is_selected = True if selected in fields_of.TRUE else None

    def _authors(self) -> None:
        record = self.record
        annotations = fields_of.read_annotations(self.raw("author+an"))
        for position, raw in enumerate(split_multiple_persons_names(self.raw("author")), 1):
            marked = fields_of.read_marked_name(raw)
            if marked.unlisted:
                record.authors.append(AuthorRecord(is_unlisted=True))
                more = f"{marked.more} more authors" if marked.more else "more authors"
                record.readings.append(
                    f"“{raw}” read as {more}, not listed: the list is incomplete"
                )
                continue
            author = self._author(marked.name)
            roles = annotations.get(position, set())
            author.is_equal_contribution = "equal" in roles
            author.is_corresponding = "corresponding" in roles
            for marker in dict.fromkeys(marked.markers) if marked.markers else ():
                role = self.markers.get(marker)
                if role:
                    setattr(author, role, True)
                    meaning = "co-first" if role == "is_equal_contribution" else "corresponding"
                    record.readings.append(f"“{marker}” by {author.family} read as {meaning}")
                else:
                    record.readings.append(
                        f"“{marker}” by {author.family} removed: it is not one of the lab's "
                        "markers (Lab settings), so it gives no role"
                    )
            record.authors.append(author)

    def _author(self, name: str) -> AuthorRecord:
        known = self.latex.names.get(name)
        if known is not None:
            return AuthorRecord(given=known[0], family=known[1], suffix=known[2])
        given, family, suffix = _name_parts(name)
        try:
            decode: Callable[[str], str] = self.latex.decode
            known = self.latex.names[name] = (
                squash(decode(given)),
                squash(decode(family)),
                squash(decode(suffix)),
            )
            return AuthorRecord(given=known[0], family=known[1], suffix=known[2])
        except ValueError:
            self.record.problems.append("the LaTeX in its author names cannot be read")
            return AuthorRecord(family=squash(name))

    def _kept_and_dropped(self) -> None:
        """Every field not read above: left out with its reason, or kept with the paper."""
        record = self.record
        for name, raw in self.fields.items():
            value = raw.strip()
            if name in fields_of.DROPPED and value:
                record.dropped.append(f"{name}: {fields_of.DROPPED[name]}")
            elif name in fields_of.BADGES and value.casefold() in fields_of.TRUE | {"false"}:
                record.dropped.append(f"{name}: al-folio's switch for its badge")
            elif name not in _READ and value:
                record.source_fields[name] = self.text(name, one_line=False) or squash(value)
