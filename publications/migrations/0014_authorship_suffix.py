"""Authors' generational suffixes apart from their family names: "King, Jr." and "Silva
Filho" stored before as the family name become "King" and "Silva" with the suffix "Jr." and
"Filho". Rolling back writes each suffix back after the family name ("King Jr."), which
upgrading again splits the same way: nothing is lost either way."""

from django.db import migrations, models

SUFFIXES = {"jr", "sr", "ii", "iii", "iv", "junior", "júnior", "filho", "neto", "sobrinho"}


def _is_suffix(word):
    return word.strip().rstrip(".,").casefold() in SUFFIXES


def split_suffixes(apps, schema_editor):
    Authorship = apps.get_model("publications", "Authorship")
    changed = []
    for row in Authorship.objects.exclude(family_name="").filter(suffix="").iterator():
        family = row.family_name
        head, comma, tail = family.rpartition(",")
        if comma and head.strip() and _is_suffix(tail):  # "King, Jr."
            row.family_name, row.suffix = head.strip(), tail.strip()
        else:
            words = family.split(" ")
            if len(words) < 2 or not _is_suffix(words[-1]):
                continue
            row.family_name, row.suffix = " ".join(words[:-1]), words[-1]  # "Silva Filho"
        changed.append(row)
    Authorship.objects.bulk_update(changed, ["family_name", "suffix"], batch_size=500)


def join_suffixes(apps, schema_editor):
    Authorship = apps.get_model("publications", "Authorship")
    changed = []
    for row in Authorship.objects.exclude(suffix="").iterator():
        row.family_name = f"{row.family_name} {row.suffix}"[:100]
        row.suffix = ""
        changed.append(row)
    Authorship.objects.bulk_update(changed, ["family_name", "suffix"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("publications", "0013_status_may_be_unknown"),
    ]

    operations = [
        migrations.AddField(
            model_name="authorship",
            name="suffix",
            field=models.CharField(
                blank=True,
                help_text="A generational suffix, as printed: “Jr.”, “III”, “Filho”, “Neto”. "
                "Not part of the family name: sorting, initials and citations keep it apart.",
                max_length=20,
            ),
        ),
        migrations.AddField(
            model_name="historicalauthorship",
            name="suffix",
            field=models.CharField(
                blank=True,
                help_text="A generational suffix, as printed: “Jr.”, “III”, “Filho”, “Neto”. "
                "Not part of the family name: sorting, initials and citations keep it apart.",
                max_length=20,
            ),
        ),
        migrations.RunPython(split_suffixes, join_suffixes),
    ]
