"""A site's people as the lab's: each matched to the person the lab already has (by ORCID or
any printed form of their name) or made, with their photo, links, education, experience
and awards. New people, and their rows, wait to be written together."""

import re
from typing import Any

from anyascii import anyascii
from django.core.exceptions import ValidationError
from django.core.files import File
from django.core.files.base import ContentFile
from django.db import models
from django.utils import timezone

from core import images
from core.bulk import insert_with_history
from core.slugs import unique_slug
from lab.models import MemberRole
from labsite.site_import.figures import Figures
from labsite.site_import.site import Site, SitePerson
from labsite.site_import.writing.part import Part
from labsite.site_import.writing.report import NEW, UNCHANGED, UPDATED, Report
from labsite.site_import.writing.rows import Rows, fill
from people.models import Education, Experience, Link, Person
from publications.importing import AuthorRecord
from publications.importing.matching import PeopleIndex
from talks.models import Award, Recipient


class People(Part):
    def __init__(
        self, site: Site, report: Report, figures: Figures, rows: Rows, people: dict[str, Person]
    ) -> None:
        super().__init__(site, report, figures, rows, people)
        self.claimed: set[int] = set()  # the lab's people (by id()) a site person became
        self.index: PeopleIndex | None = None
        self.namesakes: dict[str, list[SitePerson]] = {}
        for person in self.site.people:
            self.namesakes.setdefault(person.name, []).append(person)
        # New people, and their rows, wait to be written together (write_waiting): the
        # slugs taken, and the last place in each role's order, are kept here meanwhile.
        self.made: list[Person] = []
        self.made_orcids: set[str] = set()
        self.waiting_awards: list[tuple[Award, Person]] = []
        self.award_keys: set[tuple[Any, ...]] = set()
        self.slugs: set[str] | None = None
        self.orders: dict[str, int | None] | None = None

    def write(self) -> None:
        """Each of the site's people, matched or made; then the new ones written."""
        for person in self.site.people:
            self._person(person)
        self.write_waiting()

    def write_waiting(self) -> None:
        """The new people waiting, and their rows, written together: a few INSERTs with
        their history, whatever their number (a person saved one by one costs a dozen
        queries, most of a large lab's import)."""
        insert_with_history(Person, self.made, ("slug",), self.rows.user)
        self.made, self.made_orcids = [], set()
        self.rows.write_waiting()
        self.award_keys = set()
        for award, person in self.waiting_awards:
            award.save()
            Recipient.objects.create(award=award, person=person, position=1)
        self.waiting_awards = []

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
        if self._filled(person, source) and action == UNCHANGED:
            action = UPDATED
        if action != UNCHANGED and not self._kept(person, source, new=action == NEW):
            return
        self.report.count("person", action, source.name)
        self.people[source.key] = person
        self.claimed.add(id(person))
        self._profile(person, source)

    def _filled(self, person: Person, source: SitePerson) -> bool:
        """Whether the site gives the person what they had not yet (set on them): their
        profile's texts, a name variant, a photo."""
        had_email = bool(person.email)
        translated: Any = person  # its fields in each language (bio_en...) are not in the stubs
        filled = fill(
            person,
            {
                "native_name": source.native_name[:100],
                "title_en": source.title[:200],
                "affiliation_en": source.affiliation[:200],
                "bio_en": (
                    self.figures.text(source.bio, source.source) if not translated.bio_en else ""
                ),
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
        return filled

    def _kept(self, person: Person, source: SitePerson, *, new: bool) -> bool:
        """A new or changed person checked by the model's rules and kept: saved, or (new and
        without a photo to encode) left waiting with the others; False when refused."""
        if person.orcid and person.orcid in self.made_orcids:
            self.write_waiting()  # for the model's check of the ORCID to see theirs
        if not self.rows.valid(person, f"{source.source}: {source.name}"):
            return False
        if person.display_order is None:  # last in their role, as their save would
            person.display_order = self._next_order(person.role)
        if new:
            self._slugs().add(person.slug)
        if new and not (person.photo and not person.photo._committed):
            self.made.append(person)  # written with the others (write_waiting)
            if person.orcid:
                self.made_orcids.add(person.orcid)
        else:  # an update, or a photo that the person's own save encodes
            if new:
                self.write_waiting()  # the ones before first: ids in the site's order
            person.save()
        if new and self.index is not None:
            self.index.add(person)
        return True

    def _profile(self, person: Person, source: SitePerson) -> None:
        """The person's links, education, experience and awards, as the site lists them."""
        for kind, label, url in source.links:
            self.rows.row(
                Link,
                {"person": person, "url": url},
                url,
                kind="link",
                extra={"kind": kind, "label": label[:100]},
            )
        for row in source.education:
            self._career(person, source, Education, "education", row, ("degree", "institution"))
        for row in source.experience:
            self._career(person, source, Experience, "experience", row, ("title", "organization"))
        for row in source.awards:
            self._award(person, row)

    def _career(
        self,
        person: Person,
        source: SitePerson,
        model: type[models.Model],
        kind: str,
        row: dict[str, Any],
        names: tuple[str, str],
    ) -> None:
        """A row of the person's education or experience, found again by what (a degree, a
        title) and where (an institution, an organization), its two `names`."""
        what, where = names
        self.rows.row(
            model,
            {"person": person, what: row[what][:200], where: row[where][:200]},
            f"{row[what]}, {row[where]}",
            kind=kind,
            source=source.source,
            extra=lambda: {
                **{k: row[k] for k in ("location", "start", "end")},
                "description": self.figures.text(row["description"], source.source),
            },
        )

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

    def _award(self, person: Person, row: dict[str, Any]) -> None:
        name, date = row["name"][:300], row["date"]
        if not person.pk:  # a person not written yet: their award waits with them
            memo = (id(person), name, date)
            if memo in self.award_keys:
                self.report.count("award", UNCHANGED, name)
                return
            award = Award(name_en=name, date=date, awarded_by=row["awarded_by"][:200])
            if self.rows.valid(award, f"award “{name}”"):
                self.award_keys.add(memo)
                self.waiting_awards.append((award, person))
                self.report.count("award", NEW, name)
            return
        found = Award.objects.filter(name_en=name, date=date, recipients__person=person).first()
        if found is not None:
            self.report.count("award", UNCHANGED, name)
            return
        award = Award(name_en=name, date=date, awarded_by=row["awarded_by"][:200])
        if self.rows.valid(award, f"award “{name}”"):
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
            if self.figures.apply:
                file.seek(0)  # within the upload limit, as just checked
                person.photo = ContentFile(file.read(), name=source.photo.name)
        self.report.count("photo", NEW, self.site.name(source.photo))
        return True


_OBFUSCATED_AT = re.compile(r"\s*(?:[\[({<]\s*at\s*[\])}>]|-at-|\s@\s|＠)\s*", re.I)
_OBFUSCATED_DOT = re.compile(r"\s*(?:[\[({<]\s*dot\s*[\])}>]|-dot-)\s*", re.I)


def repair_email(value: str) -> str:
    """An address written to keep harvesters off ("me-AT-uni.it", "me (at) uni (dot) it",
    "mailto:me@uni.it") as the address it stands for; else as given (the model's check then
    drops an invalid one, naming it)."""
    text = value.strip().removeprefix("mailto:")
    text = _OBFUSCATED_DOT.sub(".", _OBFUSCATED_AT.sub("@", text))
    return text if text.count("@") == 1 and " " not in text else value.strip()
