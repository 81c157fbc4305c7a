"""Papers as lists and profiles show them, rendered once per change and stored.

A listed paper's entry (`_publication.html`: title, authors, venue, status, badges, awards,
links) is rendered into `Publication.listing` by the first page that needs it after a
change, in the page's language, in each form a page can show it: in the lab's lists; on
the profile of each lab member among its authors (them highlighted, unlinked, their badges,
the shortened list keeping them); in the list narrowed to that member. Every later page
reads its form from there, picked out by the database (`Publication.objects.listed()`): a
profile of 300 papers is built from 300 rows of a few columns, not from 300 papers, their
3,000 author rows and people, and 300 template renderings.

A stored entry is out of date, and rendered again when next needed, when:
- the paper, one of its author rows, its venue, an award tied to it, or an author's person
  changes: `Publication.save` and the receivers `connect` wires up clear it and draw a new
  `listing_stamp`, so a page that read the rows before the change cannot store what it
  rendered from them over it (it stores only where the stamp it read is still there);
- the site's code, templates or translations, or the lab settings an entry shows (name
  style, markers, shortening) change: an entry is stored under the `key` it was rendered
  with.
"""

import hashlib
from functools import cache
from pathlib import Path
from typing import NamedTuple

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Q
from django.db.models.signals import post_delete, post_save, pre_delete, pre_save
from django.template.loader import render_to_string
from django.urls import get_script_prefix
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from lab.models import LabSettings
from people.models import Person
from publications.authors import LIST, PROFILE, author_list, markers
from publications.models import Authorship, Publication, Venue, new_listing_stamp

ENTRY_TEMPLATE = "publications/_publication.html"
# Where an entry's author list and badges go while it is rendered once for all its forms.
# User text in an entry is escaped, so neither can come from it.
AUTHORS, BADGES = "<!--authors-->", "<!--badges-->"


class ListedPaper:
    """A paper as lists and profiles read it: the columns `Publication.objects.listed()`
    loads, and the few properties of a Publication they use. Not a model instance: making
    those was a third of the time of a 300-paper profile."""

    __slots__ = (
        *("pk", "slug", "title", "kind", "date", "citation_count", "patent_number"),
        *("patent_jurisdiction", "listing_stamp", "venue_short_name", "listed_form"),
        *("listing_key", "listed", "listing"),
    )
    year = Publication.year
    display_title = Publication.display_title
    get_absolute_url = Publication.get_absolute_url

    def __init__(self, row):
        self.listing = None
        for name, value in row.items():
            setattr(self, name, value)


class Entry(NamedTuple):
    """A listed paper as one page shows it."""

    publication: ListedPaper
    html: SafeString
    roles: frozenset  # slugs of the authorship roles the page's member holds on it
    legend: list  # Markers its author list shows


class _Parts:
    """Stands for the author list while an entry is rendered for storing."""

    html = mark_safe(AUTHORS)
    badges_html = mark_safe(BADGES)


def form(context: str = LIST, person=None) -> str:
    """The name of the form of an entry a page shows: `context` (PROFILE or LIST), about
    `person` or no one."""
    if person is None:
        return "list"
    return f"{'profile' if context == PROFILE else 'list'}-{person.pk}"


def papers(rows) -> list[ListedPaper]:
    """The rows of `Publication.objects.listed()` as papers."""
    return [ListedPaper(row) for row in rows]


def entries(publications: list[ListedPaper], lab=None) -> list[Entry]:
    """`publications` (`papers` of `Publication.objects.listed(form)`) in that form: stored
    entries, rendered and stored first where out of date. A paper deleted meanwhile is
    left out."""
    lab = lab or LabSettings.load()
    language, current = get_language(), key(lab)
    stale = [p for p in publications if p.listing_key != current or p.listed is None]
    if stale:
        _render(stale, current, language, lab)
    marker = markers(lab)
    shown = []
    for publication in publications:
        if publication.listed is not None:
            roles, legend, html = publication.listed.split("\n", 2)
            shown.append(
                Entry(
                    publication,
                    mark_safe(html),  # escaped when rendered
                    frozenset(roles.split()),
                    [marker[code] for code in legend.split()],
                )
            )
    return shown


def key(lab) -> str:
    """What stored entries are valid for: this code, templates and translations, this
    address prefix, and the lab settings an entry shows."""
    parts = (
        code_fingerprint(),
        get_script_prefix(),
        lab.author_name_style,
        lab.marker_equal_contribution,
        lab.marker_corresponding,
        str(lab.authors_shorten_above),
        str(lab.authors_keep_first),
    )
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:20]


@cache
def code_fingerprint() -> str:
    """A digest of the site's Python code, templates and compiled catalogs, read once per
    process: a new release renders its entries afresh."""
    digest = hashlib.sha256()
    root = Path(settings.BASE_DIR)
    for folder in ("core", "people", "publications", "talks", "labsite", "templates", "locale"):
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in (".py", ".html", ".mo") and "migrations" not in path.parts:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def _render(stale, current, language, lab):
    """Render every form of the entries of `stale` in `language` (from their full rows:
    three queries), store them, and set the form each object was loaded for on it."""
    full = {p.pk: p for p in Publication.objects.filter(pk__in=[p.pk for p in stale]).for_listing()}
    for publication in stale:
        source = full.get(publication.pk)
        if source is None:  # deleted since the page's query
            publication.listed = None
            continue
        forms = _forms(source, lab)
        others = (source.listing or {}) if source.listing_key == current else {}
        publication.listing, publication.listing_key = {**others, language: forms}, current
        publication.listed = forms.get(publication.listed_form) or forms["list"]
    _store([p for p in stale if p.listed is not None])


def _forms(publication, lab) -> dict:
    """Every form of `publication`'s entry, by `form` name, in the active language."""
    template = render_to_string(ENTRY_TEMPLATE, {"publication": publication, "authors": _Parts})
    members = {row.person_id: row.person for row in publication.authorships.all() if row.person}
    shown = {"list": author_list(publication, LIST, lab=lab)}
    for person in members.values():
        for context in (PROFILE, LIST):
            shown[form(context, person)] = author_list(publication, context, person, lab)
    # Each form as one string, which the database picks out whole: the author roles
    # behind its badges, the markers of its legend (space-separated codes), its HTML.
    return {
        name: "\n".join(
            (
                " ".join(sorted(authors.roles)),
                " ".join(m.code for m in authors.legend),
                template.replace(AUTHORS, authors.html(), 1).replace(
                    BADGES, authors.badges_html(), 1
                ),
            )
        )
        for name, authors in shown.items()
    }


def _store(publications):
    """Store the rendered entries where their stamps are still those read. On SQLite, which
    locks the whole database for a write, in one transaction; elsewhere one row a
    transaction, so a page never holds a row an editor's save waits for while it waits for
    another. Storing is best effort: an entry not stored is rendered again next time."""

    def store(publication):
        Publication.objects.filter(
            pk=publication.pk, listing_stamp=publication.listing_stamp
        ).update(listing=publication.listing, listing_key=publication.listing_key)

    try:
        if connection.vendor == "sqlite":
            with transaction.atomic():
                for publication in publications:
                    store(publication)
        else:
            for publication in publications:
                with transaction.atomic():
                    store(publication)
    except DatabaseError:
        pass


def forget(condition: Q):
    """Mark the stored entries of the publications matching `condition` out of date."""
    Publication.objects.filter(condition).update(listing=None, listing_stamp=new_listing_stamp())


def _author_changed(sender, instance, **kwargs):
    forget(Q(pk=instance.publication_id))


def _venue_changed(sender, instance, **kwargs):
    forget(Q(venue=instance))


def _person_changed(sender, instance, **kwargs):
    # Their name links to their profile, by its address, while they are published.
    forget(Q(pk__in=Authorship.objects.filter(person=instance).values("publication")))


def publication_of_changed(sender, instance, **kwargs):
    """Receiver for a model whose rows an entry shows through their `publication` (a paper's
    awards): the paper it is tied to now, and the one it was tied to before the save."""
    if kwargs.get("signal") is pre_save:
        instance._listed_before = (
            sender.objects.filter(pk=instance.pk).values_list("publication", flat=True).first()
            if instance.pk
            else None
        )
        return
    papers = {instance.publication_id, getattr(instance, "_listed_before", None)} - {None}
    if papers:
        forget(Q(pk__in=papers))


def connect_tied(model):
    """Wire the receivers for a model of another app whose rows entries show through their
    `publication` (a paper's awards)."""
    for signal in (pre_save, post_save, post_delete):
        signal.connect(publication_of_changed, sender=model, dispatch_uid=f"listing-{model}")


def connect():
    """Wire the receivers that keep stored entries current."""
    for signal in (post_save, post_delete):
        signal.connect(_author_changed, sender=Authorship, dispatch_uid="listing-author")
    post_save.connect(_venue_changed, sender=Venue, dispatch_uid="listing-venue")
    for signal in (post_save, pre_delete):
        signal.connect(_person_changed, sender=Person, dispatch_uid="listing-person")
