"""A post's date defaults to the lab's day (timezone.localdate, TIME_ZONE), not the server clock's."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("website", "0013_home_kinds_from_the_sections_registry"),
    ]

    operations = [
        migrations.AlterField(
            model_name="historicalpost",
            name="date",
            field=models.DateField(
                default=django.utils.timezone.localdate,
                help_text="The post's date, shown with it; a post dated in the future shows from that day on.",
            ),
        ),
        migrations.AlterField(
            model_name="post",
            name="date",
            field=models.DateField(
                default=django.utils.timezone.localdate,
                help_text="The post's date, shown with it; a post dated in the future shows from that day on.",
            ),
        ),
    ]
