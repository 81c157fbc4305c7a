"""An al-folio (Jekyll) site: `_config.yml`, `_pages/about.md`, `_data/socials.yml`,
`_data/cv.yml` or `assets/json/resume.json`, `_data/coauthors.yml`, `_news/`, `_projects/`
and `_bibliography/*.bib`. al-folio is a one-person site: everything belongs to its owner."""

import json
from pathlib import Path
from typing import Any

from labsite.site_import.site import (
    Site,
    SiteNews,
    SitePerson,
    SiteProblem,
    SiteProject,
    add_link,
    clean_markdown,
    date_of,
    front_matter,
    inside,
    load_yaml,
    plain,
    read_text,
    web_url,
)
from publications.importing import read_bibtex

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


def is_site(root: Path) -> bool:
    return any((root / name).exists() for name in ("_pages", "_bibliography", "_news", "_projects"))


def read(site: Site, owner_name: str = "") -> None:
    config = _config(site)
    owner = SitePerson(key="owner", name="", source="_config.yml", is_owner=True)
    site.people.append(owner)
    _about(site, owner)
    parts = (str(config.get(p) or "").strip() for p in ("first_name", "middle_name", "last_name"))
    name = " ".join(part for part in parts if part)
    owner.name = owner_name or name or owner.name
    if not owner.name:
        raise SiteProblem(
            "The site does not name its owner (no first_name and last_name in _config.yml); "
            "give the name with --name."
        )
    scholar = config.get("scholar") or {}
    lasts, firsts = scholar.get("last_name") or [], scholar.get("first_name") or []
    for last in lasts if isinstance(lasts, list) else [lasts]:
        for first in firsts if isinstance(firsts, list) else [firsts]:
            owner.name_variants.append(f"{first} {last}")
    socials = _data(site, "socials.yml")
    _socials(site, owner, {**_config_socials(config), **socials}, "_data/socials.yml")
    _cv(site, owner)
    coauthors = _data(site, "coauthors.yml")
    if coauthors:
        site.no_home.append(
            f"_data/coauthors.yml: pages of {len(coauthors)} outside authors (outside authors "
            "are kept as printed names, without pages)"
        )
    _news(site)
    _projects(site)
    for path in sorted((site.root / "_bibliography").glob("*.bib")):
        site.records += read_bibtex(read_text(site, path), site.name(path))
    _unread(site)


def _unread(site: Site) -> None:
    """What else the site holds that is not read, named so that nothing goes silently: blog
    posts, its GitHub repositories list, and pages of their own with text."""
    posts = [p for p in (site.root / "_posts").glob("*") if p.suffix in (".md", ".html")]
    if posts:
        site.no_home.append(f"_posts: {len(posts)} blog posts (not read)")
    if (site.root / "_data" / "repositories.yml").is_file():
        site.no_home.append("_data/repositories.yml: the repositories list (not read)")
    for path in sorted((site.root / "_pages").glob("*.md")):
        if path.name != "about.md" and clean_markdown(front_matter(site, path)[1]):
            site.no_home.append(f"{site.name(path)}: a page of its own (not read)")


def _config(site: Site) -> dict[str, Any]:
    path = site.root / "_config.yml"
    config = load_yaml(site, path) if path.is_file() else {}
    if not isinstance(config, dict):
        raise SiteProblem("_config.yml is not a set of settings.")
    return config


def _config_socials(config: dict[str, Any]) -> dict[str, Any]:
    """Older al-folio sites keep the social keys in _config.yml."""
    return {key: config[key] for key in (*SOCIALS, "email") if config.get(key)}


def _data(site: Site, name: str) -> Any:
    path = site.root / "_data" / name
    return load_yaml(site, path) if path.is_file() else {}


def _about(site: Site, owner: SitePerson) -> None:
    path = site.root / "_pages" / "about.md"
    if not path.is_file():
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


def _socials(site: Site, owner: SitePerson, socials: Any, source: str) -> None:
    if not isinstance(socials, dict):
        raise SiteProblem(f"{source} is not a set of links.")
    for key, value in socials.items():
        if key in SOCIAL_SETTINGS or value in (None, "", False):
            continue
        if key == "email":
            owner.email = owner.email or str(value)
        elif key in SOCIALS:
            url = SOCIALS[key].format(value)
            add_link(owner, SOCIAL_LABELS.get(key, key), url) or site.no_home.append(
                f"{source}: {key} ({value})"
            )
        elif isinstance(value, dict) and web_url(value.get("url")):
            add_link(owner, str(value.get("title") or key), value["url"])
        else:
            site.no_home.append(f"{source}: {key}")


def _cv(site: Site, owner: SitePerson) -> None:
    """Education, experience and awards from _data/cv.yml, else assets/json/resume.json."""
    cv_path = site.root / "_data" / "cv.yml"
    resume_path = site.root / "assets" / "json" / "resume.json"
    if cv_path.is_file():
        if resume_path.is_file():
            site.no_home.append(
                "assets/json/resume.json: not read, as _data/cv.yml says the same and is read"
            )
        _rendercv(site, owner, load_yaml(site, cv_path), "_data/cv.yml")
    elif resume_path.is_file():
        try:
            resume = json.loads(read_text(site, resume_path))
        except ValueError:
            raise SiteProblem("assets/json/resume.json is not readable JSON.") from None
        _json_resume(site, owner, resume, "assets/json/resume.json")


def _rendercv(site: Site, owner: SitePerson, data: Any, source: str) -> None:
    """al-folio's cv.yml: {cv: {name, email, social_networks, sections: {Education: […]}}}."""
    if isinstance(data, list):
        _older_cv(site, owner, data, source)
        return
    cv = data.get("cv") if isinstance(data, dict) else None
    if not isinstance(cv, dict):
        raise SiteProblem(f"{source} has no “cv” section.")
    owner.email = owner.email or str(cv.get("email") or "")
    if not owner.bio and cv.get("summary"):
        owner.bio = str(cv["summary"])
    for section, rows in (cv.get("sections") or {}).items():
        rows = rows if isinstance(rows, list) else []
        key = str(section).strip().lower()
        if key == "education":
            owner.education += [
                _education(r, "studyType", "area", "start_date", "end_date") for r in rows
            ]
        elif key == "experience":
            owner.experience += [_experience(r, "start_date", "end_date") for r in rows]
        elif key in ("awards", "honors", "honors and awards"):
            owner.awards += [_award(r) for r in rows]
        else:
            site.no_home.append(f"{source}: the section “{section}” ({len(rows)} entries)")


def _older_cv(site: Site, owner: SitePerson, sections: list[Any], source: str) -> None:
    """al-folio's cv.yml before RenderCV: [{title, type, contents}], an education
    time_table holding {title, institution, year: "2019 - 2023"}."""
    for section in sections:
        if not isinstance(section, dict):
            raise SiteProblem(f"{source}: a section is not a set of fields.")
        title = plain(section.get("title"))
        rows = section.get("contents") if isinstance(section.get("contents"), list) else []
        if title.lower() == "education" and section.get("type") == "time_table":
            for row in rows:
                row = row if isinstance(row, dict) else {}
                start, end = _years(row.get("year"))
                owner.education.append(
                    {
                        "degree": plain(row.get("title")),
                        "institution": plain(row.get("institution")),
                        "location": "",
                        "start": start,
                        "end": end,
                        "description": "\n".join(
                            f"- {plain(d)}" for d in row.get("description") or []
                        ),
                    }
                )
        elif title.lower() == "general information":
            for row in rows:
                if isinstance(row, dict) and plain(row.get("name")) != "Full Name":
                    site.no_home.append(f"{source}: {plain(row.get('name'))}")
        else:
            site.no_home.append(f"{source}: the section “{title}” ({len(rows)} entries)")


def _years(text: Any) -> tuple[Any, Any]:
    """ "2019 - 2023", "2024.7 - now", "2021": (start, end); "now" and "present" are no end."""
    start, _, end = str(text or "").partition(" - ")
    return date_of(start.strip()), date_of(end.strip())


def _json_resume(site: Site, owner: SitePerson, resume: Any, source: str) -> None:
    if not isinstance(resume, dict):
        raise SiteProblem(f"{source} is not a JSON Resume.")
    basics = resume.get("basics") or {}
    owner.email = owner.email or str(basics.get("email") or "")
    for key, rows in resume.items():
        rows = rows if isinstance(rows, list) else []
        if key == "basics":
            continue
        if key == "education":
            owner.education += [
                _education(r, "studyType", "area", "startDate", "endDate") for r in rows
            ]
        elif key == "work":
            owner.experience += [_experience(r, "startDate", "endDate") for r in rows]
        elif key == "awards":
            owner.awards += [_award(r) for r in rows]
        elif rows:
            site.no_home.append(f"{source}: {key} ({len(rows)} entries)")


def _details(row: dict[str, Any]) -> str:
    lines = [plain(row.get("summary"))] if row.get("summary") else []
    lines += [f"- {plain(h)}" for h in row.get("highlights") or [] if plain(h)]
    return "\n".join(lines)


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
        "organization": plain(row.get("company") or row.get("name")),
        "location": plain(row.get("location")),
        "start": date_of(row.get(start)),
        "end": date_of(row.get(end)),
        "description": _details(row),
    }


def _award(row: Any) -> dict[str, Any]:
    row = row if isinstance(row, dict) else {}
    return {
        "name": plain(row.get("title") or row.get("name")),
        "awarded_by": plain(row.get("awarder")),
        "date": date_of(row.get("date")),
    }


def _news(site: Site) -> None:
    for path in sorted((site.root / "_news").glob("*.md")):
        front, body = front_matter(site, path)
        date = date_of(front.get("date")) or date_of(path.name[:10])
        name = site.name(path)
        if date is None:
            site.problems.append(f"{name}: the news item has no date.")
            continue
        text = clean_markdown(body)
        if front.get("title") and not front.get("inline"):
            if text:
                site.no_home.append(f"{name}: the announcement's body (its title is the news)")
            text = plain(front["title"])
        if text:
            site.news.append(SiteNews(date=date, text=text, source=name))


def _projects(site: Site) -> None:
    for path in sorted((site.root / "_projects").glob("*.md")):
        front, body = front_matter(site, path)
        name = site.name(path)
        title = plain(front.get("title"))
        if not title:
            site.problems.append(f"{name}: the project has no title.")
            continue
        description = plain(front.get("description"))
        text = clean_markdown(body)
        site.projects.append(
            SiteProject(
                title=title,
                description="\n\n".join(t for t in (description, text) if t),
                source=name,
                url=web_url(front.get("redirect")),
                tags=[plain(front["category"])] if front.get("category") else [],
            )
        )
        if front.get("img"):
            site.no_home.append(f"{name}: its image {front['img']} (projects have no image)")
