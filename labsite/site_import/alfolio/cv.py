"""The owner's CV in al-folio: `_data/cv.yml` (RenderCV, or the older list of sections) or
`assets/json/resume.json`, and the courses they teach (`_data/teaching.yml`, `_teachings/`)."""

import json
import re
from pathlib import Path
from typing import Any

from labsite.site_import.site import (
    Site,
    SiteCourse,
    SitePerson,
    Unreadable,
    add_link,
    clean_markdown,
    date_of,
    front_matter,
    load_yaml,
    mapping_of,
    plain,
    read_text,
)

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


def _section(heading: str) -> str:
    return next((kind for kind, words in SECTIONS if words.search(heading)), "")


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
    for section, rows in mapping_of(cv, "sections").items():
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
        contents = section.get("contents")
        rows = contents if isinstance(contents, list) else []
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
        if not add_link(owner, "homepage", url):
            site.no_home.append(f"{source}: {name}")
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
    basics = mapping_of(resume, "basics")
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


def _course(site: Site, path: Path) -> None:
    front, body = front_matter(site, path)
    row = {**front, "description": front.get("description") or body}
    _course_row(site, row, site.name(path))
