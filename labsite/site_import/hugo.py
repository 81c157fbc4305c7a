"""A Hugo Blox site (Hugo Academic 4 (2019) through Wowchemy 5 to Hugo Blox 0.x (2026);
"Academic", "academic-cv", "research-group" layouts, one language or several): people in
`data/authors/*.yaml` or `content/authors/*/_index.md` (both schemas: `social`,
`education.courses` and `user_groups` of Academic; `profiles`, list-form `education`,
`work`, `awards` of Hugo Blox), `content/publication(s)/*/index.md` with `cite.bib` beside
them, talks in `content/event(s)/`, `content/project(s)/`, posts, courses in `content/teaching/`
and `content/courses/`, `content/experience.md`, and the site's title and description from
its configuration."""

import re
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from core.partial_dates import PartialDate
from labsite.site_import.ledger import Tracked
from labsite.site_import.maps import HUGO_PUBLICATION, field_value
from labsite.site_import.site import (
    ORGANISATION,
    Site,
    SiteCourse,
    SiteNews,
    SitePage,
    SitePerson,
    SitePost,
    SiteProblem,
    SiteProject,
    SiteTalk,
    Unreadable,
    add_link,
    clean_markdown,
    date_of,
    featured_image,
    front_matter,
    has_form,
    inside,
    is_hidden,
    load_data,
    plain,
    read_text,
    split_roles,
    values_of_page,
    web_url,
)
from publications.exports import CSL_TYPES
from publications.importing import AuthorRecord, ImportProblem, Record, read_bibtex
from publications.importing.records import clean_doi
from publications.models import Publication

GENERATOR = "Hugo Blox"
CONFIGS = ("config/_default", "hugo.yaml", "hugo.toml", "config.yaml", "config.toml")
KINDS = {csl: kind for kind, csl in reversed(CSL_TYPES.items())} | {
    "article": Publication.Kind.PREPRINT,
    "manuscript": Publication.Kind.PREPRINT,
}
# Older Academic numbered its publication types (0 uncategorized … 8 book chapter).
NUMBERED_KINDS = {
    "1": Publication.Kind.CONFERENCE,
    "2": Publication.Kind.JOURNAL,
    "3": Publication.Kind.PREPRINT,
    "4": Publication.Kind.REPORT,
    "5": Publication.Kind.BOOK,
    "6": Publication.Kind.CHAPTER,
    "7": Publication.Kind.THESIS,
    "8": Publication.Kind.PATENT,
}
NOTES = {"equal contribution": "is_equal_contribution", "corresponding author": "is_corresponding"}
LINK_FIELDS = {
    "pdf": "pdf_url",
    "code": "code_url",
    "slides": "slides_url",
    "video": "video_url",
    "project": "project_url",
    "site": "project_url",
    "poster": "poster_url",
    "dataset": "dataset_url",
}
# A membership written as its organisation ("2015-2017", "2019 - present", "2021-"), as
# lab sites on the People widget do to show years under a name.
YEARS = re.compile(
    r"^\s*((?:19|20)\d{2})\s*(?:[-–—~至到]\s*((?:19|20)\d{2}|now|present|至今)?)?\s*$", re.I
)
# How the starters describe themselves ("A highly-customizable Hugo research group theme
# powered by Wowchemy website builder."), which a site that never changed it still carries.
STARTER_DESCRIPTION = re.compile(
    r"powered by (?:wowchemy|hugo ?blox|academic)|highly[- ]customi[sz]able hugo|"
    r"(?:the )?(?:hugo|wowchemy) (?:academic )?(?:resume|research group|cv) (?:theme|template)",
    re.I,
)
# Sections read (people, papers, talks, projects, posts) or settings of the page layout.
READ = {
    "authors", "publication", "publications", "event", "events", "talk", "talks", "project",
    "projects", "news", "post", "posts", "blog", "home",  # home: the page's widget settings
    "teaching", "courses",
}  # fmt: skip


THEME = "a setting of the Hugo theme's page (labsite's own pages decide it)"
# The keys of Hugo Blox front matter that no reader reads, and why: the ledger's map.
KEYS = {
    key: ("setting", THEME)
    for key in (
        "math", "highlight", "cms_exclude", "view", "headless", "active", "design",
        "advanced", "show_date", "date_format", "layout", "reading_time", "share",
        "profile", "commentable", "editable", "show_related", "aliases", "menu", "toc",
        "linktitle", "private", "sharing", "show_breadcrumb", "pager", "diagram", "cascade",
        "outputs", "_build", "markup", "highlight_name", "image_preview", "preview_only",
        "icon", "icon_pack", "lastmod", "cms", "hero_media", "all_day", "expirydate",
        "show_post_time", "type", "widget", "weight", "draft", "header_image",
    )
} | {
    "projects": ("named", "the related projects' keys: a paper is not linked to a project here"),
    "slides": ("named", "the name of a slides page of the site (not imported)"),
    "summary": ("named", "the page's one-line summary (its abstract or text is kept)"),
    "publishdate": ("named", "when the page went up on the site (the item's own date is kept)"),
    "date_end": ("named", "when an event ended (a talk keeps the day it began)"),
    "subtitle": ("named", "the page's subtitle, which labsite's pages do not show"),
}  # fmt: skip


def site_root(root: Path) -> Path | None:
    """The folder holding the Hugo site: `root`, or the one folder below it (two levels at
    most, as in a theme's `templates/academic-cv`) that holds a Hugo configuration."""
    if _is_hugo(root):
        return root
    found = [p for p in (*root.glob("*"), *root.glob("*/*")) if p.is_dir() and _is_hugo(p)]
    if len(found) > 1:
        names = ", ".join(p.relative_to(root).as_posix() for p in found)
        raise SiteProblem(f"The folder holds several Hugo sites ({names}); name one of them.")
    return found[0] if found else None


def _is_hugo(folder: Path) -> bool:
    return any((folder / name).exists() for name in CONFIGS) and (folder / "content").is_dir()


def read(site: Site, owner_name: str = "") -> None:
    config = _config(site)
    content = _content(site, config)
    _site_name(site, config)
    authors = [
        p
        for p in sorted((site.root / "data" / "authors").glob("*"))
        if p.suffix in (".yaml", ".yml", ".toml", ".json")
    ]
    site.each(authors, lambda path: _author_file(site, path))
    pages = sorted((content / "authors").glob("*/_index.md")) + sorted(
        (content / "authors").glob("*/index.md")
    )
    site.each(_fresh(site, pages), lambda path: _author_page(site, path))  # drafts left out
    members = [path for section in _people_sections(site, content) for path in section]
    site.each(_fresh(site, members), lambda path: _member_page(site, path))
    _lab_account(site)
    if not site.people:
        site.skip(
            "data/authors, content/authors, a section of people",
            "the site has no authors: its papers and talks come in without a profile",
        )
    if not any(p.is_owner for p in site.people):
        for person in site.people:
            person.is_owner = person.key in ("me", "admin")
    if owner_name and site.owner:
        site.owner.name = owner_name
    site.each([content / "experience.md"], lambda path: _experience_page(site, path))
    readers = (
        (("publication", "publications"), _publication),
        (("event", "events", "talk", "talks"), _event),
        (("project", "projects"), _project),
        (("news",), _news),
    )
    for sections, read_one in readers:
        site.each(_fresh(site, _pages(content, *sections)), lambda path, r=read_one: r(site, path))
    posts = _fresh(site, _pages(content, "post", "posts", "blog"), drafts=True)
    site.each(posts, lambda path: _post(site, path))
    for section in ("teaching", "courses"):
        _courses(site, content / section)
    chinese = _chinese_content(site, content)
    if chinese is not None:
        posts = _fresh(site, _pages(chinese, "post", "posts", "blog"), drafts=True)
        site.each(posts, lambda path: _chinese_post(site, chinese, content, path))
    _own_pages(site, content, set(members))


def _mapping(value: Any, *keys: str) -> dict[str, Any]:
    """The settings at `keys` below `value`, or {} where any of them is not a mapping."""
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, dict) else {}


def _site_name(site: Site, config: dict[str, Any]) -> None:
    """The site's name and one-line description: Hugo's `title` and `params.description`,
    Wowchemy's `marketing.seo`, Hugo Blox's `hugoblox.identity`, each language's own in
    languages.yaml (a Chinese one's as the lab's Chinese name); the starters' placeholder
    name and description of themselves are left out, named."""
    params = _mapping(config, "params")
    seo, identity = _mapping(params, "marketing", "seo"), _mapping(params, "hugoblox", "identity")
    site.title = plain(identity.get("name") or seo.get("site_name") or config.get("title"))
    site.tagline = plain(
        identity.get("tagline")
        or identity.get("description")
        or seo.get("description")
        or params.get("description")
        or params.get("tagline")
    )[:300]
    default = plain(config.get("defaultContentLanguage")).lower() or "en"
    for code, language in _mapping(config, "languages").items():
        if not isinstance(language, dict):
            continue
        title = plain(language.get("title"))
        tagline = plain(_mapping(language, "params").get("description"))[:300]
        if str(code).lower().startswith("zh"):
            site.title_zh, site.tagline_zh = title, tagline
        elif str(code).lower() == default:
            site.title, site.tagline = title or site.title, tagline or site.tagline
    if site.tagline_zh == site.title_zh:  # the name given again is no description
        site.tagline_zh = ""
    if re.fullmatch(r"your name", site.title, re.I):
        site.leftovers.append(f"the site's name “{site.title}”: the starter's placeholder")
        site.title = ""
    for name in ("tagline", "tagline_zh"):
        if STARTER_DESCRIPTION.search(getattr(site, name)):
            site.leftovers.append(
                f"the site's description “{getattr(site, name)}”: the starter's own"
            )
            setattr(site, name, "")


def _config(site: Site) -> dict[str, Any]:
    """The site's configuration: config/_default/{config,hugo,params}.*, or one file, merged
    as Hugo merges them (keeping where each key came from, for the ledger)."""
    names = ["hugo.yaml", "hugo.toml", "config.yaml", "config.toml", "hugo.json", "config.json"]
    folder = site.root / "config" / "_default"
    paths = [site.root / n for n in names] + [folder / n for n in names]
    paths += [
        folder / f"{stem}.{suffix}"
        for stem in ("params", "languages")
        for suffix in ("yaml", "yml", "toml", "json")
    ]

    config = Tracked()

    def read_one(path: Path) -> None:
        values = load_data(site, path)
        if not isinstance(values, dict):
            raise Unreadable(site.name(path), "not a set of settings")
        site.lands(path, "the lab's settings")
        if path.stem in ("params", "languages"):  # the file is the mapping under its name
            values = Tracked({path.stem: values}, {path.stem: []})
        if "params" in dict.keys(config) and "params" in dict.keys(values):
            dict.__getitem__(config, "params").absorb(dict.__getitem__(values, "params"))
        else:
            config.absorb(values)

    site.each([p for p in paths if p.is_file()], read_one)
    return config


def _content(site: Site, config: dict[str, Any]) -> Path:
    """The content folder of the site's default language: content/, or content/en/ on a site
    in several languages; the other languages' folders are named, not read."""
    content = site.root / "content"
    language = plain(config.get("defaultContentLanguage")).lower() or "en"
    folders = {
        p.name.lower(): p
        for p in content.iterdir()
        if p.is_dir() and re.fullmatch(r"[a-z]{2}(?:[-_][a-z]{2,4})?", p.name.lower())
    }
    if not folders or (content / "authors").is_dir() or (content / "publication").is_dir():
        return content
    chosen = folders.get(language) or folders.get("en") or sorted(folders.values())[0]
    for other in sorted(set(folders.values()) - {chosen}):
        every = [p.relative_to(other).as_posix() for p in other.glob("**/*.md")]
        posts = sum(1 for name in every if POSTS.match(name))
        chinese = other.name.lower().startswith("zh") and posts
        read = f"; its {posts} posts come in, in Chinese" if chinese else ""
        site.no_home.append(
            f"{site.name(other)}: {len(every) - (posts if chinese else 0)} pages in another "
            f"language (the site's {chosen.name} pages are read{read})"
        )
    return chosen


POSTS = re.compile(r"^(?:post|posts|blog)/")


def _chinese_content(site: Site, content: Path) -> Path | None:
    """The Chinese content folder of a site in several languages (content/zh/), beside the
    one read."""
    if content.parent != site.root / "content":
        return None
    return next(
        (
            p
            for p in sorted(content.parent.iterdir())
            if p.is_dir() and p.name.lower() in ("zh", "zh-cn", "zh-hans", "zh_cn")
        ),
        None,
    )


def _chinese_post(site: Site, chinese: Path, content: Path, path: Path) -> None:
    """A post of the site's Chinese pages: the translation of the post at the same place in
    the default language's pages (Hugo pairs them so), else a post in Chinese only."""
    count = len(site.posts)
    _post(site, path)
    if len(site.posts) == count:  # a sample of the template, left out
        return
    post = site.posts.pop()
    post.title_zh, post.summary_zh, post.body_zh = post.title, post.summary, post.body
    twin = site.name(content / path.relative_to(chinese))
    found = next((p for p in site.posts if p.source == twin), None)
    if found is not None:
        found.title_zh, found.summary_zh, found.body_zh = post.title, post.summary, post.body
        found.source_zh = post.source
        found.tags += [word for word in post.tags if word not in found.tags]
        if post.image and post.image != found.image:
            if found.image:
                site.no_home.append(
                    f"{post.source}: its image {post.image} (the post's featured image is "
                    f"{found.image}, from {found.source})"
                )
            else:  # named from the site's root, as the page naming it is another
                beside = path.parent / post.image
                found.image = f"/{site.name(beside)}" if beside.is_file() else post.image
    else:
        post.title = post.summary = post.body = ""
        site.posts.append(post)


def _fresh(site: Site, paths: list[Path], *, drafts: bool = False) -> list[Path]:
    """The pages that are the site's own: the template's samples left in place, and pages
    the site does not build (drafts, `_build: render: never`), are left out and named;
    with `drafts`, those the site does not build are kept (a post comes in unpublished)."""
    fresh = []
    for path in paths:
        if site.is_template(path):
            site.leftover(path, "the template's sample")
            continue
        try:
            front, _ = front_matter(site, path)
        except Unreadable:
            fresh.append(path)  # named when read
            continue
        if is_hidden(front) and not drafts:
            site.leftovers.append(f"{site.name(path)}: a draft the site does not publish")
        else:
            fresh.append(path)
    return fresh


def _own_pages(site: Site, content: Path, members: set[Path]) -> None:
    """The content sections and pages not read as people, papers, talks, projects or posts:
    the lab's own pages, each read whole."""
    names = {"_index.md", "index.md", "experience.md"}
    paths = []
    for folder in sorted(p for p in content.iterdir() if p.is_dir() and p.name not in READ):
        paths += sorted(folder.glob("**/*.md"))
    paths += sorted(p for p in content.glob("*.md") if p.name not in names)
    # the home page: its own blocks (`sections:`), or the widget pages of content/home/
    paths += [p for p in (content / "_index.md",) if p.is_file()]
    paths += sorted((content / "home").glob("*.md")) + sorted((content / "home").glob("*/index.md"))
    paths = [path for path in paths if path not in members]

    def read_one(path: Path) -> None:
        front, body = front_matter(site, path)
        home = path == content / "_index.md" or path.is_relative_to(content / "home")
        if _is_landing(front) and (home or front.get("sections")):
            _landing(site, path, front, body)
        elif front.get("widget") and not clean_markdown(body):
            _block(site, site.name(path), str(front["widget"]), plain(front.get("title")), "")
        elif clean_markdown(body) and not is_hidden(front):
            if has_form(body):
                site.no_home.append(f"{site.name(path)}: its form (labsite's pages hold no forms)")
            site.pages.append(
                SitePage(
                    title=plain(front.get("title")) or path.parent.name,
                    body=clean_markdown(body),
                    source=site.name(path),
                    in_menu=True,
                    order=front.get("weight") if isinstance(front.get("weight"), int) else None,
                    address=str(front.get("url") or front.get("slug") or ""),
                )
            )

    site.each(_fresh(site, paths), read_one)


# The blocks of a landing page (Hugo Blox `sections:`, Academic's widget pages), by what
# becomes of them: their text is the lab's About (the first) or a page of the lab's; a
# profile block shows the owner's author file, read already; any other lists the site's
# content, which labsite's home shows from its own sections.
TEXT_BLOCKS = {"markdown", "blank", "hero", "cta", "cta-card", "cta-button-list", "text"}
PROFILE_BLOCKS = {
    "about", "about.biography", "about.avatar", "resume-biography", "resume-biography-3",
    "resume-experience", "experience", "resume-awards", "accomplishments", "resume-skills",
    "skills", "resume-languages",
}  # fmt: skip


ABOUT_TITLE = re.compile(r"about|welcome|intro|overview|who we are|our lab|关于|简介", re.I)


def _is_landing(front: dict[str, Any]) -> bool:
    return isinstance(front.get("sections"), list) or bool(front.get("widget"))


def _landing(site: Site, path: Path, front: dict[str, Any], body: str) -> None:
    """A page built of blocks: each block's text lands (the lab's About, else a page of its
    own) or the block is named for what it shows."""
    name = site.name(path)
    if front.get("widget"):  # one block, its text the page's body
        _block(site, name, str(front["widget"]), plain(front.get("title")), clean_markdown(body))
        return
    for position, block in enumerate(front["sections"], start=1):
        if not isinstance(block, dict):
            continue
        content = block.get("content") if isinstance(block.get("content"), dict) else {}
        kind = str(block.get("block") or block.get("widget") or "")
        title = plain(content.get("title")) or plain(block.get("title"))
        text = clean_markdown(str(content.get("text") or ""))
        _block(site, f"{name}, block {position}", kind, title, text)
    if clean_markdown(body):
        _block(site, name, "markdown", plain(front.get("title")), clean_markdown(body))


def _block(site: Site, where: str, kind: str, title: str, text: str) -> None:
    kind = kind.strip().lower()
    named = f"“{title}”" if title else "untitled"
    if kind in TEXT_BLOCKS and text:
        if not site.about and (kind == "hero" or ABOUT_TITLE.search(title) or not title):
            site.about, site.about_source = text, where.split(",")[0]
            site.no_home.append(f"{where}: the {kind} block {named} is the lab's About")
        else:
            site.pages.append(
                SitePage(
                    title=title or f"{kind.title()} ({where})",
                    body=text,
                    source=where.split(",")[0],
                    in_menu=False,
                )
            )
    elif kind in PROFILE_BLOCKS:
        site.no_home.append(
            f"{where}: the {kind} block {named} shows the owner's profile (from the author's file)"
        )
    elif kind in TEXT_BLOCKS:
        site.no_home.append(f"{where}: the {kind} block {named} holds no text (a layout only)")
    elif kind:
        site.no_home.append(
            f"{where}: the {kind} block {named} lists the site's content (labsite's home "
            "shows its own sections)"
        )


def _pages(content: Path, *sections: str) -> list[Path]:
    pages = []
    for section in sections:
        folder = content / section
        pages += [p for p in sorted(folder.glob("**/index.md")) if p.parent != folder]
        pages += sorted(p for p in folder.glob("*.md") if p.name not in ("_index.md", "index.md"))
    return pages


def _split(name: str) -> tuple[str, str]:
    given, _, family = name.strip().rpartition(" ")
    return given, family


def _person(site: Site, key: str, source: str, values: dict[str, Any]) -> SitePerson:
    """What both author schemas share."""
    person = SitePerson(key=key, name="", source=source)
    person.title = ", ".join(split_roles(values.get("role")))
    person.bio = clean_markdown(str(values.get("bio") or ""))
    person.interests = [plain(i) for i in _list(values.get("interests")) if plain(i)]
    person.email = str(values.get("email") or "")
    person.groups = [plain(g) for g in _list(values.get("user_groups")) if plain(g)]
    for row in _list(values.get("awards")):
        row = row if isinstance(row, dict) else {"title": row}
        person.awards.append(
            {
                "name": plain(row.get("title") or row.get("name")),
                "awarded_by": plain(row.get("awarder")),
                "date": _month(row.get("date")),
            }
        )
    for key_ in ("skills", "languages", "postnominals", "pronouns"):
        if values.get(key_):
            site.no_home.append(f"{source}: {key_}")
    for row in _list(values.get("experience")) + _list(values.get("work")):
        person.experience.append(_experience(row))
    education = values.get("education")
    if isinstance(education, dict):  # Academic: {courses: [{course, institution, year}]}
        education = education.get("courses")
    for row in _list(education):
        person.education.append(_education(row))
    for link in _list(values.get("profiles")) + _list(values.get("links")):
        _link(site, person, link, source)
    for link in _list(values.get("social")):
        if isinstance(link, dict):
            _link(site, person, {"icon": link.get("icon"), "url": link.get("link")}, source)
    return person


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _link(site: Site, person: SitePerson, link: Any, source: str) -> None:
    if not isinstance(link, dict):
        return
    url = str(link.get("url") or "").strip()
    hint = str(link.get("icon") or link.get("label") or "")
    if re.fullmatch(r"[^@\s/:]+@[^@\s/]+\.[^@\s/]+", url):  # an address without mailto:
        url = f"mailto:{url}"
    if not url or url.startswith("#"):
        return  # a link to the page's own contact section
    if url.startswith("/") or ("://" not in url and not url.startswith("mailto:")):
        site.no_home.append(f"{source}: the link {url} (a file of the site)")
    elif not add_link(person, hint, url):
        site.no_home.append(f"{source}: the link {url}")


def _month(value: Any) -> PartialDate | None:
    """A profile row's date as Hugo Blox shows it ("January 2006"): to the month. Its files
    write whole dates ("2020-01-01") for what is known to the month."""
    date = date_of(value)
    return PartialDate(date.year, date.month) if date and date.month else date


def _experience(row: Any) -> dict[str, Any]:
    row = row if isinstance(row, dict) else {}
    return {
        "title": plain(row.get("role") or row.get("title") or row.get("position")),
        "organization": plain(
            row.get("org")
            or row.get("company")
            or row.get("company_name")
            or row.get("organization")
        ),
        "location": plain(row.get("location") or row.get("company_location")),
        "start": _month(row.get("start") or row.get("date_start")),
        "end": _month(row.get("end") or row.get("date_end")),
        "description": clean_markdown(str(row.get("summary") or row.get("description") or "")),
    }


def _education(row: Any) -> dict[str, Any]:
    """A row of either schema: {course, institution, year} (Academic), {degree or area,
    institution, start or date_start, end or date_end, summary} (Hugo Blox)."""
    row = row if isinstance(row, dict) else {"degree": row}
    year = row.get("year")
    return {
        "degree": plain(row.get("degree") or row.get("area") or row.get("course")),
        "institution": plain(row.get("institution") or row.get("school")),
        "location": plain(row.get("location")),
        "start": _month(row.get("start") or row.get("date_start")),
        "end": _month(row.get("end") or row.get("date_end")) or (date_of(year) if year else None),
        "description": clean_markdown(str(row.get("summary") or row.get("description") or "")),
    }


def _organisations(person: SitePerson, values: dict[str, Any]) -> None:
    """The first organisation is the affiliation; one that is only a span of years ("2015-2017")
    is when the person was a member, as lab sites write it under each name."""
    for row in _list(values.get("organizations")) + _list(values.get("affiliations")):
        name = plain(row.get("name")) if isinstance(row, dict) else plain(row)
        if years := YEARS.match(name):
            person.member_since = person.member_since or date_of(years[1])
            if years[2] and years[2].isdigit():
                person.member_until = person.member_until or date_of(years[2])
        elif name and not person.affiliation:
            person.affiliation = name


def _is_organisation(site: Site, person: SitePerson, values: dict[str, Any]) -> bool:
    """An author account that is the lab or its site, not a person: named as the site is, or
    with a name that says it is a lab, a group or a team."""
    if person.groups or values.get("first_name") or values.get("last_name"):
        return False
    # the account's user name (`authors: [Siyang Liu Lab]`) says so when its title is the
    # lab's motto; "admin" is the owner's user name in every Academic site
    users = [str(a) for a in _list(values.get("authors")) if str(a).strip().lower() != "admin"]
    return any(name.strip() and ORGANISATION.search(name) for name in (person.name, *users))


def _lab_account(site: Site) -> None:
    """An account named exactly as the site is titled, beside other people, is the lab's own
    (`title: Kestrel` on a site titled Kestrel): unless it reads as a person's (a group, an
    education, interests, or the superuser's account), it is the lab, its text the About."""
    title = site.title.casefold()
    for person in list(site.people):
        if not title or person.name.casefold() != title or len(site.people) < 2:
            continue
        if person.groups or person.education or person.interests or person.is_owner:
            continue
        site.people.remove(person)
        site.organisations.append(f"{person.source}: {person.name}")
        if person.bio and not site.about:
            site.about, site.about_source = person.bio, person.source


def _author_file(site: Site, path: Path) -> None:
    """Hugo Blox's author schema (data/authors/me.yaml)."""
    if site.is_template(path):
        site.leftover(path, "the template's sample author")
        return
    values = load_data(site, path)
    source = site.name(path)
    if not isinstance(values, dict):
        raise Unreadable(source, "not an author (a set of fields)")
    person = _person(site, str(values.get("slug") or path.stem), source, values)
    person.is_owner = bool(values.get("is_owner"))
    name = values.get("name") or {}
    if isinstance(name, dict):
        given, family = plain(name.get("given")), plain(name.get("family"))
        person.name = f"{given} {family}".strip() or plain(name.get("display"))
        person.native_name = plain(name.get("alternate"))
        if plain(name.get("display")) not in ("", person.name):
            person.name_variants.append(plain(name.get("display")))
    else:
        person.name = plain(name)
    if not person.name:
        raise Unreadable(source, "the author's name is not given")
    _organisations(person, values)
    photo = path.parent / f"{person.key}.jpg"
    avatar = site.root / "assets" / "media" / "authors" / f"{person.key}.jpg"
    person.photo = next((p for p in (photo, avatar) if p.is_file()), None)
    _add(site, person, values)


def _author_page(site: Site, path: Path) -> None:
    """An author page (content/authors/admin/_index.md), in Academic's schema or Hugo Blox's:
    the biography is the page's body, and an avatar image beside it is the photo."""
    if site.is_template(path):
        site.leftover(path, "the template's sample author")
        return
    values, body = front_matter(site, path)
    source = site.name(path)
    person = _person(site, path.parent.name, source, values)
    full = " ".join(
        plain(values.get(k)) for k in ("first_name", "last_name") if plain(values.get(k))
    )
    person.name = plain(values.get("title") or values.get("name")) or full
    if full and full != person.name:
        person.name_variants.append(full)
    if not person.name:
        raise Unreadable(source, "the author's name is not given")
    person.is_owner = bool(values.get("superuser"))
    person.bio = clean_markdown(body) or person.bio
    _organisations(person, values)
    person.photo = next(iter(sorted(path.parent.glob("avatar.*"))), None)
    _add(site, person, values)


def _add(site: Site, person: SitePerson, values: dict[str, Any]) -> None:
    if _is_organisation(site, person, values):
        site.organisations.append(f"{person.source}: {person.name}")
        if person.bio and not site.about:
            site.about, site.about_source = person.bio, person.source
    else:
        site.people.append(person)


# Front matter words that make a page a person's, beside a name: Wowchemy's author words and
# those lab themes give their people pages (not `image`, which any Hugo page may have).
PERSON_KEYS = {
    "role", "position", "bio", "social", "user_groups", "email", "avatar", "photo", "alumni",
    "ex_member", "first_name", "last_name", "organizations", "interests", "profiles",
}  # fmt: skip


def _people_sections(site: Site, content: Path) -> list[list[Path]]:
    """The pages of each content section other than those read already (authors, papers…)
    that is a section of people: most of its pages have a name and a person's words."""
    sections = []
    for folder in sorted(p for p in content.iterdir() if p.is_dir() and p.name not in READ):
        pages = _pages(content, folder.name)
        if pages and sum(_is_person_page(site, path) for path in pages) * 2 > len(pages):
            sections.append(pages)
    return sections


def _is_person_page(site: Site, path: Path) -> bool:
    try:
        values, _ = values_of_page(site, path)
    except Unreadable:
        return False
    keys = {str(key).lower() for key in values}
    named = bool(keys & {"title", "name"} or {"first_name", "last_name"} <= keys)
    return named and bool(keys & PERSON_KEYS) and not _is_landing(values)


def _member_page(site: Site, path: Path) -> None:
    """A person's page in a lab's section of people (content/people/ada/index.md or
    content/people/ada.md): `title` or `name`, `role` or `position` (a `<br>` between roles),
    `user_groups` or else the role as their group, `alumni` or `ex_member` when they have
    left, the author words of Wowchemy, and the page's text as their bio. The folder (or the
    file's name) is the key papers name them by, so two folders are two people."""
    if site.is_template(path):
        site.leftover(path, "the template's sample person")
        return
    values, body = front_matter(site, path)
    source = site.name(path)
    key = path.parent.name if path.name in ("index.md", "_index.md") else path.stem
    person = _person(site, key, source, values)
    full = " ".join(
        plain(values.get(k)) for k in ("first_name", "last_name") if plain(values.get(k))
    )
    person.name = plain(values.get("name") or values.get("title")) or full
    if not person.name:
        raise Unreadable(source, "the person has no name")
    roles = split_roles(values.get("role") or values.get("position"))
    person.title = ", ".join(roles)[:200]
    person.groups = person.groups or roles[:1]
    person.alumni = any(
        values.get(word) is True or str(values.get(word)).lower() == "true"
        for word in ("alumni", "ex_member")
    )
    person.bio = clean_markdown(body) or person.bio
    _organisations(person, values)
    picture = values.get("avatar") or values.get("photo")
    if picture:
        person.photo = inside(site, str(picture), path.parent.relative_to(site.root).as_posix())
        person.photo = person.photo or inside(site, str(picture), "static", "assets")
        if person.photo is None:
            site.no_home.append(f"{source}: the photo {picture} (not in the folder)")
    else:
        person.photo = next(iter(sorted(path.parent.glob("avatar.*"))), None)
        if path.name not in ("index.md", "_index.md"):
            person.photo = None  # a page of its own: the folder's avatar is not theirs
    _add(site, person, values)


def _experience_page(site: Site, path: Path) -> None:
    """content/experience.md: older Academic lists experience in its own blocks; Hugo Blox
    points at the author's file, read already."""
    if not path.is_file() or site.owner is None:
        return
    if site.is_template(path):
        site.leftover(path, "the template's sample experience")
        return
    values, _ = front_matter(site, path)
    for block in _list(values.get("sections")):
        content = block.get("content") if isinstance(block, dict) else None
        items = content.get("items") if isinstance(content, dict) else None
        if isinstance(items, list) and "experience" in str(block.get("block", "")):
            site.owner.experience += [_experience(item) for item in items]


def _names(site: Site, keys: Any) -> list[str]:
    """The printed names of a page's `authors`: a person's key ("me") becomes their name."""
    people = {p.key: p.name for p in site.people}
    return [people.get(str(k), plain(k)) for k in _list(keys) if plain(k)]


# Hugo Academic's and Wowchemy's link fields (`url_pdf`, `links: [{name, url}]`) by the
# word that names them, and where each lands: a Record field, or a named link ("Dataset").
LINK_WORDS = {
    "pdf": "pdf_url",
    "paper": "pdf_url",
    "code": "code_url",
    "github": "code_url",
    "slides": "slides_url",
    "video": "video_url",
    "youtube": "video_url",
    "project": "project_url",
    "site": "project_url",
    "website": "project_url",
    "dataset": "Dataset",
    "data": "Dataset",
    "source": "Source",
    "poster": "Poster",
    "preprint": "Preprint",
    "supplement": "Supplement",
    "blog": "Blog",
}
ARXIV_URL = re.compile(
    r"arxiv\.org/(?:abs|pdf)/((?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?)"
)
DOI_URL = re.compile(r"^https?://(?:dx\.)?doi\.org/(10\.\S+)$", re.I)


def _urls(value: Any) -> list[str]:
    """The addresses a link field gives: one, or a YAML list of them (older Academic)."""
    values = value if isinstance(value, list) else [value]
    return [url for url in (web_url(v) for v in values) if url]


def _links(values: dict[str, Any]) -> dict[str, Any]:
    """{Record field: address} from a page's `links` and its `url_*` fields; a name with no
    field of its own ("Dataset", a custom name) under "named" as [(label, address)]; an arXiv
    or DOI link as the paper's arXiv id or DOI."""
    found: dict[str, Any] = {"named": []}

    def take(word: str, label: str, url: str) -> None:
        if match := ARXIV_URL.search(url):
            found.setdefault("arxiv_id", match[1])
            return
        if match := DOI_URL.match(url):
            found.setdefault("doi", match[1])
            return
        home = next((LINK_WORDS[w] for w in re.split(r"[\W_]+", word) if w in LINK_WORDS), "")
        if home.endswith("_url") and home not in found:
            found[home] = url
        elif url not in [u for _, u in found["named"]] and url not in found.values():
            found["named"].append((label or home or word.replace("_", " ").title(), url))

    for link in _list(values.get("links")):
        if not isinstance(link, dict):
            continue
        if link.get("provider") == "arxiv" and link.get("id"):
            found.setdefault("arxiv_id", str(link["id"]))
        kind = str(link.get("type") or link.get("name") or link.get("icon") or "").lower()
        for url in _urls(link.get("url")):
            take(kind, plain(link.get("name")), url)
    for key in list(dict.keys(values)):
        word = str(key).lower()
        if word.startswith("url_"):
            for url in _urls(values.get(key)):
                take(word.removeprefix("url_"), "", url)
    return found


def _apply_links(record: Record, links: dict[str, Any]) -> None:
    """Each link in its home on the record; the first named one as its other link, the rest
    kept with it as its source's fields."""
    for name, value in links.items():
        if name == "named":
            continue
        if name == "doi":
            value = clean_doi(value)
        if value and not getattr(record, name):
            setattr(record, name, str(value))
    for label, url in links["named"]:
        if not record.other_url:
            record.other_url, record.other_label = url, label[:100]
        elif url != record.other_url:
            record.source_fields[label.lower()] = url


def _publication(site: Site, path: Path) -> None:
    values, body = front_matter(site, path)

    def field(what: str) -> Any:  # the page's field, by the map of Hugo's paper pages
        return field_value(values, HUGO_PUBLICATION, what)

    name = site.name(path)
    bib = path.parent / "cite.bib"
    records: list[Record] = []
    if bib.is_file():
        try:
            records = read_bibtex(read_text(site, bib), site.name(bib))
        except Unreadable as unreadable:
            site.skipped.append(f"{unreadable} (the page's own fields are read instead)")
        except ImportProblem as problem:  # a cite.bib holding no entry ("None", blank)
            site.skipped.append(f"{problem} (the page's own fields are read instead)")
    shown = plain(field("title"))
    if records and shown and not _same_paper(records[0].title, shown):
        site.no_home.append(
            f"{site.name(bib)}: not read (it describes another paper, “{records[0].title[:100]}”, "
            "copied from another page); the page's own fields are"
        )
        records = []
    if records and records[0].problems:  # what the site shows is the page, not its cite.bib
        site.no_home.append(
            f"{site.name(bib)}: not read ({'; '.join(records[0].problems)}); the page's own "
            "fields are"
        )
        records = []
    record = records[0] if records else Record(label=name)
    record.title = plain(field("title")) or record.title  # the title the site shows
    # the page's own fields, where cite.bib (which wins) does not say
    types = _list(field("types"))
    kind = str(types[0]) if types else ""
    if not record.kind:
        record.kind = KINDS.get(kind) or NUMBERED_KINDS.get(kind) or Publication.Kind.OTHER
    venue = plain(field("venue")).removeprefix("In ").strip()
    short = plain(field("venue_short")).removeprefix("In ").strip()
    record.venue_name = record.venue_name or venue
    record.venue_short = record.venue_short or short
    record.date = record.date or date_of(field("date"))
    doi = re.sub(r"\\([_&%#])", r"\1", str(field("doi") or "").strip())
    if doi and not record.doi:
        record.doi = clean_doi(doi)
        if not record.doi:
            record.dropped.append(f"invalid DOI “{doi[:200]}” (dropped)")
    hugoblox = field("identifiers") if isinstance(field("identifiers"), dict) else {}
    ids = hugoblox.get("ids") if isinstance(hugoblox.get("ids"), dict) else {}
    if ids.get("arxiv") and not record.arxiv_id:
        record.arxiv_id = str(ids["arxiv"])
    _apply_links(record, _links(values))
    record.abstract = (
        record.abstract or clean_markdown(str(field("abstract") or "")) or plain(field("summary"))
    )
    if field("selected") is not None and record.is_selected is None:
        record.is_selected = bool(field("selected"))
    authors = _names(site, field("authors"))
    if authors:  # the page's list names the site's people; cite.bib may not
        notes = _list(field("author_notes"))
        record.authors = []
        for position, printed in enumerate(authors):
            given, family = _split(printed)
            author = AuthorRecord(given=given, family=family)
            note = plain(notes[position]).lower() if position < len(notes) else ""
            if note in NOTES:
                setattr(author, NOTES[note], True)
            record.authors.append(author)
    if not record.title:
        raise Unreadable(name, "the publication has no title")
    if clean_markdown(body):
        site.no_home.append(f"{name}: the page's text (the abstract is kept)")
    words = _tags(site, name, values)
    if words:  # the paper's tags, as its keywords are
        record.source_fields["keywords"] = ", ".join(
            filter(None, [record.source_fields.get("keywords", ""), *words])
        )
    image = featured_image(site, path, values)
    if image:
        site.paper_images[id(record)] = (image, name)
    site.records.append(record)


def _same_paper(title: str, other: str) -> bool:
    """Whether two titles name one paper: written alike, one holding the other (a subtitle
    left off), or edited by a few words (a site's own capitals and punctuation)."""
    a, b = (re.sub(r"[\W_]+", "", plain(t)).casefold() for t in (title, other))
    return not a or a in b or b in a or SequenceMatcher(None, a, b).ratio() >= 0.7


def _event(site: Site, path: Path) -> None:
    values, body = front_matter(site, path)
    name = site.name(path)
    date = date_of(values.get("event_start") or values.get("date"))
    title = plain(values.get("title"))
    if not title or date is None:
        raise Unreadable(name, f"the talk has no {'title' if not title else 'date'}")
    address = values.get("address") if isinstance(values.get("address"), dict) else {}
    if not address and plain(values.get("location")):
        address = {"city": plain(values.get("location"))}  # older Academic: one line
    links = _links(values)
    others = [
        url for key, url in links.items() if key not in ("slides_url", "video_url", "named") and url
    ] + [url for _, url in links["named"]]
    if others:
        site.no_home.append(
            f"{name}: its links {', '.join(others)} (a talk keeps slides and video)"
        )
    site.talks.append(
        SiteTalk(
            title=title,
            date=date,
            source=name,
            event=plain(values.get("event") or values.get("event_name")),
            event_url=web_url(values.get("event_url")),
            city=plain(address.get("city")),
            country=plain(address.get("country")),
            slides_url=links.get("slides_url", ""),
            video_url=links.get("video_url", ""),
            description=clean_markdown(str(values.get("abstract") or values.get("summary") or ""))
            or clean_markdown(body),
            speakers=_names(site, values.get("authors")),
            tags=_tags(site, name, values),
            image=featured_image(site, path, values),
        )
    )


def _project(site: Site, path: Path) -> None:
    values, body = front_matter(site, path)
    name = site.name(path)
    title = plain(values.get("title"))
    if not title:
        raise Unreadable(name, "the project has no title")
    links = _links(values)
    site.projects.append(
        SiteProject(
            title=title,
            description=clean_markdown(body) or plain(values.get("summary")),
            source=name,
            url=web_url(values.get("external_link"))
            or links.get("project_url", "")
            or next(iter([u for k, u in links.items() if k.endswith("_url")]), ""),
            tags=_tags(site, name, values),
            image=featured_image(site, path, values),
        )
    )


# The tags the starters' sample pages carry, which a site that kept a sample's front matter
# for a page of its own carries still.
SAMPLE_TAGS = {"source themes"}


def _tags(site: Site, name: str, values: dict[str, Any], *keys: str) -> list[str]:
    """A page's tags (and, where asked, its categories: posts are filed by both), the
    starters' sample tags left out and named."""
    words = []
    for key in keys or ("tags",):
        value = values.get(key)
        for word in value.split(",") if isinstance(value, str) else _list(value):
            word = plain(word)
            if word.casefold() in SAMPLE_TAGS:
                site.leftovers.append(f"{name}: the tag “{word}”, the template's sample")
            elif word and word not in words:
                words.append(word)
    return words


def _courses(site: Site, folder: Path) -> None:
    """content/teaching/ or content/courses/: each page one level down is a course (a folder's
    index.md or _index.md, or a file: a Hugo Blox course's chapters below it are named, their
    text stays on the site); the section's own page (_index.md) is its teaching page."""
    if not folder.is_dir():
        return
    courses, chapters = [], 0
    for child in sorted(folder.iterdir()):
        if child.is_dir():
            pages = [child / name for name in ("index.md", "_index.md")]
            main = next((page for page in pages if page.exists()), None)
            if main is not None:
                courses.append(main)
                chapters += sum(1 for p in child.glob("**/*.md") if p != main)
        elif child.suffix == ".md" and child.name not in ("_index.md", "index.md"):
            courses.append(child)
    site.each(_fresh(site, courses), lambda path: _course(site, path))
    if chapters:
        site.no_home.append(f"{site.name(folder)}: {chapters} pages of the courses' own text")
    index = folder / "_index.md"
    site.each(_fresh(site, [index] if index.exists() else []), lambda path: _teaching(site, path))


def _course(site: Site, path: Path) -> None:
    values, body = front_matter(site, path)
    title = plain(values.get("title"))
    if not title:
        raise Unreadable(site.name(path), "the course has no title")
    site.courses.append(
        SiteCourse(
            title=title,
            source=site.name(path),
            institution=plain(values.get("venue") or values.get("institution")),
            role=plain(values.get("role")),
            start=date_of(values.get("date")),
            description=clean_markdown(body) or plain(values.get("summary")),
            tags=_tags(site, site.name(path), values),
            image=featured_image(site, path, values),
        )
    )


def _teaching(site: Site, path: Path) -> None:
    values, body = front_matter(site, path)
    if clean_markdown(body) and not is_hidden(values):
        site.pages.append(
            SitePage(
                title=plain(values.get("title")) or path.parent.name,
                body=clean_markdown(body),
                source=site.name(path),
                order=values.get("weight") if isinstance(values.get("weight"), int) else None,
                address=path.parent.name,
            )
        )


def _news(site: Site, path: Path) -> None:
    values, body = front_matter(site, path)
    name = site.name(path)
    date = date_of(values.get("date"))
    title = plain(values.get("title"))
    if date is None or not title:
        raise Unreadable(name, f"the news item has no {'date' if date is None else 'title'}")
    site.news.append(SiteNews(date=date, text=title, source=name))
    if clean_markdown(body):
        site.no_home.append(f"{name}: the news item's text (its title is the news)")


def _post(site: Site, path: Path) -> None:
    values, body = front_matter(site, path)
    name = site.name(path)
    body = site.own_post_body(name, plain(values.get("title")), body)
    if body is None:
        return
    # as Hugo dates a page by default: `date`, else `publishDate`, else `lastmod`
    date = date_of(values.get("date") or values.get("publishDate") or values.get("lastmod"))
    title = plain(values.get("title"))
    if date is None or not title:
        raise Unreadable(name, f"the post has no {'date' if date is None else 'title'}")
    site.posts.append(
        SitePost(
            title=title,
            date=date,
            body=clean_markdown(body),
            source=name,
            summary=plain(values.get("summary")),
            authors=_names(site, values.get("authors")),
            tags=_tags(site, name, values, "tags", "categories"),
            url=web_url(values.get("external_link")),
            published=not is_hidden(values),
            image=featured_image(site, path, values),
        )
    )
