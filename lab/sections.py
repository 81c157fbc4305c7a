"""The site's public sections, declared once: each one's addresses, whether and where the
menu and the home place it, the rows it shows and what makes one public, and its label.

Everything that must name every section reads this list: the menu (`MenuItem.Section`), the
home's kinds and their default places (`HomeSection.Kind`), the root URLs
(labsite/urls.py), the sitemap (labsite/sitemaps.py) and, through those, the static copy.
It sits in `lab`, below the content apps, so that their models can build their choices from
it; it therefore names models, URL modules and views by their dotted names, which the site
(labsite) resolves. Adding a section is its own module, its templates and one entry here.
"""

from dataclasses import dataclass

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Place:
    """Where the menu or the home puts a section while no row of the lab admin's places it:
    at `position`, shown or not (a section every lab has is shown; one a lab may not use
    shows once the lab admin places it). `count`: how many items a home list shows."""

    position: int
    shown: bool = False
    count: int | None = None


@dataclass(frozen=True)
class Rows:
    """The rows a section lists: a model by its label ("website.Course"), the queryset
    method that keeps the public ones, and what that method means (written down here, for
    every section, in one place)."""

    model: str
    public: str
    rule: str


@dataclass(frozen=True)
class Section:
    """One public section of the site."""

    key: str  # the menu's value for it, kept in MenuItem rows
    label: Promise  # its name in the menu, in either language
    list_url: str = ""  # the URL name of its list page
    # The (URL namespace or name, URL name) of the pages that are in it ("" matches any).
    pages: tuple[str, str] = ("", "")
    prefix: str = ""  # the path its URLs are included at, and the module that holds them
    urls: str = ""
    menu: Place | None = None
    home: "HomeBlock | None" = None
    rows: Rows | None = None
    detail_url: str = ""  # the URL name of one row's page, when rows have pages


@dataclass(frozen=True)
class HomeBlock:
    """A kind of section the home can show: its value in HomeSection rows, its label in the
    admin, and its default place."""

    kind: str
    label: Promise
    place: Place


_PUBLISHED = "the published flag is ticked"
_OWNER = "; on a personal site (PERSONAL_SITE), only the owner's"

SECTIONS = (
    Section(
        "people",
        _("People"),
        list_url="people:team",
        pages=("people", ""),
        prefix="people/",
        urls="labsite.pages.people_urls",
        menu=Place(10, shown=True),
        home=HomeBlock("team", _("Team"), Place(20, shown=True)),
        rows=Rows("people.Person", "published", _PUBLISHED + _OWNER),
        detail_url="people:detail",
    ),
    Section(
        "publications",
        _("Publications"),
        list_url="publications:list",
        pages=("publications", ""),
        prefix="publications/",
        urls="publications.urls",
        menu=Place(20, shown=True),
        home=HomeBlock("publications", _("Publications"), Place(30, shown=True, count=6)),
        rows=Rows("publications.Publication", "published", _PUBLISHED + _OWNER),
        detail_url="publications:detail",
    ),
    Section(
        "talks",
        _("Talks"),
        list_url="talks:list",
        pages=("talks", "list"),
        urls="talks.urls",  # at the root: /talks/ and /awards/
        menu=Place(30, shown=True),
        rows=Rows("talks.Talk", "published", _PUBLISHED + _OWNER),
        detail_url="talks:detail",
    ),
    Section(
        "awards",
        _("Awards"),
        list_url="talks:awards",
        pages=("talks", "awards"),
        menu=Place(40, shown=True),
        rows=Rows("talks.Award", "published", _PUBLISHED + _OWNER),
    ),
    Section(
        "news",
        _("News"),
        list_url="news",
        pages=("news", ""),
        prefix="news/",
        urls="labsite.pages.news_urls",
        menu=Place(50, shown=True),
        home=HomeBlock("news", _("News"), Place(40, shown=True, count=5)),
        rows=Rows(
            "people.NewsItem",
            "published",
            _PUBLISHED + " and the news is lab-wide or about a published person" + _OWNER,
        ),
    ),
    Section(
        "posts",
        _("Posts"),
        list_url="posts:list",
        pages=("posts", ""),
        prefix="posts/",
        urls="website.post_urls",
        menu=Place(60),
        home=HomeBlock("posts", _("Posts"), Place(70, count=3)),
        rows=Rows("website.Post", "published", _PUBLISHED + " and dated today or before" + _OWNER),
        detail_url="posts:detail",
    ),
    Section(
        "openings",
        _("Openings"),
        list_url="openings:list",
        pages=("openings", ""),
        prefix="openings/",
        urls="website.opening_urls",
        menu=Place(70),
        home=HomeBlock("openings", _("Openings"), Place(60, count=5)),
        # Search engines drop a job posting once it has closed: the sitemap, like the list,
        # names the open ones (a closed one keeps its page).
        rows=Rows("website.Opening", "open", _PUBLISHED + ", not closed and not past its deadline"),
        detail_url="openings:detail",
    ),
    Section(
        "research",
        _("Research"),
        list_url="themes:list",
        pages=("themes", ""),
        prefix="themes/",
        urls="website.theme_urls",
        menu=Place(80),
        home=HomeBlock("themes", _("Research themes"), Place(50, count=6)),
        rows=Rows("website.Theme", "published", _PUBLISHED),
        detail_url="themes:detail",
    ),
    Section(
        "teaching",
        _("Teaching"),
        list_url="teaching:list",
        pages=("teaching", ""),
        prefix="teaching/",
        urls="website.teaching_urls",
        menu=Place(90),
        rows=Rows("website.Course", "published", _PUBLISHED + _OWNER),
        detail_url="teaching:detail",
    ),
    Section(
        "tags",
        _("Tags"),
        list_url="tags:list",
        pages=("tags", ""),
        prefix="tags/",
        urls="labsite.pages.tag_urls",
        detail_url="tags:detail",
    ),
)

# What the home shows that is no section of the site: the lab's own words and looks.
HOME_ONLY = (
    HomeBlock("banner", _("Banner"), Place(5)),
    HomeBlock("about", _("About"), Place(10, shown=True)),
    HomeBlock("contact", _("Contact"), Place(80)),
)

BY_KEY = {section.key: section for section in SECTIONS}


def home_blocks():
    """Every kind of home section, by its default place."""
    blocks = [section.home for section in SECTIONS if section.home] + list(HOME_ONLY)
    return sorted(blocks, key=lambda block: block.place.position)


def _choices(name, members, places):
    """A TextChoices class of `members` ((value, label), …) whose members know their
    default place: `default_position` and `shown_by_default`."""
    choices = models.TextChoices(
        name, [(value.upper(), (value, label)) for value, label in members]
    )
    choices.default_position = property(lambda self: places[self.value].position)  # type: ignore[attr-defined]
    choices.shown_by_default = property(lambda self: places[self.value].shown)  # type: ignore[attr-defined]
    return choices


def menu_choices():
    """MenuItem.Section: the sections the menu can place, in their default order."""
    placed = [section for section in SECTIONS if section.menu]
    places = {section.key: section.menu for section in placed}
    return _choices("Section", [(s.key, s.label) for s in placed], places)


def home_choices():
    """HomeSection.Kind: what the home can show, in its default order; each member also
    knows `default_count`, how many items it lists while its row says nothing (None: no
    list of a chosen length)."""
    blocks = home_blocks()
    places = {block.kind: block.place for block in blocks}
    kinds = _choices("Kind", [(block.kind, block.label) for block in blocks], places)
    kinds.default_count = property(lambda self: places[self.value].count)
    return kinds


def defaults_described(places):
    """'10 (People), 20 (Publications)…' for the help texts: the places shown by default."""
    return ", ".join(f"{place.position} ({label})" for label, place in places if place.shown)
