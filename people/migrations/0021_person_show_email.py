"""A profile shows its e-mail address only when someone chose to show it. Until now every
address entered was shown, so every profile (and history record) that had one keeps showing
it; none is hidden by the upgrade."""

from django.db import migrations, models


def keep_shown(apps, schema_editor):
    for name in ("Person", "HistoricalPerson"):
        apps.get_model("people", name).objects.exclude(email="").update(show_email=True)


class Migration(migrations.Migration):
    dependencies = [
        ("people", "0020_teaching_on_the_cv"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalperson",
            name="show_email",
            field=models.BooleanField(
                default=False,
                help_text="On the profile and the CV, as a mailto link. Off unless the member or a lab admin turns it on: an invitation never publishes the address it was sent to.",
                verbose_name="Show the e-mail address",
            ),
        ),
        migrations.AddField(
            model_name="person",
            name="show_email",
            field=models.BooleanField(
                default=False,
                help_text="On the profile and the CV, as a mailto link. Off unless the member or a lab admin turns it on: an invitation never publishes the address it was sent to.",
                verbose_name="Show the e-mail address",
            ),
        ),
        migrations.AlterField(
            model_name="historicalperson",
            name="email",
            field=models.EmailField(
                blank=True,
                help_text="Where invitations and the lab's mail go; on the profile only when “Show the e-mail address” is ticked.",
                max_length=254,
            ),
        ),
        migrations.AlterField(
            model_name="person",
            name="email",
            field=models.EmailField(
                blank=True,
                help_text="Where invitations and the lab's mail go; on the profile only when “Show the e-mail address” is ticked.",
                max_length=254,
            ),
        ),
        migrations.RunPython(keep_shown, migrations.RunPython.noop),
    ]
