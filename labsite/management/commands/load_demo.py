"""Build the demo lab from the data files in labsite/demo/ (transcribed from the seed pages)."""

import tomllib
from pathlib import Path

from django.core.management.base import BaseCommand
from django.db import transaction

from labsite.models import LabSettings
from people import models as people

DEMO_DIR = Path(__file__).resolve().parents[2] / "demo"

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
        "Load the demo lab (people, publications, talks, awards). Running it again changes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Do nothing when the database already holds people (used by `make run`).",
        )

    @transaction.atomic
    def handle(self, *args, if_empty=False, **options):
        if if_empty and people.Person.objects.exists():
            self.stdout.write("The database already holds people; the demo lab was not loaded.")
            return
        load_lab_settings(read("lab.toml"))
        persons = [load_person(read(path)) for path in sorted((DEMO_DIR / "people").glob("*.toml"))]
        self.stdout.write(self.style.SUCCESS(f"Demo lab loaded: {len(persons)} people."))


def load_lab_settings(data):
    lab = LabSettings.load()
    for field, value in data.items():
        setattr(lab, field, value.strip())
    lab.full_clean()
    lab.save()


def load_person(data):
    sections = {name: data.pop(name, []) for name in PERSON_SECTIONS}
    data["name_variants"] = "\n".join(data.get("name_variants", []))
    data["bio"] = data.get("bio", "").strip()
    person, _ = people.Person.objects.update_or_create(slug=data.pop("slug"), defaults=data)
    for name, rows in sections.items():
        model, keys = PERSON_SECTIONS[name]
        has_order = any(f.name == "order" for f in model._meta.fields)
        for position, row in enumerate(rows, start=1):
            row = dict(row)
            lookup = {key: row.pop(key, "") for key in keys}
            if has_order:
                row["order"] = position
            model.objects.update_or_create(person=person, **lookup, defaults=row)
    return person
