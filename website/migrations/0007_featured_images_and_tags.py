"""Posts, research themes and courses take a featured image and tags. Rolled back, the
columns go."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("media", "0001_initial"),
        ("tags", "0001_initial"),
        ("website", "0006_teaching"),
    ]

    operations = [
        migrations.AddField(
            model_name="course",
            name="featured_image",
            field=models.ForeignKey(
                blank=True,
                help_text="An image from the media library, shown with it in lists, on its page and when a link to it is shared.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="featured_courses",
                to="media.mediaitem",
                verbose_name="featured image",
            ),
        ),
        migrations.AddField(
            model_name="course",
            name="tags",
            field=models.ManyToManyField(
                blank=True,
                help_text="What it is about, in the lab's shared words; each tag has a page listing everything with it.",
                related_name="courses",
                to="tags.tag",
            ),
        ),
        migrations.AddField(
            model_name="historicalcourse",
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
            model_name="historicalpost",
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
            model_name="historicaltheme",
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
            model_name="post",
            name="featured_image",
            field=models.ForeignKey(
                blank=True,
                help_text="An image from the media library, shown with it in lists, on its page and when a link to it is shared.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="featured_posts",
                to="media.mediaitem",
                verbose_name="featured image",
            ),
        ),
        migrations.AddField(
            model_name="post",
            name="tags",
            field=models.ManyToManyField(
                blank=True,
                help_text="What it is about, in the lab's shared words; each tag has a page listing everything with it.",
                related_name="posts",
                to="tags.tag",
            ),
        ),
        migrations.AddField(
            model_name="theme",
            name="featured_image",
            field=models.ForeignKey(
                blank=True,
                help_text="An image from the media library, shown with it in lists, on its page and when a link to it is shared.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="featured_themes",
                to="media.mediaitem",
                verbose_name="featured image",
            ),
        ),
        migrations.AddField(
            model_name="theme",
            name="tags",
            field=models.ManyToManyField(
                blank=True,
                help_text="What it is about, in the lab's shared words; each tag has a page listing everything with it.",
                related_name="themes",
                to="tags.tag",
            ),
        ),
    ]
