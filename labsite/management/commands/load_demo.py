"""Build the demo lab from the data files in labsite/demo/ (transcribed from the seed pages)."""

import datetime
import tomllib

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from core.languages import columns_given
from core.partial_dates import PartialDate
from lab.models import LabSettings
from labsite import demo_rows
from people import models as people
from publications import importing
from publications.models import Authorship, Publication, Venue
from talks.models import Award, Recipient, Speaker, Talk
from website.models import (
    Course,
    CourseTeacher,
    HomeSection,
    MenuItem,
    Opening,
    Page,
    Post,
    PostAuthor,
    Theme,
)

DEMO_DIR = demo_rows.DEMO_DIR

# A person file's tables of rows: the model each holds, and the fields that identify a row,
# so that loading twice finds the rows of the first load instead of adding new ones.
PERSON_SECTIONS = {
    "links": (people.Link, ["kind", "url"]),
    "reported_figures": (people.ReportedFigure, ["label", "source"]),
    "news": (people.NewsItem, ["date", "text"]),
    "experience": (people.Experience, ["title", "organization"]),
    "education": (people.Education, ["degree", "institution"]),
    "service": (people.Service, ["role", "organization"]),
    "projects": (people.Project, ["name"]),
    "contributions": (people.Contribution, ["project", "title"]),
    "writing": (people.Writing, ["title"]),
    "extra_sections": (people.ExtraSection, ["title"]),
}


def read(name):
    with open(DEMO_DIR / name, "rb") as file:
        return tomllib.load(file)


class Command(BaseCommand):
    help = (
        "Load the demo lab (people, publications, talks, awards, the lab's own pages). Running "
        "it again changes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help=(
                "Load only into a new database: do nothing when it holds people or any account "
                "(used by `make run`: a lab that started empty, or removed the demo, keeps its "
                "admin account and so never gets the demo back)."
            ),
        )

    @transaction.atomic
    def handle(self, *args, if_empty=False, **options):
        if if_empty and (people.Person.objects.exists() or get_user_model().objects.exists()):
            self.stdout.write(
                "The database already holds people or accounts; the demo lab was not loaded."
            )
            return
        # Every row it makes is recorded as the demo's, for `remove_demo`.
        with demo_rows.recording():
            load_lab_settings(read("lab.toml"))
            people_dir = DEMO_DIR / "people"
            persons = [load_person(read(path)) for path in sorted(people_dir.glob("*.toml"))]
            load_venues(read("venues.toml"))
            import_crossref("crossref-mooncake-tos.json")
            count = load_publications(read("publications.toml"))
            talks, awards = load_talks_and_awards(read("talks.toml"))
            pages = load_pages(read("pages.toml"))
            posts = load_posts(read("posts.toml"))
            openings = load_openings(read("openings.toml"))
            themes = load_themes(read("themes.toml"))
            sections = load_home(read("home.toml"))
            courses = load_courses(read("teaching.toml"))
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo lab loaded: {len(persons)} people, {count} publications, "
                f"{talks} talks, {awards} awards, {pages} pages, {posts} posts, "
                f"{openings} openings, {themes} research themes, {courses} courses, a home of "
                f"{sections} sections. `manage.py remove_demo` takes it away again."
            )
        )


def load_lab_settings(data):
    LabSettings.load()
    values = {k: v.strip() if isinstance(v, str) else v for k, v in data.items()}
    upsert(LabSettings, values, pk=1)


def upsert(model, values, **lookup):
    """Like update_or_create, but writes (and so records history) only when a value differs:
    loading the demo twice changes nothing. Every write goes through the model's rules
    (`full_clean()`), as an admin form's would."""
    obj = model.objects.filter(**lookup).first()
    if obj is None:
        obj = model(**lookup, **values)
        obj.full_clean()
        obj.save()
        return obj
    changed = False
    for field, value in values.items():
        before = getattr(obj, field)
        setattr(obj, field, value)
        changed |= getattr(obj, field) != before
    if changed:
        obj.full_clean()
        obj.save()
    return obj


def load_person(data):
    sections = {name: data.pop(name, []) for name in PERSON_SECTIONS}
    data["name_variants"] = "\n".join(data.get("name_variants", []))
    data["bio"] = data.get("bio", "").strip()
    person = upsert(people.Person, data, slug=data.pop("slug"))
    for name, rows in sections.items():
        model, keys = PERSON_SECTIONS[name]
        has_order = any(f.name == "order" for f in model._meta.fields)
        for position, row in enumerate(rows, start=1):
            row = dict(row)
            lookup = {k: v for key in keys for k, v in columns_given(model, row, key).items()}
            if has_order:
                row["order"] = position
            upsert(model, row, person=person, **lookup)
    return person


def load_venues(data):
    for row in data["venues"]:
        upsert(Venue, row, short_name=row.pop("short_name"))


def import_crossref(name):
    """Build a paper through the importer, as a lab admin would from its DOI."""
    records = importing.read_crossref_json((DEMO_DIR / name).read_text(), name)
    summary = importing.apply(importing.plan(records))
    if summary.failed:
        raise CommandError(f"{name} could not be imported: {summary}")


def load_publications(data):
    people_by_slug = {p.slug: p for p in people.Person.objects.all()}
    count = 0
    for row in data["publications"]:
        if "title" not in row:
            # Links an admin adds on top of an imported record.
            upsert(Publication, row, doi=row.pop("doi"))
        else:
            load_publication(row, people_by_slug)
        count += 1
    for group in data["patents"]:
        for number in group["numbers"]:
            patent = {
                "kind": Publication.Kind.PATENT,
                "patent_jurisdiction": group["jurisdiction"],
                "patent_number": number,
                "authors": group["inventors"],
                "people": group["people"],
            }
            load_publication(patent, people_by_slug)
            count += 1
    return count


def load_publication(row, people_by_slug):
    row = dict(row)
    authors = row.pop("authors")
    positions = {position: people_by_slug[slug] for slug, position in row.pop("people").items()}
    co_first, corresponding = set(row.pop("co_first", [])), set(row.pop("corresponding", []))
    if "venue" in row:
        row["venue"] = Venue.objects.get(short_name=row["venue"])
    row.setdefault("kind", Publication.Kind.CONFERENCE)
    if row["kind"] == Publication.Kind.PATENT:
        lookup = {"patent_number": row.pop("patent_number")}
    else:
        lookup = {"title": row.pop("title")}
    publication = upsert(Publication, row, **lookup)
    for position, printed in enumerate(authors, start=1):
        if printed in ("...", "et al."):
            defaults = {"given_name": "", "family_name": "", "person": None, "is_unlisted": True}
        else:
            given, family = people.split_name(printed)
            defaults = {
                "given_name": given,
                "family_name": family,
                "person": positions.get(position),
            }
        defaults["is_equal_contribution"] = position in co_first
        defaults["is_corresponding"] = position in corresponding
        upsert(Authorship, defaults, publication=publication, position=position)
    publication.authorships.filter(position__gt=len(authors)).delete()


def load_talks_and_awards(data):
    people_by_slug = {p.slug: p for p in people.Person.objects.all()}
    for row in data["talks"]:
        row = _with_publication(row)
        speakers = row.pop("speakers")
        title = columns_given(Talk, row, "title")
        talk = upsert(Talk, row, **title, date=row.pop("date"))
        _set_participants(Speaker, "talk", talk, speakers, people_by_slug)
    for row in data["awards"]:
        row = _with_publication(row)
        recipients = row.pop("recipients")
        name = columns_given(Award, row, "name")
        award = upsert(Award, row, **name, date=row.pop("date"))
        _set_participants(Recipient, "award", award, recipients, people_by_slug)
    return len(data["talks"]), len(data["awards"])


def load_pages(data):
    """The lab's pages, parents before their subpages, each placed in the menu at `menu`."""
    for row in data["pages"]:
        row = {k: v.strip() if isinstance(v, str) else v for k, v in row.items()}
        slug, position = row.pop("slug"), row.pop("menu", None)
        parent = Page.objects.get(slug=row.pop("parent")) if "parent" in row else None
        values = {
            **columns_given(Page, row, "title"),
            **columns_given(Page, row, "body"),
            "is_published": True,
        }
        page = upsert(Page, values, slug=slug, parent=parent)
        if position is not None:
            upsert(MenuItem, {"position": position}, page=page)
    return len(data["pages"])


def load_posts(data):
    """The lab's posts, published, each with its authors in order; the menu lists them."""
    people_by_slug = {p.slug: p for p in people.Person.objects.all()}
    for row in data["posts"]:
        row = {k: v.strip() if isinstance(v, str) else v for k, v in row.items()}
        slug, authors = row.pop("slug"), row.pop("authors")
        values = {
            **columns_given(Post, row, "title"),
            **columns_given(Post, row, "summary"),
            **columns_given(Post, row, "body"),
            "date": datetime.date.fromisoformat(row.pop("date")),
            "is_published": True,
        }
        post = upsert(Post, values, slug=slug)
        for position, author in enumerate(authors, start=1):
            upsert(PostAuthor, {"position": position}, post=post, person=people_by_slug[author])
        post.authors.exclude(person__slug__in=authors).delete()
    upsert(MenuItem, {"position": MenuItem.Section.POSTS.default_position}, section="posts")
    return len(data["posts"])


def load_openings(data):
    """The lab's openings, published; the menu lists them."""
    for row in data["openings"]:
        row = {k: v.strip() if isinstance(v, str) else v for k, v in row.items()}
        slug = row.pop("slug")
        values = {
            **{name: row.pop(name) for name in ("kind", "country")},
            **columns_given(Opening, row, "city"),
            **columns_given(Opening, row, "title"),
            **columns_given(Opening, row, "description"),
            **columns_given(Opening, row, "how_to_apply"),
            "posted": datetime.date.fromisoformat(row.pop("posted")),
            "is_published": True,
        }
        if "deadline" in row:
            values["deadline"] = datetime.date.fromisoformat(row.pop("deadline"))
        upsert(Opening, values, slug=slug)
    position = MenuItem.Section.OPENINGS.default_position
    upsert(MenuItem, {"position": position}, section="openings")
    return len(data["openings"])


def load_themes(data):
    """The lab's research themes, published, with their members and papers; the menu lists
    them."""
    for row in data["themes"]:
        row = {k: v.strip() if isinstance(v, str) else v for k, v in row.items()}
        slug = row.pop("slug")
        members = people.Person.objects.filter(slug__in=row.pop("members", []))
        papers = Publication.objects.filter(title__in=row.pop("publications", []))
        values = {
            **columns_given(Theme, row, "title"),
            **columns_given(Theme, row, "summary"),
            **columns_given(Theme, row, "body"),
            "position": row.pop("position", 100),
            "code_url": row.pop("code_url", ""),
            "start": PartialDate.parse(row.pop("start")) if "start" in row else None,
            "is_published": True,
        }
        theme = upsert(Theme, values, slug=slug)
        theme.members.set(members)
        theme.publications.set(papers)
    position = MenuItem.Section.RESEARCH.default_position
    upsert(MenuItem, {"position": position}, section="research")
    return len(data["themes"])


def load_home(data):
    """The home page's sections, in their order."""
    for row in data["sections"]:
        row = {k: v.strip() if isinstance(v, str) else v for k, v in row.items()}
        kind = row.pop("kind")
        values = {
            **{
                name: row.pop(name)
                for name in ("position", "count", "link_url", "map_url")
                if name in row
            },
            **{
                column: value
                for name in ("heading", "text", "link_label")
                for column, value in columns_given(HomeSection, row, name).items()
            },
        }
        upsert(HomeSection, values, kind=kind)
    return len(data["sections"])


def load_courses(data):
    """The lab's courses, published, each with its teachers in order; the menu lists them."""
    people_by_slug = {p.slug: p for p in people.Person.objects.all()}
    for row in data["courses"]:
        row = {k: v.strip() if isinstance(v, str) else v for k, v in row.items()}
        slug, teachers = row.pop("slug"), row.pop("teachers", [])
        values = {
            **columns_given(Course, row, "title"),
            **columns_given(Course, row, "term"),
            **columns_given(Course, row, "institution"),
            **columns_given(Course, row, "description"),
            "start": PartialDate.parse(row.pop("start")) if "start" in row else None,
            "is_published": True,
            **{name: row.pop(name, "") for name in ("code", *_COURSE_LINKS)},
        }
        course = upsert(Course, values, slug=slug)
        for position, teacher in enumerate(teachers, start=1):
            person = people_by_slug.get(teacher.get("person", ""))
            upsert(
                CourseTeacher,
                {"person": person, "name": teacher.get("name", ""), "role": teacher["role"]},
                course=course,
                position=position,
            )
        course.teachers.filter(position__gt=len(teachers)).delete()
    position = MenuItem.Section.TEACHING.default_position
    upsert(MenuItem, {"position": position}, section="teaching")
    return len(data["courses"])


_COURSE_LINKS = ("page_url", "syllabus_url", "materials_url", "video_url")


def _with_publication(row):
    row = dict(row)
    if "publication" in row:
        row["publication"] = Publication.objects.get(title=row["publication"])
    return row


def _set_participants(model, parent_field, parent, entries, people_by_slug):
    for position, entry in enumerate(entries, start=1):
        person = people_by_slug.get(entry)
        defaults = {"person": person, "name": person.name if person else entry}
        upsert(model, defaults, **{parent_field: parent}, position=position)
    model.objects.filter(**{parent_field: parent}, position__gt=len(entries)).delete()
