"""A Hugo site's own pages: the home's blocks (Hugo Blox `sections:`, Academic's widget
pages) and the content sections no other reader reads."""

import re
from pathlib import Path
from typing import Any

from labsite.site_import.hugo.sections import READ, fresh, mapping_at
from labsite.site_import.site import (
    Site,
    SitePage,
    clean_markdown,
    front_matter,
    has_form,
    is_hidden,
    plain,
)


def own_pages(site: Site, content: Path, members: set[Path]) -> None:
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
        if is_landing(front) and (home or front.get("sections")):
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

    site.each(fresh(site, paths), read_one)


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


def is_landing(front: dict[str, Any]) -> bool:
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
        content = mapping_at(block, "content")
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
