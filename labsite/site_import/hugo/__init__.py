"""A Hugo Blox site (Hugo Academic 4 (2019) through Wowchemy 5 to Hugo Blox 0.x (2026);
"Academic", "academic-cv", "research-group" layouts, one language or several): people in
`data/authors/*.yaml` or `content/authors/*/_index.md` (both schemas: `social`,
`education.courses` and `user_groups` of Academic; `profiles`, list-form `education`,
`work`, `awards` of Hugo Blox), `content/publication(s)/*/index.md` with `cite.bib` beside
them, talks in `content/event(s)/`, `content/project(s)/`, posts, courses in `content/teaching/`
and `content/courses/`, `content/experience.md`, and the site's title and description from
its configuration. This module finds the site and reads it in order; each module beside it
reads one kind of page: `config` (settings, name, languages), `people` and `profiles`,
`publications` (through `links`), `items` (talks, projects, courses, news), `posts`, and
`landing` (the home's blocks and the lab's own pages), sharing `sections`."""

from collections.abc import Callable
from functools import partial
from pathlib import Path

from labsite.site_import.hugo.config import (
    chinese_content,
    content_folder,
    read_config,
    read_site_name,
)
from labsite.site_import.hugo.items import read_courses, read_event, read_news, read_project
from labsite.site_import.hugo.landing import own_pages
from labsite.site_import.hugo.people import (
    lab_account,
    people_sections,
    read_author_file,
    read_author_page,
    read_experience_page,
    read_member_page,
)
from labsite.site_import.hugo.posts import read_chinese_post, read_post
from labsite.site_import.hugo.publications import read_publication
from labsite.site_import.hugo.sections import fresh, section_pages
from labsite.site_import.site import Site, SiteProblem

GENERATOR = "Hugo Blox"
CONFIGS = ("config/_default", "hugo.yaml", "hugo.toml", "config.yaml", "config.toml")


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
    """The site into `site`: its settings and name, its people (the owner named
    `owner_name` where given), then each section of pages, and last the lab's own pages."""
    config = read_config(site)
    content = content_folder(site, config)
    read_site_name(site, config)
    members = _read_people(site, content)
    if owner_name and site.owner:
        site.owner.name = owner_name
    site.each([content / "experience.md"], lambda path: read_experience_page(site, path))
    _read_sections(site, content)
    own_pages(site, content, set(members))


def _read_people(site: Site, content: Path) -> list[Path]:
    """The site's people: author files, author pages and the pages of its sections of people
    (which it returns, as no section of the lab's own pages holds them); "me" or "admin" owns
    a site that does not say who does."""
    authors = [
        p
        for p in sorted((site.root / "data" / "authors").glob("*"))
        if p.suffix in (".yaml", ".yml", ".toml", ".json")
    ]
    site.each(authors, lambda path: read_author_file(site, path))
    pages = sorted((content / "authors").glob("*/_index.md")) + sorted(
        (content / "authors").glob("*/index.md")
    )
    site.each(fresh(site, pages), lambda path: read_author_page(site, path))  # drafts left out
    members = [path for section in people_sections(site, content) for path in section]
    site.each(fresh(site, members), lambda path: read_member_page(site, path))
    lab_account(site)
    if not site.people:
        site.skip(
            "data/authors, content/authors, a section of people",
            "the site has no authors: its papers and talks come in without a profile",
        )
    if not any(p.is_owner for p in site.people):
        for person in site.people:
            person.is_owner = person.key in ("me", "admin")
    return members


# The sections each reader reads, by the names the starters and their sites give them.
READERS: tuple[tuple[tuple[str, ...], Callable[[Site, Path], None]], ...] = (
    (("publication", "publications"), read_publication),
    (("event", "events", "talk", "talks"), read_event),
    (("project", "projects"), read_project),
    (("news",), read_news),
)


def _read_sections(site: Site, content: Path) -> None:
    """Papers, talks, projects, news, posts (drafts kept, unpublished) and courses, then the
    posts of the site's Chinese pages."""
    for sections, read_one in READERS:
        site.each(fresh(site, section_pages(content, *sections)), partial(read_one, site))
    posts = fresh(site, section_pages(content, "post", "posts", "blog"), drafts=True)
    site.each(posts, lambda path: read_post(site, path))
    for section in ("teaching", "courses"):
        read_courses(site, content / section)
    chinese = chinese_content(site, content)
    if chinese is not None:
        posts = fresh(site, section_pages(chinese, "post", "posts", "blog"), drafts=True)
        site.each(posts, lambda path: read_chinese_post(site, chinese, content, path))
