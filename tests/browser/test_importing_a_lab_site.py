"""A lab admin uploads a real lab site of 117 people (Wowchemy, tests/labsite/data/corpus/
hugo-pzhang-lab) in Chromium at 1,280 px: the preview fits the admin, shows the site's
groups as a table, and the admin corrects one group's role before importing."""

import shutil
from pathlib import Path

import pytest

from people.models import Person

pytestmark = pytest.mark.django_db(transaction=True)

CORPUS = Path(__file__).parent.parent / "labsite" / "data" / "corpus"


def test_a_lab_sites_preview_fits_and_its_group_mapping_is_corrected(
    shots, lab_admin_page, live_server, tmp_path
):
    archive = shutil.make_archive(str(tmp_path / "lab"), "zip", CORPUS, "hugo-pzhang-lab")
    page = lab_admin_page
    before = set(Person.objects.values_list("pk", flat=True))  # the signed-in admin's own
    page.goto(live_server.url + "/admin/import-site/")
    page.set_input_files("#id_site", archive)
    page.click("input[type=submit][value=Preview]")
    page.wait_for_load_state()

    table = page.locator("table.import-groups")
    assert table.locator("tbody tr").count() == 6
    row = table.locator("tr", has_text="Graduated Post-Doc")
    assert row.locator("select").input_value() == "postdoc"
    assert row.locator("input[type=checkbox]").is_checked()
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280  # fits, no scrolling
    page.screenshot(path=str(shots / "import-site-groups-1280.png"), full_page=False)

    # The lab calls its research staff "Post-Doc": the admin says so, and previews again.
    current = table.locator("tr", has_text="Current Post-Doc")
    current.locator("select").select_option("staff")
    page.click("input[name=regroup]")
    page.wait_for_load_state()
    corrected = page.locator("table.import-groups tr", has_text="Current Post-Doc")
    assert corrected.locator("select").input_value() == "staff"
    assert set(Person.objects.values_list("pk", flat=True)) == before  # a preview writes none
    page.click("input[name=confirm]")
    page.wait_for_load_state()

    imported = Person.objects.exclude(pk__in=before)
    assert imported.count() == 117
    assert imported.filter(role="staff").count() == 10
    assert imported.alumni().count() == 92  # 32 + 44 + 16 graduated
    page.screenshot(path=str(shots / "import-site-done-1280.png"), full_page=False)
