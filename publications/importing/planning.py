"""Planning an import: what applying each record would do, decided by one merge rule.

`FIELD_RULES` declares which publication fields a source owns and how each merges, and
`MODES` the ways a caller may ask for it (an import, one taking the source's values, a
harvest filling gaps, a published version joining its preprint); `merge` applies them to a
copy of the stored publication while planning and `apply` saves that very copy, so the
changes a preview lists are exactly what is written. Callers choose a mode; none edits a
plan afterwards.
"""

import copy
import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Model, QuerySet

from core.partial_dates import PartialDate
from core.weblinks import is_web_url
from people.models import normalize_name
from publications.importing.bibtex_fields import is_doi_link
from publications.importing.matching import PeopleIndex, VenueIndex, WorkIndex, record_keys
from publications.importing.records import (
    AuthorRecord,
    Record,
    preprint_server,
    stated_status,
)
from publications.models import Authorship, Publication, Venue

NEW, UPDATE, UNCHANGED, ERROR = "new", "update", "unchanged", "error"
ACTIONS = (NEW, UPDATE, UNCHANGED, ERROR)

OVERWRITE, FILL = "overwrite", "fill"
# The fields a source owns, and how its value merges into a stored publication:
# - a value the source lacks never clears the stored one (for every field);
# - OVERWRITE: the source's value replaces the stored one, unless an admin has changed the
#   field since it was last imported (or typed it before any import): then the admin's value
#   is kept and the preview says so, unless the admin chooses to take the source's values;
# - FILL: the source's value only fills an empty field.
# The citation count, its date and its source merge as one, led by the count.
FIELD_RULES = {
    "title": OVERWRITE,
    "kind": OVERWRITE,
    "status": OVERWRITE,
    "date": OVERWRITE,
    "volume": OVERWRITE,
    "issue": OVERWRITE,
    "pages": OVERWRITE,
    "publisher": OVERWRITE,
    "abstract": OVERWRITE,
    "container_title": OVERWRITE,
    "series": OVERWRITE,
    "address": OVERWRITE,
    "issn": OVERWRITE,
    "note": OVERWRITE,
    "source_fields": OVERWRITE,
    "citation_count": OVERWRITE,
    "doi": FILL,
    "arxiv_id": FILL,
    "pdf_url": FILL,
    "url": FILL,
    "code_url": FILL,
    "slides_url": FILL,
    "video_url": FILL,
    "project_url": FILL,
    "poster_url": FILL,
    "supplement_url": FILL,
    "blog_url": FILL,
    "dataset_url": FILL,
    "other_url": FILL,
    "award": FILL,
    "is_selected": FILL,
    "patent_number": FILL,
    "patent_jurisdiction": FILL,
    "bibtex_key": FILL,
}
GROUPS = {
    "citation_count": ("citation_count", "citations_read_on", "citations_source"),
    "other_url": ("other_url", "other_label"),
}

# The ways a record merges into a stored publication, each by FIELD_RULES:
# - IMPORT: the rules as they stand (an admin's edit is kept and the preview says so);
# - TAKE_SOURCE: the same, but the source's values replace an admin's edits, and a source
#   naming fewer authors replaces the stored list;
# - GAPS: of what IMPORT would change, only what fills an empty field of the paper (its
#   author list when it has none): a harvested work never overwrites what the lab holds;
# - OF_RECORD: the published version of a paper the lab holds as a preprint makes it the
#   version of record: it takes the VERSION_FIELDS and the venue and DOI even where an admin
#   typed them (the preprint server's DOI is kept as "preprint_doi"), keeps its arXiv id and,
#   for what the versions share (title, abstract, links, authors), follows IMPORT.
IMPORT, TAKE_SOURCE, GAPS, OF_RECORD = "import", "take source", "gaps", "of record"
MODES = (IMPORT, TAKE_SOURCE, GAPS, OF_RECORD)
# What tells one version of a work from another: in OF_RECORD the published version's
# values replace the preprint's, even where an admin typed them.
VERSION_FIELDS = frozenset(
    {
        "kind",
        "status",
        "date",
        "volume",
        "issue",
        "pages",
        "publisher",
        "container_title",
        "series",
        "address",
        "issn",
    }
)
_FIELD_NAMES = [f.name for f in Publication._meta.concrete_fields]
# An author row's values from a source; the others (the paper, the person, the position and
# the roles) are set by the import itself or by an admin.
_AUTHOR_SET_BY_SOURCE = (
    "given_name",
    "family_name",
    "suffix",
    "orcid",
    "affiliation",
    "is_unlisted",
)
_AUTHORSHIP_COLUMNS = [(f.attname, f.get_default()) for f in Authorship._meta.concrete_fields]
_AUTHOR_SET_BY_ADMIN = [
    f.name for f in Authorship._meta.concrete_fields if f.name not in _AUTHOR_SET_BY_SOURCE
]


@dataclass(frozen=True)
class Plan:
    """What applying one record does, as planning decided it in its mode: built once, never
    edited, and holding nothing but its declared fields (a caller that wants another
    outcome asks for another mode)."""

    record: Record
    action: str
    publication: Publication | None = None  # the existing work it updates, if any
    changes: list = field(default_factory=list)  # fields that applying changes
    candidate: Publication | None = None  # the work as applying leaves it (unsaved)
    kept: list = field(default_factory=list)  # fields where an admin's value is kept
    mode: str = IMPORT  # the merge mode it was planned in (MODES)

    def written(self) -> Publication:
        """The publication applying this plan writes: NEW and UPDATE plans have one."""
        if self.candidate is None:
            raise ValueError(f"{self.record.label}: an {self.action} plan writes nothing")
        return self.candidate

    @property
    def problems(self) -> list[str]:
        return self.record.problems

    @property
    def matched(self) -> list[AuthorRecord]:
        return [a for a in self.record.authors if a.person]

    @property
    def ambiguous(self) -> list[AuthorRecord]:
        return [a for a in self.record.authors if a.is_ambiguous]

    @property
    def new_venue(self) -> Venue | None:
        """The venue applying creates (none of the lab's matched), for the preview to flag."""
        venue = self.candidate.venue if self.candidate and self.candidate.venue_id is None else None
        return venue if venue is not None and venue.pk is None else None


def plan(
    records: list[Record],
    progress: Callable[[int, int], None] | None = None,
    editable: QuerySet[Publication] | None = None,
    take_source: bool | set[int] = False,
) -> list[Plan]:
    """Match every record against the lab and say what applying it would do. No writes.

    Every value is checked against the model's rules (types, lengths, constraints) here, so
    a plan without problems is one `apply` writes as announced. `editable`, when given, is a
    queryset of the publications the importing user may change (a member: the papers they
    author); a record matching any other publication is a problem, never an update.
    `take_source` (True, or a set of record positions) plans those records in TAKE_SOURCE
    mode, overwriting values an admin edited; the others are planned in IMPORT mode.

    A handful of queries however many records: people, venues, and the works the records
    could be (by indexed DOI, arXiv id and title key, with their authors)."""
    people = PeopleIndex()
    works = WorkIndex(records)
    venues = VenueIndex()
    allowed = None if editable is None else set(editable.values_list("pk", flat=True))
    plans = []
    seen: dict[tuple[object, ...], str] = {}
    for number, record in enumerate(records, start=1):
        if progress:
            progress(number, len(records))
        take = take_source is True or (isinstance(take_source, set) and number - 1 in take_source)
        mode = TAKE_SOURCE if take else IMPORT
        if record.problems:
            plans.append(Plan(record, ERROR, mode=mode))
            continue
        key = record_keys(record)[0]
        if key in seen:
            record.problems.append(f"the same work as {seen[key]} earlier in this import")
            plans.append(Plan(record, ERROR, mode=mode))
            continue
        seen[key] = record.label
        people.match(record)
        existing = works.find(record)
        if existing is not None and allowed is not None and existing.pk not in allowed:
            record.problems.append(
                f"it is “{existing.display_title}”, a paper you are not an author of; "
                "ask a lab admin to update it"
            )
            plans.append(Plan(record, ERROR, existing, mode=mode))
            continue
        plans.append(_plan_one(existing, record, venues, mode))
    return plans


def plan_into(
    publication: Publication,
    record: Record,
    people: PeopleIndex | None = None,
    venues: VenueIndex | None = None,
    mode: str = IMPORT,
) -> Plan:
    """What merging `record` into the chosen `publication` would do (a harvested work that
    is this paper, or one an admin merges into it), by the same rules as `plan`, in `mode`
    (one of MODES). No writes."""
    if mode not in MODES:
        raise ValueError(f"unknown merge mode {mode!r}; one of {', '.join(MODES)}")
    (people or PeopleIndex()).match(record)
    return _plan_one(publication, record, venues or VenueIndex(), mode)


def _plan_one(existing: Publication | None, record: Record, venues: VenueIndex, mode: str) -> Plan:
    """The plan for one record in `mode`: merged by FIELD_RULES (taking the source's values
    in TAKE_SOURCE and OF_RECORD) and checked whole, then narrowed by the mode's own step
    (`_gaps`, `_of_record`) before the Plan is built."""
    base, edited = existing, []
    if mode == OF_RECORD and existing is not None:
        edited = merge(copy.copy(existing), record)[1]  # what IMPORT would keep as an admin's
        base = _without_version(existing)
    take_source = mode in (TAKE_SOURCE, OF_RECORD)
    publication, changes, kept = _merged(base, record, venues, take_source)
    if record.problems:
        return Plan(record, ERROR, existing, mode=mode)
    if existing is None:
        return Plan(record, NEW, None, changes, publication, kept, mode)
    if mode == GAPS:
        changes = _gaps(existing, publication, changes)
    elif mode == OF_RECORD:
        changes = _of_record(existing, record, publication, changes, edited)
    action = UPDATE if changes else UNCHANGED
    return Plan(record, action, existing, changes, publication, kept, mode)


def _merged(
    existing: Publication | None, record: Record, venues: VenueIndex, take_source: bool
) -> tuple[Publication, list[str], list[str]]:
    """The publication as the record merged into `existing` (a copy, or a new unsaved one)
    leaves it, with the fields it changes and those where an admin's value is kept. Adds
    what the model's rules say is wrong to the record's problems."""
    if existing is not None:
        publication = copy.copy(existing)
    else:  # a new work whose source does not say its kind is "other", not the form's default
        publication = Publication(kind=Publication.Kind.OTHER)
    changes, kept = merge(publication, record, take_source=take_source)
    if publication.venue_id is None and publication.venue is None:
        venue = venues.find(record)
        if venue is not None:
            publication.venue = venue
            changes.append("venue")
            if venue.pk is None:
                record.problems += _invalid(venue, "new venue: ", exclude=["short_name"])
    # Each value the source brings is checked by its field; the stored ones were checked
    # when they came in. The venue was chosen above and the DOI matched against every
    # work, so no check needs a query; the rules across fields run on the whole paper.
    untouched = [n for n in _FIELD_NAMES if n not in changes or n == "venue"]
    record.problems += _invalid(publication, exclude=untouched, check=publication.check_rules)
    for position, author in enumerate(record.authors, 1):
        record.problems += [f"author {position}: {p}" for p in author_problems(author)]
    if existing is not None and _rows(existing.authorships.all()) != _rows(
        row for row, _ in merge_authors(existing.authorships.all(), record.authors)[0]
    ):
        # A source naming fewer authors than are stored lacks some: like any value a source
        # lacks, they are not removed, unless the admin takes the source's list.
        named = sum(not a.is_unlisted for a in existing.authorships.all())
        if sum(not a.is_unlisted for a in record.authors) < named and not take_source:
            kept.append("authors")
        else:
            changes.append("authors")
    return publication, changes, kept


def _gaps(paper: Publication, written: Publication, changes: list[str]) -> list[str]:
    """GAPS: of the `changes` merging made, those filling an empty field of `paper` (its
    author list when it has none); any other field keeps the paper's value in `written`."""
    filled = []
    for name in changes:
        if name == "authors":
            if not paper.authorships.all():
                filled.append(name)
            continue
        stored = getattr(paper, name, None) if name != "venue" else paper.venue_id
        if stored in (None, "", {}, [], False):
            filled.append(name)
        elif name != "venue":
            setattr(written, name, stored)
    return filled


def _without_version(preprint: Publication) -> Publication:
    """OF_RECORD: a copy of the lab's preprint without what the published version replaces:
    its DOI, and its venue when that is a preprint server."""
    base = copy.copy(preprint)
    venue = base.venue if base.venue_id is not None else None
    if venue is not None and venue.kind == Venue.Kind.PREPRINT:
        base.venue = None  # the journal or proceedings takes the preprint server's place
    base.doi = ""
    return base


def _of_record(
    preprint: Publication,
    record: Record,
    written: Publication,
    changes: list[str],
    edited: list[str],
) -> list[str]:
    """OF_RECORD: the changes the published version brings to the lab's `preprint`, merged
    taking the source (`written`, from `_without_version`), brought back to the import's
    rules where the versions agree: a field an admin `edited` outside VERSION_FIELDS keeps
    their value; the venue and DOI stay the preprint's unless the version has its own (the
    preprint's DOI is then kept as "preprint_doi"); a source naming fewer authors lacks
    some, so the stored list stays."""
    changes = list(changes)
    for name in edited:
        if name in VERSION_FIELDS or name == "doi":
            continue
        for member in GROUPS.get(name, (name,)):
            setattr(written, member, getattr(preprint, member))
            if member in changes:
                changes.remove(member)
    if "venue" not in changes:
        written.venue = preprint.venue
    if "doi" not in changes:
        written.doi = preprint.doi
    elif preprint.doi == written.doi:
        changes.remove("doi")
    elif preprint.doi:
        written.source_fields = {**(written.source_fields or {}), "preprint_doi": preprint.doi}
        if "source_fields" not in changes:
            changes.append("source_fields")
    named = sum(not a.is_unlisted for a in preprint.authorships.all())
    if "authors" in changes and sum(not a.is_unlisted for a in record.authors) < named:
        changes.remove("authors")
    return changes


_DERIVED = ("container_title", "issn", "bibtex_key", "pdf_url", "url")


def source_values(record: Record) -> dict[str, Any]:
    """The record's value for every field in FIELD_RULES and their groups."""
    values = {name: getattr(record, name) for name in FIELD_RULES if name not in _DERIVED}
    for members in GROUPS.values():
        values.update({member: getattr(record, member) for member in members})
    # A preprint server is the venue; only a proceedings or journal has a title of its own.
    values["container_title"] = record.venue_name if record.venue_name != "arXiv" else ""
    values["issn"] = ", ".join(record.issns)
    is_pdf = record.url.lower().endswith(".pdf") and is_web_url(record.url)
    values["pdf_url"] = record.pdf_url or (record.url if is_pdf else "")
    page = "" if is_pdf or is_doi_link(record.url) else record.url
    values["url"] = page if is_web_url(page) else ""
    values["bibtex_key"] = record.citation_key if _valid_key(record.citation_key) else ""
    return values


def merge(
    publication: Publication, record: Record, *, take_source: bool = False
) -> tuple[list[str], list[str]]:
    """Merge the record into `publication` by FIELD_RULES. Returns (changed, kept): the
    fields whose value changed, and those whose differing source value was not taken
    because an admin edited them. Remembers what it took in `publication.imported_values`,
    so a later import can tell the admin's edits from its own values."""
    values = source_values(record)
    imported = dict(publication.imported_values or {})
    changed, kept = [], []
    for name, rule in FIELD_RULES.items():
        value = values[name]
        if _lacks(value):
            continue  # a value the source lacks never clears one
        stored = _comparable(getattr(publication, name))
        incoming = _comparable(value)
        if stored == incoming or (name == "date" and _coarser(incoming, stored)):
            continue  # the same, or the same date told less precisely
        if publication._state.adding:
            edited = False  # a new work: the model's defaults are nobody's edits
        elif name in imported:
            edited = stored != imported[name]
        else:
            edited = not _lacks(stored)  # typed before any import
        if rule == FILL and not _lacks(stored):
            edited, take = True, False  # an identifier or link is never replaced
        else:
            take = take_source
        if edited and not take:
            kept.append(name)
            continue
        for member in GROUPS.get(name, (name,)):
            if _comparable(getattr(publication, member)) != _comparable(values[member]):
                setattr(publication, member, values[member])
                changed.append(member)
            imported[member] = _comparable(values[member])
    publication.imported_values = imported
    return changed, kept


def _lacks(value: object) -> bool:
    """Whether a value says nothing: empty, or an unticked box ("selected" only fills)."""
    return value is None or value is False or value == "" or value == {}


def _comparable(value: object) -> object:
    if isinstance(value, PartialDate):
        return value.isoformat()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def _coarser(incoming: object, stored: object) -> bool:
    """ "2026" is a coarser telling of "2026-08": it must not replace it."""
    return isinstance(stored, str) and bool(incoming) and stored.startswith(f"{incoming}-")


def _valid_key(key: str) -> bool:
    try:
        Publication._meta.get_field("bibtex_key").run_validators(key)
    except ValidationError:
        return False
    return bool(key) and len(key) <= 100


def _invalid(
    instance: Model,
    prefix: str = "",
    exclude: Sequence[str] = (),
    check: Callable[[], None] | None = None,
) -> list[str]:
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


def author_problems(author: AuthorRecord) -> list[str]:
    """What the model's rules say is wrong with the values an author row takes from the
    source; each distinct author is checked once (a lab's names recur on most entries)."""
    values = (
        author.given,
        author.family,
        author.suffix,
        author.orcid,
        author.affiliation,
        author.is_unlisted,
    )
    return list(_author_problems(values))


@functools.lru_cache(maxsize=20_000)
def _author_problems(values: tuple[Any, ...]) -> list[str]:
    row = Authorship(**dict(zip(_AUTHOR_SET_BY_SOURCE, values, strict=True)))
    return _invalid(row, exclude=_AUTHOR_SET_BY_ADMIN)


def _field_label(instance: Model, name: str) -> str:
    try:
        return str(getattr(instance._meta.get_field(name), "verbose_name", name))
    except Exception:
        return name


def merge_authors(
    rows: Iterable[Authorship], authors: list[AuthorRecord]
) -> tuple[list[tuple[Authorship, AuthorRecord]], list[Authorship]]:
    """The stored author `rows` brought in line with the source's `authors`, without
    writing: ([(row, author)] in the source's order, [rows to delete]). A row is a stored
    row updated in memory (it keeps the person link and role flags an admin set, and its
    ORCID and affiliation where the source has none) or a new unsaved one."""
    existing = list(rows)
    merged = []
    for position, author in enumerate(authors, start=1):
        row = _matching_authorship(existing, author, position)
        if row is None:
            merged.append((authorship(None, position, author), author))
            continue
        existing.remove(row)
        row = copy.copy(row)
        row.position = position
        row.given_name, row.family_name = author.given, author.family
        row.suffix = author.suffix or row.suffix
        row.orcid = author.orcid or row.orcid
        row.author_ids = {**(row.author_ids or {}), **author.ids}  # every id kept
        row.affiliation = author.affiliation or row.affiliation
        row.is_unlisted = author.is_unlisted
        # A role the source marks is added; one an admin gave is never taken away.
        row.is_equal_contribution = row.is_equal_contribution or author.is_equal_contribution
        row.is_corresponding = row.is_corresponding or author.is_corresponding
        if row.person_id is None and author.person is not None:
            row.person = author.person
        merged.append((row, author))
    return merged, existing


def _rows(rows: Iterable[Authorship]) -> list[tuple[object, ...]]:
    return [
        (
            r.position,
            r.given_name,
            r.family_name,
            r.suffix,
            r.orcid,
            sorted((r.author_ids or {}).items()),
            r.affiliation,
            r.is_unlisted,
            r.person_id,
            r.is_equal_contribution,
            r.is_corresponding,
        )
        for r in rows
    ]


def _matching_authorship(
    existing: list[Authorship], author: AuthorRecord, position: int
) -> Authorship | None:
    if author.is_unlisted:
        return next((a for a in existing if a.is_unlisted and a.position == position), None)
    if author.orcid:
        hit = next((a for a in existing if a.orcid == author.orcid), None)
        if hit:
            return hit
    for kind, value in author.ids.items():
        hit = next((a for a in existing if (a.author_ids or {}).get(kind) == value), None)
        if hit:
            return hit
    name = normalize_name(f"{author.given} {author.family}")
    same_name = [a for a in existing if normalize_name(a.full_name) == name]
    if len(same_name) == 1:
        return same_name[0]
    return next((a for a in same_name if a.position == position), None)


def authorship(publication: Publication | None, position: int, author: AuthorRecord) -> Authorship:
    """An unsaved author row of `publication` (saved, or None) from the source's `author`."""
    values = {
        "publication_id": publication.pk if publication is not None else None,
        "position": position,
        "given_name": author.given,
        "family_name": author.family,
        "suffix": author.suffix,
        "orcid": author.orcid,
        "author_ids": dict(author.ids),
        "affiliation": author.affiliation,
        "person_id": author.person.pk if author.person is not None else None,
        "is_unlisted": author.is_unlisted,
        "is_equal_contribution": author.is_equal_contribution and not author.is_unlisted,
        "is_corresponding": author.is_corresponding and not author.is_unlisted,
    }
    # Built from every column's value in order, as Django builds rows it reads: an import
    # builds thousands, and this is twice as fast as keyword arguments.
    columns = [values.get(name, default) for name, default in _AUTHORSHIP_COLUMNS]
    return Authorship(*columns)  # type: ignore[misc]  # django-stubs types keywords only


def combined_authors(lists: Sequence[list[AuthorRecord]]) -> list[AuthorRecord]:
    """One author list from several sources' lists of one work, most trusted first: the
    first complete list (no unlisted gap) gives the names and their order, and each of its
    authors takes what the other lists say of the same author (`_same_author`): the ORCID,
    every id at another service, the suffix, an affiliation, the roles. An identifier any
    source gave is never dropped (a member's ORCID given by OpenAlex alone stays on them
    when Crossref's list wins). Unsaved copies; the lists are not changed."""
    lists = [authors for authors in lists if authors]
    if not lists:
        return []
    complete = [authors for authors in lists if not any(a.is_unlisted for a in authors)]
    base = complete[0] if complete else lists[0]
    merged = copy.deepcopy(base)
    for other in lists:
        if other is base:
            continue
        taken: set[int] = set()
        for position, author in enumerate(other):
            if author.is_unlisted:
                continue
            same = _same_author(merged, author, position, len(other), taken)
            if same is None:
                continue
            taken.add(id(same))
            same.orcid = same.orcid or author.orcid
            same.ids = {**author.ids, **same.ids}
            same.suffix = same.suffix or author.suffix
            same.affiliation = same.affiliation or author.affiliation
            same.is_corresponding = same.is_corresponding or author.is_corresponding
            same.is_equal_contribution = same.is_equal_contribution or author.is_equal_contribution
    return merged


def _plain_name(text: str) -> str:
    """A name part compared without case, accents, dots, hyphens or spaces."""
    return "".join(normalize_name(text).replace("-", " ").split())


def _conflicts(one: AuthorRecord, other: AuthorRecord) -> bool:
    """Whether two authors' identifiers say they are different people."""
    if one.orcid and other.orcid and one.orcid != other.orcid:
        return True
    return any(one.ids.get(kind, value) != value for kind, value in other.ids.items())


def _same_author(
    authors: list[AuthorRecord],
    author: AuthorRecord,
    position: int,
    length: int,
    taken: set[int],
) -> AuthorRecord | None:
    """The author of `authors` that `author` (at `position` of a list of `length`) is: the
    one with the same ORCID or id; else the one whose family name and first initial agree
    (at the same place when several do); else, in a list as long, the author at the same
    place whose family name or given name starts alike (a name spelled another way, "José
    Pérez-García" for "Jose Perez"). None when nothing says so, or identifiers disagree."""
    free = [a for a in authors if not a.is_unlisted and id(a) not in taken]
    for one in free:
        if (author.orcid and one.orcid == author.orcid) or any(
            one.ids.get(kind) == value for kind, value in author.ids.items()
        ):
            return one
    free = [a for a in free if not _conflicts(a, author)]
    family, given = _plain_name(author.family), _plain_name(author.given)
    named = [
        a
        for a in free
        if family
        and _plain_name(a.family) == family
        and (not given or not a.given or _plain_name(a.given)[:1] == given[:1])
    ]
    if len(named) == 1:
        return named[0]
    at_place = authors[position] if position < len(authors) else None
    if named:
        return at_place if any(a is at_place for a in named) else None
    if at_place is None or length != len(authors) or not any(a is at_place for a in free):
        return None
    starts = {_plain_name(at_place.family)[:1], _plain_name(at_place.given)[:1]} - {""}
    return at_place if starts & ({family[:1], given[:1]} - {""}) else None


# What a venue's name says a work in it is, checked in this order.
_VENUE_WORDS = (
    (re.compile(r"\bworkshops?\b", re.I), Publication.Kind.WORKSHOP),
    (re.compile(r"\blecture notes\b", re.I), Publication.Kind.CHAPTER),
    (
        re.compile(r"\b(?:proceedings|conference|symposium|colloquium)\b", re.I),
        Publication.Kind.CONFERENCE,
    ),
)
# DOI prefixes only preprint servers register under (bioRxiv and medRxiv, arXiv, Research
# Square, Preprints.org, OSF's servers, SSRN, PeerJ Preprints, ChemRxiv, TechRxiv).
PREPRINT_PREFIXES = (
    "10.1101/", "10.48550/", "10.21203/", "10.20944/", "10.31219/", "10.31234/", "10.31235/",
    "10.31222/", "10.2139/", "10.7287/", "10.26434/", "10.36227/",
)  # fmt: skip
# Kinds a venue's words may correct: what a source says when it does not know better (an
# LNCS chapter ORCID types "book", a proceedings paper typed "other").
_CORRECTABLE = {"", Publication.Kind.BOOK, Publication.Kind.OTHER}


def settle_kind(record: Record, stated: Sequence[tuple[str, str]], registered: str = "") -> None:
    """The kind of a work several sources describe, checked against the evidence: the type
    its DOI is registered with (`registered`, from the registration agency's own record)
    wins; else a kind a source gives that its venue's words contradict ("book" in "Lecture
    Notes in Computer Science", "other" in "Proceedings of …") takes the venue's. `stated`
    is [(source, kind)]; when they disagree, or the venue corrects them, the record's
    readings say so, for the review."""
    kinds = {kind for _, kind in stated if kind}
    before = record.kind
    label = {k: str(Publication.Kind(k).label) for k in Publication.Kind.values}
    said = ", ".join(f"{source}: “{label.get(kind, kind)}”" for source, kind in stated if kind)
    if registered:
        if record.kind != registered:
            record.kind = registered
        if len(kinds) > 1:
            record.readings.append(
                f"The sources disagree on its kind ({said}); its DOI is registered as "
                f"“{label.get(registered, registered)}”, which is taken."
            )
    elif record.kind in _CORRECTABLE and record.doi.startswith(PREPRINT_PREFIXES):
        record.readings.append(
            f"Typed “{label.get(record.kind, record.kind or 'none')}”, but its DOI is a "
            "preprint server's: read as a preprint."
        )
        record.kind = Publication.Kind.PREPRINT
    elif record.kind in _CORRECTABLE and record.venue_name:
        venue_kind = next((k for words, k in _VENUE_WORDS if words.search(record.venue_name)), "")
        if venue_kind and venue_kind != record.kind:
            record.readings.append(
                f"Typed “{label.get(record.kind, record.kind or 'none')}”"
                f"{f' ({said})' if said else ''}, but its venue “{record.venue_name}” is "
                f"one of {label[venue_kind].lower()}s: read as “{label[venue_kind]}”."
            )
            record.kind = venue_kind
    elif len(kinds) > 1:
        record.readings.append(
            f"The sources disagree on its kind ({said}); “{label.get(record.kind, '')}” is "
            "taken, from the first source that describes it."
        )
    if record.kind != before:
        record.status = stated_status(record.kind)
        if record.kind == Publication.Kind.PREPRINT:
            record.venue_name = preprint_server(record.venue_name, record.arxiv_id)
