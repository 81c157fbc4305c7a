import django.core.validators
from django.db import migrations, models

HELP = "One per line; a line may hold commas (“Agent harnesses, hardware, and infrastructure”)."
OLD_LENGTH = 500


def _lines(text):
    """ "RDMA, CXL, and LLM serving" → "RDMA\\nCXL\\nLLM serving": the pills the comma rule
    showed, each on a line of its own ("and"/"or" of a list's last item dropped)."""
    items = [item.strip() for item in text.split(",") if item.strip()]
    return "\n".join(item.removeprefix("and ").removeprefix("or ") for item in items)


def to_lines(apps, schema_editor):
    for name in ("Person", "HistoricalPerson"):
        model = apps.get_model("people", name)
        rows = list(model.objects.exclude(research_interests=""))
        for row in rows:
            row.research_interests = _lines(row.research_interests)
        model.objects.bulk_update(rows, ["research_interests"], batch_size=500)


def to_commas(apps, schema_editor):
    for name in ("Person", "HistoricalPerson"):
        model = apps.get_model("people", name)
        rows = list(model.objects.exclude(research_interests=""))
        for row in rows:
            lines = [line.strip() for line in row.research_interests.splitlines() if line.strip()]
            row.research_interests = ", ".join(lines)
            if len(row.research_interests) > OLD_LENGTH:
                raise ValueError(
                    f"The research interests of {row.name} are longer than the earlier schema "
                    f"holds ({OLD_LENGTH} characters); shorten them before migrating back."
                )
        model.objects.bulk_update(rows, ["research_interests"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("people", "0006_new_people_go_last"),
    ]

    operations = [
        migrations.AlterField(
            model_name="historicalperson",
            name="research_interests",
            field=models.TextField(
                blank=True,
                help_text=HELP,
                validators=[django.core.validators.MaxLengthValidator(1000)],
            ),
        ),
        migrations.AlterField(
            model_name="person",
            name="research_interests",
            field=models.TextField(
                blank=True,
                help_text=HELP,
                validators=[django.core.validators.MaxLengthValidator(1000)],
            ),
        ),
        migrations.RunPython(to_lines, to_commas),
    ]
