"""The content version moves by adding rows to a change log instead of updating one row
(labsite/page_cache/); its start is written now, from the clock, so pages need not."""

import time

from django.db import migrations, models


def start_the_version(apps, schema_editor):
    version = apps.get_model("labsite", "ContentVersion")
    version.objects.using(schema_editor.connection.alias).get_or_create(
        pk=1, defaults={"number": time.time_ns()}
    )


class Migration(migrations.Migration):
    dependencies = [
        ("labsite", "0006_content_version"),
    ]

    operations = [
        migrations.CreateModel(
            name="ContentChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
            ],
            options={
                "get_latest_by": "pk",
            },
        ),
        migrations.RunPython(start_the_version, migrations.RunPython.noop),
    ]
