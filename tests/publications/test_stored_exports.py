"""The lab's exports read each paper as the task worker stored it (`ExportEntry`), and never
a stored entry older than its paper: whatever changes what an export says (the paper, its
author rows, its venue, an import, a restore, an upgrade) shows in the next export, stored
or not yet."""

import io
from types import SimpleNamespace

import bibtexparser
import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from labsite import archive
from publications import exports, importing, listing, tasks
from publications.models import Authorship, ExportEntry, Publication
from tests.factories import AuthorshipFactory, VenueFactory, authored

pytestmark = pytest.mark.django_db
FORMATS = ("bib", "ris", "json")


def _fresh(extension):
    """The lab's export written afresh from the papers, as if nothing were stored."""
    papers = listing.papers(Publication.objects.published())
    return exports.write(extension, papers)


def _served(client, extension):
    response = client.get(f"/publications/export.{extension}")
    assert response.status_code == 200
    return response.content.decode()


def test_stored_entries_give_the_export_the_papers_give(demo, client):
    assert exports.store() == Publication.objects.count()
    assert ExportEntry.objects.count() == Publication.objects.count()

    for extension in FORMATS:
        assert _served(client, extension) == _fresh(extension)
    assert exports.store() == 0  # nothing out of date


def test_two_papers_of_one_key_keep_a_key_each_from_stored_entries(client):
    for _ in range(3):  # same first author, year and first long title word: one key
        authored(names=("Teng Ma", "Yu Luo"), title="Mooncake serving", date="2024")
    exports.store()

    keys = [e.key for e in bibtexparser.parse_string(_served(client, "bib")).entries]
    assert keys == ["ma2024mooncake", "ma2024mooncakeb", "ma2024mooncakec"]
    assert _served(client, "ris").count("ID  - ma2024mooncakeb\n") == 1
    assert '"id": "ma2024mooncakec"' in _served(client, "json")
    assert all(_served(client, ext) == _fresh(ext) for ext in FORMATS)


def _rename_paper(paper):
    paper.title = "A Renamed Study"
    paper.save()
    return "Renamed"


def _rename_author(paper):
    row = paper.authorships.get(position=2)
    row.family_name = "Renamedauthor"
    row.save()
    return "Renamedauthor"


def _remove_author(paper):
    Authorship.objects.filter(publication=paper, family_name="Luo").delete()
    return "Wang, Y and Ma, T}"


def _add_author(paper):
    AuthorshipFactory(publication=paper, position=4, given_name="Ada", family_name="Newcomer")
    return "Newcomer"


def _rename_venue(paper):
    paper.venue.name = "Symposium of Renamed Things"
    paper.venue.save()
    return "Symposium of Renamed Things"


def _absorb_venue(paper):
    other = VenueFactory(short_name="RENAMED", name="The Absorbing Venue")
    other.absorb([paper.venue])
    return "The Absorbing Venue"


def _import_update(paper):
    """A BibTeX import naming the paper by its DOI, with a volume it lacked."""
    text = "@inproceedings{x, title={%s}, author={Wang, Y and Ma, T and Luo, Y}, doi={%s},\n"
    text += " year={2024}, volume={77}}"
    plans = importing.plan(importing.read_bibtex(text % (paper.title, paper.doi), "x.bib"))
    assert [p.action for p in plans] == ["update"]
    importing.apply(plans)
    return "volume = {77}"


@pytest.mark.parametrize(
    "change",
    [
        _rename_paper,
        _rename_author,
        _remove_author,
        _add_author,
        _rename_venue,
        _absorb_venue,
        _import_update,
    ],
)
def test_a_change_after_the_entries_were_stored_shows_in_the_next_export(client, change):
    paper = authored(names=("Y Wang", "T Ma", "Y Luo"), doi="10.1145/3600006.3613165")
    authored(names=("A Other", "B Other"))
    exports.store()

    shown = change(Publication.objects.get(pk=paper.pk))

    assert shown in _served(client, "bib")
    assert all(_served(client, ext) == _fresh(ext) for ext in FORMATS)
    assert exports.store() == 1  # the changed paper's entry was out of date; only its


def _queries(extension="bib"):
    with CaptureQueriesContext(connection) as captured:
        exports.export(extension, Publication.objects.published())
    return len(captured)


def test_the_lab_export_reads_every_stored_entry_in_one_query():
    for papers in (5, 40):
        for _ in range(papers - Publication.objects.count()):
            authored()
        exports.store()
        assert _queries() == 1


def test_before_the_worker_has_run_the_export_writes_the_papers_in_batches():
    for _ in range(12):
        authored()
    text = exports.export("json", Publication.objects.published())
    # the entries (none), then the papers, their author rows and awards, once for all twelve
    assert _queries("json") == 1 + 3
    exports.store()
    assert exports.export("json", Publication.objects.published()) == text


@pytest.fixture
def queued(monkeypatch):
    """How often the worker's task was queued (and the task run, as the worker would)."""
    count = SimpleNamespace(times=0)

    def enqueue():
        count.times += 1
        exports.store()

    monkeypatch.setattr(tasks, "store_exports", SimpleNamespace(enqueue=enqueue))
    return count


def test_a_new_paper_queues_the_worker_once_it_commits(queued, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        paper = authored(names=("Y Wang", "T Ma", "Y Luo", "Q Ren"))

    assert queued.times == 1  # once for the paper and its four author rows
    stored = ExportEntry.objects.get(pk=paper.pk)
    assert stored.stamp == Publication.objects.get(pk=paper.pk).updated
    assert "Ren, Q" in stored.bib


@pytest.mark.django_db(transaction=True)
def test_removed_authors_queue_the_worker_once_they_commit(queued):
    paper = authored(names=("Y Wang", "T Ma", "Y Luo", "Q Ren"))
    queued.times = 0

    with transaction.atomic():
        Authorship.objects.filter(publication=paper, position__gte=3).delete()

    assert queued.times == 1
    assert "Ren" not in ExportEntry.objects.get(pk=paper.pk).bib


def test_an_import_queues_the_worker_and_leaves_no_paper_unstored(
    queued, django_capture_on_commit_callbacks
):
    text = "".join(
        f"@article{{k{n}, title={{Paper number {n}}}, author={{Ma, Teng}}, year={{2020}}}}\n"
        for n in range(30)
    )
    with django_capture_on_commit_callbacks(execute=True):
        importing.apply(importing.plan(importing.read_bibtex(text, "lab.bib")))

    assert queued.times == 1
    assert ExportEntry.objects.count() == 30 == Publication.objects.count()


def test_entries_do_not_depend_on_the_language_they_were_stored_in(client):
    authored(names=("Teng Ma", "马 腾"), co_first=(1, 2), corresponding=(2,), note="Best paper")
    with translation.override("zh-hans"):
        exports.store()
    for extension in FORMATS:
        assert _served(client, extension) == _fresh(extension)
        assert client.get(f"/zh-hans/publications/export.{extension}").content.decode() == _fresh(
            extension
        )


def test_a_restore_leaves_no_entry_of_the_papers_it_replaced(demo, client):
    exports.store()
    written = io.BytesIO()
    archive.export_lab(written)
    Publication.objects.filter(title__icontains="Mooncake").update(title="Not in the archive")

    archive.import_lab(io.BytesIO(written.getvalue()), replace=True)

    assert not ExportEntry.objects.exists()
    assert all(_served(client, ext) == _fresh(ext) for ext in FORMATS)
    assert "Mooncake" in _served(client, "bib")


def test_a_migrate_lets_the_worker_write_every_entry_again(
    queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # committed, as a site's papers
        authored()
    queued.times = 0
    ExportEntry.objects.update(bib="as an older release wrote it")

    with django_capture_on_commit_callbacks(execute=True):
        call_command("migrate", verbosity=0)

    assert queued.times == 1
    assert "as an older release" not in "".join(ExportEntry.objects.values_list("bib", flat=True))
