"""Applying planned imports: one transaction, the planned publications saved as planned."""

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.text import slugify
from simple_history.utils import bulk_create_with_history

from core.bulk import insert_with_history
from core.slugs import unique_slug
from publications.importing.planning import (
    ERROR,
    NEW,
    UNCHANGED,
    UPDATE,
    Plan,
    authorship,
    merge_authors,
)
from publications.models import Authorship, Publication, title_key
from tags.models import Tag, split_keywords


@dataclass
class Summary:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    failed: int = 0
    written: bool = False

    def __str__(self) -> str:
        return (
            f"{self.created} created, {self.updated} updated, "
            f"{self.unchanged} unchanged, {self.failed} failed"
        )


def apply(plans: list[Plan], *, skip_invalid: bool = False, user: Any = None) -> Summary:
    """Write the plans in one transaction, recorded in history as `user`'s. With any error
    plan and not `skip_invalid`, nothing is written. Returns a Summary."""
    summary = Summary(failed=sum(p.action == ERROR for p in plans))
    if summary.failed and not skip_invalid:
        return summary
    with transaction.atomic():
        for item in plans:
            venue = item.written().venue if item.action in (NEW, UPDATE) else None
            if venue is not None and venue.pk is None:
                venue.save()  # a new venue, shared by every record that names it
        _create_all([item for item in plans if item.action == NEW], user)
        for item in plans:
            if item.action == UPDATE:
                _update(item, user)
        _tag_from_keywords([item for item in plans if item.action in (NEW, UPDATE)])
        summary.created = sum(item.action == NEW for item in plans)
        summary.updated = sum(item.action == UPDATE for item in plans)
        summary.unchanged = sum(item.action == UNCHANGED for item in plans)
    summary.written = True
    return summary


def _create_all(plans: list[Plan], user: Any) -> None:
    """New publications and their authors in a few batched INSERTs, whatever their number."""
    taken = set(Publication.objects.values_list("slug", flat=True))
    for item in plans:
        publication = item.written()
        publication.slug = unique_slug(publication, publication.display_title, taken=taken)
        publication.title_key = title_key(publication.title)
        taken.add(publication.slug)
    publications = [item.written() for item in plans]
    insert_with_history(Publication, publications, ("slug",), user)
    authorships = [  # each with the person the admin chose in the preview
        authorship(item.written(), position, author)
        for item in plans
        for position, author in enumerate(item.record.authors, 1)
    ]
    insert_with_history(Authorship, authorships, ("publication_id", "position"), user)


def _update(item: Plan, user: Any) -> None:
    """Save the planned publication, then, if the plan changes it, its author list as the
    plan merged it: authors no longer in the source go, the others take its order and
    names."""
    publication = item.written()
    publication._history_user = user  # type: ignore[attr-defined]
    publication.save()
    if "authors" not in item.changes:
        return
    merged, gone = merge_authors(publication.authorships.all(), item.record.authors)
    Authorship.objects.filter(pk__in=[row.pk for row in gone]).delete()
    publication.park_authorships()
    new_rows: list[Authorship] = []
    for row, _ in merged:
        if row.pk is None:
            row.publication = publication
            new_rows.append(row)
        else:
            row._history_user = user  # type: ignore[attr-defined]
            row.save()
    bulk_create_with_history(new_rows, Authorship, default_user=user)


def _tag_from_keywords(plans: list[Plan]) -> None:
    """A paper's BibTeX `keywords` become its tags (the field is kept with the paper too,
    for exports): tags are added, never taken away, so a tag a lab admin added stays.
    A few queries and one insert for the whole import."""
    words = {
        item.written().pk: split_keywords(item.record.source_fields.get("keywords", ""))
        for item in plans
    }
    tags = Tag.objects.named([word for found in words.values() for word in found])
    through = Publication.tags.through
    rows = [
        through(publication_id=pk, tag_id=tags[slugify(word)[:100]].pk)
        for pk, found in words.items()
        for word in found
        if slugify(word)[:100] in tags
    ]
    through.objects.bulk_create(rows, ignore_conflicts=True)
