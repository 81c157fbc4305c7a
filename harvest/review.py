"""What a reviewer does with a candidate: accept it as a new paper, merge it into one of the
lab's papers, reject it, or (for a member it was wrongly found for) say it is not theirs.
Accepting and merging go through the import's plan and apply, so the preview shows exactly
what is written."""

from django.db import transaction
from django.utils import timezone

from harvest.matching import only_gaps
from harvest.models import Candidate
from people.models import Person
from publications.importing import apply, planning
from publications.importing.records import Record
from publications.models import Publication


class ReviewProblem(Exception):
    """A review that cannot be done as asked (the plan has problems, the work is taken)."""


def accept_plan(candidate: Candidate, editable=None) -> planning.Plan:
    """What accepting would write: a new paper, or, if the work has meanwhile come into the
    lab, what it would add to that paper. `editable`, as for an import: the papers the
    reviewer may change (a member: those they author); any other is a problem. No writes."""
    record = Record.from_json(candidate.record)
    item = planning.plan([record], editable=editable)[0]
    if item.action == planning.UPDATE and item.publication is not None:
        only_gaps(item, item.publication)
    return item


def merge_plan(candidate: Candidate, publication: Publication) -> planning.Plan:
    """What merging into `publication` would write: only what the paper lacks. No writes."""
    item = planning.plan_into(publication, Record.from_json(candidate.record))
    if item.action != planning.ERROR:
        only_gaps(item, publication)
    return item


def _done(candidate: Candidate, status: str, user, publication=None) -> None:
    candidate.status, candidate.reviewed, candidate.reviewed_by = status, timezone.now(), user
    candidate.publication = publication
    candidate._history_user = user  # type: ignore[attr-defined]
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
def accept(candidate: Candidate, user, editable=None) -> Publication:
    _still_open(candidate)
    item = accept_plan(candidate, editable)
    if item.action == planning.ERROR:
        raise ReviewProblem("; ".join(item.problems))
    if item.action in (planning.UPDATE, planning.UNCHANGED):  # it came into the lab meanwhile
        return merge(candidate, item.publication, user, item)
    apply([item], user=user)
    publication = item.written()
    _done(candidate, Candidate.Status.ACCEPTED, user, publication)
    return publication


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
def reject(candidate: Candidate, user) -> None:
    """Rejected for good: its identifiers stay, so no source brings the work back."""
    _still_open(candidate)
    _done(candidate, Candidate.Status.REJECTED, user)


@transaction.atomic
def disown(candidate: Candidate, person: Person, user) -> None:
    """`person` says the work is not theirs: never offered to them again; once nobody it was
    found for claims it, it is rejected."""
    candidate.not_people.add(person)
    if (
        candidate.status == Candidate.Status.OPEN
        and not candidate.people.exclude(pk__in=candidate.not_people.values("pk")).exists()
    ):
        _done(candidate, Candidate.Status.REJECTED, user)
