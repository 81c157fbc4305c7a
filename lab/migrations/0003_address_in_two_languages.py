"""The lab's address in both languages like its other texts: the English column keeps what
was entered; the Chinese pages show it while the Chinese one is empty."""

from django.db import migrations, models

HELP = (
    "Postal address, shown in the page footer; the Chinese pages show the English one when "
    "the Chinese is empty."
)


class Migration(migrations.Migration):
    dependencies = [("lab", "0002_look")]

    operations = [
        migrations.RenameField("historicallabsettings", "address", "address_en"),
        migrations.RenameField("labsettings", "address", "address_en"),
        migrations.AlterField(
            model_name="historicallabsettings",
            name="address_en",
            field=models.TextField(blank=True, help_text=HELP),
        ),
        migrations.AlterField(
            model_name="labsettings",
            name="address_en",
            field=models.TextField(blank=True, help_text=HELP),
        ),
        migrations.AddField(
            model_name="historicallabsettings",
            name="address_zh_hans",
            field=models.TextField(blank=True, default="", help_text=HELP),
        ),
        migrations.AddField(
            model_name="labsettings",
            name="address_zh_hans",
            field=models.TextField(blank=True, default="", help_text=HELP),
        ),
    ]
