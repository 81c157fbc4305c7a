"""Folding harvested works into the lab's record: each work is one of the lab's papers (it
then only fills what the paper lacks), or one candidate, however many sources name it.

A work is known by its identifiers, strongest first: DOI, arXiv id, DBLP key, OpenAlex id,
then its normalized title with its year (and whether it is a preprint, so a preprint and its
published version stay two works, linked). Two works sharing any identifier are one work;
every identifier a candidate was ever found under is stored (`WorkId`), so a rejected work
never returns from any source, and a member's "not me" holds for every source.
"""

import copy
import dataclasses
import itertools
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from django.db import transaction
from django.db.models import Prefetch, Q
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from harvest.models import Candidate, Provenance, Source, WorkId
from harvest.sources import Found
from people.models import Person
from publications.importing import planning
from publications.importing.applying import apply
from publications.importing.matching import PeopleIndex, VenueIndex
from publications.importing.records import Record
from publications.models import Authorship, Publication, title_key

Key = tuple[str, str]
# Whose description of a work wins where sources differ: the registry's own record first.
PRIORITY: list[str] = [
    Source.CROSSREF,
    Source.DATACITE,
    Source.OPENALEX,
    Source.EUROPEPMC,
    Source.SEMANTIC_SCHOLAR,
    Source.DBLP,
    Source.ARXIV,
    Source.ORCID,
]
_CHUNK = 500
_LINK_CHUNK = 100  # preprints whose other versions one query looks up
_NOT_MERGED = {
    "label",
    "problems",
    "readings",
    "dropped",
    "files",
    "choices",
    "authors",
    "origins",
}
# What merging reads of each record: names looked up once, not once a record
_MERGED_FIELDS = tuple(f.name for f in dataclasses.fields(Record) if f.name not in _NOT_MERGED)
_SOURCE_NAMES = dict(Source.choices)


def is_preprint(record: Record) -> bool:
    return record.status == Publication.Status.PREPRINT or record.kind == Publication.Kind.PREPRINT


def title_id(record: Record) -> str:
    """ "kvcachecentricserving|2024" ("|preprint" added for a preprint)."""
    key = title_key(record.title)
    if not key:
        return ""
    year = record.date.year if record.date else ""
    return f"{key}|{year}|preprint" if is_preprint(record) else f"{key}|{year}"


def keys_of(found: Found) -> list[Key]:
    keys = [(kind, value) for kind, value in found.ids.items() if value]
    if tid := title_id(found.record):
        keys.append((WorkId.Kind.TITLE, tid))
    return keys


def merged_record(works: Iterable[Found]) -> Record:
    """One record from every source's: the first source by PRIORITY gives each value, the
    others fill what it lacks; the author list is the first complete one, each author
    keeping every identifier any source gave (`planning.combined_authors`)."""
    ordered = sorted(works, key=lambda f: PRIORITY.index(f.source))
    record = _copy_without_authors(ordered[0].record)
    origins = {
        name: origin(ordered[0])
        for name in _MERGED_FIELDS
        if getattr(record, name) not in (None, "", [], {})
    }
    for other in ordered[1:]:
        for name in _MERGED_FIELDS:
            if getattr(record, name) in (None, "", [], {}) and getattr(other.record, name):
                setattr(record, name, copy.deepcopy(getattr(other.record, name)))
                origins[name] = origin(other)
    registered = next(
        (
            f.record.kind
            for f in ordered
            if f.source in (Source.CROSSREF, Source.DATACITE) and f.record.doi
        ),
        "",
    )
    planning.settle_kind(
        record, [(_SOURCE_NAMES[f.source], f.record.kind) for f in ordered], registered
    )
    if record.kind != ordered[0].record.kind:
        origins["kind"] = "the evidence"
    lists = [f.record.authors for f in ordered]
    record.authors = planning.combined_authors(lists)
    complete = [f for f in ordered if not any(a.is_unlisted for a in f.record.authors)]
    origins["authors"] = origin(complete[0] if complete else ordered[0])
    for name in ("citation_count", "citations_read_on", "citations_source"):
        origins.pop(name, None)
    record.origins = origins
    record.citation_count, record.citations_read_on, record.citations_source = None, None, ""
    return record


def _copy_without_authors(record: Record) -> Record:
    """A copy of `record` to merge into, but for its authors (the merged list, copies of
    its own, replaces them): its lists and dicts copied deep, its other values shared (text,
    numbers, dates and partial dates do not change in place). Deep-copying the whole record
    was most of a run's copying."""
    copied = copy.copy(record)
    for name, value in vars(record).items():
        if isinstance(value, list | dict) and value:
            setattr(copied, name, copy.deepcopy(value))
        elif isinstance(value, list | dict):
            setattr(copied, name, type(value)())
    copied.authors = []
    return copied


def origin(found: Found) -> str:
    """Where a value came from, as the review says it: "crossref", or "crossref (by DOI)"
    for a record asked for by DOI to complete another source's."""
    return f"{found.source} (by DOI)" if found.by_doi else found.source


@dataclass
class Outcome:
    """What folding a run's works did, per source and in all."""

    new: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    matched: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    works: int = 0  # distinct new works: the candidates made (or a dry run would make)
    # new works of a kind the lab does not harvest, by kind: counted, never candidates
    left_out: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    filled: list[tuple[Publication, list[str]]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    created: list[int] = field(default_factory=list)  # the new candidates' pks


class LabPapers:
    """The lab's papers the works could be: by DOI or arXiv id, else by title (both
    preprints or neither, years at most one apart) and a family name in common."""

    def __init__(self, works: list[Found]) -> None:
        dois = {f.ids["doi"] for f in works if f.ids.get("doi")}
        dois |= {f.published_doi for f in works if f.published_doi}
        dois |= {f.preprint_doi for f in works if f.preprint_doi}
        arxiv = {f.ids["arxiv"] for f in works if f.ids.get("arxiv")}
        titles = {title_key(f.record.title) for f in works} - {""}
        query = Q()
        for column, values in (("doi", dois), ("arxiv_id", arxiv), ("title_key", titles)):
            for start in range(0, len(values), _CHUNK):
                query |= Q(**{f"{column}__in": sorted(values)[start : start + _CHUNK]})
        self.by_doi: dict[str, Publication] = {}
        self.by_arxiv: dict[str, Publication] = {}
        self.by_title: dict[str, list[Publication]] = defaultdict(list)
        if not query:
            return
        authors = Prefetch("authorships", queryset=Authorship.objects.order_by("position"))
        for paper in Publication.objects.filter(query).prefetch_related(authors).order_by("pk"):
            if paper.doi:
                self.by_doi.setdefault(paper.doi, paper)
            if paper.arxiv_id:
                self.by_arxiv.setdefault(paper.arxiv_id, paper)
            self.by_title[paper.title_key].append(paper)

    def find(self, found: Found) -> Publication | None:
        """The lab's paper the work is, by an identifier both hold (DOI, arXiv id)."""
        if found.ids.get("doi") in self.by_doi:
            return self.by_doi[found.ids["doi"]]
        if found.ids.get("arxiv") in self.by_arxiv:
            return self.by_arxiv[found.ids["arxiv"]]
        return None

    def by_title_alone(self, found: Found) -> Publication | None:
        """The lab's paper the work may be, by title alone (same version, years at most one
        apart, a family name in common): not the same work by any identifier, so nothing
        of it is filled in without review. None when an identifier says it is another work
        (its DOI is not the paper's)."""
        record = found.record
        families = {a.family.casefold() for a in record.authors if a.family}
        for paper in self.by_title.get(title_key(record.title), []):
            # a preprint of a paper the lab holds is another version, not the paper
            same_version = is_preprint(record) == (paper.status == Publication.Status.PREPRINT)
            near = same_version and (
                record.date is None or paper.year is None or abs(paper.year - record.date.year) <= 1
            )
            theirs = {a.family_name.casefold() for a in paper.authorships.all() if a.family_name}
            other_doi = bool(paper.doi and found.ids.get("doi") and paper.doi != found.ids["doi"])
            if near and not other_doi and (not families or not theirs or families & theirs):
                return paper
        return None

    def preprint_version(self, record: Record) -> Publication | None:
        """The lab's paper that is a preprint of a published work: the same title."""
        key = title_key(record.title)
        return next(
            (p for p in self.by_title.get(key, []) if p.status == Publication.Status.PREPRINT),
            None,
        )

    def published_version(self, record: Record, published_doi: str) -> Publication | None:
        """The lab's paper that is the published version of a preprint."""
        if published_doi in self.by_doi:
            return self.by_doi[published_doi]
        for paper in self.by_title.get(title_key(record.title), []):
            if paper.status != Publication.Status.PREPRINT:
                return paper
        return None


def _groups(works: list[Found]) -> list[list[int]]:
    """The works that share an identifier, as lists of positions (union-find)."""
    parent = list(range(len(works)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[Key, int] = {}
    for position, found in enumerate(works):
        for key in keys_of(found):
            if key in first:
                parent[root(position)] = root(first[key])
            else:
                first[key] = position
    # An undated work is the dated one of the same title (both preprints or neither) with
    # an author's family name in common: one work, not twins.
    dated: dict[tuple[str, bool], list[int]] = defaultdict(list)
    for position, found in enumerate(works):
        if found.record.date is not None and (key := title_key(found.record.title)):
            dated[(key, is_preprint(found.record))].append(position)
    for position, found in enumerate(works):
        if found.record.date is None and (key := title_key(found.record.title)):
            for other in dated.get((key, is_preprint(found.record)), []):
                if _families(found.record) & _families(works[other].record) and not _other_doi(
                    found, works[other].ids.get("doi", "")
                ):
                    parent[root(position)] = root(other)
                    break
    grouped: dict[int, list[int]] = defaultdict(list)
    for position in range(len(works)):
        grouped[root(position)].append(position)
    return list(grouped.values())


def _other_doi(found: Found, doi: str) -> bool:
    """Whether the work's DOI says it is not the one with `doi` (both have one, unlike)."""
    return bool(doi and found.ids.get("doi") and found.ids["doi"] != doi)


def _families(record: Record) -> set[str]:
    return {a.family.casefold() for a in record.authors if a.family}


def _stored_families(candidate: Candidate) -> set[str]:
    authors = candidate.record.get("authors", [])
    return {str(a.get("family", "")).casefold() for a in authors if isinstance(a, dict)} - {""}


def _stored_doi(candidate: Candidate) -> str:
    return str(candidate.record.get("doi") or "")


def _may_be(found: Found, candidate: Candidate) -> bool:
    """Whether the work may be the stored candidate of its title, one of them undated: an
    author's family name in common, and no DOI saying otherwise."""
    return bool(_families(found.record) & _stored_families(candidate)) and not _other_doi(
        found, _stored_doi(candidate)
    )


def _undated_key(found: Found) -> Key | None:
    """The title id an undated twin of this dated work is stored under ("title|")."""
    key = title_key(found.record.title)
    if not key:
        return None
    return (WorkId.Kind.TITLE, f"{key}||preprint" if is_preprint(found.record) else f"{key}|")


def _undated_twins(works: list[Found]) -> dict[str, list[tuple[str, Candidate]]]:
    """{title key: [(stored title id, candidate)]} of the candidates of the undated works'
    titles, dated or not (a query per 100 titles)."""
    keys = sorted({title_key(f.record.title) for f in works} - {""})
    twins: dict[str, list[tuple[str, Candidate]]] = defaultdict(list)
    for start in range(0, len(keys), _LINK_CHUNK):
        query = Q()
        for key in keys[start : start + _LINK_CHUNK]:
            query |= Q(value__startswith=f"{key}|")
        rows = WorkId.objects.filter(query, kind=WorkId.Kind.TITLE).select_related("candidate")
        for row in rows.order_by("pk"):
            twins[row.value.split("|", 1)[0]].append((row.value, row.candidate))
    return twins


def _twin_of(
    members: list[tuple[Person, Found]], twins: dict[str, list[tuple[str, Candidate]]]
) -> Candidate | None:
    """The candidate the group's works are when they or it are undated: the same title,
    both preprints or neither, and an author's family name in common."""
    for _, found in members:
        key = title_key(found.record.title)
        for value, candidate in twins.get(key, []):
            year = value.split("|")[1]
            if (year and found.record.date is not None) or (
                value.endswith("|preprint") != is_preprint(found.record)
            ):
                continue  # both dated: their title ids would have matched already
            if _may_be(found, candidate):
                return candidate
    return None


def _known(keys: set[Key]) -> dict[Key, Candidate]:
    """The candidates already holding any of the keys (a query per 500 keys of a kind)."""
    by_kind: dict[str, list[str]] = defaultdict(list)
    for kind, value in keys:
        by_kind[kind].append(value)
    known: dict[Key, Candidate] = {}
    for kind, values in by_kind.items():
        for start in range(0, len(values), _CHUNK):
            rows = WorkId.objects.filter(kind=kind, value__in=values[start : start + _CHUNK])
            for row in rows.select_related("candidate"):
                known[(row.kind, row.value)] = row.candidate
    return known


def fold(
    pairs: list[tuple[Person, Found]],
    *,
    dry_run: bool = False,
    kinds: Iterable[str] | None = None,
) -> Outcome:
    """Fold the works found for people into the lab: fill the lab's papers, add to known
    candidates, create the new ones. With `dry_run`, count and write nothing. With `kinds`
    (the lab's harvested kinds), a new work whose kind, once the sources' evidence is
    weighed, is another is left out and counted by kind (a work no source gives a kind is
    not: its reviewer decides)."""
    run = _Run(pairs, kinds, dry_run)
    with transaction.atomic():
        if run.to_fill:
            _fill_papers(run.to_fill.values(), run.outcome, dry_run)
        for group in run.groups:
            run.take(group)
        run.writes.flush()
        _link_versions(run.created, run.lab)
        run.outcome.created = [candidate.pk for candidate, _, _ in run.created]
        if dry_run:
            transaction.set_rollback(True)
    return run.outcome


class _Run:
    """One fold's works, sorted before anything is written: those one of the lab's papers
    is (to fill), and the others in groups of one work each, with what is already stored of
    them (the candidates holding their identifiers, their undated twins, who disowned
    which) read in a few queries, not one a group."""

    def __init__(
        self, pairs: list[tuple[Person, Found]], kinds: Iterable[str] | None, dry_run: bool
    ) -> None:
        self.pairs, self.dry_run = pairs, dry_run
        self.wanted = None if kinds is None else set(kinds)
        self.outcome = Outcome()
        self.works = [found for _, found in pairs]
        self.lab = LabPapers(self.works)
        self.to_fill: dict[int, tuple[Publication, list[Found]]] = {}
        self.maybe: dict[int, Publication] = {}  # position → the lab's paper it may be, by title
        rest = self._sort()
        works = self.works
        self.groups = [[rest[i] for i in group] for group in _groups([works[i] for i in rest])]
        self.loose = {i: _undated_key(works[i]) for i in rest if works[i].record.date is not None}
        dated_keys = {key for key in self.loose.values() if key is not None}
        self.known = _known({key for i in rest for key in keys_of(works[i])} | dated_keys)
        self.twins = _undated_twins([works[i] for i in rest if works[i].record.date is None])
        self.disowned = set(
            Candidate.not_people.through.objects.filter(
                candidate__in={c.pk for c in self.known.values()}
            ).values_list("candidate_id", "person_id")
        )
        self.writes = _Writes()
        self.created: list[tuple[Candidate, list[tuple[Person, Found]], Record]] = []

    def _sort(self) -> list[int]:
        """The positions of the works no lab paper is by identifier; the others are counted
        as matched and kept to fill their paper."""
        rest: list[int] = []
        for position, found in enumerate(self.works):
            paper = self.lab.find(found)
            if paper is None:
                rest.append(position)
                if (twin := self.lab.by_title_alone(found)) is not None:
                    self.maybe[position] = twin
                continue
            self.outcome.matched[origin(found)] += 1
            self.to_fill.setdefault(paper.pk, (paper, []))[1].append(found)
        return rest

    def take(self, group: list[int]) -> None:
        """Count a group's works as matched or new (a new one of a kind not wanted left out)
        and, unless a dry run, add them to their candidate, made if new."""
        members = [self.pairs[i] for i in group]
        group_keys = {key for _, found in members for key in keys_of(found)}
        candidate = self._existing(group, members, group_keys)
        if candidate is None:
            record = merged_record(found for _, found in members)
            if self.wanted is not None and record.kind not in self.wanted | {""}:
                self.outcome.left_out[record.kind] += 1
                return
            _count(self.outcome.new, members)
            self.outcome.works += 1
            if self.dry_run:
                return
            candidate = self._new_candidate(group, members, record)
        else:
            _count(self.outcome.matched, members)
            if self.dry_run:
                return
        # a known work keeps its status (a rejected one stays rejected) and gains the
        # identifiers and sources it lacked, and the people who have not disowned it
        claims = [(p, f) for p, f in members if (candidate.pk, p.pk) not in self.disowned]
        self.writes.add(candidate, claims, group_keys)

    def _existing(
        self, group: list[int], members: list[tuple[Person, Found]], group_keys: set[Key]
    ) -> Candidate | None:
        """The stored candidate the group's works are: by an identifier, else (one of them
        undated) by the title and an author in common."""
        known = self.known
        existing = next((known[k] for k in sorted(group_keys) if k in known), None)
        if existing is not None:
            return existing
        return next(
            (
                known[key]
                for i in group
                if (key := self.loose.get(i)) in known and _may_be(self.works[i], known[key])
            ),
            None,
        ) or _twin_of(members, self.twins)

    def _new_candidate(
        self, group: list[int], members: list[tuple[Person, Found]], record: Record
    ) -> Candidate:
        """The group's new candidate, not yet saved: written with the others in
        `writes.flush`. A work the lab may hold by title alone is offered for review as that
        paper's other version, never filled in unseen (a dataset of the same title would
        bring its DOI and year)."""
        twin = next((self.maybe[i] for i in group if i in self.maybe), None)
        candidate = Candidate(**_described(record), version_of=twin)
        self.created.append((candidate, members, record))
        return candidate


def _count(counts: dict[str, int], members: list[tuple[Person, Found]]) -> None:
    for _, found in members:
        counts[origin(found)] += 1


def _fill_papers(
    items: Iterable[tuple[Publication, list[Found]]], outcome: Outcome, dry_run: bool
) -> None:
    """Each matched paper takes only what it lacks, through the import's merge rules."""
    people, venues = PeopleIndex(), VenueIndex()
    plans = []
    for paper, works in items:
        record = merged_record(works)
        item = planning.plan_into(paper, record, people, venues, mode=planning.GAPS)
        if item.action == planning.ERROR:
            outcome.problems.append(f"{paper.display_title}: {'; '.join(item.problems)}")
            continue
        if item.changes:
            outcome.filled.append((paper, item.changes))
            plans.append(item)
    if plans and not dry_run:
        apply(plans)


def _described(record: Record) -> dict[str, object]:
    """A new candidate's fields, from every source's record of it merged (`merged_record`)."""
    return {
        "title": record.title[:1000],
        "year": record.date.year if record.date else None,
        "record": record.to_json(),
    }


class _Writes:
    """The run's new candidates with their history rows, and the identifiers, provenances
    and people of every candidate it touched, written in a few statements at the end
    however many candidates the run made or touched (not two for each new one). An
    identifier another candidate already holds is left to it (the unique pair decides)."""

    def __init__(self) -> None:
        self.new: list[Candidate] = []
        self.ids: list[WorkId] = []
        self.provenances: list[Provenance] = []
        self.people: list[tuple[Candidate, int]] = []  # (candidate, person pk)

    def add(self, candidate: Candidate, claims: list[tuple[Person, Found]], keys: set[Key]):
        """`candidate` is a known one, or a new one not yet saved: `flush` creates it."""
        if candidate.pk is None:
            self.new.append(candidate)
        self.ids += [WorkId(candidate=candidate, kind=k, value=v[:500]) for k, v in sorted(keys)]
        self.provenances += [
            Provenance(
                candidate=candidate,
                source=found.source,
                source_id=found.source_id[:500],
                person=person,
                record=found.record.to_json() | {"published_doi": found.published_doi},
            )
            for person, found in claims
        ]
        if candidate.status == Candidate.Status.OPEN:
            self.people += [(candidate, pk) for pk in sorted({person.pk for person, _ in claims})]

    def flush(self) -> None:
        # the new candidates first, their ids read back for the rows naming them; each gets
        # its "+" history record as a save would (the request's user, if any)
        if self.new:
            bulk_create_with_history(self.new, Candidate, batch_size=_CHUNK)
        WorkId.objects.bulk_create(self.ids, ignore_conflicts=True)
        Provenance.objects.bulk_create(self.provenances, ignore_conflicts=True)
        through = Candidate.people.through
        Candidate.people.through.objects.bulk_create(
            [through(candidate_id=candidate.pk, person_id=pk) for candidate, pk in self.people],
            ignore_conflicts=True,
        )


def _link_versions(
    created: Iterable[tuple[Candidate, list[tuple[Person, Found]], Record]], lab: LabPapers
) -> None:
    """A new work is linked to its other version, a lab paper or a candidate: a preprint to
    the one whose DOI it names, else one of the same title that is not a preprint; a
    published work to a preprint of the same title (a candidate of this run is left to link
    itself). The other versions are looked up in one query per 100 new works, not one each,
    and the links written in one update (with a "~" history record each, as a save makes)."""
    works = [_NewWork.of(candidate, members, record) for candidate, members, record in created]
    new = {candidate.pk for candidate, _, _ in created}
    # this run's published works by the preprint DOI they name: such a preprint of this
    # run links to them (one link, from the preprint, as ever)
    named_by = {w.named_doi: w.candidate.pk for w in works if w.named_doi and not w.preprint}
    linked: list[Candidate] = []
    for start in range(0, len(works), _LINK_CHUNK):
        chunk = works[start : start + _LINK_CHUNK]
        rows = _stored_versions(chunk)
        for work in chunk:
            paper = _lab_version(work, lab)
            twin = _candidate_version(work, rows, named_by, new)
            if paper is not None or twin is not None:
                work.candidate.version_of = paper or work.candidate.version_of
                work.candidate.version_of_candidate_id = twin
                linked.append(work.candidate)
    fields = ["version_of", "version_of_candidate"]
    if linked:
        bulk_update_with_history(linked, Candidate, fields, batch_size=_CHUNK)


class _NewWork(NamedTuple):
    """A new candidate as `_link_versions` reads it: the record it was made of
    (`_described`), the DOI of its other version that its sources name, and its title key."""

    candidate: Candidate
    record: Record
    # a preprint's published version, or (a published work naming its preprint's DOI
    # links it the same way round) a published work's preprint
    named_doi: str
    key: str

    @classmethod
    def of(
        cls, candidate: Candidate, members: list[tuple[Person, Found]], record: Record
    ) -> "_NewWork":
        named_doi = next((f.published_doi for _, f in members if f.published_doi), "")
        named_doi = named_doi or next((f.preprint_doi for _, f in members if f.preprint_doi), "")
        return cls(candidate, record, named_doi, title_key(record.title))

    @property
    def preprint(self) -> bool:
        return is_preprint(self.record)

    def names(self, kind: str, value: str) -> bool:
        """Whether a stored identifier is its other version's: the DOI it names, or its
        title as the other version's (a preprint's published version, or the reverse)."""
        if kind == WorkId.Kind.DOI:
            return bool(self.named_doi) and value == self.named_doi
        return (
            kind == WorkId.Kind.TITLE
            and bool(self.key)
            and value.startswith(f"{self.key}|")
            and value.endswith("|preprint") != self.preprint
        )


def _stored_versions(chunk: list[_NewWork]) -> list[tuple[str, str, int]]:
    """(kind, value, candidate pk) of the stored identifiers the works' other versions may
    hold: the DOIs they name, their titles in any year (one query)."""
    query = Q()
    for work in chunk:
        if work.named_doi:
            query |= Q(kind=WorkId.Kind.DOI, value=work.named_doi)
        if work.key:
            query |= Q(kind=WorkId.Kind.TITLE, value__startswith=f"{work.key}|")
    if not query:
        return []
    return list(
        WorkId.objects.filter(query)
        .order_by("kind", "pk")  # "doi" before "title"
        .values_list("kind", "value", "candidate_id")
    )


def _lab_version(work: _NewWork, lab: LabPapers) -> Publication | None:
    """The lab's paper that is the work's other version."""
    if work.preprint:
        return lab.published_version(work.record, work.named_doi)
    # `named_doi` is here the preprint's, which the work names
    return lab.by_doi.get(work.named_doi) or lab.preprint_version(work.record)


def _candidate_version(
    work: _NewWork, rows: list[tuple[str, str, int]], named_by: dict[str, int], new: set[int]
) -> int | None:
    """The candidate that is the work's other version: for a preprint, first a published
    work of this run naming its DOI; for a published work, never one of this run (a
    preprint of this run links itself)."""
    twins: Iterable[int]
    if work.preprint:
        named = [named_by[work.record.doi]] if work.record.doi in named_by else []
        stored = (pk for kind, value, pk in rows if work.names(kind, value))
        twins = itertools.chain(named, stored)
    else:
        twins = (pk for kind, value, pk in rows if pk not in new and work.names(kind, value))
    return next((pk for pk in twins if pk != work.candidate.pk), None)
