"""An import that changes nothing moves nothing: the content version stays, so every page
in the cache stays a hit. Before, restoring the archive the site was just written to, a
second `import_site --apply` of the same site and a second import of the same BibTeX
file each moved the version, and every cached page went cold."""

import io
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

from labsite import archive
from labsite.page_cache import content_version

pytestmark = pytest.mark.django_db

SITE = Path(__file__).parent / "data" / "sites" / "alfolio-template"
BIB = """@inproceedings{mooncake,
  title = {Mooncake: Trading More Storage for Less Computation},
  author = {Qin, Ruoyu and Ma, Teng},
  booktitle = {FAST},
  year = {2025},
  doi = {10.5555/mooncake.fast25}
}
"""


def _still_a_hit(client, change):
    """Run `change` between two visits of the team page: whether the second is a hit."""
    client.get("/people/")
    assert client.get("/people/")["X-Page-Cache"] == "hit"
    before = content_version()
    change()
    return content_version() == before and client.get("/people/")["X-Page-Cache"] == "hit"


def test_restoring_the_archive_the_site_was_just_written_to_moves_nothing(client, demo):
    written = io.BytesIO()
    archive.export_lab(written)

    def restore():
        archive.import_lab(io.BytesIO(written.getvalue()), replace=True)

    assert _still_a_hit(client, restore)


def test_a_second_import_of_the_same_bibtex_moves_nothing(client, demo, tmp_path):
    bib = tmp_path / "lab.bib"
    bib.write_text(BIB)
    call_command("import_publications", str(bib), stdout=io.StringIO())

    def again():
        call_command("import_publications", str(bib), stdout=io.StringIO())

    assert _still_a_hit(client, again)


def test_applying_the_same_site_a_second_time_moves_nothing(client, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    call_command("import_site", str(site), "--apply", stdout=io.StringIO())

    def again():
        call_command("import_site", str(site), "--apply", stdout=io.StringIO())

    assert _still_a_hit(client, again)
