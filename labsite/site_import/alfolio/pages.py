"""An al-folio site's pages (`_pages/`) and projects (`_projects/`), and how its collections
are walked: the files Jekyll builds, less the template's samples and what the site hides."""

import re
from pathlib import Path
from typing import Any

from labsite.site_import.alfolio.posts import words
from labsite.site_import.site import (
    Site,
    SitePage,
    SiteProject,
    Unreadable,
    clean_markdown,
    featured_image,
    front_matter,
    has_form,
    is_hidden,
    plain,
    web_url,
)

# The pages Jekyll builds (its Markdown extensions, HTML, and R Markdown as sites knit it).
PAGE_SUFFIXES = (".md", ".markdown", ".html", ".Rmd", ".rmd")


def collection_items(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*") if p.suffix in PAGE_SUFFIXES and p.is_file())


# Pages whose collection they show: the collection is hidden when the page is.
COLLECTION_PAGES = {
    "cv.md": "cv",
    "projects.md": "projects",
    "teaching.md": "teaching",
    "repositories.md": "repositories",
    "blog.md": "posts",
    "news.md": "news",
}


def _hidden_collections(site: Site) -> set[str]:
    """The collections whose page the site hides from its menu (`nav: false`): the template's
    samples a site keeps but does not show."""
    hidden = set()
    for name, collection in COLLECTION_PAGES.items():
        path = site.root / "_pages" / name
        if path.is_file():
            try:
                front, _ = front_matter(site, path)
            except Unreadable:
                continue
            if is_hidden(front):
                hidden.add(collection)
    return hidden


def _collection(site: Site, folder: str, *, hidden: bool, read_one: Any) -> None:
    paths = collection_items(site.root / folder)
    if hidden and paths:
        pages = {"_news": "news.md", "_projects": "projects.md", "_posts": "blog.md"}
        page = pages.get(folder, "blog.md" if folder == "_drafts" else "teaching.md")
        site.leftovers.append(
            f"{folder}: {len(paths)} items the site hides from its menu (_pages/{page} has "
            "nav: false)"
        )
        return
    fresh = []
    for path in paths:
        if site.is_template(path):
            site.leftover(path, "the template's sample")
        else:
            fresh.append(path)
    site.each(fresh, lambda path: read_one(site, path))


def _project(site: Site, path: Path) -> None:
    front, body = front_matter(site, path)
    name = site.name(path)
    title = plain(front.get("title"))
    if not title:
        raise Unreadable(name, "the project has no title")
    description = plain(front.get("description"))
    text = clean_markdown(body)
    site.projects.append(
        SiteProject(
            title=title,
            description="\n\n".join(t for t in (description, text) if t),
            source=name,
            url=web_url(front.get("redirect")),
            tags=([plain(front["category"])] if front.get("category") else [])
            + words(front.get("tags")),
            image=featured_image(site, path, front),
        )
    )


def read_page(site: Site, path: Path) -> None:
    if site.is_template(path):
        site.leftover(path, "the template's sample page")
        return
    front, body = front_matter(site, path)
    if not front:  # Jekyll builds only files with front matter; it copies this one as is
        site.no_home.append(f"{site.name(path)}: no front matter, so not a page of the site")
    elif LIQUID_LOOP.search(body):  # a listing Jekyll fills from the site's data, no text
        title = plain(front.get("title")) or path.stem
        site.no_home.append(
            f"{site.name(path)}: the page “{title}” lists the site's data through Liquid "
            "(labsite lists its own)"
        )
    elif clean_markdown(body):
        site.pages.append(_site_page(site, path, front, body))


LIQUID_LOOP = re.compile(r"{%-?\s*for\b")


def _site_page(site: Site, path: Path, front: dict[str, Any], body: str) -> SitePage:
    if has_form(body):
        site.no_home.append(f"{site.name(path)}: its form (labsite's pages hold no forms)")
    return SitePage(
        title=plain(front.get("title")) or path.stem,
        body=clean_markdown(body),
        source=site.name(path),
        in_menu=not is_hidden(front),
        order=front.get("nav_order") if isinstance(front.get("nav_order"), int) else None,
        address=str(front.get("permalink") or ""),
    )
