"""A paper takes a featured image and tags. Rolled back, the columns go."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("media", "0001_initial"),
        ("publications", "0013_status_may_be_unknown"),
        ("tags", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalpublication",
            name="featured_image",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                help_text="An image from the media library, shown with it in lists, on its page and when a link to it is shared.",
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="media.mediaitem",
                verbose_name="featured image",
            ),
        ),
        migrations.AddField(
            model_name="publication",
            name="featured_image",
            field=models.ForeignKey(
                blank=True,
                help_text="An image from the media library, shown with it in lists, on its page and when a link to it is shared.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="featured_publications",
                to="media.mediaitem",
                verbose_name="featured image",
            ),
        ),
        migrations.AddField(
            model_name="publication",
            name="tags",
            field=models.ManyToManyField(
                blank=True,
                help_text="What it is about, in the lab's shared words; each tag has a page listing everything with it.",
                related_name="publications",
                to="tags.tag",
            ),
        ),
    ]
