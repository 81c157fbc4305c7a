"""What a reviewer does with a candidate: accept it as a new paper, merge it into one of the
lab's papers, reject it, or (for a member it was wrongly found for) say it is not theirs.
Accepting and merging go through the import's plan and apply, so the preview shows exactly
what is written. The harvest itself accepts, by the same path, the works the lab lets it
(`auto_accept`), and a member undoes that (`undo_auto_accept`)."""

from typing import Any, cast

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from harvest.matching import is_preprint
from harvest.models import Candidate, Source
from people.models import Person
from publications.importing import apply, planning
from publications.importing.records import AUTHOR_ID_KINDS, Record
from publications.models import Authorship, Publication, Venue
from tags.models import Tag, split_keywords


class ReviewProblem(Exception):
    """A review that cannot be done as asked (the plan has problems, the work is taken)."""


def missing_members(candidate: Candidate, item: planning.Plan) -> list[Person]:
    """The members the work was found for (and who have not disowned it) whom accepting
    `item` would not write among its authors: their name and identifiers match none of the
    authors the sources give. A query for the members."""
    if item.action == planning.ERROR:
        return []
    if item.candidate is not None:
        written = {a.person.pk for a in item.record.authors if a.person is not None}
    else:
        written = set()
    if item.publication is not None:  # joining a paper: its linked authors stay
        written |= set(
            item.publication.authorships.exclude(person=None).values_list("person", flat=True)
        )
    claimants = candidate.people.exclude(pk__in=candidate.not_people.values("pk"))
    return [person for person in claimants.order_by("name") if person.pk not in written]


def without_them(candidate: Candidate, missing: list[Person]) -> str:
    """Why accepting is held back: the members it would be written without."""
    names = ", ".join(person.name for person in missing)
    return (
        f"“{candidate.title}” was found for {names}, but none of its authors as the sources "
        "give them is recognised as them, so it would be written without them (and not be on "
        "their profile or CV). Add the printed name to their name variants and review it "
        "again, accept it without them knowingly, or say it is not theirs."
    )


def accept_plan(candidate: Candidate, editable=None) -> planning.Plan:
    """What accepting would write: a new paper; or, if the work has meanwhile come into the
    lab, or another version of it (its preprint, its published version) is one of the lab's
    papers, what joining it to that paper writes (`merge_plan`): one paper, never two.
    `editable`, as for an import: the papers the reviewer may change (a member: those they
    author); any other is a problem. No writes."""
    record = Record.from_json(candidate.record)
    item = planning.plan([record], editable=editable)[0]
    if item.action == planning.ERROR:
        return item
    paper = item.publication
    if paper is None:
        other = candidate.other_version_paper_id()
        if other is None:
            return item
        paper = Publication.objects.get(pk=other)
        if editable is not None and not editable.filter(pk=other).exists():
            record.problems.append(
                f"another version of it is “{paper.display_title}”, a paper you are not an "
                "author of; ask a lab admin to accept it"
            )
            return planning.Plan(record, planning.ERROR, paper)
    return merge_plan(candidate, paper)


def merge_plan(candidate: Candidate, publication: Publication) -> planning.Plan:
    """What merging into `publication` would write: only what the paper lacks (the merge
    rules' GAPS mode); but when the work is the published version of a paper the lab holds
    as a preprint, it becomes the version of record (OF_RECORD). No writes."""
    record = Record.from_json(candidate.record)
    of_record = publication.status == Publication.Status.PREPRINT and not is_preprint(record)
    mode = planning.OF_RECORD if of_record else planning.GAPS
    return planning.plan_into(publication, record, mode=mode)


def _done(candidate: Candidate, status: str, user, publication=None, reason: str = "") -> None:
    candidate.status, candidate.reviewed, candidate.reviewed_by = status, timezone.now(), user
    candidate.publication = publication
    candidate._history_user = user  # type: ignore[attr-defined]
    if reason:
        candidate._change_reason = reason  # type: ignore[attr-defined]
    candidate.save()


def _still_open(candidate: Candidate) -> None:
    """Locks the candidate's row for the review's transaction and checks it is still open:
    of two reviewers (or a double click) accepting or merging at once, the second waits,
    then is told it is done, so one work never becomes two papers."""
    current = Candidate.objects.select_for_update().filter(pk=candidate.pk)
    status = current.values_list("status", flat=True).first()
    if status != Candidate.Status.OPEN:
        raise ReviewProblem(f"“{candidate.title}” has already been reviewed.")


@transaction.atomic
def accept(
    candidate: Candidate,
    user,
    editable=None,
    *,
    without_members: bool = False,
    auto_from: str = "",
) -> Publication:
    """Accept the work: a new paper, or joined to the lab's paper that is another version
    of it. A work that would be written without a member it was found for is refused
    (ReviewProblem) unless the reviewer says `without_members`. `auto_from`: the harvest
    accepts it on its own, for that source's record naming the member (`auto_accept`):
    only as a new paper, whatever else it would be is left for review."""
    _still_open(candidate)
    item = accept_plan(candidate, editable)
    if item.action == planning.ERROR:
        raise ReviewProblem("; ".join(item.problems))
    missing = missing_members(candidate, item)
    if missing and not without_members:
        raise ReviewProblem(without_them(candidate, missing))
    if auto_from and item.action != planning.NEW:
        raise ReviewProblem(f"“{candidate.title}” joins a paper of the lab: a reviewer decides.")
    if item.action in (planning.UPDATE, planning.UNCHANGED):  # it came into the lab meanwhile
        return merge(candidate, item.publication, user, item)
    made = _made_by(item) if auto_from else {}
    apply([item], user=user)
    publication = item.written()
    if auto_from:
        reason = f"auto-accepted from {dict(Source.choices).get(auto_from, auto_from)}"
        publication.history.filter(history_type="+").update(history_change_reason=reason)
        candidate.auto_accepted_from = auto_from
        candidate.auto_made = {
            "venue": item.written().venue_id if made["venue"] else None,
            "tags": sorted(Tag.objects.filter(slug__in=made["tags"]).values_list("pk", flat=True)),
        }
        _done(candidate, Candidate.Status.ACCEPTED, user, publication, reason)
    else:
        _done(candidate, Candidate.Status.ACCEPTED, user, publication)
    return publication


def _made_by(item: planning.Plan) -> dict:
    """What applying a new paper's plan makes besides the paper and its authors, which
    undoing removes: the venue if it is new, the tags its keywords name that do not exist
    yet (their slugs). A query."""
    venue = item.written().venue
    words = split_keywords(item.record.source_fields.get("keywords", ""))
    slugs = {slugify(word)[:100] for word in words} - {""}
    existing = set(Tag.objects.filter(slug__in=slugs).values_list("slug", flat=True))
    return {"venue": venue is not None and venue.pk is None, "tags": sorted(slugs - existing)}


def names_member(record: dict, person: Person) -> bool:
    """Whether a source's record of a work (`Record.to_json()`) names `person` among its
    authors by an identifier of theirs: their ORCID iD, or their id at a service."""
    theirs = {("orcid", person.orcid.upper())} if person.orcid else set()
    theirs |= {
        (kind, str(getattr(person, attribute)).upper())
        for kind, attribute in AUTHOR_ID_KINDS.items()
        if getattr(person, attribute, "")
    }
    for author in record.get("authors") or []:
        if not isinstance(author, dict):
            continue
        given = {("orcid", str(author.get("orcid") or "").upper())}
        ids = author.get("ids")
        if isinstance(ids, dict):
            given |= {(str(kind), str(value).upper()) for kind, value in ids.items()}
        if theirs & given:
            return True
    return False


def auto_accept_source(candidate: Candidate, sources, incomplete=()) -> str:
    """The source (of `sources`, those the lab auto-accepts from) whose record of the work
    names a member it was found for by their own identifier, when nothing else about it
    needs a reviewer: it has a DOI or an arXiv id, no other version of it is in the lab or
    waits for review (a paper of its title, a preprint or published version), the sources
    agree on what it is (no reading for the review), and its author list is not one the
    run left incomplete (its DOI among `incomplete`, the DOIs the completion did not reach:
    a paper's authors, once written, are never replaced by a harvest). "" otherwise. A few
    queries."""
    record = candidate.record
    if candidate.status != Candidate.Status.OPEN or not sources:
        return ""
    if not (record.get("doi") or record.get("arxiv_id")) or record.get("readings"):
        return ""
    unlisted = any(isinstance(a, dict) and a.get("is_unlisted") for a in record.get("authors", []))
    if unlisted and record.get("doi") in incomplete:
        return ""
    if candidate.version_of_id or candidate.version_of_candidate_id:
        return ""
    if Candidate.objects.filter(version_of_candidate=candidate).exists():
        return ""
    claimants = {person.pk: person for person in candidate.claimants()}
    provenances = candidate.provenances.filter(source__in=list(sources), person__in=claimants)
    for provenance in provenances.order_by("pk"):
        if names_member(provenance.record, claimants[provenance.person_id]):
            return provenance.source
    return ""


def auto_accept(candidate_ids, sources, incomplete=()) -> dict[str, int]:
    """Accept, as the harvest's own decision, each of the candidates the lab's settings let
    it (`auto_accept_source`), through the review's own `accept`: one whose accepting
    would need a reviewer's word (it would be written without a member, joins a paper) is
    left waiting. Returns {source: papers accepted}."""
    counts: dict[str, int] = {}
    sources = list(sources)
    if not sources:
        return counts
    for candidate in Candidate.objects.filter(pk__in=list(candidate_ids)).order_by("pk"):
        source = auto_accept_source(candidate, sources, incomplete)
        if not source:
            continue
        try:
            accept(candidate, None, auto_from=source)
        except ReviewProblem:
            continue
        counts[source] = counts.get(source, 0) + 1
    return counts


@transaction.atomic
def undo_auto_accept(candidate: Candidate, user) -> None:
    """Undo the harvest's acceptance: the paper it made goes with its authors (and the
    venue and tags it made, if nothing else uses them), and the work waits for review
    again, as before the harvest accepted it. Refused (ReviewProblem) once a person has
    merged another work into the paper, or edited the paper or its authors: then the paper
    is theirs, and undoing would take their work with it."""
    current = Candidate.objects.select_for_update().filter(pk=candidate.pk)
    row = current.values("status", "auto_accepted_from").first()
    if not row or row["status"] != Candidate.Status.ACCEPTED or not row["auto_accepted_from"]:
        raise ReviewProblem(f"“{candidate.title}” is not a work the harvest accepted.")
    candidate.refresh_from_db()
    paper = candidate.publication
    if paper is not None:
        if paper.harvest_candidates.exclude(pk=candidate.pk).exists():
            raise ReviewProblem(
                f"Other works have been merged into “{paper.display_title}” since: edit the "
                "paper instead."
            )
        if _edited_by_a_person(paper):
            raise ReviewProblem(
                f"“{paper.display_title}” has been edited since the harvest accepted it: "
                "edit the paper instead."
            )
        paper._history_user = user  # type: ignore[attr-defined]
        paper._change_reason = "auto-accept undone"  # type: ignore[attr-defined]
        paper.delete()
    _undo_made(candidate)
    candidate.status, candidate.reviewed, candidate.reviewed_by = Candidate.Status.OPEN, None, None
    candidate.publication, candidate.auto_accepted_from, candidate.auto_made = None, "", {}
    candidate._history_user = user  # type: ignore[attr-defined]
    candidate._change_reason = "auto-accept undone"  # type: ignore[attr-defined]
    candidate.save()
    candidate.notified.clear()


@transaction.atomic
def merge(candidate: Candidate, publication, user, item: planning.Plan | None = None):
    _still_open(candidate)
    item = item or merge_plan(candidate, publication)
    if item.action == planning.ERROR:
        raise ReviewProblem("; ".join(item.problems))
    if item.action == planning.UPDATE:
        apply([item], user=user)
    _done(candidate, Candidate.Status.MERGED, user, publication)
    return publication


@transaction.atomic
def reject(candidate: Candidate, user, person: Person | None = None) -> None:
    """Rejected for good: its identifiers stay, so no source brings the work back. A member
    (`person`) rejects it for themselves only: it stays open for the others it was found
    for, and is rejected once none of them claims it; a lab admin (no `person`) rejects it
    for everyone."""
    _still_open(candidate)
    if person is not None:
        candidate.rejected_by.add(person)
        if candidate.claimants().exists():
            return
    _done(candidate, Candidate.Status.REJECTED, user)


@transaction.atomic
def disown(candidate: Candidate, person: Person, user) -> None:
    """`person` says the work is not theirs: never offered to them again; once nobody it was
    found for claims it, it is rejected."""
    candidate.not_people.add(person)
    if candidate.status == Candidate.Status.OPEN and not candidate.claimants().exists():
        _done(candidate, Candidate.Status.REJECTED, user)


def _edited_by_a_person(paper: Publication) -> bool:
    """Whether a person changed the paper or its authors (a history row with a user: the
    harvest's own writes and the figures' refreshes have none)."""
    authors = Authorship.history.filter(publication_id=paper.pk)
    return any(rows.exclude(history_user=None).exists() for rows in (paper.history.all(), authors))


def _undo_made(candidate: Candidate) -> None:
    """Remove the venue and tags accepting `candidate` made, once nothing uses them; one
    another paper the harvest accepted still uses passes to that paper's candidate, so
    undoing it removes them (several papers of a new venue accepted in one run)."""
    made = candidate.auto_made or {}
    others = Candidate.objects.auto_accepted().exclude(pk=candidate.pk)
    venue = made.get("venue")
    if venue and not Publication.objects.filter(venue_id=venue).exists():
        Venue.objects.filter(pk=venue).delete()
    elif venue and (heir := others.filter(publication__venue_id=venue).first()) is not None:
        heir.auto_made = {**(heir.auto_made or {}), "venue": venue}
        heir.save(update_fields=["auto_made"])
    for tag in Tag.objects.filter(pk__in=made.get("tags") or []):
        users = [
            cast(Any, relation.related_model).objects.filter(**{relation.field.name: tag})
            for relation in Tag._meta.related_objects
            if relation.many_to_many or relation.one_to_many
        ]
        if not any(rows.exists() for rows in users):
            tag.delete()
        elif (heir := others.filter(publication__tags=tag).first()) is not None:
            tags = sorted({*(heir.auto_made or {}).get("tags", []), tag.pk})
            heir.auto_made = {**(heir.auto_made or {}), "tags": tags}
            heir.save(update_fields=["auto_made"])
