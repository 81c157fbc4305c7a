"""Papers as lists and profiles show them: each paper's entry (title, authors as the one
renderer prints them for the page, venue, status, badges, awards, links), built from rows.

A page of 300 papers is built from four queries (the papers with their venues, their author
rows with the people they link, their awards), whatever the number of papers. The author
rows and the people come as plain rows, not model instances, and the entry's HTML is built
here rather than by a template: those two cost a 300-paper profile most of its time
(bench/profile_render.py), and nothing is stored, so no save, import or restore leaves an
entry for a visitor to render first.
"""

from html import escape
from typing import Any, NamedTuple, cast

from django.db import connection
from django.db.models import Prefetch
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from lab.models import LabSettings
from media.references import LIST_SIZES, picture
from people.models import Person, shows_page
from publications.authors import LIST, author_list
from publications.models import Authorship, Publication

_PERSON_COLUMNS = ("slug", "name", "is_published", "orcid")


class _AuthorRow(NamedTuple):
    """The Authorship columns an author list reads, then the person the row links."""

    publication_id: int
    given_name: str
    family_name: str
    suffix: str
    person_id: int | None
    orcid: str
    affiliation: str
    is_equal_contribution: int  # flags as the driver gives them: 0 and 1, or booleans
    is_corresponding: int
    is_unlisted: int
    person: "ListedPerson | None"


class ListedAuthor(_AuthorRow):
    """An author row as author lists read it (`publications.authors.author_list`)."""

    __slots__ = ()
    is_cjk = Authorship.is_cjk
    full_name = Authorship.full_name
    short_name = Authorship.short_name


_AUTHOR_COLUMNS: tuple[str, ...] = _AuthorRow._fields[:-1]  # the columns read, in the row's order


class ListedPerson:
    """A lab member as author lists link them: their name and their profile's address,
    worked out once per page."""

    __slots__ = ("pk", *_PERSON_COLUMNS, "url")

    def __init__(self, pk, slug, name, is_published, orcid):
        self.pk, self.slug, self.name = pk, slug, name
        self.is_published, self.orcid, self.url = is_published, orcid, None

    @property
    def has_page(self):
        return shows_page(self.slug, self.is_published)

    def get_absolute_url(self):
        if self.url is None:
            # Person's own rule, which reads the slug alone
            self.url = Person.get_absolute_url(cast(Person, self))
        return self.url


_SLUG = "the-slug"


class Entry(NamedTuple):
    """A listed paper as one page shows it."""

    publication: Publication
    html: SafeString
    roles: frozenset  # slugs of the authorship roles the page's member holds on it
    legend: list  # Markers its author list shows


def papers(publications, *, tags: bool = True) -> list[Publication]:
    """The papers of the queryset `publications`, with their venues, featured images,
    awards, tags (unless `tags` is False: the exports write none) and author rows (plain
    rows, with the people they link): five queries however many papers, four without
    tags."""
    prefetched: list[Any] = [Prefetch("awards", to_attr="listed_awards")]
    if tags:
        prefetched.append("tags")
    found = list(
        publications.select_related("venue", "featured_image").prefetch_related(*prefetched)
    )
    if not found:
        return found
    rows = Authorship.objects.filter(publication__in=[p.pk for p in found]).order_by(
        "publication", "position"
    )
    columns = (*_AUTHOR_COLUMNS, *(f"person__{c}" for c in _PERSON_COLUMNS))
    sql, params = rows.values_list(*columns).query.sql_with_params()
    people: dict[int, ListedPerson] = {}
    by_paper: dict[int, list[ListedAuthor]] = {p.pk: [] for p in found}
    count = len(_AUTHOR_COLUMNS)
    with connection.cursor() as cursor:
        # The rows as the driver gives them (booleans may be 0 and 1): without Django's
        # value converters, which cost as much as reading them.
        cursor.execute(sql, params)
        for values in cursor.fetchall():
            person_id = values[_AUTHOR_COLUMNS.index("person_id")]
            person = None
            if person_id is not None:
                person = people.get(person_id)
                if person is None:
                    person = people[person_id] = ListedPerson(person_id, *values[count:])
            by_paper[values[0]].append(ListedAuthor._make((*values[:count], person)))
    for paper in found:
        # what `paper.authorships.all()` and `paper.awards.all()` then answer
        paper._prefetched_objects_cache["authorships"] = by_paper[paper.pk]
        paper._prefetched_objects_cache["awards"] = paper.listed_awards
    return found


def entries(publications, context: str = LIST, person=None, lab=None) -> list[Entry]:
    """Each of `publications` (from `papers`) as its entry on a page of `context` (PROFILE
    or LIST) about `person` or no one."""
    lab = lab or LabSettings.load()
    # Every paper's address, from one reverse() in the page's language and prefix (one per
    # paper cost a 300-paper profile a tenth of its time).
    address = reverse("publications:detail", kwargs={"slug": _SLUG}).replace(_SLUG, "{}")
    shown = []
    for publication in publications:
        authors = author_list(publication, context, person, lab)
        url = address.format(publication.slug)
        html = _entry_html(publication, url, authors.html(), authors.badges_html())
        shown.append(Entry(publication, html, authors.roles, authors.legend))
    return shown


_SAID_STATUSES = (Publication.Status.ACCEPTED, Publication.Status.PREPRINT)


def _entry_html(publication, url, authors_html, badges_html) -> SafeString:
    """One paper in a list (`<li class="pub">`): every value escaped, the author list and
    badges already HTML."""
    meta = [f'<span class="pub__venue">{escape(publication.venue_label)}</span>']
    if publication.status in _SAID_STATUSES:  # published goes unsaid; unknown says nothing
        status = escape(str(publication.get_status_display()))
        meta.append(f'<span class="badge badge--status">{status}</span>')
    meta.append(badges_html)
    meta += [
        f'<span class="badge badge--award">{escape(str(award))}</span>'
        for award in publication.award_labels()
    ]
    if publication.note:
        meta.append(f'<span class="badge badge--status">{escape(publication.note)}</span>')
    links = "".join(
        f'<a href="{escape(url)}">{escape(str(label))}</a>' for label, url in publication.links()
    )
    tags = "".join(
        f'<li><a class="tag" href="{escape(tag.get_absolute_url())}" rel="tag">'
        f"{escape(tag.name)}</a></li>"
        for tag in publication.tags.all()
    )
    image = publication.featured_image
    return mark_safe(
        f'<li class="pub{" has-picture" if image else ""}" id="pub-{escape(publication.slug)}">\n'
        f'  <p class="pub__title"><a href="{escape(url)}">'
        f"{escape(publication.display_title)}</a></p>\n"
        f'  <p class="pub__authors">{authors_html}</p>\n'
        f'  <p class="pub__meta">{" ".join(m for m in meta if m)}</p>\n'
        + (f'  <p class="pub__links">{links}</p>\n' if links else "")
        + (f'  <ul class="tag-list" aria-label="{escape(_("Tags"))}">{tags}</ul>\n' if tags else "")
        + (
            f'  <a class="pub__picture" href="{escape(url)}" tabindex="-1" aria-hidden="true">'
            f"{picture(image, sizes=LIST_SIZES, css_class='list-picture')}</a>\n"
            if image
            else ""
        )
        + "</li>\n"
    )
