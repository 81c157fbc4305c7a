"""A Hugo Blox site ("Academic", "academic-cv", research-group layouts): people in
`data/authors/*.yaml` or `content/authors/*/_index.md`; `content/publication(s)/*/index.md`
with `cite.bib` beside them; talks in `content/event(s)/`; `content/project(s)/`; news or
posts; `content/experience.md`; `config/_default/params.yaml`."""

import re
from pathlib import Path
from typing import Any

from core.partial_dates import PartialDate
from lab.models import MemberRole
from labsite.site_import.site import (
    Site,
    SiteNews,
    SitePerson,
    SiteProblem,
    SiteProject,
    SiteTalk,
    add_link,
    clean_markdown,
    date_of,
    front_matter,
    load_yaml,
    plain,
    read_text,
    web_url,
)
from publications.exports import CSL_TYPES
from publications.importing import AuthorRecord, Record, read_bibtex
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
USER_GROUPS = {
    "principal investigator": MemberRole.PI,
    "principal investigators": MemberRole.PI,
    "faculty": MemberRole.FACULTY,
    "researchers": MemberRole.STAFF,
    "research staff": MemberRole.STAFF,
    "staff": MemberRole.STAFF,
    "postdocs": MemberRole.POSTDOC,
    "postdoctoral researchers": MemberRole.POSTDOC,
    "grad students": MemberRole.PHD,
    "phd students": MemberRole.PHD,
    "masters students": MemberRole.MASTERS,
    "undergraduate students": MemberRole.UNDERGRAD,
    "visitors": MemberRole.VISITOR,
}
NOTES = {"equal contribution": "is_equal_contribution", "corresponding author": "is_corresponding"}
LINK_FIELDS = {
    "pdf": "pdf_url",
    "code": "code_url",
    "slides": "slides_url",
    "video": "video_url",
    "project": "project_url",
    "site": "project_url",
}


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
    for path in sorted((site.root / "data" / "authors").glob("*.y*ml")):
        site.people.append(_author_file(site, path))
    for path in sorted((site.root / "content" / "authors").glob("*/_index.md")):
        site.people.append(_author_page(site, path))
    if not site.people:
        raise SiteProblem(
            "The site has no authors (data/authors/*.yaml or content/authors/*/_index.md)."
        )
    if not any(p.is_owner for p in site.people):
        for person in site.people:
            person.is_owner = person.key in ("me", "admin")
    if owner_name and site.owner:
        site.owner.name = owner_name
    _experience_page(site)
    for path in _pages(site, "publication", "publications"):
        _publication(site, path)
    for path in _pages(site, "event", "events", "talk", "talks"):
        _event(site, path)
    for path in _pages(site, "project", "projects"):
        _project(site, path)
    for path in _pages(site, "news", "post", "posts", "blog"):
        _news(site, path)
    _unread(site)
    if (site.root / "config" / "_default" / "params.yaml").is_file():
        site.no_home.append(
            "config/_default/params.yaml: the site's name, theme and layout settings (the "
            "lab's settings hold these)"
        )


READ = {
    "authors", "publication", "publications", "event", "events", "talk", "talks", "project",
    "projects", "news", "post", "posts", "blog", "home",  # home: the page's widget settings
}  # fmt: skip


def _unread(site: Site) -> None:
    """The content sections and pages not read, named so that nothing goes silently."""
    content = site.root / "content"
    for folder in sorted(p for p in content.iterdir() if p.is_dir() and p.name not in READ):
        pages = list(folder.glob("**/*.md"))
        if pages:
            site.no_home.append(f"content/{folder.name}: {len(pages)} pages (not read)")
    for path in sorted(content.glob("*.md")):
        if path.name not in ("_index.md", "experience.md") and clean_markdown(
            front_matter(site, path)[1]
        ):
            site.no_home.append(f"{site.name(path)}: a page of its own (not read)")


def _pages(site: Site, *sections: str) -> list[Path]:
    pages = []
    for section in sections:
        folder = site.root / "content" / section
        pages += [p for p in sorted(folder.glob("**/index.md")) if p.parent != folder]
        pages += sorted(p for p in folder.glob("*.md") if p.name not in ("_index.md", "index.md"))
    return pages


def _split(name: str) -> tuple[str, str]:
    given, _, family = name.strip().rpartition(" ")
    return given, family


def _person(site: Site, key: str, source: str, values: dict[str, Any]) -> SitePerson:
    person = SitePerson(key=key, name="", source=source)
    person.title = plain(values.get("role"))
    person.bio = clean_markdown(str(values.get("bio") or ""))
    person.interests = [plain(i) for i in values.get("interests") or [] if plain(i)]
    person.email = str(values.get("email") or "")
    for group in values.get("user_groups") or []:
        role = USER_GROUPS.get(plain(group).lower())
        if role and not person.role:
            person.role = role
        elif plain(group).lower() == "alumni":
            site.no_home.append(f"{source}: the group Alumni (set when they left by hand)")
    for row in values.get("awards") or []:
        row = row if isinstance(row, dict) else {}
        person.awards.append(
            {
                "name": plain(row.get("title")),
                "awarded_by": plain(row.get("awarder")),
                "date": _month(row.get("date")),
            }
        )
    for key_ in ("skills", "languages", "postnominals", "pronouns"):
        if values.get(key_):
            site.no_home.append(f"{source}: {key_}")
    for row in values.get("experience") or []:
        person.experience.append(_experience(row))
    return person


def _month(value: Any) -> PartialDate | None:
    """A profile row's date as Hugo Blox shows it ("January 2006"): to the month. Its files
    write whole dates ("2020-01-01") for what is known to the month."""
    date = date_of(value)
    return PartialDate(date.year, date.month) if date and date.month else date


def _experience(row: Any) -> dict[str, Any]:
    row = row if isinstance(row, dict) else {}
    return {
        "title": plain(row.get("role") or row.get("title")),
        "organization": plain(row.get("org") or row.get("company")),
        "location": plain(row.get("location")),
        "start": _month(row.get("start") or row.get("date_start")),
        "end": _month(row.get("end") or row.get("date_end")),
        "description": clean_markdown(str(row.get("summary") or row.get("description") or "")),
    }


def _author_file(site: Site, path: Path) -> SitePerson:
    """Hugo Blox's author schema (data/authors/me.yaml)."""
    values = load_yaml(site, path)
    source = site.name(path)
    if not isinstance(values, dict):
        raise SiteProblem(f"{source} is not an author.")
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
        raise SiteProblem(f"{source} does not give the author's name.")
    affiliations = values.get("affiliations") or []
    if affiliations and isinstance(affiliations[0], dict):
        person.affiliation = plain(affiliations[0].get("name"))
    for link in values.get("links") or []:
        if isinstance(link, dict):
            hint = str(link.get("icon") or link.get("label") or "")
            if not add_link(person, hint, str(link.get("url") or "")):
                site.no_home.append(f"{source}: the link {link.get('url')}")
    for row in values.get("education") or []:
        row = row if isinstance(row, dict) else {}
        person.education.append(
            {
                "degree": plain(row.get("degree")),
                "institution": plain(row.get("institution")),
                "location": plain(row.get("location")),
                "start": _month(row.get("start")),
                "end": _month(row.get("end")),
                "description": clean_markdown(str(row.get("summary") or "")),
            }
        )
    photo = path.parent / f"{person.key}.jpg"
    avatar = site.root / "assets" / "media" / "authors" / f"{person.key}.jpg"
    person.photo = next((p for p in (photo, avatar) if p.is_file()), None)
    return person


def _author_page(site: Site, path: Path) -> SitePerson:
    """Older Academic's author page (content/authors/admin/_index.md): the biography is the
    page's body, and an avatar image beside it is the photo."""
    values, body = front_matter(site, path)
    source = site.name(path)
    person = _person(site, path.parent.name, source, values)
    person.name = plain(values.get("title") or values.get("name"))
    if not person.name:
        raise SiteProblem(f"{source} does not give the author's name.")
    person.is_owner = bool(values.get("superuser"))
    person.bio = clean_markdown(body) or person.bio
    organizations = values.get("organizations") or []
    if organizations and isinstance(organizations[0], dict):
        person.affiliation = plain(organizations[0].get("name"))
    for link in values.get("social") or []:
        if isinstance(link, dict):
            url = str(link.get("link") or "").strip()
            if re.fullmatch(r"[^@\s/:]+@[^@\s/]+\.[^@\s/]+", url):  # an address without mailto:
                url = f"mailto:{url}"
            if url.startswith("/") or (url and "://" not in url and not url.startswith("mailto:")):
                site.no_home.append(f"{source}: the link {url} (a file of the site)")
            elif not add_link(person, str(link.get("icon") or ""), url):
                site.no_home.append(f"{source}: the link {url}")
    courses = (values.get("education") or {}).get("courses") or []
    for row in courses if isinstance(courses, list) else []:
        row = row if isinstance(row, dict) else {}
        person.education.append(
            {
                "degree": plain(row.get("course")),
                "institution": plain(row.get("institution")),
                "location": "",
                "start": None,
                "end": date_of(row.get("year")),
                "description": "",
            }
        )
    person.photo = next(iter(sorted(path.parent.glob("avatar.*"))), None)
    return person


def _experience_page(site: Site) -> None:
    """content/experience.md: older Academic lists experience in its own blocks; Hugo Blox
    points at the author's file, read already."""
    path = site.root / "content" / "experience.md"
    if not path.is_file() or site.owner is None:
        return
    values, _ = front_matter(site, path)
    for block in values.get("sections") or []:
        content = block.get("content") if isinstance(block, dict) else None
        items = content.get("items") if isinstance(content, dict) else None
        if isinstance(items, list) and "experience" in str(block.get("block", "")):
            site.owner.experience += [_experience(item) for item in items]


def _names(site: Site, keys: list[Any]) -> list[str]:
    """The printed names of a page's `authors`: a person's key ("me") becomes their name."""
    people = {p.key: p.name for p in site.people}
    return [people.get(str(k), plain(k)) for k in keys if plain(k)]


def _links(values: dict[str, Any]) -> dict[str, str]:
    """{Record field: address} from a page's `links` and older `url_pdf`-style fields."""
    found = {}
    for link in values.get("links") or []:
        if not isinstance(link, dict):
            continue
        kind = str(link.get("type") or link.get("name") or link.get("icon") or "").lower()
        url = web_url(link.get("url"))
        for word, name in LINK_FIELDS.items():
            if word in kind and url:
                found.setdefault(name, url)
        if link.get("provider") == "arxiv" and link.get("id"):
            found.setdefault("arxiv_id", str(link["id"]))
    for word, name in LINK_FIELDS.items():
        if url := web_url(values.get(f"url_{word}")):
            found.setdefault(name, url)
    return found


def _publication(site: Site, path: Path) -> None:
    values, body = front_matter(site, path)
    name = site.name(path)
    bib = path.parent / "cite.bib"
    if bib.is_file():
        records = read_bibtex(read_text(site, bib), site.name(bib))
    else:
        records = [Record(label=name)]
    record = records[0]
    record.title = record.title or plain(values.get("title"))
    types = values.get("publication_types") or []
    if not bib.is_file():
        kind = str(types[0]) if isinstance(types, list) and types else ""
        record.kind = KINDS.get(kind) or NUMBERED_KINDS.get(kind) or Publication.Kind.OTHER
        record.venue_name = plain(values.get("publication")).removeprefix("In ").strip()
        record.venue_short = plain(values.get("publication_short")).removeprefix("In ").strip()
        record.date = date_of(values.get("date"))
        record.doi = str(values.get("doi") or "")
    ids = (values.get("hugoblox") or {}).get("ids") or {}
    for field, value in {**_links(values), "arxiv_id": ids.get("arxiv") or ""}.items():
        if value and not getattr(record, field):
            setattr(record, field, str(value))
    record.abstract = record.abstract or clean_markdown(str(values.get("abstract") or ""))
    if values.get("featured") is not None and record.is_selected is None:
        record.is_selected = bool(values["featured"])
    authors = _names(site, values.get("authors") or [])
    if authors:  # the page's list names the site's people; cite.bib may not
        notes = values.get("author_notes") or []
        record.authors = []
        for position, printed in enumerate(authors):
            given, family = _split(printed)
            author = AuthorRecord(given=given, family=family)
            note = plain(notes[position]).lower() if position < len(notes) else ""
            if note in NOTES:
                setattr(author, NOTES[note], True)
            record.authors.append(author)
    if not record.title:
        record.problems.append(f"{name}: the publication has no title.")
    if clean_markdown(body):
        site.no_home.append(f"{name}: the page's text (the abstract is kept)")
    site.records.append(record)


def _event(site: Site, path: Path) -> None:
    values, body = front_matter(site, path)
    name = site.name(path)
    date = date_of(values.get("event_start") or values.get("date"))
    title = plain(values.get("title"))
    if not title or date is None:
        site.problems.append(f"{name}: the talk has no {'title' if not title else 'date'}.")
        return
    address = values.get("address") or {}
    links = _links(values)
    site.talks.append(
        SiteTalk(
            title=title,
            date=date,
            source=name,
            event=plain(values.get("event") or values.get("event_name")),
            event_url=web_url(values.get("event_url")),
            city=plain(address.get("city")) if isinstance(address, dict) else "",
            country=plain(address.get("country")) if isinstance(address, dict) else "",
            slides_url=links.get("slides_url", ""),
            video_url=links.get("video_url", ""),
            description=clean_markdown(str(values.get("abstract") or values.get("summary") or ""))
            or clean_markdown(body),
            speakers=_names(site, values.get("authors") or []),
        )
    )


def _project(site: Site, path: Path) -> None:
    values, body = front_matter(site, path)
    name = site.name(path)
    title = plain(values.get("title"))
    if not title:
        site.problems.append(f"{name}: the project has no title.")
        return
    links = _links(values)
    site.projects.append(
        SiteProject(
            title=title,
            description=clean_markdown(body) or plain(values.get("summary")),
            source=name,
            url=web_url(values.get("external_link")) or links.get("project_url", ""),
            tags=[plain(t) for t in values.get("tags") or [] if plain(t)],
        )
    )


def _news(site: Site, path: Path) -> None:
    values, body = front_matter(site, path)
    name = site.name(path)
    date = date_of(values.get("date"))
    title = plain(values.get("title"))
    if date is None or not title:
        site.problems.append(f"{name}: the post has no {'date' if date is None else 'title'}.")
        return
    site.news.append(SiteNews(date=date, text=title, source=name))
    if clean_markdown(body):
        site.no_home.append(f"{name}: the post's text (its title is the news)")
