"""A site read (`Site`) written into the lab, or previewed: see the package's docstring."""

import re
import shutil
import tempfile
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from anyascii import anyascii
from django.core.exceptions import ValidationError
from django.core.files import File
from django.core.files.base import ContentFile
from django.db import models, transaction
from django.utils import timezone
from django.utils.text import slugify

from core import images
from core.bulk import insert_with_history
from core.slugs import unique_slug
from lab.models import LabSettings, MemberRole
from labsite.site_import import alfolio, hugo, maps
from labsite.site_import.figures import Figures
from labsite.site_import.groups import GroupMapping, mappings
from labsite.site_import.site import (
    Site,
    SiteCourse,
    SitePage,
    SitePerson,
    SitePost,
    SiteProblem,
    values_of,
)
from people.models import Education, Experience, Link, NewsItem, Person, Project
from publications import importing
from publications.importing import AuthorRecord
from publications.importing.matching import PeopleIndex
from tags.models import Tag
from talks.models import Award, Recipient, Speaker, Talk
from website.models import Course, CourseTeacher, MenuItem, Page, Post, PostAuthor

MAX_ZIP_MEMBERS = 5000
MAX_ZIP_BYTES = 500 * 1024 * 1024  # unpacked
NEW, UNCHANGED, UPDATED = "new", "unchanged", "updated"


@contextmanager
def open_site(path: Path | str, owner_name: str = "") -> Iterator[Site]:
    """The site in the folder (or ZIP file) `path`, read; SiteProblem when it cannot be."""
    path = Path(path)
    if not path.exists():
        raise SiteProblem(f"{path} does not exist.")
    if path.is_file():
        with tempfile.TemporaryDirectory(prefix="labsite-site-") as folder:
            _unzip(path, Path(folder))
            yield _read(Path(folder), owner_name)
        return
    yield _read(path, owner_name)


def _unzip(path: Path, folder: Path) -> None:
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError):
        raise SiteProblem(f"{path.name} is neither a folder nor a ZIP file of one.") from None
    with archive:
        members = archive.infolist()
        if len(members) > MAX_ZIP_MEMBERS:
            raise SiteProblem(f"{path.name} holds more than {MAX_ZIP_MEMBERS:,} files.")
        if sum(m.file_size for m in members) > MAX_ZIP_BYTES:
            raise SiteProblem(f"{path.name} unpacks to more than {MAX_ZIP_BYTES // 2**20} MB.")
        for member in members:
            name = PurePosixPath(member.filename)
            if name.is_absolute() or ".." in name.parts or "\\" in member.filename:
                raise SiteProblem(f"{path.name}: “{member.filename[:200]}” leads out of the site.")
        try:
            archive.extractall(folder)
        except (zipfile.BadZipFile, OSError, EOFError) as error:
            raise SiteProblem(f"{path.name} is damaged ({error}).") from None
    entries = [p for p in folder.iterdir() if not p.name.startswith(("__MACOSX", "."))]
    if len(entries) == 1 and entries[0].is_dir():  # a ZIP of the folder, not of its files
        shutil.move(str(entries[0]), folder / ".site")
        for item in (folder / ".site").iterdir():
            shutil.move(str(item), folder / item.name)


def _read(root: Path, owner_name: str) -> Site:
    sitemap = maps.site_map(root)
    if sitemap is not None:
        site = Site(generator=sitemap.generator, root=root)
        site.ledger.known = sitemap.keys
        maps.read(site, sitemap, owner_name)
        return _closed(site)
    if alfolio.is_site(root):
        site = Site(generator=alfolio.GENERATOR, root=root)
        site.ledger.known = alfolio.KEYS
        alfolio.read(site, owner_name)
        return _closed(site)
    hugo_root = hugo.site_root(root)
    if hugo_root is not None:
        site = Site(generator=hugo.GENERATOR, root=hugo_root)
        site.ledger.known, site.ledger.fold = hugo.KEYS, True
        hugo.read(site, owner_name)
        return _closed(site)
    raise SiteProblem(
        f"{root.name or root} is neither an al-folio site (no _pages, _bibliography, _news or "
        "_projects folder) nor a Hugo Blox site (no config/_default or hugo.yaml beside a "
        "content folder)."
    )


def _closed(site: Site) -> Site:
    """The site with its ledger closed: every file and key accounted for."""
    site.ledger.close(site, lambda path: values_of(site, path))
    return site


@dataclass
class Report:
    """What importing a site does (or did): per kind of row, how many are new, updated or
    unchanged, each row's line, what had no home, the template's leftovers, what could not
    be read (skipped, the rest comes in), what came in incomplete for an editor to complete
    (an image without its alt text), and the lab's groups as read."""

    site: Site
    counts: dict[str, Counter] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    to_complete: list[str] = field(default_factory=list)
    groups: dict[str, GroupMapping] = field(default_factory=dict)
    group_sizes: Counter = field(default_factory=Counter)
    written: bool = False

    def count(self, kind: str, action: str, label: str) -> None:
        self.counts.setdefault(kind, Counter())[action] += 1
        if action != UNCHANGED:
            self.lines.append(f"{kind}: {action}: {label}")

    @property
    def group_rows(self) -> list[tuple[str, GroupMapping, int]]:
        """The group table: each group of the site, how it is read, and how many it holds."""
        return [(g, m, self.group_sizes[g]) for g, m in self.groups.items()]

    @property
    def changes(self) -> int:
        return sum(c[NEW] + c[UPDATED] for c in self.counts.values())


class _Preview(Exception):
    """Rolls back a preview's transaction."""


def import_site(
    site: Site,
    *,
    apply: bool,
    user: Any = None,
    groups: dict[str, GroupMapping] | None = None,
) -> Report:
    """Write `site` into the lab (`apply`), or say what writing it would do. What cannot be
    read or kept is skipped and named; everything else is written. `groups` are the admin's
    corrections of how the site's groups map to roles."""
    report = Report(site, skipped=list(site.skipped))
    report.groups = mappings(sorted({g for p in site.people for g in p.groups}), groups)
    try:
        with transaction.atomic():
            _Writer(site, report, photos=apply, user=user).write()
            if not apply:
                raise _Preview
    except _Preview:
        pass
    report.written = apply
    report.notes = (
        list(site.no_home)
        + _unhomed(site)
        + report.notes
        + site.ledger.not_read_lines()
        + site.ledger.known_lines()
    )
    return report


def _unhomed(site: Site) -> list[str]:
    """The lab's own accounts, named."""
    return [
        f"{account}: an account of the lab, not a person (its text is the lab's About)"
        for account in site.organisations
    ]


class _Writer:
    def __init__(self, site: Site, report: Report, *, photos: bool, user: Any) -> None:
        self.site, self.report, self.photos, self.user = site, report, photos, user
        self.figures = Figures(site, report, apply=photos)
        self.people: dict[str, Person] = {}  # a site person's key → the lab's person
        self.claimed: set[int] = set()  # the lab's people (by id()) a site person became
        self.index: PeopleIndex | None = None
        self.namesakes: dict[str, list[SitePerson]] = {}
        for person in site.people:
            self.namesakes.setdefault(person.name, []).append(person)
        # New people, and their rows, wait to be written together (_write_people): the
        # slugs taken, and the last place in each role's order, are kept here meanwhile.
        self.made: list[Person] = []
        self.made_orcids: set[str] = set()
        self.waiting: dict[type[models.Model], tuple[tuple[str, ...], list[models.Model]]] = {}
        self.waiting_keys: dict[tuple[Any, ...], models.Model] = {}
        self.waiting_awards: list[tuple[Award, Person]] = []
        self.slugs: set[str] | None = None
        self.orders: dict[str, int | None] | None = None
        self.printed: dict[str, Person] | None = None  # _authors' names, once people are in
        self.speakers: dict[str, Person] | None = None  # _talk's

    def write(self) -> None:
        self._lab_settings()
        for person in self.site.people:
            self._person(person)
        self._write_people()
        owner = self.people.get(self.site.owner.key) if self.site.owner else None
        lone = owner if len(self.site.people) == 1 else None  # a one-person site's news
        for news in self.site.news:
            text = self.figures.text(news.text, news.source)
            self._row(
                NewsItem,
                {"person": lone, "date": news.date, "text_en": text},
                news.text[:80],
                kind="news",
                source=news.source,
            )
        for project in self.site.projects:
            if owner is not None:
                self._row(
                    Project,
                    {"person": owner, "name_en": project.title[:200]},
                    project.title,
                    extra=lambda project=project: {
                        "summary_en": self.figures.text(project.description, project.source),
                        "url": project.url,
                        "tags": ", ".join(self._words(project.tags, project.source))[:300],
                    },
                    kind="project",
                    source=project.source,
                )
                if project.image:
                    self.report.notes.append(
                        f"{project.source}: its image {project.image} (projects have no image)"
                    )
        for talk in self.site.talks:
            self._talk(talk)
        self._publications()
        for course in self.site.courses:
            self._course(course, owner)
        self._pages()
        for post in self.site.posts:
            self._post(post, lone)

    # One row

    def _row(
        self,
        model: type[models.Model],
        key: dict[str, Any],
        label: str,
        *,
        kind: str,
        extra: dict[str, Any] | Callable[[], dict[str, Any]] | None = None,
        source: str = "",
    ) -> models.Model | None:
        """The row `key` names: found (unchanged), or made with `extra` (a function giving
        them where working them out writes something, as bringing in a text's images does)
        and checked by the model's own rules (a problem, naming `label`, when they refuse
        it); `source`, the site's file it comes from, begins every message of it. A row of
        a person not written yet cannot be in the lab: it waits with them (_waiting)."""
        unwritten = tuple(
            name for name, value in key.items() if isinstance(value, models.Model) and not value.pk
        )
        if unwritten:
            return self._waiting(model, key, label, kind, extra, source, unwritten)
        found = model._default_manager.filter(**key).first()
        if found is not None:
            self.report.count(kind, UNCHANGED, label)
            return found
        extra = extra() if callable(extra) else extra
        row = model(**key, **{k: v for k, v in (extra or {}).items() if v not in (None, "")})
        if not self._valid(row, f"{source + ': ' if source else ''}{kind} “{label[:100]}”"):
            return None
        row.save()
        self.report.count(kind, NEW, label)
        return row

    def _waiting(
        self,
        model: type[models.Model],
        key: dict[str, Any],
        label: str,
        kind: str,
        extra: dict[str, Any] | Callable[[], dict[str, Any]] | None,
        source: str,
        unwritten: tuple[str, ...],
    ) -> models.Model | None:
        """_row for a row of a person not written yet: found among the rows waiting with
        them (unchanged), or made, checked (all but the person, who is checked already) and
        left to wait; _write_people writes them all together."""
        memo = (model, *((n, id(v) if isinstance(v, models.Model) else v) for n, v in key.items()))
        found = self.waiting_keys.get(memo)
        if found is not None:
            self.report.count(kind, UNCHANGED, label)
            return found
        extra = extra() if callable(extra) else extra
        row = model(**key, **{k: v for k, v in (extra or {}).items() if v not in (None, "")})
        what = f"{source + ': ' if source else ''}{kind} “{label[:100]}”"
        if not self._valid(row, what, exclude=unwritten):
            return None
        names = tuple(model._meta.get_field(name).attname for name in key)
        self.waiting.setdefault(model, (names, []))[1].append(row)
        self.waiting_keys[memo] = row
        self.report.count(kind, NEW, label)
        return row

    def _valid(self, row: models.Model, what: str, exclude: tuple[str, ...] = ()) -> bool:
        """The model's own rules: an optional value they refuse is dropped and named (the row
        is kept without it); a row they still refuse is skipped and named. `exclude`: the
        fields not checked (a person not written yet, whose row this is)."""
        try:
            row.full_clean(exclude=exclude, validate_unique=False)
            return True
        except ValidationError as error:
            errors = error.message_dict
        for name, messages in errors.items():
            model_field = _field(row, name)
            if model_field is not None and model_field.blank:
                value = getattr(row, model_field.attname)
                setattr(row, model_field.attname, None if model_field.null else "")
                self.report.notes.append(
                    f"{what}: its {model_field.verbose_name} “{str(value)[:100]}” is dropped "
                    f"({' '.join(messages)})"
                )
        try:
            row.full_clean(exclude=exclude, validate_unique=False)
        except ValidationError as error:
            reasons = "; ".join(
                f"{name}: {' '.join(messages)}" if name != "__all__" else " ".join(messages)
                for name, messages in error.message_dict.items()
            )
            self.report.skipped.append(f"{what} cannot be kept: {reasons}")
            return False
        return True

    def _lab_settings(self) -> None:
        """The site's name, tagline and about land in the lab's settings while those still
        hold what a new lab starts with; an admin's own are never replaced."""
        settings, _ = LabSettings.objects.get_or_create(pk=1)
        default = LabSettings._meta.get_field("name_en").default
        about = self.site.about if not settings.about_en else ""
        about = self.figures.text(about, self.site.about_source)
        try:
            LabSettings._meta.get_field("about_en").run_validators(about)
        except ValidationError as error:
            self.report.notes.append(
                f"the site's about text is not kept: {' '.join(error.messages)}"
            )
            about = ""
        values = {
            "tagline_en": self.site.tagline[:300],
            "about_en": about,
            "name_zh_hans": self.site.title_zh[:200],
            "tagline_zh_hans": self.site.tagline_zh[:300],
        }
        named = self.site.title and settings.name_en in ("", default)
        if named:
            settings.name_en = self.site.title[:200]
        if _fill(settings, values) or named:
            settings.save()
            self.report.count("lab settings", UPDATED, self.site.title or "the lab")

    # People

    def _role(self, source: SitePerson) -> tuple[str, bool, bool]:
        """(role, has left, is a person) from the person's groups through the mapping; a
        person the groups say nothing of is the PI when they own the site, else staff."""
        role, left, is_person = source.role, False, True
        for group in source.groups:
            mapping = self.report.groups[group]
            self.report.group_sizes[group] += 1
            role = role or mapping.role
            left = left or mapping.alumni
            is_person = is_person and mapping.person
        left = left or source.alumni
        if source.member_until is not None:
            left = left or source.member_until.last_day() < timezone.localdate()
        if not role:
            role = MemberRole.PI if source.is_owner and not left else MemberRole.STAFF
            if source.groups or len(self.site.people) > 1:
                self.report.group_sizes[""] += 1  # counted under “no group says the role”
        return role, left, is_person

    def _person(self, source: SitePerson) -> None:
        role, left, is_person = self._role(source)
        if not is_person:
            self.report.notes.append(f"{source.source}: {source.name} is in a group of no members")
            return
        person = self._match(source)
        if person is not None and id(person) in self.claimed:
            person = None  # another folder of the site is that person: two folders, two people
        action = UNCHANGED
        if person is None:
            person = Person(
                name=source.name[:200],
                slug=unique_slug(Person(), anyascii(source.name), words=6, taken=self._slugs()),
                role=role,
                member_since=source.member_since,
                member_until=source.member_until,
                has_left=left and source.member_until is None,
            )
            action = NEW
        had_email = bool(person.email)
        filled = _fill(
            person,
            {
                "native_name": source.native_name[:100],
                "title_en": source.title[:200],
                "affiliation_en": source.affiliation[:200],
                "bio_en": self.figures.text(source.bio, source.source) if not person.bio_en else "",
                "email": repair_email(source.email),
                "orcid": source.orcid,
                "research_interests_en": "\n".join(source.interests),
            },
        )
        if person.email and not had_email:
            person.show_email = True  # the site showed it: it stays shown
        variants = [v for v in source.name_variants if v and v not in person.name_variants]
        if variants:
            person.name_variants = "\n".join(filter(None, [person.name_variants, *variants]))
            filled = True
        if source.photo is not None and not person.photo:
            filled = self._photo(person, source) or filled
        if action == UNCHANGED and filled:
            action = UPDATED
        if action != UNCHANGED:
            if person.orcid and person.orcid in self.made_orcids:
                self._write_people()  # for the model's check of the ORCID to see theirs
            if not self._valid(person, f"{source.source}: {source.name}"):
                return
            if person.display_order is None:  # last in their role, as their save would
                person.display_order = self._next_order(person.role)
            if action == NEW:
                self._slugs().add(person.slug)
            if action == NEW and not (person.photo and not person.photo._committed):
                self.made.append(person)  # written with the others (_write_people)
                if person.orcid:
                    self.made_orcids.add(person.orcid)
            else:  # an update, or a photo that the person's own save encodes
                if action == NEW:
                    self._write_people()  # the ones before first: ids in the site's order
                person.save()
            if action == NEW and self.index is not None:
                self.index.add(person)
        self.report.count("person", action, source.name)
        self.people[source.key] = person
        self.claimed.add(id(person))
        for kind, label, url in source.links:
            self._row(
                Link,
                {"person": person, "url": url},
                url,
                kind="link",
                extra={"kind": kind, "label": label[:100]},
            )
        for model, kind, what, where in (
            (Education, "education", "degree", "institution"),
            (Experience, "experience", "title", "organization"),
        ):
            for row in getattr(source, kind):
                self._row(
                    model,
                    {"person": person, what: row[what][:200], where: row[where][:200]},
                    f"{row[what]}, {row[where]}",
                    kind=kind,
                    source=source.source,
                    extra=lambda row=row: {
                        **{k: row[k] for k in ("location", "start", "end")},
                        "description": self.figures.text(row["description"], source.source),
                    },
                )
        for row in source.awards:
            self._award(person, row)

    def _slugs(self) -> set[str]:
        """The people's slugs taken, those waiting included (read once)."""
        if self.slugs is None:
            self.slugs = set(Person.objects.values_list("slug", flat=True))
        return self.slugs

    def _next_order(self, role: str) -> int:
        """The place after the last of `role`'s people, as a person's save gives one left
        empty (their order read once, then kept here)."""
        if self.orders is None:
            highest = (
                Person.objects.order_by().values("role").annotate(last=models.Max("display_order"))
            )
            self.orders = {row["role"]: row["last"] for row in highest}
        last = self.orders.get(role)
        order = 0 if last is None else last + 1
        self.orders[role] = order
        return order

    def _write_people(self) -> None:
        """The new people waiting, and their rows, written together: a few INSERTs with
        their history, whatever their number (a person saved one by one costs a dozen
        queries, most of a large lab's import)."""
        insert_with_history(Person, self.made, ("slug",), self.user)
        self.made, self.made_orcids = [], set()
        for model, (names, rows) in self.waiting.items():
            insert_with_history(model, rows, names, self.user)
        self.waiting, self.waiting_keys = {}, {}
        for award, person in self.waiting_awards:
            award.save()
            Recipient.objects.create(award=award, person=person, position=1)
        self.waiting_awards = []

    def _award(self, person: Person, row: dict[str, Any]) -> None:
        name, date = row["name"][:300], row["date"]
        if not person.pk:  # a person not written yet: their award waits with them
            memo = (Award, id(person), name, date)
            if memo in self.waiting_keys:
                self.report.count("award", UNCHANGED, name)
                return
            award = Award(name_en=name, date=date, awarded_by=row["awarded_by"][:200])
            if self._valid(award, f"award “{name}”"):
                self.waiting_keys[memo] = award
                self.waiting_awards.append((award, person))
                self.report.count("award", NEW, name)
            return
        found = Award.objects.filter(name_en=name, date=date, recipients__person=person).first()
        if found is not None:
            self.report.count("award", UNCHANGED, name)
            return
        award = Award(name_en=name, date=date, awarded_by=row["awarded_by"][:200])
        if self._valid(award, f"award “{name}”"):
            award.save()
            Recipient.objects.create(award=award, person=person, position=1)
            self.report.count("award", NEW, name)

    def _match(self, source: SitePerson) -> Person | None:
        if self.index is None:  # one index for the whole site, each new person added
            self.index = PeopleIndex()
        index = self.index
        found: dict[int, Person] = {}  # by id(): a person not written yet has no pk
        for printed in (source.name, *source.name_variants):
            given, _, family = printed.strip().rpartition(" ")
            author = AuthorRecord(given=given, family=family, orcid=source.orcid)
            found |= {id(p): p for p in index.candidates(author)}
        namesakes = self.namesakes[source.name]
        if len(found) > 1 and len(found) == len(namesakes):
            # the site's own namesakes (two folders, two people), met again in folder order
            # (the order they were made in: those written, then those waiting)
            position = namesakes.index(source)
            made = {id(p): n for n, p in enumerate(self.made)}
            return sorted(found.values(), key=lambda p: (not p.pk, p.pk or made[id(p)]))[position]
        if len(found) > 1:
            names = ", ".join(sorted(p.name for p in found.values()))
            self.report.notes.append(
                f"{source.source}: {source.name} could be any of {names}; imported as a new "
                "person (give each a name variant that tells them apart, then merge)."
            )
        return next(iter(found.values())) if len(found) == 1 else None

    def _photo(self, person: Person, source: SitePerson) -> bool:
        """The site's photo, through the checks an upload passes; when applied, set on the
        person, whose own save (after the model's checks) encodes it into its sizes."""
        assert source.photo is not None
        with source.photo.open("rb") as file:
            try:
                images.open_upload(File(file, name=source.photo.name))
            except ValidationError as error:
                self.report.skipped.append(
                    f"{self.site.name(source.photo)}: {' '.join(error.messages)} (the profile "
                    "comes in without it)"
                )
                return False
            if self.photos:
                file.seek(0)  # within the upload limit, as just checked
                person.photo = ContentFile(file.read(), name=source.photo.name)
        self.report.count("photo", NEW, self.site.name(source.photo))
        return True

    def _pages(self) -> None:
        """The site's own pages (Join us, Contact, Research…) as the lab's pages: published
        when the site showed them, in the menu when it placed them there (`nav_order`,
        `weight`), after the built-in sections; a page that cannot stand at its address (a
        section of labsite's own is there) is skipped and named. The teaching page gives way
        to the Teaching section when the site's courses came in; else its text is the
        teaching, kept at /courses/ (/teaching/ is the section's)."""
        for source in self.site.pages:
            title = source.title[:200]
            address = source.address
            if _is_teaching_page(source):
                if self.site.courses:
                    self._teaching_page(source)
                    continue
                address = "courses"
            if Page.objects.filter(title_en=title).exists():
                self.report.count("page", UNCHANGED, title)
                continue
            body = self.figures.text(source.body, source.source)
            page = Page(title_en=title, body_en=body, is_published=source.in_menu)
            # the address the site gave it, where it is one level deep ("/contact_us/")
            parts = [part for part in address.split("/") if part]
            if len(parts) == 1 and re.fullmatch(r"[-\w]{1,80}", parts[0], re.ASCII):
                page.slug = parts[0]
            try:
                page.full_clean(validate_unique=False)
            except ValidationError as error:
                self.report.skipped.append(
                    f"{source.source}: the page “{title}” cannot be kept: "
                    f"{' '.join(error.messages)}"
                )
                continue
            page.save()
            self.report.count("page", NEW, title)
            if source.in_menu and source.order is not None:
                position = 60 + min(max(source.order, 0), 900)
                MenuItem.objects.create(page=page, position=position)

    def _course(self, source: SiteCourse, owner: Person | None) -> None:
        """A course the site lists as the lab's course, published, taught by the site's
        owner (a personal site's teaching is its owner's) in the role the site names, else
        as its instructor. Found again by its title and start."""
        title = source.title[:200]
        term = ""
        if source.start and source.end and source.end != source.start:
            term = f"{source.start} – {source.end}"  # taught over several years
        row = self._row(
            Course,
            {"title_en": title, "start": source.start},
            title,
            kind="course",
            source=source.source,
            extra=lambda: {
                "term_en": term,
                "institution_en": source.institution[:200],
                "description_en": self.figures.text(source.description, source.source),
                "is_published": True,
                "featured_image": self._featured(source),
            },
        )
        if isinstance(row, Course):
            self._tag(row, source.tags, source.source)
        if not isinstance(row, Course) or owner is None or row.teachers.exists():
            return
        role = _teaching_role(source.role)
        if role is None:
            role = CourseTeacher.Role.INSTRUCTOR
            if source.role:
                self.report.notes.append(
                    f"{source.source}: “{title}”: the role “{source.role[:60]}” is taken as "
                    "instructor"
                )
        CourseTeacher.objects.create(course=row, person=owner, role=role)

    def _teaching_page(self, source: SitePage) -> None:
        """The site's teaching page, which lists its courses: the lab's Teaching section
        lists them now, placed in the menu where the site placed the page; the page's own
        words are named, not kept."""
        if source.in_menu and not MenuItem.objects.filter(section="teaching").exists():
            position = 60 + min(max(source.order or 0, 0), 900)
            MenuItem.objects.create(section=MenuItem.Section.TEACHING, position=position)
            self.report.count("menu", NEW, "Teaching")
        self.report.notes.append(
            f"{source.source}: the page “{source.title[:100]}” is the lab's Teaching section "
            "(/teaching/ lists the courses); its own text is not kept"
        )

    def _post(self, source: SitePost, owner: Person | None) -> None:
        """A post of the site's blog as the lab's post, by its authors where the site names
        them (else by the owner of a one-person site); a draft comes in unpublished. Found
        again by its title and date."""
        title = source.title[:200] or source.title_zh[:200]  # a post in Chinese only
        language = "en" if source.title else "zh_hans"
        date = source.date.first_day()
        if source.date.precision != "day":
            self.report.notes.append(
                f"{source.source}: the post is dated {source.date} only; it is given {date}"
            )
        body = source.body if source.title else source.body_zh
        if source.url and source.url not in body:  # the site only links to the post
            body = "\n\n".join(filter(None, [body, f"[{title}]({source.url})"]))
        row = self._row(
            Post,
            {f"title_{language}": title, "date": date},
            title,
            kind="post",
            source=source.source,
            extra=lambda: {
                "summary_en": source.summary[:300],
                "body_en": self.figures.text(body, source.source) if source.title else "",
                "title_zh_hans": source.title_zh[:200] if source.title else "",
                "summary_zh_hans": source.summary_zh[:300],
                "body_zh_hans": self.figures.text(
                    source.body_zh if source.title else body, source.source_zh or source.source
                ),
                "is_published": source.published,
                "featured_image": self._featured(source),
            },
        )
        if isinstance(row, Post):
            self._tag(row, source.tags, source.source)
        if not isinstance(row, Post) or row.authors.exists():
            return
        authors, unknown = self._authors(source.authors)
        if not source.authors and owner is not None:
            authors = [owner]
        for position, person in enumerate(authors, start=1):
            PostAuthor.objects.create(post=row, person=person, position=position)
        if unknown:
            self.report.notes.append(
                f"{source.source}: the post's authors {', '.join(unknown)} (not people of the "
                "site; a post's authors are the lab's people)"
            )

    def _featured(self, source: Any) -> Any:
        """The media item for the featured image of the site's item `source` (a post, a
        talk, a course), brought in; None when it has none, or it cannot come in (named)."""
        if not source.image:
            return None
        return self.figures.featured(source.image, source.source)

    def _tag(self, row: models.Model, words: list[str], source: str) -> None:
        """The row's tags from the site's words, where it has none yet: the lab's one
        vocabulary, a word matched to a tag by its address ("Deep learning" is the tag
        deep-learning)."""
        words = self._words(words, source)
        if words and not row.tags.exists():
            row.tags.add(*Tag.objects.named(words).values())

    def _words(self, words: list[str], source: str) -> list[str]:
        """The site's tag words that can be tags: one that gives no address in Latin letters
        (written in Chinese only) is named (a tag has an English name and such an address,
        and the Chinese name joins one in the admin)."""
        kept = []
        for word in words:
            if slugify(word):
                kept.append(word)
            else:
                self.report.notes.append(
                    f"{source}: the tag “{word[:100]}” (a tag has an English name whose "
                    "address is in Latin letters; give one in the admin, with this as its "
                    "Chinese name)"
                )
        return kept

    def _authors(self, printed: list[str]) -> tuple[list[Person], list[str]]:
        """The lab's people that `printed` names (by key, name or a name variant), each once,
        and the names that are none of the site's people."""
        if self.printed is None:  # the people are all in by now: once for every post
            self.printed = {}
            for source in self.site.people:
                if source.key in self.people:
                    for name in (source.key, source.name, *source.name_variants):
                        self.printed.setdefault(name.casefold(), self.people[source.key])
        people = self.printed
        found: list[Person] = []
        unknown: list[str] = []
        for name in printed:
            person = people.get(name.strip().casefold())
            if person is None:
                unknown.append(name)
            elif person not in found:
                found.append(person)
        return found, unknown

    # Talks and publications

    def _talk(self, talk: Any) -> None:
        row = self._row(
            Talk,
            {"title_en": talk.title[:300], "date": talk.date},
            talk.title,
            kind="talk",
            source=talk.source,
            extra=lambda: {
                "event": talk.event[:200],
                "event_url": talk.event_url,
                "city": talk.city[:100],
                "country": talk.country[:100],
                "slides_url": talk.slides_url,
                "video_url": talk.video_url,
                "description": self.figures.text(talk.description, talk.source),
                "featured_image": self._featured(talk),
            },
        )
        if isinstance(row, Talk):
            self._tag(row, talk.tags, talk.source)
        if row is None or row.speakers.exists():
            return
        if self.speakers is None:  # the people are all in by now: once for every talk
            self.speakers = {
                p.name: self.people[p.key] for p in self.site.people if p.key in self.people
            }
        names = self.speakers
        for position, name in enumerate(talk.speakers, start=1):
            person = names.get(name)
            Speaker.objects.create(talk=row, person=person, name=name[:200], position=position)

    def _publications(self) -> None:
        if not self.site.records:
            return
        self._shared_identifiers()
        for record in self.site.records:
            record.abstract = self.figures.text(record.abstract, _file_of(record))
        plans = importing.plan(self.site.records)
        dropped: dict[str, list[str]] = {}
        for plan in plans:
            label = plan.record.title[:80] or plan.record.label
            if plan.action == importing.ERROR:
                self.report.skipped += [f"{plan.record.label}: {p}" for p in plan.problems]
            else:
                action = {importing.NEW: NEW, importing.UPDATE: UPDATED}.get(plan.action, UNCHANGED)
                self.report.count("publication", action, label)
            for reason in plan.record.dropped:
                dropped.setdefault(reason, []).append(plan.record.citation_key or label)
        for reason, keys in dropped.items():  # one line per reason, not per entry
            where = ", ".join(keys[:5]) + (f" and {len(keys) - 5} more" if len(keys) > 5 else "")
            self.report.notes.append(f"publications: {reason} ({where})")
        importing.apply(plans, skip_invalid=True, user=self.user)
        for plan in plans:
            image, page = self.site.paper_images.get(id(plan.record), ("", ""))
            if image and plan.action in (importing.NEW, importing.UPDATE):
                paper = plan.written()
                item = self.figures.featured(image, page)
                if item is not None and paper.featured_image_id is None:
                    paper.featured_image = item
                    paper.save(update_fields=["featured_image"])

    def _shared_identifiers(self) -> None:
        """A DOI or arXiv id the site gives two different papers (a template's placeholder
        copied into each page) stays with the first; the later paper is imported without it,
        and the preview says so."""
        seen: dict[tuple[str, str], str] = {}
        for record in self.site.records:
            for name in ("doi", "arxiv_id"):
                value = getattr(record, name).strip().lower()
                first = seen.setdefault((name, value), record.title) if value else None
                if first is not None and first.casefold() != record.title.casefold():
                    setattr(record, name, "")
                    self.report.notes.append(
                        f"{record.label}: its {name.replace('_', ' ')} {value} is also given to "
                        f"“{first}”, which keeps it"
                    )


def _file_of(record: importing.Record) -> str:
    """The file a record was read from, as its label begins ("_bibliography/papers.bib
    (line 4)", "content/publication/x/index.md")."""
    return record.label.partition(",")[0].split(" (")[0]


def _is_teaching_page(page: SitePage) -> bool:
    """Whether the site's page is where it lists its courses (al-folio's teaching.md)."""
    address = "/".join(part for part in page.address.split("/") if part)
    return (address or PurePosixPath(page.source).stem) in ("teaching", "courses")


# A course's role as sites write it ("TA", "Teaching Assistant", "Co-instructor"), checked
# in this order (a co-instructor is no instructor, a guest lecturer no lecturer).
_Role = CourseTeacher.Role
_ROLES = [
    (re.compile(r"co-?(?:instructor|teach|lectur)", re.I), _Role.CO_INSTRUCTOR),
    (re.compile(r"\bTAs?\b|(?i:assistant|tutor)"), _Role.TEACHING_ASSISTANT),
    (re.compile(r"guest", re.I), _Role.GUEST_LECTURER),
    (re.compile(r"instructor|lecturer|teacher|professor|taught", re.I), _Role.INSTRUCTOR),
]


def _teaching_role(text: str) -> str | None:
    return next((role for words, role in _ROLES if words.search(text or "")), None)


def _fill(row: models.Model, values: dict[str, str]) -> bool:
    """Set each of `values` the row does not have yet; an admin's text is never replaced."""
    filled = False
    for name, value in values.items():
        if value and not getattr(row, name):
            setattr(row, name, value)
            filled = True
    return filled


def _field(row: models.Model, name: str) -> Any:
    try:
        return row._meta.get_field(name)
    except Exception:  # "__all__", or a name no field has
        return None


_OBFUSCATED_AT = re.compile(r"\s*(?:[\[({<]\s*at\s*[\])}>]|-at-|\s@\s|＠)\s*", re.I)
_OBFUSCATED_DOT = re.compile(r"\s*(?:[\[({<]\s*dot\s*[\])}>]|-dot-)\s*", re.I)


def repair_email(value: str) -> str:
    """An address written to keep harvesters off ("me-AT-uni.it", "me (at) uni (dot) it",
    "mailto:me@uni.it") as the address it stands for; else as given (the model's check then
    drops an invalid one, naming it)."""
    text = value.strip().removeprefix("mailto:")
    text = _OBFUSCATED_DOT.sub(".", _OBFUSCATED_AT.sub("@", text))
    return text if text.count("@") == 1 and " " not in text else value.strip()
