"""Tags: one vocabulary in both languages. Rolled back, the table goes."""

import django.db.models.deletion
import simple_history.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="HistoricalTag",
            fields=[
                (
                    "id",
                    models.BigIntegerField(
                        auto_created=True, blank=True, db_index=True, verbose_name="ID"
                    ),
                ),
                (
                    "name_en",
                    models.CharField(
                        help_text="The tag as pages show it: “memory disaggregation” (Chinese: 内存解耦).",
                        max_length=100,
                    ),
                ),
                (
                    "name_zh_hans",
                    models.CharField(
                        blank=True,
                        default="",
                        help_text="The tag as pages show it: “memory disaggregation” (Chinese: 内存解耦).",
                        max_length=100,
                    ),
                ),
                (
                    "slug",
                    models.SlugField(
                        blank=True,
                        help_text="The last part of the tag's address: “memory” gives /tags/memory/. Leave empty to make one from the name.",
                        max_length=100,
                    ),
                ),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(
                        choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1
                    ),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "historical tag",
                "verbose_name_plural": "historical tags",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="Tag",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "name_en",
                    models.CharField(
                        help_text="The tag as pages show it: “memory disaggregation” (Chinese: 内存解耦).",
                        max_length=100,
                    ),
                ),
                (
                    "name_zh_hans",
                    models.CharField(
                        blank=True,
                        default="",
                        help_text="The tag as pages show it: “memory disaggregation” (Chinese: 内存解耦).",
                        max_length=100,
                    ),
                ),
                (
                    "slug",
                    models.SlugField(
                        blank=True,
                        help_text="The last part of the tag's address: “memory” gives /tags/memory/. Leave empty to make one from the name.",
                        max_length=100,
                    ),
                ),
            ],
            options={
                "ordering": ["slug"],
                "constraints": [
                    models.UniqueConstraint(fields=("slug",), name="tag_slug_unique"),
                    models.CheckConstraint(
                        condition=models.Q(("slug", ""), _negated=True), name="tag_has_a_slug"
                    ),
                ],
            },
        ),
    ]
