"""The one author-list renderer. Every page, feed and export that shows authors calls
`author_list`; nothing else decides names, markers, highlighting, shortening or badges.

It reads `publication.authorships.all()` (prefetch it with `Publication.objects.for_listing()`)
and the cached lab settings, so it makes no query of its own.
"""

import html
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import NamedTuple, Protocol

from django.utils.functional import Promise
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from lab.models import LabSettings
from people.models import Person
from publications import roles as authorship_roles
from publications.models import Authorship, Publication, printed_names

PROFILE, LIST, DETAIL, FEED, EXPORT, CV = "profile", "list", "detail", "feed", "export", "cv"
SHORTENED_IN = {PROFILE, LIST}
EQUAL, CORRESPONDING = "equal", "corresponding"
MEANINGS = {EQUAL: _("Equal contribution"), CORRESPONDING: _("Corresponding author")}


@dataclass(frozen=True)
class Marker:
    symbol: str
    meaning: "str | Promise"  # in the page's language
    code: str  # EQUAL or CORRESPONDING

    @cached_property
    def html(self) -> str:
        """The marker after a name: `<sup class="marker" title="…">*</sup>`."""
        meaning, symbol = html.escape(str(self.meaning)), html.escape(self.symbol)
        return f'<sup class="marker" title="{meaning}">{symbol}</sup>'


def markers(lab: LabSettings) -> dict[str, Marker]:
    """The lab's markers, by code, in the active language."""
    return _markers(lab.marker_equal_contribution, lab.marker_corresponding, get_language())


@lru_cache(maxsize=16)
def _markers(equal: str, corresponding: str, language: str) -> dict[str, Marker]:
    symbols = {EQUAL: equal, CORRESPONDING: corresponding}
    return {code: Marker(symbols[code], MEANINGS[code], code) for code in MEANINGS}


class Name(NamedTuple):
    """One item of a rendered list: an author, or an ellipsis standing for several. (A
    tuple: a 300-paper profile makes 3,000 of them.)"""

    text: str
    given: str = ""
    family: str = ""
    url: str = ""
    orcid: str = ""
    is_context: bool = False
    is_gap: bool = False
    markers: tuple = ()
    affiliation_numbers: tuple = ()
    suffix: str = ""  # "Jr.": exports write it as their format's suffix

    def html(self) -> str:
        """This name as HTML. Built with the standard library's escape and plain strings
        rather than format_html or Django's escape (which checks for lazy strings): a
        profile renders thousands of names, and this is most of its cost."""
        text: str = html.escape(self.text)
        if self.is_gap:
            return f'<span class="author-gap">{text}</span>'
        if self.url:
            text = f'<a href="{html.escape(self.url)}">{text}</a>'
        if self.is_context:
            text = f'<strong class="author-self">{text}</strong>'
        sups = "".join(f'<sup class="aff">{n}</sup>' for n in self.affiliation_numbers)
        sups += "".join(m.html for m in self.markers)
        return f'<span class="author">{text}{sups}</span>'

    def plain(self) -> str:
        return self.text + "".join(m.symbol for m in self.markers)

    @property
    def is_organization(self) -> bool:
        """A group author ("ETH Zürich Systems Group"): a name of several words with no
        given name, as importers store a braced BibTeX or Crossref organization."""
        return not self.given and " " in self.family.strip()


@dataclass
class AuthorList:
    names: list
    legend: list = field(default_factory=list)
    badges: list = field(default_factory=list)
    roles: frozenset = frozenset()  # slugs of the roles behind the badges
    affiliations: list = field(default_factory=list)
    is_shortened: bool = False

    def __str__(self) -> str:
        return self.plain()

    def html(self) -> SafeString:
        items = ", ".join(name.html() for name in self.names)
        return mark_safe(f'<span class="authors">{items}</span>')  # every part escaped

    def badges_html(self) -> SafeString:
        return mark_safe(  # each badge escaped
            "".join(
                f'<span class="badge badge--role">{html.escape(str(badge))}</span>'
                for badge in self.badges
            )
        )

    def plain(self) -> str:
        text = ", ".join(name.plain() for name in self.names)
        if self.legend:
            text += " (" + "; ".join(f"{m.symbol} {m.meaning.lower()}" for m in self.legend) + ")"
        return text

    def legend_html(self) -> str:
        return legend_html(self.legend)

    def authors(self) -> list[Name]:
        """The named authors in order, without ellipses: what exports and metadata list."""
        return [name for name in self.names if not name.is_gap]

    @property
    def has_unlisted(self) -> bool:
        return any(name.is_gap for name in self.names)


def legend_html(markers: Iterable[Marker]) -> str:
    if not markers:
        return ""
    items = format_html_join(
        " · ",
        '<span><sup class="marker">{}</sup> {}</span>',
        ((m.symbol, m.meaning) for m in markers),
    )
    return format_html('<p class="legend">{}</p>', items)


class Legended(Protocol):
    """What shows a legend: an author list, or a paper's entry that holds one."""

    @property
    def legend(self) -> list: ...


def merge_legends(author_lists: Iterable[Legended]) -> list[Marker]:
    """The markers any of the lists (or entries) uses, in a stable order, for a page-level
    legend."""
    seen: dict[str, Marker] = {}
    for authors in author_lists:
        for marker in authors.legend:
            seen.setdefault(marker.code, marker)
    return [seen[code] for code in MEANINGS if code in seen]


def author_list(
    publication: Publication,
    context: str = LIST,
    person: Person | None = None,
    lab: LabSettings | None = None,
) -> AuthorList:
    """Render `publication`'s authors for `context`, highlighting `person` if given.

    - names in the lab's style (full, or initials + family name); exports use full names;
    - markers after co-first and corresponding authors, with the legend they need;
    - `person` in <strong>, found by the person link, never by the printed name;
      other published lab members linked to their profiles;
    - on profiles and lists, lists longer than the lab's limit keep the first names, "…",
      `person` (even when last) and "…" if more follow (with no `person`, every lab member
      stays visible); detail pages, CVs, feeds and exports list everyone;
    - badges ("1st Author", "Co-first", "Corresponding") for `person`;
    - on detail pages, numbered affiliations.
    """
    lab = lab or LabSettings.load()
    rows = list(publication.authorships.all())
    printer = _Printer(context, person, lab)
    names = [printer.name(row, last=index == len(rows) - 1) for index, row in enumerate(rows)]
    shortened = False
    limit = lab.authors_shorten_above
    if context in SHORTENED_IN and limit and len(rows) > limit:
        names, shortened = _shorten(names, max(lab.authors_keep_first, 1)), True
    # by code, not meaning: a meaning is a lazy translation, whose hash translates it
    used = {m.code: m for name in names for m in name.markers}
    held = authorship_roles.held_by(rows, person)
    return AuthorList(
        names=names,
        legend=[used[code] for code in MEANINGS if code in used],
        badges=[role.badge for role in authorship_roles.ROLES if role.slug in held],
        roles=held,
        affiliations=printer.affiliations,
        is_shortened=shortened,
    )


class _Printer:
    """How one list prints each of its rows for its context: the names in the lab's style,
    the markers, the link or highlight, and the affiliations numbered as they first come."""

    def __init__(self, context: str, person: Person | None, lab: LabSettings) -> None:
        self.context, self.person = context, person
        self.markers = markers(lab)
        # A paper's own page, feeds aside, has room for the names as stored; lists follow
        # the lab's style.
        self.full_names = (
            context in (EXPORT, DETAIL) or lab.author_name_style == LabSettings.AuthorNameStyle.FULL
        )
        self.affiliations: list[str] = []

    def name(self, row: Authorship, last: bool) -> Name:
        """The row's name, or for unlisted authors "…" ("et al." or "and others" last)."""
        if row.is_unlisted:
            end = gettext("and others") if self.context == DETAIL else gettext("et al.")
            return Name(end if last else "…", is_gap=True)
        is_context = self.person is not None and row.person_id == self.person.pk
        linked = self._linked(row, is_context)
        full, short = printed_names(row.given_name, row.family_name, row.suffix)
        return Name(
            full if self.full_names else short,
            row.given_name,
            row.family_name,
            linked.get_absolute_url() if linked is not None else "",
            row.orcid or (row.person.orcid if row.person else ""),
            is_context,
            False,
            self._markers(row),
            self._numbers(row),
            row.suffix,
        )

    def _linked(self, row: Authorship, is_context: bool) -> Person | None:
        """The lab member whose profile the name links to: none in exports, nor for the
        person a profile or CV is about."""
        if self.context == EXPORT or (is_context and self.context in (PROFILE, CV)):
            return None
        return row.person if row.person is not None and row.person.has_page else None

    def _markers(self, row: Authorship) -> tuple[Marker, ...]:
        if not (row.is_equal_contribution or row.is_corresponding):
            return ()
        on = ((EQUAL, row.is_equal_contribution), (CORRESPONDING, row.is_corresponding))
        return tuple(self.markers[code] for code, shown in on if shown)

    def _numbers(self, row: Authorship) -> tuple[int, ...]:
        """The row's affiliation number, on detail pages only."""
        if self.context != DETAIL or not row.affiliation:
            return ()
        if row.affiliation not in self.affiliations:
            self.affiliations.append(row.affiliation)
        return (self.affiliations.index(row.affiliation) + 1,)


def _shorten(names: list[Name], keep: int) -> list[Name]:
    """The first `keep` names, the context person (or, on a list about no one in particular,
    every lab member), and one "…" for each run of names left out."""
    has_context = any(n.is_context for n in names)
    shown = [
        i < keep or n.is_context or (not has_context and bool(n.url)) for i, n in enumerate(names)
    ]
    result = []
    for name, show in zip(names, shown, strict=True):
        if show:
            result.append(name)
        elif not result or not result[-1].is_gap:
            result.append(Name("…", is_gap=True))
    return result
