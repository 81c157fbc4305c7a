"""Applying planned imports: one transaction, the planned publications saved as planned."""

from dataclasses import dataclass

from django.db import transaction
from simple_history.utils import bulk_create_with_history

from labsite.slugs import unique_slug
from people.models import normalize_name
from publications.importing.planning import ERROR, NEW, UNCHANGED, UPDATE, authorship
from publications.models import Authorship, Publication, title_key


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


def _create_all(plans, user):
    """New publications and their authors in a few batched INSERTs, whatever their number."""
    taken = set(Publication.objects.values_list("slug", flat=True))
    for item in plans:
        publication = item.candidate
        publication.slug = unique_slug(publication, publication.display_title, taken=taken)
        publication.title_key = title_key(publication.title)
        taken.add(publication.slug)
    publications = [item.candidate for item in plans]
    bulk_create_with_history(publications, Publication, batch_size=500, default_user=user)
    authorships = [
        authorship(item.candidate, position, author)
        for item in plans
        for position, author in enumerate(item.record.authors, start=1)
    ]
    bulk_create_with_history(authorships, Authorship, batch_size=1000, default_user=user)


def _update(item, user):
    """Save the planned publication, then bring its author list in line with the source:
    authors no longer in it go, the others take its order and names but keep the person
    link and role flags an admin set on them."""
    publication, record = item.candidate, item.record
    publication._history_user = user
    publication.save()
    existing = list(item.publication.authorships.all())
    kept = []
    for position, author in enumerate(record.authors, start=1):
        match = _matching_authorship(existing, author, position)
        if match is not None:
            existing.remove(match)
            kept.append((match, position, author))
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
        row._history_user = user
        row.save()
    taken = {position for _, position, _ in kept}
    new_rows = [
        authorship(publication, position, author)
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
