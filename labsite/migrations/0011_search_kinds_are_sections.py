"""A search document's kind is now its section's key in the registry (lab/sections.py),
which names what a result is: the documents already written take the new names (and give
them back on the way down), so an index needs no rebuild either way."""

from django.db import migrations

KINDS = {
    "person": "people",
    "publication": "publications",
    "talk": "talks",
    "award": "awards",
    "post": "posts",
    "opening": "openings",
    "theme": "research",
    "course": "teaching",
    "tag": "tags",
    "page": "pages",
}  # "news" keeps its name


def renamed(kinds):
    def rename(apps, schema_editor):
        documents = apps.get_model("labsite", "SearchDocument").objects
        for old, new in kinds.items():
            documents.filter(kind=old).update(kind=new)

    return rename


class Migration(migrations.Migration):
    dependencies = [("labsite", "0010_merge_wave_5")]

    operations = [
        migrations.RunPython(
            renamed(KINDS), renamed({new: old for old, new in KINDS.items()}), elidable=True
        )
    ]
