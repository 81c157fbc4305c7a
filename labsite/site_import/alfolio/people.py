"""The people of an al-folio site beside its owner: the profiles page (`_pages/profiles.md`)
and a lab's own collection of members (`_people/`, or another its `_config.yml` declares)."""

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from labsite.site_import.alfolio.owner import IMAGES, SOCIALS, _link_or_name, _photo, _social_url
from labsite.site_import.alfolio.pages import PAGE_SUFFIXES, _site_page, collection_items
from labsite.site_import.site import (
    ORGANISATION,
    Site,
    SitePerson,
    Unreadable,
    add_link,
    clean_markdown,
    front_matter,
    inside,
    mapping_of,
    plain,
    split_roles,
    values_of_page,
    web_url,
)

PAGE_NAME = re.compile(r"^[\w./ -]{1,200}\.(?:md|markdown|html)$")
HONORIFIC = re.compile(r"^(?:dr|prof|professor|mr|mrs|ms)\.?\s+", re.I)
PLACEHOLDER_NAME = re.compile(r"^(?:firstname lastname|first name last name|your name)$", re.I)

# A member's page, in al-folio's profile words and in labs' own layouts (NEU HAI's keeps a
# `profile` block): what each field says, and the keys that say it, the first that holds a
# value winning ("profile.name": `name` in the `profile` block). `title` is not here: it is
# the person's name where no key of `name` gives one, else their role.
MEMBER = {
    "name": ("name", "profile.name"),
    "role": ("role", "position"),
    "bio": ("bio", "teaser"),  # where the page has no text below its front matter
    "group": ("group",),
    "alumni": ("ex_member",),
    "email": ("email",),
    "socials": ("socials", "social"),  # {key: a web address, or a user name of SOCIALS}
    "photo": ("image", "photo", "avatar", "profile.image"),
}
# A member's links: keys of the page that hold a web address, and keys of its `profile`
# block that hold one or a user name, with the address a user name stands for ("": none).
MEMBER_LINKS = ("website", "github", "scholar", "orcid", "linkedin", "twitter")
PROFILE_LINKS = {
    key: SOCIALS.get(f"{key}_username") or SOCIALS.get(f"{key}_id", "")
    for key in ("website", "github", "twitter", "orcid", "scholar", "linkedin")
}

# Collections al-folio itself reads; any other a site declares may hold its people.
OWN_COLLECTIONS = {"news", "projects", "posts", "drafts", "teachings", "books", "talks"}
# The keys that say an item of a site's own collection is a person's (beside a name).
PERSON_FIELDS = {
    "role", "position", "bio", "socials", "social", "image", "photo", "avatar", "profile",
    "ex_member", "email", "website", "github", "scholar", "orcid", "linkedin", "twitter",
}  # fmt: skip


def _as_is(value: Any) -> Any:
    return value


def _first(
    values: dict[str, Any], keys: tuple[str, ...], read: Callable[[Any], Any] = _as_is
) -> Any:
    """What the first of `keys` that holds something says, as `read` reads it (what the last
    says where none does). Keys are asked for one by one, so that the ledger lists the
    others as not read."""
    found = None
    for key in keys:
        block, _, inner = key.rpartition(".")
        within = values.get(block) if block else values
        found = read(within.get(inner) if isinstance(within, dict) else None)
        if found:
            break
    return found


def _markdown(value: Any) -> str:
    return clean_markdown(str(value or ""))


def _yes(value: Any) -> bool:
    """Whether `ex_member` says yes: YAML's true, or the text "true" in any case."""
    return value is True or str(value).lower() == "true"


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
    roles = split_roles(_first(profile, MEMBER["role"]))
    person.title = ", ".join(roles)[:200]
    person.groups = roles[:1]
    person.email = plain(profile.get("email"))
    for field_name, value in profile.items():
        if str(field_name).endswith("_url") and web_url(value):
            add_link(person, str(field_name).removesuffix("_url"), str(value).strip())
    if profile.get("image"):
        person.photo = inside(site, str(profile["image"]), *IMAGES)
    site.people.append(person)


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
        items = collection_items(site.root / f"_{name}")
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
    """A person of the lab's own collection, read through MEMBER, with the text below the
    front matter as their bio."""
    front, body = front_matter(site, path)
    name = site.name(path)
    profile = mapping_of(front, "profile")
    printed = _first(front, MEMBER["name"], plain)
    role = _first(front, MEMBER["role"]) or (front.get("title") if printed else "")
    printed = HONORIFIC.sub("", printed or plain(front.get("title")))
    if not printed:
        raise Unreadable(name, "the person has no name")
    if PLACEHOLDER_NAME.match(printed):
        site.leftovers.append(f"{name}: the site's example member ({printed})")
        return
    person = SitePerson(key=path.stem, name=printed, source=name)
    person.bio = clean_markdown(body) or _first(front, MEMBER["bio"], _markdown)
    roles = split_roles(role)
    person.title = ", ".join(roles)[:200]
    group = _first(front, MEMBER["group"], plain)
    person.groups = [group] if group else roles[:1]
    for key, address in PROFILE_LINKS.items():
        if value := plain(profile.get(key)):
            url = _social_url(value, address)
            _link_or_name(site, person, key, url, f"{name}: profile.{key} ({value[:60]})")
    if profile.get("address"):
        site.no_home.append(f"{name}: profile.address (an office address; people have none here)")
    person.alumni = _first(front, MEMBER["alumni"], _yes)
    person.email = _first(front, MEMBER["email"], plain)
    socials = _first(front, MEMBER["socials"]) or {}
    if isinstance(socials, dict):
        for key, value in socials.items():
            url = _social_url(value, SOCIALS.get(key, ""))
            _link_or_name(
                site, person, str(key), url, f"{name}: socials.{key} ({plain(value)[:60]})"
            )
    for key in MEMBER_LINKS:
        if web_url(front.get(key)):
            add_link(person, key, web_url(front.get(key)))
    _photo(site, person, _first(front, MEMBER["photo"]))
    site.people.append(person)


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
