"""An al-folio (Jekyll) site, v0.3 (2020) to v0.16 (2026): `_config.yml`, `_pages/about.md`,
`_data/socials.yml`, `_data/cv.yml` (RenderCV, or the older list of sections) or
`assets/json/resume.json`, `_pages/profiles.md`, `_data/coauthors.yml`,
`_data/repositories.yml`, `_news/`, `_posts/`, `_projects/`, `_teachings/` and
`_bibliography/*.bib`. al-folio is a one-person site: everything belongs to its owner."""

import json
import re
from pathlib import Path
from typing import Any

from labsite.site_import.site import (
    ORGANISATION,
    Site,
    SiteCourse,
    SiteNews,
    SitePage,
    SitePerson,
    SitePost,
    SiteProject,
    Unreadable,
    add_link,
    clean_markdown,
    date_of,
    featured_image,
    front_matter,
    has_form,
    inside,
    is_hidden,
    load_yaml,
    plain,
    read_publications,
    read_text,
    split_roles,
    values_of_page,
    web_url,
)

GENERATOR = "al-folio"
IMAGES = ("assets/img", "assets/images", "img")
# _data/socials.yml (and older sites' _config.yml): a key, and the address it stands for.
SOCIALS = {
    "scholar_userid": "https://scholar.google.com/citations?user={}",
    "github_username": "https://github.com/{}",
    "linkedin_username": "https://www.linkedin.com/in/{}",
    "x_username": "https://x.com/{}",
    "twitter_username": "https://x.com/{}",
    "gitlab_username": "https://gitlab.com/{}",
    "inspirehep_id": "https://inspirehep.net/authors/{}",
    "research_gate_profile": "https://www.researchgate.net/profile/{}",
    "semanticscholar_id": "https://www.semanticscholar.org/author/{}",
    "dblp_url": "{}",
    "website_url": "{}",
    "orcid_id": "https://orcid.org/{}",
}
SOCIAL_LABELS = {
    "inspirehep_id": "INSPIRE-HEP",
    "research_gate_profile": "ResearchGate",
    "semanticscholar_id": "Semantic Scholar",
    "gitlab_username": "GitLab",
}
# Display settings, not facts about the person: read and left alone without a word.
SOCIAL_SETTINGS = {"rss_icon", "enable_social"}
# The template's own description of itself, which a site that never changed it still carries.
TEMPLATE_DESCRIPTION = re.compile(r"simple,? whitespace theme for academics", re.I)
# cv.yml's sections (either form), by the words of their headings as sites write them.
SECTIONS = (
    ("teaching", re.compile(r"teaching|courses", re.I)),
    ("education", re.compile(r"education|academic background|degrees", re.I)),
    ("awards", re.compile(r"award|honou?r|grant|fellowship|scholarship|prize|funding", re.I)),
    (
        "experience",
        re.compile(r"experience|employment|position|appointment|^work$|volunteer|career", re.I),
    ),
)


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


def _section(heading: str) -> str:
    return next((kind for kind, words in SECTIONS if words.search(heading)), "")


# Pages whose collection they show: the collection is hidden when the page is.
COLLECTION_PAGES = {
    "cv.md": "cv",
    "projects.md": "projects",
    "teaching.md": "teaching",
    "repositories.md": "repositories",
    "blog.md": "posts",
    "news.md": "news",
}
HANDLED_PAGES = {"about.md", "profiles.md", "404.md"}


def is_site(root: Path) -> bool:
    return any((root / name).exists() for name in ("_pages", "_bibliography", "_news", "_projects"))


def read(site: Site, owner_name: str = "") -> None:
    config = _config(site)
    owner = SitePerson(key="owner", name="", source="_config.yml", is_owner=True)
    site.people.append(owner)
    hidden = _hidden_collections(site)
    site.each([_about_page(site)], lambda path: _about(site, owner, path))
    parts = (str(config.get(p) or "").strip() for p in ("first_name", "middle_name", "last_name"))
    owner.name = owner_name or owner.name or " ".join(part for part in parts if part)
    if not owner.name:
        owner.name = "Owner"
        site.skip(
            "_config.yml",
            "the site does not name its owner (no first_name and last_name); the profile is "
            "“Owner” until renamed (or give the name with --name)",
        )
    _site_name(site, config, owner)
    scholar = config.get("scholar") if isinstance(config.get("scholar"), dict) else {}
    lasts, firsts = scholar.get("last_name") or [], scholar.get("first_name") or []
    for last in lasts if isinstance(lasts, list) else [lasts]:
        for first in firsts if isinstance(firsts, list) else [firsts]:
            owner.name_variants.append(f"{plain(first)} {plain(last)}")
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
    _collection(site, "_news", hidden="news" in hidden, read_one=_news_item)
    _collection(site, "_projects", hidden="projects" in hidden, read_one=_project)
    _collection(site, "_posts", hidden="posts" in hidden, read_one=_post)
    _collection(site, "_drafts", hidden="posts" in hidden, read_one=_draft)
    _collection(site, "_teachings", hidden="teaching" in hidden, read_one=_course)
    for path in sorted((site.root / "_bibliography").glob("*.bib")):
        if site.is_template(path):
            site.leftover(path, "the template's sample papers")
        else:
            site.each([path], lambda path: read_publications(site, path))
    site.each(_own_pages(site), lambda path: _page(site, path))
    for folder in ("_books",):
        pages = list((site.root / folder).glob("*.md"))
        if pages:
            site.no_home.append(f"{folder}: {len(pages)} pages (labsite keeps no books)")


def _data_files(site: Site, name: str) -> list[Path]:
    path = site.root / "_data" / name
    if not path.is_file():
        return []
    if site.is_template(path):
        site.leftover(path, "the template's sample data")
        return []
    return [path]


def _mapping(site: Site, path: Path) -> dict[str, Any]:
    values = load_yaml(site, path) or {}
    if not isinstance(values, dict):
        raise Unreadable(site.name(path), "not a set of fields")
    return values


def _config(site: Site) -> dict[str, Any]:
    path = site.root / "_config.yml"
    found: list[dict[str, Any]] = []
    site.each([path] if path.is_file() else [], lambda p: found.append(_mapping(site, p)))
    if found:
        site.lands(path, "the lab's settings and its owner's profile")
    return found[0] if found else {}


def _site_name(site: Site, config: dict[str, Any], owner: SitePerson) -> None:
    """The site's title (al-folio writes "blank" for "the owner's name") and description."""
    title = plain(config.get("title"))
    site.title = title if title and title.lower() != "blank" else owner.name
    description = plain(config.get("description"))
    if description and not TEMPLATE_DESCRIPTION.search(description):
        site.tagline = description


def _config_socials(config: dict[str, Any]) -> dict[str, Any]:
    """Older al-folio sites keep the social keys in _config.yml."""
    return {key: config[key] for key in (*SOCIALS, "email") if config.get(key)}


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


def _about(site: Site, owner: SitePerson, path: Path) -> None:
    if not path.is_file():
        return
    if site.is_template(path):
        site.leftover(path, "the template's sample owner")
        return
    owner.source = site.name(path)
    front, body = front_matter(site, path)
    owner.bio = clean_markdown(body)
    owner.title = plain(front.get("subtitle"))[:200]
    profile = front.get("profile") or {}
    if isinstance(profile, dict):
        if profile.get("image"):
            owner.photo = inside(site, str(profile["image"]), *IMAGES)
            if owner.photo is None:
                site.no_home.append(
                    f"{owner.source}: the photo {profile['image']} (not in the folder)"
                )
        if profile.get("more_info"):
            site.no_home.append(f"{owner.source}: profile.more_info (an address block)")
    experiences = front.get("experiences") or {}
    if isinstance(experiences, dict) and isinstance(experiences.get("content"), list):
        for row in experiences["content"]:
            row = row if isinstance(row, dict) else {}
            start, end = _years(row.get("date"))
            owner.experience.append(
                {
                    "title": plain(row.get("title")),
                    "organization": plain(row.get("company")),
                    "location": plain(row.get("location")),
                    "start": start,
                    "end": end,
                    "description": "\n".join(
                        f"- {d}" for d in row.get("description_list") or [] if str(d).strip()
                    ),
                }
            )
    seo = front.get("seo") or {}
    if isinstance(seo, dict) and isinstance(seo.get("alternate_names"), list):
        owner.name_variants += [plain(n).strip(" ,") for n in seo["alternate_names"] if plain(n)]
    _schema_markup(site, owner, front.get("schema_markup"))


def _schema_markup(site: Site, owner: SitePerson, markup: Any) -> None:
    """A schema.org Person some owners write into about.md for search engines."""
    try:
        person = json.loads(markup) if isinstance(markup, str) else None
    except ValueError:
        site.no_home.append(f"{owner.source}: schema_markup (not readable JSON)")
        return
    if not isinstance(person, dict) or person.get("@type") != "Person":
        return
    owner.name = plain(person.get("name"))
    owner.title = plain(person.get("jobTitle")) or owner.title
    works_for = person.get("worksFor")
    if isinstance(works_for, dict):
        owner.affiliation = plain(works_for.get("name"))
    for url in person.get("sameAs") or []:
        add_link(owner, "", str(url))
    owner.interests += [plain(x) for x in person.get("knowsAbout") or [] if plain(x)]
    for key, what in (("alumniOf", "schools"), ("award", "awards"), ("teaches", "courses")):
        if person.get(key):
            site.no_home.append(
                f"{owner.source}: schema_markup {key} ({len(person[key])} {what}; the "
                f"profile's own sections hold these when the site lists them there)"
            )


def _socials(site: Site, owner: SitePerson, socials: dict[str, Any], source: str) -> None:
    for key, value in socials.items():
        if key in SOCIAL_SETTINGS or value in (None, "", False):
            continue
        if key == "email":
            owner.email = owner.email or str(value)
        elif key in SOCIALS:
            # some sites give the whole address where the key asks for a user name
            url = web_url(value) or SOCIALS[key].format(value)
            add_link(owner, SOCIAL_LABELS.get(key, key), url) or site.no_home.append(
                f"{source}: {key} ({value})"
            )
        elif isinstance(value, dict) and web_url(value.get("url")):
            add_link(owner, str(value.get("title") or key), value["url"])
        else:
            site.no_home.append(f"{source}: {key}")


def _cv(site: Site, owner: SitePerson, *, hidden: bool) -> None:
    """Education, experience, awards and teaching from _data/cv.yml, else
    assets/json/resume.json; neither when the site hides its CV page or keeps the
    template's."""
    cv_path = site.root / "_data" / "cv.yml"
    resume_path = site.root / "assets" / "json" / "resume.json"
    found = [p for p in (cv_path, resume_path) if p.is_file()]
    for path in found:
        if site.is_template(path):
            site.leftover(path, "the template's sample CV")
        elif hidden:
            site.leftover(path, "a CV the site hides from its menu (_pages/cv.md has nav: false)")
    found = [p for p in found if not hidden and not site.is_template(p)]
    if not found:
        return
    if found[0] == cv_path:
        site.each([cv_path], lambda path: _cv_yml(site, owner, load_yaml(site, path), path))
        if len(found) > 1:
            site.no_home.append(
                "assets/json/resume.json: not read, as _data/cv.yml says the same and is read"
            )
    else:
        site.each([resume_path], lambda path: _resume(site, owner, path))


def _cv_yml(site: Site, owner: SitePerson, data: Any, path: Path) -> None:
    """al-folio's cv.yml: {cv: {name, email, social_networks, sections: {Education: […]}}}
    (RenderCV, since v0.14), or before it a list of {title, type, contents}."""
    source = site.name(path)
    if isinstance(data, list):
        _older_cv(site, owner, data, source)
        return
    cv = data.get("cv") if isinstance(data, dict) else None
    if not isinstance(cv, dict):
        raise Unreadable(source, "it has no “cv” section")
    owner.email = owner.email or str(cv.get("email") or "")
    if not owner.bio and cv.get("summary"):
        owner.bio = str(cv["summary"])
    sections = cv.get("sections") if isinstance(cv.get("sections"), dict) else {}
    for section, rows in sections.items():
        rows = rows if isinstance(rows, list) else []
        key = _section(plain(section))
        if key == "education":
            owner.education += [
                _education(r, "studyType", "area", "start_date", "end_date") for r in rows
            ]
        elif key == "teaching":
            for row in rows:
                _course_row(site, row, source)
        elif key == "experience":
            owner.experience += [_experience(r, "start_date", "end_date") for r in rows]
        elif key == "awards":
            owner.awards += [_award(r) for r in rows]
        else:
            site.no_home.append(f"{source}: the section “{section}” ({len(rows)} entries)")


def _older_cv(site: Site, owner: SitePerson, sections: list[Any], source: str) -> None:
    """al-folio's cv.yml before RenderCV: [{title, type, contents}]; a time_table's rows hold
    {title, institution, year: "2019 - 2023", description}, or {year, items} for honors."""
    for section in sections:
        if not isinstance(section, dict):
            site.skip(source, f"a section is not a set of fields ({plain(section)[:60]})")
            continue
        title = plain(section.get("title"))
        key = _section(title) or title.lower()
        rows = section.get("contents") if isinstance(section.get("contents"), list) else []
        if key == "education":
            owner.education += [_dated_row(row, "degree", "institution") for row in rows]
        elif key == "teaching":
            for row in rows:
                _course_row(site, row, source)
        elif key == "experience":
            owner.experience += [_dated_row(row, "title", "organization") for row in rows]
        elif key == "awards":
            for row in rows:
                owner.awards += _older_awards(row)
        elif key == "general information":
            for row in rows:
                if isinstance(row, dict):
                    _general(site, owner, row, source)
        else:
            site.no_home.append(f"{source}: the section “{title}” ({len(rows)} entries)")


def _general(site: Site, owner: SitePerson, row: dict[str, Any], source: str) -> None:
    name, value = plain(row.get("name")), plain(row.get("value"))
    key = name.lower()
    if key == "full name":
        return
    if key in ("email", "e-mail"):
        owner.email = owner.email or value
    elif key == "orcid":
        owner.orcid = owner.orcid or value
    elif key in ("website", "homepage"):
        url = value if "://" in value else f"https://{value}"
        add_link(owner, "homepage", url) or site.no_home.append(f"{source}: {name}")
    elif key in ("current position", "position") and not owner.title:
        owner.title = value[:200]
    else:
        site.no_home.append(f"{source}: {name}")


def _dated_row(row: Any, what: str, where: str) -> dict[str, Any]:
    row = row if isinstance(row, dict) else {"title": row}
    start, end = _years(row.get("year"))
    details = row.get("description") or []
    details = details if isinstance(details, list) else [details]
    return {  # some sites name the degree and the employer by their own keys
        what: plain(row.get("title") or row.get(what)),
        where: plain(row.get("institution") or row.get(where) or row.get("company")),
        "location": plain(row.get("location")),
        "start": start,
        "end": end,
        "description": "\n".join(f"- {plain(d)}" for d in details if plain(d)),
    }


def _older_awards(row: Any) -> list[dict[str, Any]]:
    """An older honors row: {year, items: [names]}, or {title, institution, year}."""
    if not isinstance(row, dict):
        return [{"name": plain(row), "awarded_by": "", "date": None}] if plain(row) else []
    start, _ = _years(row.get("year"))
    items = row.get("items")
    if isinstance(items, list):
        return [{"name": plain(i), "awarded_by": "", "date": start} for i in items if plain(i)]
    name = plain(row.get("title") or row.get("name"))
    awarder = plain(row.get("institution") or row.get("awarder"))
    return [{"name": name, "awarded_by": awarder, "date": start}] if name else []


_RANGE = re.compile(r"\s+(?:-|–|—|to)\s+|(?<=\d)\s*[-–—]\s*(?=\d|now|present|current)", re.I)


def _years(text: Any) -> tuple[Any, Any]:
    """ "2019 - 2023", "Mar 2017 – Feb 2024", "2024.7 - now", "2021": (start, end); "now"
    and "present" are no end."""
    start, *end = _RANGE.split(str(text or "").strip(), maxsplit=1)
    return date_of(start.strip()), date_of(end[0].strip()) if end else None


def _resume(site: Site, owner: SitePerson, path: Path) -> None:
    """A JSON Resume (jsonresume.org, al-folio's assets/json/resume.json)."""
    source = site.name(path)
    try:
        resume = json.loads(read_text(site, path))
    except ValueError:
        raise Unreadable(source, "not readable JSON") from None
    if not isinstance(resume, dict):
        raise Unreadable(source, "not a JSON Resume")
    basics = resume.get("basics") if isinstance(resume.get("basics"), dict) else {}
    owner.email = owner.email or str(basics.get("email") or "")
    owner.title = owner.title or plain(basics.get("label"))[:200]
    if not owner.bio and basics.get("summary"):
        owner.bio = str(basics["summary"])
    for profile in basics.get("profiles") or []:
        if isinstance(profile, dict) and profile.get("url"):
            add_link(owner, str(profile.get("network") or ""), str(profile["url"]))
    for key, rows in resume.items():
        rows = rows if isinstance(rows, list) else []
        if key == "education":
            owner.education += [
                _education(r, "studyType", "area", "startDate", "endDate") for r in rows
            ]
        elif key in ("work", "volunteer"):
            owner.experience += [_experience(r, "startDate", "endDate") for r in rows]
        elif key == "awards":
            owner.awards += [_award(r) for r in rows]
        elif key == "interests":
            owner.interests += [plain(r.get("name")) for r in rows if isinstance(r, dict)]
        elif key == "publications" and rows:
            site.no_home.append(
                f"{source}: publications ({len(rows)} entries; the papers come from _bibliography)"
            )
        elif rows:
            site.no_home.append(f"{source}: {key} ({len(rows)} entries)")


def _details(row: dict[str, Any]) -> str:
    lines = [plain(row.get("summary"))] if row.get("summary") else []
    highlights = row.get("highlights") or []
    lines += [f"- {plain(h)}" for h in (highlights if isinstance(highlights, list) else [])]
    return "\n".join(line for line in lines if line.strip("- "))


def _education(row: Any, kind: str, area: str, start: str, end: str) -> dict[str, Any]:
    row = row if isinstance(row, dict) else {}
    degree = " in ".join(plain(row.get(k)) for k in (kind, area) if plain(row.get(k)))
    return {
        "degree": degree or plain(row.get("degree")),
        "institution": plain(row.get("institution")),
        "location": plain(row.get("location")),
        "start": date_of(row.get(start)),
        "end": date_of(row.get(end)),
        "description": _details(row),
    }


def _experience(row: Any, start: str, end: str) -> dict[str, Any]:
    row = row if isinstance(row, dict) else {}
    return {
        "title": plain(row.get("position")),
        "organization": plain(row.get("company") or row.get("name") or row.get("organization")),
        "location": plain(row.get("location")),
        "start": date_of(row.get(start)),
        "end": date_of(row.get(end)),
        "description": _details(row),
    }


def _award(row: Any) -> dict[str, Any]:
    row = row if isinstance(row, dict) else {"name": row}
    return {
        "name": plain(row.get("title") or row.get("name")),
        "awarded_by": plain(row.get("awarder")),
        "date": date_of(row.get("date")),
    }


def _coauthors(site: Site, path: Path) -> None:
    coauthors = load_yaml(site, path) or {}
    if coauthors:
        site.no_home.append(
            f"{site.name(path)}: pages of {len(coauthors)} outside authors (outside authors "
            "are kept as printed names, without pages)"
        )


def _repositories(site: Site, owner: SitePerson, path: Path) -> None:
    """_data/repositories.yml: GitHub repositories the owner shows (each a project with its
    address) and GitHub users (named: one is the owner's own link already)."""
    data = _mapping(site, path)
    source = site.name(path)
    for repo in data.get("github_repos") or []:
        name = plain(repo)
        if re.fullmatch(r"[\w.-]+/[\w.-]+", name):
            site.projects.append(
                SiteProject(
                    title=name, description="", source=source, url=f"https://github.com/{name}"
                )
            )
        elif name:
            site.skip(source, f"“{name[:100]}” is not a GitHub repository (owner/name)")
    users = data.get("github_users") or []
    users = [plain(u) for u in (users if isinstance(users, list) else [users]) if plain(u)]
    own = {link[2].rstrip("/").rpartition("/")[2].lower() for link in owner.links}
    others = [u for u in users if u.lower() not in own]
    if others:
        site.no_home.append(f"{source}: GitHub users {', '.join(others[:10])} (not people here)")


def _teaching_data(site: Site, path: Path) -> None:
    data = load_yaml(site, path)
    rows = data if isinstance(data, list) else []
    for row in rows:
        _course_row(site, row, site.name(path))


def _course_row(site: Site, row: Any, source: str) -> None:
    row = row if isinstance(row, dict) else {"title": row}
    title = plain(row.get("title") or row.get("name") or row.get("course"))
    if not title:
        return
    start, end = _years(row.get("year") or row.get("date") or row.get("term"))
    site.courses.append(
        SiteCourse(
            title=title,
            source=source,
            institution=plain(row.get("institution") or row.get("university")),
            role=plain(row.get("role")),
            start=start,
            end=end,
            description=clean_markdown(str(row.get("description") or "")),
        )
    )


def _profiles(site: Site, owner: SitePerson, path: Path) -> None:
    """_pages/profiles.md: al-folio's page of several people. Each profile's `content` names
    a page of _pages (the template's shape) or is the person's text itself, beside their
    `name`, `role`, `email` and links (a lab's team page)."""
    if not path.is_file():
        return
    if site.is_template(path):
        site.leftover(path, "the template's sample profiles page")
        return
    front, body = front_matter(site, path)
    profiles = front.get("profiles") if isinstance(front.get("profiles"), list) else []
    if not profiles:
        if clean_markdown(body):
            site.pages.append(_site_page(site, path, front, body))
        return
    for position, profile in enumerate(profiles):
        if isinstance(profile, dict):
            _profile(site, owner, path, position, profile)


PAGE_NAME = re.compile(r"^[\w./ -]{1,200}\.(?:md|markdown|html)$")
HONORIFIC = re.compile(r"^(?:dr|prof|professor|mr|mrs|ms)\.?\s+", re.I)


def _profile(
    site: Site, owner: SitePerson, path: Path, position: int, profile: dict[str, Any]
) -> None:
    content = str(profile.get("content") or "").strip()
    values: dict[str, Any] = {}
    text, source, key = "", site.name(path), ""
    if PAGE_NAME.match(content):
        page = site.root / "_pages" / content
        if not page.resolve().is_relative_to(site.root.resolve()) or not page.is_file():
            site.skip(source, f"the profile page {content} is not there")
            return
        if site.is_template(page):
            site.leftover(page, "the template's sample profile")
            return
        values, text = front_matter(site, page)
        source, key = site.name(page), page.stem
    else:
        text = content  # the person's text, written in the profile itself
    name = HONORIFIC.sub("", plain(profile.get("name")) or plain(values.get("title")))
    if not name or (position == 0 and name == owner.name):
        return
    person = SitePerson(key=key or f"profile-{position + 1}", name=name, source=source)
    person.bio = clean_markdown(text)
    roles = split_roles(profile.get("role") or profile.get("position"))
    person.title = ", ".join(roles)[:200]
    person.groups = roles[:1]
    person.email = plain(profile.get("email"))
    for field_name, value in profile.items():
        if str(field_name).endswith("_url") and web_url(value):
            add_link(person, str(field_name).removesuffix("_url"), str(value).strip())
    if profile.get("image"):
        person.photo = inside(site, str(profile["image"]), *IMAGES)
    site.people.append(person)


def _profile_pages(site: Site) -> list[Path]:
    """The pages that list people: _pages/profiles.md, and any page of `layout: profiles`."""
    found = []
    for path in sorted((site.root / "_pages").glob("*")):
        if path.suffix not in PAGE_SUFFIXES:
            continue
        if path.name == "profiles.md":
            found.append(path)
            continue
        try:
            front, _ = front_matter(site, path)
        except Unreadable:
            continue
        if str(front.get("layout") or "") == "profiles":
            found.append(path)
    return found


# Collections al-folio itself reads; any other a site declares may hold its people.
OWN_COLLECTIONS = {"news", "projects", "posts", "drafts", "teachings", "books", "talks"}
PERSON_FIELDS = {
    "role", "position", "bio", "socials", "social", "image", "photo", "avatar", "profile",
    "ex_member", "email", "website", "github", "scholar", "orcid", "linkedin", "twitter",
}  # fmt: skip


def _people_collections(site: Site, config: dict[str, Any]) -> list[str]:
    """The folders of the site's own collections (`collections: people:` in _config.yml,
    `_people/`) whose items look like people: a name and a role, bio, social or photo."""
    declared = config.get("collections")
    names = list(declared) if isinstance(declared, dict | list) else []
    names = [str(n) for n in names if str(n) not in OWN_COLLECTIONS]
    if (site.root / "_people").is_dir() and "people" not in names:
        names.append("people")
    folders = []
    for name in names:
        items = _items(site.root / f"_{name}")
        if items and sum(_looks_like_a_person(site, p) for p in items) * 2 >= len(items):
            folders.append(f"_{name}")
    return folders


def _looks_like_a_person(site: Site, path: Path) -> bool:
    try:
        values, _ = values_of_page(site, path)
    except Unreadable:
        return False
    keys = {str(k).lower() for k in values}
    return bool(keys & {"name", "title"}) and bool(keys & PERSON_FIELDS)


def _member(site: Site, path: Path) -> None:
    """A person of the lab's own collection, in al-folio's profile words: `name` (else
    `title`), `role` (or `position`), `socials`, `ex_member`, an image, and the text below
    as their bio."""
    front, body = front_matter(site, path)
    name = site.name(path)
    profile = front.get("profile") if isinstance(front.get("profile"), dict) else {}
    # a lab's own profile layout (NEU HAI's): `profile.name`, `title` the role, `group`
    printed = plain(front.get("name")) or plain(profile.get("name"))
    role = front.get("role") or front.get("position") or (front.get("title") if printed else "")
    printed = HONORIFIC.sub("", printed or plain(front.get("title")))
    if not printed:
        raise Unreadable(name, "the person has no name")
    if PLACEHOLDER_NAME.match(printed):
        site.leftovers.append(f"{name}: the site's example member ({printed})")
        return
    person = SitePerson(key=path.stem, name=printed, source=name)
    person.bio = (
        clean_markdown(body)
        or clean_markdown(str(front.get("bio") or ""))
        or clean_markdown(str(front.get("teaser") or ""))
    )
    roles = split_roles(role)
    person.title = ", ".join(roles)[:200]
    group = plain(front.get("group"))
    person.groups = [group] if group else roles[:1]
    for key in ("website", "github", "twitter", "orcid", "scholar", "linkedin"):
        value = plain(profile.get(key))
        if value:
            patterns = [SOCIALS[k] for k in (f"{key}_username", f"{key}_id") if k in SOCIALS]
            url = web_url(value) or (patterns[0].format(value) if patterns else "")
            if not (url and add_link(person, key, url)):
                site.no_home.append(f"{name}: profile.{key} ({value[:60]})")
    if profile.get("email") and not front.get("email"):
        person.email = plain(profile["email"])
    if profile.get("address"):
        site.no_home.append(f"{name}: profile.address (an office address; people have none here)")
    person.alumni = front.get("ex_member") is True or str(front.get("ex_member")).lower() == "true"
    person.email = plain(front.get("email"))
    socials = front.get("socials") or front.get("social") or {}
    if isinstance(socials, dict):
        for key, value in socials.items():
            url = web_url(value) or (SOCIALS[key].format(value) if key in SOCIALS else "")
            if not (url and add_link(person, str(key), url)):
                site.no_home.append(f"{name}: socials.{key} ({plain(value)[:60]})")
    for key in ("website", "github", "scholar", "orcid", "linkedin", "twitter"):
        if web_url(front.get(key)):
            add_link(person, key, web_url(front.get(key)))
    picture = front.get("image") or front.get("photo") or front.get("avatar")
    if not picture:
        picture = profile.get("image")
    if picture:
        person.photo = inside(site, str(picture), *IMAGES)
        if person.photo is None:
            site.no_home.append(f"{name}: the photo {picture} (not in the folder)")
    site.people.append(person)


PLACEHOLDER_NAME = re.compile(r"^(?:firstname lastname|first name last name|your name)$", re.I)


def _lab_owner(site: Site, owner: SitePerson, config: dict[str, Any]) -> None:
    """A lab's al-folio site names the lab where a researcher's names its owner
    (`first_name: Aiello Research Group`, or the site's own title): that is an account of
    the lab, not a person; its text is the lab's About, and the first person of its team
    page owns the site."""
    team = [p for p in site.people if p is not owner]
    title = plain(config.get("title"))
    is_lab = ORGANISATION.search(owner.name) or (
        title and title.casefold() == owner.name.casefold() and len(team) > 1
    )
    if not team or not is_lab:
        return
    site.people.remove(owner)
    site.organisations.append(f"{owner.source}: {owner.name}")
    if not site.about:
        site.about, site.about_source = owner.bio, owner.source
    team[0].is_owner = True
    for kind in ("links", "education", "experience", "awards"):
        if getattr(owner, kind):
            site.no_home.append(
                f"{owner.source}: the lab's {kind} ({len(getattr(owner, kind))}; the lab is "
                "not a person)"
            )


# The pages Jekyll builds (its Markdown extensions, HTML, and R Markdown as sites knit it).
PAGE_SUFFIXES = (".md", ".markdown", ".html", ".Rmd", ".rmd")


def _items(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*") if p.suffix in PAGE_SUFFIXES and p.is_file())


def _collection(site: Site, folder: str, *, hidden: bool, read_one: Any) -> None:
    paths = _items(site.root / folder)
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


def _post(site: Site, path: Path, *, draft: bool = False) -> None:
    """A post of _posts (`2024-05-01-title.md`, or .html), or of _drafts, which Jekyll does
    not publish, as it does not a post with `published: false`."""
    front, body = front_matter(site, path)
    name = site.name(path)
    body = site.own_post_body(name, plain(front.get("title")), body)
    if body is None:
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
            body=clean_markdown(body),
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
    _post(site, path, draft=True)


def words(value: Any) -> list[str]:
    """Tags or categories as Jekyll reads them: a string's words, or a list's items (an
    item written as {tag: Politics, color: …} by its `tag`)."""
    if isinstance(value, str):
        return value.split()
    if not isinstance(value, list):
        return []
    items = [v.get("tag") or v.get("name") if isinstance(v, dict) else v for v in value]
    return [plain(item) for item in items if plain(item)]


def _course(site: Site, path: Path) -> None:
    front, body = front_matter(site, path)
    row = {**front, "description": front.get("description") or body}
    _course_row(site, row, site.name(path))


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


def _about_page(site: Site) -> Path:
    """The owner's (or the lab's) landing text: _pages/about.md, else the page of `layout:
    about` or at `permalink: /` (a lab's _pages/home.md)."""
    about = site.root / "_pages" / "about.md"
    if about.is_file():
        return about
    for path in sorted((site.root / "_pages").glob("*")):
        if path.suffix not in PAGE_SUFFIXES:
            continue
        try:
            front, _ = values_of_page(site, path)
        except Unreadable:
            continue
        if front.get("layout") == "about" or str(front.get("permalink") or "") == "/":
            return path
    return about


def _page(site: Site, path: Path) -> None:
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
