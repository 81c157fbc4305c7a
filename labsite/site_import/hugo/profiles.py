"""What a person's files say in both of Hugo's author schemas (Academic's and Hugo Blox's):
roles, biography, links, experience, education, awards and organisations."""

import re
from collections.abc import Callable
from typing import Any

from core.partial_dates import PartialDate
from labsite.site_import.hugo.sections import as_list
from labsite.site_import.maps import (
    HUGO_AWARD,
    HUGO_EDUCATION,
    HUGO_EXPERIENCE,
    Collection,
    given,
)
from labsite.site_import.site import (
    Site,
    SitePerson,
    add_link,
    clean_markdown,
    date_of,
    plain,
    split_roles,
)

# A membership written as its organisation ("2015-2017", "2019 - present", "2021-"), as
# lab sites on the People widget do to show years under a name.
YEARS = re.compile(
    r"^\s*((?:19|20)\d{2})\s*(?:[-–—~至到]\s*((?:19|20)\d{2}|now|present|至今)?)?\s*$", re.I
)


def person_of(site: Site, key: str, source: str, values: dict[str, Any]) -> SitePerson:
    """What both author schemas share."""
    person = SitePerson(key=key, name="", source=source)
    person.title = ", ".join(split_roles(values.get("role")))
    person.bio = clean_markdown(str(values.get("bio") or ""))
    person.interests = [plain(i) for i in as_list(values.get("interests")) if plain(i)]
    person.email = str(values.get("email") or "")
    person.groups = [plain(g) for g in as_list(values.get("user_groups")) if plain(g)]
    for row in as_list(values.get("awards")):
        person.awards.append(_row(row if isinstance(row, dict) else {"title": row}, HUGO_AWARD))
    for key_ in ("skills", "languages", "postnominals", "pronouns"):
        if values.get(key_):
            site.no_home.append(f"{source}: {key_}")
    for row in as_list(values.get("experience")) + as_list(values.get("work")):
        person.experience.append(experience_of(row))
    education = values.get("education")
    if isinstance(education, dict):  # Academic: {courses: [{course, institution, year}]}
        education = education.get("courses")
    for row in as_list(education):
        person.education.append(education_of(row))
    _links(site, person, values, source)
    return person


def _links(site: Site, person: SitePerson, values: dict[str, Any], source: str) -> None:
    """Hugo Blox's `profiles` (or `links`) and Academic's `social`, each {icon, link}."""
    for link in as_list(values.get("profiles")) + as_list(values.get("links")):
        _link(site, person, link, source)
    for link in as_list(values.get("social")):
        if isinstance(link, dict):
            _link(site, person, {"icon": link.get("icon"), "url": link.get("link")}, source)


def _link(site: Site, person: SitePerson, link: Any, source: str) -> None:
    if not isinstance(link, dict):
        return
    url = str(link.get("url") or "").strip()
    hint = str(link.get("icon") or link.get("label") or "")
    if re.fullmatch(r"[^@\s/:]+@[^@\s/]+\.[^@\s/]+", url):  # an address without mailto:
        url = f"mailto:{url}"
    if not url or url.startswith("#"):
        return  # a link to the page's own contact section
    if url.startswith("/") or ("://" not in url and not url.startswith("mailto:")):
        site.no_home.append(f"{source}: the link {url} (a file of the site)")
    elif not add_link(person, hint, url):
        site.no_home.append(f"{source}: the link {url}")


def _month(value: Any) -> PartialDate | None:
    """A profile row's date as Hugo Blox shows it ("January 2006"): to the month. Its files
    write whole dates ("2020-01-01") for what is known to the month."""
    date = date_of(value)
    return PartialDate(date.year, date.month) if date and date.month else date


def experience_of(row: Any) -> dict[str, Any]:
    """A row of a person's experience, in either schema (`HUGO_EXPERIENCE` names its keys)."""
    return _row(row if isinstance(row, dict) else {}, HUGO_EXPERIENCE)


def education_of(row: Any) -> dict[str, Any]:
    """A row of either schema: {course, institution, year} (Academic), {degree or area,
    institution, start or date_start, end or date_end, summary} (Hugo Blox)."""
    row = row if isinstance(row, dict) else {"degree": row}
    education = _row(row, HUGO_EDUCATION)
    year = given(row, HUGO_EDUCATION, "year")
    education["end"] = education["end"] or (date_of(year) if year else None)
    return education


# How a row's value is read, by what it says (the rest are plain text); `year` is Academic's
# year of a degree, its end where the row gives none.
ROW_VALUES: dict[str, Callable[[Any], Any]] = {
    "start": _month,
    "end": _month,
    "date": _month,
    "description": lambda value: clean_markdown(str(value or "")),
}


def _row(row: dict[str, Any], collection: Collection) -> dict[str, Any]:
    """A profile row, each of its fields as the map names its keys."""
    return {
        what: ROW_VALUES.get(what, plain)(given(row, collection, what))
        for what in collection.fields
        if what != "year"
    }


def read_organisations(person: SitePerson, values: dict[str, Any]) -> None:
    """The first organisation is the affiliation; one that is only a span of years ("2015-2017")
    is when the person was a member, as lab sites write it under each name."""
    for row in as_list(values.get("organizations")) + as_list(values.get("affiliations")):
        name = plain(row.get("name")) if isinstance(row, dict) else plain(row)
        if years := YEARS.match(name):
            person.member_since = person.member_since or date_of(years[1])
            if years[2] and years[2].isdigit():
                person.member_until = person.member_until or date_of(years[2])
        elif name and not person.affiliation:
            person.affiliation = name
