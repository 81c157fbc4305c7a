"""The stored export entries are written again: CSL-JSON now ends a list that goes on with
"et al.", BibTeX writes a name in Chinese, Japanese or Korean script whole, family name
first, and al-folio's poster, supp, blog and dataset links have fields of their own. An
entry is derived data: a missing one is written afresh on the next export (and by the
task worker), so both directions simply drop them."""

from django.db import migrations


def drop_stored_entries(apps, schema_editor):
    apps.get_model("publications", "ExportEntry").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("publications", "0014_alfolio_link_fields")]

    operations = [migrations.RunPython(drop_stored_entries, drop_stored_entries)]
