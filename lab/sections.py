"""The site's public sections, declared once: each one's addresses, whether and where the
menu and the home place it, the rows it shows and what makes one public, and its label.

Everything that must name every section reads this list: the menu (`MenuItem.Section`), the
home's kinds and their default places (`HomeSection.Kind`), the root URLs
(labsite/urls.py), the sitemap (labsite/sitemaps.py), the site's search (labsite/search.py:
every section with rows is searched, and a result is named by its section's `item`), the
tags' pages (labsite/pages/tags.py: every section with `tagged`) and, through those, the
static copy.
It sits in `lab`, below the content apps, so that their models can build their choices from
it; it therefore names models, URL modules and views by their dotted names, which the site
(labsite) resolves. Adding a section is its own module, its templates and one entry here.
"""

from dataclasses import dataclass

from django.apps import apps
from django.db import models
from django.utils import translation
from django.utils.functional import Promise, lazy
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

    def public_rows(self):
        """The public rows, as a queryset (the model is looked up when this is called, so
        that the registry imports no app)."""
        return getattr(apps.get_model(self.model).objects, self.public)()


@dataclass(frozen=True)
class Tagged:
    """How a section shows on a tag's page (/tags/<slug>/), under its label.

    `position`: its place on that page (papers, posts, talks, research, courses: not the
    registry's order). `builder`: the dotted path of the function that takes the section's
    public rows carrying the tag and returns what its fragment
    (templates/labsite/tagged/_<key>.html) reads: those rows as the section's own list shows
    them, under "rows". `anchor`: its heading's id, "<anchor>-heading". The section's model
    has a `tags` field (tags.models.TagsField), whose reverse relation the tags' list reads."""

    position: int
    builder: str
    anchor: str


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
    detail_kwarg: str = "slug"  # the URL argument naming the row
    item: Promise | None = None  # what one of its rows is called (a search result's kind)
    tagged: Tagged | None = None  # None: its rows carry no tags


@dataclass(frozen=True)
class HomeBlock:
    """A kind of section the home can show: its value in HomeSection rows, its label in the
    admin, its default place, and the dotted path of the function (row, lab) that builds
    its context (templates/labsite/home/_<kind>.html reads it) when its section's module
    holds it rather than labsite/pages/home.py."""

    kind: str
    label: Promise
    place: Place
    builder: str = ""


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
        item=_("Person"),
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
        item=_("Publication"),
        tagged=Tagged(10, "labsite.pages.tags.papers", anchor="publications"),
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
        item=_("Talk"),
        tagged=Tagged(30, "labsite.pages.tags.talks", anchor="talks"),
    ),
    Section(
        "awards",
        _("Awards"),
        list_url="talks:awards",
        pages=("talks", "awards"),
        menu=Place(40, shown=True),
        rows=Rows("talks.Award", "published", _PUBLISHED + _OWNER),
        item=_("Award"),
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
        item=_("News"),
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
        item=_("Post"),
        tagged=Tagged(20, "labsite.pages.tags.posts", anchor="posts"),
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
        item=_("Opening"),
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
        item=_("Research theme"),
        tagged=Tagged(40, "labsite.pages.tags.themes", anchor="themes"),
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
        item=_("Course"),
        tagged=Tagged(50, "labsite.pages.tags.courses", anchor="courses"),
    ),
    Section(
        "tags",
        _("Tags"),
        list_url="tags:list",
        pages=("tags", ""),
        prefix="tags/",
        urls="labsite.pages.tag_urls",
        detail_url="tags:detail",
        item=_("Tag"),
    ),
    # The lab's own pages (/join-us/): in no menu as a section (each page is placed on its
    # own), their URLs last of all the site's (labsite/urls.py).
    Section(
        "pages",
        _("Pages"),
        rows=Rows("website.Page", "published", _PUBLISHED),
        detail_url="website:page",
        detail_kwarg="address",
        item=_("Page"),
    ),
)

# What the home shows that is no section of the site: the lab's own words and looks.
HOME_ONLY = (
    HomeBlock("banner", _("Banner"), Place(5)),
    HomeBlock("about", _("About"), Place(10, shown=True)),
    HomeBlock("contact", _("Contact"), Place(80)),
)

BY_KEY = {section.key: section for section in SECTIONS}


@dataclass(frozen=True)
class ProfilePart:
    """A section of a member's profile and CV (the rows of one kind that are theirs): its
    key, kept in SectionIntroduction rows and Person.cv_sections, its heading, and its
    place on the CV (None: not on the CV). PROFILE_PARTS lists them in the profile's order."""

    key: str
    label: Promise
    cv_position: int | None = None


# The profile's sections in page order; the CV's in the order grant offices and hiring
# committees read them (cv_position).
PROFILE_PARTS = (
    ProfilePart("news", _("News")),
    ProfilePart("publications", _("Publications"), cv_position=40),
    ProfilePart("projects", _("Open Source & Projects"), cv_position=100),
    ProfilePart("contributions", _("Open-Source Contributions"), cv_position=110),
    ProfilePart("talks", _("Talks & Presentations"), cv_position=60),
    ProfilePart("teaching", _("Teaching"), cv_position=70),
    ProfilePart("experience", _("Experience"), cv_position=20),
    ProfilePart("education", _("Education"), cv_position=10),
    ProfilePart("awards", _("Honors & Awards"), cv_position=30),
    ProfilePart("service", _("Academic Service"), cv_position=80),
    ProfilePart("writing", _("Writing"), cv_position=120),
    ProfilePart("patents", _("Patents"), cv_position=50),
)
PROFILE_ORDER = tuple(part.key for part in PROFILE_PARTS)
CV_ORDER = tuple(
    part.key
    for part in sorted(PROFILE_PARTS, key=lambda part: part.cv_position or 0)
    if part.cv_position is not None
)


def home_blocks():
    """Every kind of home section, by its default place."""
    blocks = [section.home for section in SECTIONS if section.home] + list(HOME_ONLY)
    return sorted(blocks, key=lambda block: block.place.position)


def tagged_sections():
    """The sections whose rows a tag's page lists, in the page's order."""
    return sorted((s for s in SECTIONS if s.tagged), key=lambda s: s.tagged.position)


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


def profile_choices():
    """SectionIntroduction.Section: the profile's sections, in page order."""
    return models.TextChoices(
        "Section", [(part.key.upper(), (part.key, part.label)) for part in PROFILE_PARTS]
    )


def _places_described(choices):
    """'Sections not listed here stand at 10 (People), …; Posts, … show once listed here.'
    in English (the help texts' language), from the default places of `choices`."""
    with translation.override("en"):
        shown = [f"{m.default_position} ({m.label})" for m in choices if m.shown_by_default]
        hidden = [str(m.label) for m in choices if not m.shown_by_default]
    text = "Sections not listed here stand at " + ", ".join(shown)
    if hidden:
        last = hidden.pop()
        text += f"; {', '.join(hidden)} and {last}" if hidden else f"; {last}"
        text += " show once listed here"
    return text + "."


places_described = lazy(_places_described, str)
