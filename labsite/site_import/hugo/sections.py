"""Which pages of a Hugo site's content sections are its own, and what its pages share:
lists, tags and the names of their authors."""

from pathlib import Path
from typing import Any

from labsite.site_import.site import Site, Unreadable, front_matter, is_hidden, plain

# Sections read (people, papers, talks, projects, posts) or settings of the page layout.
READ = {
    "authors", "publication", "publications", "event", "events", "talk", "talks", "project",
    "projects", "news", "post", "posts", "blog", "home",  # home: the page's widget settings
    "teaching", "courses",
}  # fmt: skip


def fresh(site: Site, paths: list[Path], *, drafts: bool = False) -> list[Path]:
    """The pages that are the site's own: the template's samples left in place, and pages
    the site does not build (drafts, `_build: render: never`), are left out and named;
    with `drafts`, those the site does not build are kept (a post comes in unpublished)."""
    kept = []
    for path in paths:
        if site.is_template(path):
            site.leftover(path, "the template's sample")
            continue
        try:
            front, _ = front_matter(site, path)
        except Unreadable:
            kept.append(path)  # named when read
            continue
        if is_hidden(front) and not drafts:
            site.leftovers.append(f"{site.name(path)}: a draft the site does not publish")
        else:
            kept.append(path)
    return kept


def section_pages(content: Path, *sections: str) -> list[Path]:
    """The pages of the sections named: a page bundle's index.md in a folder below each
    section's, and each page of a file of its own (the section's own page left out)."""
    pages = []
    for section in sections:
        folder = content / section
        pages += [p for p in sorted(folder.glob("**/index.md")) if p.parent != folder]
        pages += sorted(p for p in folder.glob("*.md") if p.name not in ("_index.md", "index.md"))
    return pages


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def author_names(site: Site, keys: Any) -> list[str]:
    """The printed names of a page's `authors`: a person's key ("me") becomes their name."""
    people = {p.key: p.name for p in site.people}
    return [people.get(str(k), plain(k)) for k in as_list(keys) if plain(k)]


# The tags the starters' sample pages carry, which a site that kept a sample's front matter
# for a page of its own carries still.
SAMPLE_TAGS = {"source themes"}


def page_tags(site: Site, name: str, values: dict[str, Any], *keys: str) -> list[str]:
    """A page's tags (and, where asked, its categories: posts are filed by both), the
    starters' sample tags left out and named."""
    words = []
    for key in keys or ("tags",):
        value = values.get(key)
        for word in value.split(",") if isinstance(value, str) else as_list(value):
            word = plain(word)
            if word.casefold() in SAMPLE_TAGS:
                site.leftovers.append(f"{name}: the tag “{word}”, the template's sample")
            elif word and word not in words:
                words.append(word)
    return words


def mapping_at(value: Any, *keys: str) -> dict[str, Any]:
    """The mapping at `keys` below `value` (a page's or the configuration's), or {} where
    any of them is not a mapping."""
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, dict) else {}
