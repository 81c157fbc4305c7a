"""A lab admin pastes a real al-folio BibTeX file into the admin's import page in Chromium,
reads the preview (readings, kept fields, files to upload, a field given twice), picks the
value for that field, confirms, and finds the papers with their roles and links."""

from pathlib import Path

import pytest

from publications.models import Publication

pytestmark = pytest.mark.django_db(transaction=True)

REAL = Path(__file__).parent.parent / "publications" / "data" / "bibtex" / "42shawn-papers.bib"
TWICE = """
@inproceedings{twice2024,
  title = {A Title Typed Once},
  author = {Shang*, Yuzhang and Yan, Yan},
  booktitle = {Proceedings of the 2024 Conference on Things (COT '24)},
  title = {A Title Typed Twice},
  year = {2024},
}
"""


def test_a_pasted_real_file_is_previewed_picked_and_imported(shots, lab_admin_page, live_server):
    page = lab_admin_page
    page.goto(live_server.url + "/admin/publications/publication/import/")
    page.fill("#id_bibtex", REAL.read_text(encoding="utf-8") + TWICE)
    page.click("input[type=submit][value=Preview]")
    page.wait_for_load_state()

    preview = page.locator("#content-main").inner_text()
    assert "“title” is given 2 times" in preview
    ecar_row = page.locator("tr", has_text="E-CAR: Efficient Continuous")
    ecar_row.locator("details.import-readings summary").click()
    assert "“*” by Yuan read as co-first" in ecar_row.inner_text()
    assert "preview: al-folio's thumbnail image" in ecar_row.inner_text()
    page.screenshot(path=str(shots / "import-preview-1280.png"), full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280

    page.select_option("select[name^=choice-]", label="A Title Typed Twice")
    page.click("input[name=confirm]")
    page.wait_for_load_state()

    assert "Import done: 21 created" in page.locator(".messagelist").inner_text()
    twice = Publication.objects.get(title="A Title Typed Twice")
    assert twice.authorships.get(position=1).is_equal_contribution
    assert twice.container_title == "Proceedings of the 2024 Conference on Things (COT '24)"
    assert twice.venue.short_name == "COT" and twice.venue.name == "Conference on Things"
    ecar = Publication.objects.get(title__startswith="E-CAR")
    assert [a.is_equal_contribution for a in ecar.authorships.order_by("position")][:3] == [
        True,
        True,
        False,
    ]
    page.goto(live_server.url + ecar.get_absolute_url())
    page.screenshot(path=str(shots / "imported-paper-1280.png"), full_page=False)
    assert "Equal contribution" in page.locator("main").inner_text() or "*" in page.inner_text(
        ".paper__authors"
    )
