"""An al-folio (Jekyll) site, v0.3 (2020) to v0.16 (2026): `_config.yml`, `_pages/about.md`,
`_data/socials.yml`, `_data/cv.yml` (RenderCV, or the older list of sections) or
`assets/json/resume.json`, `_pages/profiles.md`, `_data/coauthors.yml`,
`_data/repositories.yml`, `_news/`, `_posts/`, `_projects/`, `_teachings/` and
`_bibliography/*.bib`. al-folio is a one-person site: everything belongs to its owner.

`read` walks the site in the order its parts depend on one another; each part is read in the
module named for it: `owner` (the configuration and the owner's profile), `cv`, `people`,
`posts` (news and posts) and `pages` (pages, projects and how collections are walked)."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

from labsite.site_import.alfolio.cv import _course, _cv, _teaching_data
from labsite.site_import.alfolio.owner import (
    _about,
    _about_page,
    _coauthors,
    _config,
    _config_socials,
    _data_files,
    _mapping,
    _owner_name,
    _repositories,
    _site_name,
    _socials,
)
from labsite.site_import.alfolio.pages import (
    PAGE_SUFFIXES,
    _collection,
    _hidden_collections,
    _project,
    read_page,
)
from labsite.site_import.alfolio.people import (
    _lab_owner,
    _member,
    _people_collections,
    _profile_pages,
    _profiles,
)
from labsite.site_import.alfolio.posts import _draft, _news_item, read_post
from labsite.site_import.site import Site, SitePerson, read_publications

GENERATOR = "al-folio"


THEME = "a setting of al-folio's theme (labsite's own pages decide it)"


# The keys of al-folio's front matter that no reader reads, and why: the ledger's map.
KEYS = {
    key: ("setting", THEME)
    for key in (
        "layout", "permalink", "nav", "nav_order", "dropdown", "children", "pagination",
        "display_categories", "display_tags", "horizontal", "toc", "giscus_comments",
        "disqus_comments", "related_posts", "comments", "importance", "mermaid", "chart",
        "map", "tikzjax", "typograms", "pseudocode", "code_diff", "pretty_table", "tabs",
        "distill", "_styles", "images", "featured", "social", "announcements",
        "latest_posts", "selected_papers", "sitemap", "search", "hidden", "lang", "math",
        "enable_math", "bibliography", "sort_date", "last_updated", "og_image", "icon",
        "giscus", "related_publications", "sidebar", "author_profile", "share", "read_time",
        "redirect_from", "excerpt", "feature_row", "collection", "cv_pdf", "bib_search",
        "group_rank", "team_frontpage", "lastname", "title_nav", "title_t",
    )
}  # fmt: skip


def is_site(root: Path) -> bool:
    return any((root / name).exists() for name in ("_pages", "_bibliography", "_news", "_projects"))


# The collections al-folio itself reads: each folder, the collection whose page shows it
# (left out when that page is hidden), and the reader of one of its items.
COLLECTIONS: tuple[tuple[str, str, Callable[[Site, Path], None]], ...] = (
    ("_news", "news", _news_item),
    ("_projects", "projects", _project),
    ("_posts", "posts", read_post),
    ("_drafts", "posts", _draft),
    ("_teachings", "teaching", _course),
)


def read(site: Site, owner_name: str = "") -> None:
    config = _config(site)
    owner = SitePerson(key="owner", name="", source="_config.yml", is_owner=True)
    site.people.append(owner)
    hidden = _hidden_collections(site)
    site.each([_about_page(site)], lambda path: _about(site, owner, path))
    _owner_name(site, owner, config, owner_name)
    _site_name(site, config, owner)
    socials: dict[str, Any] = _config_socials(config)
    site.each(_data_files(site, "socials.yml"), lambda path: socials.update(_mapping(site, path)))
    _socials(site, owner, socials, "_data/socials.yml")
    _cv(site, owner, hidden="cv" in hidden)
    site.each(_data_files(site, "coauthors.yml"), lambda path: _coauthors(site, path))
    site.each(_data_files(site, "repositories.yml"), lambda path: _repositories(site, owner, path))
    site.each(_data_files(site, "teaching.yml"), lambda path: _teaching_data(site, path))
    site.each(_profile_pages(site), lambda path: _profiles(site, owner, path))
    for folder in _people_collections(site, config):
        _collection(site, folder, hidden=False, read_one=_member)
    _lab_owner(site, owner, config)
    for folder, shown_by, read_one in COLLECTIONS:
        _collection(site, folder, hidden=shown_by in hidden, read_one=read_one)
    _bibliography(site)
    site.each(_own_pages(site), lambda path: read_page(site, path))
    for folder in ("_books",):
        pages = list((site.root / folder).glob("*.md"))
        if pages:
            site.no_home.append(f"{folder}: {len(pages)} pages (labsite keeps no books)")


def _bibliography(site: Site) -> None:
    """The papers of _bibliography/*.bib, as the BibTeX importer reads them."""
    for path in sorted((site.root / "_bibliography").glob("*.bib")):
        if site.is_template(path):
            site.leftover(path, "the template's sample papers")
        else:
            site.each([path], lambda path: read_publications(site, path))


def _own_pages(site: Site) -> list[Path]:
    handled = {*_profile_pages(site), _about_page(site)}
    return [
        path
        for path in sorted((site.root / "_pages").glob("*"))
        if path.suffix in PAGE_SUFFIXES
        and path.name not in HANDLED_PAGES
        and not path.name.startswith("about_")
        and path not in handled
    ]


HANDLED_PAGES = {"about.md", "profiles.md", "404.md"}
