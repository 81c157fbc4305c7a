"""A paper's status may be unknown (empty), the form's default no longer "published". Rolled
back, a status left unknown stays empty: no fact is invented for it."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("publications", "0012_stored_export_entries"),
    ]

    operations = [
        migrations.AlterField(
            model_name="historicalpublication",
            name="status",
            field=models.CharField(
                blank=True,
                choices=[
                    ("published", "Published"),
                    ("accepted", "Accepted"),
                    ("preprint", "Preprint"),
                ],
                default="",
                help_text="Leave empty if nobody has said: no page or export then states one.",
                max_length=20,
            ),
        ),
        migrations.AlterField(
            model_name="publication",
            name="status",
            field=models.CharField(
                blank=True,
                choices=[
                    ("published", "Published"),
                    ("accepted", "Accepted"),
                    ("preprint", "Preprint"),
                ],
                default="",
                help_text="Leave empty if nobody has said: no page or export then states one.",
                max_length=20,
            ),
        ),
    ]
