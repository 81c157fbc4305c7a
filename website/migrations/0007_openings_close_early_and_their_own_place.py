"""Openings: the kind of employment search engines' job listings filter by (an internship
an internship, the rest full time until a lab admin says otherwise); a day an opening
closed before its deadline, without touching its posting date; its city in both languages
(the English column keeps what was entered) and a street address of its own, for an
opening that is not at the lab."""

from django.db import migrations, models

CITY_HELP = (
    "Where the work is, as search engines' job listings show it: “Beijing”, “北京”. The "
    "Chinese pages show the English one when the Chinese is empty."
)
STREET_HELP = (
    "The building and street where the work is, when it is not at the lab's own address: "
    "“1 Innovation Road, Yuhang”. Empty: the lab's address when it names the opening's "
    "city, else the city alone."
)
CLOSED_HELP = (
    "The day applications closed before the deadline (the place is filled): from that day "
    "the opening leaves the list and its page says it is closed. Today closes it now; the "
    "posting date stays as it was."
)
EMPLOYMENT_HELP = (
    "As search engines' job listings filter it: a PhD place or a postdoc is usually full "
    "time; an internship left at full time is saved as an internship."
)
EMPLOYMENT_CHOICES = [
    ("FULL_TIME", "Full time"),
    ("PART_TIME", "Part time"),
    ("TEMPORARY", "Fixed term"),
    ("CONTRACTOR", "Contractor"),
    ("INTERN", "Internship"),
    ("VOLUNTEER", "Volunteer"),
    ("OTHER", "Other"),
]


def interns_are_internships(apps, schema_editor):
    apps.get_model("website", "Opening").objects.filter(kind="intern").update(
        employment_type="INTERN"
    )


def _fields(model):
    return [
        migrations.RenameField(model, "city", "city_en"),
        migrations.AlterField(
            model_name=model,
            name="city_en",
            field=models.CharField(max_length=100, help_text=CITY_HELP),
        ),
        migrations.AddField(
            model_name=model,
            name="city_zh_hans",
            field=models.CharField(blank=True, default="", max_length=100, help_text=CITY_HELP),
        ),
        migrations.AddField(
            model_name=model,
            name="street_address_en",
            field=models.CharField(
                "street address", blank=True, max_length=200, help_text=STREET_HELP
            ),
        ),
        migrations.AddField(
            model_name=model,
            name="street_address_zh_hans",
            field=models.CharField(
                "street address", blank=True, default="", max_length=200, help_text=STREET_HELP
            ),
        ),
        migrations.AddField(
            model_name=model,
            name="closed_on",
            field=models.DateField("closed on", blank=True, null=True, help_text=CLOSED_HELP),
        ),
        migrations.AddField(
            model_name=model,
            name="employment_type",
            field=models.CharField(
                "employment",
                choices=EMPLOYMENT_CHOICES,
                default="FULL_TIME",
                max_length=20,
                help_text=EMPLOYMENT_HELP,
            ),
        ),
    ]


class Migration(migrations.Migration):
    dependencies = [("website", "0006_teaching")]

    operations = [
        *_fields("historicalopening"),
        *_fields("opening"),
        migrations.AddConstraint(
            model_name="opening",
            constraint=models.CheckConstraint(
                condition=models.Q(closed_on__isnull=True)
                | models.Q(closed_on__gte=models.F("posted")),
                name="opening_closed_after_posting",
            ),
        ),
        migrations.RunPython(interns_are_internships, migrations.RunPython.noop),
    ]
