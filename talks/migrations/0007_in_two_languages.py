"""Talk titles and award names in English and Chinese (title_en, title_zh_hans): the old
column becomes the English one, and a title written in Chinese characters moves to the
Chinese one, where it belongs (back again on reversal)."""

from django.db import migrations, models

import core.languages

from core.markup import detect_language

MOVED = [("Talk", "title"), ("Award", "name")]


def move_chinese_text(apps, schema_editor):
    for model_name, name in MOVED:
        model = apps.get_model("talks", model_name)
        for obj in model.objects.all():
            text = getattr(obj, f"{name}_en")
            if detect_language(text) == "zh" and not getattr(obj, f"{name}_zh_hans"):
                setattr(obj, f"{name}_zh_hans", text)
                setattr(obj, f"{name}_en", "")
                obj.save(update_fields=[f"{name}_en", f"{name}_zh_hans"])


def move_back(apps, schema_editor):
    for model_name, name in MOVED:
        model = apps.get_model("talks", model_name)
        for obj in model.objects.filter(**{f"{name}_en": ""}):
            setattr(obj, f"{name}_en", getattr(obj, f"{name}_zh_hans"))
            obj.save(update_fields=[f"{name}_en"])


def _in_two_languages(model_name, name, **options):
    return [
        migrations.RenameField(model_name, name, f"{name}_en"),
        migrations.AlterField(
            model_name, f"{name}_en", models.CharField(blank=True, max_length=300, **options)
        ),
        migrations.AddField(
            model_name,
            f"{name}_zh_hans",
            models.CharField(blank=True, default="", max_length=300, **options),
        ),
    ]


AWARD_HELP = {"help_text": "e.g. “ChinaSys Best Poster”."}
LANGUAGE = models.CharField(
    blank=True,
    help_text="Language code of the talk (en, zh, ja…). Leave empty to tell it from the title's "
    "script: a title in Chinese characters is marked zh.",
    max_length=10,
    verbose_name="language",
)


class Migration(migrations.Migration):
    dependencies = [
        ("talks", "0006_talks_about_projects"),
    ]

    operations = [
        *_in_two_languages("award", "name", **AWARD_HELP),
        *_in_two_languages("historicalaward", "name", **AWARD_HELP),
        *_in_two_languages("talk", "title"),
        *_in_two_languages("historicaltalk", "title"),
        migrations.AlterField("talk", "language", LANGUAGE),
        migrations.AlterField("historicaltalk", "language", LANGUAGE),
        migrations.AlterModelOptions(
            name="award",
            options={
                "ordering": [
                    models.OrderBy(models.F("date"), descending=True, nulls_last=True),
                    "name_en",
                    "name_zh_hans",
                ]
            },
        ),
        migrations.AlterModelOptions(
            name="talk", options={"ordering": ["-date", "title_en", "title_zh_hans"]}
        ),
        migrations.RunPython(move_chinese_text, move_back),
        # Rolling back drops the Chinese columns: refused while any holds text.
        migrations.RunPython(
            migrations.RunPython.noop,
            core.languages.keep_texts_on_rollback(
                "talks", moved_back=[name for _model, name in MOVED]
            ),
        ),
    ]
