"""The people of a Hugo site: author files (data/authors/), author pages (content/authors/),
the pages of a lab's section of people, and the lab's own account among them."""

from pathlib import Path
from typing import Any

from labsite.site_import.hugo.landing import is_landing
from labsite.site_import.hugo.profiles import experience_of, person_of, read_organisations
from labsite.site_import.hugo.sections import READ, as_list, section_pages
from labsite.site_import.maps import HUGO_MEMBER, given
from labsite.site_import.site import (
    ORGANISATION,
    Site,
    SitePerson,
    Unreadable,
    clean_markdown,
    front_matter,
    inside,
    load_data,
    plain,
    split_roles,
    values_of_page,
)


def _is_organisation(site: Site, person: SitePerson, values: dict[str, Any]) -> bool:
    """An author account that is the lab or its site, not a person: named as the site is, or
    with a name that says it is a lab, a group or a team."""
    if person.groups or values.get("first_name") or values.get("last_name"):
        return False
    # the account's user name (`authors: [Siyang Liu Lab]`) says so when its title is the
    # lab's motto; "admin" is the owner's user name in every Academic site
    users = [str(a) for a in as_list(values.get("authors")) if str(a).strip().lower() != "admin"]
    return any(name.strip() and ORGANISATION.search(name) for name in (person.name, *users))


def lab_account(site: Site) -> None:
    """An account named exactly as the site is titled, beside other people, is the lab's own
    (`title: Kestrel` on a site titled Kestrel): unless it reads as a person's (a group, an
    education, interests, or the superuser's account), it is the lab, its text the About."""
    title = site.title.casefold()
    for person in list(site.people):
        if not title or person.name.casefold() != title or len(site.people) < 2:
            continue
        if person.groups or person.education or person.interests or person.is_owner:
            continue
        site.people.remove(person)
        site.organisations.append(f"{person.source}: {person.name}")
        if person.bio and not site.about:
            site.about, site.about_source = person.bio, person.source


def read_author_file(site: Site, path: Path) -> None:
    """Hugo Blox's author schema (data/authors/me.yaml)."""
    if site.is_template(path):
        site.leftover(path, "the template's sample author")
        return
    values = load_data(site, path)
    source = site.name(path)
    if not isinstance(values, dict):
        raise Unreadable(source, "not an author (a set of fields)")
    person = person_of(site, str(values.get("slug") or path.stem), source, values)
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
        raise Unreadable(source, "the author's name is not given")
    read_organisations(person, values)
    photo = path.parent / f"{person.key}.jpg"
    avatar = site.root / "assets" / "media" / "authors" / f"{person.key}.jpg"
    person.photo = next((p for p in (photo, avatar) if p.is_file()), None)
    _add(site, person, values)


def read_author_page(site: Site, path: Path) -> None:
    """An author page (content/authors/admin/_index.md), in Academic's schema or Hugo Blox's:
    the biography is the page's body, and an avatar image beside it is the photo."""
    if site.is_template(path):
        site.leftover(path, "the template's sample author")
        return
    values, body = front_matter(site, path)
    source = site.name(path)
    person = person_of(site, path.parent.name, source, values)
    full = _full_name(values)
    person.name = plain(values.get("title") or values.get("name")) or full
    if full and full != person.name:
        person.name_variants.append(full)
    if not person.name:
        raise Unreadable(source, "the author's name is not given")
    person.is_owner = bool(values.get("superuser"))
    person.bio = clean_markdown(body) or person.bio
    read_organisations(person, values)
    person.photo = next(iter(sorted(path.parent.glob("avatar.*"))), None)
    _add(site, person, values)


def _add(site: Site, person: SitePerson, values: dict[str, Any]) -> None:
    if _is_organisation(site, person, values):
        site.organisations.append(f"{person.source}: {person.name}")
        if person.bio and not site.about:
            site.about, site.about_source = person.bio, person.source
    else:
        site.people.append(person)


# Front matter words that make a page a person's, beside a name: Wowchemy's author words and
# those lab themes give their people pages (not `image`, which any Hugo page may have).
PERSON_KEYS = {
    "role", "position", "bio", "social", "user_groups", "email", "avatar", "photo", "alumni",
    "ex_member", "first_name", "last_name", "organizations", "interests", "profiles",
}  # fmt: skip


def people_sections(site: Site, content: Path) -> list[list[Path]]:
    """The pages of each content section other than those read already (authors, papers…)
    that is a section of people: most of its pages have a name and a person's words."""
    sections = []
    for folder in sorted(p for p in content.iterdir() if p.is_dir() and p.name not in READ):
        pages = section_pages(content, folder.name)
        if pages and sum(_is_person_page(site, path) for path in pages) * 2 > len(pages):
            sections.append(pages)
    return sections


def _is_person_page(site: Site, path: Path) -> bool:
    try:
        values, _ = values_of_page(site, path)
    except Unreadable:
        return False
    keys = {str(key).lower() for key in values}
    named = bool(keys & {"title", "name"} or {"first_name", "last_name"} <= keys)
    return named and bool(keys & PERSON_KEYS) and not is_landing(values)


def read_member_page(site: Site, path: Path) -> None:
    """A person's page in a lab's section of people (content/people/ada/index.md or
    content/people/ada.md): `title` or `name`, `role` or `position` (a `<br>` between roles),
    `user_groups` or else the role as their group, `alumni` or `ex_member` when they have
    left, the author words of Wowchemy, and the page's text as their bio. The folder (or the
    file's name) is the key papers name them by, so two folders are two people."""
    if site.is_template(path):
        site.leftover(path, "the template's sample person")
        return
    values, body = front_matter(site, path)
    source = site.name(path)
    key = path.parent.name if path.name in ("index.md", "_index.md") else path.stem
    person = person_of(site, key, source, values)
    person.name = plain(given(values, HUGO_MEMBER, "name")) or _full_name(values)
    if not person.name:
        raise Unreadable(source, "the person has no name")
    roles = split_roles(given(values, HUGO_MEMBER, "roles"))
    person.title = ", ".join(roles)[:200]
    person.groups = person.groups or roles[:1]
    person.alumni = any(
        values.get(word) is True or str(values.get(word)).lower() == "true"
        for word in ("alumni", "ex_member")
    )
    person.bio = clean_markdown(body) or person.bio
    read_organisations(person, values)
    person.photo = _member_photo(site, path, given(values, HUGO_MEMBER, "photo"))
    _add(site, person, values)


def _full_name(values: dict[str, Any]) -> str:
    """Wowchemy's `first_name` and `last_name`, as one name."""
    return " ".join(
        plain(values.get(k)) for k in ("first_name", "last_name") if plain(values.get(k))
    )


def _member_photo(site: Site, path: Path, picture: Any) -> Path | None:
    """The photo a person's page names, beside the page or in the site's static files (named
    when in neither), else the avatar beside a page bundle's index.md."""
    if picture:
        photo = inside(site, str(picture), path.parent.relative_to(site.root).as_posix())
        photo = photo or inside(site, str(picture), "static", "assets")
        if photo is None:
            site.no_home.append(f"{site.name(path)}: the photo {picture} (not in the folder)")
        return photo
    if path.name not in ("index.md", "_index.md"):
        return None  # a page of its own: the folder's avatar is not theirs
    return next(iter(sorted(path.parent.glob("avatar.*"))), None)


def read_experience_page(site: Site, path: Path) -> None:
    """content/experience.md: older Academic lists experience in its own blocks; Hugo Blox
    points at the author's file, read already."""
    if not path.is_file() or site.owner is None:
        return
    if site.is_template(path):
        site.leftover(path, "the template's sample experience")
        return
    values, _ = front_matter(site, path)
    for block in as_list(values.get("sections")):
        content = block.get("content") if isinstance(block, dict) else None
        items = content.get("items") if isinstance(content, dict) else None
        if isinstance(items, list) and "experience" in str(block.get("block", "")):
            site.owner.experience += [experience_of(item) for item in items]
