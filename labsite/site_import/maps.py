"""Sites read through a declared map of their generator (issue 49's "site readers as
data"): where the owner, the collections and the pages are, and which key of each item
says what; one reader (`read`) walks any map. academicpages (the Jekyll "Academic Pages"
template) is read this way: `_config.yml`'s `author` block, `_pages/`, `_publications/`,
`_talks/`, `_teaching/`, `_portfolio/`, `_posts/`, `_drafts/`, `_data/navigation.yml`,
and the `files/` its pages link to. Hugo's paper pages have a map here too
(`HUGO_PUBLICATION`), which the `hugo` package reads them through."""

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from labsite.site_import import alfolio
from labsite.site_import.alfolio import pages as alfolio_pages
from labsite.site_import.alfolio import posts as alfolio_posts
from labsite.site_import.site import (
    ORGANISATION,
    Site,
    SiteCourse,
    SitePerson,
    SiteProject,
    SiteTalk,
    Unreadable,
    add_link,
    clean_markdown,
    date_of,
    featured_image,
    front_matter,
    inside,
    load_yaml,
    plain,
    web_url,
)
from publications.importing import AuthorRecord, Record
from publications.importing.records import clean_doi
from publications.models import Publication


@dataclass(frozen=True)
class Collection:
    folder: str  # "_publications"
    kind: str  # what each item becomes (in a SiteMap, a key of BUILDERS)
    # what → the item's keys that say it, the first one given winning
    fields: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class SiteMap:
    generator: str
    markers: tuple[str, ...]  # folders whose presence says a site is of this generator
    config: str
    owner_block: str  # the configuration's mapping that describes the owner
    owner_fields: dict[str, tuple[str, ...]]
    # the owner's profile keys: the address each stands for ("{}": the value itself)
    owner_links: dict[str, str]
    collections: tuple[Collection, ...]
    navigation: str  # the data file that lists the menu
    samples: re.Pattern[str]  # the titles of the template's own sample items
    placeholders: re.Pattern[str]  # the template's own words for a name or description
    sample_pages: frozenset[str]  # the template's own pages, by their address
    keys: dict[str, tuple[str, str]]  # the ledger's map: keys no reader reads, and why
    kinds: dict[str, str] = field(default_factory=dict)  # a paper's category → its kind


THEME = "a setting of the academicpages theme (labsite's own pages decide it)"
ACADEMICPAGES = SiteMap(
    generator="academicpages",
    markers=("_publications", "_talks", "_teaching", "_portfolio"),
    config="_config.yml",
    owner_block="author",
    owner_fields={
        "name": ("name",),
        "title": ("bio",),
        "affiliation": ("employer",),
        "email": ("email",),
        "photo": ("avatar",),
    },
    owner_links={
        "googlescholar": "{}",
        "google_scholar": "{}",
        "researchgate": "{}",
        "orcid": "{}",
        "uri": "{}",
        "website": "{}",
        "github": "https://github.com/{}",
        "linkedin": "https://www.linkedin.com/in/{}",
        "twitter": "https://x.com/{}",
        "bluesky": "https://bsky.app/profile/{}",
        "gitlab": "https://gitlab.com/{}",
        "stackoverflow": "https://stackoverflow.com/users/{}",
        "youtube": "https://www.youtube.com/@{}",
        "semantic": "{}",
        "dblp": "{}",
        "scopus": "{}",
        "impactstory": "https://impactstory.org/u/{}",
        "pubmed": "{}",
        "arxiv": "{}",
        "mastodon": "{}",
        "kaggle": "https://www.kaggle.com/{}",
        "bitbucket": "https://bitbucket.org/{}",
        "wikipedia": "https://en.wikipedia.org/wiki/{}",
        "instagram": "https://www.instagram.com/{}",
        "facebook": "https://www.facebook.com/{}",
    },
    collections=(
        Collection(
            "_publications",
            "publication",
            {
                "title": ("title",),
                "date": ("date", "year"),
                "venue": ("venue",),
                "url": ("paperurl", "paper_url", "link", "scholarurl"),
                "slides": ("slidesurl",),
                "bibtex": ("bibtexurl",),
                "citation": ("citation",),
                "abstract": ("abstract", "excerpt"),
                "category": ("category", "type"),
                "authors": ("authors",),
                "credit": ("credit",),
            },
        ),
        Collection(
            "_talks",
            "talk",
            {
                "title": ("title",),
                "date": ("date",),
                "event": ("venue",),
                "city": ("location",),
                "slides": ("slidesurl",),
                "video": ("videourl",),
                "kind": ("type",),
                "event_url": ("talk_url",),
            },
        ),
        Collection(
            "_teaching",
            "course",
            {
                "title": ("title",),
                "date": ("date",),
                "institution": ("venue",),
                "level": ("type",),
                "location": ("location",),
            },
        ),
        Collection(
            "_portfolio",
            "project",
            {"title": ("title",), "summary": ("excerpt",), "date": ("date",)},
        ),
        Collection("_posts", "post"),
        Collection("_drafts", "draft"),
    ),
    navigation="_data/navigation.yml",
    placeholders=re.compile(r"^(?:personal description|your name|your sidebar name)$", re.I),
    samples=re.compile(
        r"^(?:paper title number \d+|(?:talk|tutorial|conference proceeding talk) \d+ on "
        r"relevant topic in your field|teaching experience \d+|portfolio item number \d+|"
        r"blog post number \d+|future blog post|draft post)$",
        re.I,
    ),
    sample_pages=frozenset(
        {
            "/markdown/",
            "/non-menu-page/",
            "/archive-layout-with-content/",
            "/terms/",
            "/404.html",
            "/sitemap/",
            "/talkmap.html",
            "/markdown",
        }
    ),
    keys=alfolio.KEYS
    | {
        key: ("setting", THEME)
        for key in (
            "collection",
            "permalink",
            "author_profile",
            "redirect_from",
            "classes",
            "sidebar",
            "share",
            "related",
            "read_time",
            "header",
            "entries_layout",
            "excerpt_separator",
            "toc_label",
            "toc_icon",
            "canonical_url",
            "modified",
        )
    },
    kinds={
        "manuscripts": Publication.Kind.JOURNAL,
        "journal": Publication.Kind.JOURNAL,
        "conferences": Publication.Kind.CONFERENCE,
        "conference": Publication.Kind.CONFERENCE,
        "books": Publication.Kind.BOOK,
        "book": Publication.Kind.BOOK,
        "preprints": Publication.Kind.PREPRINT,
        "theses": Publication.Kind.THESIS,
        "conferenceproceedings": Publication.Kind.CONFERENCE,
        "posters": Publication.Kind.POSTER,
    },
)
MAPS = (ACADEMICPAGES,)
IMAGES = ("images", "assets/images", "assets/img")
DOI_IN_TEXT = re.compile(r"\b(10\.\d{4,9}/[^\s\"'<>]+[^\s\"'<>.,;)])")


def site_map(root: Path) -> SiteMap | None:
    """The map of the generator whose site `root` is: its marker folders, with no
    `_bibliography` (al-folio's)."""
    for candidate in MAPS:
        if not (root / "_bibliography").is_dir() and any(
            (root / marker).is_dir() for marker in candidate.markers
        ):
            return candidate
    return None


# Hugo's pages (Academic to Hugo Blox) as maps of the same kind: which front matter keys say
# what. The hugo package reads each kind of page through its map, the first key given
# winning (`given`) as Hugo's templates read them, except a paper's page (`field_value`).
HUGO_PUBLICATION = Collection(
    "content/publication",
    "publication",
    {
        "title": ("title",),
        "date": ("date",),
        "types": ("publication_types",),
        "venue": ("publication",),
        "venue_short": ("publication_short",),
        "doi": ("doi",),
        "abstract": ("abstract",),
        "summary": ("summary",),
        "selected": ("featured",),
        "authors": ("authors",),
        "author_notes": ("author_notes",),
        "identifiers": ("hugoblox",),
    },
)
HUGO_EVENT = Collection(
    "content/event",
    "talk",
    {
        "title": ("title",),
        "date": ("event_start", "date"),
        "address": ("address",),
        "city": ("location",),  # older Academic: the address in one line
        "event": ("event", "event_name"),
        "event_url": ("event_url",),
        "description": ("abstract", "summary"),
        "speakers": ("authors",),
    },
)
HUGO_PROJECT = Collection(
    "content/project",
    "project",
    {"title": ("title",), "summary": ("summary",), "url": ("external_link",)},
)
HUGO_COURSE = Collection(
    "content/teaching",
    "course",
    {
        "title": ("title",),
        "institution": ("venue", "institution"),
        "role": ("role",),
        "date": ("date",),
        "summary": ("summary",),
    },
)
HUGO_NEWS = Collection("content/news", "news", {"title": ("title",), "date": ("date",)})
HUGO_POST = Collection(
    "content/post",
    "post",
    {
        "title": ("title",),
        # as Hugo dates a page by default: `date`, else `publishDate`, else `lastmod`
        "date": ("date", "publishDate", "lastmod"),
        "summary": ("summary",),
        "authors": ("authors",),
        "url": ("external_link",),  # where the post really is, when the site only links to it
    },
)
# A person's page in a lab's section of people (content/people/ada/index.md), as lab themes
# write it beside Wowchemy's author words.
HUGO_MEMBER = Collection(
    "content/people",
    "person",
    {"name": ("name", "title"), "roles": ("role", "position"), "photo": ("avatar", "photo")},
)
# The rows of an author's experience (Academic's `experience`, Hugo Blox's `work`), awards,
# and education (Academic's `education.courses`, Hugo Blox's list-form `education`).
HUGO_EXPERIENCE = Collection(
    "data/authors",
    "experience",
    {
        "title": ("role", "title", "position"),
        "organization": ("org", "company", "company_name", "organization"),
        "location": ("location", "company_location"),
        "start": ("start", "date_start"),
        "end": ("end", "date_end"),
        "description": ("summary", "description"),
    },
)
HUGO_AWARD = Collection(
    "data/authors",
    "award",
    {"name": ("title", "name"), "awarded_by": ("awarder",), "date": ("date",)},
)
HUGO_EDUCATION = Collection(
    "data/authors",
    "education",
    {
        "degree": ("degree", "area", "course"),
        "institution": ("institution", "school"),
        "location": ("location",),
        "start": ("start", "date_start"),
        "end": ("end", "date_end"),
        "year": ("year",),
        "description": ("summary", "description"),
    },
)


def field_value(values: dict[str, Any], collection: Collection, what: str) -> Any:
    """The value of the first key the map names for `what` that holds one, else None."""
    return _value(values, collection, what)


def given(values: dict[str, Any], collection: Collection, what: str) -> Any:
    """The value of the first key the map names for `what` that holds a true one, as `a or b`
    reads them: no key after it is asked for (the ledger counts those unread), and with none
    given, the last key's value."""
    value = None
    for key in collection.fields[what]:
        value = values.get(key)
        if value:
            break
    return value


def read(site: Site, sitemap: SiteMap, owner_name: str = "") -> None:
    config = _config(site, sitemap)
    owner = SitePerson(key="owner", name="", source=sitemap.config, is_owner=True)
    site.people.append(owner)
    _owner(site, sitemap, config, owner)
    owner.name = owner_name or owner.name or plain(config.get("name"))
    if not owner.name:
        owner.name = "Owner"
        site.skip(sitemap.config, "the site does not name its owner; the profile is “Owner”")
    site.title = plain(config.get("title")) or owner.name
    site.tagline = plain(config.get("description"))
    if sitemap.placeholders.match(site.tagline):
        site.leftovers.append(f"{sitemap.config}: description “{site.tagline}”, the template's")
        site.tagline = ""
    menu = _menu(site, sitemap)
    for collection in sitemap.collections:
        items = alfolio_pages.collection_items(site.root / collection.folder)
        site.each(items, partial(_item, site, sitemap, collection))
    pages = alfolio_pages.collection_items(site.root / "_pages")
    site.each(pages, lambda path: _page(site, sitemap, owner, menu, path))
    _lab_account(site, owner)


def _lab_account(site: Site, owner: SitePerson) -> None:
    """The configuration's author is the lab's own account (its text the lab's About), not a
    person, when its name says so (a lab, a group, a centre, or the site's own title), or
    when the site lists its people in a collection and the author is none of them; the
    first member then owns the site."""
    members = [p for p in site.people if p is not owner]
    # (an academicpages site is titled with its owner's name: that alone says no lab)
    names_the_lab = bool(ORGANISATION.search(owner.name))
    if not names_the_lab and (not members or owner.name in {p.name for p in members}):
        return
    site.people.remove(owner)
    site.organisations.append(f"{owner.source}: {owner.name}")
    if not site.about:
        site.about, site.about_source = owner.bio, owner.source
    if members:
        members[0].is_owner = True
    if owner.links:
        site.no_home.append(f"{owner.source}: the lab's links ({len(owner.links)}; not a person)")


def _config(site: Site, sitemap: SiteMap) -> dict[str, Any]:
    path = site.root / sitemap.config
    found: list[Any] = []
    site.each([path] if path.is_file() else [], lambda p: found.append(load_yaml(site, p)))
    if found and isinstance(found[0], dict):
        site.lands(path, "the lab's settings and its owner's profile")
        return found[0]
    return {}


def _owner(site: Site, sitemap: SiteMap, config: dict[str, Any], owner: SitePerson) -> None:
    """The owner's profile from the configuration's author block: each key that holds a
    value lands or is named."""
    block = config.get(sitemap.owner_block)
    if not isinstance(block, dict):
        return
    taken = set()
    for what, keys in sitemap.owner_fields.items():
        key = next((k for k in keys if plain(block.get(k))), "")
        if not key:
            continue
        taken.add(key)
        value = str(block[key]).strip()
        if what == "photo":
            owner.photo = inside(site, value, *IMAGES)
            if owner.photo is None:
                site.no_home.append(f"{sitemap.config}: the photo {value} (not in the folder)")
        else:
            setattr(owner, what, plain(value)[:200] if what == "title" else plain(value))
    for key, value in block.items():
        if key in taken or value in (None, "", False):
            continue
        pattern = sitemap.owner_links.get(str(key))
        text = str(value).strip()
        url = web_url(text) or (pattern.format(text.lstrip("@")) if pattern else "")
        if url and add_link(owner, str(key), url):
            continue
        site.no_home.append(f"{sitemap.config}: {sitemap.owner_block}.{key} ({plain(text)[:80]})")


def _menu(site: Site, sitemap: SiteMap) -> set[str]:
    """The addresses the site's menu lists."""
    path = site.root / sitemap.navigation
    found: set[str] = set()

    def read_one(path: Path) -> None:
        data = load_yaml(site, path)
        entries = data.get("main") if isinstance(data, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict) and entry.get("url"):
                found.add("/" + str(entry["url"]).strip("/") + "/")
        site.lands(path, "the menu (the pages it lists are in the lab's menu)")

    site.each([path] if path.is_file() else [], read_one)
    return found


def _values(values: dict[str, Any], collection: Collection, what: str) -> dict[str, Any]:
    """{key: value} of every key that says `what` and holds a value, in the map's order."""
    keys = collection.fields.get(what, ())
    return {k: values.get(k) for k in keys if values.get(k) not in (None, "")}


def _value(values: dict[str, Any], collection: Collection, what: str) -> Any:
    return next(iter(_values(values, collection, what).values()), None)


def _item(site: Site, sitemap: SiteMap, collection: Collection, path: Path) -> None:
    if collection.kind in ("post", "draft"):
        _post(site, sitemap, path, draft=collection.kind == "draft")
        return
    values, body = front_matter(site, path)
    name = site.name(path)
    title = plain(_value(values, collection, "title"))
    if not title:
        raise Unreadable(name, f"the {collection.kind} has no title")
    if sitemap.samples.match(title):
        site.leftovers.append(f"{name}: the template's sample {collection.kind}")
        return
    BUILDERS[collection.kind](site, sitemap, collection, path, values, body, title)


def _post(site: Site, sitemap: SiteMap, path: Path, *, draft: bool) -> None:
    values, _ = front_matter(site, path)
    if sitemap.samples.match(plain(values.get("title"))):
        site.leftovers.append(f"{site.name(path)}: the template's sample post")
        return
    alfolio_posts.read_post(site, path, draft=draft)


def _date(site: Site, values: dict[str, Any], collection: Collection, path: Path) -> Any:
    return date_of(_value(values, collection, "date")) or date_of(path.name[:10])


def _publication(
    site: Site, sitemap: SiteMap, collection: Collection, path: Path, values, body, title
) -> None:
    name = site.name(path)
    record = Record(label=name, title=title)
    record.date = _date(site, values, collection, path)
    record.venue_name = plain(_value(values, collection, "venue"))
    category = plain(_value(values, collection, "category")).lower()
    record.kind = next(
        (sitemap.kinds[c] for c in re.split(r"[,\s]+", category) if c in sitemap.kinds),
        Publication.Kind.OTHER,
    )
    record.authors = _printed_authors(plain(_value(values, collection, "authors")))
    credit = plain(_value(values, collection, "credit"))
    if credit:
        record.source_fields["credit"] = credit  # the author's contribution, kept
    _addresses(record, values, collection)
    citation = plain(_value(values, collection, "citation")).strip("\ufeff")
    if citation:
        # the formatted reference the page shows: its DOI is read; the text is kept with the
        # paper (its author list is not parsed from it)
        record.source_fields["citation"] = citation
        if match := DOI_IN_TEXT.search(citation):
            record.doi = clean_doi(match[1])
    excerpt = clean_markdown(str(_value(values, collection, "abstract") or ""))
    text = clean_markdown(body)
    record.abstract = excerpt if len(excerpt) >= len(text) else text
    image = featured_image(site, path, values)
    if image:
        site.paper_images[id(record)] = (image, name)
    tags = alfolio_posts.words(values.get("tags"))
    if tags:  # the paper's tags, as its keywords are
        record.source_fields["keywords"] = ", ".join(tags)
    site.records.append(record)


def _printed_authors(printed: str) -> list[AuthorRecord]:
    """The authors of a page's `authors` line ("Gautheron L., Rochat N. and Cristia A.")."""
    authors = []
    for one in re.split(r",\s*(?![A-Z]\.)|\s+and\s+|;\s*", printed):
        first, family = _name_parts(one.strip(" ,"))
        if family:
            authors.append(AuthorRecord(given=first, family=family))
    return authors


def _addresses(record: Record, values: dict[str, Any], collection: Collection) -> None:
    """The paper's address (a PDF's, else its page's) and its slides'; a second address kept
    with the paper; a file of the site (not imported) named with its BibTeX file's."""
    urls = {
        k: str(v).strip().strip("\ufeff") for k, v in _values(values, collection, "url").items()
    }
    url = next(iter(urls.values()), "")
    for key, other in urls.items():
        if other != url:
            record.source_fields[key] = other  # a second address the page gives, kept
    if web_url(url):
        if url.lower().split("?")[0].endswith(".pdf"):
            record.pdf_url = url
        else:
            record.url = url
    elif url:
        record.files.append(f"paperurl “{url[:100]}”")
    slides = str(_value(values, collection, "slides") or "").strip()
    if web_url(slides):
        record.slides_url = slides
    elif slides:
        record.files.append(f"slidesurl “{slides[:100]}”")
    bibtex = str(_value(values, collection, "bibtex") or "").strip()
    if bibtex:
        record.files.append(f"bibtexurl “{bibtex[:100]}” (the paper's BibTeX file)")


def _name_parts(printed: str) -> tuple[str, str]:
    """(given, family) of a printed author: "Gautheron L." (family first, then initials),
    "Lucas Gautheron", "Gautheron, Lucas"."""
    if "," in printed:
        family, _, given = printed.partition(",")
        return given.strip(), family.strip()
    if match := re.fullmatch(r"(.+?)\s+((?:[A-Z]\.\s?-?)+)", printed):
        return match[2].strip(), match[1].strip()
    given, _, family = printed.rpartition(" ")
    return given, family


def _talk(site: Site, sitemap: SiteMap, collection: Collection, path: Path, values, body, title):
    date = _date(site, values, collection, path)
    if date is None:
        raise Unreadable(site.name(path), "the talk has no date")
    slides = str(_value(values, collection, "slides") or "").strip()
    video = str(_value(values, collection, "video") or "").strip()
    for label, link in (("slidesurl", slides), ("videourl", video)):
        if link and not web_url(link):
            site.no_home.append(f"{site.name(path)}: {label} {link} (a file of the site)")
    kind = plain(_value(values, collection, "kind"))
    description = clean_markdown(body)
    site.talks.append(
        SiteTalk(
            title=title,
            date=date,
            source=site.name(path),
            event=plain(_value(values, collection, "event")),
            event_url=web_url(_value(values, collection, "event_url")),
            city=plain(_value(values, collection, "city")),
            slides_url=web_url(slides),
            video_url=web_url(video),
            description="\n\n".join(t for t in (f"*{kind}*" if kind else "", description) if t),
            image=featured_image(site, path, values),
        )
    )


def _course(site: Site, sitemap: SiteMap, collection: Collection, path: Path, values, body, title):
    institution = plain(_value(values, collection, "institution"))
    location = plain(_value(values, collection, "location"))
    level = plain(_value(values, collection, "level"))
    site.courses.append(
        SiteCourse(
            title=title,
            source=site.name(path),
            institution=", ".join(t for t in (institution, location) if t),
            start=_date(site, values, collection, path),
            description="\n\n".join(
                t for t in (f"*{level}*" if level else "", clean_markdown(body)) if t
            ),
            image=featured_image(site, path, values),
        )
    )


TEASER = re.compile(r"""<img\b[^>]*?\bsrc\s*=\s*["']?([^"'\s>]+)[^>]*>""", re.I)
MEMBER_CATEGORY = re.compile(r"member|people|team|alumn|student|staff", re.I)


def _project(site: Site, sitemap: SiteMap, collection: Collection, path: Path, values, body, title):
    category = plain(values.get("category"))
    excerpt = str(_value(values, collection, "summary") or "")
    # the teaser image academicpages shows in the portfolio's list, written in the excerpt
    teaser = TEASER.search(excerpt)
    summary = plain(clean_markdown(TEASER.sub("", excerpt)))
    if MEMBER_CATEGORY.search(category):  # a lab's people, kept as portfolio items
        person = SitePerson(key=path.stem, name=title, source=site.name(path))
        person.title = summary[:200]
        person.bio = clean_markdown(re.sub(r"<(?!img\b)[^>]+>", " ", body))
        person.groups = [category]
        if teaser:  # their photo
            person.photo = inside(site, teaser[1], *IMAGES)
            if person.photo is None:
                site.no_home.append(f"{person.source}: the photo {teaser[1]} (not in the folder)")
        site.people.append(person)
        return
    text = clean_markdown(body)
    site.projects.append(
        SiteProject(
            title=title,
            description="\n\n".join(t for t in (summary, text) if t),
            source=site.name(path),
            image=featured_image(site, path, values) or (teaser[1] if teaser else ""),
        )
    )
    _value(values, collection, "date")  # read: a project is not dated here


BUILDERS: dict[str, Callable[..., None]] = {
    "publication": _publication,
    "talk": _talk,
    "course": _course,
    "project": _project,
}


def _page(site: Site, sitemap: SiteMap, owner: SitePerson, menu: set[str], path: Path) -> None:
    """The site's pages: the one at `/` (about.md) is the owner's biography; the template's
    own sample pages are left out; the rest are the lab's pages, in the menu when the
    site's navigation lists them."""
    values, body = front_matter(site, path)
    address = str(values.get("permalink") or "")
    if address in sitemap.sample_pages:
        site.leftovers.append(f"{site.name(path)}: the template's sample page")
        return
    if address == "/" or path.stem == "about":
        text = clean_markdown(body)
        if owner.bio and text and text != owner.bio:  # two pages at the site's root
            site.no_home.append(
                f"{site.name(path)}: its text (another page at {address or '/about/'}; the "
                f"owner's biography is {owner.source}'s)"
            )
            return
        owner.name = owner.name or plain(values.get("title"))
        owner.bio = owner.bio or text
        owner.source = site.name(path)
        site.lands(path, "the owner's biography")
        return
    count = len(site.pages)
    alfolio_pages.read_page(site, path)
    if len(site.pages) > count:
        page = site.pages[-1]
        page.in_menu = ("/" + address.strip("/") + "/") in menu
