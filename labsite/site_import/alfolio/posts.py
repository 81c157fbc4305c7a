"""An al-folio site's news (`_news/`) and posts (`_posts/`, `_drafts/`)."""

import re
from pathlib import Path
from typing import Any

from labsite.site_import.site import (
    Site,
    SiteNews,
    SitePost,
    Unreadable,
    clean_markdown,
    date_of,
    featured_image,
    front_matter,
    plain,
    web_url,
)


def _news_item(site: Site, path: Path) -> None:
    front, body = front_matter(site, path)
    date = date_of(front.get("date")) or date_of(path.name[:10])
    name = site.name(path)
    if date is None:
        raise Unreadable(name, "the news item has no date")
    text = clean_markdown(body)
    inline = front.get("inline")
    if front.get("title") and not inline:
        if text:
            site.no_home.append(f"{name}: the announcement's body (its title is the news)")
        text = plain(front["title"])
    if text:
        site.news.append(SiteNews(date=date, text=text, source=name))


def read_post(site: Site, path: Path, *, draft: bool = False) -> None:
    """A post of _posts (`2024-05-01-title.md`, or .html), or of _drafts, which Jekyll does
    not publish, as it does not a post with `published: false`."""
    front, body = front_matter(site, path)
    name = site.name(path)
    own_body = site.own_post_body(name, plain(front.get("title")), body)
    if own_body is None:
        return
    date = date_of(front.get("date")) or date_of(path.name[:10])
    title = plain(front.get("title")) or _titleized(path)
    if not title or date is None:
        raise Unreadable(name, f"the post has no {'title' if not title else 'date'}")
    authors = front.get("author") or front.get("authors")
    site.posts.append(
        SitePost(
            title=title,
            date=date,
            body=clean_markdown(own_body),
            source=name,
            summary=plain(front.get("description")),
            authors=[authors] if isinstance(authors, str) else words(authors),
            tags=words(front.get("tags")) + words(front.get("categories")),
            url=web_url(front.get("redirect") or front.get("external_source")),
            published=not draft and front.get("published") is not False,
            image=featured_image(site, path, front),
        )
    )


def _titleized(path: Path) -> str:
    """A post's title where it gives none, as Jekyll makes it from the file's name
    (`2019-02-01-Compile-ATS-on-NERSC.md`: "Compile Ats On Nersc", each word capitalized
    as Ruby's `capitalize` does)."""
    slug = re.sub(r"^\d{4}-\d{2}-\d{2}-", "", path.stem)
    return " ".join(word.capitalize() for word in slug.split("-") if word)


def _draft(site: Site, path: Path) -> None:
    read_post(site, path, draft=True)


def words(value: Any) -> list[str]:
    """Tags or categories as Jekyll reads them: a string's words, or a list's items (an
    item written as {tag: Politics, color: …} by its `tag`)."""
    if isinstance(value, str):
        return value.split()
    if not isinstance(value, list):
        return []
    items = [v.get("tag") or v.get("name") if isinstance(v, dict) else v for v in value]
    return [plain(item) for item in items if plain(item)]
