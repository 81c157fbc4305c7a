"""A member chooses the order of their CV's sections (Person.cv_sections; empty: the default
order). Rolled back, the chosen orders go with the column."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("people", "0018_person_has_left"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalperson",
            name="cv_sections",
            field=models.CharField(
                blank=True,
                help_text="The CV's sections in the order you want them, comma-separated: education, experience, awards, publications, patents, talks, service, projects, contributions, writing. Those left out follow in that order, which an empty field keeps.",
                max_length=200,
                verbose_name="CV section order",
            ),
        ),
        migrations.AddField(
            model_name="person",
            name="cv_sections",
            field=models.CharField(
                blank=True,
                help_text="The CV's sections in the order you want them, comma-separated: education, experience, awards, publications, patents, talks, service, projects, contributions, writing. Those left out follow in that order, which an empty field keeps.",
                max_length=200,
                verbose_name="CV section order",
            ),
        ),
    ]
