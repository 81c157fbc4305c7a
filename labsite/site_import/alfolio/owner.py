"""An al-folio site's configuration and its owner: `_config.yml`, `_pages/about.md`,
`_data/socials.yml`, `_data/coauthors.yml` and `_data/repositories.yml`."""

import json
import re
from pathlib import Path
from typing import Any

from labsite.site_import.alfolio.cv import _years
from labsite.site_import.alfolio.pages import PAGE_SUFFIXES
from labsite.site_import.site import (
    Site,
    SitePerson,
    SiteProject,
    Unreadable,
    add_link,
    clean_markdown,
    front_matter,
    inside,
    load_yaml,
    mapping_of,
    plain,
    values_of_page,
    web_url,
)

# Where al-folio keeps the images a page names by a bare name (`prof_pic.jpg`).
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


def _config(site: Site) -> dict[str, Any]:
    path = site.root / "_config.yml"
    found: list[dict[str, Any]] = []
    site.each([path] if path.is_file() else [], lambda p: found.append(_mapping(site, p)))
    if found:
        site.lands(path, "the lab's settings and its owner's profile")
    return found[0] if found else {}


def _mapping(site: Site, path: Path) -> dict[str, Any]:
    values = load_yaml(site, path) or {}
    if not isinstance(values, dict):
        raise Unreadable(site.name(path), "not a set of fields")
    return values


def _data_files(site: Site, name: str) -> list[Path]:
    path = site.root / "_data" / name
    if not path.is_file():
        return []
    if site.is_template(path):
        site.leftover(path, "the template's sample data")
        return []
    return [path]


def _owner_name(site: Site, owner: SitePerson, config: dict[str, Any], owner_name: str) -> None:
    """The owner's name: as given (--name), else as about.md's schema markup gives it, else
    _config.yml's `first_name`, `middle_name` and `last_name`; and the forms their papers
    print it in (`scholar: {last_name, first_name}`, each a name or a list)."""
    parts = (str(config.get(p) or "").strip() for p in ("first_name", "middle_name", "last_name"))
    owner.name = owner_name or owner.name or " ".join(part for part in parts if part)
    if not owner.name:
        owner.name = "Owner"
        site.skip(
            "_config.yml",
            "the site does not name its owner (no first_name and last_name); the profile is "
            "“Owner” until renamed (or give the name with --name)",
        )
    scholar = mapping_of(config, "scholar")
    lasts, firsts = scholar.get("last_name") or [], scholar.get("first_name") or []
    for last in lasts if isinstance(lasts, list) else [lasts]:
        for first in firsts if isinstance(firsts, list) else [firsts]:
            owner.name_variants.append(f"{plain(first)} {plain(last)}")


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
        _photo(site, owner, profile.get("image"))
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
            label, url = SOCIAL_LABELS.get(key, key), _social_url(value, SOCIALS[key])
            _link_or_name(site, owner, label, url, f"{source}: {key} ({value})")
        elif isinstance(value, dict) and web_url(value.get("url")):
            add_link(owner, str(value.get("title") or key), value["url"])
        else:
            site.no_home.append(f"{source}: {key}")


def _social_url(value: Any, address: str) -> str:
    """The address a social key's value stands for: the value itself where it is one (some
    sites give the whole address where the key asks for a user name), else `address` with
    the value for its user name ("" where the key has no address)."""
    return web_url(value) or (address.format(value) if address else "")


def _link_or_name(site: Site, person: SitePerson, label: str, url: str, named: str) -> None:
    """Keep `url` as a link of the person's, or name the line `named` as having no home."""
    if not (url and add_link(person, label, url)):
        site.no_home.append(named)


def _photo(site: Site, person: SitePerson, picture: Any) -> None:
    """The person's photo, as their page names it; named when it is not in the folder."""
    if picture:
        person.photo = inside(site, str(picture), *IMAGES)
        if person.photo is None:
            site.no_home.append(f"{person.source}: the photo {picture} (not in the folder)")


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
