"""The media library: images (alt text in both languages, caption, credit, a short name to use
them by) and galleries of them. Rolled back, the tables go."""

import core.images
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
            name="Gallery",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "name",
                    models.SlugField(
                        help_text="A short name to show the gallery by in any text: “retreat-2026” is written ![Our retreat](media:gallery/retreat-2026).",
                        max_length=60,
                    ),
                ),
                (
                    "title_en",
                    models.CharField(
                        blank=True,
                        help_text="Shown under the grid; empty for none.",
                        max_length=200,
                    ),
                ),
                (
                    "title_zh_hans",
                    models.CharField(
                        blank=True,
                        default="",
                        help_text="Shown under the grid; empty for none.",
                        max_length=200,
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "galleries",
                "ordering": ["name"],
                "constraints": [
                    models.UniqueConstraint(fields=("name",), name="gallery_name_unique"),
                    models.CheckConstraint(
                        condition=models.Q(("name", ""), _negated=True), name="gallery_has_a_name"
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="HistoricalGallery",
            fields=[
                (
                    "id",
                    models.BigIntegerField(
                        auto_created=True, blank=True, db_index=True, verbose_name="ID"
                    ),
                ),
                (
                    "name",
                    models.SlugField(
                        help_text="A short name to show the gallery by in any text: “retreat-2026” is written ![Our retreat](media:gallery/retreat-2026).",
                        max_length=60,
                    ),
                ),
                (
                    "title_en",
                    models.CharField(
                        blank=True,
                        help_text="Shown under the grid; empty for none.",
                        max_length=200,
                    ),
                ),
                (
                    "title_zh_hans",
                    models.CharField(
                        blank=True,
                        default="",
                        help_text="Shown under the grid; empty for none.",
                        max_length=200,
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
                "verbose_name": "historical gallery",
                "verbose_name_plural": "historical galleries",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalMediaItem",
            fields=[
                (
                    "id",
                    models.BigIntegerField(
                        auto_created=True, blank=True, db_index=True, verbose_name="ID"
                    ),
                ),
                (
                    "name",
                    models.SlugField(
                        help_text="A short name to use the image by in any text: “cluster” is written ![The lab's GPU cluster](media:cluster). Lowercase letters, digits and hyphens.",
                        max_length=60,
                    ),
                ),
                (
                    "image",
                    models.TextField(
                        help_text="JPEG, PNG or WebP, at most 10 MB and 40 megapixels. Turned upright, its location and camera data removed; pages show it in sizes for phones to wide screens.",
                        max_length=100,
                    ),
                ),
                ("width", models.PositiveIntegerField(editable=False, null=True)),
                ("height", models.PositiveIntegerField(editable=False, null=True)),
                (
                    "alt_en",
                    models.CharField(
                        blank=True,
                        help_text="What the image shows, for readers who cannot see it (screen readers, search engines): “Four racks of GPU servers in the lab's machine room”.",
                        max_length=250,
                        verbose_name="alt text",
                    ),
                ),
                (
                    "alt_zh_hans",
                    models.CharField(
                        blank=True,
                        default="",
                        help_text="What the image shows, for readers who cannot see it (screen readers, search engines): “Four racks of GPU servers in the lab's machine room”.",
                        max_length=250,
                        verbose_name="alt text",
                    ),
                ),
                (
                    "caption_en",
                    models.CharField(
                        blank=True,
                        help_text="Shown under the image where it is a figure; empty for none.",
                        max_length=300,
                    ),
                ),
                (
                    "caption_zh_hans",
                    models.CharField(
                        blank=True,
                        default="",
                        help_text="Shown under the image where it is a figure; empty for none.",
                        max_length=300,
                    ),
                ),
                (
                    "credit",
                    models.CharField(
                        blank=True,
                        help_text="Who made the image and its licence, shown with the caption: “Photo: Lin Wei, CC BY 4.0”.",
                        max_length=200,
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
                "verbose_name": "historical image",
                "verbose_name_plural": "historical images",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="MediaItem",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "name",
                    models.SlugField(
                        help_text="A short name to use the image by in any text: “cluster” is written ![The lab's GPU cluster](media:cluster). Lowercase letters, digits and hyphens.",
                        max_length=60,
                    ),
                ),
                (
                    "image",
                    core.images.SafeImageField(
                        help_text="JPEG, PNG or WebP, at most 10 MB and 40 megapixels. Turned upright, its location and camera data removed; pages show it in sizes for phones to wide screens.",
                        strict=True,
                        upload_to="library/",
                    ),
                ),
                ("width", models.PositiveIntegerField(editable=False, null=True)),
                ("height", models.PositiveIntegerField(editable=False, null=True)),
                (
                    "alt_en",
                    models.CharField(
                        blank=True,
                        help_text="What the image shows, for readers who cannot see it (screen readers, search engines): “Four racks of GPU servers in the lab's machine room”.",
                        max_length=250,
                        verbose_name="alt text",
                    ),
                ),
                (
                    "alt_zh_hans",
                    models.CharField(
                        blank=True,
                        default="",
                        help_text="What the image shows, for readers who cannot see it (screen readers, search engines): “Four racks of GPU servers in the lab's machine room”.",
                        max_length=250,
                        verbose_name="alt text",
                    ),
                ),
                (
                    "caption_en",
                    models.CharField(
                        blank=True,
                        help_text="Shown under the image where it is a figure; empty for none.",
                        max_length=300,
                    ),
                ),
                (
                    "caption_zh_hans",
                    models.CharField(
                        blank=True,
                        default="",
                        help_text="Shown under the image where it is a figure; empty for none.",
                        max_length=300,
                    ),
                ),
                (
                    "credit",
                    models.CharField(
                        blank=True,
                        help_text="Who made the image and its licence, shown with the caption: “Photo: Lin Wei, CC BY 4.0”.",
                        max_length=200,
                    ),
                ),
                ("uploaded", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "verbose_name": "image",
                "ordering": ["name"],
                "constraints": [
                    models.UniqueConstraint(fields=("name",), name="media_item_name_unique"),
                    models.CheckConstraint(
                        condition=models.Q(("name", ""), _negated=True),
                        name="media_item_has_a_name",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("alt_en", ""), _negated=True),
                            models.Q(("alt_zh_hans", ""), _negated=True),
                        ),
                        name="media_item_alt_in_both_languages",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="HistoricalGalleryItem",
            fields=[
                (
                    "id",
                    models.BigIntegerField(
                        auto_created=True, blank=True, db_index=True, verbose_name="ID"
                    ),
                ),
                (
                    "position",
                    models.PositiveSmallIntegerField(default=1, help_text="1 comes first."),
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
                    "gallery",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="media.gallery",
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
                (
                    "item",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="media.mediaitem",
                        verbose_name="image",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical image in the gallery",
                "verbose_name_plural": "historical images in the gallery",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="GalleryItem",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "position",
                    models.PositiveSmallIntegerField(default=1, help_text="1 comes first."),
                ),
                (
                    "gallery",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="entries",
                        to="media.gallery",
                    ),
                ),
                (
                    "item",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="gallery_entries",
                        to="media.mediaitem",
                        verbose_name="image",
                    ),
                ),
            ],
            options={
                "verbose_name": "image in the gallery",
                "verbose_name_plural": "images in the gallery",
                "ordering": ["gallery", "position", "pk"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("gallery", "item"), name="gallery_shows_an_image_once"
                    )
                ],
            },
        ),
    ]
