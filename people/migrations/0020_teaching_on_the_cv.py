"""Teaching is a profile and CV section (website.Course): a member may introduce it and
place it in their CV's order, after talks by default. Choices and help text only: rolled
back, nothing is lost but a "teaching" introduction, which the old choices do not name."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("people", "0019_person_cv_sections"),
    ]

    operations = [
        migrations.AlterField(
            model_name="historicalperson",
            name="cv_sections",
            field=models.CharField(
                blank=True,
                help_text="The CV's sections in the order you want them, comma-separated: education, experience, awards, publications, patents, talks, teaching, service, projects, contributions, writing. Those left out follow in that order, which an empty field keeps.",
                max_length=200,
                verbose_name="CV section order",
            ),
        ),
        migrations.AlterField(
            model_name="historicalsectionintroduction",
            name="section",
            field=models.CharField(
                choices=[
                    ("news", "News"),
                    ("publications", "Publications"),
                    ("projects", "Open Source & Projects"),
                    ("contributions", "Open-Source Contributions"),
                    ("talks", "Talks & Presentations"),
                    ("teaching", "Teaching"),
                    ("experience", "Experience"),
                    ("education", "Education"),
                    ("awards", "Honors & Awards"),
                    ("service", "Academic Service"),
                    ("writing", "Writing"),
                    ("patents", "Patents"),
                ],
                max_length=20,
            ),
        ),
        migrations.AlterField(
            model_name="person",
            name="cv_sections",
            field=models.CharField(
                blank=True,
                help_text="The CV's sections in the order you want them, comma-separated: education, experience, awards, publications, patents, talks, teaching, service, projects, contributions, writing. Those left out follow in that order, which an empty field keeps.",
                max_length=200,
                verbose_name="CV section order",
            ),
        ),
        migrations.AlterField(
            model_name="sectionintroduction",
            name="section",
            field=models.CharField(
                choices=[
                    ("news", "News"),
                    ("publications", "Publications"),
                    ("projects", "Open Source & Projects"),
                    ("contributions", "Open-Source Contributions"),
                    ("talks", "Talks & Presentations"),
                    ("teaching", "Teaching"),
                    ("experience", "Experience"),
                    ("education", "Education"),
                    ("awards", "Honors & Awards"),
                    ("service", "Academic Service"),
                    ("writing", "Writing"),
                    ("patents", "Patents"),
                ],
                max_length=20,
            ),
        ),
    ]
