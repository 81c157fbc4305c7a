"""A course's address carries the year it began: a slug without its year gets it added
("operating-systems" → "operating-systems-2024"), and the old address redirects
(website.views.CourseView). Back, the slugs stay as they are: a slug with its year is a
slug the earlier release serves as well."""

import re

from django.db import migrations, models


YEAR_AT_END = re.compile(r"-(?:19|20)\d{2}$")


def add_years(apps, schema_editor):
    Course = apps.get_model("website", "Course")
    for course in Course.objects.exclude(start__isnull=True).exclude(start=""):
        year = str(course.start.year)
        if year in course.slug.split("-"):
            continue
        course.slug = f"{YEAR_AT_END.sub('', course.slug)[:95]}-{year}"
        course.save(update_fields=["slug"])


class Migration(migrations.Migration):
    dependencies = [
        ("website", "0007_openings_close_early_and_their_own_place"),
    ]

    operations = [
        migrations.AlterField(
            model_name="course",
            name="slug",
            field=models.SlugField(
                blank=True,
                help_text="The last part of the course's address: “operating-systems-2024” gives /teaching/operating-systems-2024/. It carries the year the course began (added when missing), so each run has its own. Leave empty to make one from the title and term.",
                max_length=100,
            ),
        ),
        migrations.AlterField(
            model_name="historicalcourse",
            name="slug",
            field=models.SlugField(
                blank=True,
                help_text="The last part of the course's address: “operating-systems-2024” gives /teaching/operating-systems-2024/. It carries the year the course began (added when missing), so each run has its own. Leave empty to make one from the title and term.",
                max_length=100,
            ),
        ),
        migrations.RunPython(add_years, migrations.RunPython.noop),
    ]
