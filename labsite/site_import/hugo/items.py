"""A Hugo site's talks (content/event/), projects, courses (content/teaching/,
content/courses/) and news."""

from pathlib import Path
from typing import Any

from labsite.site_import.hugo.links import links_of
from labsite.site_import.hugo.sections import author_names, fresh, mapping_at, page_tags
from labsite.site_import.maps import HUGO_COURSE, HUGO_EVENT, HUGO_NEWS, HUGO_PROJECT, given
from labsite.site_import.site import (
    Site,
    SiteCourse,
    SiteNews,
    SitePage,
    SiteProject,
    SiteTalk,
    Unreadable,
    clean_markdown,
    date_of,
    featured_image,
    front_matter,
    is_hidden,
    plain,
    web_url,
)


def read_event(site: Site, path: Path) -> None:
    """A talk's page (content/event/), by the map of Hugo's event pages; its links other
    than slides and video are named."""
    values, body = front_matter(site, path)
    name = site.name(path)

    def field(what: str) -> Any:
        return given(values, HUGO_EVENT, what)

    date = date_of(field("date"))
    title = plain(field("title"))
    if not title or date is None:
        raise Unreadable(name, f"the talk has no {'title' if not title else 'date'}")
    address = mapping_at(field("address"))
    if not address and plain(field("city")):
        address = {"city": plain(field("city"))}
    links = links_of(values)
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
            event=plain(field("event")),
            event_url=web_url(field("event_url")),
            city=plain(address.get("city")),
            country=plain(address.get("country")),
            slides_url=links.get("slides_url", ""),
            video_url=links.get("video_url", ""),
            description=clean_markdown(str(field("description") or "")) or clean_markdown(body),
            speakers=author_names(site, field("speakers")),
            tags=page_tags(site, name, values),
            image=featured_image(site, path, values),
        )
    )


def read_project(site: Site, path: Path) -> None:
    """A project's page: its address the page's external link, else its first link."""
    values, body = front_matter(site, path)
    name = site.name(path)
    title = plain(given(values, HUGO_PROJECT, "title"))
    if not title:
        raise Unreadable(name, "the project has no title")
    links = links_of(values)
    site.projects.append(
        SiteProject(
            title=title,
            description=clean_markdown(body) or plain(given(values, HUGO_PROJECT, "summary")),
            source=name,
            url=web_url(given(values, HUGO_PROJECT, "url"))
            or links.get("project_url", "")
            or next(iter([u for k, u in links.items() if k.endswith("_url")]), ""),
            tags=page_tags(site, name, values),
            image=featured_image(site, path, values),
        )
    )


def read_courses(site: Site, folder: Path) -> None:
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
    site.each(fresh(site, courses), lambda path: _course(site, path))
    if chapters:
        site.no_home.append(f"{site.name(folder)}: {chapters} pages of the courses' own text")
    index = folder / "_index.md"
    site.each(fresh(site, [index] if index.exists() else []), lambda path: _teaching(site, path))


def _course(site: Site, path: Path) -> None:
    values, body = front_matter(site, path)

    def field(what: str) -> Any:
        return given(values, HUGO_COURSE, what)

    title = plain(field("title"))
    if not title:
        raise Unreadable(site.name(path), "the course has no title")
    site.courses.append(
        SiteCourse(
            title=title,
            source=site.name(path),
            institution=plain(field("institution")),
            role=plain(field("role")),
            start=date_of(field("date")),
            description=clean_markdown(body) or plain(field("summary")),
            tags=page_tags(site, site.name(path), values),
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


def read_news(site: Site, path: Path) -> None:
    values, body = front_matter(site, path)
    name = site.name(path)
    date = date_of(given(values, HUGO_NEWS, "date"))
    title = plain(given(values, HUGO_NEWS, "title"))
    if date is None or not title:
        raise Unreadable(name, f"the news item has no {'date' if date is None else 'title'}")
    site.news.append(SiteNews(date=date, text=title, source=name))
    if clean_markdown(body):
        site.no_home.append(f"{name}: the news item's text (its title is the news)")
