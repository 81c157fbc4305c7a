"""An image a site import brings in may wait for its alt text (the site gave none, or gave it
in one language): `awaits_alt_text`, and the rule "alt text in both languages" holds for every
other image. Rolled back, an image still waiting is refused by name, as no alt text is made up
for it."""

from django.db import migrations, models
from django.db.models import Q

HELP = (
    "Brought in by a site import without alt text in both languages; saved with both, it no "
    "longer waits."
)


def refuse_waiting_images(apps, schema_editor):
    waiting = list(
        apps.get_model("media", "MediaItem")
        .objects.filter(awaits_alt_text=True)
        .values_list("name", flat=True)[:20]
    )
    if waiting:
        raise RuntimeError(
            "These images still await their alt text, which the earlier schema requires in "
            f"both languages: {', '.join(waiting)}. Write it in the media library, then roll "
            "back."
        )


class Migration(migrations.Migration):
    dependencies = [
        ("media", "0001_initial"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="mediaitem",
            name="media_item_alt_in_both_languages",
        ),
        migrations.AddField(
            model_name="historicalmediaitem",
            name="awaits_alt_text",
            field=models.BooleanField(default=False, editable=False, help_text=HELP),
        ),
        migrations.AddField(
            model_name="mediaitem",
            name="awaits_alt_text",
            field=models.BooleanField(default=False, editable=False, help_text=HELP),
        ),
        migrations.RunPython(migrations.RunPython.noop, refuse_waiting_images),
        migrations.AddConstraint(
            model_name="mediaitem",
            constraint=models.CheckConstraint(
                condition=(~Q(alt_en="") & ~Q(alt_zh_hans="")) | Q(awaits_alt_text=True),
                name="media_item_alt_in_both_languages_or_awaited",
            ),
        ),
    ]
