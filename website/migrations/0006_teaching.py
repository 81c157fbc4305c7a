"""The lab's teaching: courses (title, code, term, start, institution, description and links,
in both languages where they are text) and who taught each in which role; the menu's
Teaching section. Rolled back, the courses go with their tables."""

import core.partial_dates
import core.weblinks
import django.db.models.deletion
import simple_history.models
from django.conf import settings
from django.db import migrations, models


def drop_teaching_from_the_menu(apps, schema_editor):
    """Backwards only: the release before this one knows no Teaching section, and its menu
    fails on an entry naming one (every page a 500), so the entry goes with the section."""
    MenuItem = apps.get_model("website", "MenuItem")
    MenuItem.objects.using(schema_editor.connection.alias).filter(section="teaching").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("people", "0020_teaching_on_the_cv"),
        ("website", "0005_home_sections"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="historicalmenuitem",
            name="position",
            field=models.PositiveSmallIntegerField(
                default=100,
                help_text="Smaller numbers come first. Sections not listed here stand at 10 (People), 20 (Publications), 30 (Talks), 40 (Awards), 50 (News); Posts, Openings, Research and Teaching show once listed here.",
            ),
        ),
        migrations.AlterField(
            model_name="historicalmenuitem",
            name="section",
            field=models.CharField(
                blank=True,
                choices=[
                    ("people", "People"),
                    ("publications", "Publications"),
                    ("talks", "Talks"),
                    ("awards", "Awards"),
                    ("news", "News"),
                    ("posts", "Posts"),
                    ("openings", "Openings"),
                    ("research", "Research"),
                    ("teaching", "Teaching"),
                ],
                help_text="A built-in section, to move, rename or hide it.",
                max_length=20,
            ),
        ),
        migrations.AlterField(
            model_name="menuitem",
            name="position",
            field=models.PositiveSmallIntegerField(
                default=100,
                help_text="Smaller numbers come first. Sections not listed here stand at 10 (People), 20 (Publications), 30 (Talks), 40 (Awards), 50 (News); Posts, Openings, Research and Teaching show once listed here.",
            ),
        ),
        migrations.AlterField(
            model_name="menuitem",
            name="section",
            field=models.CharField(
                blank=True,
                choices=[
                    ("people", "People"),
                    ("publications", "Publications"),
                    ("talks", "Talks"),
                    ("awards", "Awards"),
                    ("news", "News"),
                    ("posts", "Posts"),
                    ("openings", "Openings"),
                    ("research", "Research"),
                    ("teaching", "Teaching"),
                ],
                help_text="A built-in section, to move, rename or hide it.",
                max_length=20,
            ),
        ),
        migrations.CreateModel(
            name="Course",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("title_en", models.CharField(blank=True, max_length=200)),
                ("title_zh_hans", models.CharField(blank=True, default="", max_length=200)),
                (
                    "slug",
                    models.SlugField(
                        blank=True,
                        help_text="The last part of the course's address: “operating-systems-2024” gives /teaching/operating-systems-2024/. Leave empty to make one from the title and year.",
                        max_length=100,
                    ),
                ),
                (
                    "code",
                    models.CharField(
                        blank=True,
                        help_text="The course's number at its institution, e.g. “CS 101”; empty if it has none.",
                        max_length=40,
                    ),
                ),
                (
                    "term_en",
                    models.CharField(
                        blank=True,
                        help_text="The term as the institution names it: “Fall 2024”, “2024年秋季”.",
                        max_length=60,
                    ),
                ),
                (
                    "term_zh_hans",
                    models.CharField(
                        blank=True,
                        default="",
                        help_text="The term as the institution names it: “Fall 2024”, “2024年秋季”.",
                        max_length=60,
                    ),
                ),
                (
                    "start",
                    core.partial_dates.PartialDateField(
                        blank=True,
                        help_text="When it began: 2024, 2024-09 or 2024-09-02. The list groups courses by its year, newest first; a course without one comes last.",
                        null=True,
                    ),
                ),
                (
                    "institution_en",
                    models.CharField(
                        blank=True,
                        help_text="Where it is taught, e.g. “Tsinghua University”.",
                        max_length=200,
                    ),
                ),
                (
                    "institution_zh_hans",
                    models.CharField(
                        blank=True,
                        default="",
                        help_text="Where it is taught, e.g. “Tsinghua University”.",
                        max_length=200,
                    ),
                ),
                (
                    "description_en",
                    models.TextField(
                        blank=True,
                        help_text="Markdown: ## a heading, **bold**, [a link](https://…), - a list. Scripts and images are removed.",
                    ),
                ),
                (
                    "description_zh_hans",
                    models.TextField(
                        blank=True,
                        default="",
                        help_text="Markdown: ## a heading, **bold**, [a link](https://…), - a list. Scripts and images are removed.",
                    ),
                ),
                (
                    "page_url",
                    core.weblinks.WebURLField(
                        blank=True,
                        help_text="The course's own site (https://…).",
                        max_length=500,
                        verbose_name="course page",
                    ),
                ),
                (
                    "syllabus_url",
                    core.weblinks.WebURLField(
                        blank=True,
                        help_text="Its syllabus (https://…).",
                        max_length=500,
                        verbose_name="syllabus",
                    ),
                ),
                (
                    "materials_url",
                    core.weblinks.WebURLField(
                        blank=True,
                        help_text="Its slides, notes or exercises (https://…).",
                        max_length=500,
                        verbose_name="materials",
                    ),
                ),
                (
                    "video_url",
                    core.weblinks.WebURLField(
                        blank=True,
                        help_text="Its lectures' videos (https://…).",
                        max_length=500,
                        verbose_name="recordings",
                    ),
                ),
                (
                    "is_published",
                    models.BooleanField(
                        default=False,
                        help_text="A draft is seen by no visitor: not listed, on no profile and on no CV.",
                        verbose_name="published",
                    ),
                ),
            ],
            options={
                "ordering": [
                    models.OrderBy(models.F("start"), descending=True, nulls_last=True),
                    "pk",
                ],
                "constraints": [
                    models.UniqueConstraint(fields=("slug",), name="course_slug_unique"),
                    models.CheckConstraint(
                        condition=models.Q(("slug", ""), _negated=True), name="course_has_a_slug"
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="HistoricalCourse",
            fields=[
                (
                    "id",
                    models.BigIntegerField(
                        auto_created=True, blank=True, db_index=True, verbose_name="ID"
                    ),
                ),
                ("title_en", models.CharField(blank=True, max_length=200)),
                ("title_zh_hans", models.CharField(blank=True, default="", max_length=200)),
                (
                    "slug",
                    models.SlugField(
                        blank=True,
                        help_text="The last part of the course's address: “operating-systems-2024” gives /teaching/operating-systems-2024/. Leave empty to make one from the title and year.",
                        max_length=100,
                    ),
                ),
                (
                    "code",
                    models.CharField(
                        blank=True,
                        help_text="The course's number at its institution, e.g. “CS 101”; empty if it has none.",
                        max_length=40,
                    ),
                ),
                (
                    "term_en",
                    models.CharField(
                        blank=True,
                        help_text="The term as the institution names it: “Fall 2024”, “2024年秋季”.",
                        max_length=60,
                    ),
                ),
                (
                    "term_zh_hans",
                    models.CharField(
                        blank=True,
                        default="",
                        help_text="The term as the institution names it: “Fall 2024”, “2024年秋季”.",
                        max_length=60,
                    ),
                ),
                (
                    "start",
                    core.partial_dates.PartialDateField(
                        blank=True,
                        help_text="When it began: 2024, 2024-09 or 2024-09-02. The list groups courses by its year, newest first; a course without one comes last.",
                        null=True,
                    ),
                ),
                (
                    "institution_en",
                    models.CharField(
                        blank=True,
                        help_text="Where it is taught, e.g. “Tsinghua University”.",
                        max_length=200,
                    ),
                ),
                (
                    "institution_zh_hans",
                    models.CharField(
                        blank=True,
                        default="",
                        help_text="Where it is taught, e.g. “Tsinghua University”.",
                        max_length=200,
                    ),
                ),
                (
                    "description_en",
                    models.TextField(
                        blank=True,
                        help_text="Markdown: ## a heading, **bold**, [a link](https://…), - a list. Scripts and images are removed.",
                    ),
                ),
                (
                    "description_zh_hans",
                    models.TextField(
                        blank=True,
                        default="",
                        help_text="Markdown: ## a heading, **bold**, [a link](https://…), - a list. Scripts and images are removed.",
                    ),
                ),
                (
                    "page_url",
                    core.weblinks.WebURLField(
                        blank=True,
                        help_text="The course's own site (https://…).",
                        max_length=500,
                        verbose_name="course page",
                    ),
                ),
                (
                    "syllabus_url",
                    core.weblinks.WebURLField(
                        blank=True,
                        help_text="Its syllabus (https://…).",
                        max_length=500,
                        verbose_name="syllabus",
                    ),
                ),
                (
                    "materials_url",
                    core.weblinks.WebURLField(
                        blank=True,
                        help_text="Its slides, notes or exercises (https://…).",
                        max_length=500,
                        verbose_name="materials",
                    ),
                ),
                (
                    "video_url",
                    core.weblinks.WebURLField(
                        blank=True,
                        help_text="Its lectures' videos (https://…).",
                        max_length=500,
                        verbose_name="recordings",
                    ),
                ),
                (
                    "is_published",
                    models.BooleanField(
                        default=False,
                        help_text="A draft is seen by no visitor: not listed, on no profile and on no CV.",
                        verbose_name="published",
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
                "verbose_name": "historical course",
                "verbose_name_plural": "historical courses",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalCourseTeacher",
            fields=[
                (
                    "id",
                    models.BigIntegerField(
                        auto_created=True, blank=True, db_index=True, verbose_name="ID"
                    ),
                ),
                (
                    "name",
                    models.CharField(
                        blank=True,
                        help_text="Someone from outside the lab, by name, e.g. “Prof. Yongwei Wu”; empty for a member.",
                        max_length=200,
                    ),
                ),
                (
                    "role",
                    models.CharField(
                        choices=[
                            ("instructor", "Instructor"),
                            ("co-instructor", "Co-instructor"),
                            ("assistant", "Teaching assistant"),
                            ("guest", "Guest lecturer"),
                        ],
                        default="instructor",
                        max_length=20,
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
                    "course",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="website.course",
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
                    "person",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        help_text="A member of the lab; the course shows on their profile and CV.",
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="people.person",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical teacher",
                "verbose_name_plural": "historical teachers",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="CourseTeacher",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "name",
                    models.CharField(
                        blank=True,
                        help_text="Someone from outside the lab, by name, e.g. “Prof. Yongwei Wu”; empty for a member.",
                        max_length=200,
                    ),
                ),
                (
                    "role",
                    models.CharField(
                        choices=[
                            ("instructor", "Instructor"),
                            ("co-instructor", "Co-instructor"),
                            ("assistant", "Teaching assistant"),
                            ("guest", "Guest lecturer"),
                        ],
                        default="instructor",
                        max_length=20,
                    ),
                ),
                (
                    "position",
                    models.PositiveSmallIntegerField(default=1, help_text="1 comes first."),
                ),
                (
                    "course",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="teachers",
                        to="website.course",
                    ),
                ),
                (
                    "person",
                    models.ForeignKey(
                        blank=True,
                        help_text="A member of the lab; the course shows on their profile and CV.",
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="course_teachers",
                        to="people.person",
                    ),
                ),
            ],
            options={
                "verbose_name": "teacher",
                "ordering": ["course", "position", "pk"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("person__isnull", False),
                            models.Q(("name", ""), _negated=True),
                            _connector="OR",
                        ),
                        name="teacher_person_or_name",
                    ),
                    models.UniqueConstraint(
                        fields=("course", "person"), name="course_teacher_once"
                    ),
                ],
            },
        ),
        migrations.RunPython(migrations.RunPython.noop, drop_teaching_from_the_menu),
    ]
