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
            if _families(found.record) & _stored_families(candidate) and not _other_doi(
                found, _stored_doi(candidate)
            ):
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
    wanted = None if kinds is None else set(kinds)
    outcome = Outcome()
    works = [found for _, found in pairs]
    lab = LabPapers(works)
    to_fill: dict[int, tuple[Publication, list[Found]]] = {}
    rest: list[int] = []
    maybe: dict[int, Publication] = {}  # position → the lab's paper it may be, by title
    for position, found in enumerate(works):
        paper = lab.find(found)
        if paper is None:
            rest.append(position)
            if (twin := lab.by_title_alone(found)) is not None:
                maybe[position] = twin
            continue
        outcome.matched[origin(found)] += 1
        to_fill.setdefault(paper.pk, (paper, []))[1].append(found)
    groups = [[rest[i] for i in group] for group in _groups([works[i] for i in rest])]
    loose = {i: _undated_key(works[i]) for i in rest if works[i].record.date is not None}
    dated_keys = {key for key in loose.values() if key is not None}
    known = _known({key for i in rest for key in keys_of(works[i])} | dated_keys)
    twins = _undated_twins([works[i] for i in rest if works[i].record.date is None])
    disowned = set(
        Candidate.not_people.through.objects.filter(
            candidate__in={c.pk for c in known.values()}
        ).values_list("candidate_id", "person_id")
    )
    writes = _Writes()
    with transaction.atomic():
        if to_fill:
            _fill_papers(to_fill.values(), outcome, dry_run)
        created = []
        for group in groups:
            members = [pairs[i] for i in group]
            group_keys = {key for _, found in members for key in keys_of(found)}
            existing = next((known[k] for k in sorted(group_keys) if k in known), None)
            if existing is None:  # one of them undated: the title, and an author in common
                existing = next(
                    (
                        known[key]
                        for i in group
                        if (key := loose.get(i)) in known
                        and _families(works[i].record) & _stored_families(known[key])
                        and not _other_doi(works[i], _stored_doi(known[key]))
                    ),
                    None,
                ) or _twin_of(members, twins)
            record = merged_record(found for _, found in members) if existing is None else None
            if record is not None and wanted is not None and record.kind not in wanted | {""}:
                outcome.left_out[record.kind] += 1
                continue
            counts = outcome.new if existing is None else outcome.matched
            for _, found in members:
                counts[origin(found)] += 1
            if existing is None:
                outcome.works += 1
            if dry_run:
                continue
            if record is not None:  # written with the others in `writes.flush`
                described = _described(record)
                # A work the lab may hold by title alone is offered for review as that
                # paper's other version, never filled in unseen (a dataset of the same title
                # would bring its DOI and year).
                twin = next((maybe[i] for i in group if i in maybe), None)
                existing = Candidate(**described, version_of=twin)
                created.append((existing, members, record))
            # a known work keeps its status (a rejected one stays rejected) and gains the
            # identifiers and sources it lacked, and the people who have not disowned it
            assert existing is not None  # made above when the work was not known
            claims = [(p, f) for p, f in members if (existing.pk, p.pk) not in disowned]
            writes.add(existing, claims, group_keys)
        writes.flush()
        _link_versions(created, lab)
        outcome.created = [candidate.pk for candidate, _, _ in created]
        if dry_run:
            transaction.set_rollback(True)
    return outcome


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
    works = []
    for candidate, members, record in created:  # the record it was made of (`_described`)
        published_doi = next((f.published_doi for _, f in members if f.published_doi), "")
        # a published work naming its preprint's DOI links it the same way round
        published_doi = published_doi or next(
            (f.preprint_doi for _, f in members if f.preprint_doi), ""
        )
        works.append((candidate, record, published_doi, title_key(record.title)))
    new = {candidate.pk for candidate, _, _ in created}
    # this run's published works by the preprint DOI they name: such a preprint of this
    # run links to them (one link, from the preprint, as ever)
    named_by = {doi: c.pk for c, record, doi, _ in works if doi and not is_preprint(record)}
    linked: list[Candidate] = []
    for start in range(0, len(works), _LINK_CHUNK):
        chunk = works[start : start + _LINK_CHUNK]
        query = Q()
        for _, _, published_doi, key in chunk:
            if published_doi:
                query |= Q(kind=WorkId.Kind.DOI, value=published_doi)
            if key:
                query |= Q(kind=WorkId.Kind.TITLE, value__startswith=f"{key}|")
        rows = (
            list(
                WorkId.objects.filter(query)
                .order_by("kind", "pk")  # "doi" before "title"
                .values_list("kind", "value", "candidate_id")
            )
            if query
            else []
        )
        for candidate, record, published_doi, key in chunk:
            if is_preprint(record):
                paper = lab.published_version(record, published_doi)
                twins: Iterable[int] = itertools.chain(
                    [named_by[record.doi]] if record.doi in named_by else [],
                    (
                        candidate_id
                        for kind, value, candidate_id in rows
                        if (kind == WorkId.Kind.DOI and published_doi and value == published_doi)
                        or (
                            kind == WorkId.Kind.TITLE
                            and key
                            and value.startswith(f"{key}|")
                            and not value.endswith("|preprint")
                        )
                    ),
                )
            else:  # `published_doi` is here the preprint's, which the work names
                paper = lab.by_doi.get(published_doi) or lab.preprint_version(record)
                twins = (
                    candidate_id
                    for kind, value, candidate_id in rows
                    if candidate_id not in new  # a preprint of this run links itself
                    and (
                        (kind == WorkId.Kind.DOI and published_doi and value == published_doi)
                        or (
                            kind == WorkId.Kind.TITLE
                            and key
                            and value.startswith(f"{key}|")
                            and value.endswith("|preprint")
                        )
                    )
                )
            twin = next((pk for pk in twins if pk != candidate.pk), None)
            if paper is not None or twin is not None:
                candidate.version_of = paper or candidate.version_of
                candidate.version_of_candidate_id = twin
                linked.append(candidate)
    fields = ["version_of", "version_of_candidate"]
    if linked:
        bulk_update_with_history(linked, Candidate, fields, batch_size=_CHUNK)
